"""The one table of which move is allowed in which phase.

Turn flow (``docs/rules.md`` prints this table):

    ROUND_START --StartRound--> DRAW (PLAY for Rommé's dealer)
    DRAW --TakeDiscard--> PLAY
    DRAW --DrawStock--> PLAY, or BUY when a declined discard may be bought (lp)
    BUY --ResolveBuy--> PLAY
    PLAY --LayDown/LayOff/SwapJoker--> PLAY, or REVEAL when the hand is empty
    PLAY --Discard--> DRAW of the next seat, or REVEAL when it was the last card
    REVEAL --RevealHand (each seat with cards)--> ROUND_START or MATCH_OVER
"""

from __future__ import annotations

from p2p_rommy.engine.moves import (
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    ResolveBuy,
    RevealHand,
    StartRound,
    SwapJoker,
    TakeDiscard,
)
from p2p_rommy.engine.state import Phase
from p2p_rommy.i18n import N_

PHASE_MOVES: dict[Phase, tuple[type, ...]] = {
    Phase.ROUND_START: (StartRound,),
    Phase.DRAW: (DrawStock, TakeDiscard),
    Phase.BUY: (ResolveBuy,),
    Phase.PLAY: (LayDown, LayOff, SwapJoker, Discard),
    Phase.REVEAL: (RevealHand,),
    Phase.MATCH_OVER: (),
}

PHASE_HINTS: dict[Phase, str] = {
    Phase.ROUND_START: N_("the round is being dealt"),
    Phase.DRAW: N_("it is time to draw from the stock or take the discard"),
    Phase.BUY: N_("the buy window is open"),
    Phase.PLAY: N_("it is time to meld, lay off or discard"),
    Phase.REVEAL: N_("the round is over and hands are being shown"),
    Phase.MATCH_OVER: N_("the match is over"),
}

MOVE_NAMES: dict[type, str] = {
    StartRound: N_("dealing"),
    DrawStock: N_("drawing from the stock"),
    TakeDiscard: N_("taking the discard"),
    LayDown: N_("laying down"),
    LayOff: N_("laying off"),
    SwapJoker: N_("swapping a joker"),
    Discard: N_("discarding"),
    ResolveBuy: N_("resolving a buy"),
    RevealHand: N_("showing a hand"),
}
