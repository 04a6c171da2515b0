"""Spec issue: protocol/vectors/messages.json re-derived from the SPEC's rules with tools
that are not the code under test — msgpack for the one encoding (§1), `cryptography`
for Ed25519 (§3.9), hashlib for the coin, the game id and the short code (§4.1, §4.2),
zlib for the transcript's CRC (§4.8) — then accepted by the project's decoders. A test
lists every message kind the decoders know and fails if one has no vector, and the
vectors are what `tools/vectors.py` writes."""

from __future__ import annotations

import hashlib
import json
import zlib
from pathlib import Path

import msgpack
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

ROOT = Path(__file__).parent.parent
V = json.loads((ROOT / "protocol" / "vectors" / "messages.json").read_text())
ENVELOPE_DOMAIN = b"p2p-rommy/v1/envelope\x00"
KEY_ID_DOMAIN = b"p2p-rommy/v1/key-id\x00"
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

KEY_ORDER = {  # the order SPEC §3.7 and §4 list each map's keys in (kind first)
    "hello": ["kind", "table", "nonce", "key", "version"],
    "auth": ["kind", "signature"],
    "config": [
        "kind",
        "version",
        "table",
        "variant",
        "house",
        "seats",
        "first_dealer",
        "nonce",
    ],
    "lobby/join": ["kind", "lobby", "name", "addresses"],
    "lobby/state": [
        "kind",
        "lobby",
        "table",
        "variant",
        "house",
        "seats",
        "open",
        "members",
    ],
    "lobby/begin": ["kind", "lobby", "members"],
    "lobby/relay": ["kind", "lobby", "stage", "items"],
    "coin/commit": ["kind", "lobby", "digest"],
    "coin/reveal": ["kind", "lobby", "value"],
    "log/step": ["kind", "game", "n", "seat", "prev", "body"],
    "log/ack": ["kind", "game", "n", "seat", "step", "state"],
    "log/nack": ["kind", "game", "n", "seat", "reason"],
    "log/sync": ["kind", "game", "seat", "n", "ask"],
    "chat/say": ["kind", "game", "seat", "text"],
    "buy/answer": ["kind", "game", "window", "seat", "claim"],
}


def canonical(data: bytes) -> object:
    """Decode, and insist the bytes are the one encoding of what they hold (§1)."""
    value = msgpack.unpackb(data, raw=False, strict_map_key=True)
    assert msgpack.packb(value, use_bin_type=True) == data, "not the canonical encoding"
    return value


def opened(envelope_hex: str, key_hex: str) -> dict:
    """§3.9: ["env1", key id, body, signature over the domain and the body]."""
    envelope, key = bytes.fromhex(envelope_hex), bytes.fromhex(key_hex)
    version, key_id, body, signature = canonical(envelope)
    assert version == "env1"
    assert key_id == hashlib.sha256(KEY_ID_DOMAIN + key).digest()[:16]
    Ed25519PublicKey.from_public_bytes(key).verify(signature, ENVELOPE_DOMAIN + body)
    value = canonical(body)
    if isinstance(value, dict):
        order = KEY_ORDER.get(value["kind"], ["kind"])
        assert list(value)[: len(order)] == order, (value["kind"], list(value))
    return {"body": body, "value": value}


NAMED = [v for group in ("lobby", "log") for v in V[group]]


@pytest.mark.parametrize("vector", NAMED, ids=lambda v: v["kind"])
def test_every_kind_is_signed_canonical_and_in_spec_key_order(vector):
    opened(vector["envelope"], vector["signer_key"])


def test_every_envelope_of_a_whole_round_is_signed_and_canonical():
    """§3.3 and §4.4: the first round of a 3-seat Rummy game, 52 cards, every message."""
    keys = V["round"]["keys"]
    kinds = [
        opened(envelope, keys[sender])["value"]["kind"]
        for sender, envelope in V["round"]["envelopes"]
    ]
    assert {"log/step", "log/ack"} <= set(kinds) and len(kinds) > 100


def test_the_handshake():
    hello, auth = V["handshake"]
    value = canonical(bytes.fromhex(hello["body"]))
    assert list(value) == KEY_ORDER["hello"] and value["version"] == V["protocol_version"]
    signature = canonical(bytes.fromhex(auth["body"]))["signature"]
    signed = (
        b"p2p-rommy/v1/handshake\x00"
        + bytes.fromhex(auth["table"])
        + bytes.fromhex(auth["signer_nonce"])
        + bytes.fromhex(auth["other_nonce"])
        + bytes.fromhex(auth["signer_key"])
        + bytes.fromhex(auth["other_key"])
    )
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(auth["signer_key"])).verify(signature, signed)


def test_the_coin_seats_the_players_and_names_the_game():
    """§4.2's coin and §4.1's game id and short code, from the members' revealed values."""
    coin_vector = V["coin"]
    lobby = bytes.fromhex(coin_vector["lobby"])
    values = [bytes.fromhex(v) for v in coin_vector["coin_values"]]
    members = [bytes.fromhex(k) for k in coin_vector["members"]]
    coin = hashlib.sha256(b"p2p-rommy/v1/coin\x00" + lobby + b"".join(values)).digest()
    seats = sorted(members, key=lambda key: hashlib.sha256(coin + key).digest())
    assert [k.hex() for k in seats] == coin_vector["seat_keys"]
    dealer = int.from_bytes(hashlib.sha256(coin + b"dealer").digest()[:8], "big") % len(members)
    assert dealer == coin_vector["first_dealer"] and coin[:16].hex() == coin_vector["nonce"]
    config = bytes.fromhex(coin_vector["config"])
    value = canonical(config)
    assert list(value) == KEY_ORDER["config"]
    assert [s[1].hex() for s in value["seats"]] == coin_vector["seat_keys"]
    game_id = hashlib.sha256(b"p2p-rommy/v1/game-id\x00" + config).digest()
    assert game_id.hex() == coin_vector["game_id"]
    x = int.from_bytes(game_id[:8], "big")
    assert "".join(ALPHABET[(x >> (5 * i)) & 31] for i in range(6)) == coin_vector["short_code"]
    # every member's commitment opens to its value, and the relays carry them in order
    reveals = [v for v in V["lobby"] if v["kind"] == "coin/reveal"]
    for reveal in reveals:
        body = opened(reveal["envelope"], reveal["signer_key"])["value"]
        assert body["value"] in values


def test_the_transcript_file_format():
    """§4.8: the magic line, then frames u32 length || payload || u32 CRC-32 (zlib's): the
    genesis, then the records (tests/test_spec_vectors.py runs it through `rommy verify`)."""
    data = bytes.fromhex(V["round"]["transcript"])
    magic = b"P2P-ROMMY TRANSCRIPT 1\n"
    assert data.startswith(magic)
    rest, frames = data[len(magic) :], []
    while rest:
        size = int.from_bytes(rest[:4], "big")
        payload, crc = rest[4 : 4 + size], rest[4 + size : 8 + size]
        assert int.from_bytes(crc, "big") == zlib.crc32(payload)
        frames.append(canonical(payload))
        rest = rest[8 + size :]
    assert len(frames) == 4, "the genesis and the first three records"
    config, signatures = frames[0]  # §4.8: the genesis first (§4.1)
    assert config == bytes.fromhex(V["round"]["config"]) and len(signatures) == 3
    for seat, envelope in enumerate(signatures):
        assert opened(envelope.hex(), V["round"]["keys"][seat])["body"] == config
    step, acks = frames[1]
    assert canonical(step)[0] == "env1" and len(acks) == 3


def kinds_the_decoders_know() -> set[str]:
    from p2p_rommy.deck import messages as deck_messages
    from p2p_rommy.lobby import messages as lobby_messages
    from p2p_rommy.log import messages as log_messages

    kinds = {f"log/step:{kind}" for kind in log_messages._BODIES}
    kinds |= {kind for kind in log_messages._SCHEMAS if kind != "log/step"}
    kinds |= set(deck_messages._SCHEMAS)
    lobby_schemas = [v for v in vars(lobby_messages).values() if type(v).__name__ == "Schema"]
    kinds |= {schema.kind for schema in lobby_schemas}
    kinds |= {"hello", "auth", "config"}
    return kinds


def test_every_message_kind_has_a_vector():
    have = {
        v["kind"].split(":")[0] if v["kind"].startswith("lobby/relay") else v["kind"]
        for group in ("handshake", "lobby", "log")
        for v in V[group]
    }
    keys = V["round"]["keys"]
    for sender, envelope in V["round"]["envelopes"]:
        body = opened(envelope, keys[sender])["value"]
        if body["kind"] == "log/step" and body["body"]["kind"] == "deck":
            inner = canonical(body["body"]["envelope"])
            have.add(canonical(inner[2])["kind"])
    missing = kinds_the_decoders_know() - have
    assert not missing, f"no vector for {sorted(missing)}"


def test_the_vectors_are_what_the_tool_writes():
    """`python tools/vectors.py` regenerates the same bytes in every vector file
    (messages, deck, state hash): everything is seeded."""
    from tools import vectors

    for path, text in vectors.rendered().items():
        assert path.read_text() == text, f"{path.name} is not what tools/vectors.py writes"


def test_a_whole_round_re_derived_from_the_spec():
    """§3.2-§3.8 and §4.4 from the SPEC alone (`tests/spec_deck.py`): every deck message
    of a whole round — commitments, the deal's shuffles, a rebuilt stock's shuffle pass,
    shares to seats and to everyone, the seeds — checked as a bystander would, the audit
    redone from the seeds, every public face matched to the card the layers hide, and
    every seat's ACK of every step re-derived as the log-state hash of the engine state
    hash and the two deck transcript contexts (v6: the round's deck, then the next
    round's, shuffled in the background during the round and dropped at the match's end,
    §3.3)."""
    from tests.spec_deck import DeckRound

    play = V["round"]
    config_bytes = bytes.fromhex(play["config"])
    config = canonical(config_bytes)
    game = hashlib.sha256(b"p2p-rommy/v1/game-id\x00" + config_bytes).digest()
    players, keys = len(config["seats"]), play["keys"]
    steps: dict[int, dict] = {}
    digests: dict[int, bytes] = {}
    acks: dict[int, dict[int, bytes]] = {}
    for sender, envelope in play["envelopes"]:
        message = opened(envelope, keys[sender])
        value = message["value"]
        assert value["seat"] == sender and value["game"] == game
        if value["kind"] == "log/step":
            assert steps.setdefault(value["n"], value) == value
            # §4.4 (v5): what an ACK binds of the step it acknowledges
            digests[value["n"]] = hashlib.sha256(
                b"p2p-rommy/v5/step\x00" + message["body"]
            ).digest()
        elif value["kind"] == "log/ack":
            assert value["step"] == digests[value["n"]], "an ACK not of the step it follows"
            acks.setdefault(value["n"], {})[sender] = value["state"]
    assert sorted(steps) == list(range(1, len(steps) + 1))
    assert len(play["engine_hashes"]) == len(steps)

    def log_state(n: int, context: bytes, settled: bool = False) -> bytes:
        """`context`: both decks' contexts, 64 bytes (§4.4, since v6)."""
        engine_hash = bytes.fromhex(play["engine_hashes"][n - 1])
        if settled and str(n) in play["settled_hashes"]:  # after the derived `start`
            engine_hash = bytes.fromhex(play["settled_hashes"][str(n)])
        return hashlib.sha256(
            b"p2p-rommy/v1/log-state\x00" + game + n.to_bytes(8, "big") + engine_hash + context
        ).digest()

    decks: dict[int, DeckRound] = {}
    dropped: set[int] = set()
    """Rounds whose deck the match's end dropped (§3.3)."""

    def contexts(rounds: list[int]) -> bytes:
        """The round's deck's context, then the next round's (§4.4)."""
        first = decks[rounds[0]].context if rounds else bytes(32)
        return first + (decks[rounds[1]].context if len(rounds) > 1 else bytes(32))

    before = settled = None
    for n in sorted(steps):
        step, body = steps[n], steps[n]["body"]
        if settled is not None:
            assert step["prev"] == settled, f"step {n}: prev is not the state hash before it"
        inner = body.get("envelope") if body["kind"] == "deck" else body.get("reveal")
        if inner is not None:
            message = opened(inner.hex(), keys[step["seat"]])
            value = message["value"]
            recycled = play["recycled"] if value["round"] == 0 else []
            deck = decks.setdefault(
                value["round"], DeckRound(game, value["round"], players, recycled)
            )
            deck.take(value["kind"], step["seat"], message["body"], value)
        # the ACKs hash the contexts as the step leaves them (a seed does not change
        # one); the committed state closes a round whose last seed is in, and the
        # vector's match is one round: then the next round's deck is dropped (§3.3)
        touched = decks[value["round"]] if inner is not None else None
        open_rounds = sorted(r for r, d in decks.items() if not d.done and r not in dropped)
        if touched is not None and touched.done:
            acked_context = contexts([touched.round_no, *open_rounds])
            dropped.update(open_rounds)
            open_rounds = []
        else:
            acked_context = contexts(open_rounds)
        context = contexts(open_rounds)
        before, settled = log_state(n, acked_context), log_state(n, context, settled=True)
        assert len(acks[n]) == players
        for seat, state in acks[n].items():
            assert state == before, f"step {n}: seat {seat}'s ACK is not the log-state hash"
    assert settled.hex() == play["state_hash"]

    final = bytes.fromhex(play["final_state"])
    engine_hash = hashlib.sha256(b"p2p-rommy/v1/state-hash\x00" + final).digest()
    assert engine_hash.hex() == play["engine_hashes"][-1]
    faces = canonical(final)[9]
    assert sorted(decks) == [0, 1] and dropped == {1}, "no deck shuffled in the background"
    assert decks[1].passes and decks[1].passes[0].shuffles, "round 1's deck was not shuffled"
    deck = decks[0]
    cards = deck.audit()
    shown = {slot: face for slot, face in enumerate(faces) if face is not None}
    assert shown and all(cards[slot] == face for slot, face in shown.items())
    rebuilt = deck.passes[1]
    assert len(deck.passes) == 2 and rebuilt.size == len(play["recycled"][0])
    assert any(rebuilt.base <= slot for slot in deck.public), "no share to everyone in pass 1"


def canonical_k_s(data: bytes) -> int:
    return int.from_bytes(data, "big")


def test_the_deck_vectors_re_derived_from_the_spec():
    """deck.json (§3.2-§3.5) from its inputs with `tests/spec_deck.py`, not the code
    under test: card points of the deal and of a rebuild pass, the commitment, the round
    scalar and key of passes 0 and 1, the permutations, the shuffle and both proofs."""
    from tests import spec_deck as spec

    deck = json.loads((ROOT / "protocol" / "vectors" / "deck.json").read_text())
    h = bytes.fromhex
    game, round_no, seat, seed = h(deck["game"]), deck["round"], deck["seat"], h(deck["seed"])
    points = [
        spec.card_point(game, round_no, 0, i) for i in range(len(deck["card_points"]["points"]))
    ]
    assert [p.hex() for p in points] == deck["card_points"]["points"]
    rebuild = deck["rebuild_card_points"]["points"]
    assert [spec.card_point(game, round_no, 1, i).hex() for i in range(len(rebuild))] == rebuild
    assert spec.commitment(game, round_no, seat, seed).hex() == deck["commitment"]
    e = spec.round_scalar(game, round_no, seat, 0, seed)
    assert spec.scalar(e).hex() == deck["round_scalar"]["scalar"]
    assert spec.mul_base(e).hex() == deck["round_scalar"]["key"]
    e1 = spec.round_scalar(game, round_no, seat, 1, seed)
    assert spec.scalar(e1).hex() == deck["round_scalar"]["pass1_scalar"]
    pi = spec.permutation(game, round_no, seat, 0, len(points), seed)
    assert pi == deck["permutation"]["permutation"]
    assert spec.permutation(game, round_no, seat, 0, 52, seed) == deck["permutation"]["size_52"]
    out = [spec.mul(e, points[pi[k]]) for k in range(len(points))]
    assert [p.hex() for p in out] == deck["shuffle"]["output"]

    proof = deck["shuffle_proof"]
    binding = hashlib.sha256(
        b"p2p-rommy/v1/round-binding\x00" + b"".join(h(c) for c in proof["commitments"])
    ).digest()
    assert binding.hex() == proof["binding"]
    key = h(deck["round_scalar"]["key"])
    stored = [
        h(value) if isinstance(value, str) else [h(item) for item in value]
        for value in (proof["proof"][name] for name in spec.SHUFFLE_PROOF_FIELDS)
    ]
    # the proof itself, re-made from its entropy stream (§3 intro) by the SPEC's prover
    label, draws = proof["entropy_label"].encode(), iter(range(1, 1 << 20))
    context = spec.shuffle_context(game, round_no, 0, seat, binding)

    def draw() -> bytes:
        return hashlib.shake_256(label + next(draws).to_bytes(8, "big")).digest(64)

    assert spec.prove_shuffle(context, e, pi, points, draw) == stored
    spec.verify_shuffle(game, round_no, 0, seat, binding, key, points, out, stored)
    refused = [  # another seat's proof, two cards swapped, a wrong scalar on one card
        (1, out, stored),
        (seat, [out[1], out[0], *out[2:]], stored),
        (seat, [spec.mul(2, out[0]), *out[1:]], stored),
        (seat, out, [*stored[:13], spec.scalar(canonical_k_s(stored[13]) + 1)]),
    ]
    for who, deck_out, answer in refused:
        with pytest.raises(AssertionError):
            spec.verify_shuffle(game, round_no, 0, who, binding, key, points, deck_out, answer)

    shares = deck["shares"]
    items = [(item["position"], item["recipient"]) for item in shares["items"]]
    context = spec.shares_context(game, round_no, shares["pass"], shares["sender"], items)
    assert context == h(shares["context"])
    xs = [h(item["input"]) for item in shares["items"]]
    stripped = [h(item["output"]) for item in shares["items"]]
    assert xs == [out[position] for position, _ in items]
    assert stripped == [spec.mul(pow(e, -1, spec.L), x) for x in xs]
    seed, weights, o, x = spec.verify_shares(
        context, key, xs, stripped, h(shares["challenge"]), h(shares["response"])
    )
    assert seed == h(shares["seed"]) and [spec.scalar(w) for w in weights] == [
        h(w) for w in shares["weights"]
    ]
    assert o == h(shares["combined_output"]) and x == h(shares["combined_input"])
    with pytest.raises(AssertionError):  # items in another order: another context and seed
        spec.verify_shares(
            context, key, xs[::-1], stripped[::-1], h(shares["challenge"]), h(shares["response"])
        )


def test_the_string_limit_counts_bytes():
    """§3.9: a string of at most 4096 bytes of UTF-8 — 4096 ASCII letters pass, 2049
    two-byte letters (4098 bytes, fewer than 4096 characters) do not."""
    from p2p_rommy.errors import ProtocolError
    from p2p_rommy.wire.codec import unpack

    assert unpack(msgpack.packb("a" * 4096)) == "a" * 4096
    with pytest.raises(ProtocolError):
        unpack(msgpack.packb("æ" * 2049))


def test_the_state_hash_vectors_follow_the_formula():
    """§2: each state vector's hash is H("p2p-rommy/v1/state-hash" 0x00 || encoding), and
    the encoding is the one msgpack array of the 31 fields, variant and players as given."""
    cases = json.loads((ROOT / "protocol" / "vectors" / "state-hash.json").read_text())["cases"]
    for case in cases:
        encoding = bytes.fromhex(case["encoding"])
        digest = hashlib.sha256(b"p2p-rommy/v1/state-hash\x00" + encoding).hexdigest()
        assert digest == case["state_hash"], case["name"]
        fields = canonical(encoding)
        assert len(fields) == 31 and fields[0] == "p2p-rommy/state/v1"
        assert (fields[1], fields[3], fields[4]) == (
            case["variant"],
            case["players"],
            case["first_dealer"],
        )
        wire_kinds = {"start", "draw", "take", "lay", "layoff", "swap", "discard", "buy", "reveal"}
        assert all(isinstance(m, list) and m[0] in wire_kinds for m in case["moves"])  # §4.5
