"""Laptops issue, `rommy doctor`: the advice fits what failed on each platform, the
verdict and exit code follow the checks, and the report speaks the client's language.
The checks themselves run for real in `test_netns_laptops.py` (a good namespace and one
whose adapter cannot send multicast); here the report is fed the facts (`report` is pure)."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from p2p_rommy import i18n
from p2p_rommy.cli import main
from p2p_rommy.doctor import (
    HINT_CONNECT,
    HINT_HEAR_LINUX,
    HINT_NO_NETWORK,
    HINT_TCP,
    AddressCheck,
    Checkup,
    hints,
    ok,
    report,
)
from p2p_rommy.net.addresses import choose
from p2p_rommy.net.multicast import HINT_MACOS, HINT_NO_ROUTE, HINT_WINDOWS, SendProblem

LAPTOP = choose([("lo", "127.0.0.1"), ("wlan0", "192.168.1.20")], "192.168.1.20")
GOOD = AddressCheck("192.168.1.20", None, True, None)


def checkup(*checks: AddressCheck, platform: str = "linux", addresses=LAPTOP) -> Checkup:
    return Checkup(
        addresses,
        checks,
        Path("/home/ann/.local/share/p2p-rommy"),
        "abcd-ef01-2345-6789",
        None,
        "3.13.1",
        platform,
        (("zeroconf", "0.154.0"), ("ifaddr", "0.2.0")),
    )


def test_all_well_says_so_with_addresses_identity_and_versions():
    lines = "\n".join(report(checkup(GOOD)))
    assert ok(checkup(GOOD)) and hints(checkup(GOOD)) == []
    assert "192.168.1.20    wlan0      the default route" in lines
    assert "left out: 127.0.0.1 (lo): loopback: only this machine" in lines
    assert "Identity: abcd-ef01-2345-6789" in lines and "zeroconf 0.154.0" in lines
    assert "/home/ann/.local/share/p2p-rommy" in lines and "Python 3.13.1 on linux" in lines
    assert lines.endswith("All is well: tables can be opened and found from this machine.")


@pytest.mark.parametrize(
    ("check", "platform", "expected"),
    [
        (AddressCheck("192.168.1.20", SendProblem("x", errno.EHOSTUNREACH, "No route"),
                      False, None), "darwin", [HINT_MACOS, HINT_CONNECT]),
        (AddressCheck("192.168.1.20", SendProblem("x", errno.ENETUNREACH, "unreachable"),
                      False, None), "linux", [HINT_NO_ROUTE, HINT_CONNECT]),
        (AddressCheck("192.168.1.20", None, False, None), "linux", [HINT_HEAR_LINUX, HINT_CONNECT]),
        (AddressCheck("192.168.1.20", None, False, None), "darwin", [HINT_MACOS, HINT_CONNECT]),
        (AddressCheck("192.168.1.20", None, False, "timed out"), "win32",
         [HINT_WINDOWS, HINT_CONNECT]),
        (AddressCheck("192.168.1.20", None, True, "refused"), "linux", [HINT_TCP, HINT_CONNECT]),
    ],
)  # fmt: skip
def test_each_failure_gets_the_hint_that_fits_it(check, platform, expected):
    found = checkup(check, platform=platform)
    assert hints(found) == expected and not ok(found)
    lines = report(found)
    assert "Something is wrong; what may help:" in lines
    assert lines[-len(expected) :] == [f"  - {hint}" for hint in expected]
    assert any(line.startswith("  FAILED ") for line in lines)


def test_a_machine_on_no_network_is_told_to_join_the_wifi():
    alone = choose([("lo", "127.0.0.1")], None)
    found = checkup(AddressCheck("127.0.0.1", None, True, None), addresses=alone)
    assert not ok(found) and hints(found) == [HINT_NO_NETWORK, HINT_CONNECT]
    assert "  no default route: every adapter's address is used" in report(found)


def test_the_report_is_in_the_clients_language():
    failed = AddressCheck(
        "192.168.1.20", SendProblem("x", errno.EHOSTUNREACH, "No route to host"), False, None
    )
    try:
        i18n.use("nb")
        lines = "\n".join(report(checkup(failed, platform="darwin")))
    finally:
        i18n.use("en")
    assert "Noe er galt; dette kan hjelpe:" in lines and "Lokalt nettverk" in lines
    assert "FEIL" in lines and "standardruten" in lines
    assert "Something" not in lines and "default route" not in lines


def test_doctor_refuses_an_interface_that_is_not_an_address(capsys):
    assert main(["doctor", "--interface", "wlan0"]) == 2
    err = capsys.readouterr().err
    assert "--interface takes this machine's IPv4 address" in err and "Traceback" not in err


def test_the_lobby_shows_the_tables_address_and_suggests_doctor_while_alone():
    from p2p_rommy.frontends.hints import alone_hint
    from p2p_rommy.tui.lobby import LobbyModel, lines

    me = bytes(32)
    model = LobbyModel("Fredag", "rummy", [], 6, 2, me, where=str(LAPTOP.shown()))
    model.members = [("Ann", me)]
    model.hint = alone_hint("192.168.1.20:40000")
    shown = "".join(text for _, text in lines(model))
    assert "address 192.168.1.20 (wlan0: the default route)" in shown
    assert "rommy doctor" in shown and "rommy join --connect 192.168.1.20:40000" in shown
    model.members.append(("Bo", bytes(range(32))))
    assert "rommy doctor" not in "".join(text for _, text in lines(model))


def test_a_join_that_finds_no_table_says_so_and_suggests_doctor():
    import asyncio

    from p2p_rommy.errors import ConfigError
    from p2p_rommy.frontends.tables import choose_table
    from p2p_rommy.wire.identity import Identity

    with pytest.raises(ConfigError) as error:
        asyncio.run(choose_table(Identity.generate(), "127.0.0.1", "Nowhere", None, 1.0))
    assert "no open table named 'Nowhere' found in 1 s." in str(error.value)
    assert "`rommy doctor` checks this machine" in str(error.value)


def test_a_creator_still_alone_is_told_about_doctor(monkeypatch):
    import asyncio
    from types import SimpleNamespace

    from p2p_rommy.frontends import hints

    monkeypatch.setattr(hints, "ALONE_HINT_S", 0.05)
    said: list[str] = []
    alone = SimpleNamespace(members=["Ann"])
    asyncio.run(hints.hint_when_alone(alone, "192.168.1.20:40000", said.append))
    assert len(said) == 1 and "rommy join --connect 192.168.1.20:40000" in said[0]
    joined = SimpleNamespace(members=["Ann", "Bo"])
    asyncio.run(hints.hint_when_alone(joined, "192.168.1.20:40000", said.append))
    assert len(said) == 1
