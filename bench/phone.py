"""Phone benchmark: one seated phone in Chromium, slowed down like a phone on a weak Wi-Fi
through the Chrome DevTools Protocol, while the other seats tap.

Starts the companion as users run it (`companion serve`, its defaults: the push server, on
a fresh SQLite file), and for each game and each condition starts a table of four, opens
seat 0's join link in a fresh browser context (an empty cache, as when a player scans the
QR code) and measures:

- the cold load: the bytes that came over the wire (headers included) until the page was
  loaded and its held connection open, first contentful paint, largest contentful paint
  and what it was (read before any tap: each pushed table would be a candidate again);
- tap -> painted: the other three seats play (each tap posted as its page posts it, with
  its page's id and CSRF token, from its own session: an unthrottled phone), and the time
  from sending a tap to seat 0's phone having painted the table it made (the frame after
  the swap), SAMPLES of them; seat 0's own moves are entered by the host through the API,
  and not counted;
- the bytes on the wire per push (Chromium's encodedDataLength of the held connection
  between two taps) against the gzipped size of the table it brought.

Conditions: `phone` (CPU 4x slower, 150 ms latency, 1.6 Mbit/s down, 750 kbit/s up:
Lighthouse's "slow 4G"), `cpu` (the CPU alone), `network` (the network alone), `none`.

DevTools adds its latency to a request before its answer starts, not to the data of an
answer already under way: a table pushed on the held connection is slowed by the
throughput alone. A real 150 ms round trip would add its one way, about 75 ms, to every
push whatever its size; `tap_painted_ms` is what DevTools measured, and
`tap_painted_with_latency_ms` adds those 75 ms to it.

    .venv/bin/python bench/phone.py
    .venv/bin/python bench/phone.py --games qwixx,twenty-one --conditions phone,cpu --samples 25

A benchmark, not a test: the figures depend on the machine and what else it is doing.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import requests
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from load import free_port, start_server  # noqa: E402
from page_weight import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402

from companion.games import GAMES  # noqa: E402
from companion.games import qwixx  # noqa: E402

PLAYERS = ["Ana", "Bruno", "Caio", "Dora"]
MEASURED_SEAT = 0
WEAK_NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}
ONE_WAY_MS = WEAK_NETWORK["latency"] / 2  # what a real network adds to a push, and DevTools does not
CONDITIONS = {
    "phone": {"cpu": 4, "network": WEAK_NETWORK},
    "cpu": {"cpu": 4, "network": None},
    "network": {"cpu": 1, "network": WEAK_NETWORK},
    "none": {"cpu": 1, "network": None},
}
# web.dev's thresholds of a "good" page
GOOD_FCP_MS = 1800
GOOD_LCP_MS = 2500

# Installed before the page's scripts: the paints, and when each table version was painted
# (the frame after the one that swapped it in), on the wall clock the benchmark reads too.
WATCH = """
window.bench = {fcp: null, lcp: null, lcpElement: null, painted: {}};
const describe = element => !element ? null :
  element.tagName.toLowerCase() + (element.id ? "#" + element.id : "") + [...element.classList].map(name => "." + name).join("");
new PerformanceObserver(list => {
  for (const entry of list.getEntries()) if (entry.name === "first-contentful-paint") bench.fcp = entry.startTime;
}).observe({type: "paint", buffered: true});
new PerformanceObserver(list => {
  for (const entry of list.getEntries()) { bench.lcp = entry.startTime; bench.lcpElement = describe(entry.element); }
}).observe({type: "largest-contentful-paint", buffered: true});
document.addEventListener("DOMContentLoaded", () => {
  new MutationObserver(() => {
    const table = document.getElementById("table");
    const version = table && table.dataset.version;
    if (!version || version in bench.painted) return;
    bench.painted[version] = null;
    requestAnimationFrame(() => setTimeout(() => { bench.painted[version] = performance.timeOrigin + performance.now(); }, 0));
  }).observe(document.body, {childList: true, subtree: true});
});
"""
VERSION = re.compile(r'data-version="(\d+)"')
HEADERS = re.compile(r'hx-headers=\'(\{[^\']*\})\'')


class Seat:
    """Another seat's phone, tapping as its table page does, in a session of its own."""

    def __init__(self, url: str, table_id: str, join_url: str):
        self.url, self.table_id = url, table_id
        self.session = requests.Session()
        page = self.session.get(join_url, timeout=30).text
        found = [json.loads(headers) for headers in HEADERS.findall(page)]
        self.csrf = next(headers["X-CSRF-Token"] for headers in found if "X-CSRF-Token" in headers)
        self.page_id = next(headers["X-Companion-Page"] for headers in found if "X-Companion-Page" in headers)
        self.post("opened", {})  # as its page's script says, so the table is shared with the watching phones

    def post(self, what: str, form: dict) -> str:
        headers = {"HX-Request": "true", "X-CSRF-Token": self.csrf, "X-Companion-Page": self.page_id}
        answer = self.session.post(f"{self.url}/t/{self.table_id}/{what}", data=form, headers=headers, timeout=30)
        if answer.status_code != 200 or 'role="alert"' in answer.text:
            raise RuntimeError(f"a tap was refused ({answer.status_code}): {answer.text[:300]}")
        return answer.text

    def tap(self, action: dict | str, version: int) -> int:
        """The version the tap made. `action`: the game's action, or "undo"."""
        form = {"expected_version": str(version)}
        if action != "undo":
            form["action"] = json.dumps(action)
        return int(VERSION.search(self.post("undo" if action == "undo" else "act", form)).group(1))


class Host:
    def __init__(self, url: str, table: dict):
        self.url, self.table = url, table
        self.headers = {"Authorization": f"Bearer {table['host_token']}"}

    def read(self) -> dict:
        return requests.get(f"{self.url}/api/tables/{self.table['id']}", headers=self.headers, timeout=30).json()

    def act(self, seat: int, action: dict) -> int:
        answer = requests.post(f"{self.url}/api/tables/{self.table['id']}/actions", json={**action, "seat": seat}, headers=self.headers, timeout=30)
        if answer.status_code != 200:
            raise RuntimeError(f"the host's entry was refused: {answer.text[:300]}")
        return answer.json()["version"]


# --- each game's next move: (seat, action) from the table as the API gives it -------------
WORM_DICE_TURNS = {  # every die set aside in three taps, the turn ends by itself: 37 and 40
    "pickomino": [("worm", 2), (5, 3), (4, 3)],
    "heckmeck-barbecue": [("worm", 2), (6, 3), (4, 3)],
}


def next_move(slug: str, table: dict, rng: random.Random, moves: int) -> tuple[int, dict | str]:
    state = table["state"]
    if slug in WORM_DICE_TURNS:
        face, count = WORM_DICE_TURNS[slug][len(state["turn"]["kept"])]
        return table["current_seat"], {"type": "set_aside", "face": face, "count": count}
    if slug == "lobo":  # no turns: the other seats reveal their colour and undo it, in turn
        seat = 1 + (moves // 2) % (len(PLAYERS) - 1)
        return seat, ({"type": "reveal"} if moves % 2 == 0 else "undo")
    game = GAMES[slug]
    if slug == "twenty-one":
        if state["roll"] is None:
            return table["current_seat"], {"type": "roll", "dice": {color: rng.randint(1, 6) for color in game.colors}}
        seat = state["waiting_for"][-1]
        targets = sorted(game.targets(state, seat))
        if targets:
            return seat, {"type": "enter", "colors": targets[:1], "row": state["sheets"][seat]["row"]}
        return seat, {"type": "cross"}
    if state["step"] == "roll":  # qwixx
        return table["current_seat"], {"type": "roll", "dice": {die: rng.randint(1, 6) for die in qwixx.dice_in_play(state)}}
    if state["step"] == "white":
        seat = state["waiting_for"][-1]
        choices = qwixx.white_choices(state, seat)
        return seat, {"type": "white", "row": choices[0]["row"] if choices else None}
    seat = table["current_seat"]
    choices = qwixx.colour_choices(state, seat)
    return seat, ({"type": "colour", "row": choices[0]["row"], "white": choices[0]["white"]} if choices else {"type": "colour", "row": None})


# --- one phone ---------------------------------------------------------------------------
class Wire:
    """What came over the wire to the page, from Chromium's network events: every request's
    bytes, and the held connection's data as it came."""

    def __init__(self, cdp):
        self.urls: dict[str, str] = {}
        self.bytes: dict[str, int] = {}
        self.stream: str | None = None  # the held connection's request id
        self.stream_data: list[int] = []  # encoded bytes of each piece of it
        self.messages: list[str] = []  # the tables pushed on it, decoded
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.responseReceived", self._answered)
        cdp.on("Network.dataReceived", self._data)
        cdp.on("Network.loadingFinished", lambda event: self.bytes.__setitem__(event["requestId"], int(event["encodedDataLength"])))
        cdp.on("Network.eventSourceMessageReceived", lambda event: self.messages.append(event["data"]) if event["eventName"] == "table" else None)

    def _sent(self, event) -> None:
        request_id = event["requestId"]
        if "redirectResponse" in event:  # the hop before, ended by this redirect
            self.bytes[request_id + "#redirect"] = int(event["redirectResponse"]["encodedDataLength"])
        self.urls[request_id] = event["request"]["url"]
        if "/events?" in event["request"]["url"]:
            self.stream = request_id

    def _answered(self, event) -> None:
        self.bytes.setdefault(event["requestId"], int(event["response"]["encodedDataLength"]))  # headers, until finished

    def _data(self, event) -> None:
        if event["requestId"] == self.stream:
            self.stream_data.append(int(event["encodedDataLength"]))

    @property
    def transferred(self) -> int:
        return sum(self.bytes.values()) + sum(self.stream_data)


def wall_clock_offset(page) -> float:
    """The page's wall clock minus this process' (ms), from the closest of a few readings."""
    readings = []
    for _ in range(5):
        before = time.time() * 1000
        page_now = page.evaluate("performance.timeOrigin + performance.now()")
        after = time.time() * 1000
        readings.append((after - before, page_now - (before + after) / 2))
    return min(readings)[1]


def measure(browser, url: str, slug: str, condition: str, samples: int, seed: int) -> dict:
    settings = CONDITIONS[condition]
    rng = random.Random(seed)
    created = requests.post(url + "/api/tables", json={"game": slug, "players": PLAYERS, "options": {"deal_colors": True} if slug == "lobo" else {}}, timeout=30).json()
    host = Host(url, created)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.add_init_script(WATCH)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    wire = Wire(cdp)
    if settings["network"]:
        cdp.send("Network.emulateNetworkConditions", settings["network"])
    if settings["cpu"] > 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": settings["cpu"]})
    page.goto(created["seats"][MEASURED_SEAT]["join_url"], wait_until="load", timeout=60_000)
    page.wait_for_function("() => document.documentElement.dataset.push === 'on'", timeout=60_000)
    page.wait_for_timeout(3000)  # the largest paint settles (nothing moves on the page meanwhile)
    cold = page.evaluate("({fcp: bench.fcp, lcp: bench.lcp, element: bench.lcpElement})")
    cold["bytes"] = wire.transferred
    offset = wall_clock_offset(page)

    seats = {seat: Seat(url, created["id"], entry["join_url"]) for seat, entry in enumerate(created["seats"]) if seat != MEASURED_SEAT}
    version, moves = 0, 0
    taps, pushes = [], []
    while len(taps) < samples:
        table = host.read()
        if table["status"] == "finished":
            break
        seat, action = next_move(slug, table, rng, moves)
        moves += 1
        pieces, messages = len(wire.stream_data), len(wire.messages)
        sent = time.time() * 1000
        version = host.act(seat, action) if seat == MEASURED_SEAT else seats[seat].tap(action, table["version"])
        page.wait_for_function("version => bench.painted[version] != null", arg=version, timeout=60_000)
        page.wait_for_timeout(250)  # the network events of the push reach this process
        if seat == MEASURED_SEAT:
            continue  # entered by the host for seat 0: not a tap from another seat
        painted = page.evaluate("version => bench.painted[version]", version) - offset
        taps.append(painted - sent)
        pushed = wire.messages[messages:]
        pushes.append({
            "wire": sum(wire.stream_data[pieces:]),
            "text": sum(len(message.encode()) for message in pushed),
            "gzipped": sum(len(gzip.compress(message.encode(), 6)) for message in pushed),
        })
    context.close()

    def median(values):
        return round(statistics.median(values), 1) if values else None

    return {
        "game": slug,
        "condition": condition,
        "cold_bytes": cold["bytes"],
        "fcp_ms": round(cold["fcp"]) if cold["fcp"] is not None else None,
        "lcp_ms": round(cold["lcp"]) if cold["lcp"] is not None else None,
        "lcp_element": cold["element"],
        "fcp_good": cold["fcp"] is not None and cold["fcp"] <= GOOD_FCP_MS,
        "lcp_good": cold["lcp"] is not None and cold["lcp"] <= GOOD_LCP_MS,
        "taps": len(taps),
        "tap_painted_ms": {"p50": median(taps), "p90": round(sorted(taps)[int(0.9 * (len(taps) - 1))], 1) if taps else None},
        "tap_painted_with_latency_ms": median([tap + ONE_WAY_MS for tap in taps]) if settings["network"] else median(taps),
        "push_wire_bytes": median([push["wire"] for push in pushes]),
        "push_text_bytes": median([push["text"] for push in pushes]),
        "push_gzipped_bytes": median([push["gzipped"] for push in pushes]),
        "wire_to_gzipped": median([push["wire"] / push["gzipped"] for push in pushes if push["gzipped"]]),
    }


def warm_up(browser, url: str, games: list[str]) -> None:
    """A table page of each game opened once, not measured: a server process' first page
    compiles its templates and loads its catalogs (the first cold load measured took twice
    as long as the others)."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    for slug in games:
        for _ in range(2):  # the kernel spreads the connections over the server's processes
            created = requests.post(url + "/api/tables", json={"game": slug, "players": PLAYERS}, timeout=30).json()
            page.goto(created["seats"][1]["join_url"], wait_until="load", timeout=60_000)
    context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated (default: every game)")
    parser.add_argument("--conditions", default=",".join(CONDITIONS), help=f"comma-separated, of {', '.join(CONDITIONS)}")
    parser.add_argument("--samples", type=int, default=25, help="taps from other seats per game and condition (default 25)")
    parser.add_argument("--seed", type=int, default=1, help="the dice of Twenty One and Qwixx")
    args = parser.parse_args()
    games, conditions = args.games.split(","), args.conditions.split(",")
    unknown = [name for name in games if name not in GAMES] + [name for name in conditions if name not in CONDITIONS]
    if unknown:
        parser.error(f"unknown: {', '.join(unknown)}")
    folder = tempfile.mkdtemp(prefix="companion-phone-bench-")
    port = free_port()
    server = start_server(port, str(Path(folder) / "bench.sqlite3"), [])
    url = f"http://127.0.0.1:{port}"
    results = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            warm_up(browser, url, games)
            for slug in games:
                for condition in conditions:
                    results.append(measure(browser, url, slug, condition, args.samples, args.seed))
                    print(json.dumps(results[-1]), file=sys.stderr, flush=True)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    ratios = {}
    for slug in games:
        by_condition = {result["condition"]: result for result in results if result["game"] == slug}
        if "phone" in by_condition and "cpu" in by_condition:
            phone, cpu = by_condition["phone"], by_condition["cpu"]
            ratios[slug] = {
                "phone_to_cpu": round(phone["tap_painted_ms"]["p50"] / cpu["tap_painted_ms"]["p50"], 2),
                "phone_with_latency_to_cpu": round(phone["tap_painted_with_latency_ms"] / cpu["tap_painted_ms"]["p50"], 2),
            }
    print(json.dumps({"results": results, "tap_painted_p50_ratios": ratios}, indent=2))


if __name__ == "__main__":
    main()
