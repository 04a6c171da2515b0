"""An impostor table for tests: it finds a real table by mDNS and advertises itself
with the same name, the real creator's fingerprint and the real lobby id, but a key of
its own. Run as ``python -m tests.impostor ADDRESS TABLE``; it prints ``JOINED name``
for anyone who gets into its lobby (nobody should)."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass

from p2p_rommy.net.discovery import SERVICE, TableAd, find_tables
from p2p_rommy.net.lobby import LobbyHost, Member, TableSettings
from p2p_rommy.rules import ruleset
from p2p_rommy.wire.identity import Identity


@dataclass(frozen=True, slots=True)
class CopiedAd(TableAd):
    @property
    def instance(self) -> str:
        return f"{self.table} {self.creator} copy.{SERVICE}"


class Impostor(LobbyHost):
    """A lobby that claims to be `real`."""

    real: TableAd

    async def _advertise(self) -> None:
        if self.advertiser is None:
            return
        ad = CopiedAd(
            self.real.table,
            self.real.variant,
            len(self.members),
            self.real.seats,
            True,
            self.real.creator,
            self.real.lobby,
            tuple(h for h, _ in self.members[0].addresses),
            self.port,
        )
        await self.advertiser.advertise(ad)


def joined(members: list[Member]) -> None:
    for member in members[1:]:
        print(f"JOINED {member.name}", flush=True)


async def impersonate(address: str, table: str, seconds: float = 600.0) -> None:
    real: list[TableAd] = []
    while not real:
        real = [ad for ad in await find_tables(address, 2.0) if ad.table == table]
    rules = ruleset(real[0].variant)
    settings = TableSettings(table, real[0].variant, rules.house.values, rules.max_players)
    impostor = Impostor(Identity.generate(), "Ann", settings, [(address, 9)], address, None, joined)
    impostor.real = real[0]
    impostor.lobby = real[0].lobby
    await impostor.listen(address)
    print(f"ADVERTISING {real[0].creator} at {address}:{impostor.port}", flush=True)
    try:
        await asyncio.sleep(seconds)
    finally:
        await impostor.close()


if __name__ == "__main__":
    asyncio.run(impersonate(sys.argv[1], sys.argv[2]))
