"""The doorbell of a SQLite database: a file beside it (`<database>-moved`) that a write
touches once it has committed a move of a table (store.write). On Linux each push-server
process' notifier listens for that touch with inotify and looks at once, instead of
waking every 10 ms to ask SQLite (a wake-up costs a process ~0.1 ms of CPU, a tenth of an
action; 2 % of a core for an idle server of two processes).

The doorbell only says "look now": what moved is still read from the database
(notify.py), and the notifier still looks every half second by itself, for writes that do
not ring (a hand at the sqlite3 prompt) and file systems that do not tell (some network
and container mounts). Elsewhere than Linux the notifier asks SQLite every 10 ms.
"""

from __future__ import annotations

import errno
import logging
import os
import stat


def path_for(database: str) -> str:
    return f"{database}-moved"


def ring(path: str) -> None:
    """Tell the notifiers of every process that a table moved (after the commit: they read
    the database at once)."""
    try:
        os.utime(path)
    except FileNotFoundError:
        try:
            os.close(open_regular(path))  # deleted by someone tidying up: made again, which rings too
        except OSError as error:
            _cannot_ring(path, error)
    except OSError as error:
        _cannot_ring(path, error)


def open_regular(path: str) -> int:
    """The doorbell's file, made if missing, opened without ever waiting: a FIFO put at its
    path froze every server process in a blocking open(), and SIGTERM could not stop them.
    Anything but a regular file raises OSError (and is not used)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0), 0o600)
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise OSError(errno.EINVAL, "not a regular file")
    return descriptor


_told: set[str] = set()


def _cannot_ring(path: str, error: OSError) -> None:
    """Not ours to touch (made by another user), a folder gone read-only: the write is saved
    all the same, and the notifiers' own looks find it within half a second. Said once."""
    if path not in _told:
        _told.add(path)
        logging.getLogger("companion").warning(
            "Cannot ring %s (%s): phones may see changes up to half a second late.", path, error.strerror
        )
