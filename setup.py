"""Only what pyproject.toml cannot say: the packages are every folder of companion/ (found, so
a new game needs no line here or there) and the three top-level folders of the design card
that the wheel carries inside the package, mapped in pyproject.toml's package-dir."""

from setuptools import find_namespace_packages, setup

setup(packages=find_namespace_packages(include=["companion", "companion.*"]) + ["companion.templates", "companion.static", "companion.docs"])
