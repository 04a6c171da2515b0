"""The client in Danish, Norwegian Bokmål and English: every string of the client has a
translation in each catalog with the same placeholders, the compiled catalogs match
their sources, the language comes from --lang or the locale, and the screen speaks it."""

from __future__ import annotations

import asyncio
import gettext
import re

import pytest
from babel.messages.pofile import read_po

from p2p_rommy import i18n
from p2p_rommy.cli import main
from p2p_rommy.frontends.local import local_table
from p2p_rommy.tui import render
from p2p_rommy.tui.model import ClientModel
from tools.catalogs import source_strings

PLACEHOLDER = re.compile(r"\{[a-z]+[^}]*\}")


def catalog(language: str):
    with (i18n.LOCALE_DIR / language / "LC_MESSAGES" / "rommy.po").open("rb") as file:
        return read_po(file)


@pytest.mark.parametrize("language", ["da", "nb"])
def test_every_client_string_is_translated_with_the_same_placeholders(language):
    po = catalog(language)
    compiled = gettext.translation("rommy", i18n.LOCALE_DIR, [language])
    for message in source_strings():
        entry = po.get(message)
        assert entry is not None and entry.string, f"{language}: no translation of {message!r}"
        assert sorted(PLACEHOLDER.findall(entry.string)) == sorted(PLACEHOLDER.findall(message))
        assert compiled.gettext(message) == entry.string  # the .mo is compiled from this .po


def test_the_language_comes_from_the_locale():
    assert i18n.default_language({"LANG": "da_DK.UTF-8"}) == "da"
    assert i18n.default_language({"LANG": "nb_NO.UTF-8"}) == "nb"
    assert i18n.default_language({"LANGUAGE": "no:en", "LANG": "C"}) == "nb"
    assert i18n.default_language({"LANG": "de_DE.UTF-8"}) == "en"
    assert i18n.default_language({}) == "en"


def test_an_unknown_language_is_refused(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--lang", "sv"])
    assert exit_info.value.code == 2 and "invalid choice: 'sv'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("da", ["runde 1/7", "for at åbne: 2 passere", "giver", "Din hånd", "Taster"]),
        ("nb", ["runde 1/7", "for å åpne: 2 passere", "giver", "Din hånd", "Taster"]),
        ("en", ["round 1/7", "to open: 2 passere", "dealer", "Your hand", "Keys"]),
    ],
)
def test_the_screen_speaks_the_chosen_language(language, words):
    async def main_() -> str:
        human, others = await local_table("lp", ["random"] * 2, {}, "Ann", 3)
        model = ClientModel(human, ascii_only=True)
        try:
            texts = [render.header(model), render.hand(model), [("", render.help_text())]]
            return "".join(text for part in texts for _, text in part)
        finally:
            await human.close()
            for session in others:
                await session.close()

    i18n.use(language)
    try:
        shown = asyncio.run(main_())
    finally:
        i18n.use("en")
    for word in words:
        assert word in shown, (word, shown)


@pytest.mark.parametrize("language", ["da", "nb"])
def test_an_engine_refusal_reads_in_the_clients_language(language):
    """Client issue: the engine's reasons were English inside the Danish and Norwegian
    screens. A reason is a message id with values; the client says it in its language,
    values included (the variant's own terms and card names stay as they are)."""
    from p2p_rommy.engine.apply import apply, new_game
    from p2p_rommy.engine.moves import Discard, DrawStock
    from p2p_rommy.errors import IllegalMove
    from p2p_rommy.i18n import _
    from p2p_rommy.rules import ruleset

    english = {m for m in source_strings() if len(m) > 12 and "{" not in m}
    i18n.use(language)
    try:
        state = new_game(ruleset("lp"), 4)
        said = []
        for move in (DrawStock(seat=2), Discard(seat=0, slot=3, card=7)):
            with pytest.raises(IllegalMove) as refused:
                apply(state, move)
            said.append((refused.value.say(_), str(refused.value)))
    finally:
        i18n.use("en")
    for sentence, in_english in said:
        assert sentence and not any(phrase in sentence for phrase in english), sentence
        assert sentence != in_english


@pytest.mark.parametrize(("given", "language"), [("dk", "da"), ("no", "nb"), ("nb", "nb")])
def test_dk_and_no_are_accepted_for_danish_and_norwegian(given, language):
    """Client issue: `--lang dk` and `--lang no` were refused; people type them."""
    from p2p_rommy.cli import build_parser

    for command in (["play"], ["join"], ["rules"]):
        assert build_parser().parse_args([*command, "--lang", given]).lang == language


@pytest.mark.parametrize(
    ("language", "wrong"),
    [
        (
            "da",
            [
                "læsning",
                "points",
                "Endelig pointtavle",
                "Kastet:",
                "række, sæt",
                "kan ikke lægge til på",
                "Køb! vinduet",
            ],
        ),
        (
            "nb",
            [
                "melding ",
                "meldingen",
                "meldinger ",
                "er åpen ",
                "sit trekk",
                "lesning",
                "Endelig poengtavle",
                "rekke, sett",
                "i denne runden",
                "Kjøp! vinduet",
            ],
        ),
    ],
)
def test_the_wordings_players_reported_are_gone(language, wrong):
    """Client issue: Danish "læsning", "40 points", "Endelig pointtavle", "Kastet:";
    Norwegian "melding" (a message in Bokmål; the rule text says kombinasjon)."""
    said = PLACEHOLDER.sub(
        "",
        "\n".join(str(m.string) for m in catalog(language) if m.id and "network" not in str(m.id)),
    )
    for words in wrong:
        assert words not in said, words
    i18n.use(language)
    try:
        from p2p_rommy.i18n import _
        from p2p_rommy.rules import ruleset

        assert "points" not in _("{points} points").format(points=40)
        assert ruleset("romme").describe_opening(0) == "40 points"  # English stays English
    finally:
        i18n.use("en")


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("da", "byg i åbningsturen: til, jokerbytte: fra"),
        ("nb", "bygg i åpningsturen: på, jokerbytte: av"),
        ("en", "build in the opening turn: on, joker swaps: off"),
    ],
)
def test_the_lobby_says_the_house_rules_in_words(language, shown):
    """Client issue: the lobby showed `build_in_opening_turn=False, joker_swap=True, …`
    (Python names and booleans, cut at 80 columns). It names the rules that differ
    from the variant's defaults, in words."""
    from p2p_rommy.i18n import _
    from p2p_rommy.rules import ruleset
    from p2p_rommy.rules.house_words import HELP, NAMES, changed_rules, variant_name
    from p2p_rommy.rules.variants import HOUSE_RULE_SPECS, VARIANTS

    assert {s.key for v in VARIANTS for s in HOUSE_RULE_SPECS[v]} <= set(NAMES)
    assert {s.help for v in VARIANTS for s in HOUSE_RULE_SPECS[v]} <= set(HELP)
    house = ruleset("lp", {"build_in_opening_turn": "on", "joker_swap": "off"}).house.values
    i18n.use(language)
    try:
        assert changed_rules("lp", house, _) == shown
        assert changed_rules("lp", ruleset("lp").house.values, _) == ""
        assert variant_name("lp") == "Løbere og Passere" and variant_name("??") == "??"
    finally:
        i18n.use("en")


def test_no_message_id_is_written_twice_in_the_catalog_source():
    """A dict literal with one key twice keeps the later value silently, and `|` between
    the catalog's parts does the same: an edited translation may never be the one used.
    Every message id is written once in tools/catalogs.py."""
    import ast
    from pathlib import Path

    source = Path(__file__).resolve().parent.parent / "tools" / "catalogs.py"
    seen: dict[str, int] = {}
    twice = []
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict):
            for key in node.keys:
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    if key.value in seen:
                        twice.append((key.value, seen[key.value], key.lineno))
                    seen[key.value] = key.lineno
    assert len(seen) > 500 and not twice, twice


@pytest.mark.parametrize("language", ["en", "da", "nb"])
def test_rules_fit_an_80_column_terminal_in_every_language(language, capsys):
    """`rommy rules --lang da` printed 20 lines wider than 80 columns (the longer Danish
    and Norwegian summaries, and house rule texts up to 186 characters even in English);
    a terminal cut or wrapped them mid-word. Every line now fits, broken between words."""
    code = main(["rules", "--lang", language])
    i18n.use("en")
    lines = capsys.readouterr().out.splitlines()
    assert code == 0 and len(lines) > 60
    assert max(len(line) for line in lines) <= 80, [line for line in lines if len(line) > 80]
    assert any("buy_priority" in line for line in lines)  # the house rules are all there
