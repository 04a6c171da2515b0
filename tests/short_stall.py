"""The real `rommy` command with a shorter stall limit, for end-to-end tests that wait
for a stall (the client's `e` offer, the stall in rommy.log): the production limit,
`STALL_AFTER_S` (30 s), would be most of such a test's wall time, and the test is about
what the screen shows once the limit is passed, not about its length.

    python -m tests.short_stall SECONDS rommy-arguments...

The limit is set before any other module of the project is imported, so each reads the
shorter one (`log/peer.py` and `seat/opening.py` take it as a default argument)."""

from __future__ import annotations

import inspect
import sys

from p2p_rommy import limits


def main(argv: list[str]) -> int:
    limits.STALL_AFTER_S = float(argv[0])
    from p2p_rommy.cli import main as rommy
    from p2p_rommy.log.peer import Peer
    from p2p_rommy.seat.opening import open_seat

    for function in (open_seat, Peer):
        default = inspect.signature(function).parameters["stall_after"].default
        assert default == limits.STALL_AFTER_S, f"{function.__name__} kept the limit {default}"
    return rommy(argv[1:])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
