"""This machine's addresses on the home network, and which one a table uses.

Theory of operation. The addresses come from the adapters (ifaddr: getifaddrs on
POSIX, GetAdaptersAddresses on Windows), not from resolving the host name: Debian and
Ubuntu map the host name to 127.0.1.1 in /etc/hosts, so a laptop that asked its name
advertised loopback. Loopback and link-local (169.254/16: no DHCP answered) addresses
are left out. The address of the default route goes first: it is the one the other
machines on the Wi-Fi most likely reach (a Docker, WSL or VPN adapter rarely is). It is
found by "connecting" a UDP socket to a documentation address and reading the socket's
own address: connect() on UDP only picks a route and sends no packet. Every other
usable address follows, in the adapters' order; joiners dial them all at once and keep
the first at which the creator proves its key. `--interface ADDR` replaces all of this
for the odd case (two networks, and the default route is the wrong one).
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass

import ifaddr

from p2p_rommy.errors import ConfigError
from p2p_rommy.i18n import N_, Phrase

ROUTE_PROBE = ("198.51.100.1", 9)
"""TEST-NET-2 (RFC 5737), the discard port: a UDP socket is connected to it to learn
the default route's source address. Nothing is ever sent to it."""

LOOPBACK = "127.0.0.1"


@dataclass(frozen=True, slots=True)
class Address:
    """One address this machine advertises, and why it is where it is in the list."""

    ip: str
    adapter: str
    why: str
    """A message id (`N_`): the default route, another adapter, chosen, only this machine."""


@dataclass(frozen=True, slots=True)
class LeftOut:
    """An address of this machine that is not advertised, and why."""

    ip: str
    adapter: str
    why: str


@dataclass(frozen=True, slots=True)
class Addresses:
    """What a table advertises and listens on: `used` in order (never empty), the
    first being the one shown on screen; `left_out` for `rommy doctor`."""

    used: tuple[Address, ...]
    left_out: tuple[LeftOut, ...] = ()
    default_route: str | None = None

    @property
    def ips(self) -> list[str]:
        return [a.ip for a in self.used]

    @property
    def first(self) -> Address:
        return self.used[0]

    @property
    def only_loopback(self) -> bool:
        return self.ips == [LOOPBACK]

    def shown(self) -> Phrase:
        """One line for a screen: the address the table uses and why, and how many more."""
        first = self.first
        if len(self.used) == 1:
            return Phrase.of(
                N_("address {ip} ({adapter}: {why})"),
                ip=first.ip,
                adapter=first.adapter,
                why=first.why,
            )
        return Phrase.of(
            N_("address {ip} ({adapter}: {why}); also {others}"),
            ip=first.ip,
            adapter=first.adapter,
            why=first.why,
            others=", ".join(a.ip for a in self.used[1:]),
        )


WHY_DEFAULT = N_("the default route")
WHY_OTHER = N_("another adapter")
WHY_CHOSEN = N_("chosen with --interface")
WHY_ALONE = N_("no network found: only this machine")
WHY_LOOPBACK = N_("loopback: only this machine")
WHY_LINK_LOCAL = N_("link-local: no address from the router")
WHY_UNUSABLE = N_("not an address another machine can reach")


def _problem(ip: str) -> str | None:
    """Why another machine cannot reach `ip` (a message id), or None if it can."""
    try:
        address = ipaddress.IPv4Address(ip)
    except ValueError:
        return WHY_UNUSABLE
    if address.is_loopback:
        return WHY_LOOPBACK
    if address.is_link_local:
        return WHY_LINK_LOCAL
    if address.is_unspecified or address.is_multicast or address.is_reserved:
        return WHY_UNUSABLE
    return None


def choose(
    adapters: Iterable[tuple[str, str]], default_route: str | None, interface: str | None = None
) -> Addresses:
    """The addresses to advertise, from (adapter, IPv4 address) pairs in the adapters'
    order and the default route's source address (None: no default route). Pure."""
    adapters = list(adapters)
    if interface is not None:
        chosen(interface)
        name = next((a for a, ip in adapters if ip == interface), "?")
        return Addresses((Address(interface, name, WHY_CHOSEN),), (), default_route)
    used: list[Address] = []
    left_out: list[LeftOut] = []
    names = {ip: name for name, ip in reversed(adapters)}
    if default_route is not None and _problem(default_route) is None:
        used.append(Address(default_route, names.get(default_route, "?"), WHY_DEFAULT))
    for name, ip in adapters:
        problem = _problem(ip)
        if problem is not None:
            left_out.append(LeftOut(ip, name, problem))
        elif all(a.ip != ip for a in used):
            used.append(Address(ip, name, WHY_OTHER))
    if not used:
        loopback = names.get(LOOPBACK, "lo")
        used.append(Address(LOOPBACK, loopback, WHY_ALONE))
        left_out = [x for x in left_out if x.ip != LOOPBACK]
    return Addresses(tuple(used), tuple(left_out), default_route)


def chosen(interface: str) -> str:
    """`--interface`'s value if it is an IPv4 address; `ConfigError` saying what it takes."""
    try:
        ipaddress.IPv4Address(interface)
    except ValueError:
        raise ConfigError(
            N_(
                "--interface takes this machine's IPv4 address on the network "
                "(such as 192.168.1.20), not {given!r}; `rommy doctor` lists them"
            ).format(given=interface)
        ) from None
    return interface


def default_route_address() -> str | None:
    """The source address of the default route, or None without one. Sends nothing."""
    with (
        contextlib.suppress(OSError),
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock,
    ):
        sock.connect(ROUTE_PROBE)
        return str(sock.getsockname()[0])
    return None


def adapter_addresses() -> list[tuple[str, str]]:
    """(adapter name, IPv4 address) of every adapter, in the adapters' order."""
    pairs = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):  # IPv4; IPv6 comes as a tuple
                pairs.append((adapter.nice_name, ip.ip))
    return pairs


def this_machine(interface: str | None) -> Addresses:
    """This machine's addresses as a table uses them (`--interface`, if given, alone)."""
    if interface is not None:
        return choose(adapter_addresses(), None, interface)
    return choose(adapter_addresses(), default_route_address())


def local_addresses(interface: str | None) -> list[str]:
    """The addresses to advertise and listen on, the default route's first."""
    return this_machine(interface).ips
