"""The deterministic whole-table simulator (FoundationDB / TigerBeetle VOPR style).

Production `Peer`s, bots choosing their moves, on a seeded scheduler with a simulated
network, clock and disk per seat; faults and an adversary drawn from the seed; the
invariants checked after every event (`sim/runner.py`); a failing seed shrunk to a
short schedule printed as a test case (`sim/shrink.py`). Used by the tests
(tests/test_sim.py) and by ``rommy bench --only sim``.
"""

from p2p_rommy.sim.plan import Fault, Spec
from p2p_rommy.sim.runner import Outcome, Violation, run_game

__all__ = ["Fault", "Outcome", "Spec", "Violation", "run_game"]
