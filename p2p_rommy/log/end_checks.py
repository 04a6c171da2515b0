"""An end step as the replica sees it (SPEC §4.4 "Ending without a seat"): who may be
left out and who proposes it, the state hash an end leaves, and the check of one.

An end is no move: it leaves the committed state as it is, marked ended, and the scores
so far stand (or nobody's, when one seat's word alone ended it). Its hash leaves out the
deck's context, so that seats holding a step in flight or not compute the same one.
When a seat signs or proposes an end is the peer's (`log/end_votes.py`,
`log/ending.py`).
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Collection

from p2p_rommy.config import GameConfig
from p2p_rommy.engine.state import GameState
from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.log.messages import (
    EndStep,
    Step,
)
from p2p_rommy.log.tentative import STATE_DOMAIN, Tentative


class EndChecks:
    """What the committed state says of ending the game without some seats (a mixin of
    `Replica`; see the module docstring)."""

    config: GameConfig
    game: bytes
    n: int
    state: GameState
    ended: tuple[tuple[int, ...], str] | None
    tentative: Tentative | None
    committed_hash: bytes
    _end_hashes: tuple[int, GameState, dict[bytes, tuple[int, ...]]] | None
    _overturn_hashes: tuple[int, GameState, dict[bytes, tuple[int, ...]]] | None
    _before: tuple[GameState, bytes] | None
    """The state and hash before the step committed last (None after an end, or before
    any step): what an end that replaces that step builds on (`check_overturn`)."""

    @property
    def over(self) -> bool:
        """The match is over (`Replica.over`)."""
        raise NotImplementedError

    def _state_digest(self, state: GameState | None = None) -> bytes:
        """The engine state's hash (`Replica._state_digest`)."""
        raise NotImplementedError

    def end_proposer(self, absent: Collection[int]) -> int:
        """Who proposes ending the game without the seats `absent`: the lowest other seat."""
        return min(s for s in range(self.config.players) if s not in absent)

    @property
    def most_absent(self) -> int:
        """How many seats an end may leave out (SPEC §4.4): fewer than half the table, so
        that its signers are a majority (at a table of two: the other seat). Any two ends
        for one step then share a signer, who signs the second only if it leaves out more
        (two halves of a table cut in two cannot each end the game without the other);
        and one seat alone of three or more never ends the game: it cannot vouch that
        the others did not commit the step its end replaces (a seat restarted alone
        would end a game the others played on, or froze, without them)."""
        return max(1, (self.config.players - 1) // 2)

    @property
    def forfeited(self) -> tuple[int, ...]:
        """The seats that forfeit: those an end left out, when the end carries the word
        of more than one seat. One seat's word forfeits nobody (a table of two): the game
        is abandoned, without a standing (SPEC §4.4)."""
        if self.ended is None or self.config.players - len(self.ended[0]) < 2:
            return ()
        return self.ended[0]

    @property
    def abandoned(self) -> bool:
        """Ended on one seat's word alone (a table of two): no standing (SPEC §4.4)."""
        return self.ended is not None and not self.forfeited

    def end_hashes(self) -> dict[bytes, tuple[int, ...]]:
        """The state hash an end step `n+1` would leave, for each set of seats it could
        leave out (hash -> absent seats): an ACK of an end is known as one before the end
        itself arrives (its ACKs travel on other connections)."""
        cached = self._end_hashes
        if cached is None or cached[0] != self.n or cached[1] is not self.state:
            n = self.n + 1
            players = range(self.config.players)
            hashes = {
                self._end_hash(n, EndStep(absent, "")): absent
                for size in range(1, self.most_absent + 1)
                for absent in itertools.combinations(players, size)
            }
            cached = self._end_hashes = (self.n, self.state, hashes)
        return cached[2]

    def overturn_hashes(self) -> dict[bytes, tuple[int, ...]]:
        """`end_hashes` for an end that would replace the step committed last (hash ->
        absent seats; `check_overturn`), empty when no end may replace it."""
        before = self._before
        if before is None or self.ended is not None:
            return {}
        cached = self._overturn_hashes
        if cached is None or cached[0] != self.n or cached[1] is not before[0]:
            players = range(self.config.players)
            hashes = {
                self._end_hash(self.n, EndStep(absent, ""), before[0]): absent
                for size in range(1, self.most_absent + 1)
                for absent in itertools.combinations(players, size)
            }
            cached = self._overturn_hashes = (self.n, before[0], hashes)
        return cached[2]

    def pending_absent(self) -> tuple[int, ...]:
        """The seats a pending end step leaves out (their ACKs are not needed), if any."""
        if self.tentative is not None and self.tentative.end is not None:
            return self.tentative.end[0]
        return ()

    def _end_hash(self, n: int, body: EndStep, state: GameState | None = None) -> bytes:
        """The state after an end step: the committed state (or `state`), marked ended.
        The deck's context is left out (SPEC §4.4): every seat computes the same one,
        whatever deck step it holds in flight."""
        return hashlib.sha256(
            STATE_DOMAIN
            + self.game
            + n.to_bytes(8, "big")
            + self._state_digest(state)
            + b"ended"
            + bytes(body.absent)
        ).digest()

    def check_end(self, step: Step, body: EndStep) -> Tentative:
        """An end step checked against the committed state, changing nothing (a peer
        may hold it until it has waited long enough itself); `ProtocolError` if bad."""
        if self.ended is not None or self.over:
            raise ProtocolError(step.seat, N_("the game is already over"), step.n)
        return self._check_end_on(step, body, self.n, self.state, self.committed_hash)

    def check_overturn(self, step: Step, body: EndStep) -> Tentative:
        """An end for the step committed last, which it replaces (SPEC §4.4 "An end
        outranks the last step of the seat it leaves out"), checked against the state
        before that step, changing nothing; `ProtocolError` if bad, or if the last
        record is no step an end may replace."""
        before = self._before
        if self.ended is not None or before is None or step.n != self.n:
            raise ProtocolError(
                step.seat, N_("an end for step {n}, which it cannot replace").format(n=step.n)
            )
        return self._check_end_on(step, body, self.n - 1, before[0], before[1])

    def _check_end_on(
        self, step: Step, body: EndStep, n: int, state: GameState, committed_hash: bytes
    ) -> Tentative:
        """`check_end` on the committed step `n`, its `state` and hash."""
        absent = body.absent
        if absent[-1] >= self.config.players or len(absent) >= self.config.players:
            raise ProtocolError(step.seat, N_("malformed end step"), step.n)
        if len(absent) > self.most_absent:
            raise ProtocolError(
                step.seat, N_("an end leaves out half the table or more: a majority signs"), step.n
            )
        if step.n != n + 1:
            raise ProtocolError(
                step.seat,
                N_("step {n} when step {value} is due").format(n=step.n, value=n + 1),
                step.n,
            )
        if step.seat != self.end_proposer(absent):
            raise ProtocolError(
                step.seat,
                N_("seat {value} proposes ending the game").format(
                    value=self.end_proposer(absent) + 1
                ),
                step.n,
            )
        if step.prev != committed_hash:
            raise ProtocolError(step.seat, N_("step does not build on the committed state"), step.n)
        end = (body.absent, body.reason)
        digest = self._end_hash(step.n, body, state)
        return Tentative(step.n, step.seat, state, digest, "end", end=end)
