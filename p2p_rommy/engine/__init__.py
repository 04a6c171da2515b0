"""The rules state machine over card slots: apply, legal moves, views, scoring."""

from p2p_rommy.engine.apply import apply, new_game
from p2p_rommy.engine.encoding import encode_state, state_hash
from p2p_rommy.engine.legal import legal_moves
from p2p_rommy.engine.moves import (
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Move,
    NewMeld,
    ResolveBuy,
    RevealHand,
    StartRound,
    SwapJoker,
    TakeDiscard,
)
from p2p_rommy.engine.state import GameState, Phase, RoundEnd
from p2p_rommy.engine.view import View

__all__ = [
    "Discard",
    "DrawStock",
    "GameState",
    "LayDown",
    "LayOff",
    "Move",
    "NewMeld",
    "Phase",
    "ResolveBuy",
    "RevealHand",
    "RoundEnd",
    "StartRound",
    "SwapJoker",
    "TakeDiscard",
    "View",
    "apply",
    "encode_state",
    "legal_moves",
    "new_game",
    "state_hash",
]
