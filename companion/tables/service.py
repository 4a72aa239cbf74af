"""What both faces (pages and JSON API) call: create tables, read them, seat players, act.
Corrections (undo, redo, skip) are in undo_redo.py, the log in words in log_lines.py.

The event log is the truth: a table's state is its game's setup replayed through every
action still in effect. Writes take the table's write lock first (SQLite's BEGIN IMMEDIATE,
PostgreSQL's lock of the table), check the version, apply, and append the event with
seq = version + 1.

Longer than 400 lines on purpose: each write's rules (the lock, the version, the append,
the refusals) read best in one place.
"""

from __future__ import annotations

import base64
import copy
import functools
import hashlib
import hmac
import logging
import random
import secrets
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator

from . import store
from .database import STORAGE_LOG
from .store import StorageFailure
from ..games import GAMES, Game
from ..games.errors import RuleError
from ..games.text import N_, NP_, Text, shown
from ..games.names import clean_name, look_of_name, name_problem

NAME_MAX_LENGTH = 24
TABLE_ID_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L: read aloud at a table
TABLE_ID_LENGTH = 6
TOKEN_BYTES = 12


def is_table_id(text: str) -> bool:
    """Whether `text` has the shape of a table id: any other text is no table's."""
    return len(text) == TABLE_ID_LENGTH and all(char in TABLE_ID_ALPHABET for char in text)


class ServiceError(Exception):
    """A refused request: HTTP status, stable code, a sentence for the player."""

    def __init__(self, status: int, code: str, text: Text):
        super().__init__(str(text))
        self.status = status
        self.code = code
        self.text = text

    @classmethod
    def from_rule(cls, error: RuleError) -> "ServiceError":
        return cls(error.status, error.code, error.text)


@dataclass(frozen=True)
class Viewer:
    """Who is asking: a seat (or None), whether they hold the host token, and for a table
    page's tap, which page it is (web/session.py: the version it makes need not be pushed
    back to that page)."""

    seat: int | None = None
    host: bool = False
    page: str | None = None

    @property
    def anonymous(self) -> bool:
        return self.seat is None and not self.host


ANONYMOUS = Viewer()


@dataclass
class Table:
    row: dict[str, Any]
    names: list[str]
    game: Game
    state: dict[str, Any]

    @property
    def id(self) -> str:
        return self.row["id"]

    @property
    def version(self) -> int:
        return self.row["version"]

    def start(self) -> dict[str, Any]:
        """The game as set up, before any action."""
        return self.game.setup(self.names, self.row["options"], self.row["deal"])


STORAGE_UNAVAILABLE = N_(
    "The companion cannot save anything right now: the machine it runs on has a full disk or cannot write"
    " its database. Nothing was changed. Tell the person running the companion, then try again."
)
DATABASE_BUSY = N_(
    "The companion is busy saving another change right now: nothing was changed. Try again in a moment."
)
NOT_SAVED_DATABASE_UNREACHABLE = N_(
    "The companion cannot reach its database right now: nothing was changed. Try again in a moment; if it goes"
    " on, tell the person running the companion."
)


@contextmanager
def writing(db, *table_ids: str) -> Iterator[None]:
    """Store.write (taking the locks of `table_ids`), where the storage failing (a full
    disk, a read-only database, PostgreSQL gone) is refused like any other request: 503
    with a sentence, and the database has rolled everything back."""
    try:
        with db.write(*table_ids):
            yield
    except StorageFailure as failure:
        if failure.busy:  # another change held the database longer than a writer waits
            logging.getLogger(STORAGE_LOG).warning("The database stayed busy: %s", failure)
            raise ServiceError(503, "storage_unavailable", DATABASE_BUSY) from failure
        logging.getLogger(STORAGE_LOG).error("Could not write to the database: %s", failure)
        if failure.full and not db.room_made and db.make_room():
            logging.getLogger(STORAGE_LOG).warning("Moved the database's WAL into it and emptied it: the write is tried once more.")
            raise RoomMade(503, "storage_unavailable", STORAGE_UNAVAILABLE) from failure
        # PostgreSQL out of reach (a restart, the network) is no disk of this machine's
        sentence = NOT_SAVED_DATABASE_UNREACHABLE if failure.unreachable else STORAGE_UNAVAILABLE
        raise ServiceError(503, "storage_unavailable", sentence) from failure


class RoomMade(ServiceError):
    """A write refused for space after which the WAL could be moved into the database and
    emptied: `tried_once_more` tries it again; anything else refuses it as before."""


def tried_once_more(write: Callable) -> Callable:
    """A service write that, refused for space, is tried once more once room was made
    (writing): the refused try rolled back all it did."""

    @functools.wraps(write)
    def trying(db, *args, **kwargs):
        try:
            return write(db, *args, **kwargs)
        except RoomMade:
            db.room_made = True  # a second refusal is the player's sentence
            try:
                return write(db, *args, **kwargs)
            finally:
                db.room_made = False

    return trying


# --- creating -----------------------------------------------------------------------
@dataclass
class Created:
    table: Table
    host_token: str
    seat_tokens: list[str]


def seat_token(host_token: str, seat: int) -> str:
    """A seat's token, derived from the host token: the host's phone can show every join
    link again (the database keeps only hashes), and no seat token reveals the host's."""
    digest = hmac.new(host_token.encode(), f"seat:{seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:TOKEN_BYTES]).decode()


def check_names(game: Game, players: Any) -> list[str]:
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise ServiceError(400, "malformed_request", N_("Players must be a list of names."))
    names = [clean_name(name) for name in players]
    if not game.min_players <= len(names) <= game.max_players:
        raise ServiceError(
            422,
            "player_count",
            N_(
                "%(game)s is played by %(min)s to %(max)s players, not %(count)s.",
                game=game.title, min=game.min_players, max=game.max_players, count=len(names),
            ),
        )
    for name in names:
        check_name(name)
    seen: set[str] = set()
    for name in names:
        if look_of_name(name) in seen:
            raise ServiceError(422, "duplicate_name", N_("Two players are called %(name)s: give them different names.", name=name))
        seen.add(look_of_name(name))
    return names


def check_name(name: str) -> None:
    """Refuse `name` (clean_name'd) as a player's name if it cannot be one: empty, unreadable, too long."""
    if not name:
        raise ServiceError(422, "name_empty", N_("Every player needs a name."))
    problem = name_problem(name)
    if problem is not None:
        raise ServiceError(422, "name_invalid", problem)
    if len(name) > NAME_MAX_LENGTH:
        raise ServiceError(
            422,
            "name_too_long",
            NP_("A name can have at most %(num)s character.", "A name can have at most %(num)s characters.", NAME_MAX_LENGTH),
        )


def game_for(slug: Any) -> Game:
    if not isinstance(slug, str):
        raise ServiceError(400, "malformed_request", N_("Choose a game."))
    if slug not in GAMES:
        raise ServiceError(422, "unknown_game", N_("There is no game called %(game)s here.", game=shown(slug)))
    return GAMES[slug]


@tried_once_more
def create_table(db, slug: Any, players: Any, options: Any) -> Created:
    game = game_for(slug)
    names = check_names(game, players)
    if options is not None and not isinstance(options, dict):
        # Checked here, not only in the engine: an empty list or "" would pass for "no options".
        raise ServiceError(400, "malformed_request", N_("Options must be a JSON object."))
    with writing(db):
        created = insert_table(db, game, names, options)
        preset = game.preset_name(created.table.row["options"])
        if preset is not None:  # offered on the start form next time (the score pad's sheet)
            db.save_preset(game.slug, preset, created.table.row["options"])
        return created


# The start form offers each game's latest saved option sets: a shelf, not an archive.
PRESETS_OFFERED = 12


def offered_presets(db) -> dict[str, list[dict[str, Any]]]:
    """By game, the option sets its tables were started with under a name (Game.preset_name:
    the score pad's sheets, by their game's name), the latest first."""
    return db.offered_presets(PRESETS_OFFERED)


def preset(db, slug: str, name: str) -> dict[str, Any] | None:
    """The option set saved for the game `slug` under `name`, if any."""
    return db.find_preset(slug, name)


def forget_preset(db, slug: str, name: str) -> None:
    """The host no longer wants the set offered (it stays on the tables started with it)."""
    with writing(db):
        db.forget_preset(slug, name)


def insert_table(db, game: Game, names: list[str], options: dict[str, Any] | None) -> Created:
    """A new table, inside the caller's write transaction (a rematch creates its table
    while it holds the old table's write lock, so two taps make one rematch)."""
    try:
        effective = game.effective_options(options)
        deal = game.deal(names, effective, random.SystemRandom())
        effective = game.recall(effective, deal, db.player_memories(game.slug, names))
        state = game.setup(names, effective, deal)
    except RuleError as error:
        raise ServiceError.from_rule(error) from None
    host_token = secrets.token_urlsafe(TOKEN_BYTES)
    seat_tokens = [seat_token(host_token, seat) for seat in range(len(names))]
    while True:
        table_id = "".join(secrets.choice(TABLE_ID_ALPHABET) for _ in range(TABLE_ID_LENGTH))
        if db.insert_table(table_id, game.slug, effective, deal, host_token, names, seat_tokens):
            break  # else the id was taken: draw another
    row = db.table_row(table_id)
    return Created(Table(row, names, game, state), host_token, seat_tokens)


# --- reading ------------------------------------------------------------------------
def check_database(db) -> None:
    """Raises the storage's error if the database cannot be read."""
    db.ping()


def load(db, table_id: str) -> Table:
    row = db.table_row(table_id)
    if row is None:
        raise ServiceError(404, "unknown_table", N_("There is no table %(id)s.", id=table_id))
    game = GAMES[row["game"]]
    names = db.seat_names(table_id)
    state = db.snapshots.get((table_id, row["version"]))
    if state is None:
        state = _one_step_on(db, game, row)
        if state is None:
            state = replay(db, game, row, names)
        db.snapshots.put((table_id, row["version"]), state)
    return Table(row, names, game, state)


def _one_step_on(db, game: Game, row: dict[str, Any]) -> dict[str, Any] | None:
    """The table's state at its version stepped on from the state just before, when that is
    kept here and the version was made by one action (an event's seq is the version it
    made; an undo, a skip or a closing make none): one step where a replay steps through the
    whole log. After an action, every server process but the acting one's would otherwise
    replay the game for its phones' first look at the new version."""
    before = db.snapshots.get((row["id"], row["version"] - 1))
    if before is None:
        return None
    made_it = db.event_at(row["id"], row["version"])
    if made_it is None:
        return None
    seat, action = made_it
    return game.reapply(before, seat, action)


def version_and_rematch(db, table_id: str) -> tuple[int, str | None] | None:
    """The cheap "has this table moved, does it exist": its version and rematch, no replay."""
    return db.poll_row(table_id)


def status_of(db, table_id: str) -> str | None:
    """The table's status ("playing", "finished", "abandoned"), no replay."""
    row = db.table_row(table_id)
    return None if row is None else row["status"]


def followed(db, table_id: str) -> tuple[int, str | None, str | None] | None:
    """What a held connection looks at when woken: the version, the rematch, and the mark
    of the table page whose tap made the version (see made_by_page)."""
    return db.held_row(table_id)


def made_by_page(mark: str | None, page: str | None, version: int) -> bool:
    """Whether `page`'s own tap made `version` (`mark`: from followed)."""
    return page is not None and mark == store.page_mark(page, version)


def game_of(db, table_id: str) -> Game | None:
    row = db.table_row(table_id)
    return None if row is None else GAMES[row["game"]]


def is_host(db, table_id: str, token: str) -> bool:
    return db.is_host_token(table_id, token)


def seat_of(db, table_id: str, token: str) -> int | None:
    """The seat of `table_id` that a seat token opens, if any."""
    return db.seat_for_token(table_id, token)


def find_seat(db, token: str) -> tuple[str, int] | None:
    """The table and seat a join link's token opens, if any."""
    return db.find_seat_token(token)


def seat_opened_by(db, table_id: str, seat: int) -> str | None:
    """The phone (session.phone_id) whose page of the seat loaded last, if any did."""
    return db.seat_opened_by(table_id, seat)


def seat_names(db, table_id: str) -> list[str]:
    """The players' names by seat, no replay (none for a table that does not exist)."""
    return db.seat_names(table_id)


def opened_seats(db, table_id: str) -> set[int]:
    """The seats whose page loaded on a phone: the host sees who has still to scan."""
    return db.opened_seats(table_id)


def open_seat(db, table_id: str, seat: int, phone: str) -> None:
    """`phone` opened the seat (its page loaded there): the next other phone to scan its
    code is asked first. Two phones scanning one code within the second before either page
    has loaded are not. Only a courtesy: a database that cannot be written now (read-only,
    busy, gone) leaves the seat unmarked, and the phone plays all the same."""
    try:
        with writing(db, table_id):
            db.open_seat(table_id, seat, phone)
    except ServiceError:
        pass


@contextmanager
def announcing_at_end(db) -> Iterator[set[str]]:
    """The tables that writes in the block move are announced to the server processes only
    as it ends, whatever happens in it (store.hold_announcements): a tap's process shares
    what it rendered for the watching phones first (publish_parts). Announcing is the
    write's own business once it committed: the database failing now is only logged (the
    phones see the move at their next look). Gives the tables moved so far."""
    moved = db.hold_announcements()
    try:
        yield moved
    finally:
        moved = db.stop_holding()
        if moved:
            try:
                db.announce_now(moved)
            except StorageFailure as failure:
                logging.getLogger(STORAGE_LOG).warning("A move was saved but not announced: %s", failure)


def publish_parts(db, table_id: str, version: int, parts: dict[str, str]) -> None:
    """Share parts of the table's page rendered for `version` with every server process
    (web/fragments.py). Only a saving of work, made while the version's news waits: a
    database busy with another write now (SQLite) or that cannot be written leaves them
    unshared, and each process renders its own."""
    try:
        with db.write(table_id, wait=False):
            db.publish_parts(table_id, version, parts)
    except StorageFailure:
        pass


def published_part(db, table_id: str, version: int, part: str) -> str | None:
    return db.published_part(table_id, version, part)


def player_key(name: str) -> str:
    """What a player's name is known by across tables: the same for "Ana" and "ANA"."""
    return store.name_key(name)


def log_length(db, table_id: str) -> int:
    return db.event_count(table_id)


def replay(db, game: Game, row: dict[str, Any], names: list[str], version: int | None = None) -> dict[str, Any]:
    """The table's state at `version` (the row's, unless told): its setup, then every
    action in effect at that version."""
    as_of = row["version"] if version is None else version
    moves = ((seat, action) for _seq, seat, action in db.moves(row["id"], as_of))
    return game.replay(game.setup(names, row["options"], row["deal"]), moves)


def identify(db, table_id: str, token: str | None) -> Viewer:
    """The viewer a token makes of its holder at this table; unknown tokens are refused."""
    if token is None:
        return ANONYMOUS
    if db.is_host_token(table_id, token):
        return Viewer(seat=None, host=True)
    seat = db.seat_for_token(table_id, token)
    if seat is None:
        raise ServiceError(401, "unknown_token", N_("This link or token does not belong to table %(id)s.", id=table_id))
    return Viewer(seat=seat, host=False)


# --- writing ------------------------------------------------------------------------
STALE_PAGE = N_("The table has moved on since your page was loaded: nothing was entered. This is the table as it is now.")
STALE_CORRECTION = N_(
    "The table has moved on since your page was loaded: nothing was undone or redone. This is the table as it is now."
)
STALE_SKIP = N_("The table has moved on since your page was loaded: nothing was left out. This is the table as it is now.")
# A second tap on a page whose first tap's answer is slow to come: what moved the table is
# that first tap, which the player would otherwise believe lost.
ALREADY_COUNTED = N_("Your first tap was already counted: this second one changed nothing. This is the table as it is now.")


def _seen_version(expected_version: Any) -> int | None:
    if expected_version is not None and (isinstance(expected_version, bool) or not isinstance(expected_version, int)):
        raise ServiceError(400, "malformed_request", N_("expected_version must be a whole number."))
    return expected_version


def _stale(table: Table, viewer: Viewer, sentence: Text) -> ServiceError:
    """The refusal of a tap made on a page that the table has moved on from: said as
    `sentence`, unless the move was that page's own tap (its mark on the table)."""
    if made_by_page(table.row.get("moved_by_page"), viewer.page, table.version):
        return ServiceError(409, "stale_version", ALREADY_COUNTED)
    return ServiceError(409, "stale_version", sentence)


def check_expected_version(table: Table, viewer: Viewer, expected_version: Any, stale: Text = STALE_CORRECTION) -> None:
    """Any change since `expected_version` makes an undo, a redo or a skip stale."""
    seen = _seen_version(expected_version)
    if seen is not None and seen != table.version:
        raise _stale(table, viewer, stale)


def _check_tap_is_current(db, table: Table, viewer: Viewer, seat: int, action: dict[str, Any], expected_version: Any) -> None:
    """A tap made on a page shown at `expected_version` is refused only if what changed
    since matters to it (the game says, action by action); an undo since always does."""
    seen = _seen_version(expected_version)
    if seen is None or seen == table.version:
        return
    if 0 <= seen < table.version:
        later = db.actions_after(table.id, seen)
        # each undo made a version and no event; so did each skip, which changed nothing
        undone_since = len(later) + db.skips_after(table.id, seen) != table.version - seen
        if not undone_since and not any(
            table.game.tap_depends_on(table.state, seat, action, earlier_seat, earlier_action)
            for earlier_seat, earlier_action in later
        ):
            return
    raise _stale(table, viewer, STALE_PAGE)


def _acting_seat(table: Table, viewer: Viewer, named: Any, action: dict[str, Any]) -> int:
    if viewer.anonymous:
        raise ServiceError(401, "no_token", N_("Join the table with your own link to play."))
    if named is not None:
        if isinstance(named, bool) or not isinstance(named, int):
            raise ServiceError(400, "malformed_request", N_("seat must be a whole number."))
        if not 0 <= named < len(table.names):
            raise ServiceError(422, "unknown_seat", N_("There is no seat %(seat)s at this table.", seat=named))
    if viewer.host:
        seat = named if named is not None else table.game.seat_for_host(table.state, action)
        if seat is None:
            seat = viewer.seat  # a host who also holds a seat acts for it
        if seat is None and table.game.is_finished(table.state):
            raise ServiceError(422, "game_over", N_("The game is over."))
        if seat is None:
            raise ServiceError(422, "seat_required", N_('Say which seat you are entering for (the "seat" field).'))
        return seat
    if named is not None and named != viewer.seat:
        raise ServiceError(403, "not_your_seat", N_("You can only act for your own seat."))
    return viewer.seat


@tried_once_more
def act(db, table_id: str, viewer: Viewer, action: Any, expected_version: Any = None) -> Table:
    if not isinstance(action, dict):
        raise ServiceError(400, "malformed_request", N_("An action must be a JSON object."))
    action = dict(action)
    named_seat = action.pop("seat", None)
    action.pop("expected_version", None)
    with writing(db, table_id):
        table = load(db, table_id)
        refuse_closed(table)
        refuse_host_only(table, viewer, action)
        seat = _acting_seat(table, viewer, named_seat, action)
        _check_tap_is_current(db, table, viewer, seat, action, expected_version)
        # a host playing their own seat on their own phone is a player like the others
        entered_by_host = viewer.host and seat != viewer.seat
        try:
            state = table.game.apply(table.state, seat, action, entered_by_seat=not entered_by_host)
        except RuleError as error:
            turn = table.game.current_seat(table.state)
            if entered_by_host and error.code == "not_your_turn" and turn is not None:
                # the rules' "not yours" speaks to the seat: the host entering for it is told whose turn it is
                reason = replace(table.game.host_out_of_turn, params={"turn": table.names[turn], "name": table.names[seat]})
                raise ServiceError(error.status, error.code, reason) from None
            raise ServiceError.from_rule(error) from None
        version = table.version + 1
        db.append_event(table_id, version, seat, entered_by_host, table.game.as_logged(table.state, seat, action))
        outcome = table.game.describe_outcome(table.state, state, seat, action)
        save(db, table, state, version, viewer)
    db.snapshots.put((table_id, table.version), table.state)  # committed: the phones' next refresh
    db.outcomes.put((table_id, version), (outcome,))  # its log line, for the same refresh
    return table


HOST_ONLY = N_("Only the host can do that: it ends the game for everyone.")


def refuse_host_only(table: Table, viewer: Viewer, action: Any) -> None:
    """An action only the host enters, undoes or redoes (Game.host_only_actions), asked by
    a player's phone or token."""
    if not viewer.host and isinstance(action, dict) and action.get("type") in table.game.host_only_actions:
        raise ServiceError(403, "host_only", HOST_ONLY)


def refuse_closed(table: Table) -> None:
    if table.row.get("closed_at") is not None:
        raise ServiceError(
            409,
            "table_closed",
            N_("This table was closed by its host: it keeps its log and results, and takes nothing more."),
        )


@tried_once_more
def close(db, table_id: str, viewer: Viewer) -> Table:
    """The host closes the table: it leaves the home page and takes no more actions; its
    log and results stay, and an unfinished game is marked abandoned."""
    if viewer.anonymous:
        raise ServiceError(401, "no_token", N_("Only the host can close this table."))
    if not viewer.host:
        raise ServiceError(403, "host_only", N_("Only the host can close this table."))
    row = db.table_row(table_id)
    started_from = None if row is None else row["rematch_of"]  # set with the table, never changed
    with writing(db, table_id, *([started_from] if started_from else [])):
        table = load(db, table_id)
        refuse_closed(table)
        db.close_table(table_id)
        if started_from and not table.game.is_finished(table.state):
            # A rematch given up before its end is no table of the evening's: the table it
            # was started from no longer leads to it, and its Rematch button starts another.
            db.unlink_rematch(started_from, table_id)
        table.row = db.table_row(table_id)
    db.snapshots.put((table_id, table.version), table.state)
    return table


def refuse_after_rematch(table: Table) -> None:
    if table.row.get("rematch_id") is not None:
        # Its result started the rematch (who starts, the game night): it is final.
        raise ServiceError(
            409,
            "rematch_started",
            N_("A rematch has started from this game: its result is final and cannot change any more."),
        )


def save(db, table: Table, state: dict[str, Any], version: int, viewer: Viewer) -> None:
    game = table.game
    status = "finished" if game.is_finished(state) else "playing"
    db.update_table(table.id, version, status, game.current_seat(state), viewer.page)
    if status == "finished":
        # What players set up here (a copied sheet) starts their next tables once a game
        # was played on it: a table started and dropped (a slip, a stranger's) changes none.
        for seat, entries in game.memories(table.row["options"], table.row["deal"]).items():
            db.remember(game.slug, table.names[seat], entries)
    table.state = state
    table.row = {**table.row, "version": version, "status": status}


def is_closed(table: Table) -> bool:
    return table.row.get("closed_at") is not None


def score_series(db, table: Table) -> list[list[int]]:
    """Per seat, the score before the first action and after each action still in effect
    that the game charts (Game.charted: the score pad's rounds), for the results' chart."""
    game = table.game
    state = copy.deepcopy(game.setup(table.names, table.row["options"], table.row["deal"]))
    series = [[score] for score in game.scores(state)]
    for _seq, seat, action in db.moves(table.id):
        game.step(state, seat, action)  # accepted once, so accepted again
        if game.charted(state, seat, action):
            for points, score in zip(series, game.scores(state)):
                points.append(score)
    return series

