"""The lobby over real TCP and real mDNS on 127.0.0.1: players find the table, the
coin seats them, everyone signs the same config; strangers are refused."""

from __future__ import annotations

import asyncio
import contextlib

import msgpack
import pytest

from p2p_rommy.errors import ProtocolError
from p2p_rommy.lobby import Send
from p2p_rommy.lobby import joiner as joiner_module
from p2p_rommy.lobby.host import Effect
from p2p_rommy.log.transcript import check_genesis
from p2p_rommy.net import lobby as lobby_module
from p2p_rommy.net.discovery import find_tables
from p2p_rommy.net.handshake import handshake
from p2p_rommy.net.lobby import LobbyHost, TableSettings, join_table
from p2p_rommy.rules import ruleset
from p2p_rommy.wire.codec import unpack
from p2p_rommy.wire.identity import Identity, fingerprint

LOCAL = "127.0.0.1"


async def gather_table(players: int = 3):
    rules = ruleset("lp")
    host_identity = Identity.generate()
    settings = TableSettings("Lobby test", "lp", rules.house.values, rules.max_players)
    host = LobbyHost(host_identity, "Ann", settings, [(LOCAL, 40001)], LOCAL, start_when=players)
    await host.listen(LOCAL)
    seen = await find_tables(LOCAL, wait=2.5)
    ours = [ad for ad in seen if ad.lobby == host.lobby]
    assert ours and ours[0].open and ours[0].taken == 1
    assert ours[0].creator == fingerprint(host_identity.public_key)
    guests = [Identity.generate() for _ in range(players - 1)]
    joined = [
        join_table(identity, f"G{i}", LOCAL, host.port, host.lobby, [(LOCAL, 40002 + i)])
        for i, identity in enumerate(guests)
    ]
    results = await asyncio.wait_for(asyncio.gather(host.run(), *joined), 60)
    return host_identity, guests, results


def test_players_gather_and_all_sign_one_config():
    host_identity, guests, results = asyncio.run(gather_table(3))
    configs = {r.config.encode() for r in results}
    assert len(configs) == 1  # everyone built the same config
    genesis = results[0].genesis
    assert check_genesis(genesis.encode()).config == results[0].config
    config = results[0].config
    assert {s.public_key for s in config.seats} == {
        host_identity.public_key,
        *(g.public_key for g in guests),
    }
    assert len({r.config.short_code() for r in results}) == 1
    # every seat's game address came through the lobby
    assert sorted(port for r in results[:1] for a in r.addresses.values() for _, port in a) == [
        40001,
        40002,
        40003,
    ]


def test_join_by_address_without_mdns():
    async def main():
        rules = ruleset("rummy")
        settings = TableSettings("Direct", "rummy", rules.house.values, 6)
        host = LobbyHost(
            Identity.generate(), "Ann", settings, [(LOCAL, 1)], LOCAL, 2, advertise=False
        )
        await host.listen(LOCAL)
        return await asyncio.wait_for(
            asyncio.gather(
                host.run(), join_table(Identity.generate(), "Bo", LOCAL, host.port, None, [])
            ),
            30,
        )

    results = asyncio.run(main())
    assert results[0].config == results[1].config and results[0].config.players == 2


def test_a_key_that_is_not_seated_is_refused_by_the_game_mesh():
    from p2p_rommy.net.mesh import Mesh

    async def main():
        seated = [Identity.generate() for _ in range(2)]
        mesh = Mesh(seated[0], b"G" * 32, 0, [i.public_key for i in seated], _accept)
        host, port = await mesh.listen(LOCAL)
        reader, writer = await asyncio.open_connection(host, port)
        stranger = Identity.generate()
        with pytest.raises((ProtocolError, asyncio.IncompleteReadError, OSError)):
            await handshake(reader, writer, stranger, b"G" * 32, lambda key: True)
        writer.close()
        await mesh.close()

    asyncio.run(main())


class RerollingCreator(LobbyHost):
    """A creator that sees every coin value and then stops the start (to open the table
    again until the seating suits it)."""

    hangs_up = False

    def _apply(self, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Send) and _relays(effect.envelope, "reveals"):
                if self.hangs_up:
                    for connection in self.connections.values():
                        connection.writer.close()
                return  # and never relays the values
        super()._apply(effects)


def _relays(envelope: bytes, stage: str) -> bool:
    body = unpack(msgpack.unpackb(envelope)[2])
    return body.get("kind") == "lobby/relay" and body.get("stage") == stage


@pytest.mark.parametrize("hangs_up", [False, True], ids=["goes-quiet", "hangs-up"])
def test_a_creator_that_stops_after_the_reveals_is_named_for_it(monkeypatch, hangs_up):
    """Trust issue, attack 6: everyone commits before anyone reveals, and a creator that
    stops after seeing the values cannot do so unseen: every joiner names it."""
    monkeypatch.setattr(joiner_module, "START_STAGE_TIMEOUT_S", 2.0)

    async def go() -> tuple[str, list[BaseException | object]]:
        rules = ruleset("rummy")
        creator = Identity.generate()
        settings = TableSettings("Reroll", "rummy", rules.house.values, rules.max_players)
        host = RerollingCreator(creator, "Ann", settings, [], LOCAL, 3, advertise=False)
        host.hangs_up = hangs_up
        await host.listen(LOCAL)
        running = asyncio.create_task(host.run())
        joining = [
            join_table(Identity.generate(), f"G{i}", LOCAL, host.port, host.lobby, [])
            for i in range(2)
        ]
        results = await asyncio.wait_for(asyncio.gather(*joining, return_exceptions=True), 30)
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError, ProtocolError):
            await running
        await host.close()
        return fingerprint(creator.public_key), results

    creator, results = asyncio.run(go())
    for result in results:
        assert isinstance(result, ProtocolError), result
        assert "the start stopped after you revealed your coin value" in result.reason
        assert "Ann" in result.reason and creator in result.reason


def test_a_member_who_leaves_or_is_sent_away_no_longer_holds_a_seat():
    """Bounded issue: a ghost joiner is dropped when its connection closes, and the
    creator can send a squatter away; the seat count is never filled by them."""

    async def go() -> tuple[list[str], list[str], object]:
        rules = ruleset("rummy")
        settings = TableSettings("Ghosts", "rummy", rules.house.values, rules.max_players)
        host = LobbyHost(Identity.generate(), "Ann", settings, [], LOCAL, None, advertise=False)
        await host.listen(LOCAL)
        ghost, squatter = Identity.generate(), Identity.generate()
        ghosting = asyncio.create_task(join_table(ghost, "Ghost", LOCAL, host.port, None, []))
        squatting = asyncio.create_task(join_table(squatter, "Squat", LOCAL, host.port, None, []))
        while len(host.members) < 3:
            await asyncio.sleep(0.02)
        seated = [m.name for m in host.members]
        ghosting.cancel()  # the ghost's process goes away
        with contextlib.suppress(asyncio.CancelledError):
            await ghosting
        host.remove(squatter.public_key)
        outcome = await asyncio.gather(squatting, return_exceptions=True)
        while len(host.members) > 1:
            await asyncio.sleep(0.02)
        left = [m.name for m in host.members]
        await host.close()
        return seated, left, outcome[0]

    seated, left, squatter_outcome = asyncio.run(asyncio.wait_for(go(), 30))
    assert sorted(seated) == ["Ann", "Ghost", "Squat"] and left == ["Ann"]
    assert isinstance(squatter_outcome, ProtocolError)


def test_a_thousand_idle_connections_are_shed_and_a_real_joiner_gets_in(monkeypatch):
    """Bounded issue: connections that never finish their handshake or never join are
    capped while pending and closed after their timeout; the table stays joinable."""
    from p2p_rommy.net import handshake as handshake_module

    # long enough that the pending ones are still pending while a loaded machine opens
    # the rest (with 1 s, early ones timed out and freed slots: 952 refused under CI load)
    monkeypatch.setattr(handshake_module, "HANDSHAKE_TIMEOUT_S", 4.0)
    monkeypatch.setattr(lobby_module, "LOBBY_REPLY_TIMEOUT_S", 4.0)

    async def go() -> tuple[int, list[str]]:
        rules = ruleset("rummy")
        settings = TableSettings("Idle", "rummy", rules.house.values, rules.max_players)
        host = LobbyHost(Identity.generate(), "Ann", settings, [], LOCAL, None, advertise=False)
        await host.listen(LOCAL)
        idle = []
        for i in range(1000):
            source = f"127.0.{1 + i // 250}.{2 + i % 250}"
            with contextlib.suppress(OSError):
                idle.append(
                    (await asyncio.open_connection(LOCAL, host.port, local_addr=(source, 0)))[1]
                )
        await asyncio.sleep(5.0)  # every idle connection has timed out by now
        assert host.admission.pending == 0
        joiner = asyncio.create_task(
            join_table(Identity.generate(), "Bo", LOCAL, host.port, None, [])
        )
        while len(host.members) < 2:
            await asyncio.sleep(0.02)
        joiner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await joiner
        for writer in idle:
            writer.close()
        names = [m.name for m in host.members]
        await host.close()
        return host.refused_connections, names

    refused, names = asyncio.run(asyncio.wait_for(go(), 60))
    assert refused >= 1000 - 32 - 8  # beyond the pending cap, refused at once
    assert names == ["Ann", "Bo"]


def test_a_table_whose_ghost_left_starts_with_the_real_players():
    """Bounded issue: with --start-when 3, a joiner who left (a ghost) used to hold its
    seat: the start then waited for its coin forever. It is dropped, and the table
    starts when three real players sit."""

    async def go():
        rules = ruleset("rummy")
        settings = TableSettings("Ghost", "rummy", rules.house.values, rules.max_players)
        host = LobbyHost(Identity.generate(), "Ann", settings, [], LOCAL, 3, advertise=False)
        await host.listen(LOCAL)
        running = asyncio.create_task(host.run())
        ghost = asyncio.create_task(
            join_table(Identity.generate(), "Ghost", LOCAL, host.port, None, [])
        )
        while len(host.members) < 2:
            await asyncio.sleep(0.02)
        ghost.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ghost
        while len(host.members) > 1:
            await asyncio.sleep(0.02)
        real = [Identity.generate() for _ in range(2)]
        joined = [join_table(i, f"Real{n}", LOCAL, host.port, None, []) for n, i in enumerate(real)]
        results = await asyncio.wait_for(asyncio.gather(running, *joined), 60)
        return real, results

    real, results = asyncio.run(go())
    seats = {seat.name for seat in results[0].config.seats}
    assert seats == {"Ann", "Real0", "Real1"}
    assert {r.config.game_id for r in results} == {results[0].config.game_id}
    assert {s.public_key for s in results[0].config.seats} >= {i.public_key for i in real}


async def _accept(seat: int, envelope: bytes) -> bool:
    """A mesh's `on_message` that takes everything."""
    return True


def test_six_joiners_each_proving_the_key_first_all_get_in():
    """Issue 31 (4): `rommy join` first proves the table's key on a connection it then
    closes (`first_proven`); the lobby counted each as a failed handshake, so the fifth
    joiner from one network was reset by a penalty. A proof is not a failure."""

    async def go() -> tuple[list[str], list[str | None]]:
        rules = ruleset("rummy")
        settings = TableSettings("Six", "rummy", rules.house.values, rules.max_players)
        creator = Identity.generate()
        host = LobbyHost(creator, "Ann", settings, [], LOCAL, None, advertise=False)
        await host.listen(LOCAL)
        key = fingerprint(creator.public_key)
        proved: list[str | None] = []
        joining = []
        for n in range(6):
            identity = Identity.generate()
            winner, _ = await lobby_module.first_proven(
                identity, [LOCAL], host.port, host.lobby, key
            )
            proved.append(winner)
            if n == 5:  # the table is full (six seats): the sixth only looks
                break
            joining.append(
                asyncio.create_task(
                    join_table(identity, f"G{n}", LOCAL, host.port, host.lobby, [], creator=key)
                )
            )
            while len(host.members) < n + 2 and not joining[-1].done():
                await asyncio.sleep(0.02)
        names = [m.name for m in host.members]
        for task in joining:
            task.cancel()
        await asyncio.gather(*joining, return_exceptions=True)
        await host.close()
        return names, proved

    names, proved = asyncio.run(asyncio.wait_for(go(), 60))
    assert names == ["Ann", "G0", "G1", "G2", "G3", "G4"]
    assert proved == [LOCAL] * 6
