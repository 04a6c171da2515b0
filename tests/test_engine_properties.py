"""Random legal play to the end of a match, checking invariants after every move.

Hypothesis picks the variant, the player count, house rules and the seed; the
match is played by random-legal players through `play_match`, whose `observe`
hook sees every state.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_rommy.engine import Discard, GameState, Phase, StartRound, apply, encode_state
from p2p_rommy.engine.table import OpenTable
from p2p_rommy.errors import IllegalMove
from p2p_rommy.rules import ruleset
from p2p_rommy.simulate import play_match, random_players

PLAYERS = {"lp": (3, 5), "rummy": (2, 6), "romme": (2, 6)}

HOUSE_CHOICES = {
    "lp": {
        "build_in_opening_turn": [False, True],
        "joker_swap": [True, False],
        "empty_stock": ["shuffle", "turn_over"],
        "max_buys": [None, 0, 1, 3],
        "new_melds_after_opening": [True, False],
        "open_players_may_buy": [True, False],
        "buy_priority": ["first", "seat", "lot"],
        "swapped_joker_must_be_played": [False, True],
        "no_adjacent_jokers": [False, True],
        "jokers_not_more_than_naturals": [False, True],
    },
    "rummy": {
        "target_score": [100, 60],
        "empty_stock": ["turn_over", "shuffle"],
        "one_new_meld_per_turn": [False, True],
        "going_out_at_once_doubles": [False, True],
    },
    "romme": {
        "joker_penalty": [20, 25, 30],
        "opening_naturals_only": [False, True],
        "winner_bonus": [0, 10],
        "never_melded_doubles": [False, True],
        "target_score": [500, 300],
        "fixed_deals": [0, 3],
        "joker_swap": [False, True],
        "empty_stock": ["shuffle", "turn_over"],
    },
}


@st.composite
def games(draw, variant: str):
    low, high = PLAYERS[variant]
    players = draw(st.integers(low, high))
    house = {key: draw(st.sampled_from(values)) for key, values in HOUSE_CHOICES[variant].items()}
    seed = draw(st.integers(0, 2**32 - 1))
    return players, house, seed


class Invariants:
    """Checks one match's states as they come; keeps what it needs across moves."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.seen_public: set[int] = set()
        self.moves = 0

    def __call__(self, table: OpenTable, move) -> None:
        state = table.state
        self.moves += 1
        if isinstance(move, StartRound):
            self.seen_public = set()
        if state.phase in (Phase.DRAW, Phase.BUY, Phase.PLAY, Phase.REVEAL):
            self.check_places(table)
            self.check_faces(table)
        self.check_scores(state)
        if isinstance(move, Discard) and state.phase is Phase.DRAW:
            assert state.turn == (move.seat + 1) % self.players, "turn order"

    def check_places(self, table: OpenTable) -> None:
        state = table.state
        places = [
            *state.stock,
            *state.discard,
            *state.retired,
            *(slot for hand in state.hands for slot in hand),
            *(slot for meld in state.melds for slot in meld.slots),
        ]
        assert sorted(places) == list(range(len(state.faces))), "every slot in exactly one place"
        assert len(table.truth) == len(state.faces)
        live = set(places) - set(state.retired)
        assert len(live) == state.rules.deck_size, "live slots are one deck"
        assert sorted(table.truth[slot] for slot in live) == list(range(state.rules.deck_size))

    def check_faces(self, table: OpenTable) -> None:
        state = table.state
        for slot in [*state.discard, *(s for meld in state.melds for s in meld.slots)]:
            assert state.faces[slot] is not None, "table cards are face up"
            self.seen_public.add(slot)
        for slot, face in enumerate(state.faces):
            if face is not None:
                assert face == table.truth[slot], "a public face is the true face"
        turned_over = state.rules.empty_stock == "turn_over"
        for slot in state.stock:
            if state.faces[slot] is not None:
                assert turned_over and slot in self.seen_public, "a stock card's face leaked"
        for seat, hand in enumerate(state.hands):
            for slot in hand:
                if state.faces[slot] is not None and state.phase is not Phase.REVEAL:
                    assert slot in self.seen_public, "hand face leaked"
            view = table.view(seat)
            assert set(view.private) <= set(hand), "a view holds another seat's card"
            for other in range(self.players):
                if other != seat:
                    assert not set(view.private) & set(state.hands[other])

    def check_scores(self, state: GameState) -> None:
        columns = [sum(r[seat] for r in state.round_scores) for seat in range(self.players)]
        assert tuple(columns) == state.scores, "scores add up"


def play_and_check(variant: str, players: int, house, seed: int) -> GameState:
    rules = ruleset(variant, house)
    rng = random.Random(seed)
    invariants = Invariants(players)
    result = play_match(rules, random_players(players, rng), rng, seed % players, invariants)
    final = result.final
    assert final.phase is Phase.MATCH_OVER
    if rules.rounds is not None:
        assert len(final.round_scores) == rules.rounds
    else:
        assert any(total >= rules.target_score for total in final.scores)
    return final


SETTINGS = settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


@pytest.mark.parametrize("variant", ["lp", "rummy", "romme"])
def test_random_legal_matches_keep_every_invariant(variant):
    @SETTINGS
    @given(games(variant))
    def run(game):
        players, house, seed = game
        play_and_check(variant, players, house, seed)

    run()


@pytest.mark.parametrize(
    ("variant", "players"),
    [("lp", 3), ("lp", 5), ("rummy", 2), ("rummy", 6), ("romme", 2), ("romme", 6)],
)
def test_every_player_count_finishes_with_defaults(variant, players):
    play_and_check(variant, players, {}, seed=players)


def test_a_refused_move_changes_nothing():
    # engine contract: IllegalMove leaves the state as it was (and the state is frozen)
    rules = ruleset("lp")
    rng = random.Random(3)
    refused = 0

    def poke(table: OpenTable, move) -> None:
        nonlocal refused
        state = table.state
        if state.phase is not Phase.PLAY:
            return
        before = encode_state(state)
        wrong_seat = (state.turn + 1) % state.players
        slot = state.hands[wrong_seat][0]
        with pytest.raises(IllegalMove):
            apply(state, Discard(wrong_seat, slot, table.truth[slot]))
        refused += 1
        assert encode_state(state) == before

    play_match(rules, random_players(3, rng), rng, 0, poke)
    assert refused > 100


def test_same_seed_same_match():
    def final(seed):
        rng = random.Random(seed)
        return play_match(ruleset("romme"), random_players(4, rng), rng).final

    assert encode_state(final(11)) == encode_state(final(11))
    assert encode_state(final(11)) != encode_state(final(12))
