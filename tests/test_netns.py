"""Real mDNS across hosts: 4 peers in 4 Linux network namespaces joined by a bridge
(veth pairs) find the table by multicast and play a full round. Root and iproute2
are needed; `.ci/run` provides both, and under CI=true this test fails rather than
skips. Everything stays inside namespaces this test makes and deletes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

PEERS = 4


def _need_root_and_ip() -> None:
    missing = []
    if os.geteuid() != 0:
        missing.append("root")
    if shutil.which("ip") is None:
        missing.append("iproute2")
    if missing:
        message = "network namespaces need " + " and ".join(missing)
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=30)


class Hosts:
    """A hub namespace with a bridge and one namespace per peer, on 198.18.0.0/24."""

    def __init__(self) -> None:
        self.prefix = f"rt{os.getpid() % 100000}"
        self.hub = f"{self.prefix}h"
        self.names = [f"{self.prefix}p{i}" for i in range(1, PEERS + 1)]

    def address(self, i: int) -> str:
        return f"198.18.0.{i + 1}"

    def __enter__(self) -> Hosts:
        ip("netns", "add", self.hub)
        ip("-n", self.hub, "link", "add", "br0", "type", "bridge")
        ip("-n", self.hub, "link", "set", "br0", "up")
        for i, name in enumerate(self.names):
            ip("netns", "add", name)
            ip(
                "-n",
                name,
                "link",
                "add",
                "eth0",
                "type",
                "veth",
                "peer",
                "name",
                f"v{i}",
                "netns",
                self.hub,
            )
            ip("-n", self.hub, "link", "set", f"v{i}", "master", "br0")
            ip("-n", self.hub, "link", "set", f"v{i}", "up")
            ip("-n", name, "addr", "add", f"{self.address(i)}/24", "dev", "eth0")
            ip("-n", name, "link", "set", "eth0", "up")
            ip("-n", name, "link", "set", "lo", "up")
            ip("-n", name, "route", "add", "224.0.0.0/4", "dev", "eth0")
        return self

    def __exit__(self, *exc: object) -> None:
        for name in [*self.names, self.hub]:
            subprocess.run(["ip", "netns", "delete", name], capture_output=True, timeout=30)

    def run(self, i: int, *args: str, data: Path) -> subprocess.Popen:
        command = [
            "ip",
            "netns",
            "exec",
            self.names[i],
            sys.executable,
            "-m",
            "p2p_rommy",
            *args,
            "--interface",
            self.address(i),
            "--data-dir",
            str(data),
        ]
        return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_four_hosts_find_the_table_by_mdns_and_play(tmp_path):
    _need_root_and_ip()
    with Hosts() as hosts:
        host = hosts.run(
            0,
            "host",
            "--table",
            "Namespaces",
            "--variant",
            "rummy",
            "--house",
            "target_score=1",
            "--start-when",
            "4",
            "--bot",
            "random",
            "--name",
            "Ann",
            data=tmp_path / "p0",
        )
        time.sleep(2)
        listed = subprocess.run(
            [
                "ip",
                "netns",
                "exec",
                hosts.names[1],
                sys.executable,
                "-m",
                "p2p_rommy",
                "tables",
                "--interface",
                hosts.address(1),
                "--wait",
                "3",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert "Namespaces" in listed.stdout and hosts.address(0) in listed.stdout, listed
        joiners = [
            hosts.run(
                i,
                "join",
                "Namespaces",
                "--bot",
                "random",
                "--name",
                f"P{i}",
                data=tmp_path / f"p{i}",
            )
            for i in range(1, PEERS)
        ]
        outputs = []
        for process in [host, *joiners]:
            try:
                out, err = process.communicate(timeout=300)
            finally:
                process.kill()
            assert process.returncode == 0, err[-2000:]
            outputs.append(out)
    assert all("Total" in out for out in outputs)
    transcripts = {
        next((tmp_path / f"p{i}" / "games").glob("*/transcript")).read_bytes() for i in range(PEERS)
    }
    assert len(transcripts) == 1


def test_join_passes_over_an_impostor_table_across_hosts(tmp_path):
    """Trust issue, attack 2: a host advertises a table with the real one's name,
    creator fingerprint and lobby id but its own key. `rommy join NAME` never joins it:
    with the real table there it joins the real one, and alone it is refused."""
    _need_root_and_ip()
    root = Path(__file__).resolve().parent.parent
    with Hosts() as hosts:
        host = hosts.run(
            0,
            "host",
            "--table",
            "Friday",
            "--variant",
            "rummy",
            "--house",
            "target_score=1",
            "--start-when",
            "3",
            "--bot",
            "random",
            "--name",
            "Ann",
            data=tmp_path / "p0",
        )
        impostor = subprocess.Popen(
            [
                *("ip", "netns", "exec", hosts.names[1], sys.executable, "-m"),
                *("tests.impostor", hosts.address(1), "Friday"),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=root,
        )
        try:
            assert impostor.stdout is not None
            # it has found the real table and answers queries with its copy of the advert
            advertising = impostor.stdout.readline()
            joiners = [
                hosts.run(
                    i,
                    "join",
                    "Friday",
                    "--bot",
                    "random",
                    "--name",
                    f"P{i}",
                    data=tmp_path / f"p{i}",
                )
                for i in (2, 3)
            ]
            for process in [host, *joiners]:
                try:
                    _, err = process.communicate(timeout=300)
                finally:
                    process.kill()
                assert process.returncode == 0, err[-2000:]
            time.sleep(2)  # the real table's goodbye has gone out
            alone = hosts.run(  # it looks for all of --wait (default 20 s) before it refuses
                2, "join", "Friday", "--wait", "8", "--bot", "random", data=tmp_path / "late"
            )
            _, err = alone.communicate(timeout=120)
            assert alone.returncode == 2, err[-2000:]
            assert "proves the creator's key" in err and "passed over" in err
        finally:
            impostor.kill()
            out, err = impostor.communicate(timeout=30)
    assert advertising.startswith("ADVERTISING"), (advertising, err[-2000:])
    assert "JOINED" not in out
    transcripts = {
        next((tmp_path / f"p{i}" / "games").glob("*/transcript")).read_bytes() for i in (0, 2, 3)
    }
    assert len(transcripts) == 1
