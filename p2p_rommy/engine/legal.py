"""`legal_moves(view)`: what the seat of a view may do now.

It feeds the bots and the client's hints. Draws, discards, lay-offs and joker
swaps are listed in full; lay-downs as building blocks (each single meld the hand
can make once opened, and a few openings that meet the round's requirement before
that). Every listed move has been checked by `apply`, so nothing listed is refused.
"""

from __future__ import annotations

from p2p_rommy.cards import ACE, ACE_HIGH, DeckComposition
from p2p_rommy.engine.apply import (
    apply,
    check_may_build,
    check_not_stranded,
    deck_of,
    unplayed_swapped_joker,
)
from p2p_rommy.engine.due import mover
from p2p_rommy.engine.moves import (
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Move,
    NewMeld,
    RevealHand,
    SwapJoker,
    TakeDiscard,
)
from p2p_rommy.engine.state import GameState, Phase
from p2p_rommy.engine.view import View
from p2p_rommy.errors import IllegalMove
from p2p_rommy.rules.finder import candidate_melds, find_opening
from p2p_rommy.rules.melds import Meld, MeldKind, Placed, joker_targets, lay_off

OPENINGS_LISTED = 4
"""How many different openings to list when the seat has not opened yet."""


def legal_moves(view: View) -> list[Move]:
    """The moves the view's seat may make now (empty when it is not theirs to act)."""
    state, seat = view.state, view.seat
    if state.phase is Phase.REVEAL:
        if state.revealed[seat]:
            return []
        return [RevealHand(seat, tuple(view.hand()))]
    if mover(state) != seat:
        return []
    if state.phase is Phase.DRAW:
        moves: list[Move] = [DrawStock(seat)]
        if state.discard:
            moves.append(TakeDiscard(seat))
        return moves
    return _play_moves(view)


def _play_moves(view: View) -> list[Move]:
    state, seat = view.state, view.seat
    hand = view.hand()
    moves: list[Move] = _discards(view, hand)
    moves += [move for move in _lay_downs(view, hand) if _is_legal(state, move)]
    if _may_build(state, seat):
        # Building moves differ only in the meld they change: check that meld alone.
        moves += [m for m in _lay_offs(view, hand) if _builds(state, seat, m)]
        moves += [m for m in _swaps(view, hand) if _is_legal(state, m)]
    return moves


def _discards(view: View, hand: list[tuple[int, int]]) -> list[Move]:
    state, seat = view.state, view.seat
    if unplayed_swapped_joker(state) is not None:
        return []
    barred = state.taken_discard if state.rules.discard_taken_card_barred else None
    return [Discard(seat, slot, card) for slot, card in hand if slot != barred]


def _may_build(state: GameState, seat: int) -> bool:
    try:
        check_may_build(state, seat, "building")
    except IllegalMove:
        return False
    return True


def _builds(state: GameState, seat: int, move: LayOff) -> bool:
    try:
        lay_off(state.melds[move.meld], move.card, deck_of(state), state.rules)
        check_not_stranded(state, tuple(s for s in state.hands[seat] if s != move.card.slot))
    except IllegalMove:
        return False
    return True


def _is_legal(state: GameState, move: Move) -> bool:
    try:
        apply(state, move)
    except IllegalMove:
        return False
    return True


def _lay_downs(view: View, hand: list[tuple[int, int]]) -> list[Move]:
    state, seat = view.state, view.seat
    rules, deck = state.rules, deck_of(state)
    melds = candidate_melds(hand, deck, rules)
    if not melds:
        return []
    if state.opened[seat] or rules.opening == "none":
        return [LayDown(seat, (NewMeld(c.kind, c.cards),)) for c in melds]
    openings = find_opening(melds, deck, rules, state.round_index, limit=OPENINGS_LISTED)
    return [LayDown(seat, tuple(NewMeld(c.kind, c.cards) for c in opening)) for opening in openings]


def _natural_ranks(rank: int, ace_high: bool) -> tuple[int, ...]:
    return (ACE, ACE_HIGH) if rank == ACE and ace_high else (rank,)


def _lay_offs(view: View, hand: list[tuple[int, int]]) -> list[LayOff]:
    state, seat = view.state, view.seat
    rules, deck = state.rules, deck_of(state)
    moves: list[LayOff] = []
    for index, meld in enumerate(state.melds):
        targets = joker_targets(meld, deck, rules)
        # a set takes only its own rank (`check_meld`): a natural card of another is
        # never listed, so it is not built only to be refused
        rank = _set_rank(meld, deck) if meld.kind is MeldKind.SET else None
        for slot, card_id in hand:
            card = deck.card(card_id)
            if card.is_joker:
                moves += [LayOff(seat, index, Placed(slot, card_id, r)) for r in targets]
            elif meld.kind is MeldKind.SET:
                if rank is None or card.rank == rank:
                    moves.append(LayOff(seat, index, Placed(slot, card_id, card.rank)))
            else:
                moves += [
                    LayOff(seat, index, Placed(slot, card_id, r))
                    for r in _natural_ranks(card.rank, rules.ace_high)
                    if r in targets
                ]
    return moves


def _set_rank(meld: Meld, deck: DeckComposition) -> int | None:
    """The rank of a set's natural cards (None if it had none: then nothing is assumed)."""
    for placed in meld.cards:
        card = deck.card(placed.card)
        if not card.is_joker:
            return card.rank
    return None


def _swaps(view: View, hand: list[tuple[int, int]]) -> list[Move]:
    state, seat = view.state, view.seat
    if not state.rules.joker_swap:
        return []
    deck = deck_of(state)
    moves: list[Move] = []
    for index, meld in enumerate(state.melds):
        for placed in meld.cards:
            if not deck.card(placed.card).is_joker:
                continue
            for slot, card_id in hand:
                card = deck.card(card_id)
                if card.is_joker:
                    continue
                if placed.rank in _natural_ranks(card.rank, state.rules.ace_high):
                    moves.append(
                        SwapJoker(seat, index, placed.slot, Placed(slot, card_id, placed.rank))
                    )
    return moves
