"""The engine run with every face known: for simulation, tests and the verifier.

`OpenTable` pairs the public state with the *truth* (slot -> card id) that the
deck protocol would otherwise keep spread over the peers. Chance enters from
outside: the deal order and each reshuffle arrive as arguments, so a seeded
caller replays the same match. The engine itself never sees the truth; it gets
moves carrying faces, exactly as on the network.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2p_rommy.engine.apply import apply, upcard_slot
from p2p_rommy.engine.moves import Move, RevealHand, StartRound
from p2p_rommy.engine.state import GameState, Phase
from p2p_rommy.engine.view import View, private_faces

Reshuffle = Callable[[Sequence[int]], Sequence[int]]
"""Chance for a rebuilt stock: given the recycled card ids, their new order."""


@dataclass(frozen=True, slots=True)
class OpenTable:
    """A public state and the true face of every slot."""

    state: GameState
    truth: tuple[int, ...] = ()

    def start_round(self, order: Sequence[int]) -> OpenTable:
        """Deal from a shuffled deck: `order[k]` is the card id at slot ``k``."""
        rules = self.state.rules
        if sorted(order) != list(range(rules.deck_size)):
            raise ValueError(f"a deal needs each of the {rules.deck_size} cards exactly once")
        upcard = order[upcard_slot(rules, self.state.players)]
        return OpenTable(apply(self.state, StartRound(upcard)), tuple(order))

    def play(self, move: Move, reshuffle: Reshuffle | None = None) -> OpenTable:
        """Apply `move`; new slots from a shuffled rebuild get faces from `reshuffle`."""
        after = apply(self.state, move)
        truth = self.truth
        added = len(after.faces) - len(truth)
        if added > 0 and after.round_index == self.state.round_index:
            recycled = [truth[slot] for slot in after.retired[-added:]]
            if reshuffle is None:
                raise ValueError("this move rebuilt the stock: pass a reshuffle")
            order = list(reshuffle(recycled))
            if sorted(order) != sorted(recycled):
                raise ValueError("a reshuffle must return the recycled cards")
            truth = truth + tuple(order)
        return OpenTable(after, truth)

    def view(self, seat: int) -> View:
        """What `seat` knows: the public state and its own hand."""
        return View(self.state, seat, private_faces(self.state, seat, self.truth))

    def reveal(self, seat: int) -> RevealHand:
        """Seat `seat`'s true hand shown at round end."""
        return RevealHand(seat, tuple((slot, self.truth[slot]) for slot in self.state.hands[seat]))

    def pending_reveals(self) -> list[RevealHand]:
        if self.state.phase is not Phase.REVEAL:
            return []
        return [self.reveal(seat) for seat in self.state.pending_reveals()]
