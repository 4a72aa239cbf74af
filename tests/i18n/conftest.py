"""One app with every kind of page on it, shared by the language tests of a module."""

from __future__ import annotations

import pytest

from companion.web.app import create_app

from .scenes import build


@pytest.fixture(scope="module")
def scenes(tmp_path_factory):
    database = tmp_path_factory.mktemp("i18n") / "companion.sqlite3"
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "test", "TESTING": True})
    return build(app)
