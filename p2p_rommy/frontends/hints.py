"""What a player is told when nothing happens: no table found, nobody joining.

Both point at `rommy doctor`, and say what is already known: the error the OS gave
for an mDNS send (`net/multicast.py`), the address a friend can `--connect` to.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from p2p_rommy.i18n import _, say_os_error
from p2p_rommy.limits import ALONE_HINT_S
from p2p_rommy.net.addresses import local_addresses
from p2p_rommy.net.lobby import LobbyHost
from p2p_rommy.net.multicast import explain, send_problems


def nothing_found_hint(interface: str | None) -> str:
    """Why no table may have been seen: the OS's error for an mDNS send from an address
    this machine would use, with the hint that fits it; else where to look next."""
    problems = send_problems(local_addresses(interface))
    if problems:
        problem = problems[0]
        return (
            _("mDNS cannot be sent from {ip}: {error}. {hint}.").format(
                ip=problem.ip,
                error=say_os_error(OSError(problem.error, problem.text), False),
                hint=_(explain(problem)),
            )
            + " "
            + _("`rommy doctor` checks this machine.")
        )
    return _(
        "Is the table open, on the same Wi-Fi? `rommy doctor` checks this machine; "
        "or join with --connect HOST:PORT (the address on the creator's screen)"
    )


def alone_hint(address: str) -> str:
    """What a creator still alone at its table is told (`ALONE_HINT_S`)."""
    return _(
        "nobody has joined yet. If the others cannot see this table, run `rommy doctor` "
        "on each machine, or join with `rommy join --connect {address}`"
    ).format(address=address)


async def hint_when_alone(lobby: LobbyHost, address: str, say: Callable[[str], None]) -> None:
    await asyncio.sleep(ALONE_HINT_S)
    if len(lobby.members) <= 1:
        say(alone_hint(address))
