"""Rematch: one tap starts the same game, players and options again, the next player in
turn order starting, and every phone joined to the old table is led to its own new seat.

A table keeps only hashes of its tokens, so the new tokens cannot be handed out later
from the database alone. The old table keeps the new table's host token sealed with the
server's secret; a phone that shows a valid token of the old table (its seat cookie, or
the host's) gets its new token from it: the new seat of the same player (seat tokens
derive from the host token, see service.seat_token), or the new host token. Reading the
database without the secret, or holding the secret without a token of the old table,
gives nothing.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass

from . import service
from ..games.text import N_
from .service import ServiceError, Viewer
from .service import writing  # the service's write transaction: 503 when the disk fails


def rotation(players: int) -> list[int]:
    """The rematch's seating as old seats, by new seat: the player after the old first
    player starts, everyone keeps their neighbours."""
    return [(seat + 1) % players for seat in range(players)]


def new_seat(old_seat: int, players: int) -> int:
    return (old_seat - 1) % players


def _keystream(secret: str, table_id: str, rematch_id: str) -> bytes:
    return hmac.new(secret.encode(), f"rematch:{table_id}:{rematch_id}".encode(), hashlib.sha256).digest()


def seal(secret: str, table_id: str, rematch_id: str, token: str) -> str:
    data = token.encode()
    key = _keystream(secret, table_id, rematch_id)
    if len(data) > len(key):
        raise ValueError("a token longer than the key stream cannot be sealed")
    return base64.urlsafe_b64encode(bytes(a ^ b for a, b in zip(data, key))).decode()


def unseal(secret: str, table_id: str, rematch_id: str, sealed: str) -> str | None:
    """The sealed token, or None when it does not open (the server's secret changed)."""
    data = base64.urlsafe_b64decode(sealed.encode())
    try:
        return bytes(a ^ b for a, b in zip(data, _keystream(secret, table_id, rematch_id))).decode()
    except UnicodeDecodeError:
        return None


@service.tried_once_more
def start(db, table_id: str, viewer: Viewer, secret: str) -> str:
    """The id of the rematch of finished table `table_id`, started by a player who joined it
    or its host. The first tap creates it; every later tap (two phones at once included)
    finds that one: the check and the creation happen under the table's write lock."""
    with writing(db, table_id):
        table = service.load(db, table_id)
        row = table.row
        if viewer.anonymous:
            raise ServiceError(
                403, "not_at_table", N_("Only the players who joined this table, or its host, can start a rematch.")
            )
        if row["rematch_id"] is not None:
            return row["rematch_id"]
        if not table.game.is_finished(table.state):
            raise ServiceError(409, "not_finished", N_("The game is not over yet: a rematch can start when it ends."))
        order = rotation(len(table.names))
        options = table.game.rematch_options(row["options"], row["deal"], order)
        created = service.insert_table(db, table.game, [table.names[seat] for seat in order], options)
        rematch_id = created.table.id
        db.set_rematch(table_id, rematch_id, seal(secret, table_id, rematch_id, created.host_token))
    return rematch_id


@dataclass(frozen=True)
class Moved:
    """Where a phone's tokens of a table lead at its rematch."""

    table_id: str
    host_token: str | None = None
    seat_token: str | None = None


def follow(db, table_id: str, host_token: str | None, seat_token: str | None, secret: str) -> Moved | None:
    """The rematch of `table_id` and the tokens there of a phone holding these tokens of
    `table_id`: the new host token for the host's, the same player's new seat for a seat's.
    Tokens that are not valid at `table_id` lead nowhere. None when there is no rematch."""
    row = db.table_row(table_id)
    if row is None or row["rematch_id"] is None:
        return None
    rematch_id = row["rematch_id"]
    new_host_token = unseal(secret, table_id, rematch_id, row["rematch_host_sealed"])
    if new_host_token is None or not db.is_host_token(rematch_id, new_host_token):
        return Moved(rematch_id)
    moved_host = new_host_token if host_token and db.is_host_token(table_id, host_token) else None
    moved_seat = None
    old_seat = db.seat_for_token(table_id, seat_token) if seat_token else None
    if old_seat is not None:
        players = len(db.seat_names(table_id))
        moved_seat = service.seat_token(new_host_token, new_seat(old_seat, players))
    return Moved(rematch_id, moved_host, moved_seat)
