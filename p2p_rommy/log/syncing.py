"""One seat's side of catch-up (SPEC §4.4, `log/catch_up.py`): its asks, and its answer
to a seat that asks, as events (`SendTo`: these go to one seat only)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

from p2p_rommy.limits import SYNC_ASKS_PER_S, SYNC_BURST, TokenBucket
from p2p_rommy.log.catch_up import CatchUp, answer
from p2p_rommy.log.committed import CommittedRecords
from p2p_rommy.log.events import Event, SendTo
from p2p_rommy.log.messages import Sync
from p2p_rommy.log.seated_replica import SeatedReplica

log = logging.getLogger(__name__)


class Syncing:
    """This seat's asks and answers; `on_sync` says when a restarted seat has caught up."""

    def __init__(
        self, replica: SeatedReplica, catch_up: CatchUp, records: CommittedRecords
    ) -> None:
        self.replica = replica
        self.catch_up = catch_up
        self.records = records
        self._buckets: dict[int, TokenBucket] = {}

    def may_ask(self, seat: int, now: float) -> bool:
        """Whether `seat` may ask once more now (`SYNC_ASKS_PER_S`, `SYNC_BURST`)."""
        bucket = self._buckets.setdefault(seat, TokenBucket(SYNC_ASKS_PER_S, SYNC_BURST))
        return bucket.take(now)

    def ask(self, now: float, seats: Iterable[int]) -> list[Event]:
        """Ask each of `seats` for what this seat may have missed."""
        return self.send_asks(self.catch_up.ask(seats, self.replica.n, now))

    def overdue(self, now: float) -> tuple[list[Event], list[int], bool]:
        """While catching up: ask again the seats whose answer is overdue; the events,
        the seats just given up on, and True once this seat has caught up (it goes on
        without them)."""
        again, given_up = self.catch_up.overdue(now)
        events = self.send_asks(self.catch_up.ask(again, self.replica.n, now))
        caught_up = bool(given_up) and self.catch_up.caught_up()
        if caught_up:
            log.warning("caught up at step %d without seats %s", self.replica.n, given_up)
            self._woken()
        return events, given_up, caught_up

    def _woken(self) -> None:
        if self.replica.restoring:
            self.replica.wake()

    def send_asks(self, seats: list[int]) -> list[Event]:
        """This seat's ask (`Sync` with its committed step), addressed to each of `seats`."""
        if not seats:
            return []
        replica = self.replica
        sync = replica.identity.sign(Sync(replica.game, replica.seat, replica.n, True).encode())
        return [SendTo(seat, sync) for seat in seats]

    def answer_frozen(
        self, sync: Sync, in_flight: tuple[bytes, Sequence[bytes]] | None, proof: Sequence[bytes]
    ) -> list[Event]:
        """A frozen seat's answer to an ask (SPEC §4.4 "Catch-up"): the committed records
        after the asker's step, the proof it froze on (the signed data it holds against
        the culprit), then the step in flight (an end without the culprit, with its ACKs),
        and its `Sync`. A seat restarted since checks the proof itself, names the same
        seat, and may sign that end; a frozen seat asks nothing back."""
        replica = self.replica
        if not sync.ask:
            return []
        lacking = answer(sync.n, replica.n, self.records, None, ())
        lacking += proof  # also to a seat ahead of this one: the table froze all the same
        if sync.n <= replica.n and in_flight is not None:
            lacking += [in_flight[0], *in_flight[1]]
        out: list[Event] = [SendTo(sync.seat, envelope) for envelope in lacking]
        reply = Sync(replica.game, replica.seat, replica.n, False)
        out.append(SendTo(sync.seat, replica.identity.sign(reply.encode())))
        return out

    def on_sync(
        self,
        sync: Sync,
        now: float,
        in_flight: tuple[bytes, Sequence[bytes]] | None,
        window_answers: Sequence[bytes],
    ) -> tuple[list[Event], bool]:
        """A seat says how far it is. Asked, this seat sends what the other lacks: the
        committed records after its `n` (the original step and ACK envelopes, which it
        checks like any step), the step in flight with the ACKs held for it, and the
        buy answers of the open window; then its own `Sync`. True with the events once
        this (restarted) seat has caught up."""
        seat, replica = sync.seat, self.replica
        if sync.ask:
            since = sync.n
            if since == replica.n and replica.ended is not None and seat in replica.ended[0]:
                since -= 1  # the end, which outranks the asker's last step (`log/overturn.py`)
            lacking = answer(since, replica.n, self.records, in_flight, window_answers)
            out: list[Event] = [SendTo(seat, envelope) for envelope in lacking]
            reply = Sync(replica.game, replica.seat, replica.n, False)
            out.append(SendTo(seat, replica.identity.sign(reply.encode())))
            if sync.n > replica.n and not self.catch_up.asking(seat):
                out += self.ask(now, [seat])  # this seat is the one behind
            return out, False
        caught_up = self.catch_up.answered(seat, behind=sync.n > replica.n)
        if sync.n > replica.n:
            return self.ask(now, [seat]), False
        if caught_up:
            log.info("caught up at step %d", replica.n)
            self._woken()
        return [], caught_up
