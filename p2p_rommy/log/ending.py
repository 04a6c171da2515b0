"""Ending a game without a seat (SPEC §4.4 "Ending without a seat"): this seat's side.

A concept of its own, not a move: the rules never end a game early, the table does,
when a seat is gone (it kept the table waiting past the stall limit) or was caught
cheating by this seat's own checking (`named`). Then the lowest other seat proposes an
`end` step leaving out that set of seats, a majority signs it, and the scores so far
stand; an end already pending is replaced only by one that leaves out more, and a
frozen table ends only without the seat it named. Which seats an end may leave out
(`end_set`), who proposes it, and when a bot's peer does so by itself (`end_after`)
are decided here; signing another seat's end is a vote (`EndVotes._on_end`,
`log/end_votes.py`), and the step itself is built by the replica (`propose_end`).
"""

from __future__ import annotations

from p2p_rommy.i18n import N_
from p2p_rommy.log.events import Event
from p2p_rommy.log.messages import Ack
from p2p_rommy.log.stalls import StallWatch, Waiting
from p2p_rommy.log.voting import Voting


class Ending(Voting):
    """When and without whom this seat proposes to end the game (see the module
    docstring)."""

    stall_watch: StallWatch
    end_after: float | None
    """Seconds of waiting for one seat after which this peer proposes to end the game
    without it by itself (a bot's); None: only when asked (`end_game`)."""
    frozen_at: float | None
    """When this seat's clock first saw the table frozen (at its next tick)."""

    def waits(self, now: float) -> list[Waiting]:
        """Every seat the table waits for now (the peer's part)."""
        raise NotImplementedError

    @property
    def culprit(self) -> int | None:
        """The seat the evidence blames for the freeze, when it does."""
        return self.trouble.culprit

    @property
    def end_wait(self) -> float:
        """How long this seat waits for another before it proposes or signs an end
        without it: its stall limit."""
        return self.stall_watch.stall_after

    def named(self, seat: int) -> bool:
        """This seat's own checking froze the table naming `seat` from its signed data
        (an invalid step, two steps for one number, a bad proof): it may then propose or
        sign an end without `seat` at once, as it may for a seat it waited for too long
        (SPEC §4.4 "Ending without a seat"). Not after a cheat found by a round's audit,
        at a commit that could not complete (no end builds on it)."""
        return (
            self.frozen is not None
            and self.culprit == seat
            and seat != self.seat
            and self.replica.ended is None
            and not self.commit_failed
        )

    def end_set(self, now: float) -> tuple[int, ...]:
        """The seats this seat may end the game without now (SPEC §4.4): the seat its own
        checking caught cheating, else every seat it has waited its stall limit for, with
        those a pending end already leaves out; () when there is no new end to make."""
        culprit = self.culprit
        if self.frozen:
            named = culprit is not None and self.named(culprit)
            return (culprit,) if named and culprit is not None else ()
        covered = self.replica.pending_absent()
        waited = {
            w.seat
            for w in self.waits(now)
            if w.seat != self.seat and now - w.since >= self.end_wait
        }
        absent = tuple(sorted(waited | set(covered)))
        if not waited or absent == covered or len(absent) > self.replica.most_absent:
            return ()
        if self._cut_off(absent, now):
            return ()
        return absent

    def _cut_off(self, absent: tuple[int, ...], now: float) -> bool:
        """Whether this seat has been cut off from a seat that must sign an end without
        `absent` (`CatchUp.cut_off`): it then proposes none. A seat cut off from the
        whole table cannot tell that it is the one cut off; its end nobody would sign,
        and holding it, it took no step when it came back, and the others ended the
        game without it while it was there (seed 21668)."""
        return any(
            self.catch_up.cut_off(seat, now)
            for seat in range(self.players)
            if seat != self.seat and seat not in absent
        )

    def ending_frozen(self, now: float) -> bool:
        """A bot's peer (`end_after`) frozen naming a seat it may end the game without,
        less than `end_after` since it froze: its session keeps the table open for that
        end, which this peer proposes itself (`tick`) or signs. (A person's client stays
        open until the person leaves, and `e` offers the end.)"""
        culprit = self.culprit
        if culprit is None or not self.named(culprit) or self.end_after is None:
            return False
        return self.frozen_at is None or now - self.frozen_at < self.end_after

    def end_game(self, absent: int | tuple[int, ...], now: float = 0.0) -> list[Event]:
        """Propose to end the game without the seat or seats `absent`, which the table
        has been waiting for: every other seat signs it, and the scores so far stand.
        Only the lowest other seat proposes it, and only once it has waited its stall
        limit for each of them itself (`waited`, SPEC §4.4; a pending end's seats stay
        left out); otherwise this does nothing."""
        if isinstance(absent, int):
            absent = (absent,)
        return self._call(lambda: self._end_game(absent, now))

    def _end_game(self, seats: tuple[int, ...], now: float) -> None:
        if self.frozen:
            if len(seats) == 1:
                self._end_frozen(seats[0], now)
            return
        covered = self.replica.pending_absent()
        absent = tuple(sorted(set(seats) | set(covered)))
        if (
            absent == covered  # nothing new to leave out
            or self.seat in absent
            or len(absent) > self.replica.most_absent  # its signers: a majority
            or not self.may_end_without(absent, now)  # the others would not sign it yet
            or self._cut_off(absent, now)  # it may be the one cut off (`CUT_OFF_S`)
            or self.replica.end_proposer(absent) != self.seat
        ):
            return
        replaced = self.pending
        step = self.replica.propose_end(absent, self._end_reason(absent, covered, now))
        self.proposed(step, now, replaced)

    def _end_reason(self, absent: tuple[int, ...], covered: tuple[int, ...], now: float) -> str:
        """Why the game ends without `absent`: for each seat, what never came from it."""
        waits = {w.seat: w for w in self.waits(now)}
        reasons = []
        for seat in absent:
            name = self.replica.config.seats[seat].name
            refused = [d for d in self.trouble.dissents if d.seat == seat]
            if seat in covered:  # signed English; translated where shown (`i18n.say_reason`)
                reasons.append(
                    N_("seat {seat} ({name}) did not come back").format(seat=seat + 1, name=name)
                )
            elif refused:
                reasons.append(
                    N_(
                        "seat {seat} ({name}) refused step {n}, which the others found valid "
                        "({why}), and did not come back"
                    ).format(
                        seat=seat + 1, name=name, n=refused[-1].n, why=refused[-1].reason[:200]
                    )
                )
            else:
                reasons.append(
                    N_("seat {seat} ({name}) did not come back; {what} never came").format(
                        seat=seat + 1, name=name, what=waits[seat].what
                    )
                )
        return "; ".join(reasons)

    def _end_frozen(self, absent: int, now: float) -> None:
        """End a table frozen by `absent`'s cheat without it (it forfeits)."""
        pending = self.replica.tentative
        if (
            not self.named(absent)
            or (pending is not None and pending.kind == "end")
            or self.replica.end_proposer((absent,)) != self.seat
        ):
            return
        name = self.replica.config.seats[absent].name
        assert self.frozen is not None
        reason = f"seat {absent + 1} ({name}) was caught cheating: {self.frozen[:300]}"
        replaced = self.pending
        self.proposed(self.replica.propose_end((absent,), reason), now, replaced)

    def _frozen_tick(self, now: float) -> None:
        """At a tick, frozen: the freeze is dated by this seat's clock, and a bot's peer
        (`end_after`) ends the game at once without the seat its own checking named."""
        if self.frozen and self.frozen_at is None:
            self.frozen_at = now
        if self.frozen and self.end_after is not None and self.culprit is not None:
            self._end_frozen(self.culprit, now)

    def _late_tick(self, waits: list[Waiting], now: float) -> None:
        """At a tick: a bot's peer (`end_after`) ends the game without the seats it has
        waited `end_after` for."""
        if self.end_after is None:
            return
        late = tuple(
            w.seat for w in waits if w.seat != self.seat and now - w.since >= self.end_after
        )
        if late:
            self._end_game(late, now)

    def _ends_culprit(self, ack: Ack) -> bool:
        """A frozen peer's business: an ACK of an end without the seat it named."""
        if ack.n != self.replica.n + 1 or self.culprit is None:
            return False
        return self.replica.end_hashes().get(ack.state) == (self.culprit,)
