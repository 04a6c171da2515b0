"""The reference player: the heuristic bot as it stood before issue #29, FROZEN.

Do not change how this module plays. It is the fixed yardstick that
``rommy bench --only bots`` seats every level against, so that win shares mean the
same from one release to the next (a better `HeuristicBot` shows as a higher share
against it, not as a moved goalpost). Only renames forced by the engine's API may
touch it, and they must not change a single decision. It plays at its old
``normal`` level (``make_bot("reference", rng)``).

How it plays: take the discard when it lowers the points left after the best
lay-down; open as soon as it can; keep cards in melds and near-melds; throw high
loose cards; buy a card that joins two cards of its hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from p2p_rommy.cards import ACE, ACE_HIGH, DeckComposition, composition
from p2p_rommy.engine.legal import legal_moves
from p2p_rommy.engine.moves import (
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Move,
    NewMeld,
    SwapJoker,
    TakeDiscard,
)
from p2p_rommy.engine.state import GameState, Phase
from p2p_rommy.engine.view import View
from p2p_rommy.rules.finder import Candidate, best_laydown, candidate_melds, find_opening
from p2p_rommy.rules.melds import Meld, MeldKind, joker_targets

LEVELS = ("easy", "normal", "hard")


IDLE_TAKES_MAX = 3


class ReferenceBot:
    def __init__(self, level: str = "normal", rng: random.Random | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"bot levels are {', '.join(LEVELS)}")
        self.level = level
        self.rng = rng or random.Random(0)
        self.taken_by_next: list[int] = []
        """Card ids the next player took from the discard pile (hard)."""
        self._last_discard: tuple[int, int | None] | None = None
        self._idle_takes = 0
        """Discards taken in a row without melding since: bots that only ever take the
        discard and throw another back can pass cards round the table for ever (seen in
        lp's last round, where no contract is met), so after `IDLE_TAKES_MAX` it draws."""

    # --- the two questions a player answers ---------------------------------------

    def choose(self, view: View) -> Move:
        self._remember(view)
        moves = legal_moves(view)
        if not moves:
            raise ValueError(f"seat {view.seat} has nothing to do now")
        if view.state.phase is Phase.DRAW:
            move = self._draw(view, moves)
            if isinstance(move, TakeDiscard) and self._idle_takes >= IDLE_TAKES_MAX:
                move = next(m for m in moves if isinstance(m, DrawStock))
            self._idle_takes = self._idle_takes + 1 if isinstance(move, TakeDiscard) else 0
            return move
        move = self._play(view, moves)
        if isinstance(move, LayDown | LayOff | SwapJoker):
            self._idle_takes = 0
        return move

    def wants_buy(self, view: View) -> bool:
        state = view.state
        if state.offer is None or self.level == "easy":
            return False
        card = state.faces[state.offer]
        if card is None:
            return False
        hand = [c for _, c in view.hand()]
        if len(hand) > 13:
            return False
        deck = composition(state.rules.deck_size)
        return _joins(card, hand, deck) >= 2 or deck.card(card).is_joker

    # --- drawing ----------------------------------------------------------------

    def _draw(self, view: View, moves: Sequence[Move]) -> Move:
        state = view.state
        take = next((m for m in moves if isinstance(m, TakeDiscard)), None)
        draw = next(m for m in moves if isinstance(m, DrawStock))
        top = state.top_discard()
        card = None if top is None else state.faces[top]
        if take is None or card is None:
            return draw
        deck = composition(state.rules.deck_size)
        hand = view.hand()
        if deck.card(card).is_joker:
            return take
        before = _deadwood(hand, deck, state)
        after = _deadwood([*hand, (-1, card)], deck, state)
        gain = before + state.rules.points(deck.card(card).rank) - after
        if gain > 0 and self.level != "easy":
            return take
        if state.opened[view.seat] and any(_fits(card, meld, deck, state) for meld in state.melds):
            return take
        return draw

    # --- melding and discarding -------------------------------------------------

    def _play(self, view: View, moves: Sequence[Move]) -> Move:
        state = view.state
        deck = composition(state.rules.deck_size)
        hand = view.hand()
        lay_downs = [m for m in moves if isinstance(m, LayDown)]
        if lay_downs:
            choice = self._best_lay_down(view, hand, deck, lay_downs)
            if choice is not None:
                return choice
        if self.level != "easy":
            swap = self._useful_swap(view, moves, deck)
            if swap is not None:
                return swap
        lay_offs = [m for m in moves if isinstance(m, LayOff)]
        if lay_offs:
            natural = [m for m in lay_offs if not deck.card(m.card.card).is_joker]
            if natural:
                return max(natural, key=lambda m: state.rules.points(deck.card(m.card.card).rank))
            if len(hand) <= 2 or self.level == "easy":
                return lay_offs[0]
        discards = [m for m in moves if isinstance(m, Discard)]
        if not discards:
            return moves[0]
        if self.level == "easy":
            return max(discards, key=lambda m: self._easy_value(m, deck, state))
        keep = {m: self._keep_value(m.slot, m.card, hand, deck, view) for m in discards}
        if self.level == "hard":
            for move in discards:
                rest = [(s, c) for s, c in hand if s != move.slot]
                keep[move] += 2 * _deadwood(rest, deck, state)
        return min(discards, key=keep.__getitem__)

    def _best_lay_down(
        self, view: View, hand: list[tuple[int, int]], deck: DeckComposition, offered: list[LayDown]
    ) -> LayDown | None:
        state = view.state
        rules = state.rules
        candidates = candidate_melds(hand, deck, rules)
        seat = view.seat
        if not state.opened[seat] and rules.opening != "none":
            openings = find_opening(candidates, deck, rules, state.round_index, limit=40)
            if not openings:
                return offered[0]
            points = {slot: rules.points(deck.card(card).rank) for slot, card in hand}

            def left_after(opening: Sequence[Candidate]) -> int:
                used = set().union(*(c.slots for c in opening))
                rest = [(s, c) for s, c in hand if s not in used]
                return sum(points[s] for s, _ in rest)

            best = min(openings, key=left_after)
            move = _lay(seat, best)
            return move if move in offered or _legal(view, move) else offered[0]
        choice, _ = best_laydown(candidates, hand, deck, rules)
        for candidate in choice:
            move = _lay(seat, (candidate,))
            if move in offered or _legal(view, move):
                return move
        return None

    def _useful_swap(self, view: View, moves: Sequence[Move], deck: DeckComposition) -> Move | None:
        swaps = [m for m in moves if isinstance(m, SwapJoker)]
        if not swaps:
            return None
        hand = view.hand()
        before = len(candidate_melds(hand, deck, view.state.rules))
        for swap in swaps:
            joker = next(p for p in view.state.melds[swap.meld].cards if p.slot == swap.joker_slot)
            after_hand = [(s, c) for s, c in hand if s != swap.card.slot] + [
                (joker.slot, joker.card)
            ]
            if len(candidate_melds(after_hand, deck, view.state.rules)) > before:
                return swap
        return None

    @staticmethod
    def _easy_value(move: Discard, deck: DeckComposition, state: GameState) -> int:
        card = deck.card(move.card)
        return -1000 if card.is_joker else state.rules.points(card.rank)

    def _keep_value(
        self,
        slot: int,
        card_id: int,
        hand: list[tuple[int, int]],
        deck: DeckComposition,
        view: View,
    ) -> float:
        """How much the hand wants to keep this card (the lowest is discarded)."""
        state = view.state
        card = deck.card(card_id)
        if card.is_joker:
            return 1000.0
        rules = state.rules
        others = [c for s, c in hand if s != slot]
        value = 0.0
        in_meld = any(slot in c.slots for c in candidate_melds(hand, deck, rules))
        if in_meld:
            value += 200
        value += 25 * _joins(card_id, others, deck)
        value -= rules.points(card.rank)
        nxt = state.next_seat(view.seat)
        if state.opened[nxt] and any(_fits(card_id, meld, deck, state) for meld in state.melds):
            value += 40  # would let the next player build
        if self.level != "easy":
            for taken in self.taken_by_next:
                other = deck.card(taken)
                if not other.is_joker and (
                    other.rank == card.rank
                    or (other.suit == card.suit and abs(other.rank - card.rank) <= 2)
                ):
                    value += 15
        return value + self.rng.random() * 0.01

    def _remember(self, view: View) -> None:
        """Note what the player after this seat took from the discard pile."""
        state = view.state
        if self.level == "easy" or state.phase is Phase.ROUND_START:
            return
        nxt = state.next_seat(view.seat)
        if self._last_discard is not None:
            slot, card = self._last_discard
            if slot in state.hands[nxt] and card is not None:
                self.taken_by_next.append(card)
                self.taken_by_next = self.taken_by_next[-12:]
        top = state.top_discard()
        self._last_discard = (top, state.faces[top]) if top is not None else None


def _lay(seat: int, melds: Sequence[Candidate]) -> LayDown:
    return LayDown(seat, tuple(NewMeld(c.kind, c.cards) for c in melds))


def _legal(view: View, move: Move) -> bool:
    from p2p_rommy.engine.apply import apply
    from p2p_rommy.errors import IllegalMove

    try:
        apply(view.state, move)
    except IllegalMove:
        return False
    return True


def _deadwood(hand: list[tuple[int, int]], deck: DeckComposition, state: GameState) -> int:
    candidates = candidate_melds(hand, deck, state.rules)
    _, left = best_laydown(candidates, hand, deck, state.rules, budget=400)
    return left


def _ranks(card_rank: int) -> tuple[int, ...]:
    return (ACE, ACE_HIGH) if card_rank == ACE else (card_rank,)


def _joins(card_id: int, hand: Sequence[int], deck: DeckComposition) -> int:
    """How many cards of `hand` this card would sit next to in a set or a run."""
    card = deck.card(card_id)
    if card.is_joker:
        return 3
    count = 0
    for other_id in hand:
        other = deck.card(other_id)
        same_rank = other.rank == card.rank and other.suit != card.suit
        near = other.suit == card.suit and any(
            1 <= abs(a - b) <= 2 for a in _ranks(card.rank) for b in _ranks(other.rank)
        )
        if other.is_joker or same_rank or near:
            count += 1
    return count


def _fits(card_id: int, meld: Meld, deck: DeckComposition, state: GameState) -> bool:
    card = deck.card(card_id)
    if card.is_joker:
        return bool(joker_targets(meld, deck, state.rules))
    if meld.kind is MeldKind.SET:
        naturals = [deck.card(p.card) for p in meld.cards if not deck.card(p.card).is_joker]
        return (
            len(meld.cards) < state.rules.set_max
            and naturals[0].rank == card.rank
            and card.suit not in {n.suit for n in naturals}
        )
    suit = next(deck.card(p.card).suit for p in meld.cards if not deck.card(p.card).is_joker)
    return card.suit == suit and any(
        r in joker_targets(meld, deck, state.rules) for r in _ranks(card.rank)
    )
