"""Issue 30: raw English inside a translated reason. A Danish or Norwegian sentence
still carried Python's words where a value was put in: an exception's type name
(`undecodable message: ExtraData`), a message kind (`deck/shares`), a lobby class or
stage name (`CoinCommit`, `reveals`), a dialler's "no address to dial" and a mistyped
card's `NotationError`. Each is caused for real and scanned, after `i18n.say_reason` or
`i18n.say_os_error` (what the screens and the command line show), for the English
catalogue, English words, and the raw tokens themselves."""

from __future__ import annotations

import asyncio
import errno
import re
import socket

import pytest

from p2p_rommy import i18n
from p2p_rommy.errors import NotationError, ProtocolError
from tests.test_no_english import ENGLISH_WORDS, english_phrases

RAW = re.compile(
    r"\b[a-z]+/[a-z_]+\b"  # a message kind
    r"|\b[A-Z][a-z]+(?:[A-Z][a-z]*)+\b"  # a class name (ExtraData, CoinCommit)
    r"|\b\w*Error\b"
    r"|\b(?:commits|reveals|signatures)\b"  # the lobby's stage names
    r"|as written|med afsenderens|med avsenderens"  # a reason none of ours: quoted
)


TECHNICAL = re.compile(r"\(teknisk: [^()]*\)")  # the same word in both languages


def said_in(language: str, errors: list[BaseException]) -> list[str]:
    """As shown: a checker's error by its reason, any other by `say_os_error`."""
    from p2p_rommy.errors import RommyError

    i18n.use(language)
    try:
        return [
            i18n.say_reason(str(e)) if isinstance(e, RommyError) else i18n.say_os_error(e)
            for e in errors
        ]
    finally:
        i18n.use("en")


def scan(language: str, errors: list[BaseException]) -> list[str]:
    phrases = english_phrases(language)
    said = said_in(language, errors)
    for error, shown in zip(errors, said, strict=True):
        text = TECHNICAL.sub("", shown)  # field names, said as such after the sentence
        found = sorted(p for p in phrases if p in text)
        words = sorted({m.group(0) for m in ENGLISH_WORDS.finditer(text)})
        raw = sorted({m.group(0) for m in RAW.finditer(text)})
        assert not found and not words and not raw, (str(error), text, found, words, raw)
    return said


def refusal(call, *args: object) -> ProtocolError:
    with pytest.raises(ProtocolError) as refused:
        call(*args)
    return refused.value


@pytest.mark.parametrize("language", ["da", "nb"])
def test_an_undecodable_message_says_what_is_wrong_in_words(language):
    from p2p_rommy.wire.codec import unpack

    garbage = [b"\x01\x02", b"\xc1", b"\x92\x01", b"\xa2\xff\xfe", b"\x91" * 2000]
    errors = [refusal(unpack, raw) for raw in garbage]
    assert {str(e).rsplit(": ", 1)[1] for e in errors} == {
        "ExtraData",
        "FormatError",
        "ValueError",
        "UnicodeDecodeError",
        "StackError",
    }  # the scan can fail: the type names are in the English reasons
    said = scan(language, errors)
    assert len(set(said)) == 5, said  # each says its own thing


def _messages() -> list[type]:
    import p2p_rommy.config
    import p2p_rommy.deck.messages
    import p2p_rommy.lobby.messages
    import p2p_rommy.log.messages  # noqa: F401  (each defines its messages)
    from p2p_rommy.wire.message import Message

    found, todo = [], list(Message.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if not cls.__module__.startswith("p2p_rommy."):
            continue  # a test's own message (tests/test_wire_message.py), not the game's
        if ("KIND" in vars(cls) and "/" in cls.KIND) or getattr(cls, "KIND", "") == "config":
            found.append(cls)
    return found


@pytest.mark.parametrize("language", ["da", "nb"])
def test_a_malformed_message_names_its_kind_in_words(language):
    """Every message kind a seat can refuse, malformed three ways: not a map, its
    fields missing, another kind in its place."""
    classes = _messages()
    assert len(classes) >= 15, classes
    errors = []
    for cls in classes:
        errors.append(refusal(cls.from_body, [cls.KIND]))
        errors.append(refusal(cls.from_body, {"kind": cls.KIND}))
        keys = cls.schema().keys
        errors.append(refusal(cls.from_body, {k: "other" if k == "kind" else 0 for k in keys}))
    assert any("deck/shares" in str(e) for e in errors)  # the scan can fail
    scan(language, errors)


@pytest.mark.parametrize("language", ["da", "nb"])
def test_a_relay_of_the_wrong_stage_names_the_stage_in_words(language):
    from p2p_rommy.lobby import Coin, Member, join_entry
    from p2p_rommy.lobby.messages import CoinCommit
    from p2p_rommy.wire.identity import Identity
    from tests.test_fuzz import lobby_settings

    lobby, ann, bo = bytes(32), Identity.generate(), Identity.generate()
    members = tuple(
        Member.from_entry(i.public_key, join_entry(i, lobby, name, []), lobby)
        for i, name in ((ann, "Ann"), (bo, "Bo"))
    )
    commit = bo.sign(CoinCommit(lobby, bytes(32)).encode())
    errors = [
        refusal(Coin(lobby, ann, lobby_settings(), members, bytes(32)).take_relay, s, items)
        for s, items in (("reveals", (commit,)), ("commits", ()))
    ]
    coin = Coin(lobby, ann, lobby_settings(), members, bytes(32))
    coin.take(bo.public_key, commit)
    errors.append(refusal(coin.take, bo.public_key, commit))  # named by the member's name
    assert "CoinCommit among the reveals" in str(errors[0]), errors
    assert "the commits without Ann, Bo" in str(errors[1]), errors
    assert str(errors[2]) == "Bo: a second coin commitment", errors
    said = scan(language, errors)
    assert said[2].startswith("Bo: "), said


def _closed_port() -> int:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        return int(held.getsockname()[1])


@pytest.mark.parametrize("language", ["da", "nb"])
def test_a_dial_that_finds_no_one_says_why_in_words(language):
    from p2p_rommy.net.dial import first_connection

    async def failure(targets: list[tuple[str, int]]) -> OSError:
        with pytest.raises(OSError) as failed:
            await first_connection(targets, timeout=2.0, stagger=0.05)
        return failed.value

    one, two = ("127.0.0.1", _closed_port()), ("127.0.0.1", _closed_port())
    errors: list[BaseException] = [
        asyncio.run(failure([])),
        asyncio.run(failure([one])),
        asyncio.run(failure([one, two])),
    ]
    assert "no address to dial" in str(errors[0])
    said = scan(language, errors)
    refused = said_in(language, [ConnectionRefusedError(errno.ECONNREFUSED, "x")])[0]
    assert said[1] == said[2] == refused, said


@pytest.mark.parametrize("language", ["da", "nb"])
def test_a_mistyped_card_is_refused_in_words(language):
    from p2p_rommy.cards import JOKER_RANK, Card, Suit, parse_card

    errors: list[BaseException] = []
    for make in (
        lambda: parse_card("7X"),
        lambda: Card(JOKER_RANK, Suit("S")),
        lambda: Card(15, None),
    ):
        with pytest.raises(NotationError) as refused:
            make()
        errors.append(refused.value)
    assert "is not a card" in str(errors[0])
    said = scan(language, errors)
    assert "7X" in said[0], said


@pytest.mark.parametrize("language", ["da", "nb"])
def test_a_malformed_move_at_a_step_reads_from_the_seat_inward(language):
    """A reason nested in a seat's and step's words is cut there first: "seat 1 at
    step 4: malformed move: draw[0] must be ..." once read as "{name} must be ..." with
    the name "seat 1 at step 4: malformed move: draw[0]" (the field check's template
    has the more fixed text), which put "feltet" before the seat."""
    from p2p_rommy.log.move_codec import decode_move

    errors = []
    for wire in (["draw", -1], ["discard", 0, "x"]):
        refused = refusal(decode_move, wire, 0)
        errors.append(ProtocolError(0, refused.reason, 4))
    said = scan(language, errors)
    seat = {"da": "plads 1 ved trin 4: ", "nb": "plass 1 ved steg 4: "}[language]
    assert all(text.startswith(seat) for text in said), said
    assert "feltet draw[0]" in said[0], said


@pytest.mark.parametrize("language", ["da", "nb"])
def test_a_bench_section_that_does_not_exist_is_refused_in_words(language, capsys, monkeypatch):
    """`rommy bench` takes its language from the locale; a mistyped section was English."""
    from p2p_rommy.cli import main

    monkeypatch.setenv("LANGUAGE", language)
    monkeypatch.setenv("LC_ALL", {"da": "da_DK.UTF-8", "nb": "nb_NO.UTF-8"}[language])
    for only in ("nonsense", "bots.nonsense"):
        try:
            code = main(["bench", "--only", only])
        finally:
            i18n.use("en")
        said = capsys.readouterr().err
        assert code == 2 and "nonsense" in said, said
        text = said.replace(only, "")
        assert not ENGLISH_WORDS.search(text) and "section" not in text, said
        assert not sorted(p for p in english_phrases(language) if p in text), said


@pytest.mark.parametrize("language", ["da", "nb"])
def test_a_rare_system_error_is_a_sentence_with_the_technical_words_after_it(language):
    """An errno without a sentence of ours, or an exception with no text, reached a
    Danish command line as the system's English ("Socket operation on non-socket") or a
    Python class name ("TimeoutError"). It is said as a sentence, the system's own
    words after it as "(teknisk: ...)"."""
    errors: list[BaseException] = [
        OSError(errno.ENOTSOCK, "Socket operation on non-socket"),
        TimeoutError(),
        RuntimeError("Event loop is closed"),
    ]
    said = scan(language, errors)
    assert "(teknisk: Socket operation on non-socket)" in said[0], said
    assert "(teknisk: Event loop is closed)" in said[2], said
    i18n.use("en")
    assert i18n.say_os_error(errors[0]) == "Socket operation on non-socket"  # English: as is
