"""Bounded (bounded issue): chat and catch-up asks are rate-limited per seat, a link's
queue is bounded, and a lobby member cannot make the creator keep what it sends."""

from __future__ import annotations

import asyncio
import os

from p2p_rommy.limits import CHAT_BURST, OUTBOX_MAX, SYNC_BURST, TokenBucket
from p2p_rommy.log.events import sends_to
from p2p_rommy.log.messages import Chat, Sync
from p2p_rommy.net.framing import frame, read_frame
from p2p_rommy.net.handshake import handshake
from p2p_rommy.net.lobby import MESSAGE, LobbyHost, TableSettings, join_entry
from p2p_rommy.net.mesh import Mesh
from p2p_rommy.rules import ruleset
from p2p_rommy.wire.codec import pack, unpack
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
    assert len(peer.chat.lines) == CHAT_BURST
    answered = [peer.receive(sign(Sync(game, 2, 0, True).encode()), 1.0, 2) for _ in range(50)]
    assert sum(1 for out in answered if sends_to(out)) == SYNC_BURST
    assert sum("too often" in r for r in peer.trouble.refused) == 50 - SYNC_BURST
    assert peer.frozen is None
    peer.receive(sign(Chat(game, 2, "later").encode()), now=10.0, via=2)
    assert peer.chat.lines[-1] == (2, "later")  # the rate refills


def test_a_link_that_falls_too_far_behind_is_cut_and_its_queue_dropped():
    async def go() -> tuple[int, int]:
        identities = [Identity.generate() for _ in range(2)]
        keys = [i.public_key for i in identities]
        mesh = Mesh(identities[0], bytes(32), 0, keys, _accept, lambda: None, lambda s: None)
        mesh.send(1, [b"x"] * (OUTBOX_MAX - 1))
        before = len(mesh.links[1].outbox)
        mesh.send(1, [b"y"] * 2)
        return before, len(mesh.links[1].outbox)

    before, after = asyncio.run(go())
    assert before == OUTBOX_MAX - 1 and after == 0


def test_a_lobby_member_that_floods_the_creator_is_cut_off():
    async def go() -> tuple[bool, list[str]]:
        rules = ruleset("rummy")
        settings = TableSettings("Flood", "rummy", rules.house.values, rules.max_players)
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
    from p2p_rommy.limits import (
        MAX_PENDING_HANDSHAKES,
        RESERVED_FOR_SEATS,
    )

    identities = [Identity.generate() for _ in range(3)]
    mesh = Mesh(identities[0], bytes(32), 0, [i.public_key for i in identities], _accept)
    mesh.links[1].addresses = [("192.0.2.11", 4001)]
    seated = mesh._seated()
    admission = mesh.admission
    for i in range(MAX_PENDING_HANDSHAKES):  # strangers from many networks hold every slot
        assert admission.admit(f"198.51.{i}.7", 0.0, seated)
    assert not admission.admit("192.0.2.99", 0.0, seated)
    for _ in range(RESERVED_FOR_SEATS):  # seat 1's own address: the reserve
        assert admission.admit("192.0.2.11", 0.0, seated)
    assert not admission.admit("192.0.2.11", 0.0, seated)  # the reserve is bounded too


def test_pending_caps_and_penalties_are_per_source_network():
    """Bounded issue: a guest rotating through its network's addresses is one source."""
    from p2p_rommy.limits import (
        FAILED_HANDSHAKES_BEFORE_PENALTY,
        MAX_PENDING_PER_NETWORK,
        MAX_PENDING_PER_SOURCE,
        PENALTY_S,
        source_network,
    )
    from p2p_rommy.net.admission import Admission

    assert source_network("10.1.2.3") == source_network("10.1.2.200") == "10.1.2.0/24"
    assert source_network("::ffff:10.1.2.3") == "10.1.2.0/24"
    assert source_network("fe80::1:2") == source_network("fe80::9") != source_network("fe81::1")
    admission = Admission()
    for _ in range(MAX_PENDING_PER_SOURCE):
        assert admission.admit("10.1.2.3", 0.0)
    assert not admission.admit("10.1.2.3", 0.0)  # one address
    for i in range(MAX_PENDING_PER_NETWORK - MAX_PENDING_PER_SOURCE):
        assert admission.admit(f"10.1.2.{10 + i}", 0.0)
    assert not admission.admit("10.1.2.99", 0.0)  # its whole network
    assert admission.admit("10.1.3.1", 0.0)  # the next network is another source
    admission.release("10.1.2.3")
    assert admission.admit("10.1.2.99", 0.0)  # a released slot is free again
    for i in range(FAILED_HANDSHAKES_BEFORE_PENALTY):  # failures from rotating addresses
        admission.failed(f"10.9.9.{i}", 0.0)
    assert not admission.admit("10.9.9.200", 1.0)  # the network waits out its penalty
    assert admission.admit("10.9.9.200", PENALTY_S + 0.1)
    admission.penalise("10.7.7.7", 0.0, seated={"10.7.7.8"})
    assert admission.admit("10.7.7.8", 0.1, seated={"10.7.7.8"})  # a seat is judged alone
    assert not admission.admit("10.7.7.9", 0.1, seated={"10.7.7.8"})


def test_spec_lists_every_limit_with_its_value():
    """Bounded issue: every limit is a named constant with its unit, in one module,
    stated in SPEC §4.9 (this test fails if the two drift apart)."""
    import re
    from pathlib import Path

    from p2p_rommy import limits

    spec = Path(__file__).parent.parent / "protocol" / "SPEC.md"
    section = spec.read_text().split("### 4.9 Limits", 1)[1]
    stated = {
        name: float(value)
        for name, value in re.findall(r"^\| `([A-Z0-9_]+)` \| ([0-9.]+)", section, re.MULTILINE)
    }
    constants = {
        name: value
        for name, value in vars(limits).items()
        if name.isupper() and isinstance(value, int | float)
    }
    assert stated == {name: float(value) for name, value in constants.items()}


def test_timing_constants_live_only_in_the_limits_module():
    import re
    from pathlib import Path

    package = Path(__file__).parent.parent / "p2p_rommy"
    elsewhere = [
        f"{path.relative_to(package)}: {line.strip()}"
        for path in package.rglob("*.py")
        if path.name != "limits.py"
        # the simulator's own world (a simulated clock and network), not the product's
        and path.relative_to(package).parts[0] != "sim"
        for line in path.read_text().splitlines()
        if re.match(r"[A-Z][A-Z0-9_]*_(S|MS)\s*[:=]", line)
    ]
    assert not elsewhere, elsewhere


def test_a_signature_is_checked_each_time_it_is_asked(monkeypatch):
    """No process-wide memo of signatures (issue #28): each envelope is opened once
    where it arrives (tests/test_open_once.py, tests/test_verify_once.py), so every
    call is a real check and a changed message under a good signature always fails."""
    from p2p_rommy.wire import identity as module

    calls = []
    real = module.crypto_sign_open

    def counted(signed: bytes, key: bytes) -> bytes:
        calls.append(key)
        return real(signed, key)

    monkeypatch.setattr(module, "crypto_sign_open", counted)
    signer = Identity.generate()
    message = module.SIGNATURE_DOMAIN + b"a body"
    signature = unpack(signer.sign(b"a body"))[3]
    assert module.verify_signature(signer.public_key, signature, message)
    assert module.verify_signature(signer.public_key, signature, message)
    assert len(calls) == 2
    changed = module.SIGNATURE_DOMAIN + b"another body"
    assert not module.verify_signature(signer.public_key, signature, changed)
    assert not hasattr(module, "forget_verified_signatures")


async def _accept(seat: int, envelope: bytes) -> bool:
    """A mesh's `on_message` that takes everything."""
    return True


def test_failed_handshakes_are_forgiven_as_time_passes():
    """Issue 31 (4): failures decayed never, so a source's rare mishaps added up to a
    penalty over an evening; one is forgiven every `FAILED_HANDSHAKE_FORGIVEN_S`."""
    from p2p_rommy.limits import FAILED_HANDSHAKE_FORGIVEN_S, FAILED_HANDSHAKES_BEFORE_PENALTY
    from p2p_rommy.net.admission import Admission

    admission = Admission()
    for i in range(3 * FAILED_HANDSHAKES_BEFORE_PENALTY):  # spread out: never a penalty
        admission.failed("10.4.4.4", i * FAILED_HANDSHAKE_FORGIVEN_S)
        assert admission.admit("10.4.4.4", i * FAILED_HANDSHAKE_FORGIVEN_S + 0.01)
        admission.release("10.4.4.4")
    for _ in range(FAILED_HANDSHAKES_BEFORE_PENALTY):  # all at once: penalised
        admission.failed("10.5.5.5", 100.0)
    assert not admission.admit("10.5.5.5", 100.5)
