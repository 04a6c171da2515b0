"""What one simulated game is: its seed, its table, its faults and its adversary.

A `Spec` is a value: everything a run does follows from it (the network's delays,
losses and duplicates come from a generator seeded with `seed`). `Spec.draw(seed)`
draws a whole schedule from the seed; the shrinker (`sim/shrink.py`) makes smaller
specs from a failing one, and `Spec.as_code` prints one as a test case.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

FAULT_KINDS = ("crash", "torn", "pause", "partition", "cut", "disk_full")
"""crash: the seat's process dies (what was not fsynced is lost) and is resumed from
its disk after `duration`; torn: the same, in the middle of a write (a torn last
frame); pause: SIGSTOP for `duration`; partition: the seat cannot reach any other
for `duration` (connections drop, the outboxes keep what was not written); cut: one
connection (to `other`) drops and is re-dialled after `duration`; disk_full: the
seat's writes fail from `at` on (it halts, as a session does) and it is resumed once
there is room again, after `duration`."""

ADVERSARIES = (
    "equivocation",
    "false_nack",
    "quitter",
    "withhold_ack",
    "premature_end",
    "silent_catch_up",
    "forged_ack",
    "embedded_envelope",
)
"""The cheats a seat may be replaced by (`sim/adversaries.py`)."""

BUY_ADVERSARIES = ("double_answer", "late_claim")
"""Cheats at the lp buy window (only in lp games)."""

LP_ADVERSARY_SHARE = 0.5
"""lp games with a cheating seat (`Spec.draw`): lp is drawn rarely, and it is the only
variant where the Køb! cheats can play."""

BROKEN = (
    "no_fsync",
    "commit_early",
    "misvalidate",
    "hasty_end",
    "no_ticks",
    "bad_record",
    "raises",
)
"""Deliberately broken honest seats (`sim/runner.py`), to show each invariant fires."""

HORIZON_S = 4.0
"""Faults start within this many simulated seconds (a short game lasts about this)."""
LONG_SHARE = 0.1
"""Games with one long absence besides their short faults, when asked for
(`Spec.draw`'s `long_share`, `rommy bench --only sim --long`): a seat gone for about
the stall limit or longer, which the others may rightly end the game without, or which
comes back just as they do. CI's campaign draws them since session 16, once the last
kinds they broke were fixed (docs/decisions.md, "Long absences" and "An end outranks
the last step of the seat it leaves out")."""
LONG_KINDS = ("crash", "torn", "pause", "partition", "disk_full")
"""The faults that take a seat away for their whole duration."""
LONG_S = (12.0, 40.0)
"""A long absence's duration, drawn uniformly: from well inside the simulator's stall
limit (20 s) to well past its end (25 s) and a restarted seat's catch-up (15 s)."""


@dataclass(frozen=True, slots=True)
class Fault:
    at: float
    kind: str
    seat: int
    duration: float
    other: int = -1


@dataclass(frozen=True, slots=True)
class Spec:
    seed: int
    variant: str = "rummy"
    players: int = 3
    house: tuple[tuple[str, str], ...] = (("target_score", "15"),)
    faults: tuple[Fault, ...] = ()
    adversary: str | None = None
    adversary_seat: int = 0
    loss: float = 0.0
    """Chance that a frame is lost (without the connection noticing)."""
    duplicate: float = 0.0
    """Chance that a frame arrives twice."""
    reorder: bool = False
    """Frames on one connection may overtake each other."""
    real_group: bool = False
    """The deck on edwards25519 (libsodium) instead of the fast group (`sim/toy_group.py`)."""
    broken: tuple[str, ...] = field(default=())
    """Deliberate defects of the honest seats (`BROKEN`)."""
    bot: str = "random"
    """What chooses the moves (`bots.make_bot`): random moves make long, odd rounds; a
    heuristic level goes out in about a third of the steps."""

    @classmethod
    def draw(
        cls,
        seed: int,
        faults: bool = True,
        adversary_share: float = 0.25,
        real_share: float = 0.02,
        lp_share: float = 0.02,
        loss_share: float = 0.15,
        kinds: tuple[str, ...] = FAULT_KINDS,
        adversaries: tuple[str, ...] = ADVERSARIES,
        four_share: float = 0.2,
        random_share: float = 0.2,
        long_share: float = 0.0,
    ) -> Spec:
        """A game drawn from `seed`: the variant, a fault schedule (0-4 faults), network
        weather, and with `adversary_share` a cheating seat. Rummy is played to 1 point
        (one round, mostly) and Rommé for one deal, by the easy bot (random moves in
        `random_share` of the games): a game is then about 150 steps. lp (`lp_share`)
        is its whole match of seven rounds, ~1,500-2,500 steps and ten times a rummy
        game's CPU, so it is drawn rarely, always with easy bots (random ones take twice
        the steps), and with a cheat in `LP_ADVERSARY_SHARE` of its games, half of them
        a Køb! cheat (`BUY_ADVERSARIES`, which only lp has). A seed that is not lp draws
        what it drew before lp was in the mix (lp takes seeds from rummy's share). With
        `long_share`, one long absence (`LONG_S`) is added to the drawn faults, from a
        generator of its own: every other draw is what it was without it."""
        rng = random.Random(seed)
        variant = "rummy"
        house: tuple[tuple[str, str], ...] = (("target_score", "1"),)
        roll = rng.random()
        if roll < 0.15:
            variant, house = "romme", (("fixed_deals", "1"),)
        elif roll < 0.15 + lp_share:
            variant, house = "lp", ()
        lp = variant == "lp"
        players = 4 if rng.random() < four_share else 3
        drawn: list[Fault] = []
        if faults and kinds:
            for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 4))):
                kind = rng.choice(kinds)
                seat = rng.randrange(players)
                other = rng.choice([s for s in range(players) if s != seat])
                at = round(rng.uniform(0.0, HORIZON_S), 3)
                duration = round(rng.uniform(0.05, 3.0), 3)
                drawn.append(Fault(at, kind, seat, duration, other if kind == "cut" else -1))
        adversary = None
        share = (
            max(adversary_share, LP_ADVERSARY_SHARE) if lp and adversary_share else adversary_share
        )
        if rng.random() < share and adversaries:
            cheats = adversaries
            if lp:  # as many Køb! cheats as the others together
                cheats += BUY_ADVERSARIES * max(1, len(adversaries) // len(BUY_ADVERSARIES))
            adversary = rng.choice(cheats)
        long = random.Random(f"long absence {seed}")
        absences = [k for k in LONG_KINDS if k in kinds]
        if faults and absences and long.random() < long_share:
            absence = long.choice(absences)
            at, duration = long.uniform(0.0, HORIZON_S), long.uniform(*LONG_S)
            seat = long.randrange(players)
            drawn.append(Fault(round(at, 3), absence, seat, round(duration, 3)))
        weather = rng.random() if faults and kinds else 1.0
        return cls(
            seed=seed,
            variant=variant,
            players=players,
            house=house,
            faults=tuple(sorted(drawn, key=lambda f: f.at)),
            adversary=adversary,
            adversary_seat=rng.randrange(players),
            loss=0.01 if weather < loss_share else 0.0,
            duplicate=0.01 if 0.1 < weather < 0.25 else 0.0,
            reorder=0.2 < weather < 0.3,
            real_group=rng.random() < real_share,
            bot="random" if rng.random() < random_share and not lp else "easy",
        )

    def without(self, index: int) -> Spec:
        return replace(self, faults=self.faults[:index] + self.faults[index + 1 :])

    def as_code(self) -> str:
        """The spec as Python, for a regression test."""
        return repr(self).replace("p2p_rommy.sim.plan.", "")

    def line(self) -> str:
        """One line: the schedule in short."""
        parts = [f"seed={self.seed} {self.variant}/{self.players} {self.bot} bots"]
        parts += [
            f"{f.kind}@{f.at:g}s seat{f.seat}"
            + (f"-{f.other}" if f.other >= 0 else "")
            + f" {f.duration:g}s"
            for f in self.faults
        ]
        if self.adversary:
            parts.append(f"adversary {self.adversary}@seat{self.adversary_seat}")
        weather = [
            w
            for w, on in (
                (f"loss {self.loss:g}", self.loss),
                (f"dup {self.duplicate:g}", self.duplicate),
                ("reorder", self.reorder),
                ("real group", self.real_group),
            )
            if on
        ]
        return "; ".join(parts + weather + [f"broken {b}" for b in self.broken])
