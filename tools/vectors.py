"""Regenerate protocol/vectors/: `messages.json` (one vector for every message kind on
the wire and on disk, SPEC §3–§4, each naming the SPEC section it illustrates),
`deck.json` (the deck protocol's derivations and proofs, §3; `tools/deck_vectors.py`)
and `state-hash.json` (state encodings and hashes after moves in their §4.5 wire form, §2).

    python tools/vectors.py            # writes the file
    python tools/vectors.py --check    # exit 1 if the file is not what it would write

Everything is seeded (identities, nonces, coin values, deck entropy, bots), so the bytes
are the same on every run; `tests/test_conformance.py` re-derives them with the SPEC's
rules and independent tools (msgpack, cryptography, hashlib, zlib, libsecp256k1 through
`tests/spec_deck.py`) and checks this tool agrees.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections import deque
from pathlib import Path
from typing import Any

from p2p_rommy.bots.random_player import RandomPlayer
from p2p_rommy.config import PROTOCOL_VERSION
from p2p_rommy.engine import encode_state, state_hash
from p2p_rommy.engine.state import Phase
from p2p_rommy.lobby import Host, Joiner, Send
from p2p_rommy.lobby.messages import TableSettings
from p2p_rommy.log.events import sends
from p2p_rommy.log.messages import Chat, Nack, Sync
from p2p_rommy.log.messages import decode as decode_log
from p2p_rommy.log.peer import Peer
from p2p_rommy.log.replica import Observer, SeatedReplica
from p2p_rommy.log.transcript import MAGIC, frame_record
from p2p_rommy.net.handshake import DOMAIN as HANDSHAKE_DOMAIN
from p2p_rommy.rules import ruleset
from p2p_rommy.wire.codec import pack, unpack
from p2p_rommy.wire.entropy import StreamEntropy
from p2p_rommy.wire.identity import Identity, open_envelope

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "protocol" / "vectors"
OUT = VECTORS / "messages.json"

STATE_CASES: list[tuple[str, str, int, int, dict[str, Any], list[list[Any]]]] = [
    ("rummy-3-dealt", "rummy", 3, 0, {}, [["start", 21]]),
    (
        "romme-4-dealer-discards",
        "romme",
        4,
        2,
        {"joker_penalty": 25},
        [["start", 56], ["discard", 2, 52, 57]],
    ),
    ("lp-4-first-draw-opens-buy", "lp", 4, 3, {"max_buys": 2}, [["start", 44], ["draw", 0]]),
]
"""(name, variant, players, first dealer, house rules, moves in §4.5 wire form)."""


def identity(label: str) -> Identity:
    return Identity.generate(StreamEntropy(b"vectors " + label.encode()))


def seeded(label: str, size: int = 32) -> bytes:
    return hashlib.shake_256(b"vectors " + label.encode()).digest(size)


def envelope_vector(kind: str, section: str, envelope: bytes, signer: Identity) -> dict[str, Any]:
    return {
        "kind": kind,
        "section": section,
        "signer_key": signer.public_key.hex(),
        "envelope": envelope.hex(),
    }


def handshake() -> list[dict[str, Any]]:
    """§4.3: hello (a plain map) and auth (a signature over the handshake transcript)."""
    a, b = identity("hello a"), identity("hello b")
    table, nonce_a, nonce_b = seeded("table"), seeded("nonce a"), seeded("nonce b")
    hello = {"kind": "hello", "table": table, "nonce": nonce_a, "key": a.public_key}
    hello["version"] = PROTOCOL_VERSION
    signed = HANDSHAKE_DOMAIN + table + nonce_a + nonce_b + a.public_key + b.public_key
    auth = {"kind": "auth", "signature": a.signature(signed)}
    return [
        {"kind": "hello", "section": "§4.3", "body": pack(hello).hex()},
        {
            "kind": "auth",
            "section": "§4.3",
            "signer_key": a.public_key.hex(),
            "other_key": b.public_key.hex(),
            "table": table.hex(),
            "signer_nonce": nonce_a.hex(),
            "other_nonce": nonce_b.hex(),
            "body": pack(auth).hex(),
        },
    ]


def lobby() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """§4.2 and §4.1: three players gather, toss the coin and sign the config."""
    players = [identity("lobby ann"), identity("lobby bo"), identity("lobby cy")]
    rules = ruleset("rummy")
    settings = TableSettings("Vectors", "rummy", (("target_score", 1),), 64, rules.max_players)
    lobby_id = seeded("lobby id")
    host = Host(players[0], "Ann", settings, [("10.0.0.1", 4001)], lobby_id, seeded("coin ann"))
    joiners = [
        Joiner(
            p,
            name,
            [(f"10.0.0.{i + 2}", 4001)],
            lobby_id,
            players[0].public_key,
            seeded(f"coin {name}"),
            0.0,
        )
        for i, (p, name) in enumerate(((players[1], "Bo"), (players[2], "Cy")))
    ]
    vectors: list[dict[str, Any]] = []
    by_key = {j.identity.public_key: j for j in joiners}
    signer_of = {p.public_key: p for p in players}
    pending: deque[tuple[bytes, bytes]] = deque()  # (to key, envelope) from the creator
    seen: set[str] = set()

    def note(kind: str, envelope: bytes, signer: Identity) -> None:
        if kind not in seen:
            seen.add(kind)
            vectors.append(envelope_vector(kind, "§4.2", envelope, signer))

    def perform(effects: list[object]) -> None:
        for effect in effects:
            if isinstance(effect, Send):
                for key in [effect.to] if effect.to else list(by_key):
                    pending.append((key, effect.envelope))

    for joiner in joiners:
        note("lobby/join", joiner.entry, joiner.identity)
        perform(host.join(joiner.identity.public_key, joiner.entry, 0.0))
    perform(host.start(0.0))
    started = None
    while pending:
        key, envelope = pending.popleft()
        body = unpack(unpack(envelope)[2])
        kind = body["kind"] + (f":{body['stage']}" if body["kind"] == "lobby/relay" else "")
        note(kind, envelope, players[0])
        output = by_key[key].receive(envelope, 0.0)
        for reply in output.send:
            reply_body = unpack(unpack(reply)[2])
            note(reply_body["kind"], reply, signer_of[key])
            perform(host.receive(key, reply, 0.0))
        started = output.started or started
    assert started is not None
    config = started.config
    result = {
        "section": "§4.1, §4.2",
        "lobby": lobby_id.hex(),
        "members": [p.public_key.hex() for p in players],
        "coin_values": [seeded(f"coin {n}").hex() for n in ("ann", "Bo", "Cy")],
        "seat_keys": [s.public_key.hex() for s in config.seats],
        "first_dealer": config.first_dealer,
        "nonce": config.nonce.hex(),
        "config": config.encode().hex(),
        "game_id": config.game_id.hex(),
        "short_code": config.short_code(),
    }
    return vectors, result


def table_of(
    variant: str, players: int, house: tuple[tuple[str, Any], ...], label: str
) -> tuple[Any, list[Peer]]:
    """`players` seeded peers of `variant` with random bots, not started."""
    config, _, peers = _table(variant, label, house, players)
    return config, peers


def table(
    variant: str, label: str, house: tuple[tuple[str, Any], ...]
) -> tuple[Any, list[Identity], list[Peer]]:
    """Three seeded peers of `variant` (random bots), not started."""
    return _table(variant, label, house, 3)


def _table(
    variant: str, label: str, house: tuple[tuple[str, Any], ...], count: int
) -> tuple[Any, list[Identity], list[Peer]]:
    from p2p_rommy.config import GameConfig, Seat

    players = [identity(f"{label} {s}") for s in range(count)]
    config = GameConfig(
        variant,
        house,
        tuple(Seat(f"P{s + 1}", p.public_key) for s, p in enumerate(players)),
        0,
        64,
        "vectors",
        seeded(f"{label} nonce", 16),
    )
    rng = random.Random(7)
    peers = [
        Peer(
            SeatedReplica(
                config, s, players[s], StreamEntropy(b"vectors %s deck %d" % (label.encode(), s))
            ),
            RandomPlayer(random.Random(rng.getrandbits(32))),
        )
        for s in range(count)
    ]
    return config, players, peers


def deliver(peers: list[Peer], until: Any, limit: int = 20_000) -> list[tuple[int, bytes]]:
    """Every envelope broadcast, delivered in FIFO order, until `until()` holds."""
    queue: deque[tuple[int, bytes]] = deque()
    order: list[tuple[int, bytes]] = []
    for peer in peers:
        queue.extend((peer.seat, e) for e in sends(peer.start()))
    while queue and not until() and len(order) < limit:
        sender, envelope = queue.popleft()
        order.append((sender, envelope))
        for peer in peers:
            if peer.seat != sender:
                queue.extend((peer.seat, e) for e in sends(peer.receive(envelope)))
    return order


def round_of_play() -> dict[str, Any]:
    """§3, §4.4 and §2: a whole round of Rummy, 3 seats, 52 cards, that runs out of stock
    and rebuilds it by shuffling (a deck pass 1): every envelope each seat broadcast, in
    the order a FIFO network delivered them. With it, the engine state hash after each
    committed step and the final state's encoding (so a reader can re-derive every ACK's
    log-state hash, §4.4), and the recycled cards of each rebuild, in label order (§3.2)."""
    config, players, peers = table(
        "rummy", "round 1", (("target_score", 1), ("empty_stock", "shuffle"))
    )
    recycled: list[list[int]] = []

    def note_rebuilds() -> bool:
        deck = peers[0].replica.deck
        if deck is not None and len(deck.rebuilt) > len(recycled):
            recycled.extend(deck.rebuilt[len(recycled) :])
        return peers[0].replica.state.phase is Phase.MATCH_OVER and peers[0].replica.deck is None

    order = deliver(peers, note_rebuilds)
    records = peers[0].records
    acked, settled = engine_hashes(config, records)
    return {
        "section": "§2, §3.2-§3.6, §4.4",
        "config": config.encode().hex(),
        "keys": [p.public_key.hex() for p in players],
        "envelopes": [[sender, envelope.hex()] for sender, envelope in order],
        "recycled": recycled,
        "engine_hashes": acked,
        "settled_hashes": settled,
        "final_state": encode_state(peers[0].replica.state).hex(),
        "transcript": (MAGIC + b"".join(frame_record(r.encode()) for r in records[:3])).hex(),
        "state_hash": peers[0].replica.state_hash().hex(),
    }


def engine_hashes(config: Any, records: list[Any]) -> tuple[list[str], dict[str, str]]:
    """The engine state hash (§2) each committed step's ACKs hash into their log-state
    hash (§4.4), in step order, replayed by an observer; and, where the derived
    transitions after a commit changed the engine state (the deal's `start`), the hash
    the next step's `prev` builds on, by step number."""
    observer = Observer(config)
    acked, settled = [], {}
    for record in records:
        opened = open_envelope(record.step, observer.roster)
        step = decode_log(opened.body, opened.seat)
        acked.append(state_hash(observer.check_certificate(step, record.acks).state).hex())
        observer.commit()
        after = state_hash(observer.state).hex()
        if after != acked[-1]:
            settled[str(observer.n)] = after
    return acked, settled


def buy_window() -> list[dict[str, Any]]:
    """§4.7: a Løbere og Passere buy window: every eligible seat's signed answer, then the
    step that resolves it (carrying those answers)."""
    _, players, peers = table("lp", "buy", ())
    order = deliver(
        peers, lambda: any(r for r in peers[0].records if _kind(r.step) == "log/step:buy")
    )
    found: dict[str, dict[str, Any]] = {}
    for sender, envelope in order:
        kind = _kind(envelope)
        if kind in ("buy/answer", "log/step:buy") and kind not in found:
            found[kind] = envelope_vector(kind, "§4.7", envelope, players[sender])
    step = next(r.step for r in peers[0].records if _kind(r.step) == "log/step:buy")
    found["log/step:buy"] = envelope_vector(
        "log/step:buy", "§4.7", step, players[unpack(unpack(step)[2])["seat"]]
    )
    return list(found.values())


def _kind(envelope: bytes) -> str:
    body = unpack(unpack(envelope)[2])
    if body["kind"] == "log/step":
        return f"log/step:{body['body']['kind']}"
    return str(body["kind"])


def loose_messages() -> list[dict[str, Any]]:
    """§4.4: a NACK, a catch-up ask, a chat line, a step that ends the game without a seat."""
    from p2p_rommy.log.messages import EndStep, Step

    seat = identity("loose")
    game = seeded("loose game")
    end = Step(game, 80, 1, seeded("loose prev"), EndStep(2, "seat 3 did not come back"))
    return [
        envelope_vector("log/step:end", "§4.4", seat.sign(end.encode()), seat),
        envelope_vector("log/nack", "§4.4", seat.sign(Nack(game, 12, 1, "bad").encode()), seat),
        envelope_vector("log/sync", "§4.4", seat.sign(Sync(game, 1, 40, True).encode()), seat),
        envelope_vector("chat/say", "§4.3", seat.sign(Chat(game, 1, "hej").encode()), seat),
    ]


def build() -> dict[str, Any]:
    lobby_vectors, coin = lobby()
    play = round_of_play()
    kinds: dict[str, dict[str, Any]] = {}
    keys = [bytes.fromhex(k) for k in play["keys"]]
    for sender, envelope in play["envelopes"]:
        kind = _kind(bytes.fromhex(envelope))
        kinds.setdefault(
            kind,
            {
                "kind": kind,
                "section": "§4.4",
                "signer_key": keys[sender].hex(),
                "envelope": envelope,
            },
        )
    return {
        "description": __doc__.split("\n\n")[0],
        "protocol_version": PROTOCOL_VERSION,
        "handshake": handshake(),
        "lobby": lobby_vectors,
        "coin": coin,
        "log": list(kinds.values()) + buy_window() + loose_messages(),
        "round": play,
    }


def state_vectors() -> dict[str, Any]:
    """§2: each case replayed from the new game, its encoding and state hash."""
    from p2p_rommy.engine import apply, new_game
    from p2p_rommy.log.move_codec import decode_move

    cases = []
    for name, variant, players, first_dealer, house, wire_moves in STATE_CASES:
        state = new_game(ruleset(variant, house), players, first_dealer)
        for move in wire_moves:
            state = apply(state, decode_move(move))
        cases.append(
            {
                "name": name,
                "variant": variant,
                "players": players,
                "first_dealer": first_dealer,
                "house": house,
                "moves": wire_moves,
                "encoding": encode_state(state).hex(),
                "state_hash": state_hash(state).hex(),
            }
        )
    return {
        "description": (
            "State encoding and hash vectors (protocol/SPEC.md §2). Start from the new game "
            "of 'variant' for 'players' with 'first_dealer' and the 'house' rules (the "
            "others at their defaults), apply 'moves' (SPEC §4.5 wire form; 'start' is the "
            "deal with the upcard's face) with the rules of docs/rules.md, and compare the "
            "canonical encoding (hex) and the state hash (hex) byte for byte."
        ),
        "cases": cases,
    }


def rendered() -> dict[Path, str]:
    """Every vector file's path and the text this tool writes there."""
    from tools.deck_vectors import render

    return {
        OUT: json.dumps(build(), indent=1) + "\n",
        VECTORS / "deck.json": render(),
        VECTORS / "state-hash.json": json.dumps(state_vectors(), indent=2) + "\n",
    }


def main() -> int:
    files = rendered()
    if "--check" in sys.argv:
        stale = [
            path for path, text in files.items() if not path.exists() or path.read_text() != text
        ]
        for path in stale:
            print(f"{path.relative_to(ROOT)} differs from what tools/vectors.py writes")
        if not stale:
            print("up to date")
        return 1 if stale else 0
    for path, text in files.items():
        path.write_text(text)
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))  # run as a script: `tools.deck_vectors` from the checkout
    raise SystemExit(main())
