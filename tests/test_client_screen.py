"""Client issue: what a player sees and presses — the status line gives way to the
prompt, card labels stay put within a turn and the drawn card is marked, suits are
legible on a dark terminal, meld numbers of any size can be typed, the Køb! prompt
names the card, and no log record is written over the full-screen app."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

from prompt_toolkit.styles import DEFAULT_ATTRS

from p2p_rommy.cards import Suit
from p2p_rommy.engine.state import Phase
from p2p_rommy.seat.logfile import log_to_file
from p2p_rommy.tui.app import style
from p2p_rommy.tui.model import LABELS, ClientModel
from tests.test_tui_turns import app_at_local_table


def test_suit_colours_are_legible_on_a_dark_terminal():
    """Black suits used a style class named `black`, which prompt_toolkit draws #000000:
    invisible on a dark background. Every suit's foreground is now the terminal's own
    or a named colour; with four colours each suit differs."""
    for four in (False, True):
        colours = {}
        for suit in Suit:
            attrs = style(four).get_attrs_for_style_str(f"class:suit-{suit.name.lower()}")
            assert attrs.color not in ("000000", "ansiblack"), (four, suit, attrs)
            assert attrs.color != attrs.bgcolor or attrs.color in ("", None)
            assert attrs.bold
            colours[suit] = attrs.color
        assert colours[Suit.HEARTS] == "ansired"
        if four:
            assert len(set(colours.values())) == 4, colours
    assert DEFAULT_ATTRS.color == ""  # the default: the terminal's own foreground


def test_log_records_go_to_the_file_and_never_to_the_terminal(tmp_path, capfd):
    """A stall warning used to be printed on stderr through the full-screen app."""
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        path = log_to_file(tmp_path)
        logging.getLogger("p2p_rommy.log.peer").warning("stalled: seat 1 has not sent its move")
        for handler in root.handlers:
            handler.flush()
        captured = capfd.readouterr()
        assert captured.err == "" and captured.out == ""
        assert "stalled: seat 1" in path.read_text()
        assert path.stat().st_mode & 0o077 == 0
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
            handler.close()
        for handler in saved[0]:
            root.addHandler(handler)
        root.setLevel(saved[1])


def key_model(melds: int) -> tuple[ClientModel, list[tuple[str, object]]]:
    """A model with only what the number keys read (no session)."""
    calls: list[tuple[str, object]] = []
    model = ClientModel.__new__(ClientModel)
    model.meld_entry = None
    model.session = SimpleNamespace(
        view=SimpleNamespace(state=SimpleNamespace(melds=[None] * melds))
    )
    model.lay_off = lambda n: calls.append(("lay off", n))  # type: ignore[method-assign]
    model.swap = lambda n: calls.append(("swap", n))  # type: ignore[method-assign]
    model.select = lambda label: calls.append(("select", label))  # type: ignore[method-assign]
    return model, calls


def test_meld_numbers_of_any_size_are_typed():
    """Melds 11 and up could not be chosen (o/w took one digit)."""
    model, calls = key_model(melds=20)
    model.begin_meld_entry("o")
    model.digit("1")
    assert calls == []  # 1 or 10-19: wait
    model.digit("4")
    assert calls == [("lay off", 14)]  # no meld 140: done
    model.begin_meld_entry("w")
    model.digit("2")
    model.finish_meld_entry()  # Enter
    assert calls[-1] == ("swap", 2)
    model.digit("3")  # outside a meld number a digit is a card label
    assert calls[-1] == ("select", "3")
    small, calls = key_model(melds=4)
    small.begin_meld_entry("o")
    small.digit("3")
    assert calls == [("lay off", 3)]  # one digit is enough with fewer than ten melds
    assert len(set(LABELS)) == len(LABELS) >= 30  # a 30-card hand is fully selectable


def test_labels_stay_put_the_drawn_card_is_marked_and_the_status_gives_way():
    async def main() -> dict[str, object]:
        seen: dict[str, object] = {}
        async with app_at_local_table("rummy", ["normal"], {"target_score": "500"}, 1) as (
            model,
            keys,
            _,
        ):
            async with asyncio.timeout(120):
                # in this seat's turn, so that the next step waits for its draw (the deal
                # is over in a moment: a message shown during it could give way unseen)
                while not (model.table.my_turn and model.table.state.phase is Phase.DRAW):
                    await asyncio.sleep(0.05)
                keys.send_text("k")  # Rummy has no Køb!: a message from a key press...
                while "has no Køb!" not in model.status:
                    await asyncio.sleep(0.02)
                before = [slot for slot, _ in model.hand()]
                n = model.table.n
                keys.send_text("d")
                while model.table.n == n:
                    await asyncio.sleep(0.02)
                seen["status after the next step"] = model.status  # ...gives way
                while model.table.state.phase is not Phase.PLAY:
                    await asyncio.sleep(0.02)
                await asyncio.sleep(0.1)
                after = [slot for slot, _ in model.hand()]
                seen.update(before=before, after=after, fresh=set(model.fresh))
                seen["status after the draw"] = model.status
                seen["prompt"] = model.prompt()
                keys.send_text("s")  # sort on request: the new card takes its place
                await asyncio.sleep(0.1)
                seen["sorted"] = [slot for slot, _ in model.hand()]
                keys.send_text("c1x")
                while model.table.state.phase is Phase.PLAY:
                    await asyncio.sleep(0.02)
                await asyncio.sleep(0.1)
                seen["fresh after the discard"] = set(model.fresh)
        return seen

    seen = asyncio.run(main())
    before, after = seen["before"], seen["after"]
    assert after[: len(before)] == before  # every label kept its card
    assert len(after) == len(before) + 1 and seen["fresh"] == {after[-1]}  # new card last
    assert seen["status after the next step"] == ""
    assert seen["status after the draw"] == ""  # the key's message gave way...
    assert str(seen["prompt"]).startswith("Your turn: card keys")  # ...to what one can do
    assert sorted(seen["sorted"]) == sorted(after)
    assert seen["fresh after the discard"] == set()


def test_a_game_against_bots_keeps_its_transcript_and_verifies(tmp_path):
    """`rommy play` kept no transcript, so a game against bots could not be verified or
    replayed: the human's seat now keeps one like a network seat."""
    import random

    from p2p_rommy.bots import make_bot
    from p2p_rommy.frontends.local import local_table
    from p2p_rommy.verify import verify_transcript

    async def main():
        human, others = await local_table(
            "rummy", ["random"], {"target_score": "1"}, "Ann", 5, tmp_path
        )
        human.peer.player = make_bot("random", random.Random(5))  # the human, played by a bot
        await asyncio.wait_for(asyncio.gather(human.run(), *(s.run() for s in others)), 240)
        return human.store.transcript_path

    path = asyncio.run(main())
    assert path.parent.parent.parent == tmp_path and path.stat().st_mode & 0o077 == 0
    report = verify_transcript(path.read_bytes())
    assert report.status == "fair", report
