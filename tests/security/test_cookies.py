"""Cookies: HttpOnly and SameSite always, Secure whenever the request came over HTTPS
(directly, or through a reverse proxy the companion is told it is behind: BEHIND_PROXY,
the environment's COMPANION_BEHIND_PROXY=1). Without that setting the proxy headers are
ignored, since any phone on the LAN could send them."""

from __future__ import annotations

from http.cookies import SimpleCookie

import pytest

from companion.web.app import create_app

from .walk import fill, read_routes, tables_of_every_game

FORWARDED_HTTPS = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "companion.example", "X-Forwarded-For": "192.0.2.7"}


def make_app(tmp_path, **config):
    return create_app(
        {"DATABASE": str(tmp_path / "companion.sqlite3"), "SECRET_KEY": "cookies", "TESTING": True, **config}
    )


def cookies_set(response) -> dict[str, dict]:
    """Each cookie the response sets, with its attributes (names lower-cased)."""
    found = {}
    for header in response.headers.getlist("Set-Cookie"):
        parsed = SimpleCookie()
        parsed.load(header)
        for name, morsel in parsed.items():
            flags = {key: morsel[key] for key in morsel.keys() if morsel[key]}
            flags.update({word.strip().lower(): True for word in header.split(";")[1:] if "=" not in word})
            found[name] = flags
    return found


def every_cookie_the_pages_set(app, base_url: str, headers: dict | None = None) -> dict[str, dict]:
    """Walks every read route once, for a table of each game, and gathers the cookies set."""
    tables = tables_of_every_game(app.test_client())
    found = {}
    for rule in read_routes(app):
        for table in tables if rule.arguments else tables[:1]:
            response = app.test_client().get(fill(rule, table), base_url=base_url, headers=headers or {})
            found.update(cookies_set(response))
    assert app.config["SESSION_COOKIE_NAME"] in found
    return found


def test_over_plain_http_every_cookie_is_httponly_and_samesite_lax_and_not_secure(tmp_path):
    cookies = every_cookie_the_pages_set(make_app(tmp_path), "http://localhost")
    for name, flags in cookies.items():
        assert flags.get("httponly") and flags.get("samesite") == "Lax", (name, flags)
        assert not flags.get("secure"), (name, flags)


def test_over_https_every_cookie_is_secure_httponly_and_samesite_lax(tmp_path):
    cookies = every_cookie_the_pages_set(make_app(tmp_path), "https://localhost")
    for name, flags in cookies.items():
        assert flags.get("secure") and flags.get("httponly") and flags.get("samesite") == "Lax", (name, flags)


def test_proxy_headers_are_ignored_unless_the_companion_is_behind_a_proxy(tmp_path):
    app = make_app(tmp_path)
    phone = app.test_client()
    response = phone.get("/", headers=FORWARDED_HTTPS)
    assert not cookies_set(response)[app.config["SESSION_COOKIE_NAME"]].get("secure")
    created = phone.post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, headers=FORWARDED_HTTPS)
    assert "companion.example" not in created.get_json()["seats"][0]["join_url"]


def test_behind_a_proxy_its_https_makes_every_cookie_secure_and_join_links_use_its_address(tmp_path):
    app = make_app(tmp_path, BEHIND_PROXY=True)
    cookies = every_cookie_the_pages_set(app, "http://localhost", FORWARDED_HTTPS)
    for name, flags in cookies.items():
        assert flags.get("secure") and flags.get("httponly") and flags.get("samesite") == "Lax", (name, flags)
    created = app.test_client().post(
        "/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}, headers=FORWARDED_HTTPS
    )
    token = created.get_json()["seats"][0]["token"]
    assert created.get_json()["seats"][0]["join_url"] == f"https://companion.example/j/{token}"


def test_behind_a_proxy_a_plain_http_request_still_gets_no_secure_cookie(tmp_path):
    """The LAN can keep using plain HTTP while a proxy serves HTTPS."""
    app = make_app(tmp_path, BEHIND_PROXY=True)
    response = app.test_client().get("/", headers={"X-Forwarded-Proto": "http"})
    assert not cookies_set(response)[app.config["SESSION_COOKIE_NAME"]].get("secure")


@pytest.mark.parametrize("value, behind", [("1", True), ("0", False), ("", False)])
def test_the_proxy_setting_comes_from_the_environment(tmp_path, monkeypatch, value, behind):
    monkeypatch.setenv("COMPANION_BEHIND_PROXY", value)
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    app = create_app({"DATABASE": str(tmp_path / "companion.sqlite3")})
    assert app.config["BEHIND_PROXY"] is behind


def test_polling_does_not_send_the_cookie_again(tmp_path):
    """A phone polls every 2 s: its cookie is set when it joins, not re-signed on every poll."""
    app = make_app(tmp_path)
    table = app.test_client().post("/api/tables", json={"game": "pickomino", "players": ["Ana", "Bruno"]}).get_json()
    phone = app.test_client()
    joined = phone.get("/j/" + table["seats"][0]["join_url"].rsplit("/j/", 1)[1])
    assert app.config["SESSION_COOKIE_NAME"] in cookies_set(joined)
    phone.get(joined.headers["Location"])  # the redirect to the table page, as a browser follows it
    for version in (0, 0, 5):
        response = phone.get(f"/t/{table['id']}/poll?v={version}", headers={"HX-Request": "true"})
        assert response.status_code in (200, 204)
        assert app.config["SESSION_COOKIE_NAME"] not in cookies_set(response)
