"""The project carries its own references: nothing in it points outside the repository
(a person who clones or installs it has only what is in it)."""

from __future__ import annotations

import subprocess
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
OUTSIDE = "../" + "shared"  # written in two parts, so this file does not name it itself


def tracked_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=PROJECT, capture_output=True, text=True, check=True).stdout
    return [PROJECT / name for name in listed.splitlines()]


def test_no_file_of_the_project_points_outside_it():
    pointing = [
        str(path.relative_to(PROJECT))
        for path in tracked_files()
        if path.is_file() and OUTSIDE in path.read_text(encoding="utf-8", errors="replace")
    ]
    assert not pointing, f"these files point outside the project: {pointing}"


def test_the_references_the_readme_points_to_are_in_the_project():
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    for reference in ("docs/rules.md", "docs/api.md", "docs/upgrading.md"):
        assert f"({reference})" in readme
        assert (PROJECT / reference).is_file()
