"""One whole table, simulated: production `Peer`s on a seeded scheduler, over a
simulated network, clock and disk, with the faults and the adversary of a `Spec`,
and the invariants checked after every event.

The driver of each seat does what `seat/session.py` does around its peer, in the
same order: call the peer; make the round seed and every committed record durable
(fsync); only then send what the peer said; stop (halt) when a write fails; leave
once the match is over or the table froze (a seat frozen naming a cheat its own
checking caught first stays, to end the game without it, answering catch-up). A
crashed seat is resumed from its own simulated disk as `rommy resume` resumes one
(`sim/disk.py`). Nothing here reads a
clock, opens a socket or starts a thread: the same `Spec` gives the same run, bit
for bit.

Invariants (a `Violation` each time one breaks):
- ``prefix``: honest seats' committed logs never diverge (compared at every commit);
- ``blamed``: no honest seat freezes without an adversary, or names an honest seat;
- ``ended_out``: no honest seat is ended out of the game while present: an end may
  leave out a seat only if it was away (down, halted, paused, cut off, or catching
  up) for all but `ANSWER_S` of the wait the end rests on (`_present_in`);
- ``durability``: a resumed seat's disk holds every record its store reported
  durable and every record it had acted on (sent anything after) before its crash,
  and what it holds is the table's log;
- ``liveness``: once the faults stop, every honest seat finishes (the match over, or
  ended or frozen under the rules, or alone after a restart) within `FINISH_WITHIN_S`
  simulated seconds (lp, and games whose frames are lost all along:
  `FINISH_WITHIN_LP_S`, never `FINISH_WITHIN_S` without a commit); a seat rightly
  ended out that came back after every other had left cannot (`_left_behind`);
- ``verify``: `rommy verify`'s checker on every honest seat's transcript (its disk)
  says FAIR (INCOMPLETE for a frozen table, or a seat left behind) and blames no honest
  seat (a seat an end left out forfeits);
- the prefix is compared, and an end checked, once the seat has stored what it
  committed: a write that fails takes the commit with it (the process dies or halts
  before anything leaves);
- ``exception``: a peer call (or a resume from disk) raised.
"""

from __future__ import annotations

import contextlib
import functools
import heapq
import logging
import random
import traceback
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from p2p_rommy.bots import make_bot
from p2p_rommy.config import GameConfig
from p2p_rommy.errors import ProtocolError
from p2p_rommy.limits import OUTBOX_MAX, TICK_S
from p2p_rommy.log.events import Acked, Committed, Event, Frozen
from p2p_rommy.log.messages import EndStep, Record, Step
from p2p_rommy.log.peer import Peer
from p2p_rommy.log.seated_replica import SeatedReplica
from p2p_rommy.log.tentative import Tentative
from p2p_rommy.log.transcript import Genesis, sign_config
from p2p_rommy.log.trouble import decode_step
from p2p_rommy.seat.loopback_match import seeded_config
from p2p_rommy.seat.session import PAUSE_NOTICE
from p2p_rommy.sim.adversaries import LIBRARY, Adversary, Outgoing, wire
from p2p_rommy.sim.disk import DiskFull, SimDisk, Torn
from p2p_rommy.sim.one_process import one_process
from p2p_rommy.sim.plan import Fault, Spec
from p2p_rommy.sim.toy_group import toy_group
from p2p_rommy.verify import verify_transcript
from p2p_rommy.wire.entropy import StreamEntropy
from p2p_rommy.wire.identity import Identity

STALL_AFTER_S = 20.0
"""The simulator's stall limit (a real table's is 30 s): a seat signs an end without
another only after waiting this long for it. As on a real table it must stay above a
restarted seat's longest catch-up (15 s when one seat never answers, `CATCH_UP_ASKS`)
plus the longest fault drawn (3 s); below it, the others end out a seat that is still
rightly catching up (at 5 s, seed 2018 of the full mix split the table between that
end and the seat's own step)."""
END_AFTER_S = 25.0
"""After this long waiting for one seat the others end the game without it: longer
than the short faults (3 s at most), so only a long one (`Spec.draw`'s `long_share`)
rightly ends an honest seat out."""
ANSWER_S = 8.0
"""The longest a present seat takes to say what it owes (a bot's reaction, 2.6 s at
most, and a lost frame's resync, `RESYNC_ALL_S`): an end without a seat that was
present for longer than this within the wait the end rests on ended it out while it
was there (`ended_out`)."""
FINISH_WITHIN_S = 90.0
"""Simulated seconds after the last fault ends within which every honest seat finishes
(a one-round rummy or Rommé game lasts about 5)."""
FINISH_WITHIN_LP_S = 900.0
"""The same for lp (seven rounds with a Køb! window after every discard, about 80), and
for a game whose frames are lost all along: that weather never stops, and each lost
frame costs a resync (`RESYNC_S`), so a long game (random bots: 1,000 steps) takes
minutes. Such a game must still keep moving: `FINISH_WITHIN_S` without a commit after
the last fault is a liveness violation too."""
MAX_EVENTS = 300_000
LATENCY_S = (0.001, 0.02)
"""A frame's one-way delay, drawn uniformly."""
FLUSH_S = 0.02
"""How long a halted seat keeps its connections for its last word."""
LINGER_S = 10.0
"""How long a finished seat waits at most for its outboxes to empty before it leaves
(the session's `Mesh.flushed` timeout); meanwhile it still answers what it receives.
Once its match is over it does not wait for a seat that has left (closed its side of
the connection: exited, or halted), as `Session.run` does not; a crashed seat's queue is
still waited for. A seat leaves without resetting its connections (`Mesh.close`), so
what it wrote still arrives (`_refresh_links(graceful=True)`)."""
LINGER_POLL_S = 0.05
LEFT = ("exited", "halted")
"""The states of a seat that closed its connections itself (`Mesh.close`)."""
REDIAL_S = 0.05
"""A dropped connection is back this long after both ends can reach each other."""

INVARIANTS = ("prefix", "blamed", "ended_out", "durability", "liveness", "verify", "exception")


@dataclass(frozen=True, slots=True)
class Violation:
    invariant: str
    seat: int
    at: float
    detail: str

    def line(self) -> str:
        return f"{self.invariant} (seat {self.seat}, t={self.at:.3f}s): {self.detail}"


@dataclass
class Outcome:
    spec: Spec
    violations: list[Violation] = field(default_factory=list)
    events: int = 0
    sim_time: float = 0.0
    steps: int = 0
    faults: int = 0
    """Faults that happened (a torn write that found no write to tear does not count)."""
    adversary_acted: bool = False
    verified: int = 0
    """Honest transcripts checked by `rommy verify`'s checker."""
    end: str = ""
    """How the honest seats finished: over, ended, frozen (or unfinished)."""

    @property
    def ok(self) -> bool:
        return not self.violations


# --- deliberately broken seats (to show that every invariant fires) -------------------


class _EarlyCommit(Peer):
    """Commits a step on its own ACK alone (as if every seat had ACKed its state)."""

    def try_commit(self, now: float) -> None:
        pending = self.pending
        if pending is not None and self.seat in pending.acks:
            own = pending.acks[self.seat]
            pending.acks = dict.fromkeys(range(self.players), own)
        super().try_commit(now)


class _Misvalidating(SeatedReplica):
    """Refuses another seat's valid step 12."""

    def validate(self, step: Step) -> Tentative:
        if step.n == 12 and step.seat != self.seat:
            raise ProtocolError(step.seat, "the broken seat refuses step 12")
        return super().validate(step)


RAISE_AT = 30
"""The step whose commit the broken seat ``raises`` fails in."""


class _Raising(SeatedReplica):
    """A bug in the seat's own code: it raises in the middle of handling the ACK that
    completes step `RAISE_AT` (the step checked and ACKed, its commit begun)."""

    def commit(self) -> None:
        tentative = self.tentative
        if tentative is not None and tentative.n == RAISE_AT:
            raise RuntimeError(f"the broken seat raises while committing step {RAISE_AT}")
        super().commit()


# --- the simulated world ---------------------------------------------------------------


@dataclass
class _Seat:
    index: int
    identity: Identity
    disk: SimDisk
    adversary: Adversary | None
    peer: Peer | None = None
    state: str = "up"
    """up, down (crashed), halted (a write failed), exited (finished)."""
    paused: bool = False
    held: list[Callable[[], None]] = field(default_factory=list)
    """What arrived while paused, in order."""
    incarnation: int = 0
    exposed: int = 0
    """Committed records this seat had when it last sent anything."""
    fsynced: int = 0
    """Records its store had reported durable when it crashed or halted."""
    saved_rounds: set[int] = field(default_factory=set)
    saved_params: dict[int, object] = field(default_factory=dict)
    """The deck parameters whose round `_store` has seen in this life, by identity."""
    isolated: int = 0
    """Partitions in force on this seat."""
    done_at: float | None = None
    """When its match was over (or its table froze): it is leaving."""
    cut_off: int = 0
    """Cuts in force on one of its connections."""
    away_since: float | None = None
    """When it went away (down, halted, exited, paused, cut off or catching up); None
    while it is present."""
    spans: list[tuple[float, float]] = field(default_factory=list)
    """Its past absences, (from, to), in order."""
    exited_at: float | None = None


@dataclass
class _Link:
    epoch: int = 0
    up: bool = True
    outbox: dict[int, deque[bytes]] = field(default_factory=dict)
    """sender -> frames it could not write while the connection was down."""
    last: dict[int, float] = field(default_factory=dict)
    """sender -> when its last frame arrives (frames on a connection keep their order)."""


class Simulation:
    """One game of `spec`; `run()` plays it and returns the `Outcome`."""

    def __init__(self, spec: Spec, verify_share: float = 1.0) -> None:
        self.spec = spec
        self.rng = random.Random(f"sim network {spec.seed}")
        self.verify = random.Random(f"sim verify {spec.seed}").random() < verify_share
        self.config, identities = seeded_config(
            spec.variant, spec.players, dict(spec.house), spec.seed
        )
        config: GameConfig = self.config
        self.genesis = Genesis(
            config, config.encode(), tuple(sign_config(config, i) for i in identities)
        )
        self.now = 0.0
        self.queue: list[tuple[float, int, Callable[[], None]]] = []
        self._seq = 0
        self.outcome = Outcome(spec)
        self.canon: list[bytes] = []
        """The table's committed log (step envelopes), as the honest seats commit it."""
        self.last_committers: set[int] = set()
        """The honest seats that committed `canon`'s last step."""
        self.outranked: dict[int, int] = {}
        """Seat -> its last committed step, a step that an end leaving it out outranks
        (`log/overturn.py`): it must take the end in its place, or be left behind."""
        self.seats = []
        for s in range(spec.players):
            adversary = None
            if spec.adversary is not None and s == spec.adversary_seat:
                adversary = LIBRARY[spec.adversary](s, spec.players)
            honest = adversary is None
            disk = SimDisk(self.genesis, fsync=not (honest and "no_fsync" in spec.broken))
            self.seats.append(_Seat(s, identities[s], disk, adversary))
        self.links = {
            (a, b): _Link() for a in range(spec.players) for b in range(a + 1, spec.players)
        }
        self.cuts: dict[tuple[int, int], int] = {}
        self.last_fault_end = max((f.at + f.duration for f in spec.faults), default=0.0)
        self.moved_at = 0.0
        """When an honest seat last committed a step."""
        self.left_out: set[int] = set()
        """Seats a committed end left out (rightly, unless `ended_out` said otherwise):
        they forfeit, and `rommy verify` says so."""
        self.first_acked: dict[bytes, tuple[float, int]] = {}
        """Step envelope -> when and by whom an honest seat first ACKed it (an end's
        first honest signature: what its wait is measured back from)."""
        self.all_exited = False
        """Every honest seat has exited (`_finished`, asked where a seat exits: it is
        the one way there, and "exited" is for good)."""

    # --- scheduling ------------------------------------------------------------------

    def at(self, when: float, action: Callable[[], None]) -> None:
        self._seq += 1
        heapq.heappush(self.queue, (when, self._seq, action))

    def honest(self, seat: int) -> bool:
        return self.seats[seat].adversary is None

    def run(self) -> Outcome:
        real = self.spec.real_group
        with toy_group(not real), one_process(threads=real), _quiet():
            return self._run()

    def _run(self) -> Outcome:
        for seat in self.seats:
            self._boot(seat, restored=None)
        for fault in self.spec.faults:
            self.at(fault.at, functools.partial(self._fault, fault))
        long = self.spec.variant == "lp" or self.spec.loss
        deadline = self.last_fault_end + (FINISH_WITHIN_LP_S if long else FINISH_WITHIN_S)
        outcome = self.outcome
        while self.queue and outcome.events < MAX_EVENTS and not outcome.violations:
            when, _, action = heapq.heappop(self.queue)
            if when > deadline or when > max(self.last_fault_end, self.moved_at) + FINISH_WITHIN_S:
                break  # out of time, or stuck: nothing committed for too long
            self.now = when
            outcome.events += 1
            action()
            if self.all_exited:
                break
        outcome.sim_time = self.now
        outcome.adversary_acted = any(s.adversary.acted for s in self.seats if s.adversary)
        if not outcome.violations:
            self._final_checks()
        return outcome

    def _finished(self) -> bool:
        return all(s.state == "exited" for s in self.seats if s.adversary is None)

    # --- a seat's life -----------------------------------------------------------------

    def _boot(
        self,
        seat: _Seat,
        restored: tuple[list[Record], dict[int, bytes], tuple[bytes, bytes] | None] | None,
    ) -> None:
        spec = self.spec
        label = b"sim %d seat %d life %d" % (spec.seed, seat.index, seat.incarnation)
        rng = random.Random(label)
        honest = seat.adversary is None
        replica_class: type[SeatedReplica] = SeatedReplica
        if honest and "misvalidate" in spec.broken:
            replica_class = _Misvalidating
        elif honest and "raises" in spec.broken:
            replica_class = _Raising
        records = None
        acked = None
        if restored is None:
            replica = replica_class(self.config, seat.index, seat.identity, StreamEntropy(label))
        else:
            records, seeds, acked = restored
            replica = replica_class(
                self.config, seat.index, seat.identity, StreamEntropy(label), seeds=seeds
            )
            try:
                for record in records:
                    replica.restore(record.step, record.acks)
            except ProtocolError as error:  # `rommy resume` refuses it the same way
                seat.state = "down"
                self._violate("durability", seat.index, f"its disk does not replay: {error}")
                return
            except Exception as error:  # a resume that raises is a finding, as in `_call`
                seat.state = "down"
                self._violate("exception", seat.index, _where(error))
                return
        peer_class = _EarlyCommit if honest and "commit_early" in spec.broken else Peer
        hasty = honest and "hasty_end" in spec.broken  # proposes and signs ends at once
        end_after = 0.3 if hasty else END_AFTER_S
        seat.peer = peer_class(
            replica,
            make_bot(spec.bot, rng),
            0.3 if hasty else STALL_AFTER_S,
            records=records,
            end_after=end_after,
            archive=seat.disk,
            acked=acked,
        )
        seat.state = "up"
        seat.done_at = None
        seat.saved_rounds = set()
        seat.saved_params = {}
        peer = seat.peer
        self._call(seat, lambda: peer.start(self.now))
        if not (honest and "no_ticks" in spec.broken):
            self._tick_later(seat)
        self._refresh_links()

    def _tick_later(self, seat: _Seat) -> None:
        life = seat.incarnation
        self.at(self.now + TICK_S, lambda: self._tick(seat, life))

    def _tick(self, seat: _Seat, life: int) -> None:
        if seat.incarnation != life or seat.state != "up":
            return
        peer = seat.peer
        assert peer is not None
        if not seat.paused:
            self._call(seat, lambda: peer.tick(self.now))
        if seat.incarnation == life and seat.state == "up":
            self._tick_later(seat)

    def _input(self, seat: _Seat, action: Callable[[Peer], list[Event]]) -> None:
        """Something for the seat's peer (a frame, a link up): held while it is paused."""
        if seat.state != "up":
            return
        peer = seat.peer
        assert peer is not None
        if seat.paused:
            seat.held.append(lambda: self._input(seat, action))
            return
        self._call(seat, lambda: action(peer))

    def _call(self, seat: _Seat, call: Callable[[], list[Event]]) -> None:
        """One call into the peer, as the session makes it: compute, store, then send."""
        peer = seat.peer
        if peer is None or seat.state != "up":
            return
        try:
            out = call()
        except Exception as error:  # a peer that raises is a finding, not a crash here
            self._violate("exception", seat.index, _where(error))
            return
        adversary = seat.adversary
        quiet = not out and adversary is None  # two calls in three: no event to handle
        try:
            if quiet:
                self._save_seeds(seat)  # (a round's seed, which a quiet call may still make)
            else:
                self._store(seat, out)
        except Torn:
            self.outcome.faults += 1
            self._crash(seat)
            return
        except DiskFull:
            self._halt(seat)
            return
        if not quiet:
            self._observe(seat, out)  # once stored: a write that failed kills what it carried
            sent = adversary.tamper(peer, out, self.now) if adversary else wire(out)
            if sent:
                seat.exposed = len(peer.records)
            self._send(seat.index, sent)
        self._presence(seat)
        frozen, replica = peer.frozen, peer.replica  # (each read once: every event asks)
        if frozen and peer.ending_frozen(self.now):
            pass  # `Session._handle`: the table may still end without the seat it named
        elif seat.done_at is None and (frozen or replica.over or peer.alone):
            seat.done_at = self.now
            self.at(self.now, functools.partial(self._exit, seat, seat.incarnation))
        elif replica.deferred:
            life = seat.incarnation
            self.at(self.now, lambda: self._deferred(seat, life))

    def _deferred(self, seat: _Seat, life: int) -> None:
        if seat.incarnation == life and seat.peer is not None and seat.peer.replica.deferred:
            peer = seat.peer
            if seat.paused:
                seat.held.append(lambda: self._deferred(seat, life))
                return
            self._call(seat, peer.check_deferred)

    def _store(self, seat: _Seat, out: list[Event]) -> None:
        """The round's seed, then every committed record, durable (`Session._call_and_store`)."""
        self._save_seeds(seat)
        for event in out:  # in order: a record, then the next ACK (`_call_and_store`)
            if isinstance(event, Committed):
                record = event.record
                if seat.adversary is None and "bad_record" in self.spec.broken:
                    record = type(record)(record.step, record.acks[::-1])
                if event.replaces:  # an end outranks its last step (`log/overturn.py`)
                    seat.exposed = min(seat.exposed, event.n - 1)
                    seat.disk.replace_last(record)
                else:
                    seat.disk.append(record)
            elif isinstance(event, Acked):
                seat.disk.save_ack(event.step, event.ack)

    def _save_seeds(self, seat: _Seat) -> None:
        """Each open round's seed, durable once (`Session._call_and_store` saves it
        before anything of the call is stored or sent)."""
        peer = seat.peer
        assert peer is not None
        replica = peer.replica
        for deck in (replica.deck, replica.next_deck):  # `open_decks`, without the list
            if deck is None:
                continue
            params = deck.seat.params
            if seat.saved_params.get(id(params)) is params:
                continue  # (its round is in `saved_rounds`: asked every call, once is enough)
            seat.saved_params[id(params)] = params
            round_no = params.round_no
            if round_no not in seat.saved_rounds:
                seat.saved_rounds.add(round_no)
                if replica.seeds.get(round_no) != deck.seat.seed.value:
                    seat.disk.save_secret(f"seed/{round_no}", deck.seat.seed.value)

    def _exit(self, seat: _Seat, life: int) -> None:
        """The match is over (or the table froze) here: leave once every outbox is
        written, but for one to a seat that has left once the match is over here, or
        after `LINGER_S`; restarted and alone, at once (`Session.run` flushes nothing
        then: nobody answered, and a seat that caught up later would leave all the
        same, its transcript short of the end nobody tells it)."""
        if seat.incarnation != life or seat.state != "up" or seat.done_at is None:
            return
        over = seat.peer is not None and seat.peer.replica.over
        alone = seat.peer is not None and seat.peer.alone
        queued = any(
            link.outbox.get(seat.index)
            and not (over and self.seats[a if b == seat.index else b].state in LEFT)
            for (a, b), link in self.links.items()
            if seat.index in (a, b)
        )
        if queued and not alone and self.now - seat.done_at < LINGER_S:
            self.at(self.now + LINGER_POLL_S, functools.partial(self._exit, seat, life))
            return
        seat.state = "exited"
        seat.exited_at = self.now
        self.all_exited = self._finished()
        self._refresh_links(graceful=True)

    def _halt(self, seat: _Seat) -> None:
        """A write failed: say so to the table, then stop (`Session._halt`)."""
        peer = seat.peer
        assert peer is not None
        self._send(seat.index, wire(peer.say(PAUSE_NOTICE)))
        seat.state = "halted"
        seat.incarnation += 1
        self._presence(seat)
        self.at(self.now + FLUSH_S, self._refresh_links)

    def _crash(self, seat: _Seat) -> None:
        if seat.state in ("down", "exited"):
            return
        seat.state = "down"
        seat.peer = None
        seat.paused = False
        seat.held.clear()
        seat.incarnation += 1
        seat.fsynced = seat.disk.held()  # what its store reported durable
        seat.disk.crash()
        self._refresh_links()

    def _resume(self, seat: _Seat) -> None:
        """`rommy resume`: the seat's transcript and seeds read back from its disk."""
        if seat.state not in ("down", "halted"):
            return
        if seat.state == "halted":
            seat.fsynced = seat.disk.held()
        seat.disk.crash()  # a halted process exits too: its page cache is gone
        records, seeds, _ = seat.disk.load()
        if len(records) < max(seat.exposed, seat.fsynced):
            self._violate(
                "durability",
                seat.index,
                f"resumed with {len(records)} records, but it had acted on {seat.exposed} "
                f"and its store had reported {seat.fsynced} durable",
            )
            return
        honest = seat.adversary is None  # `canon` is the honest seats' log, not a cheat's
        for n, record in enumerate(records if honest else ()):
            if n < len(self.canon) and self.canon[n] != record.step:
                if n == len(records) - 1 and self.outranked.get(seat.index) == n + 1:
                    continue  # a step an end outranks, not replaced yet (`_outranks`)
                self._violate("durability", seat.index, f"its disk holds another step {n + 1}")
                return
        seat.incarnation += 1
        self._boot(seat, (records, seeds, seat.disk.load_acked()))

    # --- faults ------------------------------------------------------------------------

    def _fault(self, fault: Fault) -> None:
        seat = self.seats[fault.seat]
        end = self.now + fault.duration
        if seat.state == "exited":
            return
        kind = fault.kind
        if kind == "crash":
            if seat.state == "up":
                self.outcome.faults += 1
                self._crash(seat)
                self.at(end, lambda: self._resume(seat))
        elif kind == "torn":
            if seat.state == "up":
                seat.disk.tear = True
                self.at(end, lambda: self._untear(seat))
        elif kind == "pause":
            if seat.state == "up" and not seat.paused:
                self.outcome.faults += 1
                seat.paused = True
                self._presence(seat)
                life = seat.incarnation
                self.at(end, lambda: self._unpause(seat, life))
        elif kind == "partition":
            self.outcome.faults += 1
            seat.isolated += 1
            self._refresh_links()
            self.at(end, lambda: self._heal(seat))
        elif kind == "cut":
            self.outcome.faults += 1
            pair = (min(fault.seat, fault.other), max(fault.seat, fault.other))
            self.cuts[pair] = self.cuts.get(pair, 0) + 1
            for index in pair:
                self.seats[index].cut_off += 1
            self._refresh_links()
            self.at(self.now + min(fault.duration, 0.5), lambda: self._redial(pair))
        elif kind == "disk_full":
            self.outcome.faults += 1
            seat.disk.full = True
            self.at(end, lambda: self._room(seat))

    def _untear(self, seat: _Seat) -> None:
        """The torn fault's end: resume the seat it tore, or forget it if no write came."""
        if seat.disk.tear:
            seat.disk.tear = False  # no write came to tear
        elif seat.state == "down":
            self._resume(seat)

    def _unpause(self, seat: _Seat, life: int) -> None:
        if seat.incarnation != life:
            return
        seat.paused = False
        self._presence(seat)
        held, seat.held = seat.held, []
        for action in held:
            action()

    def _heal(self, seat: _Seat) -> None:
        seat.isolated -= 1
        self._refresh_links()

    def _redial(self, pair: tuple[int, int]) -> None:
        self.cuts[pair] -= 1
        for index in pair:
            self.seats[index].cut_off -= 1
        self._refresh_links()

    def _room(self, seat: _Seat) -> None:
        seat.disk.full = False
        if seat.state == "halted":
            self._resume(seat)

    # --- the network -------------------------------------------------------------------

    def _reachable(self, a: int, b: int) -> bool:
        first, second = self.seats[a], self.seats[b]
        return (
            first.state == "up"
            and second.state == "up"
            and not first.isolated
            and not second.isolated
            and not self.cuts.get((a, b), 0)
        )

    def _refresh_links(self, graceful: bool = False) -> None:
        """Connections follow the seats and the partitions. `graceful`: a seat closed
        its connections itself, so what it had written still arrives."""
        for seat in self.seats:
            self._presence(seat)
        for (a, b), link in self.links.items():
            reachable = self._reachable(a, b)
            if link.up and not reachable:
                link.up = False
                if not graceful:
                    link.epoch += 1  # frames in flight on the old connection are lost
            elif not link.up and reachable:
                link.up = True
                link.epoch += 1
                epoch = link.epoch
                self.at(self.now + REDIAL_S, functools.partial(self._connected, a, b, epoch))

    def _connected(self, a: int, b: int, epoch: int) -> None:
        """The connection between `a` and `b` is back: each side's outbox is written, and
        each peer is told (`Peer.link_up`)."""
        link = self.links[(a, b)]
        if link.epoch != epoch or not link.up:
            return
        for sender, receiver in ((a, b), (b, a)):
            queued = link.outbox.pop(sender, deque())
            for envelope in queued:
                self._transmit(link, sender, receiver, envelope)
        for seat, other in ((a, b), (b, a)):
            self._input(self.seats[seat], functools.partial(self._link_up, other))

    def _link_up(self, other: int, peer: Peer) -> list[Event]:
        return peer.link_up(other, self.now)

    def _send(self, sender: int, sent: Outgoing) -> None:
        for to, envelope in sent:
            targets = [to] if to is not None else range(self.spec.players)
            for receiver in targets:
                if receiver != sender:
                    self._write(sender, receiver, envelope)

    def _write(self, sender: int, receiver: int, envelope: bytes) -> None:
        link = self.links[(min(sender, receiver), max(sender, receiver))]
        if not link.up:
            outbox = link.outbox.setdefault(sender, deque())
            outbox.append(envelope)
            if len(outbox) > OUTBOX_MAX:
                outbox.clear()  # too far behind: `Mesh.send` drops the queue (catch-up resends)
            return
        self._transmit(link, sender, receiver, envelope)

    def _transmit(self, link: _Link, sender: int, receiver: int, envelope: bytes) -> None:
        spec, rng = self.spec, self.rng
        if spec.loss and rng.random() < spec.loss:
            return
        low, high = LATENCY_S
        arrival = self.now + (low + (high - low) * rng.random())  # `rng.uniform`, inlined
        if not spec.reorder:
            last = link.last.get(sender, 0.0)
            if last > arrival:
                arrival = last
            link.last[sender] = arrival
        deliver: Callable[[], None] = functools.partial(
            self._deliver, link, sender, receiver, link.epoch, envelope
        )
        self._seq += 1
        heapq.heappush(self.queue, (arrival, self._seq, deliver))  # `at`, inlined
        if spec.duplicate and rng.random() < spec.duplicate:
            self.at(arrival + 0.001, deliver)

    def _deliver(
        self, link: _Link, sender: int, receiver: int, epoch: int, envelope: bytes
    ) -> None:
        if link.epoch != epoch:
            return
        seat = self.seats[receiver]
        peer = seat.peer
        if seat.state == "up" and not seat.paused and peer is not None:  # `_input` at once
            self._call(seat, functools.partial(peer.receive, envelope, self.now, sender))
            return
        self._input(seat, lambda peer: peer.receive(envelope, self.now, sender))

    # --- invariants --------------------------------------------------------------------

    def _presence(self, seat: _Seat) -> None:
        """Note whether `seat` is away now: down, halted or exited, paused, cut off from
        a seat, or catching up after a restart (it cannot say what it owes)."""
        peer = seat.peer
        away = bool(
            seat.state != "up"
            or seat.paused
            or seat.isolated
            or seat.cut_off
            or (peer is not None and peer.catching_up)
        )
        if away:
            if seat.away_since is None:
                seat.away_since = self.now
        elif seat.away_since is not None:
            seat.spans.append((seat.away_since, self.now))
            seat.away_since = None

    def _present_in(self, seat: _Seat, start: float, end: float) -> float:
        """How long `seat` was present between `start` and `end` (before the game, a
        seat counts as present: the table started with it there)."""
        spans = seat.spans
        if seat.away_since is not None:
            spans = [*spans, (seat.away_since, self.now)]
        away = sum(max(0.0, min(to, end) - max(since, start)) for since, to in spans)
        return end - start - away

    def _ended_out(self, step: Step, envelope: bytes) -> list[int]:
        """The honest seats a committed end leaves out while they were present: for
        more than `ANSWER_S` within the wait it rests on, measured back from its first
        honest signature (its proposer's own waits `END_AFTER_S`, any other signer
        `STALL_AFTER_S`)."""
        body = step.body
        assert isinstance(body, EndStep)
        signed, signer = self.first_acked.get(envelope, (self.now, -1))
        wait = END_AFTER_S if signer == step.seat else STALL_AFTER_S
        return [
            s
            for s in body.absent
            if self.honest(s) and self._present_in(self.seats[s], signed - wait, signed) > ANSWER_S
        ]

    def _violate(self, invariant: str, seat: int, detail: str) -> None:
        self.outcome.violations.append(Violation(invariant, seat, self.now, detail))

    def _observe(self, seat: _Seat, out: list[Event]) -> None:
        """The invariants an event shows at once: commits and freezes of honest seats."""
        if seat.adversary is not None:
            return
        for event in out:
            if isinstance(event, Committed):
                index = event.n - 1
                envelope = event.record.step
                if index < len(self.canon):
                    if self.canon[index] != envelope and not self._outranks(seat, event):
                        self._violate(
                            "prefix",
                            seat.index,
                            f"committed another step {event.n} than a seat before it",
                        )
                    elif index == len(self.canon) - 1:
                        self.last_committers.add(seat.index)
                elif index == len(self.canon):
                    self.canon.append(envelope)
                    self.last_committers = {seat.index}
                if event.replaces and self.outranked.get(seat.index) == event.n:
                    del self.outranked[seat.index]  # it took the end in its step's place
                self.outcome.steps = max(self.outcome.steps, event.n)
                self.moved_at = self.now
                body = event.step.body
                if isinstance(body, EndStep):
                    self.left_out.update(body.absent)
                if isinstance(body, EndStep) and (present := self._ended_out(event.step, envelope)):
                    self._violate(
                        "ended_out",
                        seat.index,
                        f"committed the end of the game without seats {body.absent}, of which "
                        f"honest {present} were present: {body.reason[:160]}",
                    )
            elif isinstance(event, Acked):
                self.first_acked.setdefault(event.step, (self.now, seat.index))
            elif isinstance(event, Frozen) and (
                not self.spec.adversary or event.culprit not in (None, self.spec.adversary_seat)
            ):
                self._violate(
                    "blamed", seat.index, f"froze naming seat {event.culprit}: {event.report[:200]}"
                )

    def _outranks(self, seat: _Seat, event: Committed) -> bool:
        """Whether `event`, a commit of another step than the table's for its number,
        is one the rules allow: the table's last step, or the seat's, is an end that
        leaves out every honest seat holding the other one, which then takes the end
        in its place (`log/overturn.py`; `outranked` says it must)."""
        index = event.n - 1
        if index != len(self.canon) - 1:
            return False
        held = decode_step(self.canon[index])
        body, new = held.body, event.step.body
        if isinstance(new, EndStep) and not isinstance(body, EndStep):
            if not self.last_committers <= set(new.absent):
                return False
            self.canon[index] = event.record.step  # the end outranks the step
            for other in self.last_committers:
                self.outranked[other] = event.n
            self.last_committers = {seat.index}
            return True
        if isinstance(body, EndStep) and not isinstance(new, EndStep):
            if seat.index not in body.absent:
                return False
            self.outranked[seat.index] = event.n
            return True
        return False

    def _left_behind(self, seat: _Seat) -> bool:
        """A seat a committed end left out that came back (or is still away) only after
        every other honest seat had left: nobody is there to tell it the game is over,
        so it waits, saying whom for, until its player leaves (it cannot finish)."""
        if seat.index not in self.left_out:
            return False
        back = seat.spans[-1][1] if seat.away_since is None and seat.spans else None
        return all(
            other.exited_at is not None and (back is None or other.exited_at <= back)
            for other in self.seats
            if other is not seat and other.adversary is None
        )

    def _final_checks(self) -> None:
        outcome = self.outcome
        ends = set()
        behind = set()
        for seat in self.seats:
            if seat.adversary is not None:
                continue
            peer = seat.peer
            if (seat.state != "exited" or peer is None) and self._left_behind(seat):
                behind.add(seat.index)
                ends.add("left behind")
                continue
            if seat.index in self.outranked and not (peer is not None and peer.alone):
                # (restarted after every other seat had left: nobody could tell it)
                self._violate(
                    "prefix",
                    seat.index,
                    f"kept step {self.outranked[seat.index]}, which an end leaving it out "
                    "outranks, to the end",
                )
            if seat.state != "exited" or peer is None:
                waiting = peer.waiting(self.now) if peer is not None else None
                self._violate(
                    "liveness",
                    seat.index,
                    f"not finished {self.now - self.last_fault_end:.0f}s after the last fault "
                    f"(nothing committed for {self.now - self.moved_at:.0f}s; "
                    f"{seat.state}, step {peer.replica.n if peer else '?'}, "
                    f"catching up {peer.catching_up if peer else '?'}, waiting for "
                    f"{waiting.seat if waiting else None})",
                )
                continue
            if peer.replica.ended is not None:
                ends.add("ended")  # also a table frozen on a cheat, ended without it
            elif peer.frozen:
                ends.add("frozen")
            elif peer.alone:
                ends.add("alone")  # restarted after the others left: said so and stopped
            else:
                ends.add("over")
        outcome.end = "+".join(sorted(ends)) if ends else "unfinished"
        if outcome.violations or not self.verify:
            return
        adversary = self.spec.adversary_seat if self.spec.adversary else None
        for seat in self.seats:
            if seat.adversary is not None:
                continue
            report = verify_transcript(seat.disk.transcript.durable)
            outcome.verified += 1
            peer = seat.peer
            stopped = seat.index in behind or (
                peer is not None and (peer.frozen is not None or peer.alone)
            )
            good = report.status == "fair" or (report.status == "incomplete" and stopped)
            blamed = {report.culprit} - {None, adversary}
            if not good or blamed or set(report.forfeited) - {adversary, *self.left_out}:
                self._violate("verify", seat.index, report.verdict()[:300])


def _where(error: Exception) -> str:
    """The exception and the line it was raised on."""
    detail = "".join(traceback.format_exception_only(error)).strip()
    where = traceback.extract_tb(error.__traceback__)[-1]
    return f"{detail} at {where.filename}:{where.lineno}"


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """The peers' log lines (stalls, refusals: thousands a run) kept off the terminal."""
    level = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        yield
    finally:
        logging.disable(level)


def run_game(spec: Spec, verify_share: float = 1.0) -> Outcome:
    """Play `spec` once (deterministic: the same spec gives the same outcome)."""
    return Simulation(spec, verify_share).run()
