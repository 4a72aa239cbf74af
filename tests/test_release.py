"""A release as users and packagers see it: its own version (semantic versioning, written once
in the package), `companion --version` telling two builds apart, a distribution name that is
this project's on the package index, its licence and its changelog."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import companion
from companion.version import described

PROJECT = Path(__file__).resolve().parent.parent
SEMANTIC_VERSION = re.compile(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)")


def pyproject() -> dict:
    return tomllib.loads((PROJECT / "pyproject.toml").read_text())


def test_the_version_is_a_semantic_version_written_once_in_the_package_and_read_by_the_build():
    assert SEMANTIC_VERSION.fullmatch(companion.__version__)
    assert companion.__version__ == "0.2.0"
    project = pyproject()
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "companion.__version__"}
    assert "version" not in (PROJECT / "setup.py").read_text()


def test_version_from_a_checkout_names_the_release_and_the_commit():
    """Two builds of one release told apart: `git describe` (the tag, the commits since, and
    -dirty for changes not committed)."""
    commit = subprocess.run(
        ["git", "describe", "--tags", "--always", "--dirty"], cwd=PROJECT, capture_output=True, text=True, check=True
    ).stdout.strip()
    shown = subprocess.run([sys.executable, "-m", "companion", "--version"], capture_output=True, text=True, check=True)
    assert shown.stdout == f"companion {companion.__version__} (git {commit})\n"


def test_version_without_git_is_the_release_alone(tmp_path: Path):
    no_git = {**os.environ, "PATH": str(tmp_path)}  # a PATH on which git is not found
    shown = subprocess.run([sys.executable, "-m", "companion", "--version"], env=no_git, capture_output=True, text=True, check=True)
    assert shown.stdout == f"companion {companion.__version__}\n"
    assert described() != companion.__version__  # here, with git, the commit is added


def test_the_distribution_is_named_tabletop_companion_and_keeps_the_companion_command():
    project = pyproject()["project"]
    assert project["name"] == "tabletop-companion"
    assert project["scripts"] == {"companion": "companion.server.cli:main"}


def test_no_install_line_or_message_names_the_other_projects_distribution():
    """`companion` on the package index is an unrelated project: `pipx install companion`
    or `pipx inject companion …` (pipx's environment is named after the distribution) would
    install it or find nothing."""
    tracked = subprocess.run(["git", "ls-files"], cwd=PROJECT, capture_output=True, text=True, check=True).stdout.split()
    wrong = re.compile(r"pip(x)? (install|inject|upgrade|reinstall) (--\S+ )*['\"]?companion\b")
    naming = [
        name for name in tracked
        if (PROJECT / name).is_file() and wrong.search((PROJECT / name).read_text(encoding="utf-8", errors="replace"))
        and name != "tests/test_release.py"
    ]
    assert not naming, f"these name the other project's distribution: {naming}"


def test_the_licence_is_mit_and_the_metadata_says_so():
    licence = (PROJECT / "LICENSE").read_text()
    assert licence.startswith("MIT License\n\nCopyright (c) 2026 Companion developers\n")
    project = pyproject()["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]  # an SPDX expression
    assert project["authors"] == [{"name": "Companion developers"}] and project["readme"] == "README.md"


def test_the_changelog_has_a_section_for_this_release_and_the_one_before():
    """Keep a Changelog's form: an Unreleased section, then each release newest first."""
    changelog = (PROJECT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## \[([^\]]+)\]", changelog, re.M)
    assert releases[:3] == ["Unreleased", companion.__version__, "0.1.0"]
    for section in re.split(r"^## ", changelog, flags=re.M)[2:]:
        headings = re.findall(r"^### (.+)$", section, re.M)
        assert headings and set(headings) <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}, section[:40]
    assert "`tie-break`" in changelog  # the CSV export's new column, which an integration reads
