"""scripts/install, which scripts/serve and scripts/test run first: it installs only what the
stamp in .venv does not show for this pyproject.toml, and says what it installs. pip itself
needs the internet, which the tests have not: the .venv here has a python that runs the
real Python for everything but `pip install`, which it records instead."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from companion import PROJECT_ROOT

PYTHON = f"""#!/bin/sh
if [ "$1 $2 $3" = "-m pip install" ]; then echo "$@" >> "$(dirname "$0")/../pip-installs"; exit 0; fi
exec {sys.executable} "$@"
"""


def checkout(tmp_path: Path) -> Path:
    root = tmp_path / "checkout"
    (root / "scripts").mkdir(parents=True)
    shutil.copy(PROJECT_ROOT / "scripts" / "install", root / "scripts" / "install")
    shutil.copy(PROJECT_ROOT / "pyproject.toml", root / "pyproject.toml")
    python = root / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(PYTHON)
    python.chmod(0o755)
    return root


def install(root: Path, *extras: str) -> tuple[str, list[str]]:
    done = subprocess.run(["bash", "scripts/install", *extras], cwd=root, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    installs = root / ".venv" / "pip-installs"
    return done.stderr, installs.read_text().splitlines() if installs.exists() else []


def test_the_first_install_says_so_and_the_next_ones_install_nothing(tmp_path: Path):
    root = checkout(tmp_path)
    said, installs = install(root)
    assert said.startswith("Installing the companion into .venv (once; this needs the internet)")
    assert len(installs) == 1 and installs[0].endswith("-e .")
    assert install(root) == ("", installs)


def test_an_extra_added_later_is_named_not_the_companion_installed_again(tmp_path: Path):
    """helper QA: scripts/serve with a PostgreSQL URL, after a first plain start, said it was
    installing the companion (once) again."""
    root = checkout(tmp_path)
    install(root)
    said, installs = install(root, "postgres")
    assert said.startswith("Adding the postgres extra to .venv (once; this needs the internet)"), said
    assert installs[-1].endswith("-e .[postgres]")
    assert install(root, "postgres") == ("", installs)
    assert install(root) == ("", installs)  # the companion is there with it


def test_several_extras_added_at_once_are_named_together(tmp_path: Path):
    root = checkout(tmp_path)
    install(root)
    said, installs = install(root, "test", "postgres")
    assert said.startswith("Adding the test and postgres extras to .venv"), said
    assert installs[-1].endswith("-e .[test,postgres]")
