"""Finding the table to join: by name and (if given) creator, among the adverts seen;
impostors passed over, namesakes not guessed between. Used by ``rommy join`` in both
front-ends (`frontends/tables.py`, `frontends/screen.py`), so it sits below both."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from p2p_rommy.config import PROTOCOL_VERSION
from p2p_rommy.errors import ConfigError
from p2p_rommy.frontends.hints import nothing_found_hint
from p2p_rommy.frontends.namesakes import did_you_mean
from p2p_rommy.i18n import _
from p2p_rommy.limits import JOIN_SETTLE_S
from p2p_rommy.net.discovery import TableAd, find_tables
from p2p_rommy.net.lobby import first_proven
from p2p_rommy.wire.identity import Identity
from p2p_rommy.wire.text import inert, printable


def say(text: str) -> None:
    """A line for the player on standard error (standard output keeps the results)."""
    print(printable(text), file=sys.stderr, flush=True)


def joined_via(ad: TableAd, address: str) -> str:
    """Where a table was joined, and why there."""
    return (
        _(
            "joining at {address}: of the {count} addresses the table advertises, the "
            "first at which its creator proved its key"
        )
        if len(ad.addresses) > 1
        else _("joining at {address}, where the table's creator proved its key")
    ).format(address=f"{address}:{ad.port}", count=len(ad.addresses))


class NoTableYet(ConfigError):
    """No open table of that name was seen (yet): the client keeps looking."""


async def choose_table(
    identity: Identity,
    interface: str | None,
    table: str | None,
    creator: str | None,
    wait: float,
    say: Callable[[str], None] = say,
    settle: float = JOIN_SETTLE_S,
) -> tuple[TableAd, str]:
    """The open table to join, by name and (if given) creator fingerprint. Tables whose
    host cannot prove the key their advert names are impostors and are passed over;
    tables of the same name by different creators are not guessed between. Returns the
    table and the address at which its host proved the key (all its addresses are tried
    at once). Looks for up to `wait` seconds, and stops looking `settle` seconds after
    one is seen (for another of the same name, or the real one beside an impostor)."""

    passed: set[tuple[tuple[str, ...], int]] = set()
    """The adverts (addresses, port) whose host did not prove the creator's key."""

    def wanted(ads: list[TableAd]) -> list[TableAd]:
        return [
            ad
            for ad in ads
            if ad.open
            and (table is None or ad.table == table)
            and (creator is None or ad.creator == creator)
            and (ad.addresses, ad.port) not in passed
        ]

    where = (_(" named {table!r}").format(table=table) if table else "") + (
        _(" by {creator}").format(creator=creator) if creator else ""
    )
    say(
        _("looking for the table{where} (up to {seconds:.0f} s)...").format(
            where=where, seconds=wait
        )
    )
    deadline = time.monotonic() + wait
    while True:
        left = max(0.0, deadline - time.monotonic())
        ads = await find_tables(interface, left, until=lambda ads: bool(wanted(ads)), settle=settle)
        found = wanted(ads)
        if not found and passed:
            break  # only the tables passed over are left: refused below
        found = _one_table(found, ads, where, wait, interface, table)
        for ad in found:
            address, seen = await first_proven(
                identity, ad.addresses, ad.port, ad.lobby, ad.creator
            )
            if address is not None:
                return ad, address
            passed.add((ad.addresses, ad.port))
            for address, proven in seen.items():
                say(_passed_over(ad, address, proven))
        if time.monotonic() >= deadline:
            break
        # An impostor (or a closed table's stale advert) may answer before the real
        # table does: look on for the rest of the wait, past the ones passed over.
    raise ConfigError(
        _("no table{where} proves the creator's key it advertises; not joining").format(where=where)
    )


def _one_table(
    found: list[TableAd],
    ads: list[TableAd],
    where: str,
    wait: float,
    interface: str | None,
    table: str | None,
) -> list[TableAd]:
    """The adverts of the one table asked for, of this protocol version; a clear error
    when there is none (or only another version's) or several creators' of that name."""
    other = sorted({ad.version for ad in found if ad.version != PROTOCOL_VERSION})
    found = [ad for ad in found if ad.version == PROTOCOL_VERSION]
    if not found and other:
        raise ConfigError(
            _(
                "the open table{where} speaks protocol v{theirs}, this p2p-rommy "
                "v{ours}: both need the same release"
            ).format(where=where, theirs=other[0], ours=PROTOCOL_VERSION)
        )
    if not found:
        close = did_you_mean(table, [ad.table for ad in ads if ad.open])
        raise NoTableYet(
            _("no open table{where} found in {seconds:.0f} s.").format(where=where, seconds=wait)
            + " "
            + (
                _("Did you mean {table!r}?").format(table=inert(close))
                if close is not None
                else nothing_found_hint(interface)
            )
        )
    creators = sorted({(ad.table, ad.creator) for ad in found})
    if len(creators) > 1:
        listed = "; ".join(
            _("{table!r} by {creator}").format(table=inert(name), creator=inert(fp))
            for name, fp in creators
        )
        raise ConfigError(
            _(
                "several open tables{where}: {listed}. Ask the creator for the fingerprint "
                "on their screen and join with the table's name and --creator FINGERPRINT"
            ).format(where=where, listed=listed)
        )
    return found


def _passed_over(ad: TableAd, address: str, proven: str | None) -> str:
    return (
        _(
            "passed over a table {table!r} at {address}: it claims the creator "
            "{creator} but proves the key {proven} (an impostor, or a table "
            "that has closed)"
        )
        if proven
        else _(
            "passed over a table {table!r} at {address}: it claims the creator "
            "{creator} but proves no key (an impostor, or a table that has closed)"
        )
    ).format(
        table=inert(ad.table),
        address=f"{address}:{ad.port}",
        creator=inert(ad.creator),
        proven=proven,
    )
