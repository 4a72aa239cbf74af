"""Requests garbled below the level of any one field: a Host header no address can be made
for. Each gets a clear sentence, never a 5xx."""

from __future__ import annotations

import pytest
import requests

MALFORMED_HOSTS = ["a..b", "a" * 64, "a..b:5000"]


@pytest.mark.parametrize("host", MALFORMED_HOSTS)
@pytest.mark.parametrize("path", ["/", "/healthz", "/t/ZZZZZZ", "/players", "/nothing-here", "/static/app.css"])
def test_a_malformed_host_gets_a_plain_sentence_not_a_page_that_needs_addresses(client, host, path):
    response = client.get(path, headers={"Host": host})
    assert response.status_code == 400
    assert response.mimetype == "text/plain"
    assert response.get_data(as_text=True) == "That request could not be understood. Reload the page and try again."


def test_a_malformed_host_gets_its_sentence_in_the_phones_language(client):
    response = client.post("/tables", headers={"Host": "a..b", "Accept-Language": "pt"}, data={"game": "lobo"})
    assert response.status_code == 400
    assert response.get_data(as_text=True) == "Não foi possível entender o pedido. Recarregue a página e tente de novo."


@pytest.mark.parametrize("host", MALFORMED_HOSTS)
def test_a_malformed_host_gets_json_under_api(client, host):
    for response in (
        client.get("/api/tables/ZZZZZZ", headers={"Host": host}),
        client.post("/api/tables", headers={"Host": host}, json={"game": "lobo", "players": ["Ana", "Bruno"]}),
    ):
        assert response.status_code == 400
        assert response.get_json() == {"code": "bad_request", "error": "The request could not be understood."}


def test_a_malformed_host_over_http_is_a_400_with_a_sentence(live_server):
    for path in ("/", "/healthz", "/api/tables/ZZZZZZ"):
        response = requests.get(live_server.url + path, headers={"Host": "a..b"})
        assert response.status_code == 400, path
        assert "could not be understood" in response.text, path
