"""Hostile input at a live peer while an honest match runs over TCP: raw garbage,
oversize and truncated frames, bad msgpack, deep nesting, wrong shapes, a stranger's
key, a flood of connections, and (from a connection that proved a seated key) bad
signatures, an unseated signer, a replayed old step, a step for another game and a
stream of garbage. Each is refused with a reason; the honest match finishes."""

from __future__ import annotations

import asyncio
import os
import random

import msgpack

from p2p_rommy.bots import make_bot
from p2p_rommy.limits import PENALTY_S
from p2p_rommy.log.messages import Step, decode
from p2p_rommy.net.framing import frame, read_frame
from p2p_rommy.net.handshake import handshake
from p2p_rommy.net.mesh import MESSAGE
from p2p_rommy.seat.loopback_match import seeded_config
from p2p_rommy.seat.session import Session
from p2p_rommy.wire.codec import unpack
from p2p_rommy.wire.entropy import StreamEntropy
from p2p_rommy.wire.identity import Identity


def nested(depth: int) -> bytes:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return msgpack.packb(value)


async def raw(address, data: bytes, wait: float = 5.0) -> bool:
    """Send bytes to a fresh connection; True if the peer closed it on us."""
    reader, writer = await asyncio.open_connection(*address)
    writer.write(data)
    await writer.drain()
    try:
        async with asyncio.timeout(wait):
            while await reader.read(1 << 16):  # the peer's hello, then nothing more
                pass
            closed = True
    except TimeoutError:
        closed = False
    except OSError:  # reset: closed with unread data
        closed = True
    writer.close()
    return closed


async def attack(address, config, identities, victim: Session) -> dict[str, object]:
    results: dict[str, object] = {}
    hello = {"kind": "hello", "table": config.game_id, "nonce": os.urandom(32)}
    stranger = Identity.generate()
    reader, writer = await asyncio.open_connection(*address)
    try:
        await handshake(reader, writer, stranger, config.game_id, lambda key: True)
        results["unseated key"] = False
    except Exception as error:  # any refusal will do
        results["unseated key"] = f"{type(error).__name__}: {error}"
    results["unseated key refused"] = victim.mesh.refused_connections == 1
    writer.close()
    results["random bytes"] = await raw(address, os.urandom(2000), wait=12)
    results["oversize length"] = await raw(address, (2**32 - 1).to_bytes(4, "big"))
    results["truncated frame"] = await raw(address, (100).to_bytes(4, "big") + b"x" * 10, wait=0)
    results["bad msgpack"] = await raw(address, frame(b"\xc1\xc1\xc1"))
    results["deep nesting"] = await raw(address, frame(nested(200)))
    results["wrong shape"] = await raw(address, frame(msgpack.packb({**hello, "key": 5})))
    flood = await asyncio.gather(
        *(asyncio.open_connection(*address) for _ in range(80)), return_exceptions=True
    )
    await asyncio.sleep(0.5)
    for connection in flood:
        if isinstance(connection, tuple):
            connection[1].close()
    results["flood refused"] = victim.mesh.refused_connections

    await asyncio.sleep(PENALTY_S + 0.5)  # strangers from this address were rate-limited
    # an insider: a connection that proves seat 2's key (once there is a step to replay;
    # it has the link until seat 2 itself redials, so it sends at once)
    peer = victim.peer
    while len(peer.records) < 5:
        await asyncio.sleep(0.05)
    reader, writer = await asyncio.open_connection(*address)
    await handshake(reader, writer, identities[2], config.game_id, lambda key: True)
    first = peer.records[0].step
    version, key, body, _ = msgpack.unpackb(first)
    other_game = unpack(body)
    other_game["game"], other_game["seat"] = b"\x09" * 32, 2
    forged_step = identities[2].sign(msgpack.packb(other_game))
    envelopes = {
        "bad signature": msgpack.packb([version, key, body, bytes(64)]),
        "unseated signer": stranger.sign(body),
        "replay": first,
        "another game": forged_step,
        "bad msgpack": b"\xc1",
        "deep nesting": nested(50),
        "wrong shape": msgpack.packb({"kind": "log/step"}),
    }
    for envelope in envelopes.values():
        writer.write(frame(MESSAGE + envelope))
    closed_after = None
    for sent in range(1, 60):  # then keep sending garbage until the peer hangs up
        writer.write(frame(MESSAGE + os.urandom(40)))
        try:
            await writer.drain()
            async with asyncio.timeout(0.05):
                await read_frame(reader)
        except TimeoutError:
            continue
        except (OSError, asyncio.IncompleteReadError):
            closed_after = sent
            break
    results["garbage stream closed after"] = closed_after
    writer.close()
    return results


async def hostile_match(loopback_table):
    config, identities = seeded_config("rummy", 3, {"target_score": "1"}, 8)
    sessions = await loopback_table(
        config,
        identities,
        entropy=lambda seat: StreamEntropy(b"hostile %d" % seat),
        player=lambda seat: make_bot("random", random.Random(seat)),
    )
    victim = sessions[0].mesh.address
    assert victim is not None
    results = await attack(victim, config, identities, sessions[0])
    async with asyncio.timeout(300):
        while not all(s.peer.replica.over or s.peer.frozen for s in sessions):
            await asyncio.sleep(0.05)
    for session in sessions:
        await session.close()
    return sessions, results


def test_hostile_input_is_refused_and_the_honest_match_finishes(loopback_table):
    sessions, results = asyncio.run(hostile_match(loopback_table))
    for what in ("random bytes", "oversize length", "bad msgpack", "deep nesting", "wrong shape"):
        assert results[what] is True, (what, results)  # the peer hung up
    assert results["unseated key"] and results["unseated key refused"], results
    assert results["flood refused"] >= 80  # every stranger's connection was dropped
    assert results["garbage stream closed after"] is not None, results
    refused = sessions[0].peer.trouble.refused
    for reason in ("bad signature", "another game", "already committed", "from seat 2"):
        assert any(reason in r for r in refused), (reason, refused)
    assert all(s.peer.frozen is None for s in sessions), [s.peer.frozen for s in sessions]
    assert all(s.peer.replica.over for s in sessions)
    assert sessions[0].peer.records == sessions[1].peer.records == sessions[2].peer.records
    first = decode(unpack(sessions[0].peer.records[0].step)[2])
    assert isinstance(first, Step) and first.n == 1
