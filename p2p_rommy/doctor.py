"""``rommy doctor``: one command a stuck family runs, and what it says.

`examine` gathers the facts (I/O: the addresses a table would use and why, on each an
mDNS send, hearing its own advert and reaching a TCP listener; the data dir, the
identity, the versions); `report` turns them into lines in the client's language, the
hints that fit what failed on this platform, and a verdict. `report` is pure, so every
branch of the advice is tested without a broken network.
"""

from __future__ import annotations

import asyncio
import platform as platforms
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from p2p_rommy import __version__
from p2p_rommy.errors import ConfigError
from p2p_rommy.i18n import N_, _
from p2p_rommy.net.addresses import Addresses, this_machine
from p2p_rommy.net.checkup import hears_itself, tcp_reachable
from p2p_rommy.net.multicast import (
    HINT_FIREWALL,
    HINT_MACOS,
    HINT_WINDOWS,
    SendProblem,
    explain,
    send_problem,
)
from p2p_rommy.wire.identity import fingerprint

LIBRARIES = ("zeroconf", "ifaddr", "prompt_toolkit", "PyNaCl", "coincurve", "msgpack")

HINT_NO_NETWORK = N_(
    "this machine is on no network: connect it to the same Wi-Fi as the others "
    "(a guest network often keeps its machines apart)"
)
HINT_HEAR_LINUX = N_(
    "a firewall drops incoming mDNS (UDP port 5353): `sudo ufw allow 5353/udp`, or "
    "`sudo firewall-cmd --add-service=mdns`"
)
HINT_TCP = N_(
    "a firewall refuses incoming connections: allow Python (rommy) through it for the home network"
)
HINT_CONNECT = N_(
    "when mDNS cannot work on this network, the creator's screen shows an address: "
    "`rommy join --connect ADDRESS:PORT`"
)


@dataclass(frozen=True, slots=True)
class AddressCheck:
    """What was found on one address."""

    ip: str
    sent: SendProblem | None
    heard: bool
    tcp: str | None
    """None: a listener was reached; else the error."""

    @property
    def ok(self) -> bool:
        return self.sent is None and self.heard and self.tcp is None


@dataclass(frozen=True, slots=True)
class Checkup:
    addresses: Addresses
    checks: tuple[AddressCheck, ...]
    data_dir: Path
    identity: str | None
    """The identity's fingerprint; None if there is none yet."""
    identity_problem: str | None
    python: str
    platform: str
    versions: tuple[tuple[str, str], ...]


async def check_address(ip: str) -> AddressCheck:
    sent = await asyncio.to_thread(send_problem, ip)
    heard, tcp = await asyncio.gather(hears_itself(ip), tcp_reachable(ip))
    return AddressCheck(ip, sent, heard, tcp)


def _identity(data_dir: Path) -> tuple[str | None, str | None]:
    """The fingerprint of the identity kept in `data_dir` (never made here), or a problem."""
    from p2p_rommy.seat.opening import load_identity

    if not (data_dir / "identity").exists():
        return None, None
    try:
        return fingerprint(load_identity(data_dir).public_key), None
    except (ConfigError, OSError) as error:
        return None, str(error)


def _versions() -> tuple[tuple[str, str], ...]:
    found = []
    for name in LIBRARIES:
        try:
            found.append((name, metadata.version(name)))
        except metadata.PackageNotFoundError:
            found.append((name, "-"))
    return tuple(found)


async def examine(interface: str | None, data_dir: Path) -> Checkup:
    """Every fact `rommy doctor` reports, found for real on this machine."""
    addresses = this_machine(interface)
    checks = await asyncio.gather(*(check_address(a.ip) for a in addresses.used))
    identity, problem = _identity(data_dir)
    return Checkup(
        addresses,
        tuple(checks),
        data_dir,
        identity,
        problem,
        platforms.python_version(),
        sys.platform,
        _versions(),
    )


def hints(checkup: Checkup) -> list[str]:
    """The advice (message ids) that fits what failed, on the checkup's platform."""
    found: list[str] = []
    platform = checkup.platform

    def add(hint: str) -> None:
        if hint not in found:
            found.append(hint)

    if checkup.addresses.only_loopback:
        add(HINT_NO_NETWORK)
    for check in checkup.checks:
        if check.sent is not None:
            add(explain(check.sent, platform))
        elif not check.heard:
            add(
                HINT_MACOS
                if platform == "darwin"
                else HINT_WINDOWS
                if platform == "win32"
                else HINT_HEAR_LINUX
                if platform.startswith("linux")
                else HINT_FIREWALL
            )
        if check.tcp is not None:
            add(HINT_WINDOWS if platform == "win32" else HINT_TCP)
    if found:
        add(HINT_CONNECT)
    return found


def ok(checkup: Checkup) -> bool:
    return (
        not checkup.addresses.only_loopback
        and all(check.ok for check in checkup.checks)
        and checkup.identity_problem is None
    )


def report(checkup: Checkup) -> list[str]:
    """What `rommy doctor` prints, in the client's language (pure)."""
    good, bad = _("ok"), _("FAILED")
    lines = [
        _("rommy doctor: p2p-rommy {version}, Python {python} on {platform}").format(
            version=__version__, python=checkup.python, platform=checkup.platform
        ),
        "",
        _("Addresses a table would advertise (the first is the one shown):"),
    ]
    for address in checkup.addresses.used:
        lines.append(f"  {address.ip:<15} {address.adapter:<10} {_(address.why)}")
    for left in checkup.addresses.left_out:
        lines.append(
            "  "
            + _("left out: {ip} ({adapter}): {why}").format(
                ip=left.ip, adapter=left.adapter, why=_(left.why)
            )
        )
    if checkup.addresses.default_route is None:
        lines.append("  " + _("no default route: every adapter's address is used"))
    for check in checkup.checks:
        lines += ["", _("On {ip}:").format(ip=check.ip)]
        if check.sent is None:
            lines.append(f"  {good:<7}" + _("an mDNS query was sent"))
        else:
            lines.append(
                f"  {bad:<7}"
                + _("an mDNS query could not be sent: {error}").format(error=check.sent.text)
            )
        if check.heard:
            lines.append(f"  {good:<7}" + _("this machine heard its own mDNS advert"))
        else:
            lines.append(f"  {bad:<7}" + _("this machine did not hear its own mDNS advert"))
        if check.tcp is None:
            lines.append(f"  {good:<7}" + _("a TCP listener was reached at this address"))
        else:
            lines.append(
                f"  {bad:<7}"
                + _("a TCP listener could not be reached at this address: {error}").format(
                    error=_(check.tcp)
                )
            )
    lines += ["", _("Data dir: {path}").format(path=checkup.data_dir)]
    if checkup.identity_problem is not None:
        lines.append(f"  {bad:<7}" + checkup.identity_problem)
    elif checkup.identity is None:
        lines.append(_("Identity: none yet (made at the first game)"))
    else:
        lines.append(_("Identity: {fingerprint}").format(fingerprint=checkup.identity))
    lines.append(
        _("Libraries: {versions}").format(
            versions=", ".join(f"{name} {version}" for name, version in checkup.versions)
        )
    )
    lines.append("")
    advice = hints(checkup)
    if ok(checkup):
        lines.append(_("All is well: tables can be opened and found from this machine."))
    else:
        lines.append(_("Something is wrong; what may help:"))
        lines += [f"  - {_(hint)}" for hint in advice]
    return lines


def doctor(interface: str | None, data_dir: Path) -> int:
    """Run the checks, print the report; 0 if all is well, 1 if something failed."""
    checkup = asyncio.run(examine(interface, data_dir))
    from p2p_rommy.wire.text import printable

    print(printable("\n".join(report(checkup))))
    return 0 if ok(checkup) else 1
