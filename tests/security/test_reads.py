"""Every page and every API read, walked from app.url_map for tables of all four games (new,
mid-turn, finished) as three readers (a stranger, a seat's phone, the host's phone), as
full pages and as htmx fragments, plus the error pages:

- no read changes the database, and none answers with a server error;
- every redirect stays on this site;
- no token appears in any answer, except each seat's token on its own table's join screen,
  shown to that table's host (the host token itself never appears anywhere);
- every answer carries the Content-Security-Policy (no inline scripts, no eval, no framing)
  and X-Frame-Options; no HTML page has an inline script, an inline event handler, a style
  attribute or element, or anything else that needs eval, and htmx runs with allowEval off.

A read route with an argument the walk cannot fill fails the walk: add it to ARGUMENTS
in walk.py.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

import pytest

from companion.web.app import create_app
from companion.games import GAMES

from .snapshot import database_snapshot
from .test_redirects import lands_on_this_site
from .walk import Table, fill, read_routes, tables_of_every_game

READERS = ("stranger", "seat 1", "host")


@dataclass
class Answer:
    endpoint: str
    path: str
    reader: str
    table: Table | None
    status: int
    headers: Any
    mimetype: str
    text: str
    changed_database: bool


def reader(app, table: Table | None, who: str):
    """A phone: the stranger's has only a page's session; a seat's opened its join link;
    the host's holds the host token as the start form leaves it. API reads send the token."""
    phone = app.test_client()
    token = None
    if table is not None and who == "seat 1":
        assert phone.get(f"/j/{table.seats[1]}").status_code == 303
        token = table.seats[1]
    elif table is not None and who == "host":
        with phone.session_transaction() as session:
            session["tables"] = {table.id: {"host": table.host}}
        token = table.host
    return phone, token


def answer(app, endpoint, path, who, table, response, before) -> Answer:
    return Answer(
        endpoint=endpoint,
        path=path,
        reader=who,
        table=table,
        status=response.status_code,
        headers=response.headers,
        mimetype=response.mimetype,
        text=response.get_data(as_text=True),
        changed_database=database_snapshot(app.config["DATABASE"]) != before,
    )


@pytest.fixture(scope="module")
def walk(tmp_path_factory) -> tuple[Any, list[Table], list[Answer]]:
    app = create_app(
        {"DATABASE": str(tmp_path_factory.mktemp("reads") / "companion.sqlite3"), "SECRET_KEY": "reads", "TESTING": True}
    )
    tables = tables_of_every_game(app.test_client())
    # The first page listing tables after a game ends records its results (a derived
    # record, see companion/history.py): read once before the walk, which then finds
    # every read at rest.
    app.test_client().get("/")
    answers = []
    for rule in read_routes(app):
        walked = tables if rule.arguments else tables[:1]
        for table in walked:
            path = fill(rule, table)
            for who in READERS:
                for fragment in (False, True):
                    phone, token = reader(app, table, who)
                    headers = {"HX-Request": "true"} if fragment else {}
                    if token is not None and path.startswith("/api/"):
                        headers["Authorization"] = f"Bearer {token}"
                    before = database_snapshot(app.config["DATABASE"])
                    response = phone.get(path, headers=headers)
                    answers.append(answer(app, rule.endpoint, path, who, table, response, before))
    answers += error_pages(app, tables[0])
    return app, tables, answers


def error_pages(app, table: Table) -> list[Answer]:
    """The pages that say no: unknown address, wrong method, stale form, too large, a
    refused tap, a stranger at the join screen."""
    answers = []
    seat_phone, _ = reader(app, table, "seat 1")
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', seat_phone.get("/").get_data(as_text=True)).group(1)
    tap = {"csrf_token": csrf, "action": json.dumps({"type": "stop"})}
    requests = [
        ("nowhere", lambda phone: phone.get("/no/such/page")),
        ("wrong method", lambda phone: phone.get("/tables")),
        ("no csrf", lambda phone: phone.post("/tables", data={"game": "pickomino"})),
        ("too large", lambda phone: phone.post("/tables", data={"pad": "x" * 70_000})),
        ("refused tap", lambda phone: seat_phone.post(f"/t/{table.id}/act", data=tap, headers={"HX-Request": "true"})),
        ("stranger at the join screen", lambda phone: phone.get(f"/t/{table.id}/join")),
    ]
    for name, send in requests:
        before = database_snapshot(app.config["DATABASE"])
        response = send(app.test_client())
        answers.append(answer(app, name, name, "stranger", table, response, before))
    return answers


def all_tokens(tables: list[Table]) -> dict[str, str]:
    tokens = {}
    for table in tables:
        tokens[table.host] = f"{table.id} host"
        for seat, token in enumerate(table.seats):
            tokens[token] = f"{table.id} seat {seat}"
    return tokens


# --- the walk itself -------------------------------------------------------------------------
def test_the_walk_reads_every_route_that_answers_get(walk):
    app, tables, answers = walk
    walked = {answer.endpoint for answer in answers}
    assert {rule.endpoint for rule in read_routes(app)} <= walked
    assert {answer.table.game for answer in answers if answer.endpoint == "pages.table_page"} == set(GAMES)


def test_no_read_changes_the_database(walk):
    _, _, answers = walk
    changed = [(answer.path, answer.reader, answer.status) for answer in answers if answer.changed_database]
    assert not changed


def test_no_read_answers_with_a_server_error(walk):
    _, _, answers = walk
    assert not [(answer.path, answer.reader, answer.status) for answer in answers if answer.status >= 500]


def test_every_redirect_stays_on_this_site(walk):
    _, _, answers = walk
    redirects = [answer for answer in answers if 300 <= answer.status < 400]
    assert {answer.endpoint for answer in redirects} >= {"pages.join", "pages.choose_language"}
    for answer in redirects:
        assert lands_on_this_site(answer.headers["Location"]), (answer.path, answer.headers["Location"])


def test_no_answer_shows_a_token_except_the_join_codes_to_their_host(walk):
    _, tables, answers = walk
    tokens = all_tokens(tables)
    for answer in answers:
        allowed = set()
        if answer.endpoint == "pages.join_screen" and answer.reader == "host":
            allowed = set(answer.table.seats)
        shown = " ".join([answer.text, answer.headers.get("Location", "")])
        leaked = [tokens[token] for token in tokens if token in shown and token not in allowed]
        assert not leaked, f"{answer.path} as {answer.reader} shows the tokens of {leaked}"


def test_the_host_sees_each_seats_join_code_but_never_the_host_token(walk):
    _, tables, answers = walk
    join_screens = [a for a in answers if a.endpoint == "pages.join_screen" and a.reader == "host" and a.status == 200]
    assert len(join_screens) == 2 * len(tables)
    for answer in join_screens:
        assert all(token in answer.text for token in answer.table.seats)
        assert answer.table.host not in answer.text


# --- headers ----------------------------------------------------------------------------------
def directives(policy: str) -> dict[str, list[str]]:
    parsed = {}
    for directive in policy.split(";"):
        name, *values = directive.split()
        parsed[name] = values
    return parsed


def test_every_answer_carries_a_policy_without_inline_scripts_or_eval_and_forbids_framing(walk):
    _, _, answers = walk
    for answer in answers:
        policy = answer.headers.get("Content-Security-Policy")
        assert policy, answer.path
        parsed = directives(policy)
        assert parsed["script-src"] == ["'self'"], answer.path
        assert parsed["style-src"] == ["'self'"], answer.path
        assert parsed["frame-ancestors"] == ["'none'"], answer.path
        assert parsed["object-src"] == ["'none'"] and parsed["base-uri"] == ["'none'"], answer.path
        assert "unsafe" not in policy and "*" not in policy, answer.path
        assert answer.headers.get("X-Frame-Options") == "DENY", answer.path
        assert answer.headers.get("X-Content-Type-Options") == "nosniff", answer.path


# --- the HTML itself --------------------------------------------------------------------------
class InlineCode(HTMLParser):
    """Everything in a page that a policy without 'unsafe-inline' or 'unsafe-eval' blocks."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []
        self.in_script = False
        self.htmx_config: dict | None = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "script":
            self.in_script = True
            source = attributes.get("src") or ""
            if not source.startswith("/"):
                self.found.append(f"<script> not loaded from this server: {source!r}")
        if tag == "style":
            self.found.append("<style> element")
        if tag == "link" and "stylesheet" in (attributes.get("rel") or "") and not attributes["href"].startswith("/"):
            self.found.append(f"stylesheet from elsewhere: {attributes['href']}")
        if tag == "meta" and attributes.get("name") == "htmx-config":
            self.htmx_config = json.loads(attributes["content"])
        for name, value in attrs:
            value = (value or "").strip().lower()
            if name.startswith("on"):
                self.found.append(f"event handler {name}= on <{tag}>")
            if name == "style":
                self.found.append(f"style= on <{tag}>")
            if name.startswith("hx-on") or name.startswith("data-hx-on"):
                self.found.append(f"{name}= (htmx evaluates it) on <{tag}>")
            if value.startswith(("javascript:", "js:")):
                self.found.append(f"{name}={value[:30]!r} on <{tag}>")

    def handle_endtag(self, tag):
        if tag == "script":
            self.in_script = False

    def handle_data(self, data):
        if self.in_script and data.strip():
            self.found.append(f"inline script: {data.strip()[:60]!r}")


def html_answers(answers: list[Answer]) -> list[Answer]:
    return [answer for answer in answers if answer.mimetype == "text/html" and answer.text.strip()]


def test_no_page_has_inline_scripts_event_handlers_or_styles(walk):
    _, _, answers = walk
    pages = html_answers(answers)
    assert len({answer.endpoint for answer in pages}) >= 10
    for answer in pages:
        parser = InlineCode()
        parser.feed(answer.text)
        assert not parser.found, f"{answer.path} as {answer.reader}: {parser.found[:5]}"


def test_htmx_runs_with_eval_off_on_every_full_page(walk):
    _, _, answers = walk
    full_pages = [answer for answer in html_answers(answers) if "<html" in answer.text and answer.status < 300]
    assert full_pages
    for answer in full_pages:
        parser = InlineCode()
        parser.feed(answer.text)
        assert parser.htmx_config is not None, answer.path
        assert parser.htmx_config["allowEval"] is False, answer.path
        # htmx would otherwise add a <style> element of its own, which the policy blocks.
        assert parser.htmx_config["includeIndicatorStyles"] is False, answer.path
