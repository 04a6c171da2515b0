"""The step in flight, as one value the peer owns.

A step is pending from the moment this seat proposed it, or found another seat's
proposal valid, until every seat has ACKed the same state hash (then it commits) or an
end replaces it. Everything known about it sits together: the step and its signed
envelope, what it leads to (`tentative`), the ACKs held (state hash and envelope per
seat) and the NACKs of seats that refused it although it is valid here (dissenters).

ACKs and a NACK may arrive before the step itself (they travel on other connections):
`EarlyVotes` holds them, bounded to the steps not too far ahead, until it comes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2p_rommy.log.messages import Ack, Record, Step, step_digest
from p2p_rommy.log.tentative import Tentative

Held = dict[int, tuple[Ack, bytes]]
"""seat -> (its ACK, opened and checked when it came, and the ACK's envelope)."""


@dataclass(slots=True)
class Pending:
    """The step in flight and the votes on it."""

    step: Step
    envelope: bytes
    tentative: Tentative
    acks: Held = field(default_factory=dict)
    nacks: dict[int, str] = field(default_factory=dict)
    """seat -> reason: seats that refused this step, which this seat found valid."""
    digest: bytes = field(init=False)
    """The step's `step_digest`, which every ACK of it binds."""

    def __post_init__(self) -> None:
        self.digest = step_digest(self.envelope)

    @property
    def n(self) -> int:
        return self.step.n

    @property
    def dissenters(self) -> set[int]:
        return set(self.nacks)

    def missing(self, players: int, absent: tuple[int, ...] = ()) -> list[int]:
        """Seats whose ACK is not held (but those in `absent`, whom an end leaves out),
        the ones that refused the step first."""
        acks, nacks = self.acks, self.nacks
        missing = [s for s in range(players) if s not in acks and s not in absent]
        if nacks and len(missing) > 1:  # (without a NACK the sort keeps the order)
            missing.sort(key=lambda seat: seat not in nacks)
        return missing

    def record(self, players: int) -> Record:
        """The committed record: the step's envelope and every seat's ACK (b"" for each
        seat an end leaves out), with the step and ACKs as they were checked."""
        held = [self.acks.get(s) for s in range(players)]
        acks = tuple(b"" if h is None else h[1] for h in held)
        votes = tuple(None if h is None else h[0] for h in held)
        return Record(self.envelope, acks, self.step, votes)


@dataclass(slots=True)
class EarlyVotes:
    """ACKs (and the first NACK) for steps this seat does not hold yet. ACKs of an end
    are kept apart, by the state they sign (`ends`): a seat may ACK both a step and the
    end that replaces it, and either may come first."""

    acks: dict[int, Held] = field(default_factory=dict)
    nacks: dict[int, tuple[int, str]] = field(default_factory=dict)
    ends: dict[int, dict[bytes, Held]] = field(default_factory=dict)
    """n -> end state hash -> the ACKs of that end (an end's hash is known from the
    committed state: an ACK that came while this seat was further behind is kept with
    `acks` until its step is the next one, then moved here: `Voting._take_early`)."""

    def take(self, n: int) -> tuple[Held, tuple[int, str] | None]:
        """The votes held for step `n`, handed over (it has arrived or been proposed)."""
        return self.acks.pop(n, {}), self.nacks.pop(n, None)

    def take_end(self, n: int, state: bytes) -> Held:
        """The ACKs held for the end step `n` leaving `state`; those of the step it
        replaces are moot."""
        self.acks.pop(n, None)
        return self.ends.pop(n, {}).get(state, {})

    def end_acks(self, n: int, state: bytes) -> Held:
        """Where the ACKs of the end step `n` leaving `state` are kept until it comes."""
        return self.ends.setdefault(n, {}).setdefault(state, {})

    def forget(self, n: int) -> None:
        """Step `n` committed or was replaced: votes held for it are moot, but for those
        of an end for it, kept until the next step commits: that end may still outrank
        it at a seat it leaves out (`log/overturn.py`)."""
        self.acks.pop(n, None)
        self.nacks.pop(n, None)
        self.ends.pop(n - 1, None)
