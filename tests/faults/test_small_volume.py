"""The data folder on a small volume that fills up (an SD card, a small partition): real
ENOSPC on a tmpfs of its own (conftest's small_volume). Issue 40, items 9 and 11."""

from __future__ import annotations

import stat

import pytest

from companion import DataFolderUnusable, create_app


def test_a_full_disk_at_the_first_start_leaves_no_empty_key_and_the_next_start_serves(small_volume, tmp_path, monkeypatch):
    """A 0-byte secret_key (mode 0644) was left, and once there was room every page that
    signs a cookie answered 500, "no secret key was set", on every start."""
    instance = small_volume.path / "instance"
    instance.mkdir()
    monkeypatch.setenv("COMPANION_INSTANCE", str(instance))
    monkeypatch.delenv("COMPANION_SECRET_KEY", raising=False)
    database = str(tmp_path / "companion.sqlite3")  # elsewhere: only the key meets the full disk
    small_volume.fill()
    with pytest.raises(DataFolderUnusable, match="No space left on device"):
        create_app({"DATABASE": database})
    assert not (instance / "secret_key").exists()
    assert list(instance.iterdir()) == []  # no half-written key left either

    small_volume.free()
    phone = create_app({"DATABASE": database}).test_client()
    assert phone.get("/").status_code == 200  # the page's form carries a CSRF token: a signed cookie
    key = instance / "secret_key"
    assert len(key.read_text().strip()) == 64
    assert stat.S_IMODE(key.stat().st_mode) == 0o600


def test_an_empty_key_is_a_missing_key(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    monkeypatch.delenv("COMPANION_SECRET_KEY", raising=False)
    (tmp_path / "secret_key").write_text("\n")
    app = create_app({"DATABASE": str(tmp_path / "companion.sqlite3")})
    assert len(app.config["SECRET_KEY"]) == 64
    assert (tmp_path / "secret_key").read_text() == app.config["SECRET_KEY"]
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600
    assert app.test_client().get("/").status_code == 200


def test_a_kept_key_is_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    monkeypatch.delenv("COMPANION_SECRET_KEY", raising=False)
    first = create_app({"DATABASE": str(tmp_path / "companion.sqlite3")}).config["SECRET_KEY"]
    assert create_app({"DATABASE": str(tmp_path / "companion.sqlite3")}).config["SECRET_KEY"] == first
    assert [path.name for path in tmp_path.iterdir() if "secret_key" in path.name] == ["secret_key"]
