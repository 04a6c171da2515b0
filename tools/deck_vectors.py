"""Known-answer vectors for protocol/vectors/deck.json.

``python tools/vectors.py`` writes them (with the other vector files); the
tests check the file byte for byte against this code and verify the stored proofs
with the verifier, so a second implementation can test itself against the file.
Randomness comes from `StreamEntropy`: SHAKE-256 of a label and a counter.
"""

from __future__ import annotations

import hashlib
import json

from p2p_rommy.deck import group
from p2p_rommy.deck.derive import Seed, card_points, commitment, round_permutation, round_scalar
from p2p_rommy.deck.messages import Commit, encode
from p2p_rommy.deck.proofs import (
    SharesContext,
    ShuffleContext,
    ShuffleProof,
    prove_shares,
    prove_shuffle,
    round_binding,
    share_weights,
    shuffle,
)
from p2p_rommy.wire.entropy import StreamEntropy
from p2p_rommy.wire.identity import Identity

GAME = hashlib.sha256(b"p2p-rommy test vector game").digest()
ROUND = 3
SEAT = 2
SEED = Seed(bytes(range(32)))
CARDS = 8
BINDING_COMMITMENTS = [bytes([s]) * 32 for s in range(3)]
"""Stand-in seed commitments of seats 0-2 for the shuffle proof's round binding."""


def proof_json(proof: ShuffleProof) -> dict[str, object]:
    """The proof's fields by their SPEC §3.5 names, points and scalars in hex."""
    fields: dict[str, object] = {}
    for name in ShuffleProof.__dataclass_fields__:
        value = getattr(proof, name)
        fields[name] = value.hex() if isinstance(value, bytes) else [v.hex() for v in value]
    return fields


def proof_from_json(fields: dict[str, object]) -> ShuffleProof:
    def value(item: object) -> bytes | tuple[bytes, ...]:
        if isinstance(item, str):
            return bytes.fromhex(item)
        assert isinstance(item, list)
        return tuple(bytes.fromhex(v) for v in item)

    return ShuffleProof(*(value(fields[name]) for name in ShuffleProof.__dataclass_fields__))


def build_vectors() -> dict[str, object]:
    points = card_points(GAME, ROUND, 0, CARDS)
    scalar = round_scalar(GAME, ROUND, SEAT, 0, SEED)
    key = group.mul_base(scalar)
    permutation = round_permutation(GAME, ROUND, SEAT, 0, CARDS, SEED)
    deck = shuffle(scalar, permutation, points)
    binding = round_binding(BINDING_COMMITMENTS)
    shuffle_context = ShuffleContext(GAME, ROUND, 0, SEAT, binding)
    proof = prove_shuffle(
        shuffle_context,
        scalar,
        key,
        permutation,
        points,
        deck,
        StreamEntropy(b"shuffle proof"),
    )
    shared = ((5, 1), (7, 1), (2, 255))
    shares_context = SharesContext(GAME, ROUND, 0, SEAT, shared)
    inverse = group.scalar_invert(scalar)
    share_inputs = [deck[position] for position, _ in shared]
    share_outputs = [bytes(group.mul(inverse, x)) for x in share_inputs]
    dleq = prove_shares(
        shares_context, scalar, key, share_inputs, share_outputs, StreamEntropy(b"share proof")
    )
    seed, weights = share_weights(shares_context, key, share_inputs, share_outputs)
    combined_out = group.mul_sum(weights, [group.decode(p) for p in share_outputs])
    combined_in = group.mul_sum(weights, [group.decode(p) for p in share_inputs])
    identity = Identity(bytes(range(100, 132)))
    commit = Commit(GAME, ROUND, SEAT, commitment(GAME, ROUND, SEAT, SEED), key)
    return {
        "description": "Deck protocol vectors (protocol/SPEC.md section 3). Hex everywhere.",
        "game": GAME.hex(),
        "round": ROUND,
        "seat": SEAT,
        "seed": SEED.value.hex(),
        "card_points": {"pass": 0, "points": [p.hex() for p in points]},
        "rebuild_card_points": {
            "pass": 1,
            "points": [p.hex() for p in card_points(GAME, ROUND, 1, 3)],
        },
        "commitment": commitment(GAME, ROUND, SEAT, SEED).hex(),
        "round_scalar": {
            "pass": 0,
            "scalar": scalar.hex(),
            "key": key.hex(),
            "pass1_scalar": round_scalar(GAME, ROUND, SEAT, 1, SEED).hex(),
        },
        "permutation": {
            "pass": 0,
            "size": CARDS,
            "permutation": list(permutation),
            "size_52": list(round_permutation(GAME, ROUND, SEAT, 0, 52, SEED)),
        },
        "shuffle": {"input": "card_points", "output": [p.hex() for p in deck]},
        "shuffle_proof": {
            "entropy_label": "shuffle proof",
            "commitments": [c.hex() for c in BINDING_COMMITMENTS],
            "binding": binding.hex(),
            "proof": proof_json(proof),
        },
        "shares": {
            "sender": SEAT,
            "pass": 0,
            "items": [
                {"position": position, "recipient": recipient, "input": x.hex(), "output": o.hex()}
                for (position, recipient), x, o in zip(
                    shared, share_inputs, share_outputs, strict=True
                )
            ],
            "context": shares_context.encode().hex(),
            "seed": seed.hex(),
            "weights": [w.hex() for w in weights],
            "combined_output": combined_out.hex(),
            "combined_input": combined_in.hex(),
            "challenge": dleq.challenge.hex(),
            "response": dleq.response.hex(),
            "entropy_label": "share proof",
        },
        "identity": {
            "private": identity.private_bytes.hex(),
            "public": identity.public_key.hex(),
            "key_id": identity.key_id.hex(),
            "commit_body": encode(commit).hex(),
            "envelope": identity.sign(encode(commit)).hex(),
        },
    }


def render() -> str:
    return json.dumps(build_vectors(), indent=1) + "\n"


if __name__ == "__main__":
    print(render(), end="")
