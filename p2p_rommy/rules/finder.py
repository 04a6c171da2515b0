"""Meld finder: the melds a hand can make, and lay-downs that meet an opening.

Candidates are *building blocks*, not every subset: a set per choice of suits,
with jokers only to reach the minimum size; a run per stretch of natural cards
in one suit whose gaps jokers fill, plus jokers at an end only to reach the
minimum length. That keeps a hand of 30 cards with several jokers to a few
hundred candidates while still finding every contract and opening a player
could reasonably make. The bots' finer search builds on this.
"""

from __future__ import annotations

from collections import Counter
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


_Asked = tuple[tuple[tuple[int, int], ...], DeckComposition, RuleSet, list["Candidate"]]
_last_candidates: list[_Asked] = []


def candidate_melds(
    hand: Sequence[tuple[int, int]], deck: DeckComposition, rules: RuleSet
) -> list[Candidate]:
    """Valid melds from (slot, card id) pairs, sets first then runs, deterministic.

    The last answer is kept: a bot asks for the same hand's melds twice in a turn (its
    legal moves list the openings, then it picks among them)."""
    held = tuple(hand)
    for last_hand, last_deck, last_rules, found in _last_candidates:
        if last_hand == held and last_deck is deck and last_rules is rules:
            return list(found)
    found = _candidate_melds(held, deck, rules)
    _last_candidates[:] = [(held, deck, rules, found)]
    return list(found)


def _candidate_melds(
    hand: Sequence[tuple[int, int]], deck: DeckComposition, rules: RuleSet
) -> list[Candidate]:
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
        if not _valid(kind, ordered, deck, rules):
            continue
        seen.add(key)
        found.append(Candidate(kind, ordered))
    return found


VALID_KEPT = 8192
"""`_valid` answers kept per ruleset (then it starts afresh)."""
_valid_kept: dict[
    tuple[int, int], tuple[RuleSet, DeckComposition, dict[tuple[object, ...], bool]]
] = {}


def _valid(
    kind: MeldKind, ordered: tuple[Placed, ...], deck: DeckComposition, rules: RuleSet
) -> bool:
    """Whether `check_meld` passes these cards: kept by their cards and ranks (a meld's
    validity does not depend on the slots), as a hand's melds come up turn after turn;
    by the identity of the rules and the deck."""
    kept = _valid_kept.get((id(rules), id(deck)))
    if kept is None or kept[0] is not rules or kept[1] is not deck:
        if len(_valid_kept) >= 8:
            _valid_kept.clear()
        kept = _valid_kept[(id(rules), id(deck))] = (rules, deck, {})
    memo = kept[2]
    key = (kind, tuple([(p.card, p.rank) for p in ordered]))
    found = memo.get(key)
    if found is None:
        try:
            check_meld(kind, ordered, deck, rules)
            found = True
        except IllegalMove:
            found = False
        if len(memo) >= VALID_KEPT:
            memo.clear()
        memo[key] = found
    return found


EXACT_JOKERS = 3
"""Up to this many jokers in hand, runs and sets may take spare jokers beyond what
they need (exact); beyond it, jokers only fill gaps or reach the minimum size,
which keeps a 30-card hand with 6 jokers to a few hundred candidates."""


def _joker_choices(
    jokers: list[tuple[int, int]], count: int
) -> Iterator[tuple[tuple[int, int], ...]]:
    if count > len(jokers):
        return
    if len(jokers) <= EXACT_JOKERS:
        yield from combinations(jokers, count)
    else:
        yield tuple(jokers[:count])


def _sets(
    naturals: list[tuple[int, int]],
    jokers: list[tuple[int, int]],
    deck: DeckComposition,
    rules: RuleSet,
) -> Iterator[tuple[MeldKind, list[Placed]]]:
    exact = len(jokers) <= EXACT_JOKERS
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
                most = rules.set_max - size if exact else need
                for count in range(need, most + 1):
                    for extra in _joker_choices(jokers, count):
                        yield MeldKind.SET, placed + [Placed(s, c, rank) for s, c in extra]


def _runs(
    naturals: list[tuple[int, int]],
    jokers: list[tuple[int, int]],
    deck: DeckComposition,
    rules: RuleSet,
) -> Iterator[tuple[MeldKind, list[Placed]]]:
    top = ACE_HIGH if rules.ace_high else KING
    exact = len(jokers) <= EXACT_JOKERS
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
                gaps = [r for r in range(low, high + 1) if r not in ranks]
                if len(gaps) > len(jokers):
                    break
                cards = [ranks[r] for r in inside]
                if len({slot for slot, _ in cards}) != len(cards):
                    continue  # the same ace at both ends
                naturals_placed = [
                    Placed(slot, cid, r) for r, (slot, cid) in zip(inside, cards, strict=True)
                ]
                length = high - low + 1
                short = max(0, rules.run_min - length)
                for extend in range(short, (len(jokers) - len(gaps) if exact else short) + 1):
                    for below in range(extend + 1):
                        above = extend - below
                        if low - below < ACE or high + above > top:
                            continue
                        if length + extend > rules.run_max:
                            continue
                        ends = list(range(low - below, low)) + list(
                            range(high + 1, high + above + 1)
                        )
                        wanted = gaps + ends
                        for chosen in _joker_choices(jokers, len(wanted)):
                            jokers_placed = [
                                Placed(s, c, r) for (s, c), r in zip(chosen, wanted, strict=True)
                            ]
                            yield MeldKind.RUN, naturals_placed + jokers_placed


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
    # each candidate with its slots (a frozenset built per access), made once here
    sets = [(c, c.slots) for c in candidates if c.kind is MeldKind.SET]
    runs = [(c, c.slots) for c in candidates if c.kind is MeldKind.RUN]
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
            candidate, slots = pool[index]
            if slots & used:
                continue
            search(level + 1, index + 1, used | slots, (*chosen, candidate))
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


def _face(deck: DeckComposition, card_id: int) -> tuple[int, str]:
    card = deck.card(card_id)
    return (0, "") if card.is_joker or card.suit is None else (card.rank, card.suit.value)


def best_laydown(
    candidates: Sequence[Candidate],
    hand: Sequence[tuple[int, int]],
    deck: DeckComposition,
    rules: RuleSet,
    budget: int = 20000,
) -> tuple[tuple[Candidate, ...], int]:
    """Disjoint melds that leave the fewest points in hand, and those points.

    The search works on card *faces*: twin cards and jokers are interchangeable, so
    a meld found with one 7♥ may use the other; the chosen melds are mapped back to
    the hand's slots at the end. Branch and bound, most valuable melds first: what
    is left can fall at most by the points of the cards that later melds could use.
    `budget` caps the nodes visited, so a huge hand answers at once with the best so far.
    """
    count: Counter[tuple[int, str]] = Counter(_face(deck, card) for _, card in hand)
    value = {face: rules.points(face[0]) for face in count}
    total = sum(value[f] * n for f, n in count.items())
    seen: set[tuple[object, ...]] = set()
    shapes = []
    for candidate in candidates:
        need = Counter(_face(deck, p.card) for p in candidate.cards)
        key = (
            candidate.kind,
            tuple(sorted((_face(deck, p.card), p.rank) for p in candidate.cards)),
        )
        if key in seen:
            continue
        seen.add(key)
        shapes.append((sum(value[f] * n for f, n in need.items()), need, candidate))
    shapes.sort(key=lambda shape: -shape[0])
    # reachable_from[i]: the most points melds at index >= i could still take, per face
    faces_from: list[Counter[tuple[int, str]]] = [Counter()] * (len(shapes) + 1)
    for index in range(len(shapes) - 1, -1, -1):
        faces_from[index] = faces_from[index + 1] | shapes[index][1]
    best_choice: tuple[Candidate, ...] = ()
    best_left = total
    visited = 0

    def search(
        start: int, left_counts: Counter[tuple[int, str]], left: int, chosen: tuple[Candidate, ...]
    ) -> None:
        nonlocal best_choice, best_left, visited
        visited += 1
        if left < best_left:
            best_choice, best_left = chosen, left
        reachable = sum(value[f] * min(n, left_counts[f]) for f, n in faces_from[start].items())
        if visited > budget or left - reachable >= best_left:
            return
        for index in range(start, len(shapes)):
            points, need, candidate = shapes[index]
            if any(left_counts[f] < n for f, n in need.items()):
                continue
            search(index, left_counts - need, left - points, (*chosen, candidate))
            if visited > budget:
                return

    search(0, count, total, ())
    return _to_slots(best_choice, hand, deck), best_left


def _to_slots(
    chosen: Sequence[Candidate], hand: Sequence[tuple[int, int]], deck: DeckComposition
) -> tuple[Candidate, ...]:
    """The chosen melds with each card moved to a distinct slot of the same face."""
    free: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for slot, card in sorted(hand):
        free.setdefault(_face(deck, card), []).append((slot, card))
    placed = []
    for candidate in chosen:
        cards = []
        for p in candidate.cards:
            slot, card = free[_face(deck, p.card)].pop(0)
            cards.append(Placed(slot, card, p.rank))
        placed.append(Candidate(candidate.kind, normalized(candidate.kind, cards)))
    return tuple(placed)
