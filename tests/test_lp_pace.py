"""Client issue 30, item 3 (lp's pace): the drawer's stock card does not wait for the
Køb! window. Production peers on a logical clock (tests/test_buy_race.py's `Window`):
the deck gives the drawn card to its drawer before the window's result (SPEC §4.7: the
resolution comes once the deck has no work), and the cards keep the rules' order.

lp:24 "Når et kort smides, har næste spiller første ret til at tage det som sit træk.
Siger vedkommende nej, må alle andre råbe »Køb!« … Prisen er ét strafkort fra den lukkede
bunke"; RULES-DECISIONS Køb: "drawing from the stock is declining". So the decliner's
draw comes first — it is the top stock card — and a buyer's penalty card is the next one.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

from p2p_rommy.engine.moves import DrawStock
from p2p_rommy.engine.state import Phase
from p2p_rommy.log.buy_window import OpenWindow
from p2p_rommy.log.events import sends
from p2p_rommy.log.messages import MoveStep
from p2p_rommy.verify import verify_transcript
from tests.test_buy_race import Window, resolution, winner_everywhere
from tests.test_tui_family import H, S, card, crafted, table


def test_the_drawer_knows_its_stock_card_before_anyone_answers_koeb():
    w = Window()
    state = w.peers[w.turn].replica.state
    assert state.phase is Phase.BUY and w.peers[w.turn].replica.buy_window == w.window
    assert all(not p.buy_windows.answers(w.window) for p in w.peers)  # nobody answered
    drawn = state.hands[w.turn][-1]
    assert state.faces[drawn] is None  # a hidden card...
    assert w.peers[w.turn].replica.view().face(drawn) is not None  # ...its drawer knows
    for peer in w.peers:
        if peer.seat != w.turn:
            assert drawn not in peer.replica.view().private  # and nobody else
    assert state.stock[0] == drawn + 1  # the penalty card waits under it


def test_the_drawer_has_the_top_stock_card_and_a_buyer_the_next_as_penalty():
    w = Window()
    buyer = w.eligible[0]
    w.flood([(buyer, w.call(buyer))])
    for seat in w.eligible[1:]:
        w.flood([(seat, e) for e in sends(w.peers[seat].answer_buy(False, 0.0))])
    assert winner_everywhere(w) == buyer
    n_buy, _ = resolution(w.peers[0])
    steps: dict[int, tuple] = {}

    def seen(n, step, before, state, claims):
        steps[n] = (step, before, state)

    report = verify_transcript(w.transcript(), seen)
    assert report.culprit is None and report.what is None
    n_draw = w.window  # the window is named by the step that opened it: the draw
    step, before_draw, after_draw = steps[n_draw]
    assert isinstance(step.body, MoveStep) and isinstance(step.body.move, DrawStock)
    drawn = after_draw.hands[w.turn][-1]
    assert drawn == before_draw.stock[0]  # the drawer's card: the top of the stock
    step, before_buy, after_buy = steps[n_buy]
    offer, penalty = before_buy.discard[-1], before_buy.stock[0]
    assert penalty == before_draw.stock[1]  # the penalty card: the next one
    assert after_buy.hands[buyer][-2:] == (offer, penalty)
    # between them only the deck's shares of the drawn card, to its drawer (SPEC §3.3)
    assert {steps[n][0].kind for n in range(n_draw + 1, n_buy)} == {"deck"}


def test_the_drawers_screen_names_the_card_and_counts_the_window_down():
    """The drawer's status line while the others may buy: the card it drew and the
    window's time left on its own clock, falling (every screen shows the countdown)."""

    async def main() -> tuple[str, str, str]:
        async with table("lp", 4) as (model, put):
            now = [1000.0]
            model.session.clock = lambda: now[0]
            hand = [card(r, S) for r in range(1, 12)] + [card(9, H)]
            state = crafted(model.table.state, hand, phase=Phase.BUY, turn=0)
            offer = state.discard[-1]
            state = replace(state, offer=offer, discarder=3, buy_eligible=(1, 2))
            peer = model.session.peer
            peer.replica.window = OpenWindow(40, (1, 2), (1, 2))
            peer.buy_windows.opened(40, now[0])
            put(state)
            first = model.prompt()
            now[0] += 2.2
            later = model.prompt()
            model.select("1")
            model.discard()  # too early: the screen says why, not "not your turn"
            return first, later, model.status

    first, later, refused = asyncio.run(main())
    assert (
        refused
        == "the others may still buy the discard: meld or discard once the Køb! window closes"
    )
    assert re.fullmatch(r"You drew 9H; Køb \S+ from Bot 3; the Køb! window closes in 5 s", first)
    assert later.endswith("; the Køb! window closes in 3 s"), later
