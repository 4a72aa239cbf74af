"""Where the companion's files are: its templates, static files and docs (the checkout's own,
or the copies inside the installed package), and its data folder. No Flask, no database."""

from __future__ import annotations

import json
import os
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlsplit

import platformdirs

PACKAGE = Path(__file__).resolve().parent  # companion/
PROJECT_ROOT = PACKAGE.parent
# Run from a checkout (an editable install included), the top-level templates/ and static/
# are used as they are and the data lives in its instance/; installed from a wheel, they
# were mapped into the package at build time (pyproject.toml) and the data lives in the
# user's data folder, never inside site-packages.
FROM_CHECKOUT = (PROJECT_ROOT / "pyproject.toml").is_file() and (PROJECT_ROOT / "templates").is_dir()


def resource_folder(name: str) -> Path:
    """templates/, static/ or docs/: the checkout's own, or the copy inside the installed package."""
    return PROJECT_ROOT / name if FROM_CHECKOUT else PACKAGE / name


def instance_folder() -> Path:
    """Where the database and the cookie key live: COMPANION_INSTANCE, else the checkout's
    instance/, else the platform's per-user data folder (~/.local/share/companion on Linux)."""
    configured = os.environ.get("COMPANION_INSTANCE")
    if configured:
        return Path(configured)
    if FROM_CHECKOUT:
        return PROJECT_ROOT / "instance"
    return Path(platformdirs.user_data_dir("companion", appauthor=False))


def default_database() -> Path:
    return instance_folder() / "companion.sqlite3"


DISTRIBUTION = "tabletop-companion"


def installed_from() -> Path | None:
    """The folder this companion was installed from (`pipx install .` in a clone: pip notes
    it in the installed distribution's direct_url.json), or None (from a wheel file, the
    package index, or not installed)."""
    try:
        noted = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
        url = json.loads(noted)["url"] if noted else ""
    except (metadata.PackageNotFoundError, ValueError, KeyError, TypeError):
        return None
    parts = urlsplit(url)
    if parts.scheme != "file" or "dir_info" not in json.loads(noted):
        return None
    return Path(unquote(parts.path))


def another_data_folder() -> Path | None:
    """A data folder with a database other than this one's: the instance/ of the checkout
    this companion was installed from (the data of its scripts/serve days)."""
    source = installed_from()
    if source is None:
        return None
    found = source / "instance"
    if (found / "companion.sqlite3").is_file() and found.resolve() != instance_folder().resolve():
        return found
    return None
