"""One bot seat of a seeded 4-seat Rommé match of two deals as its own OS process, for the
rounds-2+ figure of `tests/test_next_round_background.py` (issue #27): prints one JSON
line with, for each round after the first, the seconds from the commit of the previous
round's last move to the commit that completes the round's deal (its hand is known).

Usage: python tests/seat_process.py SEAT PORT0 PORT1 PORT2 PORT3"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time

from p2p_rommy.bots import make_bot
from p2p_rommy.engine.state import Phase
from p2p_rommy.seat.loopback_match import seeded_config
from p2p_rommy.seat.opening import open_seat
from p2p_rommy.wire.entropy import StreamEntropy

HOUSE = {"fixed_deals": "2"}
"""Two deals whatever the bots do: the figure is round 2's start (a match to a target
score took minutes for the same one figure)."""
SEED = 11


async def main(seat: int, ports: list[int]) -> None:
    config, identities = seeded_config("romme", len(ports), HOUSE, SEED)
    bot = make_bot("random", random.Random(SEED * 10 + seat))
    session = await open_seat(
        config,
        identities[seat],
        bot,
        listen=("127.0.0.1", ports[seat]),
        entropy=StreamEntropy(b"seat process %d" % seat),
    )
    replica = session.peer.replica
    last_move: dict[int, float] = {}
    dealt: dict[int, float] = {}
    real = replica.commit

    def commit() -> None:
        tentative, was = replica.tentative, replica.state
        real()
        now = time.monotonic()
        if tentative is not None and tentative.kind == "move":
            last_move[was.round_index] = now
        if was.phase is Phase.ROUND_START and replica.state.phase is not Phase.ROUND_START:
            dealt[replica.state.round_index] = now

    replica.commit = commit  # type: ignore[method-assign]
    session.connect({s: [("127.0.0.1", port)] for s, port in enumerate(ports)})
    final = await session.run(600)
    waits = [dealt[r] - last_move[r - 1] for r in sorted(dealt) if r >= 1 and r - 1 in last_move]
    print(json.dumps({"seat": seat, "rounds": len(final.round_scores), "waits": waits}))


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), [int(p) for p in sys.argv[2:]]))
