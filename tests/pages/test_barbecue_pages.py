"""Heckmeck Barbecue through its pages and the JSON API (docs/rules.md (Heckmeck Barbecue)):
the state the API shows, and the start form's spot worms. The rules alone: tests/games."""

from __future__ import annotations

import re

import pytest

from companion.games.barbecue import DEFAULT_SPOT_WORMS, SPOT_VALUES

W = "worm"


def spot(state, value):
    return next(entry for entry in state["spots"] if entry["value"] == value)


# --- through the JSON API and the start form ---------------------------------------------
def test_rule_3_api_state_shows_spots_plates_snails_and_the_steal(client):
    created = client.post(
        "/api/tables", json={"game": "heckmeck-barbecue", "players": ["Ana", "Bruno"], "options": {"spot_worms": {"31": 5}}}
    )
    assert created.status_code == 201
    body = created.get_json()
    assert body["table"]["options"]["spot_worms"]["31"] == 5
    table_id, host = body["id"], {"Authorization": f"Bearer {body['host_token']}"}
    for _ in range(2):  # Ana places on 31, then Bruno steals it
        for face, count in [(W, 5), (6, 1)]:
            client.post(f"/api/tables/{table_id}/actions", json={"type": "set_aside", "face": face, "count": count}, headers=host)
        view = client.post(f"/api/tables/{table_id}/actions", json={"type": "stop"}, headers=host).get_json()
    state = view["state"]
    assert state["spots"][31 - 23] == {"value": 31, "worms": 5, "plates": [1], "snail": False}
    assert (state["worms"], state["snails"], state["plates_left"], state["snail_supply"]) == ([0, 5], [0, 0], [10, 9], 12)
    assert {key: state["last_turn"][key] for key in ("seat", "total", "outcome", "spot", "from_seat", "snail_to")} == {
        "seat": 1, "total": 31, "outcome": "stole", "spot": 31, "from_seat": 0, "snail_to": None,
    }
    assert state["last_turn"]["text"] == "Bruno stole 5 worms from Ana on 31; Ana's plate went back."
    assert [player["score"] for player in view["players"]] == [0, 5]


@pytest.mark.parametrize(
    "spot_worms, status",
    [({"30": 0}, 422), ({"30": 10}, 422), ({"22": 1}, 422), ({"37": 1}, 422), ({"30": "3"}, 400), ([3], 400)],
)
def test_rule_3_api_refuses_spot_worms_out_of_range_or_of_the_wrong_type(client, spot_worms, status):
    response = client.post(
        "/api/tables", json={"game": "heckmeck-barbecue", "players": ["Ana", "Bruno"], "options": {"spot_worms": spot_worms}}
    )
    assert response.status_code == status
    assert response.get_json()["error"]
    assert "No tables yet." in client.get("/").get_data(as_text=True)  # nothing was made


def start_form(client, **spot_worms):
    page = client.get("/").get_data(as_text=True)
    form = {
        "csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1),
        "game": "heckmeck-barbecue",
        "player": ["Ana", "Bruno"],
    }
    form |= {f"heckmeck-barbecue.spot_worms.{spot}": worms for spot, worms in spot_worms.items()}
    return client.post("/tables", data=form)


def test_rule_3_start_form_shows_the_spot_worms_table_with_a_note_about_the_defaults(client):
    page = client.get("/").get_data(as_text=True)
    for value in SPOT_VALUES:
        assert f'name="heckmeck-barbecue.spot_worms.{value}"' in page
    assert "the defaults are the companion&#39;s assumption" in page


def spot_worms_folded(page: str) -> str:
    """The <details> the spot dropdowns are folded in: "open" or "closed"."""
    opening = re.search(r'<details class="spot-worms"( open)?>\s*<summary>([^<]+)</summary>', page)
    assert opening is not None and opening.group(2) == "My board prints other numbers"
    return "open" if opening.group(1) else "closed"


def test_rule_3_the_spot_dropdowns_are_folded_until_a_board_prints_other_numbers(client):
    """Testers: fourteen dropdowns under a sentence made newcomers think they had to fill
    them. They are folded under "My board prints other numbers", and open when the form
    comes back with an error (a changed spot, or the one refused, is then in sight)."""
    assert spot_worms_folded(client.get("/").get_data(as_text=True)) == "closed"
    page = start_form(client, **{"31": "12"}).get_data(as_text=True)  # refused: a changed spot, and an error
    assert spot_worms_folded(page) == "open"
    assert re.search(r'name="heckmeck-barbecue.spot_worms.31"', page)
    page = client.post("/tables", data={"csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1),
                                        "game": "heckmeck-barbecue", "player": ["Ana"]}).get_data(as_text=True)
    assert "Heckmeck Barbecue is played by 2 to 5 players, not 1." in page
    assert spot_worms_folded(page) == "open"  # any error: whatever it is about is in sight
    page = client.post("/tables", data={"csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1),
                                        "game": "heckmeck-barbecue", "player": ["Ana", "Ana"],
                                        "heckmeck-barbecue.spot_worms.23": "1"}).get_data(as_text=True)
    assert spot_worms_folded(page) == "open"


def test_rule_3_start_form_spot_worms_become_the_option(client):
    response = start_form(client, **{"31": "5", "23": "9"})
    assert response.status_code == 303
    table_id = response.headers["Location"].split("/")[2]
    options = client.get(f"/api/tables/{table_id}").get_json()["options"]
    assert options["spot_worms"] | {"31": None, "23": None} == DEFAULT_SPOT_WORMS | {"31": None, "23": None}
    assert (options["spot_worms"]["31"], options["spot_worms"]["23"]) == (5, 9)


@pytest.mark.parametrize(
    "fields, status, sentence",
    [
        ({"31": "12"}, 422, "Spot 31 cannot show 12 worms: a spot shows 1 to 9 worms."),
        ({"40": "3"}, 422, "There is no grill spot 40: the spots are 23 to 36."),
        ({"31": "many"}, 400, "The worms of spot 31 must be a whole number."),
    ],
)
def test_rule_3_start_form_refuses_bad_spot_worms_with_a_sentence(client, fields, status, sentence):
    response = start_form(client, **fields)
    assert response.status_code == status
    assert sentence in response.get_data(as_text=True)
    assert "No tables yet." in client.get("/").get_data(as_text=True)  # nothing was made
