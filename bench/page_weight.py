"""Page weight: what a phone downloads the first time it opens a table, in headless Chromium.

Starts the companion as users run it (`companion serve`, on a fresh SQLite file), starts a
table of each game, and for each one opens a player's join link on a fresh phone (empty
cache, as when a player scans the QR code): the redirect to the table page, the page, and
everything it loads, until the network is idle (before the first poll). Prints, per game:
bytes transferred (headers and bodies as they came over the wire, compressed or not),
requests, and requests to any host other than the server. Then a second visit (cached).

    .venv/bin/python bench/page_weight.py

Targets (issue 8): under 60 KB transferred, 0 requests leaving the server. A benchmark,
not a test: tests/browser/test_no_external_requests.py asserts the second target.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

import requests
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
GAMES = {
    "pickomino": ["Ana", "Bruno", "Caio", "Dora"],
    "heckmeck-barbecue": ["Ana", "Bruno", "Caio", "Dora"],
    "lobo": ["Ana", "Bruno", "Caio", "Dora"],
    "twenty-one": ["Ana", "Bruno", "Caio", "Dora"],
    "qwixx": ["Ana", "Bruno", "Caio", "Dora"],
    "score-pad": ["Ana", "Bruno", "Caio", "Dora"],
}
TARGET_BYTES = 60 * 1024


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(folder: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "COMPANION_DATABASE": f"{folder}/companion.sqlite3", "COMPANION_INSTANCE": folder}
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _attempt in range(200):
        try:
            requests.get(url + "/healthz", timeout=1)
            return process, url
        except requests.ConnectionError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit("the companion did not start")


class Load:
    """Everything one page load fetched, counted from Chromium's own network events."""

    def __init__(self, page, server: str):
        self.server = urlsplit(server).netloc
        self.urls: dict[str, str] = {}  # per hop (a redirect is a request of its own): its URL
        self.bytes: dict[str, int] = {}
        self.cached: set[str] = set()
        self.hop: dict[str, str] = {}  # Chromium's request id -> its latest hop
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.requestServedFromCache", lambda event: self.cached.add(self.hop[event["requestId"]]))
        cdp.on("Network.loadingFinished", self._finished)
        self._cdp = cdp

    def _sent(self, event) -> None:
        request_id = event["requestId"]
        if "redirectResponse" in event:  # the previous hop ended with this redirect
            self.bytes[self.hop[request_id]] = int(event["redirectResponse"]["encodedDataLength"])
        self.hop[request_id] = f"{request_id}#{len(self.urls)}"
        self.urls[self.hop[request_id]] = event["request"]["url"]

    def _finished(self, event) -> None:
        self.bytes[self.hop[event["requestId"]]] = int(event["encodedDataLength"])

    @property
    def requests(self) -> list[str]:
        """Requests that went to a server (not data: URLs, not answered by the cache)."""
        return [
            url for key, url in self.urls.items() if not url.startswith("data:") and key not in self.cached
        ]

    def lines(self) -> list[str]:
        return [
            f"    {self.bytes.get(key, 0) / 1024:6.1f} KB  {url}" + ("  (from the cache)" if key in self.cached else "")
            for key, url in self.urls.items()
            if not url.startswith("data:")
        ]

    @property
    def external(self) -> list[str]:
        return [url for url in self.requests if urlsplit(url).netloc != self.server]

    @property
    def transferred(self) -> int:
        return sum(self.bytes.values())


def measure(browser, url: str, game: str, players: list[str], detail: bool) -> None:
    created = requests.post(url + "/api/tables", json={"game": game, "players": players}).json()
    join = url + "/j/" + created["seats"][1]["token"]
    context = browser.new_context(**PHONE)
    page = context.new_page()
    for visit in ("first", "again"):
        load = Load(page, url)
        page.goto(join, wait_until="networkidle")
        load._cdp.detach()
        verdict = "ok" if load.transferred < TARGET_BYTES and not load.external else "MISSED"
        print(
            f"{game:18} {visit:5}  {load.transferred / 1024:6.1f} KB transferred  {len(load.requests):2} requests"
            f"  {len(load.external)} leaving the server  {verdict if visit == 'first' else ''}"
        )
        for external in load.external:
            print(f"    leaves the server: {external}")
        if detail:
            print("\n".join(load.lines()))
    context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--detail", action="store_true", help="list every request with its bytes")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(folder)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                print(f"First load of a table page by a player's phone (join link), target < {TARGET_BYTES // 1024} KB, 0 leaving")
                for game, players in GAMES.items():
                    measure(browser, url, game, players, args.detail)
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    main()
