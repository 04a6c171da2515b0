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
        "lambda",
        "nonce",
    ],
    "lobby/join": ["kind", "lobby", "name", "addresses"],
    "lobby/state": [
        "kind",
        "lobby",
        "table",
        "variant",
        "house",
        "lam",
        "seats",
        "open",
        "members",
    ],
    "lobby/begin": ["kind", "lobby", "members"],
    "lobby/relay": ["kind", "lobby", "stage", "items"],
    "coin/commit": ["kind", "lobby", "digest"],
    "coin/reveal": ["kind", "lobby", "value"],
    "log/step": ["kind", "game", "n", "seat", "prev", "body"],
    "log/ack": ["kind", "game", "n", "seat", "state"],
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
    """§4.8: the magic line, then frames u32 length || payload || u32 CRC-32 (zlib's)."""
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
    assert len(frames) == 3
    step, acks = frames[0]
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
    """`python tools/vectors.py` regenerates the same bytes (everything is seeded)."""
    from tools import vectors

    assert vectors.build() == V
