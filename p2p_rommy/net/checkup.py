"""The network checks `rommy doctor` runs on one address of this machine, for real.

- `hears_itself`: one zeroconf instance advertises a probe service on the address and a
  second, separate one (its own sockets, its own cache) resolves it: the advert can only
  come back by multicast, as a table's reaches a joiner. The probe uses its own service
  type, so `rommy tables` never lists it.
- `tcp_reachable`: a listener bound as a game's is (all addresses, a free port) is
  connected to at the address and must answer.

Both only ever send to this machine's own address and the mDNS group on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets

from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from p2p_rommy.i18n import N_
from p2p_rommy.limits import CONNECT_TIMEOUT_S, DOCTOR_HEAR_S
from p2p_rommy.net.dial import connect

PROBE_SERVICE = "_rommy-doctor._tcp.local."
HELLO = b"rommy doctor\n"


async def hears_itself(ip: str, wait: float = DOCTOR_HEAR_S) -> bool:
    """Whether an mDNS advert sent on `ip` is heard back on `ip` within `wait` seconds."""
    quiet = logging.getLogger("zeroconf")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)  # its send errors are the finding, said in words
    name = f"doctor {secrets.token_hex(4)}.{PROBE_SERVICE}"
    speaker = AsyncZeroconf(interfaces=[ip], ip_version=IPVersion.V4Only)
    listener = AsyncZeroconf(interfaces=[ip], ip_version=IPVersion.V4Only)
    info = AsyncServiceInfo(
        PROBE_SERVICE, name, port=9, parsed_addresses=[ip], server=f"{name.split('.')[0]}.local."
    )
    try:
        with contextlib.suppress(Exception):  # a failed probe is still a finding below
            await (await speaker.async_register_service(info))
        found = AsyncServiceInfo(PROBE_SERVICE, name)
        return await found.async_request(listener.zeroconf, int(wait * 1000))
    finally:
        await asyncio.gather(speaker.async_close(), listener.async_close())
        quiet.setLevel(level)


async def tcp_reachable(ip: str) -> str | None:
    """None if a listener on all addresses answers a connection to `ip`; else the error."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(HELLO)
        with contextlib.suppress(OSError):
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "0.0.0.0", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        reader, writer = await connect((ip, port))
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT_S):
                heard = await reader.readexactly(len(HELLO))
        finally:
            writer.close()
        return None if heard == HELLO else N_("another program answered")
    except (OSError, TimeoutError, asyncio.IncompleteReadError) as error:
        return str(error) or type(error).__name__
    finally:
        server.close()
