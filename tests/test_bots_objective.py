"""The judge's costs stay what a plain count gives (issue #31 made them faster: bit
masks for which groups fit together, groups and table fits kept across judges)."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from itertools import combinations

import pytest

from p2p_rommy.bots import objective
from p2p_rommy.bots.objective import JOKER, MISSING, Judge
from p2p_rommy.engine.apply import new_game
from p2p_rommy.engine.table import OpenTable
from p2p_rommy.engine.view import View
from p2p_rommy.errors import IllegalMove
from p2p_rommy.rules import ruleset
from p2p_rommy.rules.finder import candidate_melds
from p2p_rommy.rules.melds import check_meld


def dealt_view(round_index: int, seed: int) -> View:
    rules = ruleset("lp")
    state = dataclasses.replace(new_game(rules, 4, 0), round_index=round_index)
    order = list(range(rules.deck_size))
    random.Random(seed).shuffle(order)
    return OpenTable(state).start_round(order).view(1)


def meldy_hand(judge: Judge, rng: random.Random) -> list[int]:
    """Cards of a few neighbouring ranks in a few suits, jokers among them: hands whose
    groups overlap, so that which of them fit together matters."""
    low = rng.randint(1, 9)
    suits = rng.sample(range(4), rng.randint(1, 3))
    pool = [
        card
        for card, face in enumerate(judge.faces)
        if face == JOKER or (low <= face % 16 < low + 5 and face // 16 in suits)
    ]
    return rng.sample(pool, min(len(pool), rng.randint(4, 14)))


def counted_cost(judge: Judge, cards: list[int]) -> float:
    """The contract cost by the plain method: every choice of the cheapest groups,
    kept when the hand holds all their cards at once (a count per face)."""
    contract = judge.contract
    assert contract is not None
    hand = Counter(judge.faces[c] for c in cards)
    jokers = hand.pop(JOKER, 0)
    sets = judge._cheapest(judge._set_groups(hand, 2), contract.sets)
    runs = judge._cheapest(judge._run_groups(hand, 2, extend=2), contract.runs)
    all_points = sum(judge._face_points(f) * n for f, n in hand.items())
    best = float("inf")
    for chosen_sets in combinations(sets, contract.sets):
        for chosen_runs in combinations(runs, contract.runs):
            chosen = chosen_sets + chosen_runs
            used = Counter(f for g in chosen for f in g.uses)
            if any(used[f] > hand[f] for f in used):
                continue
            missing = sorted((m for g in chosen for m in g.missing), reverse=True)
            cost = sum(missing[jokers:])
            cost += judge.point * (all_points - sum(g.points for g in chosen))
            best = min(best, cost)
    if best == float("inf"):
        best = MISSING * 3 * (contract.sets + contract.runs) + judge.point * all_points
    return best


@pytest.mark.parametrize("round_index", range(7))
@pytest.mark.parametrize("use_outs", [False, True])
def test_the_contract_cost_is_the_plain_count(round_index, use_outs):
    rng = random.Random(round_index)
    checked = set()
    for seed in range(4):
        judge = Judge(dealt_view(round_index, seed), use_outs)
        for _ in range(25):
            cards = meldy_hand(judge, rng)
            cost = judge.cost(cards)
            assert cost == counted_cost(judge, cards)
            checked.add(cost)
    assert len(checked) > 10  # the hands were not all alike


def test_groups_kept_from_other_judges_weigh_this_judges_live_copies():
    """A judge finds groups another judge built only where the live copies they were
    weighed by are the same: its costs are those of a judge that kept nothing."""
    rng = random.Random(5)
    views = [dealt_view(4, seed) for seed in range(6)]
    hands = [meldy_hand(Judge(views[0], True), rng) for _ in range(40)]
    shared = [
        [Judge(view, use_outs).cost(h) for h in hands]
        for view in views
        for use_outs in (False, True)
    ]
    objective._groups_kept.clear()
    objective._meld_fits_kept.clear()
    alone = []
    for view in views:
        for use_outs in (False, True):
            objective._groups_kept.clear()
            alone.append([Judge(view, use_outs).cost(h) for h in hands])
    assert shared == alone
    assert len({tuple(costs) for costs in alone}) > 1  # the views weigh hands differently


def test_candidate_melds_answers_a_fresh_list_each_time():
    rules = ruleset("lp")
    deck = objective.composition(rules.deck_size)
    views = (dealt_view(0, seed) for seed in range(50))
    view = next(v for v in views if candidate_melds(v.hand(), deck, rules))
    candidate_melds([], deck, rules)  # (another hand asked in between)
    first = candidate_melds(view.hand(), deck, rules)
    assert first
    first.clear()
    again = candidate_melds(view.hand(), deck, rules)
    assert again
    for candidate in again:  # every one kept as valid is what check_meld says
        check_meld(candidate.kind, candidate.cards, deck, rules)
    shuffled = list(reversed(view.hand()))
    assert candidate_melds(shuffled, deck, rules) == again


def test_a_kept_meld_check_is_the_check_of_its_cards_whatever_the_slots():
    from p2p_rommy.rules.finder import _valid
    from p2p_rommy.rules.melds import MeldKind, Placed

    rules = ruleset("lp")
    deck = objective.composition(rules.deck_size)
    sevens = [i for i, c in enumerate(deck.cards) if c.rank == 7 and c.suit is not None]
    cards = tuple(Placed(slot, card, 7) for slot, card in enumerate(sevens[:3]))
    try:
        check_meld(MeldKind.SET, cards, deck, rules)
        expected = True
    except IllegalMove:
        expected = False
    assert _valid(MeldKind.SET, cards, deck, rules) is expected
    moved = tuple(Placed(p.slot + 50, p.card, p.rank) for p in cards)
    assert _valid(MeldKind.SET, moved, deck, rules) is expected


def plain_suit_runs(judge: Judge, index: int, present: list[bool], lack_most: int, extend: int):
    """The run groups of one suit as the rule reads (issue #31 rewrote `_suit_runs` with
    its lookups hoisted): every stretch of `run_min` to `run_min + extend` ranks whose
    ends the hand holds (a stretch of the minimum length may lack any), missing at
    most `lack_most` cards, each weighed by its live copies."""
    rules = judge.rules
    top = objective.ACE_HIGH if rules.ace_high else objective.KING
    groups = []
    for low in range(objective.ACE, top - rules.run_min + 2):
        have = sum(present[low : low + rules.run_min])
        if have == 0 or rules.run_min - have > lack_most:
            continue
        longest = min(rules.run_min + extend, rules.run_max)
        for high in range(low + rules.run_min - 1, min(low + longest, top + 1)):
            length = high - low + 1
            if length > rules.run_min and not (present[low] and present[high]):
                continue
            lack = [r for r in range(low, high + 1) if not present[r]]
            if len(lack) > lack_most or (lack and length > rules.run_min + 1):
                continue
            if low == objective.ACE and high == objective.ACE_HIGH:
                continue

            def face(rank: int) -> int:
                return objective.face_of(
                    objective.ACE if rank == objective.ACE_HIGH else rank, objective.SUITS[index]
                )

            uses = tuple(face(r) for r in range(low, high + 1) if present[r])
            missing = tuple(judge._miss(judge.outs(face(r))) for r in lack)
            value = sum(objective.card_value(r, rules) for r in range(low, high + 1))
            points = sum(judge._face_points(f) for f in uses)
            groups.append((uses, missing, value, points, (sum(missing), -len(uses))))
    return groups


def plain_rank_sets(judge: Judge, rank: int, faces: list[int], lack_most: int):
    rules = judge.rules
    suits = sorted(faces)[: rules.set_max]
    choices = [tuple(suits)]
    if len(suits) == 4 and rules.set_min == 3:
        choices += list(combinations(suits, 3))
    groups = []
    for chosen in choices:
        lack = max(0, rules.set_min - len(chosen))
        if lack > lack_most:
            continue
        absent = [objective.face_of(rank, s) for s in objective.SUITS]
        outs = sum(judge.outs(f) for f in absent if f not in chosen)
        missing = tuple(judge._miss(outs - i) for i in range(lack))
        value = rules.points(rank) * (len(chosen) + lack)
        points = sum(judge._face_points(f) for f in chosen)
        groups.append((chosen, missing, value, points, (sum(missing), -len(chosen))))
    return groups


def fields(groups) -> list[tuple[object, ...]]:
    return [(g.uses, g.missing, g.value, g.points, g.order) for g in groups]


@pytest.mark.parametrize("variant", ["lp", "romme", "rummy"])
@pytest.mark.parametrize("use_outs", [False, True])
def test_run_and_set_groups_are_built_as_the_rule_reads(variant, use_outs):
    rules = ruleset(variant)
    rng = random.Random(variant)
    state = new_game(rules, 3, 0)
    order = list(range(rules.deck_size))
    rng.shuffle(order)
    view = OpenTable(state).start_round(order).view(0)
    judge = Judge(view, use_outs)
    judge.live = {face: rng.randint(0, 2) for face in judge.live}  # some with no copy left
    built = set()
    for _ in range(300):
        index = rng.randrange(4)
        present = [False] + [rng.random() < 0.4 for _ in range(13)] + [False, False]
        if rules.ace_high and present[objective.ACE]:
            present[objective.ACE_HIGH] = True
        for lack_most, extend in ((1, 13), (2, 2), (2, 3)):
            groups = judge._suit_runs(index, present, lack_most, extend)
            assert fields(groups) == plain_suit_runs(judge, index, present, lack_most, extend)
            built.update(fields(groups))
        rank = rng.randint(1, 13)
        faces = [rank + 16 * s for s in sorted(rng.sample(range(4), rng.randint(1, 4)))]
        for lack_most in (1, 2):
            groups = judge._rank_sets(rank, faces, lack_most)
            assert fields(groups) == plain_rank_sets(judge, rank, faces, lack_most)
            built.update(fields(groups))
    assert len(built) > 100  # (the cases were not all empty or alike)


def test_live_copies_are_the_deck_less_what_the_seat_has_seen():
    """Its own hand, the melds, the discard pile and the faces known in other hands."""
    from p2p_rommy.simulate import play_match, random_players

    rules = ruleset("lp")
    seen_tables = []
    rng = random.Random(3)
    play_match(
        rules,
        random_players(4, rng),
        rng,
        observe=lambda table, move: seen_tables.append(table) if rng.random() < 0.05 else None,
    )
    faces = objective.deck_faces(rules.deck_size)
    checked = 0
    for table in seen_tables:
        state = table.state
        if not state.hands[0]:
            continue
        view = table.view(0)
        seen = [card for _, card in view.hand()]
        seen += [p.card for meld in state.melds for p in meld.cards]
        seen += [state.faces[s] for s in state.discard if state.faces[s] is not None]
        for seat in range(1, 4):
            seen += [state.faces[s] for s in state.hands[seat] if state.faces[s] is not None]
        left = Counter(faces) - Counter(faces[c] for c in seen)
        judge = Judge(view, True)
        assert judge.live == {f: left[f] for f in set(faces)}
        assert judge.unseen == sum(left.values())
        checked += bool(state.melds) and bool(state.discard)
    assert checked > 5
