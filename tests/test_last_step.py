"""Issue 31 (3): a seat killed at the match's last step — it ACKed the last seed, the
others committed it and exited — used to wait for ever on `rommy resume`, with nobody
left to catch it up. Now it asks, asks again, finds nobody, says so and exits. Real
sessions over TCP on 127.0.0.1 with their files; the resumed seat is opened by the
production path (`seat.opening.open_seat`) and finished by `rommy resume`'s."""

from __future__ import annotations

import asyncio
import copy
import random
import time

from p2p_rommy.bots import make_bot
from p2p_rommy.engine.state import Phase
from p2p_rommy.frontends.tables import _finish
from p2p_rommy.limits import ALONE_AFTER_S
from p2p_rommy.log.peer import Peer
from p2p_rommy.log.seated_replica import SeatedReplica
from p2p_rommy.log.transcript import Genesis, sign_config
from p2p_rommy.seat.loopback_match import seeded_config
from p2p_rommy.seat.opening import open_seat
from p2p_rommy.seat.session import Session
from p2p_rommy.seat.storage import GameStore
from p2p_rommy.wire.entropy import StreamEntropy

VICTIM = 1


def acked_the_last_step(session: Session) -> bool:
    """The seat holds its ACK of a step after which the match is over."""
    peer, replica = session.peer, session.peer.replica
    pending = peer.pending
    if pending is None or peer.seat not in pending.acks:
        return False
    if replica.state.phase is not Phase.MATCH_OVER:
        return False
    rehearsal = copy.deepcopy(replica)
    rehearsal.commit()
    return rehearsal.over


async def killed_at_the_last_step(tmp_path) -> tuple[GameStore, dict]:
    config, identities = seeded_config("rummy", 3, {"target_score": "1"}, 8)
    genesis = Genesis(config, config.encode(), tuple(sign_config(config, i) for i in identities))
    sessions, addresses = [], {}
    for seat in range(3):
        entropy = StreamEntropy(b"last step %d" % seat)
        replica = SeatedReplica(config, seat, identities[seat], entropy)
        store = GameStore(tmp_path / f"seat{seat}", config.game_id)
        store.begin(genesis)
        peer = Peer(replica, make_bot("random", random.Random(seat)))
        session = Session(peer, config, store)
        addresses[seat] = [await session.listen("127.0.0.1", 0)]
        sessions.append(session)
    killed = asyncio.Event()
    dying = sessions[VICTIM]
    handled = dying._handle

    def handle_then_maybe_die(out) -> None:  # type: ignore[no-untyped-def]
        handled(out)  # its ACK of the last step is on disk and on its way
        if not killed.is_set() and acked_the_last_step(dying):
            dying.halted = "killed by the test"
            killed.set()

    dying._handle = handle_then_maybe_die  # type: ignore[method-assign]
    for session in sessions:
        session.connect(addresses)
        session.start()
    async with asyncio.timeout(120):
        await killed.wait()
    await dying.mesh.flushed(5.0)
    await dying.close()
    others = [s for s in sessions if s is not dying]
    async with asyncio.timeout(60):
        while not all(s.peer.replica.over for s in others):
            await asyncio.sleep(0.05)
    # they finish and exit (flushed at once: one by one, the second waited out its 2 s
    # for the first, already closed)
    await asyncio.gather(*(session.mesh.flushed(2.0) for session in others))
    for session in others:
        await session.close()
    assert not dying.peer.replica.over
    return GameStore(tmp_path / f"seat{VICTIM}", config.game_id), {
        "identity": identities[VICTIM],
        "addresses": addresses,
    }


def test_a_seat_killed_at_the_last_step_says_nobody_is_left_and_exits(tmp_path, capsys):
    async def scenario() -> tuple[int, float, Session]:
        store, seat = await killed_at_the_last_step(tmp_path)
        saved = store.load()
        assert saved.acked is not None  # the last step it ACKed, kept before the ACK left
        config = saved.genesis.config
        session = await open_seat(
            config,
            seat["identity"],
            make_bot("random", random.Random(9)),
            listen=seat["addresses"][VICTIM][0],
            addresses=seat["addresses"],
            store=store,
            saved=saved,
        )
        started = time.monotonic()
        async with asyncio.timeout(60):  # before: for ever
            code = await _finish(session, store)
        return code, time.monotonic() - started, session

    code, took, session = asyncio.run(scenario())
    assert code == 1 and session.peer.alone
    assert session.peer.pending is not None  # the last step, held in flight again
    assert took < ALONE_AFTER_S + 10  # once nobody has answered for that long, not for ever
    said = capsys.readouterr().err
    assert "nobody else is at the table" in said and "rommy resume" in said
