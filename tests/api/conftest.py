"""Fixtures for the JSON API tests."""

from __future__ import annotations

import pytest
from .api_client import Api, Table
from databases import on_both_databases

# The API and its concurrency run against SQLite and against PostgreSQL alike.
database = on_both_databases()


@pytest.fixture
def api(client) -> Api:
    return Api(client)


@pytest.fixture
def table(api) -> Table:
    """A fresh Pickomino table: Ana (seat 0, to move), Bruno, Caio."""
    return api.create()
