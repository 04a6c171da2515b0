"""Laptops issue, addresses that work by default: which of this machine's addresses a
table advertises and in what order (each branch of `choose`, pure), the real lookups in
network namespaces this test makes, the mDNS send problems and their hints, and dialing
several addresses when some are dead (loopback: a listener whose accept queue is full
drops SYNs, as a dead adapter's address does)."""

from __future__ import annotations

import asyncio
import errno
import socket
import subprocess
import sys
import time

import pytest

from p2p_rommy.errors import ConfigError
from p2p_rommy.i18n import _
from p2p_rommy.limits import CONNECT_TIMEOUT_S, RECONNECT_JITTER, jittered
from p2p_rommy.net.addresses import (
    WHY_ALONE,
    WHY_CHOSEN,
    WHY_DEFAULT,
    WHY_LINK_LOCAL,
    WHY_LOOPBACK,
    WHY_OTHER,
    choose,
)
from p2p_rommy.net.dial import connect, first_connection
from p2p_rommy.net.lobby import LobbyHost, TableSettings, first_proven
from p2p_rommy.net.mesh import Mesh
from p2p_rommy.net.multicast import (
    HINT_DOWN,
    HINT_FIREWALL,
    HINT_MACOS,
    HINT_NO_ROUTE,
    HINT_OTHER,
    HINT_WINDOWS,
    SendProblem,
    explain,
    send_problem,
)
from p2p_rommy.rules import ruleset
from p2p_rommy.wire.identity import Identity, fingerprint
from tests.test_netns import _need_root_and_ip, ip

DEBIAN = [("lo", "127.0.0.1"), ("wlan0", "192.168.1.20"), ("docker0", "172.17.0.1")]


def test_the_default_routes_address_comes_first_and_loopback_is_left_out():
    found = choose(DEBIAN, "192.168.1.20")
    assert found.ips == ["192.168.1.20", "172.17.0.1"]
    assert [a.why for a in found.used] == [WHY_DEFAULT, WHY_OTHER]
    assert found.first.adapter == "wlan0"
    assert [(x.ip, x.why) for x in found.left_out] == [("127.0.0.1", WHY_LOOPBACK)]
    assert str(found.shown()) == (
        "address 192.168.1.20 (wlan0: the default route); also 172.17.0.1"
    )


def test_a_vpn_holding_the_default_route_goes_first_the_rest_in_adapter_order():
    adapters = [*DEBIAN, ("tun0", "10.8.0.5"), ("eth1", "192.168.50.3")]
    assert choose(adapters, "10.8.0.5").ips == [
        "10.8.0.5",
        "192.168.1.20",
        "172.17.0.1",
        "192.168.50.3",
    ]  # adapters' order, not sorted as strings (which put "10." before "172." before "192.")


def test_without_a_default_route_every_usable_address_in_adapter_order():
    found = choose([("eth1", "192.168.9.9"), *DEBIAN], None)
    assert found.ips == ["192.168.9.9", "192.168.1.20", "172.17.0.1"]
    assert found.default_route is None and all(a.why == WHY_OTHER for a in found.used)


def test_link_local_and_a_loopback_default_route_are_left_out():
    found = choose(
        [("lo", "127.0.0.1"), ("eth0", "169.254.7.1"), ("wlan0", "10.0.0.4")], "127.0.1.1"
    )
    assert found.ips == ["10.0.0.4"]
    assert ("169.254.7.1", WHY_LINK_LOCAL) in [(x.ip, x.why) for x in found.left_out]


def test_a_default_route_address_no_adapter_listed_is_still_used():
    assert choose([], "192.168.1.20").ips == ["192.168.1.20"]
    assert choose([], "192.168.1.20").first.adapter == "?"


def test_a_machine_on_no_network_plays_on_loopback_and_says_so():
    found = choose([("lo", "127.0.0.1"), ("eth0", "169.254.1.1")], None)
    assert found.ips == ["127.0.0.1"] and found.only_loopback
    assert found.first.why == WHY_ALONE
    assert "127.0.0.1" not in [x.ip for x in found.left_out]
    assert str(found.shown()) == "address 127.0.0.1 (lo: no network found: only this machine)"


def test_interface_is_used_alone_and_must_be_an_address():
    found = choose(DEBIAN, "192.168.1.20", "172.17.0.1")
    assert found.ips == ["172.17.0.1"] and found.first.why == WHY_CHOSEN
    assert found.first.adapter == "docker0"
    with pytest.raises(ConfigError, match="not 'eth0'"):
        choose(DEBIAN, None, "eth0")


def test_the_shown_line_is_in_the_clients_language():
    from p2p_rommy import i18n

    try:
        i18n.use("da")
        assert choose(DEBIAN, "192.168.1.20").shown().say(_) == (
            "adressen 192.168.1.20 (wlan0: standardruten); desuden 172.17.0.1"
        )
    finally:
        i18n.use("en")


def run_in_netns(namespace: str, code: str) -> str:
    done = subprocess.run(
        ["ip", "netns", "exec", namespace, sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_real_lookups_in_a_namespace_with_and_without_a_default_route():
    _need_root_and_ip()
    name = f"na{time.monotonic_ns() % 10**9}"
    code = (
        "from p2p_rommy.net.addresses import this_machine, default_route_address; "
        "m = this_machine(None); print(default_route_address(), m.ips, m.first.adapter)"
    )
    ip("netns", "add", name)
    try:
        ip("-n", name, "link", "set", "lo", "up")
        assert run_in_netns(name, code) == "None ['127.0.0.1'] lo"
        ip("-n", name, "link", "add", "eth0", "type", "veth", "peer", "name", "eth1")
        ip("-n", name, "addr", "add", "198.18.77.2/24", "dev", "eth0")
        ip("-n", name, "addr", "add", "169.254.3.3/16", "dev", "eth1")
        ip("-n", name, "link", "set", "eth0", "up")
        ip("-n", name, "link", "set", "eth1", "up")
        assert run_in_netns(name, code) == "None ['198.18.77.2'] eth0"
        ip("-n", name, "route", "add", "default", "via", "198.18.77.1")
        assert run_in_netns(name, code) == "198.18.77.2 ['198.18.77.2'] eth0"
        # the multicast probe: sent from an address with a live adapter, refused on a dead one
        probe = "from p2p_rommy.net.multicast import send_problem as p; print(p('198.18.77.2'))"
        assert run_in_netns(name, probe) == "None"
        ip("-n", name, "link", "set", "eth0", "down")
        assert f"error={errno.ENETUNREACH}" in run_in_netns(name, probe)
    finally:
        subprocess.run(["ip", "netns", "delete", name], capture_output=True, timeout=30)


def test_an_mdns_query_goes_out_on_loopback():
    assert send_problem("127.0.0.1") is None


@pytest.mark.parametrize(
    ("code", "platform", "hint"),
    [
        (errno.EHOSTUNREACH, "darwin", HINT_MACOS),  # Local Network denied
        (errno.EPERM, "darwin", HINT_MACOS),
        (errno.EACCES, "win32", HINT_WINDOWS),
        (errno.EPERM, "linux", HINT_FIREWALL),
        (errno.ENETUNREACH, "linux", HINT_NO_ROUTE),
        (errno.EHOSTUNREACH, "linux", HINT_NO_ROUTE),
        (errno.ENETDOWN, "linux", HINT_DOWN),
        (errno.EADDRNOTAVAIL, "darwin", HINT_DOWN),
        (errno.EIO, "linux", HINT_OTHER),
    ],
)
def test_each_send_error_gets_the_hint_that_fits_its_platform(code, platform, hint):
    assert explain(SendProblem("192.168.1.20", code, "x"), platform) == hint


def test_backoff_is_jittered_within_its_bounds():
    assert jittered(1.0, 0.0) == pytest.approx(1.0 - RECONNECT_JITTER)
    assert jittered(1.0, 0.5) == pytest.approx(1.0)
    assert jittered(2.0, 0.999999) == pytest.approx(2.0 * (1.0 + RECONNECT_JITTER), rel=1e-5)


class Stuck:
    """A listener whose accept queue is full: a new connection's SYN is dropped, and a
    connect hangs as it does to a dead adapter's address."""

    def __enter__(self) -> tuple[str, int]:
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(0)
        self.fillers = []
        for _filler in range(3):
            filler = socket.socket()
            filler.setblocking(False)
            filler.connect_ex(self.server.getsockname())
            self.fillers.append(filler)
        time.sleep(0.2)
        return self.server.getsockname()

    def __exit__(self, *exc: object) -> None:
        for sock in [*self.fillers, self.server]:
            sock.close()


def test_a_dead_address_costs_at_most_the_connect_timeout():
    async def go() -> float:
        with Stuck() as stuck:
            started = time.monotonic()
            with pytest.raises(TimeoutError):
                await connect(stuck, timeout=0.5)
            return time.monotonic() - started

    assert asyncio.run(go()) < 2.0
    assert CONNECT_TIMEOUT_S <= 5.0


def test_the_first_address_to_connect_wins_even_behind_a_dead_one():
    async def go() -> tuple[tuple[str, int], tuple[str, int], float]:
        served: list[int] = []

        async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            served.append(1)
            writer.close()

        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        live = server.sockets[0].getsockname()[:2]
        try:
            with Stuck() as stuck:
                started = time.monotonic()
                target, _reader, writer = await first_connection([stuck, live], timeout=5.0)
                writer.close()
                took = time.monotonic() - started
            with pytest.raises(OSError, match=r"refused|Connect call failed"):
                await first_connection([("127.0.0.1", 1)])
        finally:
            server.close()
        return target, live, took

    target, live, took = asyncio.run(go())
    assert target == live and took < 1.5


def test_a_joiner_tries_every_advertised_address_and_keeps_the_one_that_proves_the_key():
    async def go() -> tuple[str | None, dict[str, str | None], str]:
        rules = ruleset("rummy")
        settings = TableSettings("T", "rummy", rules.house.values, rules.max_players)
        host = LobbyHost(Identity.generate(), "Ann", settings, [], None, None, advertise=False)
        await host.listen("127.0.0.1")
        try:
            creator = fingerprint(host.identity.public_key)
            winner, seen = await first_proven(
                Identity.generate(), ["127.0.0.2", "127.0.0.1"], host.port, host.lobby, creator
            )
            return winner, seen, creator
        finally:
            await host.close()

    winner, seen, creator = asyncio.run(go())
    assert winner == "127.0.0.1" and seen["127.0.0.1"] == creator
    assert seen.get("127.0.0.2") is None  # refused there: it proves nothing


def test_a_mesh_dial_gets_past_a_dead_address_listed_first():
    async def go() -> float:
        identities = [Identity.generate() for _ in range(2)]
        keys = [i.public_key for i in identities]
        meshes = [Mesh(i, bytes(32), s, keys, lambda s, e: True) for s, i in enumerate(identities)]
        address = await meshes[0].listen("127.0.0.1", 0)
        with Stuck() as stuck:
            started = time.monotonic()
            meshes[1].connect({0: [stuck, address]})
            try:
                while not meshes[1].connected()[0]:
                    await asyncio.sleep(0.02)
                    assert time.monotonic() - started < 5
                return time.monotonic() - started
            finally:
                for mesh in meshes:
                    await mesh.close()

    assert asyncio.run(go()) < 2.0
