"""The companion's Portuguese is one variety, European Portuguese, in the catalog and in the
players' guides alike: the Lobo and Twenty One boxes are written in it (encarnado, biscar,
ronda, registar), and the Brazilian Pickomino box's own words (minhoca, grelha, pilha)
are European Portuguese too. A Brazilian phone reads it as well. Each Brazilian form found
is named with the European one to write instead."""

from __future__ import annotations

import re

from babel.messages.pofile import read_po

from companion.games import GAMES
from companion.web.i18n import TRANSLATIONS


# Brazilian word -> the European word (lower case, whole words).
BRAZILIAN = {
    "você": "no pronoun: \"É o anfitrião\", \"Tem 3 dados\"",
    "vocês": "no pronoun",
    "celular": "telemóvel",
    "telefone": "telemóvel",
    "tela": "ecrã",
    "time": "equipa",
    "equipe": "equipa",
    "rodada": "ronda",
    "registrar": "registar",
    "registrou": "registou",
    "bônus": "bónus",
    "arquivo": "ficheiro",
    "baixar": "descarregar",
    "download": "descarregar",
    "usuário": "utilizador",
    "rolagem": "lançamento",
    "rolar": "lançar",
    "rolou": "lançou",
    "coletar": "separar",
    "coletou": "separou",
    "pegar": "tirar",
    "pegou": "tirou",
    "chat": "conversa",
    "entender": "compreender",
    "controle": "controlo",
    "contato": "contacto",
}
WORD = re.compile(r"[^\W\d_]+")
# "está jogando": the Brazilian progressive; Portugal says "está a jogar"
PROGRESSIVE = re.compile(r"\b(?:estou|está|estão|estava|estavam|fica|ficam|continua)\s+\w+(?:ando|endo|indo)\b", re.IGNORECASE)


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")  # a sentence's named value ("%(time)s") is no Portuguese word


def brazilian_forms(text: str) -> list[str]:
    text = PLACEHOLDER.sub(" ", text)
    found = [f"{word} (write: {BRAZILIAN[word.lower()]})" for word in WORD.findall(text) if word.lower() in BRAZILIAN]
    return found + [f"{phrase} (write: a + infinitive)" for phrase in PROGRESSIVE.findall(text)]


def test_the_portuguese_catalog_is_european_portuguese():
    with open(TRANSLATIONS / "pt" / "LC_MESSAGES" / "messages.po", "rb") as po:
        catalog = read_po(po, locale="pt")
    found = {}
    for message in catalog:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        forms = [form for string in strings for form in brazilian_forms(string or "")]
        if forms:
            found[message.id if isinstance(message.id, str) else message.id[0]] = forms
    assert not found, found


def test_the_portuguese_guides_are_european_portuguese():
    found = {slug: brazilian_forms(game.guide("pt").read_text(encoding="utf-8")) for slug, game in GAMES.items()}
    assert not any(found.values()), found


def test_a_brazilian_form_is_found():
    assert brazilian_forms("Você está jogando no celular") == [
        'Você (write: no pronoun: "É o anfitrião", "Tem 3 dados")',
        "celular (write: telemóvel)",
        "está jogando (write: a + infinitive)",
    ]
    assert brazilian_forms("Está a jogar no telemóvel: toque no ecrã") == []
