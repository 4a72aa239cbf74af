"""No serious or critical accessibility violation (axe-core, accessibility.py) on any page a
player or a host sees, in the dark scheme and the light one: every game at each of its
scenes (Game.scenes) as the seated player and as the host, its results once finished, and
its table screen; the start form, the join codes, /tables, the players' pages, a game
night's results, the rules and every game's guide, and /tv. On a 360 px phone, and the
pages made for a TV (every table screen, /tv) at 1280 x 720 as well."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from playwright.sync_api import Page

from companion.games import GAMES
from played import create, csrf_of, host_phone, play_pickomino, play_scene

from .accessibility import violations

TV = {"viewport": {"width": 1280, "height": 720}, "is_mobile": False, "has_touch": False, "device_scale_factor": 1}


@dataclass(frozen=True)
class Visit:
    """A page, and who opens it: a stranger (no cookie), a seat (its join link first) or the
    host (the host token in the phone's cookie)."""

    name: str
    path: str
    seat_token: str | None = None
    host_of: tuple[str, str] | None = None  # (table id, host token)
    status: int = 200


def game_visits(client) -> tuple[list[Visit], list[Visit]]:
    """Each game at each of its scenes: the seat's and the host's table page (the results too
    once finished), and the table screen."""
    pages, screens = [], []
    for slug, game in GAMES.items():
        for name, scene in game.scenes().items():
            table = play_scene(client, slug, scene)
            where = f"/t/{table.id}"
            pages.append(Visit(f"{slug} {name}, seat {scene.seen_by}", where, seat_token=table.seats[scene.seen_by]))
            pages.append(Visit(f"{slug} {name}, host", where, host_of=(table.id, table.host)))
            if name == "finished":
                pages.append(Visit(f"{slug} results", f"{where}/results", seat_token=table.seats[0]))
            screens.append(Visit(f"{slug} {name}, table screen", f"{where}/screen"))
    return pages, screens


def other_visits(app, client) -> list[Visit]:
    """Every page that is not a game's: the start form, the join codes, the tables, a game
    night (a rematch chain's results, and the night's page), the players, the rules and guides."""
    started = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    played = create(client, "pickomino", ("Ana", "Bruno", "Caio"))
    play_pickomino(client, played)
    create(client, "pickomino", ("Anna", "Dora"))  # a name never at Ana's tables: one she may be merged with
    host = host_phone(app, played)
    rematch = host.post(f"/t/{played.id}/rematch", data={"csrf_token": csrf_of(host)})
    assert rematch.status_code == 303, rematch.get_data(as_text=True)
    return [
        Visit("home and the start form", "/"),
        Visit("join codes", f"/t/{started.id}/join", host_of=(started.id, started.host)),
        Visit("tables", "/tables"),
        Visit("a game night's results", f"/t/{played.id}/results"),
        Visit("the game night page", "/night"),
        Visit("players", "/players"),
        Visit("a player", "/players/Ana"),
        Visit("a player, on the host's phone: the people's forms", "/players/Ana", host_of=(played.id, played.host)),
        Visit("merging two people", "/people/merge?name=Anna&into=Ana", host_of=(played.id, played.host)),
        Visit("rules", "/rules"),
        *(Visit(f"{slug} guide", f"/rules/{slug}") for slug in GAMES),
        Visit("tv", "/tv"),
        Visit("tv, a wrong code", "/tv?code=EMEW", status=422),
    ]


class Opener:
    """Opens each visit in the phone that fits it: one for the seats, one for the host, one
    for strangers (all of the same settings)."""

    def __init__(self, live_server, new_phone, **settings):
        self.url = live_server.url
        self.app = live_server.app
        self.seat, self.host, self.stranger = new_phone(**settings), new_phone(**settings), new_phone(**settings)

    def open(self, visit: Visit) -> Page:
        if visit.seat_token is not None:
            self.seat.goto(f"{self.url}/j/{visit.seat_token}")
            phone = self.seat
        elif visit.host_of is not None:
            table_id, token = visit.host_of
            cookie = self.app.session_interface.get_signing_serializer(self.app).dumps({"tables": {table_id: {"host": token}}})
            self.host.context.add_cookies([{"name": self.app.config["SESSION_COOKIE_NAME"], "value": cookie, "url": self.url}])
            phone = self.host
        else:
            phone = self.stranger
        answer = phone.goto(self.url + visit.path)
        assert answer.status == visit.status, (visit, answer.status)
        return phone


def blocking_violations(opener: Opener, visits: list[Visit], where: str) -> list[str]:
    found = []
    for visit in visits:
        for violation in violations(opener.open(visit)):
            found.append(f"{where}, {visit.name} ({visit.path}): {violation['rule']} ({violation['impact']}, {violation['help']}) at {violation['where']}")
    return found


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_no_page_has_a_serious_or_critical_accessibility_violation_on_a_phone(live_server, new_phone, scheme):
    client = live_server.app.test_client()
    pages, screens = game_visits(client)
    opener = Opener(live_server, new_phone, color_scheme=scheme)
    found = blocking_violations(opener, pages + screens + other_visits(live_server.app, client), f"360 px, {scheme}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_pages_made_for_a_tv_have_no_serious_or_critical_accessibility_violation_at_tv_size(live_server, new_phone, scheme):
    client = live_server.app.test_client()
    _pages, screens = game_visits(client)
    opener = Opener(live_server, new_phone, color_scheme=scheme, **TV)
    found = blocking_violations(opener, screens + [Visit("tv", "/tv")], f"1280 x 720, {scheme}")
    assert not found, "\n".join(found)
