"""Meld finder: the melds a hand can make, and lay-downs that meet an opening.

Candidates are *building blocks*, not every subset: a set per choice of suits,
with jokers only to reach the minimum size; a run per stretch of natural cards
in one suit whose gaps jokers fill, plus jokers at an end only to reach the
minimum length. That keeps a hand of 30 cards with several jokers to a few
hundred candidates while still finding every contract and opening a player
could reasonably make. The bots' finer search builds on this.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from p2p_rommy.cards import ACE, ACE_HIGH, KING, DeckComposition
from p2p_rommy.errors import IllegalMove
from p2p_rommy.rules.melds import MeldKind, Placed, check_meld, normalized, opening_value
from p2p_rommy.rules.variants import Contract, RuleSet


@dataclass(frozen=True, slots=True)
class Candidate:
    kind: MeldKind
    cards: tuple[Placed, ...]

    @property
    def slots(self) -> frozenset[int]:
        return frozenset(p.slot for p in self.cards)


def candidate_melds(
    hand: Sequence[tuple[int, int]], deck: DeckComposition, rules: RuleSet
) -> list[Candidate]:
    """Valid melds from (slot, card id) pairs, sets first then runs, deterministic."""
    naturals = sorted((slot, cid) for slot, cid in hand if not deck.card(cid).is_joker)
    jokers = sorted((slot, cid) for slot, cid in hand if deck.card(cid).is_joker)
    found: list[Candidate] = []
    seen: set[tuple[MeldKind, tuple[Placed, ...]]] = set()
    for kind, cards in (
        *_sets(naturals, jokers, deck, rules),
        *_runs(naturals, jokers, deck, rules),
    ):
        ordered = normalized(kind, cards)
        key = (kind, ordered)
        if key in seen:
            continue
        try:
            check_meld(kind, ordered, deck, rules)
        except IllegalMove:
            continue
        seen.add(key)
        found.append(Candidate(kind, ordered))
    return found


def _sets(
    naturals: list[tuple[int, int]],
    jokers: list[tuple[int, int]],
    deck: DeckComposition,
    rules: RuleSet,
) -> Iterator[tuple[MeldKind, list[Placed]]]:
    by_rank: dict[int, dict[object, tuple[int, int]]] = {}
    for slot, cid in naturals:
        card = deck.card(cid)
        by_rank.setdefault(card.rank, {}).setdefault(card.suit, (slot, cid))
    for rank in sorted(by_rank):
        one_per_suit = list(by_rank[rank].values())
        for size in range(1, min(len(one_per_suit), rules.set_max) + 1):
            for chosen in combinations(one_per_suit, size):
                placed = [Placed(slot, cid, rank) for slot, cid in chosen]
                need = max(0, rules.set_min - size)
                if need <= len(jokers):
                    yield MeldKind.SET, placed + [Placed(s, c, rank) for s, c in jokers[:need]]


def _runs(
    naturals: list[tuple[int, int]],
    jokers: list[tuple[int, int]],
    deck: DeckComposition,
    rules: RuleSet,
) -> Iterator[tuple[MeldKind, list[Placed]]]:
    top = ACE_HIGH if rules.ace_high else KING
    by_suit: dict[object, dict[int, tuple[int, int]]] = {}
    for slot, cid in naturals:
        card = deck.card(cid)
        ranks = by_suit.setdefault(card.suit, {})
        ranks.setdefault(card.rank, (slot, cid))
        if card.rank == ACE and rules.ace_high:
            ranks.setdefault(ACE_HIGH, (slot, cid))
    for suit in sorted(by_suit, key=str):
        ranks = by_suit[suit]
        present = sorted(ranks)
        for i, low in enumerate(present):
            for high in present[i:]:
                if high - low + 1 > rules.run_max:
                    break
                inside = [r for r in present if low <= r <= high]
                missing = (high - low + 1) - len(inside)
                if missing > len(jokers):
                    break
                cards = [ranks[r] for r in inside]
                if len({slot for slot, _ in cards}) != len(cards):
                    continue  # the same ace at both ends
                gaps = [r for r in range(low, high + 1) if r not in ranks]
                placed = [
                    Placed(slot, cid, r) for r, (slot, cid) in zip(inside, cards, strict=True)
                ]
                placed += [Placed(s, c, r) for (s, c), r in zip(jokers, gaps, strict=False)]
                spare = jokers[len(gaps) :]
                length = high - low + 1
                short = rules.run_min - length
                if short <= 0:
                    yield MeldKind.RUN, placed
                    continue
                if short > len(spare):
                    continue
                for below in range(short + 1):
                    above = short - below
                    if low - below < ACE or high + above > top:
                        continue
                    ends = list(range(low - below, low)) + list(range(high + 1, high + above + 1))
                    extra = [Placed(s, c, r) for (s, c), r in zip(spare, ends, strict=False)]
                    yield MeldKind.RUN, placed + extra


def find_opening(
    candidates: Sequence[Candidate],
    deck: DeckComposition,
    rules: RuleSet,
    round_index: int,
    limit: int = 1,
) -> list[tuple[Candidate, ...]]:
    """Up to `limit` sets of disjoint candidates that meet the round's opening."""
    if rules.opening == "contract":
        return _contract_search(candidates, rules.contracts[round_index], limit)
    if rules.opening == "points":
        return _points_search(candidates, deck, rules, limit)
    return [(c,) for c in candidates[:limit]]


def _contract_search(
    candidates: Sequence[Candidate], contract: Contract, limit: int
) -> list[tuple[Candidate, ...]]:
    sets = [c for c in candidates if c.kind is MeldKind.SET]
    runs = [c for c in candidates if c.kind is MeldKind.RUN]
    needs = [sets] * contract.sets + [runs] * contract.runs
    found: list[tuple[Candidate, ...]] = []

    def search(level: int, start: int, used: frozenset[int], chosen: tuple[Candidate, ...]) -> None:
        if len(found) >= limit:
            return
        if level == len(needs):
            found.append(chosen)
            return
        pool = needs[level]
        # Same kind as the previous level: keep indices increasing to skip permutations.
        begin = start if level > 0 and needs[level - 1] is pool else 0
        for index in range(begin, len(pool)):
            candidate = pool[index]
            if candidate.slots & used:
                continue
            search(level + 1, index + 1, used | candidate.slots, (*chosen, candidate))
            if len(found) >= limit:
                return

    search(0, 0, frozenset(), ())
    return found


def _points_search(
    candidates: Sequence[Candidate], deck: DeckComposition, rules: RuleSet, limit: int
) -> list[tuple[Candidate, ...]]:
    valued = sorted(
        ((opening_value(c.kind, c.cards, deck, rules), c) for c in candidates),
        key=lambda pair: -pair[0],
    )
    found: list[tuple[Candidate, ...]] = []
    steps = 0

    def search(start: int, used: frozenset[int], total: int, chosen: tuple[Candidate, ...]) -> None:
        nonlocal steps
        steps += 1
        if len(found) >= limit or steps > 5000:
            return
        if total >= rules.opening_points:
            found.append(chosen)
            return
        for index in range(start, len(valued)):
            value, candidate = valued[index]
            if candidate.slots & used or value == 0:
                continue
            search(index + 1, used | candidate.slots, total + value, (*chosen, candidate))
            if len(found) >= limit:
                return

    search(0, frozenset(), 0, ())
    return found
