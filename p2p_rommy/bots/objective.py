"""How far a hand is from the round's objective, judged from one seat's view only.

The unit is the *cost* of a hand (lower is better), on one scale for every mode:

- **Contract** (lp, not opened): the cards still missing for this round's contract
  (`MISSING` each), each weighted by how many live copies could close the gap (a
  card with no live copy left is nearly hopeless), plus a little for the points
  the other cards would cost at the round's end.
- **Points** (Rommé, not opened): the cards missing for melds worth the opening
  points (40), weighted the same way.
- **Out** (opened, or rummy, which has no opening): the points and the count of
  cards that are in no meld of the hand and fit no meld on the table; cards one
  card short of a meld count in part.

*Live* cards are those this seat has not seen: the deck minus its own hand, the
table's melds, the discard pile and the faces known in other hands (taken
discards, bought cards). Nothing else is read: a bot gets only its view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from operator import attrgetter

from p2p_rommy.cards import ACE, ACE_HIGH, KING, QUEEN, DeckComposition, Suit, composition
from p2p_rommy.engine.view import View
from p2p_rommy.rules.melds import Meld, MeldKind, card_value, joker_targets
from p2p_rommy.rules.variants import RuleSet

JOKER = 0
"""A face is ``rank + 16 * suit index``; every joker is face 0."""
SUITS = tuple(Suit)
MISSING = 10.0
"""Cost of one card missing for the opening (so 10 points in hand weigh one card)."""
POINT = 0.1
"""Cost of one point in hand while not opened."""
OUT_CARD = 4.0
"""Once out-bound: the cost of one more loose card on top of its points."""
PARTIAL_KEEP = 0.45
"""Share of a one-short meld's points and cards still counted (it may never complete)."""
KEEP_PER_KIND = 6
"""Contract search: the cheapest groups kept per kind (sets, runs)."""


def face_of(rank: int, suit: Suit | None) -> int:
    return JOKER if suit is None else rank + 16 * SUITS.index(suit)


@dataclass(frozen=True, slots=True)
class Group:
    """Cards of the hand toward one meld: the faces it uses and the cards it lacks."""

    kind: MeldKind
    uses: tuple[int, ...]
    missing: tuple[float, ...]
    """The cost of each missing card (by its live copies)."""
    value: int
    """Opening points of the meld once complete (Rommé)."""
    points: int
    """Penalty points of the faces it uses."""
    mask: int
    """The faces it uses as bits (``1 << face``; it uses each face at most once)."""
    order: tuple[float, int]
    """How cheap it is to complete, the longer first of equals (`Judge._cheapest`)."""


class Judge:
    """Costs hands for one seat at one moment; built from a view, memoised by faces."""

    def __init__(
        self,
        view: View,
        use_outs: bool = True,
        out_mode: bool = False,
        point: float = POINT,
        shed: float = 1.0,
    ) -> None:
        state = view.state
        self.rules: RuleSet = state.rules
        self.deck = composition(self.rules.deck_size)
        self.faces, self.card_of, copies = _deck_faces(self.rules.deck_size)
        """Each card's face, and a card id for each face (to cost a hand holding an
        unseen card): the deck's, shared by every judge (read only)."""
        self.use_outs = use_outs
        left = dict(copies)  # each face's copies not seen yet (a plain dict: no `Counter` calls)
        faces = self.faces
        for _, card in view.hand():
            left[faces[card]] -= 1
        for meld in state.melds:
            for placed in meld.cards:
                left[faces[placed.card]] -= 1
        public = state.faces
        for slot in state.discard:
            shown = public[slot]
            if shown is not None:
                left[faces[shown]] -= 1
        for seat, hand in enumerate(state.hands):
            if seat != view.seat:
                for slot in hand:
                    shown = public[slot]
                    if shown is not None:
                        left[faces[shown]] -= 1
        self.live: dict[int, int] = {f: max(0, n) for f, n in left.items()}
        self.unseen = sum(self.live.values())
        opened = bool(state.opened[view.seat]) or self.rules.opening == "none"
        self.contract = self.rules.contract(state.round_index) if not opened else None
        self.mode = "out" if opened or out_mode else self.rules.opening
        self.point = point
        self.shed = shed
        """Once out-bound: the weight of a loose card's points against its count (raised
        when another player may go out soon, to throw the high cards first)."""
        self.table_fits, self.table_takes_joker = self._table_fits(view)
        self._memo: dict[tuple[int, ...], float] = {}
        self._sets: dict[tuple[int, int, int], list[Group]] = {}
        """Set groups by (rank, the hand's suits of it as bits, cards it may lack)."""
        self._rank_outs: dict[int, tuple[int, ...]] = {}
        self._suit_outs: dict[int, tuple[int, ...]] = {}
        """Each rank's, and each suit's, live copies (by suit, by rank) once asked: the
        keys of the groups every judge of these rules shares (`live` is fixed)."""
        self._runs: dict[tuple[int, int, int, int], list[Group]] = {}
        """Run groups by (suit, the hand's ranks of it as bits, cards it may lack,
        extension)."""
        self.face_points = _face_points(self.rules)
        """Each face's penalty points (by the face's index)."""
        self._kept = _kept_groups(self.rules, use_outs)
        """Groups built by every judge of these rules, by the same keys and the live
        copies they were weighed by."""
        self.costed = 0
        """Hands costed so far (not found in the memo): the look-ahead's work budget."""

    # --- public ------------------------------------------------------------------

    def cost(self, cards: Iterable[int]) -> float:
        """The cost of a hand of card ids."""
        key = tuple(sorted(self.faces[c] for c in cards))
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._cost(key)
            self.costed += 1
        return found

    def points(self, card: int) -> int:
        return self.rules.points(self.deck.card(card).rank)

    def outs(self, face: int) -> int:
        return self.live.get(face, 0)

    def live_faces(self, near: Iterable[int] = ()) -> list[tuple[int, float]]:
        """(face, probability) of the next unseen card, by live copies; with `near`
        (card ids), only the faces that could join one of them (the others change
        nothing: they are thrown straight back)."""
        if self.unseen <= 0:
            return []
        wanted: set[int] | None = None
        if near:
            wanted = {JOKER}
            for card in near:
                face = self.faces[card]
                if face == JOKER:
                    continue
                rank, suit = face % 16, face // 16
                wanted |= {rank + 16 * s for s in range(4)}
                wanted |= {r + 16 * suit for r in range(rank - 2, rank + 3) if ACE <= r <= KING}
                if rank in (ACE, KING, QUEEN) and self.rules.ace_high:
                    wanted |= {r + 16 * suit for r in (ACE, QUEEN, KING, 2, 3)}
        return [
            (f, n / self.unseen)
            for f, n in sorted(self.live.items())
            if n > 0 and (wanted is None or f in wanted)
        ]

    def fits_table(self, card: int) -> bool:
        face = self.faces[card]
        return self.table_takes_joker if face == JOKER else face in self.table_fits

    # --- the modes ---------------------------------------------------------------

    def _cost(self, faces: tuple[int, ...]) -> float:
        if self.mode == "out":
            return self._out_cost(faces)
        if self.mode == "points":
            return self._points_cost(faces)
        return self._contract_cost(faces)

    def _face_points(self, face: int) -> int:
        return self.face_points[face]

    def _miss(self, outs: int) -> float:
        if outs <= 0:
            return MISSING * 4
        return MISSING * (1 + 0.8 / outs) if self.use_outs else MISSING

    def _contract_cost(self, faces: tuple[int, ...]) -> float:
        contract = self.contract
        assert contract is not None
        hand = Counter(faces)
        jokers = hand.pop(JOKER, 0)
        # (a contract of no sets, or no runs, needs none built: they are only memos)
        sets = self._cheapest(self._set_groups(hand, 2), contract.sets) if contract.sets else []
        runs = (
            self._cheapest(self._run_groups(hand, 2, extend=2), contract.runs)
            if contract.runs
            else []
        )
        best = float("inf")
        face_points = self.face_points
        all_points = sum(face_points[f] * n for f, n in hand.items())
        # Whether the hand holds chosen groups at once, by bit masks of faces in levels
        # packed in one integer (`_use`): level k of `held` has the faces the hand holds
        # more than k times, of a choice's the faces it uses more than k times; a choice
        # fits when it uses no level beyond what is held.
        depth = contract.sets + contract.runs
        point = self.point
        repeat = _repeat(depth)
        held = _held(hand, depth)
        run_choices = [
            (use, [m for g in chosen for m in g.missing], sum(g.points for g in chosen))
            for chosen in combinations(runs, contract.runs)
            if not (use := _use(chosen, repeat)) & ~held  # (else they fit beside no sets)
        ]
        for chosen_sets in combinations(sets, contract.sets):
            used = _use(chosen_sets, repeat)
            if used & ~held:
                continue  # no runs added make them fit
            free = _left(held, used, repeat)
            set_missing = [m for g in chosen_sets for m in g.missing]
            set_points = sum(g.points for g in chosen_sets)
            for run_use, run_missing, run_points in run_choices:
                if run_use & ~free:
                    continue
                missing = sorted(set_missing + run_missing, reverse=True)
                cost = sum(missing[jokers:])
                cost += point * (all_points - (set_points + run_points))
                if cost < best:
                    best = cost
        if best == float("inf"):
            best = MISSING * 3 * (contract.sets + contract.runs) + self.point * all_points
        return best

    def _cheapest(self, groups: list[Group], need: int) -> list[Group]:
        if need == 0:
            return []
        ranked = sorted(groups, key=_ORDER)
        return ranked[: max(KEEP_PER_KIND, need)]

    def _points_cost(self, faces: tuple[int, ...]) -> float:
        hand = Counter(faces)
        jokers = hand.pop(JOKER, 0)
        target = self.rules.opening_points
        groups = self._set_groups(hand, 2) + self._run_groups(hand, 2, extend=3)
        groups = [g for g in groups if g.value > 0]
        groups.sort(key=lambda g: (sum(g.missing) / g.value, -g.value))
        groups = groups[:14]
        face_points = self.face_points
        all_points = sum(face_points[f] * n for f, n in hand.items())
        best = MISSING * 6 + self.point * all_points
        steps = 0

        def search(start: int, chosen: tuple[Group, ...], value: int) -> None:
            nonlocal best, steps
            steps += 1
            if steps > 1500:
                return
            missing = sorted((m for g in chosen for m in g.missing), reverse=True)
            cost = sum(missing[jokers:])
            if cost >= best:
                return
            if value >= target:
                covered = sum(g.points for g in chosen)
                best = min(best, cost + self.point * (all_points - covered))
                return
            for index in range(start, len(groups)):
                group = groups[index]
                if _fits((*chosen, group), hand):
                    search(index + 1, (*chosen, group), value + group.value)

        search(0, (), 0)
        return best

    def _out_cost(self, faces: tuple[int, ...]) -> float:
        hand = Counter(faces)
        jokers = hand.pop(JOKER, 0)
        groups = self._set_groups(hand, 1) + self._run_groups(hand, 1, extend=13)
        weight = {f: self._face_points(f) * self.shed + OUT_CARD for f in hand}
        total = sum(weight[f] * n for f, n in hand.items())
        fits = self.table_fits

        def saving(group: Group) -> float:
            full = sum(weight[f] for f in group.uses)
            return full if not group.missing else full * (1 - PARTIAL_KEEP)

        scored = sorted(((saving(g), g) for g in groups), key=lambda pair: -pair[0])
        # each group's faces with their counts (a group uses a face at most once, but
        # counted as `Counter` would), worked out once rather than at every node
        needs = [tuple(Counter(g.uses).items()) for _, g in scored]
        best_saved = 0.0
        best_partials: list[float] = []
        nodes = 0

        def search(
            start: int,
            left: dict[int, int],
            held: int,
            saved: float,
            partials: tuple[float, ...],
        ) -> None:
            # `left` holds positive counts only, in the hand's order (as `Counter`'s
            # subtraction leaves them, so `loose` adds in the same order); `held` is
            # its faces as bits. Adding an int 0 (no fits, no jokers) changes no sum.
            nonlocal best_saved, best_partials, nodes
            nodes += 1
            loose = sum(weight[f] * n for f, n in left.items() if f in fits) if fits else 0
            upgrade = sum(sorted(partials, reverse=True)[:jokers]) if jokers else 0
            here = saved + loose + upgrade
            if here > best_saved:
                best_saved, best_partials = here, list(partials)
            if nodes > 600:
                return
            for index in range(start, len(scored)):
                gain, group = scored[index]
                if gain <= 0:
                    break
                if group.mask & ~held:
                    continue  # a face it uses is not left
                need = needs[index]
                if any(left[f] < n for f, n in need):
                    continue
                rest = dict(left)
                rest_held = held
                for f, n in need:
                    if rest[f] == n:
                        del rest[f]
                        rest_held &= ~(1 << f)
                    else:
                        rest[f] -= n
                extra = (gain / (1 - PARTIAL_KEEP) * PARTIAL_KEEP,) if group.missing else ()
                search(index + 1, rest, rest_held, saved + gain, partials + extra)

        search(0, dict(hand), _mask(hand), 0.0, ())
        cost = total - best_saved
        spare = jokers - min(jokers, len(best_partials))
        if spare:
            # A joker no partial meld needs: free while the table or a meld takes it.
            keeps = self.table_takes_joker or best_saved > 0
            cost += spare * (0.5 if keeps else self.rules.points(0) + OUT_CARD)
        return max(0.0, cost)

    # --- groups ------------------------------------------------------------------

    def _set_groups(self, hand: Counter[int], max_missing: int) -> list[Group]:
        by_rank: dict[int, int] = {}  # rank -> its suits in the hand, as bits (face // 16)
        for face in hand:
            rank = face & 15
            by_rank[rank] = by_rank.get(rank, 0) | 1 << (face >> 4)
        groups = []
        sets = self._sets
        for rank, suits in by_rank.items():
            key = (rank, suits, max_missing)
            found = sets.get(key)
            if found is None:
                faces = [rank + 16 * s for s in range(4) if suits >> s & 1]
                # Another judge may have built them: they depend on the rank's live copies.
                outs = self._rank_outs.get(rank)
                if outs is None:
                    outs = tuple(self.live.get(face_of(rank, s), 0) for s in SUITS)
                    self._rank_outs[rank] = outs
                kept_key = (0, *key, outs)
                found = self._kept.get(kept_key)
                if found is None:
                    found = _keep(self._kept, kept_key, self._rank_sets(rank, faces, max_missing))
                sets[key] = found
            groups += found
        return groups

    def _rank_sets(self, rank: int, faces: list[int], max_missing: int) -> list[Group]:
        """The set groups of the hand's faces of one rank (they depend on nothing else)."""
        rules = self.rules
        live = self.live
        face_points = self.face_points
        groups = []
        suits = sorted(faces)[: rules.set_max]
        choices = [tuple(suits)]
        if len(suits) == 4 and rules.set_min == 3:
            choices += list(combinations(suits, 3))
        for chosen in choices:
            lack = max(0, rules.set_min - len(chosen))
            if lack > max_missing:
                continue
            # the rank's faces of the other suits (a face is ``rank + 16 * suit index``)
            outs = sum(live.get(f, 0) for f in range(rank, 64, 16) if f not in chosen)
            missing = tuple(self._miss(outs - i) for i in range(lack))
            value = rules.points(rank) * (len(chosen) + lack)
            points = sum(face_points[f] for f in chosen)
            groups.append(
                Group(
                    _SET,
                    chosen,
                    missing,
                    value,
                    points,
                    _mask(chosen),
                    (sum(missing), -len(chosen)),
                )
            )
        return groups

    def _run_groups(self, hand: Counter[int], max_missing: int, extend: int) -> list[Group]:
        ace_high = self.rules.ace_high
        groups = []
        suits = [0, 0, 0, 0]  # each suit's ranks in the hand, as bits
        for face, count in hand.items():  # every face but the joker's: ACE..KING of a suit
            if count:
                suits[face >> 4] |= 1 << (face & 15)
        runs = self._runs
        for index, ranks in enumerate(suits):
            if not ranks:
                continue
            if ace_high and ranks >> ACE & 1:
                ranks |= 1 << ACE_HIGH
            key = (index, ranks, max_missing, extend)
            found = runs.get(key)
            if found is None:
                present = [bool(ranks >> r & 1) for r in range(ACE_HIGH + 2)]
                # Another judge may have built them: they depend on the suit's live copies.
                outs = self._suit_outs.get(index)
                if outs is None:
                    outs = tuple(self.live.get(16 * index + r, 0) for r in range(ACE, KING + 1))
                    self._suit_outs[index] = outs
                kept_key = (1, *key, outs)
                found = self._kept.get(kept_key)
                if found is None:
                    found = _keep(
                        self._kept, kept_key, self._suit_runs(index, present, max_missing, extend)
                    )
                runs[key] = found
            groups += found
        return groups

    def _suit_runs(
        self, index: int, present: list[bool], max_missing: int, extend: int
    ) -> list[Group]:
        """The run groups of the hand's cards of one suit (`present`: by rank)."""
        rules = self.rules
        top = ACE_HIGH if rules.ace_high else KING
        run_min = rules.run_min
        longest = min(run_min + extend, rules.run_max)
        base = 16 * index
        live = self.live
        miss = self._miss
        face_points = self.face_points
        values = _card_values(rules)
        groups = []
        for low in range(ACE, top - run_min + 2):
            have = sum(present[low : low + run_min])
            if have == 0 or run_min - have > max_missing:
                continue
            for high in range(low + run_min - 1, min(low + longest, top + 1)):
                length = high - low + 1
                if length > run_min and not (present[low] and present[high]):
                    continue
                ranks = range(low, high + 1)
                lack = [r for r in ranks if not present[r]]
                if len(lack) > max_missing or (lack and length > run_min + 1):
                    continue
                if low == ACE and high == ACE_HIGH:
                    continue
                uses = tuple(base + (ACE if r == ACE_HIGH else r) for r in ranks if present[r])
                missing = tuple(
                    miss(live.get(base + (ACE if r == ACE_HIGH else r), 0)) for r in lack
                )
                mask = 0
                for face in uses:
                    mask |= 1 << face
                groups.append(
                    Group(
                        _RUN,
                        uses,
                        missing,
                        sum(values[low : high + 1]),
                        sum(face_points[f] for f in uses),
                        mask,
                        (sum(missing), -len(uses)),
                    )
                )
        return groups

    def _table_fits(self, view: View) -> tuple[frozenset[int], bool]:
        """Faces that one card could add to a meld on the table, and whether a joker can."""
        fits: set[int] = set()
        joker = False
        for meld in view.state.melds:
            meld_fits, takes_joker = _meld_fits(meld, self.deck, self.rules)
            joker = joker or takes_joker
            fits |= meld_fits
        return frozenset(fits), joker


_ORDER = attrgetter("order")
_SET, _RUN = MeldKind.SET, MeldKind.RUN
_card_values_kept: dict[int, tuple[RuleSet, tuple[int, ...]]] = {}


def _card_values(rules: RuleSet) -> tuple[int, ...]:
    """`card_value` of each rank up to `ACE_HIGH` under `rules` (kept by the rules'
    identity, as `_face_points`)."""
    kept = _card_values_kept.get(id(rules))
    if kept is not None and kept[0] is rules:
        return kept[1]
    values = tuple(card_value(r, rules) if r else 0 for r in range(ACE_HIGH + 1))
    if len(_card_values_kept) >= 16:
        _card_values_kept.clear()
    _card_values_kept[id(rules)] = (rules, values)
    return values


_face_points_kept: dict[int, tuple[RuleSet, tuple[int, ...]]] = {}


def _face_points(rules: RuleSet) -> tuple[int, ...]:
    """Each face's points under `rules` (kept by the rules' identity)."""
    kept = _face_points_kept.get(id(rules))
    if kept is not None and kept[0] is rules:
        return kept[1]
    points = tuple(
        rules.points(0 if face == JOKER else face % 16) if face % 16 <= KING else 0
        for face in range(64)
    )  # (no card has a face of rank 14 or 15)
    if len(_face_points_kept) >= 16:
        _face_points_kept.clear()
    _face_points_kept[id(rules)] = (rules, points)
    return points


GROUPS_KEPT = 4096
"""Groups kept for all judges of one ruleset, then they start afresh (a game of lp
keeps about 1,500 per seat, some 1 kB each)."""
RULESETS_KEPT = 8
"""Rulesets whose groups are kept at once (each seat of a simulated table has its own)."""
_groups_kept: dict[tuple[int, bool], tuple[RuleSet, dict[tuple[object, ...], list[Group]]]] = {}


def _kept_groups(rules: RuleSet, use_outs: bool) -> dict[tuple[object, ...], list[Group]]:
    """The groups every judge of `rules` (the same object) and `use_outs` has built."""
    key = (id(rules), use_outs)
    kept = _groups_kept.get(key)
    if kept is None or kept[0] is not rules:
        if len(_groups_kept) >= RULESETS_KEPT:
            _groups_kept.clear()
        kept = _groups_kept[key] = (rules, {})
    return kept[1]


def _keep(
    kept: dict[tuple[object, ...], list[Group]], key: tuple[object, ...], groups: list[Group]
) -> list[Group]:
    if len(kept) >= GROUPS_KEPT:
        kept.clear()
    kept[key] = groups
    return groups


MELD_FITS_KEPT = 4096
"""`_meld_fits` answers kept (the melds of a few tables; then it starts afresh)."""
_meld_fits_kept: dict[tuple[int, int], tuple[Meld, RuleSet, frozenset[int], bool]] = {}


def _meld_fits(meld: Meld, deck: DeckComposition, rules: RuleSet) -> tuple[frozenset[int], bool]:
    """The faces one card could add to `meld`, and whether a joker can: kept by the
    meld's and the rules' identity (a table's melds are the same objects from one
    state to the next, so every judge of a seat asks about the same ones)."""
    key = (id(meld), id(rules))
    kept = _meld_fits_kept.get(key)
    if kept is not None and kept[0] is meld and kept[1] is rules:
        return kept[2], kept[3]
    targets = joker_targets(meld, deck, rules)
    fits: frozenset[int] = frozenset()
    naturals = [deck.card(p.card) for p in meld.cards]
    naturals = [c for c in naturals if not c.is_joker]
    if naturals:
        if meld.kind is MeldKind.SET:
            if len(meld.cards) < rules.set_max:
                held = {c.suit for c in naturals}
                fits = frozenset(face_of(naturals[0].rank, s) for s in SUITS if s not in held)
        else:
            suit = naturals[0].suit
            fits = frozenset(face_of(ACE if r == ACE_HIGH else r, suit) for r in targets)
    if len(_meld_fits_kept) >= MELD_FITS_KEPT:
        _meld_fits_kept.clear()
    _meld_fits_kept[key] = (meld, rules, fits, bool(targets))
    return fits, bool(targets)


def deck_faces(size: int) -> tuple[int, ...]:
    """Each card's face in the deck of `size` cards (what a judge's `faces` holds)."""
    return _deck_faces(size)[0]


@cache
def _deck_faces(size: int) -> tuple[tuple[int, ...], dict[int, int], Counter[int]]:
    """(each card's face, a card id for each face, each face's copies) of the deck of
    `size` cards: what every judge's view starts from."""
    faces = tuple(face_of(c.rank, c.suit) for c in composition(size).cards)
    return faces, {f: c for c, f in reversed(list(enumerate(faces)))}, Counter(faces)


def _mask(faces: Iterable[int]) -> int:
    mask = 0
    for face in faces:
        mask |= 1 << face
    return mask


@cache
def _repeat(depth: int) -> int:
    """Bit 64 k for every level k below `depth`: a face's mask times it is the face at
    every level."""
    return sum(1 << (64 * k) for k in range(depth))


LEVEL = (1 << 64) - 1
"""One level of `_use`: a bit per face (faces are below 64)."""


def _use(groups: Sequence[Group], repeat: int) -> int:
    """The faces these groups use, packed by level: bit ``64 k + face`` is set when
    they use the face more than k times (each group uses a face at most once;
    `repeat` has bit ``64 k`` for every level kept)."""
    used = 0
    for group in groups:
        used |= ((used << 64) & (group.mask * repeat)) | group.mask
    return used


def _left(held: int, used: int, repeat: int) -> int:
    """What `held` leaves once `used` is taken, both packed by level as in `_use`:
    a face held more than k + j times and used exactly j times is left more than k."""
    left = 0
    fewer = LEVEL  # faces used at least j times (j = 0: every face)
    j = 0
    while True:
        more = (used >> (64 * j)) & LEVEL  # used more than j times
        left |= (held >> (64 * j)) & ((fewer & ~more) * repeat)
        if not more:
            return left
        fewer = more
        j += 1


def _held(hand: Counter[int], depth: int) -> int:
    """The hand's faces packed by level as in `_use`, up to `depth` levels: bit
    ``64 k + face`` is set when the hand holds the face more than k times."""
    held = 0
    for face, count in hand.items():
        held |= (1 << face) * _repeat(min(count, depth))
    return held


def _fits(groups: Sequence[Group], hand: Counter[int]) -> bool:
    """Whether the hand holds the cards of all these groups at once (each group uses
    a face at most once, so `len(groups)` levels count every use)."""
    depth = len(groups)
    return not _use(groups, _repeat(depth)) & ~_held(hand, depth)
