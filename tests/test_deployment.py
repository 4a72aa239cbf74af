"""deploy/ as docs/hosting.md installs it: the systemd unit (checked by systemd-analyze, its
ExecStart run with its environment file) serving two companions on one PostgreSQL, and the
nginx site in front of them (Debian's nginx, which scripts/test installs, started by the
test): a page, an action and a push cross it, and its access log keeps the join tokens out."""

from __future__ import annotations

import os
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
import requests

from test_push import Stream

pytestmark = [pytest.mark.postgresql, pytest.mark.slow]

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
UNIT = DEPLOY / "companion.service"
SITE = DEPLOY / "nginx" / "companion.conf"
NAME = "companion.example"  # the site's server_name and the environment file's public URL


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def unit_settings(path: Path) -> dict[str, list[str]]:
    """The [Service] section's settings (a key may come more than once)."""
    settings: dict[str, list[str]] = {}
    section = None
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line
        elif section == "[Service]":
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings


def environment_file(path: Path) -> dict[str, str]:
    pairs = (line.split("=", 1) for line in path.read_text().splitlines() if line.strip() and not line.startswith("#"))
    return {key: value for key, value in pairs}


def installed_companion() -> str:
    return str(Path(sys.executable).parent / "companion")


def test_the_systemd_unit_passes_systemd_analyze_verify(tmp_path):
    """With its ExecStart pointing at this test's companion (verify checks that it exists)."""
    verify = shutil.which("systemd-analyze")
    if verify is None:
        pytest.skip("systemd-analyze is not installed here: the unit is checked by being run (the test below)")
    unit = tmp_path / "companion.service"
    unit.write_text(UNIT.read_text().replace("/opt/companion/bin/companion", installed_companion()))
    checked = subprocess.run([verify, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0 and not checked.stderr.strip(), checked.stderr


@contextmanager
def companion_from_the_unit(folder: Path, database: str, port: int):
    """ExecStart of deploy/companion.service, with the unit's Environment= and its
    EnvironmentFile (deploy/companion.env, which it names), as systemd would start it: this
    test's database, key and data folder, and its own port."""
    settings = unit_settings(UNIT)
    env = {**os.environ}
    for assignment in settings["Environment"]:
        key, _, value = assignment.partition("=")
        env[key] = value
    assert settings["EnvironmentFile"] == ["/etc/companion/companion.env"]
    env.update(environment_file(DEPLOY / "companion.env"))
    env.update(COMPANION_DATABASE=database, COMPANION_SECRET_KEY=KEY, COMPANION_INSTANCE=str(folder))
    command = shlex.split(settings["ExecStart"][0])
    assert command[0] == "/opt/companion/bin/companion" and command[command.index("--port") + 1] == "5000"
    command[0] = installed_companion()
    command[command.index("--port") + 1] = str(port)
    with open(folder / "served.log", "ab") as log:
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", process, headers={"Host": NAME})
        yield
    finally:
        process.send_signal(signal.SIGTERM)  # the unit's KillSignal
        process.wait(timeout=30)


KEY = secrets.token_hex(32)  # one key for both servers, as docs/hosting.md says


def wait_for(url: str, process: subprocess.Popen, headers: dict[str, str] | None = None) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            requests.get(url, timeout=2, headers=headers)
            return
        except requests.ConnectionError:
            assert process.poll() is None and time.monotonic() < deadline, f"{url} did not start"
            time.sleep(0.1)


@contextmanager
def nginx_in_front(folder: Path, ports: list[int]):
    """Debian's nginx with deploy/nginx/companion.conf as its only site, on a free loopback
    port instead of 80 and with the test's servers as its upstream: its address, and the
    access log's path."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        raise RuntimeError("nginx is not installed: scripts/test installs it (Debian's nginx)")
    port = free_port()
    access_log = folder / "access.log"
    site = SITE.read_text()
    for deployed, here in (
        ("listen 80;", f"listen 127.0.0.1:{port};"),
        ("listen [::]:80;", ""),
        ("/var/log/nginx/companion.access.log", str(access_log)),
        ("server 127.0.0.1:5000;", "".join(f"server 127.0.0.1:{upstream};" for upstream in ports)),
    ):
        assert deployed in site
        site = site.replace(deployed, here)
    (folder / "companion.conf").write_text(site)
    (folder / "nginx.conf").write_text(
        f"worker_processes 1;\nerror_log {folder}/error.log;\npid {folder}/nginx.pid;\nevents {{}}\n"
        f"http {{\n  client_body_temp_path {folder}/body;\n  proxy_temp_path {folder}/proxy;\n"
        f"  fastcgi_temp_path {folder}/fastcgi;\n  uwsgi_temp_path {folder}/uwsgi;\n  scgi_temp_path {folder}/scgi;\n"
        f"  include {folder}/companion.conf;\n}}\n"
    )
    process = subprocess.Popen(
        [nginx, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(folder / "error.log"), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", process, headers={"Host": NAME})
        yield f"http://127.0.0.1:{port}", access_log
    finally:
        process.send_signal(signal.SIGQUIT)  # nginx's graceful stop
        process.wait(timeout=30)


def test_behind_the_nginx_site_two_servers_of_the_unit_serve_a_page_an_action_and_a_push(postgres_server, tmp_path):
    database = postgres_server.new_database()
    ports = [free_port(), free_port()]
    with ExitStack() as running:
        for number, port in enumerate(ports):
            folder = tmp_path / f"server{number}"
            folder.mkdir()
            running.enter_context(companion_from_the_unit(folder, database, port))
        (tmp_path / "nginx").mkdir()
        proxy, access_log = running.enter_context(nginx_in_front(tmp_path / "nginx", ports))
        host = {"Host": NAME}
        table = requests.post(proxy + "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, headers=host, timeout=10)
        assert table.status_code == 201, table.text
        table = table.json()
        assert table["seats"][0]["join_url"].startswith(f"https://{NAME}/j/")  # the environment file's public URL
        phones = []
        for seat in table["seats"]:
            phone = requests.Session()
            phone.headers.update(host)
            joined = phone.get(f"{proxy}/j/{seat['token']}", timeout=10)  # a QR code scanned: the page
            assert joined.status_code == 200 and "Ana" in joined.text
            phones.append(phone)
        # a hand-made spelling of a join reaches the companion too (it redirects or joins):
        # its token stays out of the log all the same
        odd_spellings = [f"/j//{table['seats'][0]['token']}", f"/%6A/{table['seats'][1]['token']}"]
        for path in odd_spellings:
            requests.get(proxy + path, headers=host, timeout=10, allow_redirects=False)
        streams = [Stream(f"{proxy}/t/{table['id']}/events?v=0", phone) for phone in phones for _ in range(2)]
        for stream in streams:
            assert stream.next_event()["event"] == "hello"  # at once: nginx does not buffer it
        for version, action in enumerate(({"type": "set_aside", "face": "worm", "count": 1}, {"type": "set_aside", "face": 5, "count": 1}), start=1):
            acted = requests.post(
                f"{proxy}/api/tables/{table['id']}/actions", json=action, timeout=10,
                headers={**host, "Authorization": f"Bearer {table['host_token']}"},
            )
            assert acted.status_code == 200, acted.text
            for stream in streams:  # held on either server, the action made through either
                pushed = stream.next_table()
                assert pushed["id"] == str(version) and f'data-version="{version}"' in pushed["data"]
        for stream in streams:
            stream.close()
        served = [(folder / "served.log").read_text() for folder in (tmp_path / "server0", tmp_path / "server1")]
    logged = access_log.read_text()
    assert logged.count("GET /j/[token] HTTP/1.1") == len(table["seats"]) + len(odd_spellings), logged
    for seat in table["seats"]:
        assert seat["token"] not in logged
    assert f"POST /api/tables/{table['id']}/actions" in logged
    assert all("Traceback" not in text for text in served)
