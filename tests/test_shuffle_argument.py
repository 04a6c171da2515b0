"""Issue #27: the shuffle argument (SPEC §3.5) accepts every honest proof and refuses a
swapped output, a non-permutation, a reused permutation commitment, a wrong scalar on
one card, a proof replayed under another binding or for another deck, and any tampered
element."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_rommy.deck import group, shuffle_argument
from p2p_rommy.deck.derive import permutation_from_stream
from p2p_rommy.deck.proofs import (
    ProofError,
    ShuffleContext,
    ShuffleProof,
    check_shuffle_form,
    forget_verified,
    prove_shuffle,
    shuffle,
    verify_shuffle,
)
from p2p_rommy.wire.entropy import StreamEntropy

CONTEXT = ShuffleContext(bytes(range(32)), 4, 0, 1, bytes(32))


def a_deck(label: bytes, cards: int) -> tuple[bytes, ...]:
    return tuple(group.hash_to_point(label + bytes([i])) for i in range(cards))


def honest(cards: int = 9, label: bytes = b"arg"):
    entropy = StreamEntropy(label)
    inp = a_deck(label, cards)
    scalar = group.scalar_reduce(entropy(64))
    key = group.mul_base(scalar)
    permutation = permutation_from_stream(label, cards)
    out = shuffle(scalar, permutation, inp)
    proof = prove_shuffle(CONTEXT, scalar, key, permutation, inp, out, entropy)
    return scalar, key, permutation, inp, out, proof


def refused(key, inp, out, proof, context=CONTEXT) -> None:
    forget_verified()
    with pytest.raises(ProofError):
        verify_shuffle(context, key, inp, out, proof)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 14), st.binary(min_size=1, max_size=8))
def test_every_honest_proof_verifies(cards, label):
    _, key, _, inp, out, proof = honest(cards, label)
    forget_verified()
    verify_shuffle(CONTEXT, key, inp, out, proof)


def test_a_swapped_output_is_refused():
    _, key, _, inp, out, proof = honest()
    refused(key, inp, (out[1], out[0], *out[2:]), proof)


def test_a_wrong_scalar_on_one_card_is_refused_even_when_proven_as_best_one_can():
    scalar, key, permutation, inp, out, _ = honest()
    bad = list(out)
    bad[4] = group.mul(group.scalar_from_int(2), bad[4])
    proof = prove_shuffle(CONTEXT, scalar, key, permutation, inp, bad, StreamEntropy(b"x"))
    refused(key, inp, tuple(bad), proof)


def test_another_scalar_than_the_key_s_is_refused():
    _, key, permutation, inp, _, _ = honest()
    other = group.scalar_from_int(12345)
    out = shuffle(other, permutation, inp)
    proof = prove_shuffle(CONTEXT, other, key, permutation, inp, out, StreamEntropy(b"k"))
    refused(key, inp, out, proof)


def test_a_non_permutation_is_refused_by_the_argument_itself():
    # the same input twice (the form check refuses the duplicate too; this is the
    # argument's own refusal, without it)
    scalar, key, _, inp, _, _ = honest()
    mapping = (0, 0, *range(2, len(inp)))
    out = shuffle(scalar, mapping, inp)
    commitment = shuffle_argument.commit_permutation(mapping, StreamEntropy(b"n"))
    decoded, decoded_out = group.decode_all(inp), group.decode_all(out)
    context = CONTEXT.encode()
    proof = shuffle_argument.prove(
        context, scalar, key, commitment, decoded, inp, out, StreamEntropy(b"m")
    )
    with pytest.raises(shuffle_argument.ArgumentError):
        shuffle_argument.verify(context, key, decoded, inp, decoded_out, out, proof)


def test_a_permutation_commitment_reused_from_another_proof_is_refused():
    _, key, _, inp, out, proof = honest()
    _, _, _, _, _, other = honest(label=b"another")
    refused(key, inp, out, dataclasses.replace(proof, u=other.u))


@pytest.mark.parametrize(
    "context",
    [
        dataclasses.replace(CONTEXT, binding=b"\x01" * 32),
        dataclasses.replace(CONTEXT, seat=2),
        dataclasses.replace(CONTEXT, shuffle_pass=1),
        dataclasses.replace(CONTEXT, round_no=5),
        dataclasses.replace(CONTEXT, game=bytes(32)),
    ],
    ids=["binding", "seat", "pass", "round", "game"],
)
def test_a_proof_replayed_under_another_context_is_refused(context):
    _, key, _, inp, out, proof = honest()
    refused(key, inp, out, proof, context)


def test_a_proof_replayed_for_another_deck_is_refused():
    scalar, key, permutation, inp, _, proof = honest()
    other = a_deck(b"other deck", len(inp))
    refused(key, other, shuffle(scalar, permutation, other), proof)


def _tampered(value, scalar: bool):
    """Another valid value of the same kind: a point doubled, a scalar plus one (points
    and scalars are both 32 bytes: the field's name says which, ``k_*`` are scalars)."""
    if isinstance(value, tuple):
        return (_tampered(value[0], scalar), *value[1:])
    if not scalar:
        return group.add(group.decode(value), group.decode(value))
    return group.scalar_from_int(int.from_bytes(value, "little") + 1)


@pytest.mark.parametrize("name", list(ShuffleProof.__dataclass_fields__))
def test_a_tampered_proof_element_is_refused(name):
    _, key, _, inp, out, proof = honest()
    forged = dataclasses.replace(
        proof, **{name: _tampered(getattr(proof, name), name.startswith("k_"))}
    )
    refused(key, inp, out, forged)


def test_a_proof_of_the_wrong_shape_fails_its_form_check():
    _, _, _, inp, out, proof = honest()
    with pytest.raises(ProofError, match="items"):
        check_shuffle_form(len(inp), out, dataclasses.replace(proof, k_e=proof.k_e[:-1]))
    with pytest.raises(ProofError, match="scalar"):
        check_shuffle_form(len(inp), out, dataclasses.replace(proof, k_s=bytes(32)))


def _last_tampered(value, scalar: bool):
    """The last item of a list changed (the chain's last link is in two equations)."""
    return (*value[:-1], _tampered(value[-1], scalar))


@pytest.mark.parametrize("name", ["u", "b", "k_e"])
def test_a_tampered_last_item_of_a_list_is_refused(name):
    _, key, _, inp, out, proof = honest()
    forged = dataclasses.replace(
        proof, **{name: _last_tampered(getattr(proof, name), name.startswith("k_"))}
    )
    refused(key, inp, out, forged)


_ORDER_TWO = (2**255 - 19 - 1).to_bytes(32, "little")
"""(0, -1), the point of order 2: on the curve, not in the prime-order group."""


def _off_the_group(point: bytes) -> bytes:
    """`point` plus the point of order 2: a point of the curve that is no group element
    (libsodium's addition checks only the curve), which only a full point check refuses."""
    from nacl import bindings as sodium

    off = sodium.crypto_core_ed25519_add(point, _ORDER_TWO)
    assert not group.is_point(off)
    return off


@pytest.mark.parametrize("name", ["u", "b", "a_t", "b_t", "c_t", "d_t", "f_t", "e_t"])
@pytest.mark.parametrize("where", [0, -1])
def test_a_point_outside_the_group_is_refused_wherever_it_is(name, where):
    """The verifier leaves each point's check to the multiplication that uses it (SPEC
    §3.5 allows it): every point still meets one, or a computed point it must equal."""
    _, key, _, inp, out, proof = honest()
    value = getattr(proof, name)
    if isinstance(value, tuple):
        items = list(value)
        items[where] = _off_the_group(items[where])
        value = tuple(items)
    else:
        value = _off_the_group(value)
    refused(key, inp, out, dataclasses.replace(proof, **{name: value}))


def test_a_shuffled_card_outside_the_group_is_named_as_such():
    _, key, _, inp, out, proof = honest()
    bad = (*out[:4], _off_the_group(out[4]), *out[5:])
    forget_verified()
    with pytest.raises(ProofError, match="card 4 of the shuffled deck is not a valid group point"):
        verify_shuffle(CONTEXT, key, inp, bad, proof)
