"""The real full-screen client on a crowded table, for a layout test in a real terminal
(`tests/test_tui_tmux.py`): Løbere og Passere for five, 20 melds down and a 30-card hand
(a player who bought a lot), every face shown.

A deal cannot be steered into that position, so the seat's committed state is replaced
by a crafted one before the app starts; the sessions are real but never started, so
nothing else changes it. Only the layout is under test here; the whole round by keys is
played for real in the tmux test beside it.

    python -m tests.crowded_table
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from p2p_rommy.engine.state import GameState, Phase
from p2p_rommy.frontends.local import local_table
from p2p_rommy.rules.melds import Meld, MeldKind, Placed
from p2p_rommy.tui.app import build_app
from p2p_rommy.tui.model import ClientModel

MELDS = 20
HAND = 30


def card_id(copy: int, suit: int, rank: int) -> int:
    """SPEC §2's deck composition: per copy, suits S H D C, ranks A to K."""
    return copy * 52 + suit * 13 + rank - 1


def crowded(state: GameState) -> GameState:
    """20 sets of three (spades, hearts, diamonds of one rank) owned round the table, 30
    cards in seat 0's hand, one on the discard pile, two in each other hand; slot k holds
    card k, face up."""
    ranks = [(0, rank) for rank in range(1, 14)] + [(1, rank) for rank in range(1, 8)]
    melds = tuple(
        Meld(
            MeldKind.SET,
            number % state.players,
            tuple(Placed(card_id(c, s, r), card_id(c, s, r), r) for s in range(3)),
        )
        for number, (c, r) in enumerate(ranks[:MELDS])
    )
    on_table = {placed.slot for meld in melds for placed in meld.cards}
    size = state.rules.deck_size
    rest = [k for k in range(size) if k not in on_table]
    hand, rest = rest[:HAND], rest[HAND:]
    others = [tuple(rest[2 * i : 2 * i + 2]) for i in range(state.players - 1)]
    rest = rest[2 * (state.players - 1) :]
    return replace(
        state,
        phase=Phase.DRAW,
        turn=0,
        faces=tuple(range(size)),
        hands=(tuple(hand), *others),
        melds=melds,
        discard=(rest[0],),
        stock=tuple(rest[1:]),
        opened=(True,) * state.players,
        offer=None,
        discarder=None,
        buy_eligible=(),
    )


async def main() -> None:
    human, others = await local_table("lp", ["random"] * 4, {}, "Tester", 5)
    replica = human.peer.replica
    replica.state = crowded(replica.state)
    replica.deck = None  # no deck work pending: the crafted round is under way
    model = ClientModel(human, ascii_only=True)
    try:
        await build_app(model).run_async()
    finally:
        for session in [human, *others]:
            await session.close()


if __name__ == "__main__":
    asyncio.run(main())
