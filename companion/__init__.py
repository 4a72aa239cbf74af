"""The companion: a scoring companion for physical board and dice games (see the README)."""
