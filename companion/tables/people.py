"""People: a player's name is a person on this companion. "Ana", "ana " and "ANA" are one
person already (store.name_key); a host can also rename a person, and merge two names typed
on different tables ("Ana" and "Anna") into one person. Seats, results and each table's log
keep the name as typed; the people table says which person a name now is, and the history
(the players' pages, the game night's totals, the exports) reads names through it.

Who may change a person: the phone that is the host of a table the person sat at (for a
merge, of a table of each of the two), since that host typed (or was told) their name in
the first place; a player's own seat does not let them rename the others. Nothing is lost
by it: a name renamed or merged is separated again from the person's page, back to the
name as typed.
"""

from __future__ import annotations

from typing import Any

from . import history, store
from .service import NAME_MAX_LENGTH, ServiceError, check_name
from ..games.names import clean_name, is_valid_unicode
from ..games.text import N_, shown

# Games finished at the same table that make someone a regular opponent on a person's page
# (which says "two games or more").
REGULAR_OPPONENT_GAMES = 2


def everyone(db) -> list[dict[str, Any]]:
    """Every person on this companion, each once however their name was typed: the name
    shown, their key, finished games, wins (first places, shared ones included) and when
    they last played (their latest table's last move), alphabetically."""
    history.save_missing_results(db)
    record = db.people_record()
    found: dict[str, dict[str, Any]] = {}
    for seat in db.seated_names():  # latest first: a person's first seat is their last game
        found.setdefault(seat["name_key"], {"name": seat["name"], "key": seat["name_key"], "last": seat["updated_at"]})
    for key, entry in found.items():
        entry.update(record.get(key, {"games": 0, "wins": 0}))
    return sorted(found.values(), key=lambda entry: history.alphabetical(entry["name"]))


def person(db, name: str) -> dict[str, Any] | None:
    """A person's page: what history.player says of them (per game played, wins, average,
    best; their tables and game nights), and the names they were typed as, their head-to-head
    against each regular opponent and their current streak. None for nobody."""
    found = history.player(db, name)
    if found is None:
        return None
    key, finished = found["key"], found.pop("finished")
    spellings: dict[str, set[str]] = {}
    for seat in found.pop("seated"):
        spellings.setdefault(store.name_key(seat["typed"]), set()).add(seat["typed"])
    return {
        **found,
        "typed": [
            {"names": sorted(names), "separable": typed_key != key}
            for typed_key, names in sorted(spellings.items())
        ],
        "opponents": head_to_head(db, key),
        "streak": streak(finished),
    }


def head_to_head(db, key: str) -> list[dict[str, Any]]:
    """Against each person who finished at least REGULAR_OPPONENT_GAMES games at a table
    with `key`: those games, and how many of them each won (first places, shared ones
    included; a game both won counts for both). Most games together first."""
    regular = db.opponents(key, REGULAR_OPPONENT_GAMES)
    return sorted(regular, key=lambda entry: (-entry["games"], history.alphabetical(entry["name"])))


def streak(finished: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The current streak, from the latest finished game back: wins in a row (`won`), or
    games in a row without a win. None before a first finished game."""
    outcomes: dict[str, bool] = {}  # per table, latest first: did they win it
    for result in finished:
        outcomes[result["id"]] = outcomes.get(result["id"], False) or result["place"] == 1
    if not outcomes:
        return None
    latest = next(iter(outcomes.values()))
    count = 0
    for won in outcomes.values():
        if won != latest:
            break
        count += 1
    return {"won": latest, "games": count}


def names_at(db, table_id: str) -> dict[int, str]:
    """Per seat of a table, the name of the person who sat there now (renames and merges
    followed): what the exports name them by."""
    return db.person_names_at(table_id)


# --- renaming, merging, separating --------------------------------------------------------------
def may_change(db, key: str, hosted: list[str]) -> bool:
    """Whether a phone hosting the tables `hosted` may rename the person `key` or merge them."""
    return db.person_sat_at(key, hosted)


def _typed(name: Any) -> str:
    """A name a form sent for a person already here, trimmed; "" for what no stored name can
    be (not text, a NUL, broken text, too long), which the database is never asked about
    (PostgreSQL refuses text holding a NUL)."""
    if not isinstance(name, str) or "\x00" in name or not is_valid_unicode(name) or len(name.strip()) > NAME_MAX_LENGTH:
        return ""
    return name.strip()


def _not_host(name: str) -> ServiceError:
    return ServiceError(
        403, "not_their_host",
        N_("Only the host of a table %(name)s played at can rename them, merge them or separate their names.", name=name),
    )


def _name_of(db, key: str) -> str | None:
    """The name shown for the person `key`, or None if nobody is that person."""
    seats = db.seated_names(key)
    return seats[0]["name"] if seats else None


def rename(db, key: str, new_name: Any, hosted: list[str]) -> str:
    """The person `key` is shown as `new_name` from now on, on every page and export, and a
    name typed so at a later table is them too. Refused when that name is someone else's
    (merging says so). Their new key."""
    name = clean_name(new_name) if isinstance(new_name, str) else ""
    check_name(name)
    new_key = store.name_key(name)
    with db.write():
        old_name = _name_of(db, key)
        if old_name is None:
            raise ServiceError(404, "nobody", N_("Nobody called %(name)s has played at this companion.", name=key))
        if not may_change(db, key, hosted):
            raise _not_host(old_name)
        owner = db.person_of(new_key)
        if owner != key and _name_of(db, owner) is not None:
            raise ServiceError(
                409, "name_taken",
                N_("%(name)s is someone else on this companion: if they are one person, merge them instead.", name=_name_of(db, owner)),
            )
        db.name_people(sorted({*db.person_name_keys(key), new_key}), new_key, name)
    return new_key


def played_together(db, key: str, name: str, other: str, other_name: str) -> ServiceError | None:
    """Two people who sat at one table are two people: merged, that table would count one
    person twice (their places, wins and nights). The refusal, or None."""
    if not db.sat_together(key, other):
        return None
    return ServiceError(422, "played_together", N_("%(name)s and %(other)s played at one table: they are two people.", name=name, other=other_name))


def merge(db, key: str, into: Any, hosted: list[str]) -> str:
    """Every name of the person `key` is the person called `into` from now on (shown by
    their name): their tables, wins and nights count together. The key of the person merged into."""
    target_name = _typed(into)
    asked = into.strip() if isinstance(into, str) else ""
    with db.write():
        source_name = _name_of(db, key)
        if source_name is None:
            raise ServiceError(404, "nobody", N_("Nobody called %(name)s has played at this companion.", name=key))
        target = db.person_of(store.name_key(target_name)) if target_name else ""
        target_shown = _name_of(db, target) if target else None
        if target_shown is None:
            raise ServiceError(
                422, "nobody",
                N_("Nobody called %(name)s has played at this companion.", name=shown(asked)) if asked
                else N_("Say whom %(name)s is the same person as.", name=source_name),
            )
        if target == key:
            raise ServiceError(422, "same_person", N_("%(name)s and %(other)s are one person already.", name=source_name, other=target_name))
        if not may_change(db, key, hosted):
            raise _not_host(source_name)
        if not may_change(db, target, hosted):
            raise _not_host(target_shown)
        refusal = played_together(db, key, source_name, target, target_shown)
        if refusal is not None:
            raise refusal
        db.name_people(sorted({*db.person_name_keys(key), *db.person_name_keys(target)}), target, target_shown)
    return target


def separate(db, key: str, typed: Any, hosted: list[str]) -> str:
    """The name `typed`, renamed or merged into the person `key`, is its own person again,
    shown as typed: the undoing of a rename or a merge. That person's key."""
    name = _typed(typed)
    typed_key = store.name_key(name)
    with db.write():
        person_shown = _name_of(db, key)
        if person_shown is None:
            raise ServiceError(404, "nobody", N_("Nobody called %(name)s has played at this companion.", name=key))
        if not name or db.person_of(typed_key) != key or typed_key not in db.person_name_keys(key):
            asked = typed.strip() if isinstance(typed, str) else ""
            raise ServiceError(422, "not_their_name", N_("%(name)s is not a name %(person)s was typed as.", name=shown(asked), person=person_shown))
        if not may_change(db, key, hosted):
            raise _not_host(person_shown)
        if typed_key == key or not db.separate_name(typed_key):
            raise ServiceError(422, "own_name", N_("%(name)s is their own name: rename them instead.", name=name))
    return typed_key
