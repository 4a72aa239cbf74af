"""Issue 7: the catalogs of Portuguese, French and Romanian translate every message the
code has today (a fresh extraction, run here), completely (no empty or fuzzy entry, every
plural form), with the same placeholders, and compile."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po
from babel.support import Translations

from companion.paths import PROJECT_ROOT
from companion.games import GAMES
from companion.web.i18n import LANGUAGES, TRANSLATIONS, compile_catalogs, compiled_translations

TRANSLATED = sorted(set(LANGUAGES) - {"en"})
# The one extraction command, as docs/development.md's Languages section gives it (checked below).
EXTRACT = (
    "pybabel extract -F babel.cfg -k N_ -k NC_:1c,2 -k NP_:1,2 --add-location=file"
    " --sort-output --no-wrap -o companion/translations/messages.pot ."
)
PLURAL_FORMS = {
    "pt": (2, "(n != 1)"),
    "fr": (2, "(n > 1)"),  # French: 0 and 1 are singular ("0 ver")
    "ro": (3, "(n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2)"),  # 1 / 2–19 / 20 de …
}
# Translations that are rightly the same as the English message: the brand and the game
# titles the boxes print unchanged, and words the language shares with English.
GAME_TITLES = {game.title.msgid for game in GAMES.values()}  # a box may print its title unchanged
SAME_AS_ENGLISH = {
    "pt": {"Companion", *GAME_TITLES},
    "fr": {
        "Companion", *GAME_TITLES,
        "Total", "orange", "%(num)s point", "%(num)s minute", "%(num)s table", "place", "score",  # French words too
        "%(sheep)s + bonus %(bonus)s = %(points)s",  # "bonus" is French too
    },
    "ro": {
        "Companion", *GAME_TITLES,
        "Total",  # the same word in Romanian
        "%(sheep)s + bonus %(bonus)s = %(points)s",  # "bonus" is Romanian too
    },
}
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def catalog(language: str):
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as po_file:
        return read_po(po_file, locale=language)


def messages(language: str):
    return [message for message in catalog(language) if message.id]


def key(message) -> tuple[str | None, str]:
    msgid = message.id[0] if isinstance(message.id, tuple) else message.id
    return message.context, msgid


def forms(message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    """The messages of the code as it is now, extracted with the documented command."""
    target = tmp_path_factory.mktemp("extract") / "messages.pot"
    arguments = shlex.split(EXTRACT)
    arguments[arguments.index("-o") + 1] = str(target)
    here = os.getcwd()
    os.chdir(PROJECT_ROOT)
    try:
        CommandLineInterface().run([arguments[0], "--quiet", *arguments[1:]])
    finally:
        os.chdir(here)
    with target.open("rb") as pot:
        return {key(message): message for message in read_po(pot) if message.id}


def test_issue_7_the_developers_guide_gives_the_extraction_command():
    guide = (PROJECT_ROOT / "docs" / "development.md").read_text()
    assert EXTRACT in guide


def test_issue_7_the_extraction_finds_the_engines_and_the_templates_messages(extracted):
    assert (None, "%(name)s stole %(tile)s from %(victim)s.") in extracted  # N_ in a game module
    assert (None, "%(num)s worm") in extracted  # ngettext in a template
    assert ("flock colour", "red") in extracted  # NC_: Lobo's flock colours
    assert extracted[(None, "Only %(num)s die is left.")].id[1] == "Only %(num)s dice are left."  # NP_


@pytest.mark.parametrize("language", TRANSLATED)
def test_issue_7_every_message_of_the_code_is_in_the_catalog(extracted, language):
    present = {key(message) for message in messages(language)}
    missing = sorted(set(extracted) - present, key=str)
    assert not missing, f"{language}: run docs/development.md's update command and translate: {missing}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_issue_7_the_catalog_holds_no_message_the_code_no_longer_has(extracted, language):
    stale = sorted({key(message) for message in messages(language)} - set(extracted), key=str)
    assert not stale, f"{language}: run the README's update command: {stale}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_issue_7_every_message_is_translated_with_no_empty_or_fuzzy_entry(language):
    whole = catalog(language)
    assert not whole.fuzzy
    untranslated = [key(message) for message in messages(language) if not all(form.strip() for form in forms(message))]
    fuzzy = [key(message) for message in messages(language) if message.fuzzy]
    assert not untranslated, f"{language}: untranslated {untranslated}"
    assert not fuzzy, f"{language}: fuzzy {fuzzy}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_issue_7_plural_forms_follow_the_language(language):
    whole = catalog(language)
    count, expression = PLURAL_FORMS[language]
    assert (whole.num_plurals, whole.plural_expr) == (count, expression)
    for message in messages(language):
        if isinstance(message.id, tuple):
            assert len(message.string) == count, key(message)


@pytest.mark.parametrize("language", TRANSLATED)
def test_issue_7_translations_keep_the_placeholders_of_their_message(language):
    for message in messages(language):
        if isinstance(message.id, tuple):
            singular, plural = (set(PLACEHOLDER.findall(text)) for text in message.id)
            for form in forms(message):
                assert set(PLACEHOLDER.findall(form)) <= singular | plural | {"num"}, (language, key(message), form)
            assert set(PLACEHOLDER.findall(forms(message)[-1])) == plural, (language, key(message))
        else:
            assert set(PLACEHOLDER.findall(message.string)) == set(PLACEHOLDER.findall(message.id)), (language, key(message))
        for form in forms(message):  # a stray % would break the sentence when it is filled in
            assert form % {name: "x" for name in PLACEHOLDER.findall(form)}


@pytest.mark.parametrize("language", TRANSLATED)
def test_issue_7_no_translation_is_a_copy_of_the_english(language):
    copies = set()
    for message in messages(language):
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        copied = (forms(message)[0], forms(message)[-1]) == (english[0], english[-1])
        if copied and re.search(r"[^\W\d_]{2,}", PLACEHOLDER.sub("", english[0])):
            copies.add(key(message)[1])
    assert copies <= SAME_AS_ENGLISH[language], f"{language}: {sorted(copies - SAME_AS_ENGLISH[language])}"


def test_issue_7_catalogs_compile_and_are_compiled_again_when_their_po_changes(tmp_path):
    compile_catalogs(TRANSLATIONS, tmp_path)
    for language in TRANSLATED:
        translations = Translations.load(str(tmp_path), [language])
        assert translations.gettext("Start a table") != "Start a table"
    compiled = tmp_path / "ro" / "LC_MESSAGES" / "messages.mo"
    older = (TRANSLATIONS / "ro" / "LC_MESSAGES" / "messages.po").stat().st_mtime - 60
    os.utime(compiled, (older, older))
    compile_catalogs(TRANSLATIONS, tmp_path)
    assert compiled.stat().st_mtime > older  # the .po was newer: compiled again
    untouched = compiled.stat().st_mtime_ns
    compile_catalogs(TRANSLATIONS, tmp_path)
    assert compiled.stat().st_mtime_ns == untouched  # up to date: left alone


def test_an_installed_companion_whose_data_folder_cannot_be_written_compiles_its_catalogs_aside(tmp_path):
    """helper QA: installed (a wheel), the catalogs are compiled into the data folder; in a
    read-only one (served for reading) that stopped the start when they were missing or
    older than the .po files, after an upgrade say."""
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    found = compiled_translations(blocked / "translations", installed=True)
    try:
        assert found.parent == Path(tempfile.gettempdir()) and found.name.startswith("companion-translations-")
        for language in TRANSLATED:
            assert Translations.load(str(found), [language]).gettext("Start a table") != "Start a table"
    finally:
        shutil.rmtree(found)


def test_the_catalogs_compiled_aside_leave_with_the_process_that_compiled_them(tmp_path):
    """Review: each start of a companion with a read-only data folder left a
    companion-translations-* folder behind in the temporary folder."""
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    program = (
        "import sys; from pathlib import Path; from companion.web.i18n import compiled_translations;"
        "found = compiled_translations(Path(sys.argv[1]) / 'translations', installed=True);"
        "print(found, (found / 'fr' / 'LC_MESSAGES' / 'messages.mo').is_file())"
    )
    done = subprocess.run([sys.executable, "-c", program, str(blocked)], capture_output=True, text=True, timeout=60, check=True)
    folder, compiled = done.stdout.split()
    assert compiled == "True" and Path(folder).name.startswith("companion-translations-")
    assert not Path(folder).exists()


def test_issue_7_the_package_ships_the_catalogs_and_not_their_compiled_files():
    pyproject = (PROJECT_ROOT / "pyproject.toml").read_text()
    assert '"*.po"' in pyproject  # package data of every package the build finds, the catalogs' folders among them
    ignored = (PROJECT_ROOT / ".gitignore").read_text()
    assert "companion/translations/*/LC_MESSAGES/*.mo" in ignored
    assert sorted(path.name for path in Path(TRANSLATIONS).iterdir() if path.is_dir()) == TRANSLATED


def test_french_never_puts_de_or_que_before_a_name():
    """French elides "de" and "que" before a vowel: "d'Ana", "qu'Eli". A name is not known
    when the sentence is written, so French sentences are worded without "de <name>"."""
    before_a_name = re.compile(r"\b(de|que|le|la|du) %\((name|names|victim|owner|player)\)s", re.IGNORECASE)
    found = [(message.id, text) for message in messages("fr") for text in forms(message) if before_a_name.search(text)]
    assert found == []
