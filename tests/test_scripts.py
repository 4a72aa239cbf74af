"""scripts/serve and scripts/test install into .venv only when it is not current: every
`pip install -e .` fetches setuptools from the internet, and a laptop at a game night has
none. Before, scripts/serve installed on every start, and without internet the companion
never started.

The checkout here is a copy of scripts/ and pyproject.toml whose .venv holds a stand-in
Python: it notes each `pip install` (which works, or fails as without internet, as the test
says) and hands anything else to the real Python; `companion` and `pytest` say how they
were started."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each test runs the install scripts in a virtual environment

PROJECT = Path(__file__).resolve().parent.parent

STAND_IN_PYTHON = f"""#!/usr/bin/env bash
here="$(cd "$(dirname "$0")" && pwd)"
if [ "$1 $2 $3" = "-m pip install" ]; then
  echo "pip install ${{@: -1}}" >>"$here/../pip-calls"
  if [ -e "$here/../no-internet" ]; then echo "ERROR: Could not find a version that satisfies setuptools>=68"; exit 1; fi
  printf '#!/usr/bin/env bash\\necho "companion $*"\\n' >"$here/companion"; chmod +x "$here/companion"
  exit 0
fi
if [ "$1 $2" = "-m pytest" ]; then shift 2; echo "pytest $*"; exit 0; fi
exec "{sys.executable}" "$@"
"""


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    copy = tmp_path / "checkout"
    shutil.copytree(PROJECT / "scripts", copy / "scripts")
    shutil.copy(PROJECT / "pyproject.toml", copy / "pyproject.toml")
    python = copy / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(STAND_IN_PYTHON)
    python.chmod(0o755)
    return copy


def run(checkout: Path, script: str, *arguments: str, database: str | None = None) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "COMPANION_DATABASE"}
    if database:
        env["COMPANION_DATABASE"] = database
    return subprocess.run(
        ["bash", str(checkout / "scripts" / script), *arguments], cwd=checkout, env=env,
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60,
    )


def pip_calls(checkout: Path) -> list[str]:
    calls = checkout / ".venv" / "pip-calls"
    return calls.read_text().splitlines() if calls.exists() else []


def test_serve_installs_once_then_starts_without_pip(checkout: Path):
    first = run(checkout, "serve", "--port", "5000")
    assert first.returncode == 0 and first.stdout == "companion serve --port 5000\n"
    assert pip_calls(checkout) == ["pip install ."]
    again = run(checkout, "serve")
    assert again.returncode == 0 and again.stdout == "companion serve\n" and again.stderr == ""
    assert pip_calls(checkout) == ["pip install ."]  # current: pip was not run


def test_serve_installs_again_when_pyproject_changes_or_an_extra_is_wanted(checkout: Path):
    run(checkout, "serve")
    on_postgresql = run(checkout, "serve", database="postgresql://ana@db.example/companion")
    assert on_postgresql.returncode == 0
    assert pip_calls(checkout) == ["pip install .", "pip install .[postgres]"]
    run(checkout, "serve")  # .[postgres] holds what . needs
    assert len(pip_calls(checkout)) == 2
    with (checkout / "pyproject.toml").open("a") as pyproject:
        pyproject.write("\n# a new dependency, say\n")
    run(checkout, "serve")
    assert pip_calls(checkout)[2:] == ["pip install ."]


def test_without_internet_serve_starts_with_what_is_installed_and_says_so_in_one_line(checkout: Path):
    run(checkout, "serve")
    with (checkout / "pyproject.toml").open("a") as pyproject:
        pyproject.write("\n# a new dependency, say\n")
    (checkout / ".venv" / "no-internet").touch()
    offline = run(checkout, "serve")
    assert offline.returncode == 0 and offline.stdout == "companion serve\n"
    assert offline.stderr == (
        "Could not update .venv (no internet? pip's output is in .venv/install.log): going on with what is installed.\n"
    )
    assert "setuptools" in (checkout / ".venv" / "install.log").read_text()
    (checkout / ".venv" / "no-internet").unlink()
    run(checkout, "serve")  # tried again once there is internet
    assert pip_calls(checkout) == ["pip install ."] * 3


def test_without_internet_and_nothing_installed_serve_stops_with_pips_words(checkout: Path):
    (checkout / ".venv" / "no-internet").touch()
    offline = run(checkout, "serve")
    assert offline.returncode == 1 and offline.stdout == ""
    assert "Could not find a version that satisfies setuptools" in offline.stderr
    assert offline.stderr.endswith("Could not install the companion into .venv (pip's output is above).\n")


def test_a_venv_installed_before_the_stamp_counts_as_an_earlier_install(checkout: Path):
    companion = checkout / ".venv" / "bin" / "companion"
    companion.write_text('#!/usr/bin/env bash\necho "companion $*"\n')
    companion.chmod(0o755)
    (checkout / ".venv" / "no-internet").touch()
    offline = run(checkout, "serve")
    assert offline.returncode == 0 and offline.stdout == "companion serve\n"
    assert offline.stderr.startswith("Could not update .venv (no internet?")


@pytest.mark.skipif(
    not Path("/usr/bin/chromium").exists() or not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")),
    reason="scripts/test would install Chromium and PostgreSQL first",
)
def test_test_installs_the_test_extras_once(checkout: Path):
    first = run(checkout, "test", "-k", "pickomino")
    assert first.returncode == 0 and first.stdout == "pytest -k pickomino\n"
    assert pip_calls(checkout) == ["pip install .[test,postgres]"]
    run(checkout, "test")
    assert len(pip_calls(checkout)) == 1
    run(checkout, "serve")  # the test install holds what serving needs
    assert len(pip_calls(checkout)) == 1


def test_the_first_install_says_so_and_an_extra_added_later_is_named(checkout: Path):
    """helper QA: scripts/serve with a PostgreSQL URL, after a first plain start, said it was
    installing the companion (once) again; it names the extra it adds."""
    first = run(checkout, "serve")
    assert first.stderr.startswith("Installing the companion into .venv (once; this needs the internet)")
    on_postgresql = run(checkout, "serve", database="postgresql://ana@db.example/companion")
    assert on_postgresql.stderr.startswith("Adding the postgres extra to .venv (once; this needs the internet)"), on_postgresql.stderr
    assert run(checkout, "serve", database="postgresql://ana@db.example/companion").stderr == ""


def test_several_extras_added_at_once_are_named_together(checkout: Path):
    run(checkout, "serve")
    added = subprocess.run(
        ["bash", str(checkout / "scripts" / "install"), "test", "postgres"], cwd=checkout,
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60,
    )
    assert added.returncode == 0 and added.stderr.startswith("Adding the test and postgres extras to .venv"), added.stderr
    assert pip_calls(checkout)[-1] == "pip install .[test,postgres]"


def test_an_update_without_internet_that_needs_a_library_not_installed_names_it_and_stops(tmp_path: Path):
    """Issue 43: an update of a checkout whose code needs a library its .venv lacks
    (platformdirs came after the venv was made) crashed after "going on with what is
    installed" (ModuleNotFoundError). A real clone and .venv; the package index unreachable
    (pip's configuration files left out, its index a closed port, no wheel folder)."""
    clone = tmp_path / "clone"
    listed = subprocess.run(["git", "ls-files"], cwd=PROJECT, capture_output=True, text=True, check=True).stdout
    for name in listed.splitlines():
        if (PROJECT / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(PROJECT / name, clone / name)
    first = subprocess.run(["bash", "scripts/install"], cwd=clone, capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    # the .venv of before the update: without platformdirs, which the new code imports
    subprocess.run([str(clone / ".venv/bin/python"), "-m", "pip", "uninstall", "--yes", "--quiet", "platformdirs"], check=True)
    with (clone / "pyproject.toml").open("a") as pyproject:
        pyproject.write("\n# the update\n")
    no_wheels = tmp_path / "no-wheels"
    no_wheels.mkdir()
    offline = {
        **{key: value for key, value in os.environ.items() if not key.startswith("PIP_")},
        "PIP_CONFIG_FILE": os.devnull, "PIP_INDEX_URL": "http://127.0.0.1:9/simple", "PIP_FIND_LINKS": str(no_wheels),
        "PIP_RETRIES": "0", "PIP_DEFAULT_TIMEOUT": "2",
    }
    served = subprocess.run(
        ["bash", "scripts/serve", "--port", "0"], cwd=clone, env=offline, capture_output=True, text=True, timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert served.returncode == 1 and served.stdout == ""
    assert served.stderr == (
        "Could not update .venv (no internet? pip's output is in .venv/install.log), and what it holds cannot run this"
        " version of the companion: it lacks platformdirs>=4,<5 (not installed). The first run after an update that"
        " needs a new library needs the internet: connect and start again.\n"
    )
    assert "ModuleNotFoundError" not in served.stderr
