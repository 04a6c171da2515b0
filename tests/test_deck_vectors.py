"""protocol/vectors/deck.json: byte for byte, and the stored proofs verify."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2p_rommy.deck import group
from p2p_rommy.deck.proofs import (
    DleqProof,
    ProofError,
    SharesContext,
    ShuffleContext,
    round_binding,
    verify_shares,
    verify_shuffle,
)
from p2p_rommy.wire.identity import Identity, open_envelope, roster_of
from tools.deck_vectors import proof_from_json, render

FILE = Path(__file__).parent.parent / "protocol" / "vectors" / "deck.json"
V = json.loads(FILE.read_text())


def h(value: str) -> bytes:
    return bytes.fromhex(value)


def test_file_matches_the_code_byte_for_byte():
    assert FILE.read_text() == render()


def test_stored_shuffle_proof_verifies_and_fails_when_changed():
    game, points = h(V["game"]), [h(p) for p in V["card_points"]["points"]]
    out = [h(p) for p in V["shuffle"]["output"]]
    key = h(V["round_scalar"]["key"])
    proof = proof_from_json(V["shuffle_proof"]["proof"])
    commitments = [h(c) for c in V["shuffle_proof"]["commitments"]]
    binding = round_binding(commitments)
    assert binding == h(V["shuffle_proof"]["binding"])
    context = ShuffleContext(game, V["round"], 0, V["seat"], binding)
    verify_shuffle(context, key, points, out, proof)
    # Fiat-Shamir binding: the same proof for another round's commitments does not verify,
    # so a proof cannot be ground before the round's commitments are all in
    other = ShuffleContext(game, V["round"], 0, V["seat"], round_binding(commitments[::-1]))
    with pytest.raises(ProofError):
        verify_shuffle(other, key, points, out, proof)
    swapped = [out[1], out[0], *out[2:]]
    with pytest.raises(ProofError):
        verify_shuffle(context, key, points, swapped, proof)


def test_stored_shares_proof_verifies():
    s = V["shares"]
    items = tuple((item["position"], item["recipient"]) for item in s["items"])
    context = SharesContext(h(V["game"]), V["round"], s["pass"], s["sender"], items)
    assert context.encode() == h(s["context"])
    key = h(V["round_scalar"]["key"])
    inputs = [h(item["input"]) for item in s["items"]]
    outputs = [h(item["output"]) for item in s["items"]]
    proof = DleqProof(h(s["challenge"]), h(s["response"]))
    verify_shares(context, key, inputs, outputs, proof)
    # one output off by one (plus B): the batched proof no longer verifies
    wrong = [*outputs[:-1], group.add(outputs[-1], group.BASE)]
    with pytest.raises(ProofError):
        verify_shares(context, key, inputs, wrong, proof)


def test_points_are_in_the_group_and_the_key_matches_the_scalar():
    assert all(group.is_point(h(p)) for p in V["card_points"]["points"])
    assert group.mul_base(h(V["round_scalar"]["scalar"])) == h(V["round_scalar"]["key"])
    assert sorted(V["permutation"]["size_52"]) == list(range(52))


def test_stored_envelope_opens():
    identity = V["identity"]
    other = Identity(bytes(32)).public_key
    opened = open_envelope(h(identity["envelope"]), roster_of([other, h(identity["public"])]))
    assert opened.seat == 1 and opened.body == h(identity["commit_body"])
