"""Bounded (bounded issue): chat and catch-up asks are rate-limited per seat, a link's
queue is bounded, and a lobby member cannot make the creator keep what it sends."""

from __future__ import annotations

import asyncio
import os

from p2p_rommy.limits import CHAT_BURST, OUTBOX_MAX, SYNC_BURST, TokenBucket
from p2p_rommy.log.messages import Chat, Sync
from p2p_rommy.net.framing import frame, read_frame
from p2p_rommy.net.handshake import handshake
from p2p_rommy.net.lobby import MESSAGE, LobbyHost, TableSettings, join_entry
from p2p_rommy.net.mesh import Mesh
from p2p_rommy.rules import ruleset
from p2p_rommy.wire.codec import pack
from p2p_rommy.wire.identity import Identity
from tests.peer_table import PeerTable


def rss_mb() -> float:
    """This process's resident memory now, in MiB (from /proc)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


def test_a_token_bucket_allows_a_burst_then_its_rate():
    bucket = TokenBucket(rate=2.0, burst=3)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(0.5) and not bucket.take(0.5)  # one token after half a second
    assert all(bucket.take(10.0) for _ in range(3)) and not bucket.take(10.0)  # capped


def test_chat_and_catch_up_floods_are_refused_beyond_the_limit():
    table = PeerTable("rummy", 3, {"target_score": "15"})
    peer, flooder = table.peers[1], table.peers[2]
    sign, game = flooder.replica.identity.sign, flooder.replica.game
    for i in range(50):
        peer.receive(sign(Chat(game, 2, f"spam {i}").encode()), now=1.0, via=2)
    assert len(peer.chat) == CHAT_BURST
    answered = [peer.receive(sign(Sync(game, 2, 0, True).encode()), 1.0, 2) for _ in range(50)]
    assert sum(1 for out in answered if out.direct) == SYNC_BURST
    assert sum("too often" in r for r in peer.refused) == 50 - SYNC_BURST
    assert peer.frozen is None
    peer.receive(sign(Chat(game, 2, "later").encode()), now=10.0, via=2)
    assert peer.chat[-1] == (2, "later")  # the rate refills


def test_a_link_that_falls_too_far_behind_is_cut_and_its_queue_dropped():
    async def go() -> tuple[int, int]:
        identities = [Identity.generate() for _ in range(2)]
        keys = [i.public_key for i in identities]
        mesh = Mesh(
            identities[0], bytes(32), 0, keys, lambda s, e: True, lambda: None, lambda s: None
        )
        mesh.send(1, [b"x"] * (OUTBOX_MAX - 1))
        before = len(mesh.links[1].outbox)
        mesh.send(1, [b"y"] * 2)
        return before, len(mesh.links[1].outbox)

    before, after = asyncio.run(go())
    assert before == OUTBOX_MAX - 1 and after == 0


def test_a_lobby_member_that_floods_the_creator_is_cut_off():
    async def go() -> tuple[bool, list[str]]:
        rules = ruleset("rummy")
        settings = TableSettings("Flood", "rummy", rules.house.values, 64, rules.max_players)
        host = LobbyHost(
            Identity.generate(), "Ann", settings, [], "127.0.0.1", None, advertise=False
        )
        await host.listen("127.0.0.1")
        flooder = Identity.generate()
        reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
        await handshake(reader, writer, flooder, host.lobby, lambda key: True)
        writer.write(frame(MESSAGE + join_entry(flooder, host.lobby, "Mal", [])))
        big = flooder.sign(pack({"kind": "lobby/chatter", "pad": bytes(60_000)}))
        closed = False
        before = rss_mb()
        try:
            for _ in range(1000):  # 60 MB of signed lobby messages
                writer.write(frame(MESSAGE + big))
                await writer.drain()
            async with asyncio.timeout(5):
                while True:
                    await read_frame(reader)
        except (ConnectionError, asyncio.IncompleteReadError):
            closed = True
        await asyncio.sleep(0.2)
        grown = rss_mb() - before
        names = [m.name for m in host.members]
        writer.close()
        await host.close()
        return closed, names, grown

    closed, names, grown = asyncio.run(go())
    assert closed and names == ["Ann"]  # cut off, and gone from the table
    assert grown < 20, grown  # the creator kept none of it


def test_handshake_slots_keep_a_reserve_for_the_seats_own_addresses():
    """Strangers rotating their source address can fill the handshake slots, but not the
    reserve kept for the addresses the seated peers listed (a returning seat gets in)."""
    from p2p_rommy.net.timing import (
        MAX_PENDING_HANDSHAKES,
        MAX_PENDING_PER_SOURCE,
        RESERVED_FOR_SEATS,
    )

    identities = [Identity.generate() for _ in range(3)]
    mesh = Mesh(identities[0], bytes(32), 0, [i.public_key for i in identities], lambda s, e: True)
    mesh.links[1].addresses = [("192.0.2.11", 4001)]
    mesh._pending_handshakes = MAX_PENDING_HANDSHAKES  # the strangers hold every slot
    assert not mesh._admit("192.0.2.99", 0.0)
    assert mesh._admit("192.0.2.11", 0.0)  # seat 1's own address: the reserve
    mesh._pending_handshakes = MAX_PENDING_HANDSHAKES + RESERVED_FOR_SEATS
    assert not mesh._admit("192.0.2.11", 0.0)  # the reserve is bounded too
    mesh._pending_handshakes = 0
    mesh._pending_from["192.0.2.50"] = MAX_PENDING_PER_SOURCE
    assert not mesh._admit("192.0.2.50", 0.0) and mesh._admit("192.0.2.51", 0.0)
