"""The random-legal player: the baseline bot and the engine's property-test driver.

It picks uniformly among legal moves of one kind, with a bias toward melding so
matches end in a sensible number of turns; it claims a buy now and then.
"""

from __future__ import annotations

import random

from p2p_rommy.engine.legal import legal_moves
from p2p_rommy.engine.moves import Discard, DrawStock, LayDown, LayOff, Move, SwapJoker, TakeDiscard
from p2p_rommy.engine.view import View


class RandomPlayer:
    """Chooses a random legal move; all randomness comes from the `rng` it is given."""

    def __init__(self, rng: random.Random, meld_bias: float = 0.85, buy_rate: float = 0.2) -> None:
        self.rng = rng
        self.meld_bias = meld_bias
        self.buy_rate = buy_rate

    def choose(self, view: View) -> Move:
        moves = legal_moves(view)
        if not moves:
            raise ValueError(f"seat {view.seat} has nothing to do now")
        table_plays = [m for m in moves if isinstance(m, LayDown | LayOff | SwapJoker)]
        if table_plays and self.rng.random() < self.meld_bias:
            return self.rng.choice(table_plays)
        draws = [m for m in moves if isinstance(m, DrawStock | TakeDiscard)]
        if draws:
            return self.rng.choice(draws)
        discards = [m for m in moves if isinstance(m, Discard)]
        return self.rng.choice(discards or moves)

    def wants_buy(self, view: View) -> bool:
        """Whether to call "Køb!" on the offered discard."""
        return self.rng.random() < self.buy_rate
