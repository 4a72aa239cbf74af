"""What `companion --version` prints: the release, and the commit when run from a checkout."""

from __future__ import annotations

import subprocess

from . import __version__
from .paths import FROM_CHECKOUT, PROJECT_ROOT


def described() -> str:
    """"0.2.0", or from a git checkout "0.2.0 (git v0.2.0-3-gaf05bd3-dirty)": two builds of
    one release told apart. A wheel has no checkout around it: the release alone."""
    if not FROM_CHECKOUT:
        return __version__
    try:
        found = subprocess.run(
            ["git", "describe", "--tags", "--always", "--dirty"],
            cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=10,
        )
    except (OSError, subprocess.SubprocessError):  # no git here
        return __version__
    commit = found.stdout.strip()
    return f"{__version__} (git {commit})" if found.returncode == 0 and commit else __version__
