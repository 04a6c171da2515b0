"""The canonical state encoding and hash match protocol/vectors/state-hash.json byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2p_rommy.engine import apply, encode_state, new_game, state_hash
from p2p_rommy.log.move_codec import decode_move
from p2p_rommy.rules import ruleset

VECTORS = json.loads(
    (Path(__file__).parent.parent / "protocol" / "vectors" / "state-hash.json").read_text()
)


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda case: case["name"])
def test_state_vector(case):
    state = new_game(ruleset(case["variant"], case["house"]), case["players"], case["first_dealer"])
    for move in case["moves"]:  # SPEC §4.5 wire form
        state = apply(state, decode_move(move))
    assert encode_state(state).hex() == case["encoding"]
    assert state_hash(state).hex() == case["state_hash"]


def test_hash_changes_with_any_public_field():
    from dataclasses import replace

    state = new_game(ruleset("lp"), 4)
    assert state_hash(state) != state_hash(replace(state, scores=(0, 0, 0, 1)))
    assert state_hash(state) != state_hash(new_game(ruleset("lp", {"max_buys": 1}), 4))
