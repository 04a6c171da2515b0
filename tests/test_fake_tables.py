"""A table is the one it claims to be (trust issue, attack 2): the key its host proves
in the handshake must be the one its advert names; member names and fingerprints come
from each member's own signed entry; an impostor with the real table's name, creator
fingerprint and lobby id is passed over. Loopback here; `test_netns.py` does the same
across network namespaces with the real `rommy join`."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from p2p_rommy.errors import ConfigError, ProtocolError
from p2p_rommy.frontends.tables import choose_table
from p2p_rommy.net.lobby import LobbyHost, LobbyState, TableSettings, join_table
from p2p_rommy.rules import ruleset
from p2p_rommy.seat.known_players import KnownPlayers
from p2p_rommy.wire.codec import pack
from p2p_rommy.wire.identity import Identity, fingerprint
from tests.impostor import impersonate

LOCAL = "127.0.0.1"


def settings(table: str) -> TableSettings:
    rules = ruleset("rummy")
    return TableSettings(table, "rummy", rules.house.values, rules.max_players)


async def real_table(table: str, identity: Identity | None = None) -> LobbyHost:
    identity = identity or Identity.generate()
    host = LobbyHost(identity, "Ann", settings(table), [(LOCAL, 1)], LOCAL, None)
    await host.listen(LOCAL)
    return host


def test_a_host_that_proves_another_key_than_advertised_is_refused():
    async def go() -> str:
        host = await real_table("Claims")
        try:
            joining = join_table(
                Identity.generate(),
                "Bo",
                LOCAL,
                host.port,
                host.lobby,
                [],
                creator="0000-1111-2222-3333",
            )
            with pytest.raises(ProtocolError) as error:
                await asyncio.wait_for(joining, 10)
            assert len(host.members) == 1
            return error.value.reason
        finally:
            await host.close()

    reason = asyncio.run(go())
    assert "not the table it claims to be" in reason and "0000-1111-2222-3333" in reason


def test_the_impostor_of_a_table_is_passed_over_and_the_real_one_joined():
    async def go() -> None:
        name = "Friday impostor test"
        host = await real_table(name)
        impostor = asyncio.create_task(impersonate(LOCAL, name))
        try:
            await asyncio.sleep(3)
            joiner = Identity.generate()
            # Whichever answers first, the joiner looks on past the impostor.
            ad, address = await choose_table(joiner, LOCAL, name, None, 6.0)
            assert ad.creator == fingerprint(host.identity.public_key)
            seen: list[LobbyState] = []
            joining = asyncio.create_task(
                join_table(joiner, "Bo", address, ad.port, ad.lobby, [], seen.append, ad.creator)
            )
            for _ in range(100):
                if seen:
                    break
                await asyncio.sleep(0.05)
            assert [m.name for m in seen[-1].members] == ["Ann", "Bo"]
            assert seen[-1].members[0].key == host.identity.public_key
            joining.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await joining
            await host.close()  # the real table is gone: only the impostor is left
            await asyncio.sleep(1)
            with pytest.raises(ConfigError, match="proves the creator's key"):
                await choose_table(Identity.generate(), LOCAL, name, None, 3.0)
        finally:
            impostor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await impostor
            await host.close()

    asyncio.run(go())


def test_a_joiner_that_hears_only_the_impostor_looks_on_until_the_real_table_is_back():
    """The impostor answers first and alone (the real table has closed and opens again
    2 s later, as `n` does): the joiner passes it over and joins the real table within
    its wait, instead of refusing after the 1 s settle."""

    async def go() -> None:
        name = "Saturday impostor test"
        creator = Identity.generate()
        first = await real_table(name, creator)
        impostor = asyncio.create_task(impersonate(LOCAL, name))
        again: LobbyHost | None = None
        try:
            await asyncio.sleep(3)  # the impostor has copied the advert
            await first.close()
            await asyncio.sleep(1)
            said: list[str] = []
            looking = asyncio.create_task(
                choose_table(Identity.generate(), LOCAL, name, None, 20.0, said.append)
            )
            for _ in range(100):  # until it has heard (and passed over) the impostor
                if looking.done() or any("passed over" in line for line in said):
                    break
                await asyncio.sleep(0.1)
            assert not looking.done(), "refused before the real table was back"
            assert any("passed over" in line for line in said)
            again = await real_table(name, creator)
            ad, address = await asyncio.wait_for(looking, 15)
            assert address == LOCAL
            assert (ad.port, ad.lobby) == (again.port, again.lobby)
            assert ad.creator == fingerprint(creator.public_key)
        finally:
            impostor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await impostor
            await first.close()
            if again is not None:
                await again.close()

    asyncio.run(go())


def test_a_lobby_state_with_a_forged_member_entry_is_refused():
    creator, victim = Identity.generate(), Identity.generate()
    lobby = bytes(32)
    own = creator.sign(pack({"kind": "lobby/join", "lobby": lobby, "name": "Ann", "addresses": []}))
    forged = creator.sign(
        pack({"kind": "lobby/join", "lobby": lobby, "name": "Cy", "addresses": []})
    )
    rules = ruleset("rummy")
    body = {
        "kind": "lobby/state",
        "lobby": lobby,
        "table": "T",
        "variant": "rummy",
        "house": [list(p) for p in rules.house.values],
        "seats": 6,
        "open": True,
        "members": [[creator.public_key, own], [victim.public_key, forged]],
    }
    with pytest.raises(ProtocolError, match="not seated"):  # not signed by the victim
        LobbyState.parse(body, lobby, creator.public_key)
    body["members"] = body["members"][:1]
    assert LobbyState.parse(body, lobby, creator.public_key).members[0].name == "Ann"
    with pytest.raises(ProtocolError, match="not first"):
        LobbyState.parse(body, lobby, victim.public_key)


def test_a_known_name_with_a_new_key_is_warned_about(tmp_path):
    ann, stranger, me = (Identity.generate().public_key for _ in range(3))
    known = KnownPlayers(tmp_path)
    assert known.warnings([("Ann", stranger)], me) == []  # never met: nothing to compare
    known.remember([("Ann", ann), ("Me", me)])
    again = KnownPlayers(tmp_path)
    assert again.warnings([("Ann", ann), ("Me", me)], me) == []
    (warning,) = again.warnings([("Ann", stranger)], me)
    assert "WARNING" in warning and fingerprint(stranger) in warning and fingerprint(ann) in warning
    assert (tmp_path / "known_players").stat().st_mode & 0o777 == 0o600
