"""Say whether a change plays the same simulated games: one line per game (events,
simulated time, steps, faults, end, violations) for `count` drawn seeds and the 4-seat
lp seed-1 match, then a digest of the lines. Run it on the old tree and on the new and
compare the digests; a change meant only to be faster must not move one.

    python tools/sim_fingerprint.py [count]      (200 by default; ~1 CPU minute)
"""

from __future__ import annotations

import hashlib
import sys
import time

from p2p_rommy.sim.plan import Spec
from p2p_rommy.sim.runner import run_game


def main(count: int) -> None:
    digest = hashlib.sha256()
    specs = [Spec.draw(seed) for seed in range(count)]
    specs.append(Spec(seed=1, variant="lp", players=4, house=(), bot="easy"))
    started = time.process_time()
    for spec in specs:
        outcome = run_game(spec, verify_share=0.0)
        kinds = [violation.invariant for violation in outcome.violations]
        line = (
            f"{spec.seed} {spec.variant} {outcome.events} {outcome.sim_time!r} "
            f"{outcome.steps} {outcome.faults} {outcome.end} {kinds}"
        )
        print(line)
        digest.update(line.encode())
    print("digest", digest.hexdigest())
    print("cpu_s", round(time.process_time() - started, 2), file=sys.stderr)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
