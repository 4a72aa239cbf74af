"""Whether .venv can run this checkout's companion: every requirement pyproject.toml declares
(and those of the extras named), installed at a version it allows. scripts/install runs it
when an update could not be installed (no internet), before going on with what is there.

Prints nothing and exits 0 when all are met; else prints what is missing, one requirement
per line ("platformdirs>=4,<5 (not installed)"), and exits 1.

Run by .venv's Python, which has pip: its vendored `packaging` reads the requirements where
the project's own dependencies do not bring `packaging` itself."""

from __future__ import annotations

import sys
import tomllib
from importlib import metadata
from pathlib import Path

try:
    from packaging.requirements import Requirement
except ImportError:
    from pip._vendor.packaging.requirements import Requirement


def unmet(pyproject: Path, extras: list[str]) -> list[str]:
    project = tomllib.loads(pyproject.read_text())["project"]
    declared = list(project.get("dependencies", []))
    for extra in extras:
        declared += project.get("optional-dependencies", {}).get(extra, [])
    missing = []
    for line in declared:
        requirement = Requirement(line)
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue  # not for this Python or platform
        try:
            installed = metadata.version(requirement.name)
        except metadata.PackageNotFoundError:
            missing.append(f"{line} (not installed)")
            continue
        if not requirement.specifier.contains(installed, prereleases=True):
            missing.append(f"{line} ({installed} installed)")
    return missing


if __name__ == "__main__":
    found = unmet(Path("pyproject.toml"), sys.argv[1:])
    print("\n".join(found), end="\n" if found else "")
    sys.exit(1 if found else 0)
