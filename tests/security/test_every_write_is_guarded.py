"""Each seat acts only as itself, the host token for any seat, nothing else gets in.

The walk takes every state-changing route from app.url_map (page and API alike, so new
routes are covered the moment they exist) and sends its legitimate request with the wrong
credentials: none, another table's tokens, another seat's cookie or token, a cookie
signed with another key, an expired cookie, a garbled or old-format cookie, a missing or
foreign CSRF token. Every one is refused with a sentence, and the whole database (tables
and their count, seats, versions, the event log) is exactly as it was. The same request
with the right credentials is accepted, so the refusals are not an accident of the request.

A state-changing route the walk does not know fails the walk: add how to exercise it to
WRITES below.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import pytest
from itsdangerous import TimestampSigner, URLSafeTimedSerializer

from .snapshot import database_snapshot

WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
FULL_ROLL = [1, 2, 3, 4, 5, "worm", "worm", "worm"]
DAY = 24 * 60 * 60


# --- the tables the walk attacks --------------------------------------------------------------
@dataclass
class Table:
    id: str
    host: str
    seats: list[str]


@dataclass
class World:
    """Table A (Ana, Bruno, Caio: Ana to move) is attacked; table B lends its tokens."""

    app: Any
    a: Table
    b: Table
    also_hosted: list[Table] = field(default_factory=list)  # more tables table A's host started

    def phone(self):
        return self.app.test_client()

    def snapshot(self):
        return database_snapshot(self.app.config["DATABASE"])

    def api(self, token: str | None, path: str, body: Any = None):
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        return self.phone().post(path, json=body, headers=headers)


def create(app, players) -> Table:
    response = app.test_client().post("/api/tables", json={"game": "pickomino", "players": players})
    body = response.get_json()
    return Table(body["id"], body["host_token"], [seat["token"] for seat in body["seats"]])


@pytest.fixture
def world(app) -> World:
    return World(app, create(app, ["Ana", "Bruno", "Caio"]), create(app, ["Dora", "Edu"]))


# --- phones: cookies as the server sets them, and as attackers make them ----------------------
def session_cookie(app, payload: dict[str, Any], key: str | None = None, age: int = 0) -> str:
    """A session cookie as this server's session interface writes it, but signed with `key`
    (default: the server's own) `age` seconds ago."""
    interface = app.session_interface

    class SignedThen(TimestampSigner):
        def get_timestamp(self) -> int:
            return int(time.time()) - age

    serializer = URLSafeTimedSerializer(
        key or app.secret_key,
        salt=interface.salt,
        serializer=interface.serializer,
        signer=SignedThen,
        signer_kwargs={"key_derivation": interface.key_derivation, "digest_method": interface.digest_method},
    )
    return serializer.dumps(payload)


def phone_with_cookie(world: World, value: str):
    phone = world.phone()
    phone.set_cookie(world.app.config["SESSION_COOKIE_NAME"], value)
    return phone


def csrf_of(phone) -> str:
    """The CSRF token the server gave this phone with its last page."""
    phone.get("/")
    with phone.session_transaction() as session:
        return session["csrf_token"]


def joined(world: World, seat: int):
    """A phone that opened seat `seat`'s join link, as players do."""
    phone = world.phone()
    assert phone.get(f"/j/{world.a.seats[seat]}").status_code == 303
    return phone


def host_phone(world: World):
    phone = world.phone()
    with phone.session_transaction() as session:
        session["tables"] = {table.id: {"host": table.host} for table in (world.a, *world.also_hosted)}
    return phone


@dataclass
class Phone:
    """What a page request carries: a browser's cookies, and the CSRF token its page sent."""

    client: Any
    csrf: str | None
    seat: int | None = None  # the `seat` field of the form, when the tap names one


def valid_phone(world: World, seat: int = 0) -> Phone:
    phone = joined(world, seat)
    return Phone(phone, csrf_of(phone))


def forged_phone(world: World, key: str | None = None, age: int = 0, tables: Any = None) -> Phone:
    """A cookie claiming seat 0 of table A (or `tables`), with a CSRF token inside."""
    csrf = "forged-csrf-token"
    tables = {world.a.id: {"seat": world.a.seats[0]}} if tables is None else tables
    cookie = session_cookie(world.app, {"tables": tables, "csrf_token": csrf}, key=key, age=age)
    return Phone(phone_with_cookie(world, cookie), csrf)


def stranger(world: World) -> Phone:
    """A phone that loaded a page (so it has a CSRF token) but never joined table A."""
    phone = world.phone()
    return Phone(phone, csrf_of(phone))


def other_seat_naming_seat_0(world: World) -> Phone:
    phone = valid_phone(world, seat=1)
    return Phone(phone.client, phone.csrf, seat=0)


def phone_holding(world: World, entry: dict[str, str]) -> Phone:
    phone = world.phone()
    csrf = csrf_of(phone)
    with phone.session_transaction() as session:
        session["tables"] = {world.a.id: entry}
    return Phone(phone, csrf)


# Page attacks on who the phone is: (name, the phone, whether it still is a phone of
# table A: a seat other than the one to move, refused only where a seat acts for itself).
PAGE_IDENTITY_ATTACKS: list[tuple[str, Callable[[World], Phone], bool]] = [
    ("no credentials", stranger, False),
    ("another table's seat token", lambda w: phone_holding(w, {"seat": w.b.seats[0]}), False),
    ("another table's host token", lambda w: phone_holding(w, {"host": w.b.host}), False),
    ("a made-up seat token", lambda w: phone_holding(w, {"seat": "made-up-token"}), False),
    ("another seat's cookie", lambda w: valid_phone(w, seat=1), True),
    ("another seat's cookie naming seat 0", other_seat_naming_seat_0, True),
    ("an old-format cookie: a list of tables", lambda w: forged_phone(w, key=w.app.secret_key, tables=[w.a.id]), False),
    (
        "an old-format cookie: a bare token",
        lambda w: forged_phone(w, key=w.app.secret_key, tables={w.a.id: w.a.seats[0]}),
        False,
    ),
    (
        "an old-format cookie: a token that is a number",
        lambda w: forged_phone(w, key=w.app.secret_key, tables={w.a.id: {"seat": 7}}),
        False,
    ),
]
# Page attacks on the CSRF token (and on the cookie that holds it): all refused with 400.
PAGE_CSRF_ATTACKS: list[tuple[str, Callable[[World], Phone]]] = [
    ("a missing CSRF token", lambda w: Phone(valid_phone(w).client, None)),
    ("another phone's CSRF token", lambda w: Phone(valid_phone(w).client, csrf_of(w.phone()))),
    # form fields and the X-CSRF-Token header alike: was a 500 (compare_digest takes ASCII only)
    ("a CSRF token that is not ASCII", lambda w: Phone(valid_phone(w).client, "jeton-périmé")),
    ("a cookie signed with another key", lambda w: forged_phone(w, key="not the server's key")),
    ("an expired cookie", lambda w: forged_phone(w, age=int(w.app.permanent_session_lifetime.total_seconds()) + DAY)),
    ("a garbled cookie", lambda w: Phone(phone_with_cookie(w, "eyJub3QiOiJzaWduZWQifQ.garbled.cookie"), "x")),
]


# API attacks: (name, the request's headers, whether it is a token of table A's other seat).
API_ATTACKS: list[tuple[str, Callable[[World], dict[str, str]], bool]] = [
    ("no credentials", lambda w: {}, False),
    ("another table's seat token", lambda w: {"Authorization": f"Bearer {w.b.seats[0]}"}, False),
    ("another table's host token", lambda w: {"Authorization": f"Bearer {w.b.host}"}, False),
    ("a made-up token", lambda w: {"Authorization": "Bearer made-up-token"}, False),
    ("a token not sent as Bearer", lambda w: {"Authorization": f"Basic {w.a.seats[0]}"}, False),
    ("another seat's token", lambda w: {"Authorization": f"Bearer {w.a.seats[1]}"}, True),
]


# --- how to exercise each state-changing route --------------------------------------------------
@dataclass(frozen=True)
class Write:
    """One state-changing route: how to bring table A to where its request is legal for
    seat 0, and how to send that request as a phone (pages) or with headers (API).

    `guard` says what protects it: "seat" (only the seat acting, or the host), "table"
    (any seat of the table, or its host), "host" (the host alone: no seat either), "csrf"
    (pages anyone may use, such as starting a table), or None with a reason in
    `open_because`. Pages also need the CSRF token."""

    face: str  # "page" or "api"
    send: Callable[..., Any]
    guard: str | None
    prepare: Callable[[World], None] = lambda world: None
    open_because: str = ""


def roll_by_seat_0(world: World) -> None:
    assert world.api(world.a.host, f"/api/tables/{world.a.id}/actions", {"type": "roll", "dice": FULL_ROLL}).status_code == 200


def roll_by_seat_0_then_undo(world: World) -> None:
    """Seat 0's roll, undone: there is something to redo."""
    roll_by_seat_0(world)
    assert world.api(world.a.host, f"/api/tables/{world.a.id}/undo").status_code == 200


def finish_by_taking_every_tile(world: World) -> None:
    """Table A played to its end: whoever is to move takes the grill's tiles 21..36 in turn."""
    for tile in range(21, 37):
        worms, rest = divmod(tile, 5)
        actions = [{"type": "set_aside", "face": "worm", "count": worms}]
        actions += [{"type": "set_aside", "face": rest, "count": 1}] if rest else []
        if worms + bool(rest) < 8:  # setting aside the last die ends the turn by itself
            actions.append({"type": "stop"})
        for action in actions:
            assert world.api(world.a.host, f"/api/tables/{world.a.id}/actions", action).status_code == 200


def version(world: World) -> int:
    return world.phone().get(f"/api/tables/{world.a.id}").get_json()["version"]


def page_form(world: World, phone: Phone, **fields: str) -> dict[str, str]:
    form = {"expected_version": str(version(world)), **fields}
    if phone.csrf is not None:
        form["csrf_token"] = phone.csrf
    if phone.seat is not None:
        form["seat"] = str(phone.seat)
    return form


def page_act(world: World, phone: Phone):
    form = page_form(world, phone, action=json.dumps({"type": "roll", "dice": FULL_ROLL}))
    return phone.client.post(f"/t/{world.a.id}/act", data=form, headers={"HX-Request": "true"})


def page_undo(world: World, phone: Phone):
    return phone.client.post(f"/t/{world.a.id}/undo", data=page_form(world, phone), headers={"HX-Request": "true"})


def page_redo(world: World, phone: Phone):
    return phone.client.post(f"/t/{world.a.id}/redo", data=page_form(world, phone), headers={"HX-Request": "true"})


def page_close(world: World, phone: Phone):
    form = {} if phone.csrf is None else {"csrf_token": phone.csrf}
    return phone.client.post(f"/t/{world.a.id}/close", data=form)


def page_rematch(world: World, phone: Phone):
    form = {} if phone.csrf is None else {"csrf_token": phone.csrf}
    return phone.client.post(f"/t/{world.a.id}/rematch", data=form)


def page_create(world: World, phone: Phone):
    form = {"game": "pickomino", "player": ["Fia", "Gil"]}
    if phone.csrf is not None:
        form["csrf_token"] = phone.csrf
    return phone.client.post("/tables", data=form)


def page_seat_opened(world: World, phone: Phone):
    headers = {} if phone.csrf is None else {"X-CSRF-Token": phone.csrf}
    return phone.client.post(f"/t/{world.a.id}/opened", headers=headers)


def page_person(path: str, **fields: str) -> Callable[[World, Phone], Any]:
    """A form of a person's page (Ana, unless `fields` name another, who sat at table A), sent by `phone`."""

    def send(world: World, phone: Phone):
        form = {"name": "Ana", **fields} | ({} if phone.csrf is None else {"csrf_token": phone.csrf})
        return phone.client.post(path, data=form)

    return send


def anna_at_another_table_of_the_host(world: World) -> None:
    """Anna sat at another table table A's host started: Ana may be merged into her (two
    names that sat at one table are two people, and are never merged)."""
    world.also_hosted.append(create(world.app, ["Anna", "Fred"]))


def rename_ana_to_anita(world: World) -> None:
    """Ana is Anita: there is a name to separate again."""
    phone = host_phone(world)
    assert phone.post("/people/rename", data={"name": "Ana", "new_name": "Anita", "csrf_token": csrf_of(phone)}).status_code == 303


def api_act(world: World, headers: dict[str, str], seat: int | None = None):
    action = {"type": "roll", "dice": FULL_ROLL} | ({} if seat is None else {"seat": seat})
    return world.phone().post(f"/api/tables/{world.a.id}/actions", json=action, headers=headers)


def api_undo(world: World, headers: dict[str, str], seat: int | None = None):
    return world.phone().post(f"/api/tables/{world.a.id}/undo", headers=headers)


def api_redo(world: World, headers: dict[str, str], seat: int | None = None):
    return world.phone().post(f"/api/tables/{world.a.id}/redo", headers=headers)


def api_create(world: World, headers: dict[str, str], seat: int | None = None):
    return world.phone().post("/api/tables", json={"game": "pickomino", "players": ["Fia", "Gil"]}, headers=headers)


WRITES: dict[tuple[str, str], Write] = {
    ("pages.create_table", "POST"): Write("page", page_create, "csrf"),
    ("pages.act", "POST"): Write("page", page_act, "seat"),
    ("pages.undo", "POST"): Write("page", page_undo, "seat", prepare=roll_by_seat_0),
    ("pages.redo", "POST"): Write("page", page_redo, "seat", prepare=roll_by_seat_0_then_undo),
    ("results.start_rematch", "POST"): Write("page", page_rematch, "table", prepare=finish_by_taking_every_tile),
    ("pages.close_table", "POST"): Write("page", page_close, "host"),
    # any seat of the table; a host's phone without a seat of its own has none to open (403)
    ("pages.seat_opened", "POST"): Write("page", page_seat_opened, "table"),
    # a person's host: the host of a table they sat at (companion/tables/people.py)
    ("players.rename_person", "POST"): Write("page", page_person("/people/rename", new_name="Anita"), "host"),
    ("players.merge_people", "POST"): Write(
        "page", page_person("/people/merge", into="Anna"), "host", prepare=anna_at_another_table_of_the_host
    ),
    ("players.separate_name", "POST"): Write(
        "page", page_person("/people/separate", name="Anita", typed="Ana"), "host", prepare=rename_ana_to_anita
    ),
    ("api.create_table", "POST"): Write(
        "api", api_create, None, open_because="anyone on the network may start a table; it gets fresh tokens"
    ),
    ("api.post_action", "POST"): Write("api", api_act, "seat"),
    ("api.post_undo", "POST"): Write("api", api_undo, "seat", prepare=roll_by_seat_0),
    ("api.post_redo", "POST"): Write("api", api_redo, "seat", prepare=roll_by_seat_0_then_undo),
}


def state_changing_routes(app) -> set[tuple[str, str]]:
    return {
        (rule.endpoint, method)
        for rule in app.url_map.iter_rules()
        for method in rule.methods & WRITE_METHODS
    }


def test_the_walk_knows_every_state_changing_route(app):
    routes = state_changing_routes(app)
    unknown = sorted(routes - set(WRITES))
    assert not unknown, (
        f"state-changing routes the security walk does not exercise: {unknown}. "
        "Add each to WRITES in tests/security/test_every_write_is_guarded.py."
    )
    assert not sorted(set(WRITES) - routes), "WRITES names routes that no longer exist"
    for key, write in WRITES.items():
        assert write.guard in ("seat", "table", "host", "csrf") or write.open_because, key


def attacks_on(write: Write) -> list[tuple[str, Callable, str]]:
    """The attacks a route must refuse: (name, how to make the credentials, "identity" or "csrf")."""
    if write.guard is None:
        return []
    identities = PAGE_IDENTITY_ATTACKS if write.face == "page" else API_ATTACKS
    attacks = [
        (name, make, "identity")
        for name, make, other_seat in (identities if write.guard in ("seat", "table", "host") else [])
        if write.guard in ("seat", "host") or not other_seat
    ]
    if write.guard == "host":  # even the table's own seats
        attacks.append(("a seat's own cookie", valid_phone, "identity"))
    if write.face == "page":
        attacks += [(name, make, "csrf") for name, make in PAGE_CSRF_ATTACKS]
    return attacks


CASES = [
    pytest.param(key, name, make, kind, id=f"{key[0]} {key[1]}: {name}")
    for key, write in WRITES.items()
    for name, make, kind in attacks_on(write)
]


@pytest.mark.parametrize("key, attack, make, kind", CASES)
def test_a_state_changing_request_with_wrong_credentials_is_refused_and_changes_nothing(world, key, attack, make, kind):
    write = WRITES[key]
    write.prepare(world)
    credentials = make(world)
    before = world.snapshot()
    response = write.send(world, credentials)
    expected = {"identity": (401, 403), "csrf": (400,)}[kind]
    assert response.status_code in expected, (attack, response.status_code, response.get_data(as_text=True)[:500])
    assert world.snapshot() == before, f"{attack}: refused, yet the database changed"
    if write.face == "page":
        assert re.search(r'role="alert">\s*\S', response.get_data(as_text=True)), "the refusal says why"
    else:
        assert response.get_json()["error"]


@pytest.mark.parametrize("key", [key for key, write in WRITES.items() if write.face == "api" and write.guard == "seat"])
def test_a_seat_cookie_is_no_credential_for_the_api(world, key):
    write = WRITES[key]
    write.prepare(world)
    phone = joined(world, 0)  # seat 0's own cookie, sent along: the API only takes tokens
    before = world.snapshot()
    if key[0] == "api.post_action":
        response = phone.post(f"/api/tables/{world.a.id}/actions", json={"type": "roll", "dice": FULL_ROLL})
    else:
        response = phone.post(f"/api/tables/{world.a.id}/undo")
    assert response.status_code == 401
    assert world.snapshot() == before


@pytest.mark.parametrize("key", [key for key, write in WRITES.items() if write.face == "api" and write.guard == "seat"])
def test_another_seats_token_naming_the_seat_to_move_is_refused(world, key):
    write = WRITES[key]
    write.prepare(world)
    before = world.snapshot()
    response = write.send(world, {"Authorization": f"Bearer {world.a.seats[1]}"}, seat=0)
    assert response.status_code == 403
    assert world.snapshot() == before


# --- the same requests with the right credentials are taken ----------------------------------
@pytest.mark.parametrize("key", list(WRITES), ids=[f"{endpoint} {method}" for endpoint, method in WRITES])
def test_the_same_request_from_the_seat_itself_or_the_host_is_accepted(world, key):
    write = WRITES[key]
    write.prepare(world)
    before = world.snapshot()
    if write.face == "page" and write.guard == "host":
        phone = host_phone(world)
        response = write.send(world, Phone(phone, csrf_of(phone)))
    elif write.face == "page":
        response = write.send(world, valid_phone(world, seat=0))
    else:
        response = write.send(world, {"Authorization": f"Bearer {world.a.seats[0]}"})
    assert response.status_code in (200, 201, 303), response.get_data(as_text=True)[:500]
    assert world.snapshot() != before
    shown = response.get_data(as_text=True) + response.headers.get("Location", "")
    assert not [token for token in [world.a.host, *world.a.seats, world.b.host, *world.b.seats] if token in shown]


@pytest.mark.parametrize("key", [key for key, write in WRITES.items() if write.guard == "seat"])
def test_the_host_may_send_it_for_seat_0(world, key):
    write = WRITES[key]
    write.prepare(world)
    before = world.snapshot()
    if write.face == "page":
        phone = host_phone(world)
        response = write.send(world, Phone(phone, csrf_of(phone), seat=0))
    else:
        response = write.send(world, {"Authorization": f"Bearer {world.a.host}"}, seat=0)
    assert response.status_code in (200, 303), response.get_data(as_text=True)[:500]
    assert world.snapshot() != before


def test_a_cookie_made_like_the_attackers_but_signed_now_with_the_servers_key_is_honoured(world):
    """The forged and expired cookies above differ from a real one only in key and age."""
    phone = forged_phone(world, key=world.app.secret_key)
    before = world.snapshot()
    assert page_act(world, phone).status_code == 200
    assert world.snapshot() != before
