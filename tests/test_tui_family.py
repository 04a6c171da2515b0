"""Issue 30, the full-screen client as a family meets it: the round and game summary
fits 80x24 and offers a new game, card labels are neither ranks nor commands and stay
with their cards, a refused opening keeps the staged melds, overlays fit small screens,
the log is readable on light and dark terminals, whose turn it is shows, and hints and
refusals name the rule.

The sessions are real but never started: the seat's committed state is replaced by a
crafted one (as `tests/crowded_table.py` does), so only the client is under test; the
keys go through the real app on a pipe where a key's binding matters."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import replace

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.utils import get_cwidth

from p2p_rommy.engine.state import GameState, Phase, RoundEnd
from p2p_rommy.frontends.local import local_table
from p2p_rommy.rules.melds import Meld, MeldKind, Placed
from p2p_rommy.tui import render
from p2p_rommy.tui.app import DARK, EITHER, LIGHT, bindings, build_app, style, theme
from p2p_rommy.tui.model import COMMAND_KEYS, LABEL_KEYS, LABELS, ClientModel

S, H, D, C = range(4)  # SPEC §2's suit order within a pack


def card(rank: int, suit: int, copy: int = 0) -> int:
    return copy * 52 + suit * 13 + rank - 1


JOKER = 104  # the first joker of a 108-card deck


def crafted(
    state: GameState,
    hand: list[int],
    *,
    phase: Phase = Phase.PLAY,
    turn: int = 0,
    melds: tuple[Meld, ...] = (),
    others: int = 3,
) -> GameState:
    """Seat 0 holds `hand`, the others `others` cards each; slot k holds card k, face up
    (cards not in a hand or meld make up the stock and one discard)."""
    size = state.rules.deck_size
    on_table = {p.slot for meld in melds for p in meld.cards}
    rest = [k for k in range(size) if k not in on_table and k not in hand]
    hands = [tuple(hand)]
    for _ in range(state.players - 1):
        hands.append(tuple(rest[:others]))
        rest = rest[others:]
    return replace(
        state,
        phase=phase,
        turn=turn,
        faces=tuple(range(size)),
        hands=tuple(hands),
        melds=melds,
        discard=(rest[0],),
        stock=tuple(rest[1:]),
        offer=None,
        discarder=None,
        buy_eligible=(),
    )


@contextlib.asynccontextmanager
async def table(
    variant: str, players: int, house: dict[str, str] | None = None
) -> AsyncIterator[tuple[ClientModel, Callable[[GameState], None]]]:
    """A model on a real, never started seat; yields it and `put(state)`, which makes
    `state` the seat's committed state and publishes it."""
    human, others = await local_table(variant, ["random"] * (players - 1), house or {}, "Ann", 5)
    model = ClientModel(human, ascii_only=True)

    def put(state: GameState) -> None:
        human.peer.replica.state = state
        human.peer.replica.deck = None  # no deck work pending: the crafted round is under way
        human._publish(())

    try:
        yield model, put
    finally:
        for session in [human, *others]:
            await session.close()


def text(fragments) -> str:
    return "".join(fragment[1] for fragment in fragments)


# --- 4. keys and labels --------------------------------------------------------------


def test_card_labels_are_not_ranks_and_not_command_keys():
    """`a` to pick card A turned on auto-pass; labels A/J/Q/K read as ranks ("A:4C")."""
    assert len(set(LABELS)) == len(LABELS) >= 34  # a 34-card hand is fully selectable
    assert not set("AJQK") & set(LABEL_KEYS)
    assert not set(LABEL_KEYS.lower()) & set(COMMAND_KEYS)
    assert LABELS[:10] == tuple("1234567890")

    async def main() -> set[str]:
        async with table("rummy", 2) as (model, _):
            kb = bindings(model)
            modal = {"_yes", "_no", "_new_game", "_select", "_second_row", "_unknown", "_digit"}
            commands = set()
            for binding in kb.bindings:
                key = binding.keys[0]
                name = binding.handler.__name__
                if isinstance(key, str) and len(key) == 1 and key.isalpha() and name not in modal:
                    commands.add(key.lower())
            return commands

    commands = asyncio.run(main())
    assert commands and commands <= set(COMMAND_KEYS), commands - set(COMMAND_KEYS)
    assert not commands & set(LABEL_KEYS.lower())


def test_labels_stay_with_their_cards_for_the_round_until_the_player_sorts():
    """After a meld the letters shifted, and the hand was re-sorted at the next draw
    (a drawn card whose face was still in flight): every card changed letter each turn."""

    async def main() -> None:
        async with table("rummy", 2) as (model, put):
            hand = [card(r, s) for r, s in ((5, C), (5, D), (5, H), (9, S), (2, H), (13, D))]
            state = crafted(model.table.state, hand)
            put(state)
            first = {slot: model.label(slot) for slot, _ in model.hand()}
            assert sorted(first.values()) == sorted(LABELS[:6])
            # a meld leaves with three cards, then a draw whose face is not known yet
            melded = hand[:3]
            drawn = state.stock[0]
            faces = list(state.faces)
            faces[drawn] = None
            put(replace(state, hands=((*hand[3:], drawn), *state.hands[1:]), faces=tuple(faces)))
            kept = {slot: model.label(slot) for slot, _ in model.hand()}
            assert kept == {slot: first[slot] for slot in hand[3:]}  # nothing re-sorted
            faces[drawn] = drawn  # the drawn card's face arrives: it takes the first free label
            put(replace(state, hands=((*hand[3:], drawn), *state.hands[1:]), faces=tuple(faces)))
            free = [label for label in LABELS if label not in kept.values()]
            model.hand()
            assert model.label(drawn) == free[0]
            assert {s: model.label(s) for s in hand[3:]} == kept
            assert [slot for slot, _ in model.hand()][-1] == drawn  # shown last, marked new
            model.toggle_sort()  # sorting hands out labels in the new order
            order = [slot for slot, _ in model.hand()]
            assert [model.label(slot) for slot in order] == list(LABELS[: len(order)])
            assert melded[0] not in model.labels

    asyncio.run(main())


def test_label_keys_in_either_case_select_and_other_keys_say_so_in_the_real_app():
    async def main() -> tuple[set[int], bool, str, set[int]]:
        async with table("lp", 3) as (model, put):
            hand = [card(r, s) for r, s in ((3, C), (4, C), (5, C), (9, S))]
            hand += [card(r, H, 1) for r in range(1, 14)] + [card(r, D, 1) for r in range(1, 8)]
            put(crafted(model.table.state, hand))  # 24 cards: labels up to Z6
            labels = {model.label(slot): slot for slot, _ in model.hand()}
            with create_pipe_input() as keys:
                app = build_app(model, input=keys, output=DummyOutput())
                running = asyncio.create_task(app.run_async())
                await asyncio.sleep(0.3)
                keys.send_text("b1Gz")  # B, 1, G (either case), then Z: a second-row label
                await asyncio.sleep(0.3)
                assert model.status_text().startswith("Z_")
                keys.send_text("6")
                await asyncio.sleep(0.3)
                chosen = set(model.selected)
                keys.send_text("a")  # a is a command (auto-pass), never a card
                await asyncio.sleep(0.2)
                auto = model.auto_pass
                keys.send_text("%")
                await asyncio.sleep(0.2)
                said = model.status
                keys.send_text("qy")
                await asyncio.wait_for(running, 10)
            return chosen, auto, said, {labels[k] for k in ("B", "1", "G", "Z6")}

    chosen, auto, said, wanted = asyncio.run(main())
    assert chosen == wanted
    assert auto  # the a key did what the help says, and selected nothing
    assert "% does nothing" in said


# --- 5. a refused opening keeps the staged melds -----------------------------------


def test_a_refused_opening_keeps_the_staged_melds_and_says_how_far_they_go():
    """The staged melds were thrown away by a refused Enter, and the reason was cut at
    80 columns ("...denne er 30 vær")."""

    async def main() -> tuple[str, int, list[str], str]:
        async with table("romme", 2) as (model, put):
            hand = [card(5, C), card(5, D), card(5, H), card(9, S), card(2, H), card(13, D)]
            hand += [card(r, S, 1) for r in (3, 4, 5)] + [card(r, C, 1) for r in (7, 8, 9, 11)]
            put(replace(crafted(model.table.state, hand), dealer=0, turn=0))
            model.hand()
            model.selected = {hand[0], hand[1], hand[2]}
            model.stage()
            shown = text(render.hand(model))
            model.lay_down()  # 15 points: refused by the rules, the melds stay staged
            lines = render.status_lines(model, 80)
            return shown, len(model.staged), lines, model.status_text()

    shown, count, lines, status = asyncio.run(main())
    assert re.search(r"staged \(15 of 40 points\): 5[CDH] 5[CDH] 5[CDH]$", shown), shown
    assert count == 1
    assert "at least 40 points" in status and status.endswith("this one is worth 15")
    assert " ".join(line.strip() for line in lines) == status  # wrapped, never cut
    assert all(len(line) <= 80 for line in lines)


def test_lp_progress_counts_the_contract():
    async def main() -> str:
        async with table("lp", 3) as (model, put):
            hand = [card(5, C), card(5, D), card(5, H), card(9, S), card(9, H), card(2, D)]
            put(crafted(model.table.state, hand))
            model.selected = set(hand[:3])
            model.stage()
            return model.prompt()

    prompt = asyncio.run(main())
    assert "1 of 2 passere" in prompt, prompt


# --- 2. the summary ------------------------------------------------------------------


def ended_game(state: GameState, rounds: int) -> GameState:
    rows = tuple(tuple((r * 7 + s * 13) % 60 for s in range(state.players)) for r in range(rounds))
    totals = tuple(sum(row[s] for row in rows) for s in range(state.players))
    return replace(
        state,
        phase=Phase.MATCH_OVER,
        round_scores=rows,
        scores=totals,
        round_end=RoundEnd.WENT_OUT,
        closer=1,
    )


def test_the_game_summary_fits_80x24_and_scrolls_to_every_row():
    async def main() -> tuple[list[str], list[str], ClientModel]:
        async with table("lp", 5) as (model, put):
            state = ended_game(model.table.state, 7)
            put(state)
            model.round_ends = [(RoundEnd.WENT_OUT, r % 5) for r in range(6)]
            model.round_ends.append((RoundEnd.WENT_OUT, 1))
            model.new_game_offered = True
            whole = [line for _, line in render.summary_lines(model, 80)]
            pages = []
            for _ in range(6):
                pages.append(text(render.summary(model, 80, 23)))
                model.summary_scroll += 5
            model.summary_scroll = 0
            small = text(render.summary(model, 60, 19)).split("\n")
            assert len(small) <= 19 and all(get_cwidth(line) <= 60 for line in small), small
            return whole, pages, model

    whole, pages, model = asyncio.run(main())
    state = model.table.state
    for page in pages:
        lines = page.split("\n")
        assert len(lines) <= 23 and all(get_cwidth(line) <= 80 for line in lines), page
        assert "n: new game at this table" in lines[-1] and "q: quit" in lines[-1]
    seen = "\n".join(pages)
    assert "The game is over" in seen and "Round 7 is over: Bot 1 went out" in seen
    for number in range(1, 8):
        assert re.search(rf"^\s+{number}\s+\d", seen, re.M), number  # every round's row
    assert "Total" in seen and "1. " in seen and "5. " in seen  # totals and places
    assert re.search(r"^Round .*went out$", seen, re.M)  # who went out, round by round
    assert re.search(r"^\s+3\s.*Bot 2$", seen, re.M) and re.search(r"^\s+7\s.*Bot 1$", seen, re.M)
    best = min(range(5), key=lambda s: (state.scores[s], s))
    assert any("wins with" in line or "You win" in line for line in whole)
    assert f"with {state.scores[best]} points" in seen


def test_n_on_the_final_summary_asks_for_a_new_game_in_the_real_app():
    async def main() -> tuple[bool, bool]:
        async with table("rummy", 2) as (model, put):
            model.new_game_offered = True  # as `rommy play` does
            put(ended_game(model.table.state, 2))
            model.round_ends = [(RoundEnd.STOCK_EXHAUSTED, None), (RoundEnd.WENT_OUT, 0)]
            with create_pipe_input() as keys:
                app = build_app(model, input=keys, output=DummyOutput())
                running = asyncio.create_task(app.run_async())
                await asyncio.sleep(0.3)
                shown = model.summary_shown()
                keys.send_text("n")
                await asyncio.wait_for(running, 10)
            return shown, model.new_game

    shown, new_game = asyncio.run(main())
    assert shown and new_game


def test_a_forfeit_shows_on_the_summary():
    async def main() -> str:
        async with table("rummy", 3) as (model, put):
            put(replace(ended_game(model.table.state, 1), phase=Phase.DRAW))
            model.session.view = replace(
                model.session.view, ended=((2,), "left"), forfeited=(2,), abandoned=False
            )
            footer = text(render.summary(model, 80, 23)).splitlines()[-1]
            assert not model.ask_new_game() and not model.new_game  # not wired at a network table
            return "\n".join(line for _, line in render.summary_lines(model, 80)) + "\n" + footer

    shown = asyncio.run(main())
    assert shown.splitlines()[-1].strip() == "q: quit"
    assert "ended without Bot 2" in shown and "3. Bot 2" in shown and "forfeited" in shown


# --- 6. small windows ---------------------------------------------------------------


def test_overlays_wrap_and_page_down_to_60x20_and_the_header_fits():
    async def main() -> tuple[list[list[str]], str, str]:
        async with table("lp", 5) as (model, put):
            put(crafted(model.table.state, [card(r, S) for r in range(1, 12)]))
            pages = []
            scroll = 0
            for _ in range(8):
                lines, scroll = render.page(render.help_text(model).split("\n"), 56, 16, scroll)
                pages.append(lines)
                scroll += 5
            return pages, text(render.header(model, 80)), text(render.header(model, 60))

    pages, wide, narrow = asyncio.run(main())
    assert all(len(page) <= 16 and all(get_cwidth(x) <= 56 for x in page) for page in pages)
    assert "PgUp/PgDn" in pages[0][-1]
    assert any("quit" in line for page in pages for line in page)  # the end is reachable
    assert any("c        clear" in line for page in pages for line in page)  # columns kept
    assert get_cwidth(wide) == 80 and get_cwidth(narrow) == 60
    assert "round 1/7" in narrow and "stock" in wide


# --- 7. light and dark terminals --------------------------------------------------------


def luminance(colour: str) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two #rrggbb colours."""
    high, low = sorted((luminance(a.lstrip("#")), luminance(b.lstrip("#"))), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_log_is_readable_on_light_and_dark_terminals():
    """The log and hints were `ansigray`: near invisible on white."""
    for name, palette in (("dark", DARK), ("light", LIGHT)):
        for part in ("log", "dim", "label"):
            colour = style(palette=name).get_attrs_for_style_str(f"class:{part}").color
            assert colour and contrast(colour, palette["background"]) >= 4.5, (name, part)
    for background in ("#000000", "#ffffff"):  # the terminal did not say: readable on both
        dim = style(palette="auto").get_attrs_for_style_str("class:dim").color
        assert contrast(dim, background) >= 4.5
    assert EITHER["log"] == ""  # the terminal's own foreground
    assert theme({"COLORFGBG": "0;15"}) == "light" and theme({"COLORFGBG": "15;0"}) == "dark"
    assert theme({"ROMMY_THEME": "light", "COLORFGBG": "15;0"}) == "light"
    assert theme({}) == "auto"


def test_the_theme_flag_chooses_the_palette_over_the_environment(monkeypatch):
    """Issue 30: `--theme light|dark` besides ROMMY_THEME and COLORFGBG; the flag wins,
    and the lobby's screen (built later) follows it too."""
    from p2p_rommy import cli
    from p2p_rommy.tui.app import screen_style, use_theme

    monkeypatch.setenv("ROMMY_THEME", "dark")
    monkeypatch.setenv("COLORFGBG", "15;0")
    parser = cli.build_parser()
    for command in (["play"], ["host", "T"], ["join"], ["resume"]):
        args = parser.parse_args([*command, "--theme", "light"])
        try:
            cli._use_theme(args)
            assert theme() == "light", command
            log = screen_style().get_attrs_for_style_str("class:log").color
            assert contrast(log, LIGHT["background"]) >= 4.5
        finally:
            use_theme(None)
        assert theme() == "dark"  # without the flag: the environment's
    assert parser.parse_args(["play"]).theme is None
    with contextlib.suppress(SystemExit):
        parser.parse_args(["play", "--theme", "pink"])
        raise AssertionError("an unknown theme was taken")


# --- 8. whose turn -------------------------------------------------------------------


def test_whose_turn_shows_against_bots_and_the_own_seat_is_listed():
    async def main() -> tuple[str, str]:
        async with table("rummy", 3) as (model, put):
            put(crafted(model.table.state, [card(r, S) for r in range(1, 11)], turn=2))
            return text(render.opponents(model)), model.prompt()

    players, _ = asyncio.run(main())
    lines = players.splitlines()
    assert len(lines) == 3 and "Ann (you)" in lines[0]
    assert lines[2].startswith("▶ Bot 2") and not lines[0].startswith("▶")
    assert "opened" not in players  # Rummy has no opening


def test_the_romme_dealer_is_told_to_discard_and_an_error_gives_way_to_the_prompt():
    async def main() -> tuple[str, str, str]:
        async with table("romme", 2) as (model, put):
            state = model.table.state
            hand = [card(r, S) for r in range(1, 14)] + [card(2, H)]
            put(replace(crafted(state, hand), dealer=0, turn=0))
            now = [1000.0]
            model.session.clock = lambda: now[0]
            model.status = "that is not allowed"
            during = model.status_text()
            now[0] += 30
            return model.prompt(), during, model.status_text()

    prompt, during, after = asyncio.run(main())
    assert prompt.startswith("Your turn: discard a card") and "14 cards" in prompt
    assert during == "that is not allowed" and after == prompt


# --- 10. hints and refusals -------------------------------------------------------------


def test_hints_offer_the_whole_set_and_never_one_joker_twice():
    async def main() -> tuple[list[str], list[str], str]:
        async with table("rummy", 2) as (model, put):
            hand = [card(5, s) for s in (C, D, H, S)] + [card(r, H) for r in (9, 10, 11)]
            hand += [card(2, C), card(13, D)]
            put(crafted(model.table.state, hand))
            rummy = model.hints()
        async with table("lp", 3) as (model, put):
            hand = [card(7, C), card(7, D), JOKER, card(9, S), card(9, H), card(9, C)]
            hand += [card(r, D, 1) for r in (2, 3)] + [card(12, H)]
            put(crafted(model.table.state, hand))
            lp = model.hints()
            model.show_hints = True
            shown = text(render.hand(model, 40))
        return rummy, lp, shown

    rummy, lp, shown = asyncio.run(main())
    assert sorted(rummy[0].split()) == sorted(["5C", "5D", "5H", "5S"])  # the obvious set first
    assert lp[0].startswith("to open: ") and lp[0].count("|") == 1  # the round's 2 passere
    assert " ".join(lp).count("JK") <= 1  # one joker is offered once
    cards = re.compile(r"^(10|[2-9AJQK])[SHDC]$|^JK$")
    hint_lines = shown.split("you could meld:")[1].splitlines()
    assert all(get_cwidth(line) <= 40 for line in hint_lines)
    for line in hint_lines:  # no card is cut in two at the edge
        for token in line.replace(";", " ").replace("|", " ").split():
            if token[0].isdigit() or (token[:1] in "AJQK" and len(token) <= 3):
                assert cards.match(token), (token, hint_lines)


def test_refusals_name_the_rule():
    async def main() -> tuple[str, str, str, str]:
        async with table("lp", 3) as (model, put):
            hand = [card(2, D), card(2, D, 1), card(2, C), card(9, S)]
            put(crafted(model.table.state, hand))
            model.selected = set(hand[:3])
            model.stage()
            passer = model.status
        async with table("romme", 2) as (model, put):
            meld = Meld(MeldKind.SET, 1, tuple(Placed(c, c, 8) for c in (card(8, S), JOKER)))
            meld = replace(meld, cards=(*meld.cards, Placed(card(8, H), card(8, H), 8)))
            hand = [card(8, D), card(3, C), card(4, C)]
            state = crafted(model.table.state, hand, melds=(meld,))
            put(replace(state, opened=(True, True)))
            model.selected = {hand[0]}
            model.swap(1)
            swap = model.status
        async with table("rummy", 2) as (model, put):
            put(crafted(model.table.state, [card(r, S) for r in range(1, 11)]))
            helped, prompt = render.help_text(model), model.prompt()
            model.buy(True)
            buy = model.status
        return passer, swap, helped, prompt + buy

    passer, swap, helped, prompt = asyncio.run(main())
    assert prompt.endswith("Rummy has no Køb!"), prompt
    assert "passer needs different suits" in passer, passer
    assert "house rule 'joker swaps' is off" in swap, swap
    keys = helped.split("Rummy (rummy)")[0]  # the keys; then the game's rules follow
    assert "Køb" not in keys and "w N" not in keys and "opening" not in keys
    assert "Gruppe: 3-4 of a rank" in helped and "--house" not in helped  # the rules, in the app
    assert "w+N" not in prompt and "swap" not in prompt
