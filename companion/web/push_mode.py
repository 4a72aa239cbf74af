"""The push mode: the notifier (companion/server/notify.py) a push server hands each of its
worker processes' app. Without one (the thread server, the tests' test client) nothing is
pushed and the pages poll."""

from __future__ import annotations

from flask import Flask, current_app

NOTIFIER = "companion.notifier"


def hand_over(app: Flask, notifier) -> None:
    """The push server's worker process gives the app its notifier."""
    app.extensions[NOTIFIER] = notifier


def current():
    """This process' notifier, or None where nothing is pushed."""
    return current_app.extensions.get(NOTIFIER)


def is_on() -> bool:
    return current() is not None
