"""Regenerate protocol/vectors/: `messages.json` (one vector for every message kind on
the wire and on disk, SPEC §3–§4, each naming the SPEC section it illustrates),
`deck.json` (the deck protocol's derivations and proofs, §3; `tools/deck_vectors.py`),
`state-hash.json` (state encodings and hashes after moves in their §4.5 wire form, §2)
and `v2.json` (short code, table code, buy lot, one encoding, nesting depth). It is the
only way vectors are made; protocol/vectors/README.md says what each field is.

    python tools/vectors.py            # writes the file
    python tools/vectors.py --check    # exit 1 if the file is not what it would write
    python tools/vectors.py --fields   # SPEC §4.10's table of every field's type and range

Everything is seeded (identities, nonces, coin values, deck entropy, bots), so the bytes
are the same on every run; `tests/test_conformance.py` re-derives them with the SPEC's
rules and independent tools (msgpack, cryptography, hashlib, zlib, libsodium through
`tests/spec_deck.py`) and checks this tool agrees.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import sys
from collections import deque
from functools import partial
from pathlib import Path
from typing import Any

from p2p_rommy.bots.random_player import RandomPlayer
from p2p_rommy.config import PROTOCOL_VERSION
from p2p_rommy.engine import encode_state, state_hash
from p2p_rommy.engine.state import Phase
from p2p_rommy.limits import STALL_AFTER_S
from p2p_rommy.lobby import Host, Joiner, Send
from p2p_rommy.lobby.messages import TableSettings
from p2p_rommy.log.events import sends
from p2p_rommy.log.messages import Chat, Nack, Sync, step_digest
from p2p_rommy.log.messages import decode as decode_log
from p2p_rommy.log.peer import Peer
from p2p_rommy.log.replica import Observer
from p2p_rommy.log.seated_replica import SeatedReplica
from p2p_rommy.log.transcript import MAGIC, Genesis, frame_record, sign_config
from p2p_rommy.net.handshake import DOMAIN as HANDSHAKE_DOMAIN
from p2p_rommy.rules import ruleset
from p2p_rommy.wire.codec import pack, unpack
from p2p_rommy.wire.entropy import StreamEntropy
from p2p_rommy.wire.identity import Identity, fingerprint, open_envelope

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
    # the new game (n = 0) of each variant: no slots yet
    ("lp-3-new-game", "lp", 3, 1, {}, []),
    ("rummy-2-new-game", "rummy", 2, 0, {}, []),
    ("romme-6-new-game", "romme", 6, 5, {}, []),
    # field 18 keeps the seat of the last discard until the next draw or take, in every variant
    (
        "rummy-3-discard-keeps-the-discarder",
        "rummy",
        3,
        0,
        {},
        [["start", 21], ["draw", 1], ["discard", 1, 0, 5], ["take", 2], ["discard", 2, 1, 7]],
    ),
    (
        "rummy-3-draw-clears-the-discarder",
        "rummy",
        3,
        0,
        {},
        [
            ["start", 21],
            ["draw", 1],
            ["discard", 1, 0, 5],
            ["take", 2],
            ["discard", 2, 1, 7],
            ["draw", 0],
        ],
    ),
    (
        "romme-4-draw-clears-the-discarder",
        "romme",
        4,
        2,
        {},
        [["start", 56], ["discard", 2, 52, 57], ["draw", 3]],
    ),
    (
        "lp-4-bought-upcard-then-discard",
        "lp",
        4,
        3,
        {"max_buys": 2},
        [["start", 44], ["draw", 0], ["buy", [2, 1]], ["discard", 0, 0, 3]],
    ),
    (
        "lp-4-declined-discard-opens-buy",
        "lp",
        4,
        3,
        {"max_buys": 2},
        [["start", 44], ["draw", 0], ["buy", [2, 1]], ["discard", 0, 0, 3], ["draw", 1]],
    ),
    (
        "lp-4-nobody-buys",
        "lp",
        4,
        3,
        {"max_buys": 2},
        [
            ["start", 44],
            ["draw", 0],
            ["buy", [2, 1]],
            ["discard", 0, 0, 3],
            ["draw", 1],
            ["buy", []],
        ],
    ),
]
"""(name, variant, players, first dealer, house rules, moves in §4.5 wire form). `buy` is the
buy step's resolution (§4.7) as the engine applies it: the claimants."""


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
    settings = TableSettings("Vectors", "rummy", (("target_score", 1),), rules.max_players)
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


def _note_rebuilds(peers: list[Any], recycled: list[list[int]]) -> bool:
    """Collect each rebuild's recycled cards; the round is done when the match is over."""
    deck = peers[0].replica.deck
    if deck is not None and len(deck.rebuilt) > len(recycled):
        recycled.extend(deck.rebuilt[len(recycled) :])
    replica = peers[0].replica
    return bool(replica.state.phase is Phase.MATCH_OVER and replica.deck is None)


def round_of_play() -> dict[str, Any]:
    """§3, §4.4 and §2: a whole round of Rummy, 3 seats, 52 cards, that runs out of stock
    and rebuilds it by shuffling (a deck pass 1): every envelope each seat broadcast, in
    the order a FIFO network delivered them. With it, the engine state hash after each
    committed step and the final state's encoding (so a reader can re-derive every ACK's
    log-state hash, §4.4), and the recycled cards of each rebuild, in label order (§3.2)."""
    # the first seeded table whose match is one round that rebuilds its stock and shows a
    # meld's cards out of slot order (for the refused reordered reveal)
    for attempt in range(100):
        label = "round 1" if attempt == 0 else f"round 1 #{attempt}"
        config, players, peers = table(
            "rummy", label, (("target_score", 1), ("empty_stock", "shuffle"))
        )
        recycled: list[list[int]] = []
        order = deliver(peers, partial(_note_rebuilds, peers, recycled))
        refused = reordered_reveal(config, players, list(peers[0].records))
        one_round = peers[0].replica.state.round_index == 0
        if recycled and refused is not None and one_round:
            break
    else:
        raise AssertionError("no seeded round rebuilds its stock and reorders a reveal")
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
        "transcript": transcript(config, players, list(records)[:3]).hex(),
        "state_hash": peers[0].replica.state_hash().hex(),
        "refused": [refused],
    }


def reordered_reveal(
    config: Any, players: list[Identity], records: list[Any]
) -> dict[str, Any] | None:
    """§3.3: the first meld whose reveal items (the move's order) are not ascending, signed
    again by its mover with the items sorted: a receiver refuses it. With the step number,
    so a reader replays the round's records before it and checks the refusal."""
    from p2p_rommy.deck.messages import Shares
    from p2p_rommy.deck.messages import decode as decode_deck
    from p2p_rommy.deck.messages import encode as encode_deck
    from p2p_rommy.log.messages import MoveStep, Step

    roster = Observer(config).roster
    for record in records:
        opened = open_envelope(record.step, roster)
        step = decode_log(opened.body, opened.seat)
        if not isinstance(step, Step) or not isinstance(step.body, MoveStep):
            continue
        if step.body.reveal is None:
            continue
        shares = decode_deck(open_envelope(step.body.reveal, roster).body, step.seat)
        assert isinstance(shares, Shares)
        positions = [item.position for item in shares.items]
        if positions == sorted(positions):
            continue
        mover = players[step.seat]
        items = tuple(sorted(shares.items, key=lambda item: item.position))
        sorted_shares = mover.sign(encode_deck(dataclasses.replace(shares, items=items)))
        body = MoveStep(step.body.move, sorted_shares)
        again = mover.sign(Step(step.game, step.n, step.seat, step.prev, body).encode())
        return {
            "why": "reveal items in ascending slot order, not the move's order (§3.3)",
            "n": step.n,
            "move_order": positions,
            "envelope": again.hex(),
        }
    return None  # no meld in this round shows its cards out of slot order


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
        acked.append(
            state_hash(
                observer.check_certificate(step, record.acks, step_digest(record.step)).state
            ).hex()
        )
        observer.commit()
        after = state_hash(observer.state).hex()
        if after != acked[-1]:
            settled[str(observer.n)] = after
    return acked, settled


def transcript(config: Any, players: list[Identity], records: list[Any]) -> bytes:
    """§4.8: the magic line, the genesis (§4.1: the config signed by every seat), then one
    frame per committed record, as a peer writes its transcript file."""
    genesis = Genesis(config, config.encode(), tuple(sign_config(config, p) for p in players))
    frames = [genesis.encode(), *(r.encode() for r in records)]
    return MAGIC + b"".join(frame_record(payload) for payload in frames)


def buy_window() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """§4.7: a Løbere og Passere buy window in which a seat claims the card: every seat's
    signed answer with its observation, the step that resolves it (carrying those
    answers), the votes and who won,
    with the transcript of the game up to that step and every seat's key."""
    config, players, peers = _table("lp", "buy", (), 4)
    order = deliver(peers, lambda: bool(peers[0].replica.last_claims))
    records = list(peers[0].records)
    step_record = records[-1]
    assert _kind(step_record.step) == "log/step:buy"
    step_body = unpack(unpack(step_record.step)[2])
    window = step_body["body"]["window"]
    observer = Observer(config)
    for record in records[:-1]:
        opened = open_envelope(record.step, observer.roster)
        observer.check_certificate(
            decode_log(opened.body, opened.seat), record.acks, step_digest(record.step)
        )
        observer.commit()
    before = observer.state
    opened = open_envelope(step_record.step, observer.roster)
    observer.check_certificate(
        decode_log(opened.body, opened.seat), step_record.acks, step_digest(step_record.step)
    )
    observer.commit()
    race = observer.last_race  # buy_priority = first: one vote per seat (§4.7)
    answers = [
        [_signer(envelope, players), envelope.hex()] for envelope in step_body["body"]["answers"]
    ]
    claims = [
        seat for seat, envelope in answers if unpack(unpack(bytes.fromhex(envelope))[2])["claim"]
    ]
    vectors = []
    for kind in ("buy/answer", "log/step:buy"):
        sender, envelope = next((s, e) for s, e in order if _kind(e) == kind)
        vectors.append(envelope_vector(kind, "§4.7", envelope, players[sender]))
    return vectors, {
        "section": "§4.7, §2",
        "config": config.encode().hex(),
        "keys": [p.public_key.hex() for p in players],
        "window": window,
        "answers": answers,
        "claims": claims,
        "votes": {str(seat): n for seat, n in (race.votes if race else {}).items()},
        "winner": observer.last_claims[0],
        "step": step_record.step.hex(),
        "state_before": encode_state(before).hex(),
        "state_after": encode_state(observer.state).hex(),
        "transcript": transcript(config, players, records).hex(),
    }


def sealed_window_vectors() -> list[dict[str, Any]]:
    """§4.7: under `buy_priority = seat` a seat's sealed answer (`buy/seal`), from a
    real window; its opening is the `buy/answer` with its nonce."""
    _config, players, peers = _table("lp", "sealed buy", (("buy_priority", "seat"),), 4)
    order = deliver(peers, lambda: bool(peers[0].replica.last_claims))
    sender, envelope = next((s, e) for s, e in order if _kind(e) == "buy/seal")
    return [envelope_vector("buy/seal", "§4.7", envelope, players[sender])]


def _signer(envelope: bytes, players: list[Identity]) -> int:
    key_id = unpack(envelope)[1]
    return next(s for s, p in enumerate(players) if p.key_id == key_id)


def _kind(envelope: bytes) -> str:
    body = unpack(unpack(envelope)[2])
    if body["kind"] == "log/step":
        return f"log/step:{body['body']['kind']}"
    return str(body["kind"])


def ended_game() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """§4.4 "Ending without a seat": a 3-seat game whose seat 2 stops answering after the
    first steps; seat 0, the lowest other seat, proposes the end step on the committed
    state, seat 1 signs it, and it commits with an empty ACK in seat 2's place. With the
    end step's log-state hash and the whole transcript (`rommy verify` finds it FAIR, seat
    2 forfeiting)."""
    config, players, peers = table("rummy", "ended", (("target_score", 1),))
    queue: deque[tuple[int, bytes]] = deque()
    for peer in peers:
        queue.extend((peer.seat, e) for e in sends(peer.start()))
    while queue:
        sender, envelope = queue.popleft()
        cut = peers[0].replica.n >= 4  # from here on seat 2 hears nothing and says nothing
        if cut and sender == 2:
            continue
        for peer in peers:
            if peer.seat != sender and not (cut and peer.seat == 2):
                queue.extend((peer.seat, e) for e in sends(peer.receive(envelope)))
    waiting = peers[0].waiting(0.0)
    assert waiting is not None and waiting.seat == 2, waiting
    committed = peers[0].replica.n
    later = STALL_AFTER_S + 1  # each signer has waited the stall limit itself

    def run(queue: deque[tuple[int, bytes]]) -> None:
        while queue:
            sender, envelope = queue.popleft()
            if peers[1].seat != sender:
                queue.extend((1, e) for e in sends(peers[1].receive(envelope, later)))
            if sender != 0:
                queue.extend((0, e) for e in sends(peers[0].receive(envelope, later)))

    out = sends(peers[0].end_game((2,), later))
    (end,) = [e for e in out if _kind(e) == "log/step:end"]
    run(deque((0, e) for e in out))
    live = peers[:2]
    assert all(p.replica.ended for p in live)
    assert peers[0].replica.ended is not None and peers[1].replica.ended is not None
    records = list(peers[0].records)
    record = records[-1]
    assert record.step == end and record.acks[2] == b""
    body = unpack(unpack(end)[2])
    vector = envelope_vector("log/step:end", "§4.4", end, players[0])
    return [vector], {
        "section": "§4.4, §4.8",
        "config": config.encode().hex(),
        "keys": [p.public_key.hex() for p in players],
        "committed": committed,
        "prev": body["prev"].hex(),
        "committed_engine_hash": state_hash(peers[0].replica.state).hex(),
        "step": end.hex(),
        "acks": [a.hex() for a in record.acks],
        "state_hash": unpack(unpack(record.acks[0])[2])["state"].hex(),
        "absent": body["body"]["absent"],
        "transcript": transcript(config, players, records).hex(),
        "refused": [
            {
                "why": "proposed by seat 1, not the lowest seat other than the absent one (§4.4)",
                "envelope": players[1].sign(_reproposed(end, 1)).hex(),
            }
        ],
    }


def _reproposed(step_envelope: bytes, seat: int) -> bytes:
    """The same step's body, proposed by another seat."""
    body = unpack(unpack(step_envelope)[2])
    body["seat"] = seat
    return pack(body)


def loose_messages() -> list[dict[str, Any]]:
    """§4.4: a NACK, a catch-up ask, a chat line."""
    seat = identity("loose")
    game = seeded("loose game")
    return [
        envelope_vector("log/nack", "§4.4", seat.sign(Nack(game, 12, 1, "bad").encode()), seat),
        envelope_vector("log/sync", "§4.4", seat.sign(Sync(game, 1, 40, True).encode()), seat),
        envelope_vector("chat/say", "§4.3", seat.sign(Chat(game, 1, "hej").encode()), seat),
    ]


def fingerprint_vector() -> dict[str, Any]:
    """§3.9: a key, its key id and its fingerprint as people compare it."""
    who = identity("fingerprint")
    return {
        "section": "§3.9",
        "public_key": who.public_key.hex(),
        "key_id": who.key_id.hex(),
        "fingerprint": fingerprint(who.public_key),
    }


def advert_vector() -> dict[str, Any]:
    """§4.6: a table's mDNS advert: the instance name and the TXT record's strings."""
    from zeroconf.asyncio import AsyncServiceInfo

    from p2p_rommy.net.discovery import SERVICE, TableAd

    creator = identity("advert")
    ad = TableAd(
        table="Køkkenbordet",
        variant="lp",
        taken=2,
        seats=5,
        open=True,
        creator=fingerprint(creator.public_key),
        lobby=seeded("advert lobby"),
        addresses=("127.0.0.1",),
        port=4001,
    )
    info = AsyncServiceInfo(SERVICE, ad.instance, port=ad.port, properties=ad.properties())
    return {
        "section": "§4.6",
        "creator_key": creator.public_key.hex(),
        "service": SERVICE,
        "instance": ad.instance,
        "txt": [[k, v] for k, v in ad.properties().items()],
        "txt_rdata": info.text.hex(),
    }


def frames(play: dict[str, Any], lobby_vectors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """§4.3: a frame of each type: the bare hello of a handshake, a game connection's ping
    and envelope, a lobby connection's envelope."""
    from p2p_rommy.net import lobby as net_lobby
    from p2p_rommy.net import mesh
    from p2p_rommy.net.framing import frame

    hello = bytes.fromhex(handshake()[0]["body"])
    sender, envelope = play["envelopes"][0]
    join = next(v for v in lobby_vectors if v["kind"] == "lobby/join")
    return [
        {"what": "hello", "section": "§4.3", "frame": frame(hello).hex()},
        {"what": "ping", "section": "§4.3", "frame": frame(mesh.PING).hex()},
        {
            "what": "envelope",
            "section": "§4.3",
            "signer_key": play["keys"][sender],
            "frame": frame(mesh.MESSAGE + bytes.fromhex(envelope)).hex(),
        },
        {
            "what": "lobby envelope",
            "section": "§4.3",
            "signer_key": join["signer_key"],
            "frame": frame(net_lobby.MESSAGE + bytes.fromhex(join["envelope"])).hex(),
        },
    ]


def schemas() -> dict[str, dict[str, Any]]:
    """Every message kind the decoders know, with its fields' checks by name, in SPEC order
    (a move's fields by position, from 1); the step bodies as `log/step:<kind>`."""
    from p2p_rommy.config import _CONFIG
    from p2p_rommy.deck import messages as deck_messages
    from p2p_rommy.lobby import messages as lobby_messages
    from p2p_rommy.log import messages as log_messages
    from p2p_rommy.log import move_codec
    from p2p_rommy.net import handshake as net_handshake

    found = [_CONFIG, net_handshake._HELLO, net_handshake._AUTH]
    found += [v for v in vars(lobby_messages).values() if type(v).__name__ == "Schema"]
    found += list(log_messages._SCHEMAS.values()) + list(deck_messages._SCHEMAS.values())
    kinds = {schema.kind: dict(schema.fields) for schema in found}
    for kind, schema in log_messages._BODIES.items():
        kinds[f"log/step:{kind}"] = dict(schema.fields)
    for kind, fields in move_codec._SCHEMAS.items():
        kinds[f"move:{kind}"] = {str(i + 1): check for i, check in enumerate(fields)}
    return kinds


def _cells(check: Any) -> dict[str, Any]:
    names = check.__code__.co_freevars
    return {n: c.cell_contents for n, c in zip(names, check.__closure__ or (), strict=True)}


def _number(value: int) -> str:
    return "2^40" if value == 2**40 else str(value)


def describe(check: Any) -> str:
    """A field check in SPEC §4.10's notation, read from the check itself."""
    name, cells = check.__qualname__, _cells(check)
    if name.startswith("integer."):
        return f"int {_number(cells['low'])}–{_number(cells['high'])}"
    if name.startswith("blob."):
        if cells["size"] is not None:
            return f"bin {cells['size']}"
        return f"bin ≤{cells['max_size']}"
    if name.startswith("text."):
        return f"str ≤{cells['max_len']}"
    if name.startswith("array."):
        return f"[{describe(cells['item'])}] {cells['min_len']}–{cells['max_len']}"
    if name.startswith("int_array."):
        low, high = _number(cells["low"]), _number(cells["high"])
        return f"[int {low}–{high}] {cells['min_len']}–{cells['max_len']}"
    if name.startswith("fixed."):
        return "(" + ", ".join(describe(item) for item in cells["items"]) + ")"
    if name.startswith("_one_of."):
        return " or ".join(f'"{c}"' for c in cells["choices"])
    return {
        "_house_value": "bool, int, str or nil",
        "_flag": "bool",
        "_address": "(str ≤64, int 1–65535)",
        "_any": "map (a step body)",
        "_nil_or_blob": "bin ≤1048576 or nil",
        "_nonce": "bin 0 or bin 32",
        "_move": "move (§4.5)",
    }[name.split(".")[-1]]


def _edges(check: Any) -> tuple[list[Any], list[Any]]:
    """Values at a simple field's limits that its check accepts, and just past them."""
    name, cells = check.__qualname__, _cells(check)
    if name.startswith("integer."):
        return [cells["low"], cells["high"]], [cells["low"] - 1, cells["high"] + 1]
    if name.startswith("blob."):
        if cells["size"] is not None:
            size = cells["size"]
            return [bytes(size)], [bytes(size - 1), bytes(size + 1)]
        return [bytes(min(cells["max_size"], 4096))], []
    if name.startswith("text."):
        longest = cells["max_len"]
        return ["a" * longest], ["a" * (longest + 1)]
    return [], []


def field_vectors() -> list[dict[str, Any]]:
    """§4.10: every field of every kind, its type and range, and for a number, a byte
    string or a text its values at the limits (accepted) and just past them (refused),
    each checked by the decoder's own check of that field."""
    from p2p_rommy.wire.codec import SchemaError

    rows = []
    for kind, fields in schemas().items():
        for field, check in fields.items():
            accepted, refused = _edges(check)
            for value in accepted:
                check(value, field)
            for value in refused:
                try:
                    check(value, field)
                except SchemaError:
                    continue
                raise AssertionError(f"{kind}.{field} accepts {value!r}")
            rows.append(
                {
                    "kind": kind,
                    "field": field,
                    "type": describe(check),
                    "accepted": [pack(v).hex() for v in accepted],
                    "refused": [pack(v).hex() for v in refused],
                }
            )
    return rows


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
    buy_vectors, buy = buy_window()
    buy_vectors += sealed_window_vectors()
    end_vectors, ended = ended_game()
    for vector in buy_vectors + end_vectors:
        kinds.pop(vector["kind"], None)
    return {
        "description": __doc__.split("\n\n")[0],
        "protocol_version": PROTOCOL_VERSION,
        "handshake": handshake(),
        "lobby": lobby_vectors,
        "coin": coin,
        "log": list(kinds.values()) + buy_vectors + end_vectors + loose_messages(),
        "round": play,
        "buy_window": buy,
        "ended": ended,
        "fingerprint": fingerprint_vector(),
        "advert": advert_vector(),
        "frames": frames(play, lobby_vectors),
        "fields": field_vectors(),
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


V2_GAME = bytes.fromhex("cc59f0866173353ea56dc284ad414299757b5c032762f01646a1784c90b11458")
V2_LOBBY = bytes.fromhex("3126debcf21edefeb25cbf3bb519c778aeb3887aac3dc2c8c3efefa5d18d0324")
V2_CREATOR = bytes.fromhex("f2e102a1f3119b26fd02257dd94a9bd181b16b4535755c9dc7b6f48f72898dbf")
V2_COMMITMENTS = [
    bytes.fromhex(c)
    for c in (
        "cff8b6f5590263a8e1b01c03824f5cf03bcc4aa9aa0d665ae78fcd5592d37611",
        "6956890c127404ef097babc481114461ed6d0fe7721ff7266532e29c513caafd",
        "8e2371be01bdad7f29d8558a280b1f444bdda77d9fb6e3e4e5f1030c76ece6e7",
        "bc36cb3b696d116d916668ce7236f1c774a37e500eb2e8b0e414aaf5f12116d5",
    )
]
"""The v2 vectors' inputs (arbitrary values, kept so the file does not change)."""

REFUSED_ENCODINGS = [
    ("81a46b696e64cc01", "1 written as a uint8 (a longer form)"),
    ("82a46b696e6401a46b696e6402", "a repeated map key"),
    ("dc000101", "an array16 header for one item"),
    ("c50003616263", "bin16 for 3 bytes"),
    ("d903616263", "str8 for a 3-byte string"),
]


def _nested(arrays: int, inner: list[Any]) -> list[Any]:
    value = inner
    for _ in range(arrays - 1):
        value = [value]
    return value


def v2_vectors() -> dict[str, Any]:
    """v2.json: the short code (§4.1), the table code (§4.2), the buy lot (§4.7), the one
    encoding (§1) and the nesting depth (§3.9), each computed by the code."""
    from p2p_rommy.config import short_code
    from p2p_rommy.errors import ProtocolError
    from p2p_rommy.log.buy_checks import BUY_LOT_DOMAIN
    from p2p_rommy.net.lobby import table_code

    nonces = [hashlib.sha256(b"v5 nonce %d" % seat).digest() for seat in (1, 2, 3)]
    fixed = BUY_LOT_DOMAIN + V2_GAME + (41).to_bytes(8, "big") + b"".join(V2_COMMITMENTS)
    fixed += b"".join(nonces)  # the eligible seats' nonces, field 19's order (v5)
    lots = [hashlib.sha256(fixed + bytes([seat])).digest() for seat in range(4)]
    for data, _ in REFUSED_ENCODINGS:
        try:
            unpack(bytes.fromhex(data))
        except ProtocolError:
            continue
        raise AssertionError(f"the codec accepts {data}")
    accepted_depth = [pack(_nested(7, [1])), pack(_nested(8, []))]
    refused_depth = [pack(_nested(8, [1])), pack(_nested(9, []))]
    for data in accepted_depth:
        unpack(data)
    for data in refused_depth:
        try:
            unpack(data)
        except ProtocolError:
            continue
        raise AssertionError(f"the codec accepts {data.hex()}")
    return {
        "description": (
            "Vectors for the v2 additions (protocol/SPEC.md): the short code (§4.1), "
            "the table code (§4.2), the buy lot (§4.7) and the one-encoding rule "
            "(§1). Re-derive each from its inputs with the SPEC's formulas."
        ),
        "short_code": {"section": "4.1", "digest": V2_GAME.hex(), "code": short_code(V2_GAME)},
        "table_code": {
            "section": "4.2",
            "lobby": V2_LOBBY.hex(),
            "creator_key": V2_CREATOR.hex(),
            "code": table_code(V2_LOBBY, V2_CREATOR),
        },
        "buy_lot": {
            "section": "4.7",
            "game": V2_GAME.hex(),
            "window": 41,
            "commitments": [c.hex() for c in V2_COMMITMENTS],
            "nonces": [n.hex() for n in nonces],
            "lots": [lot.hex() for lot in lots],
            "order": sorted(range(len(lots)), key=lambda seat: lots[seat]),
        },
        "encodings": {
            "section": "1",
            "accepted": [pack({"kind": 1}).hex(), pack([b"abc", "x", 256]).hex()],
            "refused": [{"bytes": data, "why": why} for data, why in REFUSED_ENCODINGS],
        },
        "depth": {
            "section": "3.9",
            "accepted": [data.hex() for data in accepted_depth],
            "refused": [data.hex() for data in refused_depth],
        },
    }


def rendered() -> dict[Path, str]:
    """Every vector file's path and the text this tool writes there."""
    from tools.deck_vectors import render

    return {
        OUT: json.dumps(build(), indent=1) + "\n",
        VECTORS / "deck.json": render(),
        VECTORS / "state-hash.json": json.dumps(state_vectors(), indent=2) + "\n",
        VECTORS / "v2.json": json.dumps(v2_vectors(), indent=2) + "\n",
    }


def fields_table() -> str:
    """SPEC §4.10's table, from the decoders' own checks (paste it there; a test compares)."""
    lines = ["| kind | field | type and range |", "|---|---|---|"]
    for row in field_vectors():
        lines.append(f"| `{row['kind']}` | `{row['field']}` | {row['type']} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    if "--fields" in sys.argv:
        print(fields_table(), end="")
        return 0
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
