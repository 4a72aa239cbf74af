"""docs/api.md "Tables": creating a table, reading it, joining it, and what the database keeps."""

from __future__ import annotations

import pytest
import requests

from companion.tables import service
from companion.games import GAMES, base

from played import assert_error, bearer, dump, rows
from .api_client import FULL_ROLL

PICKOMINO_OPTIONS = {"alternative_return": False, "flip_when_empty": False}


def count_tables(app) -> int:
    return rows(app.config["DATABASE"], "SELECT count(*) FROM game_tables")[0][0]


# --- POST /api/tables ---------------------------------------------------------------------
def test_create_table_answers_201_with_id_host_token_seats_and_table(client):
    response = client.post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno", "Caio"], "options": {}})

    assert response.status_code == 201
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert isinstance(body["id"], str) and body["id"]
    assert isinstance(body["host_token"], str) and body["host_token"]
    assert [(seat["seat"], seat["name"]) for seat in body["seats"]] == [(0, "Ana"), (1, "Bruno"), (2, "Caio")]
    tokens = [seat["token"] for seat in body["seats"]]
    assert all(isinstance(token, str) and token for token in tokens)
    assert len({*tokens, body["host_token"]}) == 4
    for seat in body["seats"]:
        assert seat["join_url"].startswith("http")
        assert seat["join_url"].endswith("/j/" + seat["token"])
    table = body["table"]
    assert table["id"] == body["id"]
    assert table["game"] == "pickomino"
    assert table["status"] == "playing"
    assert table["version"] == 0
    assert table["options"] == PICKOMINO_OPTIONS
    assert table["players"] == [
        {"seat": 0, "name": "Ana", "score": 0},
        {"seat": 1, "name": "Bruno", "score": 0},
        {"seat": 2, "name": "Caio", "score": 0},
    ]
    assert table["current_seat"] == 0  # the first player starts
    assert table["ranking"] is None


def test_create_table_trims_names_and_takes_24_characters(api):
    longest = "X" * 24
    table = api.create(players=["  Ana ", f" {longest}  "])

    assert [seat["name"] for seat in table.created["seats"]] == ["Ana", longest]


def test_create_table_takes_names_that_look_different_though_they_differ_only_by_invisible_characters(api):
    england = "\U0001F3F4\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F"
    scotland = "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"
    table = api.create(players=[f"Team {england}", f"Team {scotland}"])  # emoji tags tell the flags apart

    assert [seat["name"] for seat in table.created["seats"]] == [f"Team {england}", f"Team {scotland}"]


def test_create_table_takes_the_options_given(api):
    table = api.create(options={"flip_when_empty": True})

    assert api.state(table)["options"] == {"alternative_return": False, "flip_when_empty": True}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_create_table_for_every_game_at_both_ends_of_its_player_range(api, game):
    for count in (GAMES[game].min_players, GAMES[game].max_players):
        players = [f"Player {n}" for n in range(count)]

        table = api.create(players=players, game=game)

        state = api.state(table)
        assert state["game"] == game
        assert state["status"] == "playing"
        assert [player["name"] for player in state["players"]] == players
        assert len(table.tokens) == count


@pytest.mark.parametrize("game", sorted(GAMES))
def test_create_table_outside_the_games_player_range_is_422(app, client, game):
    for count in (GAMES[game].min_players - 1, GAMES[game].max_players + 1):
        response = client.post("/api/tables", json={"game": game, "players": [f"P{n}" for n in range(count)]})

        assert_error(response, 422, "player_count")
    assert count_tables(app) == 0


@pytest.mark.parametrize("game", sorted(GAMES))
def test_create_table_with_an_option_the_game_lacks_is_422(app, client, game):
    response = client.post("/api/tables", json={"game": game, "players": ["Ana", "Bruno"], "options": {"turbo": True}})

    assert_error(response, 422, "unknown_option")
    assert count_tables(app) == 0


@pytest.mark.parametrize(
    "payload, status, code",
    [
        pytest.param({"players": ["Ana", "Bruno"]}, 400, "malformed_request", id="game_missing"),
        pytest.param({"game": 7, "players": ["Ana", "Bruno"]}, 400, "malformed_request", id="game_not_a_string"),
        pytest.param({"game": "chess", "players": ["Ana", "Bruno"]}, 422, "unknown_game", id="unknown_game"),
        pytest.param({"game": "pickomino"}, 400, "malformed_request", id="players_missing"),
        pytest.param({"game": "pickomino", "players": "Ana, Bruno"}, 400, "malformed_request", id="players_not_a_list"),
        pytest.param({"game": "pickomino", "players": ["Ana", 2]}, 400, "malformed_request", id="name_not_a_string"),
        pytest.param({"game": "pickomino", "players": ["Ana"]}, 422, "player_count", id="too_few_players"),
        pytest.param(
            {"game": "pickomino", "players": [f"P{n}" for n in range(8)]}, 422, "player_count", id="too_many_players"
        ),
        pytest.param({"game": "pickomino", "players": ["Ana", ""]}, 422, "name_empty", id="name_empty"),
        pytest.param({"game": "pickomino", "players": ["Ana", "   "]}, 422, "name_empty", id="name_only_spaces"),
        pytest.param({"game": "pickomino", "players": ["Ana", "Y" * 25]}, 422, "name_too_long", id="name_too_long"),
        pytest.param({"game": "pickomino", "players": ["Ana", " ana "]}, 422, "duplicate_name", id="name_duplicated_ignoring_case"),
        pytest.param({"game": "pickomino", "players": ["Ana", "Ana\u200b"]}, 422, "duplicate_name", id="name_duplicated_but_a_zero_width_space"),
        pytest.param({"game": "pickomino", "players": ["Ana", "A\u00adna"]}, 422, "duplicate_name", id="name_duplicated_but_a_soft_hyphen"),
        pytest.param({"game": "pickomino", "players": ["Ana", "\u2060ANA"]}, 422, "duplicate_name", id="name_duplicated_but_a_word_joiner_and_case"),
        pytest.param({"game": "pickomino", "players": ["ﬀ", "FF"]}, 422, "duplicate_name", id="name_duplicated_as_a_ligature"),
        pytest.param({"game": "pickomino", "players": ["Ana", "Ana\ufe0f"]}, 422, "duplicate_name", id="name_duplicated_but_a_variation_selector"),
        pytest.param({"game": "pickomino", "players": ["Ana", "An\U000e0100a"]}, 422, "duplicate_name", id="name_duplicated_but_a_supplementary_variation_selector"),
        pytest.param({"game": "pickomino", "players": ["Ana", "A\u034fna"]}, 422, "duplicate_name", id="name_duplicated_but_a_grapheme_joiner"),
        pytest.param({"game": "pickomino", "players": ["Ana", "Ana\u180b"]}, 422, "duplicate_name", id="name_duplicated_but_a_mongolian_selector"),
        pytest.param({"game": "pickomino", "players": ["Ana", "A\U000e0041na"]}, 422, "duplicate_name", id="name_duplicated_but_a_tag_after_a_letter"),
        pytest.param({"game": "pickomino", "players": ["\u2764", "\u2764\ufe0f"]}, 422, "duplicate_name", id="name_duplicated_as_text_or_emoji_look"),
        pytest.param(
            {"game": "pickomino", "players": ["Ana", "Bruno"], "options": {"turbo": True}}, 422, "unknown_option", id="unknown_option"
        ),
        pytest.param(
            {"game": "pickomino", "players": ["Ana", "Bruno"], "options": {"flip_when_empty": "yes"}},
            400,
            "malformed_option",
            id="option_of_the_wrong_type",
        ),
        pytest.param(
            {"game": "pickomino", "players": ["Ana", "Bruno"], "options": ["flip_when_empty"]},
            400,
            "malformed_request",
            id="options_not_an_object",
        ),
        pytest.param(
            {"game": "pickomino", "players": ["Ana", "Bruno"], "options": []}, 400, "malformed_request", id="options_an_empty_list"
        ),
        pytest.param(  # a misspelt field would start another game than asked (deal_colors left at its default)
            {"game": "lobo", "players": ["Ana", "Bruno"], "option": {"deal_colors": False}},
            400,
            "malformed_request",
            id="a_field_misspelt",
        ),
    ],
)
def test_create_table_refuses_bad_input_and_creates_nothing(app, client, payload, status, code):
    response = client.post("/api/tables", json=payload)

    assert_error(response, status, code)
    assert count_tables(app) == 0


@pytest.mark.parametrize(
    "raw",
    ["{", "not json", '["pickomino"]', "null", "", "[" * 5000 + "]" * 5000],
    ids=["cut_off", "not_json", "a_list", "null", "empty", "nested_deeper_than_the_parser_goes"],
)
def test_create_table_refuses_malformed_json(app, api, raw):
    response = api.post_raw("/api/tables", raw)

    assert_error(response, 400, "malformed_json")
    assert count_tables(app) == 0


def test_create_table_refuses_a_field_named_twice(app, api):
    response = api.post_raw("/api/tables", '{"game": "qwixx", "game": "lobo", "players": ["Ana", "Bruno"]}')
    assert_error(response, 400, "duplicate_field")
    assert count_tables(app) == 0


@pytest.mark.parametrize(
    "game, options",
    [
        ("pickomino", {"alternative_return": 1}),
        ("lobo", {"deal_colors": "no"}),
        ("twenty-one", {"sheets": [1, 2]}),
        ("twenty-one", {"sheets": {"x": "A"}}),
        ("twenty-one", {"sheet_layouts": {"0": 1}}),
        ("twenty-one", {"sheet_layouts": [[1]]}),
        ("heckmeck-barbecue", {"spot_worms": {"23": "2"}}),
    ],
)
def test_an_option_of_the_wrong_shape_is_400_malformed_option(app, api, game, options):
    """One code for an option of the wrong shape, whichever the game (it was
    malformed_action, of no action, for some), and a map the start form would never send
    ({"0": 1} has no row and field) is not read as an unfinished copied sheet (422)."""
    response = api.client.post("/api/tables", json={"game": game, "players": ["Ana", "Bruno"], "options": options})
    assert_error(response, 400, "malformed_option")
    assert count_tables(app) == 0


@pytest.mark.parametrize("spot", [" 23", "23 ", "023", "+23"])
def test_a_grill_spot_is_named_as_written_so_no_two_entries_name_one_spot(app, api, spot):
    """{"23 ": 5, "23": 1} was taken as spot 23 twice, and the 5 was lost without a word."""
    response = api.client.post(
        "/api/tables", json={"game": "heckmeck-barbecue", "players": ["Ana", "Bruno"], "options": {"spot_worms": {spot: 5, "23": 1}}}
    )
    assert_error(response, 422, "invalid_spot")
    assert count_tables(app) == 0


def test_empty_copied_sheets_are_refused_not_taken_as_none(app, api):
    response = api.client.post(
        "/api/tables", json={"game": "twenty-one", "players": ["Ana", "Bruno"], "options": {"sheet_layouts": [[], []]}}
    )
    assert_error(response, 422, "invalid_layout")
    assert count_tables(app) == 0


# --- joining -----------------------------------------------------------------------------
def test_join_url_remembers_the_seat_and_redirects_to_the_table(live_server):
    created = live_server.create(players=["Ana", "Bruno"])
    bruno = created["seats"][1]

    with requests.Session() as phone:
        response = phone.get(bruno["join_url"])

        assert [step.status_code for step in response.history] == [303]
        assert response.status_code == 200
        assert response.url == f"{live_server.url}/t/{created['id']}"
        assert "You are Bruno" in response.text
        assert bruno["token"] not in response.url
        # The cookie keeps the seat: the table page alone still knows who this phone is.
        assert "You are Bruno" in phone.get(f"{live_server.url}/t/{created['id']}").text


# --- GET /api/tables/<id> ----------------------------------------------------------------
def test_get_table_answers_the_table_state(api, table):
    state = api.state(table)

    assert state == table.created["table"]
    assert set(state) >= {"id", "game", "status", "version", "options", "players", "current_seat", "ranking", "state"}
    turn = state["state"]["turn"]
    assert turn == {"seat": 0, "kept": [], "total": 0, "dice_left": 8, "roll": None, "has_worm": False}
    assert [tile["value"] for tile in state["state"]["grill"]] == list(range(21, 37))
    assert all(tile["face_up"] for tile in state["state"]["grill"])
    assert state["state"]["stacks"] == [[], [], []]
    assert state["state"]["last_turn"] is None


def test_get_table_with_a_seat_or_host_token_answers_200(api, table):
    assert api.get(table, table.seat(1)).status_code == 200
    assert api.get(table, table.host).status_code == 200


def test_get_unknown_table_is_404(api):
    assert_error(api.get("ZZZZZZ"), 404, "unknown_table")


def test_get_unknown_table_is_404_even_with_a_bad_token(api):
    assert_error(api.get("ZZZZZZ", "not-a-token"), 404, "unknown_table")


def test_get_table_with_an_unknown_token_is_401(api, table):
    assert_error(api.get(table, "not-a-token"), 401, "unknown_token")


def test_get_table_with_another_tables_token_is_401(api, table):
    other = api.create(players=["Dora", "Ema"])

    assert_error(api.get(table, other.seat(0)), 401, "unknown_token")
    assert_error(api.get(table, other.host), 401, "unknown_token")


def test_get_table_with_a_token_not_sent_as_bearer_is_401(client, table):
    response = client.get(f"/api/tables/{table.id}", headers={"Authorization": f"Token {table.seat(0)}"})

    assert_error(response, 401, "unknown_token")


# --- GET /api/tables/<id>/log ----------------------------------------------------------------
def test_log_of_a_new_table_is_empty(api, table):
    assert api.log(table) == []


def test_log_with_another_tables_token_is_401(api, client, table):
    other = api.create(players=["Dora", "Ema"])

    response = client.get(f"/api/tables/{table.id}/log", headers=bearer(other.seat(0)))

    assert_error(response, 401, "unknown_token")


# --- what the database keeps ---------------------------------------------------------------
def test_tokens_are_stored_only_as_hashes(app, api):
    tables = [api.create(), api.create(players=["Dora", "Ema"])]
    for table in tables:
        api.accept(table, table.seat(0), {"type": "roll", "dice": FULL_ROLL})
        api.accept(table, table.host, {"type": "keep", "face": "worm"})

    kept = dump(app.config["DATABASE"])
    for table in tables:
        for token in [table.host, *table.tokens]:
            assert token not in kept
        assert table.id in kept  # the dump does hold the tables


# --- polling (DESIGN.md "Sync") -----------------------------------------------------------
def refuse_to_replay(*args, **kwargs):
    raise AssertionError("the polling fast path replayed the log")


def test_poll_at_the_current_version_answers_204_without_replaying_the_log(api, client, table, monkeypatch):
    api.accept(table, table.seat(0), {"type": "roll", "dice": FULL_ROLL})
    version = api.state(table)["version"]
    monkeypatch.setattr(base.Game, "replay", refuse_to_replay)
    monkeypatch.setattr(service, "replay", refuse_to_replay)
    monkeypatch.setattr(service, "load", refuse_to_replay)

    response = client.get(f"/t/{table.id}/poll?v={version}", headers={"HX-Request": "true"})

    assert response.status_code == 204
    assert response.get_data() == b""


def test_poll_at_an_old_version_answers_the_fresh_fragment(api, client, table):
    api.accept(table, table.seat(0), {"type": "roll", "dice": FULL_ROLL})

    response = client.get(f"/t/{table.id}/poll?v=0", headers={"HX-Request": "true"})

    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert 'data-version="1"' in page
    assert "rolled 1, 2, 3, 4, 5, worm, worm, worm" in page
    assert "<html" not in page  # the fragment htmx swaps in, not a whole page


def test_poll_of_an_unknown_table_is_404(client):
    assert client.get("/t/ZZZZZZ/poll?v=0").status_code == 404


# --- addresses the API does not have -------------------------------------------------------
def test_unknown_api_address_answers_404_in_json(client, table):
    assert_error(client.get("/api/nothing"), 404, "not_found")
    assert_error(client.post(f"/api/tables/{table.id}/action", json={"type": "stop"}), 404, "not_found")


def test_wrong_method_answers_405_in_json_with_the_methods_allowed(client, table):
    response = client.get("/api/tables")

    assert_error(response, 405, "method_not_allowed")
    assert "POST" in response.headers["Allow"]
    assert_error(client.delete(f"/api/tables/{table.id}"), 405, "method_not_allowed")
