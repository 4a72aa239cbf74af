"""The project carries its own references: nothing in it points outside the repository
(a person who clones or installs it has only what is in it)."""

from __future__ import annotations

import re
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


def test_every_file_the_readme_and_the_docs_link_to_is_in_the_project():
    for document in [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md")), PROJECT / "bench" / "README.md"]:
        text = document.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#:\s]+)(?:#[^)]*)?\)", text):
            assert (document.parent / target).exists(), f"{document.name} links to {target}, which is not there"
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    for reference in ("docs/rules.md", "docs/api.md", "docs/architecture.md", "docs/development.md", "docs/upgrading.md",
                      "bench/README.md"):
        assert f"({reference})" in readme
