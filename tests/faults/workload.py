"""Phones writing to tables of a real server until it dies, and what it acknowledged."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field

import requests

PLAYERS = ["Ana", "Bruno", "Caio"]
IDLE_POLL_SECONDS = 0.1


@dataclass
class Acknowledged:
    """What the server confirmed: per table, version -> action; and the tables it created."""

    actions: dict[str, dict[int, dict]] = field(default_factory=dict)
    last_answer: dict[str, tuple[str, dict]] = field(default_factory=dict)  # (token, state)
    created: dict[str, list[str]] = field(default_factory=dict)
    unexpected: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self) -> int:
        with self.lock:
            return sum(len(actions) for actions in self.actions.values()) + len(self.created)


def next_action(turn: dict) -> dict:
    """A valid Pickomino dice action for the turn in front of this phone's player."""
    if turn["roll"] is not None:
        kept = {entry["face"] for entry in turn["kept"]}
        return {"type": "keep", "face": random.choice([face for face in turn["roll"] if face not in kept])}
    if turn["kept"] and (turn["total"] >= 25 or random.random() < 0.2):
        return {"type": "stop"}
    return {"type": "roll", "dice": [random.choice([1, 2, 3, 4, 5, "worm"]) for _ in range(turn["dice_left"])]}


def phone(url: str, table_id: str, seat: int, token: str, acknowledged: Acknowledged, stop: threading.Event) -> None:
    """A player's phone: reads its table, and on its turn enters dice, until the server dies."""
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {token}"
    base = f"{url}/api/tables/{table_id}"
    try:
        state = session.get(base, timeout=10).json()
        while not stop.is_set() and state["status"] == "playing":
            if state["current_seat"] != seat:
                time.sleep(IDLE_POLL_SECONDS)
                state = session.get(base, timeout=10).json()
                continue
            action = next_action(state["state"]["turn"])
            response = session.post(base + "/actions", json={**action, "expected_version": state["version"]}, timeout=10)
            if response.status_code == 200:
                state = response.json()
                with acknowledged.lock:
                    acknowledged.actions[table_id][state["version"]] = action
                    acknowledged.last_answer[table_id] = (token, state)
            elif response.status_code == 409:  # another phone of the table wrote first
                state = session.get(base, timeout=10).json()
            else:
                acknowledged.unexpected.append(f"{response.status_code} {response.text}")
                return
    except requests.RequestException:
        return  # the server was killed: refused connection, or an answer cut off
    except Exception as error:  # noqa: BLE001 - a thread's failure must fail the test
        acknowledged.unexpected.append(repr(error))


def host_starting_tables(url: str, acknowledged: Acknowledged, stop: threading.Event) -> None:
    """Meanwhile someone keeps starting new tables."""
    try:
        while not stop.is_set():
            names = [f"P{random.randrange(10**6)}", f"Q{random.randrange(10**6)}"]
            response = requests.post(f"{url}/api/tables", json={"game": "pickomino", "players": names}, timeout=10)
            if response.status_code != 201:
                acknowledged.unexpected.append(f"{response.status_code} {response.text}")
                return
            with acknowledged.lock:
                acknowledged.created[response.json()["id"]] = names
    except requests.RequestException:
        return
    except Exception as error:  # noqa: BLE001
        acknowledged.unexpected.append(repr(error))


class Writers:
    """TABLES tables of three phones each, and someone starting new tables, all writing."""

    def __init__(self, url: str, tables: int):
        self.url = url
        self.acknowledged = Acknowledged()
        self.stop_event = threading.Event()
        self.host_tokens: dict[str, str] = {}
        self.threads = []
        for _ in range(tables):
            created = requests.post(f"{url}/api/tables", json={"game": "pickomino", "players": PLAYERS}).json()
            self.host_tokens[created["id"]] = created["host_token"]
            self.acknowledged.actions[created["id"]] = {}
            for seat in created["seats"]:
                self.threads.append(threading.Thread(
                    target=phone,
                    args=(url, created["id"], seat["seat"], seat["token"], self.acknowledged, self.stop_event),
                ))
        self.threads.append(threading.Thread(target=host_starting_tables, args=(url, self.acknowledged, self.stop_event)))

    def start(self) -> "Writers":
        for thread in self.threads:
            thread.start()
        return self

    def wait_for(self, count: int, timeout: float = 30) -> None:
        """Until the server has acknowledged `count` writes (or something went wrong)."""
        deadline = time.monotonic() + timeout
        while self.acknowledged.count() < count and time.monotonic() < deadline and not self.acknowledged.unexpected:
            time.sleep(0.02)

    def stop(self) -> None:
        self.stop_event.set()
        for thread in self.threads:
            thread.join(timeout=15)
