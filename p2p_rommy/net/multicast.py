"""Why mDNS cannot leave this machine, in words a player can act on.

zeroconf logs a failed multicast send and carries on, so a player whose terminal
macOS denied Local Network access saw "no tables found" and nothing else. When no
table is found, `send_problems` sends one mDNS query (the one a browser sends: PTR
``_rommy._tcp.local.``) from each address the table would use, the way zeroconf does
(``IP_MULTICAST_IF``), and keeps the error the OS gives; `explain` turns an error
into the reason and the hint that fit it on this platform. Tests keep the probe on
127.0.0.1 or inside network namespaces they make.
"""

from __future__ import annotations

import errno
import socket
import sys
from dataclasses import dataclass

from p2p_rommy.i18n import N_

MDNS_GROUP = ("224.0.0.251", 5353)

QUERY = (
    b"\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00"  # id 0, flags 0, one question
    b"\x06_rommy\x04_tcp\x05local\x00"
    b"\x00\x0c\x00\x01"  # PTR, IN
)
"""The mDNS query a table browser sends (RFC 6762 §18: id 0, no flags)."""


@dataclass(frozen=True, slots=True)
class SendProblem:
    """An address from which an mDNS packet could not be sent, and the OS's error."""

    ip: str
    error: int
    text: str


def send_problem(ip: str) -> SendProblem | None:
    """Send one mDNS table query from `ip`; the error the OS gives, or None if it went."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(ip))
            sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 255)
            sock.sendto(QUERY, MDNS_GROUP)
    except OSError as error:
        return SendProblem(ip, error.errno or 0, error.strerror or str(error))
    return None


def send_problems(ips: list[str]) -> list[SendProblem]:
    return [p for p in map(send_problem, ips) if p is not None]


def _codes(*names: str) -> set[int]:
    """The values of these errno names on this platform (Windows' WSA ones included)."""
    return {getattr(errno, name) for name in names if hasattr(errno, name)}


DENIED = _codes("EPERM", "EACCES", "WSAEACCES")
NO_ROUTE = _codes("ENETUNREACH", "EHOSTUNREACH", "WSAENETUNREACH", "WSAEHOSTUNREACH")
DOWN = _codes("ENETDOWN", "WSAENETDOWN", "EADDRNOTAVAIL", "WSAEADDRNOTAVAIL")

HINT_MACOS = N_(
    "macOS Local Network privacy may block this terminal: System Settings > Privacy & "
    "Security > Local Network, switch on your terminal (Terminal, iTerm2, VS Code), "
    "then quit and reopen it"
)
HINT_WINDOWS = N_(
    "the Windows firewall blocks it: allow Python when Windows asks, and mark the home "
    "Wi-Fi as a Private network (Settings > Network > Wi-Fi > your network)"
)
HINT_FIREWALL = N_("a firewall blocks mDNS (UDP port 5353): allow it for the home network")
HINT_NO_ROUTE = N_(
    "there is no route for multicast through that adapter: is it connected to the "
    "Wi-Fi? (Linux without a default route: ip route add 224.0.0.0/4 dev ADAPTER)"
)
HINT_DOWN = N_("that adapter is down or has lost its address: reconnect to the Wi-Fi")
HINT_OTHER = N_("something on this machine stops multicast; run `rommy doctor`")


def explain(problem: SendProblem, platform: str = sys.platform) -> str:
    """The hint (a message id) that fits a failed send on `platform`. On macOS a denied
    Local Network permission shows as EHOSTUNREACH or EPERM on every multicast send."""
    code = problem.error
    if platform == "darwin" and code in DENIED | NO_ROUTE:
        return HINT_MACOS
    if platform == "win32" and code in DENIED:
        return HINT_WINDOWS
    if code in DENIED:
        return HINT_FIREWALL
    if code in NO_ROUTE:
        return HINT_NO_ROUTE
    if code in DOWN:
        return HINT_DOWN
    return HINT_OTHER
