"""Installed from its wheel into a fresh virtual environment (no checkout, no -e), and
started from an unrelated folder, the companion serves the whole app: pages, static files,
the rules reference and the games' guides, the catalogs (a page in French), join links that work; its data goes to the user's data
folder, never into site-packages. This is how `pipx install .` or `pip install .` runs it.

Slow for a test (it builds the wheel and installs it with its dependencies, about half a
minute here), and the only one that checks the package as users get it: the wheel holds
exactly the project's files, nothing a stale build/ folder kept, and names this release.
"""

from __future__ import annotations

import email
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import venv
import zipfile
from pathlib import Path

import pytest
import requests

import companion
from companion.web.app import create_app

pytestmark = pytest.mark.slow  # builds a wheel and installs it into a fresh virtual environment

PROJECT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def tracked(*folders: str) -> list[str]:
    listed = subprocess.run(["git", "ls-files", "--", *folders], cwd=PROJECT, capture_output=True, text=True, check=True)
    return [name for name in listed.stdout.splitlines() if (PROJECT / name).is_file()]


def packaged_as(name: str) -> str:
    """Where a tracked file of companion/, templates/, static/ or docs/ sits in the wheel
    (pyproject.toml's package-dir maps the last three into the package)."""
    top, _, rest = name.partition("/")
    return name if top == "companion" else f"companion/{top}/{rest}"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel as a release builds it (python -m build: the source distribution, then the
    wheel from it in a fresh folder), from a clone of the project's files that an earlier
    build left a build/ folder in, holding a module since removed: setuptools packs
    whatever its build/lib holds, and a wheel built in place (pip wheel .) carried it."""
    work = tmp_path_factory.mktemp("wheel")
    clone = work / "clone"
    for name in tracked():
        (clone / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(PROJECT / name, clone / name)
    stale = clone / "build" / "lib" / "companion" / "removed_long_ago.py"
    stale.parent.mkdir(parents=True)
    stale.write_text("STALE = True\n")
    dist = work / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(clone)], check=True, cwd=work, capture_output=True, text=True,
    )
    # a data folder setuptools does not know of (pyproject.toml's packages) may be left out
    absent = re.findall(r"Package '([^']+)' is absent from the `packages` configuration", built.stdout + built.stderr)
    assert not absent, f"add these to [tool.setuptools] packages in pyproject.toml: {sorted(set(absent))}"
    wheels = list(dist.glob("tabletop_companion-*.whl"))
    assert len(wheels) == 1, list(dist.iterdir())
    return wheels[0]


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """The `companion` command of a fresh venv that installed the project's wheel."""
    work = tmp_path_factory.mktemp("installed")
    venv.create(work / "venv", with_pip=True)
    pip = work / "venv" / "bin" / "pip"
    subprocess.run([str(pip), "install", "--quiet", "--disable-pip-version-check", str(wheel)], check=True, cwd=work)
    return work / "venv" / "bin" / "companion"


@pytest.fixture(scope="module")
def clone_with_data(wheel) -> Path:
    """The clone the wheel was built from, holding the database of its scripts/serve days."""
    clone = wheel.parent.parent / "clone"
    made = create_app({"DATABASE": str(clone / "instance" / "companion.sqlite3"), "SECRET_KEY": "test", "TESTING": True})
    assert made.test_client().post("/api/tables", json={"game": "lobo", "players": ["Ana", "Bruno"]}).status_code == 201
    return clone


def test_installed_from_a_clone_and_started_on_an_empty_data_folder_it_points_to_the_clones_data(clone_with_data, tmp_path):
    """Moving from scripts/serve to `pipx install .` showed an empty companion: the data
    had stayed in the clone's instance/. The installed companion names it, and how to use it."""
    venv.create(tmp_path / "venv", with_pip=True)
    subprocess.run(
        [str(tmp_path / "venv/bin/pip"), "install", "--quiet", "--disable-pip-version-check", str(clone_with_data)],
        check=True, cwd=tmp_path,
    )
    data = tmp_path / "data"
    environment = {key: value for key, value in os.environ.items() if not key.startswith("COMPANION_")} | {
        "HOME": str(tmp_path), "XDG_DATA_HOME": str(data)
    }
    server, printed = start(
        [str(tmp_path / "venv/bin/companion"), "serve", "--host", "127.0.0.1", "--port", str(free_port()), "--processes", "1"],
        tmp_path, environment,
    )
    server.send_signal(signal.SIGINT)
    server.wait(timeout=30)
    earlier = clone_with_data / "instance"
    assert (
        f"{data / 'companion'} held no database, so a new one was made. This companion's earlier data is in {earlier}"
        f" (the checkout it was installed from): to use it, stop this one and start it with"
        f" COMPANION_INSTANCE={earlier} companion serve."
    ) in printed


def test_the_wheel_holds_exactly_the_packages_files_and_names_this_release(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = f"tabletop_companion-{companion.__version__}.dist-info/"
        metadata = email.message_from_bytes(archive.read(info + "METADATA"))
    assert wheel.name == f"tabletop_companion-{companion.__version__}-py3-none-any.whl"
    assert metadata["Name"] == "tabletop-companion" and metadata["Version"] == companion.__version__
    assert metadata["License-Expression"] == "MIT"
    files = sorted(name for name in names if not name.startswith(info))
    expected = sorted(packaged_as(name) for name in tracked("companion", "templates", "static", "docs"))
    assert files == expected, {"not in the project": sorted(set(files) - set(expected)), "left out": sorted(set(expected) - set(files))}
    assert info + "licenses/LICENSE" in names


def answered(address: str) -> requests.Response:
    """The first answer once the server listens (it says it is running just before)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            return requests.get(address, timeout=10)
        except requests.ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def start(command: list[str], cwd: Path, environment: dict[str, str]) -> tuple[subprocess.Popen, list[str]]:
    """The server, and what it printed up to "Stop it with Ctrl+C." """
    server = subprocess.Popen(command, cwd=cwd, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    printed = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        if not line:
            break
        printed.append(line.rstrip("\n"))
        if line.startswith("Stop it with Ctrl+C."):
            return server, printed
    server.kill()
    raise AssertionError("the installed companion did not start:\n" + "\n".join(printed))


def test_the_installed_wheel_serves_everything_from_any_folder_with_its_data_in_the_users_folder(installed, tmp_path):
    # installed from a wheel, in no checkout: the release alone, no commit
    version = subprocess.run([str(installed), "--version"], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert version.stdout == f"companion {companion.__version__}\n"

    elsewhere, home, data = tmp_path / "elsewhere", tmp_path / "home", tmp_path / "data"
    for folder in (elsewhere, home, data):
        folder.mkdir()
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith("COMPANION_")
    } | {"HOME": str(home), "XDG_DATA_HOME": str(data)}
    port = free_port()
    server, printed = start(
        [str(installed), "serve", "--host", "127.0.0.1", "--port", str(port), "--processes", "1"], elsewhere, environment
    )
    url = f"http://127.0.0.1:{port}"
    try:
        # It prints an address it answers on, and says the phones cannot reach it there.
        said = "\n".join(printed)
        assert f"Companion is running at {url}, on this machine only.\n" in said
        assert "phones cannot reach it" in said and "--host 0.0.0.0" in said
        assert f"Data folder: {data / 'companion'}\n" in said
        assert (  # installed from a wheel file: no checkout to point to
            f"{data / 'companion'} held no database, so a new one was made. To use an existing data folder instead,"
            " stop this one and start it with COMPANION_INSTANCE=<that folder> companion serve.\n"
        ) in said

        home_page = answered(url + "/")
        assert home_page.status_code == 200 and "Start a table" in home_page.text
        assert requests.get(url + "/static/app.css", timeout=10).status_code == 200
        assert ".tw-die" in requests.get(url + "/games.css", timeout=10).text  # a game's own styles, from its folder
        assert requests.get(url + "/static/htmx-2.0.11.min.js", timeout=10).status_code == 200
        rules = requests.get(url + "/rules", timeout=10)  # docs/rules.md, carried in the package
        assert rules.status_code == 200 and '<h2 id="qwixx">Qwixx</h2>' in rules.text
        for slug in ("lobo", "twenty-one"):  # a game's guide, from a folder whose name imports and one whose does not
            guide = requests.get(f"{url}/rules/{slug}", headers={"Accept-Language": "ro"}, timeout=10)
            assert guide.status_code == 200 and '<h2 id="pregătire">Pregătire</h2>' in guide.text

        created = requests.post(
            url + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, timeout=10
        )
        assert created.status_code == 201
        table = created.json()
        french = requests.get(f"{url}/t/{table['id']}", headers={"Accept-Language": "fr"}, timeout=10)
        assert french.status_code == 200 and 'lang="fr"' in french.text and "Journal de la partie" in french.text

        join_url = table["seats"][0]["join_url"]
        assert join_url.startswith(url + "/j/")  # an address the server answers on
        phone = requests.Session()
        joined = phone.get(join_url, timeout=10)
        assert joined.status_code == 200 and joined.url == f"{url}/t/{table['id']}"
        assert "You are Ana" in joined.text
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)

    assert (data / "companion" / "companion.sqlite3").is_file()
    assert (data / "companion" / "secret_key").is_file()
    assert (data / "companion" / "translations" / "fr" / "LC_MESSAGES" / "messages.mo").is_file()
    site_packages = installed.parent.parent / "lib"
    written = [
        path for path in site_packages.rglob("*")
        if path.suffix in (".sqlite3", ".mo") or path.name in ("secret_key", "instance")
    ]
    assert not written, f"data written inside the installed package: {written}"
    assert not list(elsewhere.iterdir()), "nothing is written in the folder it was started from"


def test_a_default_data_folder_it_cannot_make_is_one_sentence_naming_it(installed, tmp_path):
    """pipx's companion keeps its data in ~/.local/share/companion: a home it cannot write
    there (here a file where ~/.local should be, which stops root too) is one sentence."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".local").write_text("not a folder")
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith(("COMPANION_", "XDG_"))
    } | {"HOME": str(home)}
    done = subprocess.run(
        [str(installed), "serve", "--host", "127.0.0.1", "--port", str(free_port()), "--processes", "1"],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        f"The companion cannot use its data folder {home / '.local' / 'share' / 'companion'}: {home / '.local'} is a"
        " file, not a folder. Give a folder: set COMPANION_INSTANCE to a folder it may write.\n"
    )
