"""Table names as people type them: "did you mean" for a typo, and a warning to a
creator whose table's name another open table on the network already has."""

from __future__ import annotations

import difflib
from collections.abc import Callable

from p2p_rommy.i18n import _
from p2p_rommy.limits import LOOK_FOR_TABLE_S
from p2p_rommy.net.discovery import find_tables
from p2p_rommy.wire.text import inert


def did_you_mean(table: str | None, names: list[str]) -> str | None:
    """The open table's name that `table` was most likely meant to be (a typo, another
    case), or None."""
    if table is None or not names:
        return None
    folded = {name.casefold(): name for name in names}
    if table.casefold() in folded:
        return folded[table.casefold()]
    close = difflib.get_close_matches(table.casefold(), list(folded), n=1, cutoff=0.6)
    return folded[close[0]] if close else None


async def warn_of_namesakes(
    interface: str | None, table: str, creator: str, say: Callable[[str], None]
) -> None:
    """Look once for another open table of the same name (another creator): joiners
    would be asked to choose between them by fingerprint, so the creator is told."""
    seen = await find_tables(
        interface,
        LOOK_FOR_TABLE_S,
        until=lambda ads: any(ad.table == table and ad.creator != creator for ad in ads),
    )
    others = sorted({ad.creator for ad in seen if ad.table == table and ad.creator != creator})
    if others:
        say(
            _(
                "another table on this network is also called {table!r} (by {creators}): "
                "joiners will have to pick by fingerprint; a different name avoids the mix-up"
            ).format(table=inert(table), creators=", ".join(others))
        )
