"""Laptops issue: plain `rommy host` / `rommy join`, no `--interface` anywhere, on a LAN
of Debian-like laptops: network namespaces on a bridge, each with one adapter, a default
route and the stock hosts file that maps its own host name to 127.0.1.1 (`ip netns exec`
mounts /etc/netns/NS/hosts over /etc/hosts; each laptop gets its own host name with
`unshare -u`). Also: a laptop whose default route goes through a second adapter nobody
can reach (a VPN), so that dead address is advertised first; and `rommy doctor` in a
good namespace and in one whose adapter cannot send multicast. Root and iproute2 are
needed (`.ci/run` has both); everything stays in namespaces this test makes and deletes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from tests.test_netns import _need_root_and_ip, ip

LAPTOPS = 3
ETC_NETNS = Path("/etc/netns")


class Laptops:
    """A hub namespace with a bridge (the Wi-Fi, its router at .254) and one namespace
    per laptop on 198.18.N.0/24, each with a default route and a Debian hosts file."""

    def __init__(self, net: int, count: int = LAPTOPS) -> None:
        self.prefix = f"lt{os.getpid() % 100000}n{net}"
        self.net = net
        self.hub = f"{self.prefix}h"
        self.names = [f"{self.prefix}l{i}" for i in range(count)]

    def address(self, i: int) -> str:
        return f"198.18.{self.net}.{i + 1}"

    def hostname(self, i: int) -> str:
        return f"laptop{i + 1}"

    def __enter__(self) -> Laptops:
        try:
            ip("netns", "add", self.hub)
            ip("-n", self.hub, "link", "add", "br0", "type", "bridge")
            ip("-n", self.hub, "addr", "add", f"198.18.{self.net}.254/24", "dev", "br0")
            ip("-n", self.hub, "link", "set", "br0", "up")
            for i, name in enumerate(self.names):
                ip("netns", "add", name)
                veth = ("eth0", "type", "veth", "peer", "name", f"v{i}", "netns", self.hub)
                ip("-n", name, "link", "add", *veth)
                ip("-n", self.hub, "link", "set", f"v{i}", "master", "br0")
                ip("-n", self.hub, "link", "set", f"v{i}", "up")
                ip("-n", name, "addr", "add", f"{self.address(i)}/24", "dev", "eth0")
                ip("-n", name, "link", "set", "eth0", "up")
                ip("-n", name, "link", "set", "lo", "up")
                ip("-n", name, "route", "add", "default", "via", f"198.18.{self.net}.254")
                etc = ETC_NETNS / name
                etc.mkdir(parents=True, exist_ok=True)
                (etc / "hosts").write_text(
                    "127.0.0.1\tlocalhost\n"
                    f"127.0.1.1\t{self.hostname(i)}\n"
                    "::1\tlocalhost ip6-localhost ip6-loopback\n"
                )
        except BaseException:
            self.__exit__()
            raise
        return self

    def dead_adapter_first(self, i: int) -> str:
        """Give laptop `i` a second adapter (a VPN's, say) that takes the default route;
        its peer end sits in a namespace of its own with nothing behind it. Its address
        is advertised first, and nobody else can reach it."""
        dead, void = f"10.{self.net}.0.1", f"{self.prefix}v{i}"
        ip("netns", "add", void)
        self.names.append(void)
        ip("-n", self.names[i], "link", "add", "tun0", "type", "veth", "peer", "name", "x0")
        ip("-n", self.names[i], "link", "set", "x0", "netns", void)
        ip("-n", self.names[i], "addr", "add", f"{dead}/24", "dev", "tun0")
        ip("-n", self.names[i], "link", "set", "tun0", "up")
        ip("-n", void, "link", "set", "x0", "up")
        ip("-n", self.names[i], "route", "replace", "default", "via", f"10.{self.net}.0.254")
        return dead

    def __exit__(self, *exc: object) -> None:
        for name in [*self.names, self.hub]:
            subprocess.run(["ip", "netns", "delete", name], capture_output=True, timeout=30)
            shutil.rmtree(ETC_NETNS / name, ignore_errors=True)

    def command(self, i: int, *args: str) -> list[str]:
        """`args` run on laptop `i`, under its own host name."""
        return [
            *("ip", "netns", "exec", self.names[i], "unshare", "-u", "sh", "-c"),
            'hostname "$0" && exec "$@"',
            self.hostname(i),
            *args,
        ]

    def rommy(self, i: int, *args: str, data: Path) -> subprocess.Popen[str]:
        command = self.command(i, sys.executable, "-m", "p2p_rommy", *args, "--data-dir", str(data))
        return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def host_and_join(laptops: Laptops, tmp_path: Path, table: str) -> list[subprocess.Popen[str]]:
    host = laptops.rommy(
        0,
        *("host", "--table", table, "--variant", "rummy", "--house", "target_score=1"),
        *("--start-when", str(LAPTOPS), "--bot", "random", "--name", "Ann"),
        data=tmp_path / "l0",
    )
    time.sleep(2)  # the advert is out (probing takes ~1.6 s)
    joiners = [
        laptops.rommy(
            i, "join", table, "--bot", "random", "--name", f"P{i}", data=tmp_path / f"l{i}"
        )
        for i in range(1, LAPTOPS)
    ]
    return [host, *joiners]


def finish(processes: list[subprocess.Popen[str]]) -> list[str]:
    outputs = []
    for process in processes:
        try:
            out, err = process.communicate(timeout=400)
        finally:
            process.kill()
        assert process.returncode == 0, (out[-2000:], err[-3000:])
        outputs.append(out)
    return outputs


def transcripts(tmp_path: Path) -> set[bytes]:
    return {
        next((tmp_path / f"l{i}" / "games").glob("*/transcript")).read_bytes()
        for i in range(LAPTOPS)
    }


def test_debian_laptops_play_with_plain_host_and_join(tmp_path):
    _need_root_and_ip()
    with Laptops(net=40) as laptops:
        resolved = subprocess.run(
            laptops.command(
                1, sys.executable, "-c", "import socket; print(socket.gethostbyname('laptop2'))"
            ),
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert resolved.stdout.strip() == "127.0.1.1", resolved  # the trap is set
        outputs = finish(host_and_join(laptops, tmp_path, "Fredag"))
        assert (
            f"this table uses address {laptops.address(0)} (eth0: the default route)"
            in (outputs[0])
        ), outputs[0]
        for out in outputs[1:]:
            assert f"joining at {laptops.address(0)}:" in out, out
        assert all("Total" in out for out in outputs)
    assert len(transcripts(tmp_path)) == 1


def test_a_dead_adapter_listed_first_does_not_hold_up_the_join(tmp_path):
    _need_root_and_ip()
    with Laptops(net=41) as laptops:
        dead = laptops.dead_adapter_first(0)
        processes = host_and_join(laptops, tmp_path, "Lørdag")
        started = time.monotonic()
        host, joiners = processes[0], processes[1:]
        assert host.stdout is not None
        first = host.stdout.readline()
        assert f"this table uses address {dead} (tun0: the default route); also " in first, first
        assert laptops.address(0) in first
        seen = []
        for joiner in joiners:
            assert joiner.stdout is not None
            seen.append(joiner.stdout.readline())  # printed once the creator proved its key
        joined_after = time.monotonic() - started
        for line in seen:
            assert f"joining at {laptops.address(0)}:" in line, line
        assert joined_after < 10, joined_after
        outputs = finish(processes)  # and the game's mesh, dead address first, plays on
        assert all("Total" in out for out in outputs)
    assert len(transcripts(tmp_path)) == 1


def test_doctor_says_all_is_well_or_names_the_multicast_problem(tmp_path):
    _need_root_and_ip()
    with Laptops(net=42, count=2) as laptops:
        good = subprocess.run(
            laptops.command(
                0, sys.executable, "-m", "p2p_rommy", "doctor", "--data-dir", str(tmp_path)
            ),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert good.returncode == 0, good
        assert f"{laptops.address(0)}" in good.stdout and "the default route" in good.stdout
        assert "All is well" in good.stdout, good.stdout
        # laptop 2's adapter keeps its address but carries nothing (link down: no route
        # for multicast, so the kernel refuses every mDNS send with ENETUNREACH)
        ip("-n", laptops.names[1], "link", "set", "eth0", "down")
        bad = subprocess.run(
            laptops.command(
                1, sys.executable, "-m", "p2p_rommy", "doctor", "--data-dir", str(tmp_path)
            ),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert bad.returncode == 1, bad
        assert "an mDNS query could not be sent: Network is unreachable" in bad.stdout, bad.stdout
        assert "no route for multicast" in bad.stdout
        assert "Traceback" not in bad.stderr
        tables = subprocess.run(
            laptops.command(1, sys.executable, "-m", "p2p_rommy", "tables", "--wait", "1"),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert tables.stdout.startswith(
            f"no tables found. mDNS cannot be sent from {laptops.address(1)}: Network is "
            "unreachable. there is no route for multicast"
        ), tables
        assert "`rommy doctor` checks this machine." in tables.stdout
        danish = subprocess.run(
            laptops.command(
                1,
                *(sys.executable, "-m", "p2p_rommy", "doctor", "--lang", "da"),
                *("--data-dir", str(tmp_path)),
            ),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert danish.returncode == 1 and "multicast" in danish.stdout
        assert "Something is wrong" not in danish.stdout
