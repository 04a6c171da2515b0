"""Catch-up and resync (SPEC §4.4): asking the other seats for what this seat may have
missed, and answering a seat that asks.

A seat asks (`log/sync` with `ask = 1` and the step it has committed) whenever a
connection (re)opens, after a quiet spell without progress (a lost frame), and — after a
restart — of every seat before it proposes anything. The answer is the original signed
envelopes: every committed record after the asker's step, the step in flight with the
ACKs held for it, the open Køb! window's answers; then the answerer's own `Sync`. An
ask stays open until its answer's `Sync` arrives: until then a copy of a committed step
from that seat may be its answer, not a replay (the last `ASKS_KEPT` asks per seat).

After a restart a silent seat must not hold this one back: a seat whose answer does not
come is asked again on a doubling schedule (`CATCH_UP_REASK_S`), and after
`CATCH_UP_ASKS` unanswered asks this seat stops waiting for it and goes on (reporting it
as the one stalling). An answer from a seat counts for every ask of it: one lost answer
(or ask) never keeps a seat catching up. Sans-IO: time is passed in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from p2p_rommy.limits import (
    ALONE_AFTER_S,
    ASK_AGAIN_S,
    ASKS_KEPT,
    CATCH_UP_ASKS,
    CATCH_UP_REASK_S,
    CUT_OFF_S,
    RESYNC_ALL_S,
    RESYNC_S,
)
from p2p_rommy.log.messages import Record


class CatchUp:
    """This seat's open asks, and whether it is still catching up after a restart."""

    def __init__(self, seat: int, players: int, restarted: bool) -> None:
        self.seat = seat
        self.players = players
        self.catching_up = restarted
        """Restarted, and not yet told by every other seat that it has all they have."""
        self._asked: dict[int, list[tuple[int, float]]] = {}
        """Seat -> (the step this seat had committed, when) for each ask that seat has
        not yet answered, oldest first (what they send after it may arrive twice)."""
        self._awaited: dict[int, tuple[int, float]] = {}
        """While catching up: seat -> (asks sent to it, when the last was) for each seat
        whose answer this seat still waits for."""
        self.silent: list[int] = []
        """Seats that never answered this seat's catch-up asks (it went on without them)."""
        self.first_asked: dict[int, float] = {}
        """While catching up: seat -> when this seat first asked it. A seat that never
        answers has been silent toward this one since then (`silent_since`)."""
        self.alone = False
        """Restarted, and no other seat answered any ask for `ALONE_AFTER_S`: the
        others have finished the match, or left (`lonely`)."""
        self._unheard: dict[int, float] = {}
        """Seat -> when this seat first asked it since it last heard from it
        (`cut_off`)."""
        self._last_resync = 0.0

    def started(self, now: float) -> None:
        self._last_resync = now

    def ask(self, seats: Iterable[int], committed: int, now: float) -> list[int]:
        """Record an ask of each of `seats` (this seat left out) at step `committed`;
        the seats to send it to."""
        asked = []
        for seat in seats:
            if seat != self.seat:
                self._unheard.setdefault(seat, now)
                asks = self._asked.setdefault(seat, [])
                asks.append((committed, now))
                del asks[:-ASKS_KEPT]
                if self.catching_up:
                    self.first_asked.setdefault(seat, now)
                    tries = self._awaited.get(seat, (0, now))[0]
                    self._awaited[seat] = (tries + 1, now)
                asked.append(seat)
        self._last_resync = now
        return asked

    def overdue(self, now: float) -> tuple[list[int], list[int]]:
        """While catching up: the seats to ask again now (their answer is overdue), and
        those given up on (`CATCH_UP_ASKS` asks unanswered). True in `caught_up` once
        no seat is awaited."""
        again, given_up = [], []
        for seat, (tries, at) in sorted(self._awaited.items()):
            if now - at < CATCH_UP_REASK_S * 2 ** (tries - 1):
                continue
            if tries < CATCH_UP_ASKS:
                again.append(seat)
            else:
                del self._awaited[seat]
                if seat not in self.silent:
                    self.silent.append(seat)
                given_up.append(seat)
        return again, given_up

    def silent_since(self, seat: int) -> float | None:
        """When `seat`, given up on after `CATCH_UP_ASKS` unanswered asks, was first
        asked: this seat has heard nothing from it since (None for any other seat)."""
        return self.first_asked.get(seat) if seat in self.silent else None

    def heard_from(self, seat: int) -> None:
        """Something came over `seat`'s connection (even a copy, or a message refused):
        it is not cut off."""
        self._unheard.pop(seat, None)

    def cut_off(self, seat: int, now: float) -> bool:
        """`seat` was asked `CUT_OFF_S` ago or more and nothing has come from it since."""
        since = self._unheard.get(seat)
        return since is not None and now - since >= CUT_OFF_S

    def lonely(self, now: float) -> bool:
        """True once, when this seat becomes `alone`: every other seat given up on, and
        none heard from since this seat first asked, `ALONE_AFTER_S` ago."""
        if self.alone or len(self.silent) != self.players - 1 or not self.first_asked:
            return False
        if now - min(self.first_asked.values()) < ALONE_AFTER_S:
            return False
        self.alone = True
        return True

    def caught_up(self) -> bool:
        """Whether a restarted seat has now heard from every seat it waited for (or gave
        up on it): it goes on."""
        if self.catching_up and not self._awaited:
            self.catching_up = False
            return True
        return False

    def resync(
        self, now: float, progress_at: float, committed: int, waited: Sequence[int]
    ) -> list[int]:
        """After `RESYNC_S` without progress or an ask, ask again the seats the table
        waits for (`waited`: what they owe may be what was lost), each with no ask open
        for `ASK_AGAIN_S` (an ask whose answer was lost); every seat if the table waits
        for nobody, or after `RESYNC_ALL_S` without progress (one waited for may be gone
        while the others went on). The seats to send it to.

        Only the seats waited for at first: a Køb! window is often longer than
        `RESYNC_S` (a bot answers after 1.2-2.6 s, a person has the window's clock), and
        asking every seat then cost every seat n - 1 asks and answers, for nothing."""
        stalled = now - progress_at
        if min(stalled, now - self._last_resync) < RESYNC_S:
            return []
        wanted = set(waited) if waited and stalled < RESYNC_ALL_S else range(self.players)
        seats = [
            seat
            for seat in range(self.players)
            if seat in wanted
            and all(now - at >= ASK_AGAIN_S for _, at in self._asked.get(seat, []))
        ]
        return self.ask(seats, committed, now)

    def solicited(self, via: int | None, n: int) -> bool:
        """Whether a copy of committed step `n` from seat `via` may answer an ask."""
        asks = self._asked.get(via, []) if via is not None else []
        return any(n > asked for asked, _ in asks)

    def asking(self, seat: int) -> bool:
        """Whether an ask of `seat` is open."""
        return bool(self._asked.get(seat))

    def answered(self, seat: int, behind: bool) -> bool:
        """`seat`'s `Sync` reply came: its oldest open ask is answered, and this seat no
        longer waits for it (unless it is `behind` that seat: then it asks again). True
        when this seat was catching up after a restart and now waits for nobody."""
        asks = self._asked.get(seat)
        if asks:
            asks.pop(0)
        if seat in self.silent:  # it answers after all
            self.silent.remove(seat)
            self.alone = False
        if behind:
            if seat in self._awaited:  # it answers: the asks start over
                self._awaited[seat] = (0, self._awaited[seat][1])
        else:
            self._awaited.pop(seat, None)
        return self.caught_up()


def answer(
    since: int,
    committed: int,
    records: Sequence[Record],
    in_flight: tuple[bytes, Sequence[bytes]] | None,
    window_answers: Sequence[bytes],
) -> list[bytes]:
    """What a seat that has committed through step `since` lacks: every committed
    record after it (the step, then every ACK; an absent seat's empty slot left out),
    the step in flight with its ACKs and the open window's answers."""
    out: list[bytes] = []
    for record in records[since:]:
        out.append(record.step)
        out += [ack for ack in record.acks if ack]
    if since <= committed:
        if in_flight is not None:
            step, acks = in_flight
            out += [step, *acks]
        out += window_answers
    return out
