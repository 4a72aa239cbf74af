"""Where the companion's files are: its templates, static files and docs (the checkout's own,
or the copies inside the installed package), and its data folder. No Flask, no database."""

from __future__ import annotations

import os
from pathlib import Path

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
