"""The companion: a scoring companion for physical board and dice games (see the README)."""

# The release, by semantic versioning: the one place it is written (pyproject.toml reads it
# from here, CHANGELOG.md says what each one changed).
__version__ = "0.2.0"
