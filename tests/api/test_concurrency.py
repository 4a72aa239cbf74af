"""Two phones acting at the same moment never lose an update (DESIGN.md: writes are
serialized per table). Real threads against a real server over HTTP, on a SQLite file."""

from __future__ import annotations

import random
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import requests

from companion.tables import service
from companion.games import GAMES
from companion.web import views

FULL_ROLL = [1, 2, 3, 4, 5, "worm", "worm", "worm"]
FACES = [1, 2, 3, 4, 5, "worm"]
HTTP_TIMEOUT = 60  # seconds; only there so a deadlock fails the test instead of hanging it


@dataclass(frozen=True)
class Worker:
    """One phone: whose token it holds, whether it sends expected_version, what it posts."""

    name: str
    token: str
    seat: int | None  # None: the host token
    checked: bool  # sends expected_version from the state it just read
    undoes: bool  # posts undos instead of actions


@dataclass
class Outcome:
    worker: Worker
    kind: str  # "action" or "undo"
    action: dict[str, Any] | None
    status: int
    body: dict[str, Any]


def table_url(server, table_id: str) -> str:
    return f"{server.url}/api/tables/{table_id}"


def post_together(server, table_id: str, posts: list[tuple[str, str, dict[str, Any]]]) -> list[requests.Response]:
    """Every (token, path, body) posted at the same moment, one thread each."""
    start = threading.Barrier(len(posts))

    def send(post):
        token, path, body = post
        with requests.Session() as http:
            http.headers["Authorization"] = f"Bearer {token}"
            http.get(table_url(server, table_id), timeout=HTTP_TIMEOUT)  # connection open before the start
            start.wait()
            return http.post(table_url(server, table_id) + path, json=body, timeout=HTTP_TIMEOUT)

    with ThreadPoolExecutor(len(posts)) as pool:
        return list(pool.map(send, posts))


def json_of(response: requests.Response) -> dict[str, Any]:
    """Every answer of the API is JSON: a 500 page fails here, with what it said."""
    assert response.headers.get("Content-Type", "").startswith("application/json"), (response.status_code, response.text[:300])
    return response.json()


def statuses(responses) -> list[tuple[int, str | None]]:
    return sorted((r.status_code, json_of(r).get("code")) for r in responses)


def test_same_page_posted_by_many_phones_at_once_is_entered_once(live_server):
    """Everyone taps on the same page (same expected_version): one wins, the rest are told
    the table moved on, and the log holds the action once."""
    table = live_server.create()
    ana, host = table["seats"][0]["token"], table["host_token"]
    turn = [
        {"type": "roll", "dice": FULL_ROLL},
        {"type": "keep", "face": "worm"},
        {"type": "roll", "dice": [5, 5, 1, 2, 3]},
        {"type": "keep", "face": 5},
        {"type": "stop"},
    ]
    for version, action in enumerate(turn):
        body = {**action, "expected_version": version}
        responses = post_together(live_server, table["id"], [(ana if n % 2 else host, "/actions", body) for n in range(12)])

        assert statuses(responses) == [(200, None)] + [(409, "stale_version")] * 11
        winner = next(r for r in responses if r.status_code == 200)
        assert winner.json()["version"] == version + 1
    events = requests.get(table_url(live_server, table["id"]) + "/log").json()["events"]
    assert [(e["seq"], e["action"]) for e in events] == [(n + 1, action) for n, action in enumerate(turn)]
    assert requests.get(table_url(live_server, table["id"])).json()["state"]["stacks"] == [[25], [], []]


def test_same_action_posted_by_many_phones_without_version_is_entered_once(live_server):
    """Without expected_version the rules still serialize: after the first roll is in,
    the same roll again is refused (keep first), and a second keep finds no roll."""
    table = live_server.create()
    host = table["host_token"]

    rolls = post_together(live_server, table["id"], [(host, "/actions", {"type": "roll", "dice": FULL_ROLL})] * 12)
    keeps = post_together(live_server, table["id"], [(host, "/actions", {"type": "keep", "face": "worm"})] * 12)

    assert statuses(rolls) == [(200, None)] + [(422, "keep_first")] * 11
    assert statuses(keeps) == [(200, None)] + [(422, "no_roll")] * 11
    events = requests.get(table_url(live_server, table["id"]) + "/log").json()["events"]
    assert [e["action"]["type"] for e in events] == ["roll", "keep"]


def test_undo_posted_by_many_phones_at_once_undoes_each_action_once(live_server):
    table = live_server.create()
    host = table["host_token"]
    for action in [{"type": "roll", "dice": FULL_ROLL}, {"type": "keep", "face": "worm"}]:
        requests.post(
            table_url(live_server, table["id"]) + "/actions", json=action, headers={"Authorization": f"Bearer {host}"}
        ).raise_for_status()

    responses = post_together(live_server, table["id"], [(host, "/undo", {})] * 12)

    assert statuses(responses) == [(200, None)] * 2 + [(409, "nothing_to_undo")] * 10
    assert sorted(r.json()["version"] for r in responses if r.status_code == 200) == [3, 4]
    events = requests.get(table_url(live_server, table["id"]) + "/log").json()["events"]
    assert [e["undone"] for e in events] == [True, True]


# --- many phones, many tables, everything at once -------------------------------------------
def choose_action(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """An action the rules accept in `state` (the worm-dice phase of docs/rules.md (the worm-dice turn))."""
    turn = state["state"]["turn"]
    kept = [group["face"] for group in turn["kept"]]
    if turn["roll"] is not None:
        return {"type": "keep", "face": rng.choice([face for face in turn["roll"] if face not in kept])}
    choice = rng.random()
    if choice < 0.05 and kept:  # a failure comes after a first group
        return {"type": "bust"}
    if choice < 0.25 and turn["has_worm"]:
        return {"type": "stop"}
    if choice < 0.4:
        face = rng.choice([face for face in FACES if face not in kept])
        return {"type": "set_aside", "face": face, "count": rng.randint(1, min(3, turn["dice_left"]))}
    return {"type": "roll", "dice": [rng.choice(FACES) for _ in range(turn["dice_left"])]}


def run(server, table_id: str, worker: Worker, start: threading.Barrier, rounds: int) -> list[Outcome]:
    rng = random.Random(worker.name)
    url = table_url(server, table_id)
    outcomes = []
    with requests.Session() as http:
        http.headers["Authorization"] = f"Bearer {worker.token}"
        http.get(url, timeout=HTTP_TIMEOUT)
        start.wait()
        for _ in range(rounds):
            state = json_of(http.get(url, timeout=HTTP_TIMEOUT))
            version = {"expected_version": state["version"]} if worker.checked else {}
            if worker.undoes and rng.random() < 0.6:
                continue  # a correction now and then, so the games still move on
            if worker.undoes or state["status"] == "finished":
                response = http.post(url + "/undo", json=version, timeout=HTTP_TIMEOUT)
                outcomes.append(Outcome(worker, "undo", None, response.status_code, json_of(response)))
                continue
            if worker.checked and worker.seat is not None and state["current_seat"] != worker.seat:
                continue  # a careful phone only taps on its own turn
            action = choose_action(state, rng)
            response = http.post(url + "/actions", json={**action, **version}, timeout=HTTP_TIMEOUT)
            outcomes.append(Outcome(worker, "action", action, response.status_code, json_of(response)))
    return outcomes


def workers_for(created: dict[str, Any], prefix: str, seats_too: bool) -> list[Worker]:
    host = created["host_token"]
    workers = [
        Worker(f"{prefix} host checked", host, None, checked=True, undoes=False),
        Worker(f"{prefix} host blind", host, None, checked=False, undoes=False),
        Worker(f"{prefix} host undo", host, None, checked=False, undoes=True),
    ]
    if seats_too:
        workers.append(Worker(f"{prefix} host checked 2", host, None, checked=True, undoes=False))
        for seat in created["seats"]:
            for checked in (True, False):
                workers.append(Worker(f"{prefix} seat {seat['seat']} {checked}", seat["token"], seat["seat"], checked, False))
        workers.append(Worker(f"{prefix} seat 0 undo checked", created["seats"][0]["token"], 0, checked=True, undoes=True))
    return workers


def refusal_is_expected(outcome: Outcome) -> bool:
    """What this phone may be told: a careful one (expected_version) only that the table
    moved on; a hasty one also that its action, chosen on a page now stale, breaks a rule."""
    worker, refusal = outcome.worker, (outcome.status, outcome.body.get("code"))
    if worker.checked and refusal == (409, "stale_version"):
        return True
    if outcome.kind == "undo":
        return refusal == (409, "nothing_to_undo") or (worker.seat is not None and refusal == (403, "not_your_action"))
    if worker.checked:
        return False
    if worker.seat is not None and refusal == (403, "not_your_turn"):
        return True
    return outcome.status == 422 and re.fullmatch(r"[a-z]+(_[a-z]+)*", refusal[1] or "") is not None


def view_at(app, created: dict[str, Any], version: int, moves: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    """The API's table state after `moves`, computed afresh from the pure engine."""
    game = GAMES[created["table"]["game"]]
    names = [seat["name"] for seat in created["seats"]]
    options = created["table"]["options"]
    state = game.replay(game.setup(names, options), moves)
    row = {"id": created["id"], "version": version, "options": options}
    with app.test_request_context():
        return views.table_view(service.Table(row, names, game, state))


def check_table(app, server, created: dict[str, Any], outcomes: list[Outcome]) -> None:
    # No 500, and every refusal is one this phone could meet, in docs/api.md's body.
    for outcome in outcomes:
        if outcome.status != 200:
            assert refusal_is_expected(outcome), outcome
            assert isinstance(outcome.body["error"], str) and outcome.body["error"], outcome

    accepted = sorted((o for o in outcomes if o.status == 200), key=lambda o: o.body["version"])
    final = requests.get(table_url(server, created["id"])).json()
    events = {event["seq"]: event for event in requests.get(table_url(server, created["id"]) + "/log").json()["events"]}

    # Each accepted request took exactly one version: none lost, none given twice.
    assert [o.body["version"] for o in accepted] == list(range(1, final["version"] + 1))
    # Each accepted action is exactly one event, at its version; an undo writes none.
    assert sorted(events) == [o.body["version"] for o in accepted if o.kind == "action"]

    # Replaying the accepted requests in version order gives each response's state.
    in_effect: list[dict[str, Any]] = []
    undone: set[int] = set()
    for outcome in accepted:
        version = outcome.body["version"]
        if outcome.kind == "action":
            event = events[version]
            assert event["action"] == outcome.action
            expected_seat = outcome.worker.seat
            if expected_seat is None:  # the host acts for the seat whose move it was
                expected_seat = view_at(app, created, version - 1, [(e["seat"], e["action"]) for e in in_effect])["current_seat"]
            assert event["seat"] == expected_seat
            in_effect.append(event)
        else:
            undone.add(in_effect.pop()["seq"])
        moves = [(event["seat"], event["action"]) for event in in_effect]
        assert outcome.body == view_at(app, created, version, moves), f"version {version}"

    # The log marks exactly those undone, and the table is the replay of the log.
    assert {seq for seq, event in events.items() if event["undone"]} == undone
    moves = [(event["seat"], event["action"]) for seq, event in sorted(events.items()) if not event["undone"]]
    assert final == view_at(app, created, final["version"], moves)


def test_many_phones_on_several_tables_lose_and_duplicate_no_update(live_server):
    busy = live_server.create(players=["Ana", "Bruno", "Caio"])
    quiet = [live_server.create(players=["Dora", "Ema"]), live_server.create(players=["Fabi", "Gil", "Hugo", "Iara"])]
    jobs = [(busy, worker) for worker in workers_for(busy, "busy", seats_too=True)]
    for number, created in enumerate(quiet):
        jobs += [(created, worker) for worker in workers_for(created, f"quiet {number}", seats_too=False)]
    start = threading.Barrier(len(jobs))

    with ThreadPoolExecutor(len(jobs)) as pool:
        results = list(pool.map(lambda job: run(live_server, job[0]["id"], job[1], start, rounds=20), jobs))

    for created in [busy, *quiet]:
        outcomes = [o for result, (owner, _) in zip(results, jobs) if owner is created for o in result]
        assert any(o.status == 200 for o in outcomes)
        check_table(live_server.app, live_server, created, outcomes)



def test_tables_created_at_the_same_moment_are_all_distinct(live_server):
    start = threading.Barrier(12)

    def create(number: int) -> requests.Response:
        with requests.Session() as http:
            http.get(live_server.url + "/api/tables/ZZZZZZ", timeout=HTTP_TIMEOUT)  # connection open before the start
            start.wait()
            return http.post(
                live_server.url + "/api/tables",
                json={"game": "pickomino", "players": [f"Ana {number}", f"Bruno {number}"]},
                timeout=HTTP_TIMEOUT,
            )

    with ThreadPoolExecutor(12) as pool:
        responses = list(pool.map(create, range(12)))

    assert [r.status_code for r in responses] == [201] * 12
    created = [json_of(r) for r in responses]
    assert len({c["id"] for c in created}) == 12
    for number, table in enumerate(created):
        state = json_of(requests.get(table_url(live_server, table["id"]), timeout=HTTP_TIMEOUT))
        assert [p["name"] for p in state["players"]] == [f"Ana {number}", f"Bruno {number}"]
