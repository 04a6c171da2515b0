"""Finding tables with mDNS (python-zeroconf's asyncio API).

A table is advertised as ``<table> <fingerprint>._rommy._tcp.local.`` with TXT
records: protocol version, table name, variant, seats taken/max, open or
started, the creator's key fingerprint and the lobby id. mDNS only seeds the
lobby: a crashed peer's records linger, so liveness is the TCP heartbeat's job,
and every address found is checked by the handshake's proof of key.

Tests and local games keep mDNS on 127.0.0.1 (``interfaces=["127.0.0.1"]``) or
inside network namespaces they make; `--interface` picks the network by address (the
odd case: `net/addresses.py` finds the addresses a table advertises).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from p2p_rommy.config import PROTOCOL_VERSION
from p2p_rommy.net.addresses import local_addresses as local_addresses  # its old home

SERVICE = "_rommy._tcp.local."


@dataclass(frozen=True, slots=True)
class TableAd:
    """What a table says about itself on the network."""

    table: str
    variant: str
    taken: int
    seats: int
    open: bool
    creator: str
    lobby: bytes
    addresses: tuple[str, ...]
    port: int
    version: int = PROTOCOL_VERSION

    def properties(self) -> dict[str, str]:
        return {
            "v": str(self.version),
            "table": self.table,
            "variant": self.variant,
            "seats": f"{self.taken}/{self.seats}",
            "state": "open" if self.open else "started",
            "creator": self.creator,
            "lobby": self.lobby.hex(),
        }

    @property
    def instance(self) -> str:
        safe = "".join(ch for ch in self.table if ch.isprintable() and ch != ".")[:40] or "table"
        return f"{safe} {self.creator}.{SERVICE}"

    def describe(self) -> str:
        state = "open" if self.open else "started"
        where = ", ".join(f"{a}:{self.port}" for a in self.addresses)
        return (
            f"{self.table:<20} {self.variant:<6} {self.taken}/{self.seats} {state:<8} "
            f"creator {self.creator}  {where}"
        )


def _parse(info: AsyncServiceInfo) -> TableAd | None:
    props = {
        k.decode(errors="replace"): (v or b"").decode(errors="replace")
        for k, v in (info.properties or {}).items()
    }
    try:
        taken, seats = (int(x) for x in props["seats"].split("/"))
        return TableAd(
            table=props["table"],
            variant=props["variant"],
            taken=taken,
            seats=seats,
            open=props["state"] == "open",
            creator=props["creator"],
            lobby=bytes.fromhex(props["lobby"]),
            addresses=tuple(info.parsed_addresses()),
            port=info.port or 0,
            version=int(props["v"]),
        )
    except (KeyError, ValueError):
        return None


def _interfaces(interface: str | None) -> list[str] | None:
    return [interface] if interface else None


class Advertiser:
    """Keeps one table advertised while it exists. `probe=False` skips mDNS's probe for
    the name (~1.1 s) on registering: only where the name is this seat's own already
    (a table reopened for a new game: its name holds the creator's key fingerprint and
    the last game's ad was withdrawn when that game started)."""

    def __init__(self, interface: str | None, probe: bool = True) -> None:
        self.interface = interface
        self.probe = probe
        self.zeroconf: AsyncZeroconf | None = None
        self.info: AsyncServiceInfo | None = None
        self._announcing: asyncio.Future[Any] | None = None

    async def advertise(self, ad: TableAd) -> None:
        """Registered (it answers queries) on return; the first registration's
        announcements (three, 225 ms apart) go on meanwhile, not waited for."""
        if self.zeroconf is None:
            interfaces = _interfaces(self.interface)
            self.zeroconf = (
                AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
                if interfaces
                else AsyncZeroconf(ip_version=IPVersion.V4Only)
            )
        info = AsyncServiceInfo(
            SERVICE,
            ad.instance,
            port=ad.port,
            properties=ad.properties(),
            parsed_addresses=list(ad.addresses),
            server=f"rommy-{ad.creator}.local.",
        )
        if self.info is None:
            self._announcing = asyncio.ensure_future(
                await self.zeroconf.async_register_service(
                    info, cooperating_responders=not self.probe
                )
            )
        else:
            await (await self.zeroconf.async_update_service(info))
        self.info = info

    async def close(self) -> None:
        if self._announcing is not None:
            self._announcing.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._announcing
        if self.zeroconf is not None:
            with contextlib.suppress(Exception):
                if self.info is not None:
                    await (await self.zeroconf.async_unregister_service(self.info))
            await self.zeroconf.async_close()
            self.zeroconf = None


async def find_tables(
    interface: str | None,
    wait: float = 3.0,
    until: Callable[[list[TableAd]], bool] | None = None,
    settle: float = 1.0,
) -> list[TableAd]:
    """Every table seen on the network within `wait` seconds; with `until`, sooner: `settle`
    seconds after the tables seen first satisfy it (for others of the same name)."""
    interfaces = _interfaces(interface)
    aiozc = (
        AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
        if interfaces
        else AsyncZeroconf(ip_version=IPVersion.V4Only)
    )
    found: dict[str, TableAd] = {}
    pending: set[asyncio.Task[None]] = set()

    async def resolve(name: str) -> None:
        info = AsyncServiceInfo(SERVICE, name)
        if await info.async_request(aiozc.zeroconf, 3000):
            ad = _parse(info)
            if ad is not None:
                found[name] = ad

    def changed(
        zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        if state_change in (ServiceStateChange.Added, ServiceStateChange.Updated):
            task = asyncio.get_running_loop().create_task(resolve(name))
            pending.add(task)
            task.add_done_callback(pending.discard)
        elif state_change is ServiceStateChange.Removed:
            found.pop(name, None)

    browser = AsyncServiceBrowser(aiozc.zeroconf, SERVICE, handlers=[changed])
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        while loop.time() < deadline:
            await asyncio.sleep(min(0.1, max(0.0, deadline - loop.time())))
            if until is not None and until(list(found.values())):
                await asyncio.sleep(settle)
                break
        if pending:
            await asyncio.wait(pending, timeout=3)
    finally:
        await browser.async_cancel()
        await aiozc.async_close()
    return sorted(found.values(), key=lambda ad: (ad.table, ad.creator))
