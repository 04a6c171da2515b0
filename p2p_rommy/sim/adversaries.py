"""Cheating seats for the simulator: an honest `Peer` whose outgoing envelopes are
changed on the way out, one behaviour each (those of tests/adversaries.py and of the
trust issue's attacks, written sans-IO: they take the peer's events and return what
goes on the wire, and to whom)."""

from __future__ import annotations

from dataclasses import replace

import msgpack

from p2p_rommy.engine.moves import DrawStock, TakeDiscard
from p2p_rommy.log.events import Event, Send, SendTo
from p2p_rommy.log.messages import (
    Ack,
    BuyAnswer,
    BuyStep,
    EndStep,
    MoveStep,
    Nack,
    Step,
    decode,
    step_digest,
)
from p2p_rommy.log.peer import Peer
from p2p_rommy.wire.codec import unpack
from p2p_rommy.wire.identity import key_id

Outgoing = list[tuple[int | None, bytes]]
"""(recipient seat, or None for every other seat; envelope)."""


def wire(out: list[Event]) -> Outgoing:
    """What an honest seat sends for `out`."""
    sent: Outgoing = []
    for event in out:
        if isinstance(event, Send):
            sent.append((None, event.envelope))
        elif isinstance(event, SendTo):
            sent.append((event.seat, event.envelope))
    return sent


def opened(envelope: bytes) -> object:
    """The message inside one of this seat's own envelopes."""
    return decode(unpack(envelope)[2])


class Adversary:
    """Sends what its peer says, changed by `tamper`."""

    def __init__(self, seat: int, players: int) -> None:
        self.seat = seat
        self.players = players
        self.acted = False
        """The cheat has been tried (counted by the runner)."""

    def tamper(self, peer: Peer, out: list[Event], now: float) -> Outgoing:
        return wire(out)

    def sign(self, peer: Peer, message: Step | Ack | Nack | BuyAnswer) -> bytes:
        identity = peer.replica.identity
        assert identity is not None
        return identity.sign(message.encode())

    def others(self) -> list[int]:
        return [s for s in range(self.players) if s != self.seat]


class Equivocation(Adversary):
    """Its first draw goes out as "draw from the stock" to one seat and "take the
    discard" to the others."""

    def tamper(self, peer: Peer, out: list[Event], now: float) -> Outgoing:
        sent = wire(out)
        if self.acted:
            return sent
        for index, (to, envelope) in enumerate(sent):
            step = opened(envelope)
            if to is not None or not isinstance(step, Step) or step.seat != self.seat:
                continue
            body = step.body
            if not isinstance(body, MoveStep) or not isinstance(body.move, DrawStock | TakeDiscard):
                continue
            self.acted = True
            other = TakeDiscard if isinstance(body.move, DrawStock) else DrawStock
            second = self.sign(peer, replace(step, body=MoveStep(other(step.seat), None)))
            first, *rest = self.others()
            return [
                *sent[:index],
                (first, envelope),
                *((seat, second) for seat in rest),
                *sent[index + 1 :],
            ]
        return sent


class FalseNack(Adversary):
    """Refuses (NACKs) a valid step once step 20 has committed, then sends nothing more."""

    def tamper(self, peer: Peer, out: list[Event], now: float) -> Outgoing:
        if self.acted:
            return []
        sent = wire(out)
        for index, (to, envelope) in enumerate(sent):
            message = opened(envelope)
            mine = isinstance(message, Ack) and message.seat == self.seat
            if to is None and isinstance(message, Ack) and mine and message.n > 20:
                self.acted = True
                nack = Nack(message.game, message.n, self.seat, "I do not like this step")
                return [*sent[:index], (None, self.sign(peer, nack))]
        return sent


class Quitter(Adversary):
    """Goes silent for good once step 40 has committed."""

    def tamper(self, peer: Peer, out: list[Event], now: float) -> Outgoing:
        if peer.replica.n >= 40:
            self.acted = True
            return []
        return wire(out)


class WithholdAck(Adversary):
    """Stops sending its ACKs once step 25 has committed."""

    def tamper(self, peer: Peer, out: list[Event], now: float) -> Outgoing:
        sent = wire(out)
        if peer.replica.n < 25:
            return sent
        self.acted = True
        return [(to, e) for to, e in sent if not isinstance(opened(e), Ack)]


class PrematureEnd(Adversary):
    """Once step 30 has committed, proposes to end the game without a seat that is
    there (it is the end's proposer for the highest seat when it sits lowest), and
    ACKs its own end: a seat that is waiting for that seat's ACK at that moment may
    ACK it too, and the end needs no ACK from the seat it leaves out."""

    def tamper(self, peer: Peer, out: list[Event], now: float) -> Outgoing:
        sent = wire(out)
        replica = peer.replica
        if self.acted or replica.n < 30 or replica.over:
            return sent
        absent = max(self.others())
        self.acted = True
        body = EndStep((absent,), f"seat {absent + 1} did not come back")
        n = replica.n + 1
        step = Step(replica.game, n, self.seat, replica.state_hash(), body)
        envelope = self.sign(peer, step)
        ack = Ack(replica.game, n, self.seat, step_digest(envelope), replica._end_hash(n, body))
        return [*sent, (None, envelope), (None, self.sign(peer, ack))]


class SilentCatchUp(Adversary):
    """Never answers a seat that asks to catch up (drops every catch-up reply)."""

    def tamper(self, peer: Peer, out: list[Event], now: float) -> Outgoing:
        sent = wire(out)
        kept: Outgoing = [(to, e) for to, e in sent if to is None]
        if len(kept) != len(sent):
            self.acted = True
        return kept


class ForgedAck(Adversary):
    """Once, after step 10, sends an ACK of the next step in another seat's name (its
    own signature under that seat's key id)."""

    def tamper(self, peer: Peer, out: list[Event], now: float) -> Outgoing:
        sent = wire(out)
        replica = peer.replica
        if self.acted or replica.n < 10:
            return sent
        self.acted = True
        victim = self.others()[0]
        body = Ack(replica.game, replica.n + 1, victim, b"\x42" * 32, b"\x42" * 32).encode()
        identity = replica.identity
        assert identity is not None
        version, _, _, signature = msgpack.unpackb(identity.sign(body))
        forged = msgpack.packb(
            [version, key_id(replica.config.public_keys[victim]), body, signature]
        )
        return [*sent, (None, forged)]


class EmbeddedEnvelope(Adversary):
    """Frames another seat through its old envelope (issue 24, item 2): once its own step
    carries an envelope of its own (a move's `reveal`, a buy step's `answers`), it puts
    the next seat's ACK of the last committed step there instead and signs the step.
    Whatever fails inside a step is its proposer's (SPEC §4.4): the honest seats must
    name this seat, never the one whose envelope it carried."""

    def tamper(self, peer: Peer, out: list[Event], now: float) -> Outgoing:
        sent = wire(out)
        if self.acted or not len(peer.records):
            return sent
        victim = self.others()[0]
        old = peer.records[len(peer.records) - 1].acks[victim]
        for index, (to, envelope) in enumerate(sent):
            step = opened(envelope)
            if to is not None or not isinstance(step, Step) or step.seat != self.seat or not old:
                continue
            body = step.body
            if isinstance(body, MoveStep) and body.reveal is not None:
                crafted = replace(step, body=MoveStep(body.move, old))
            elif isinstance(body, BuyStep) and body.answers:
                crafted = replace(step, body=replace(body, answers=(old, *body.answers[1:])))
            else:
                continue
            self.acted = True
            return [*sent[:index], (None, self.sign(peer, crafted)), *sent[index + 1 :]]
        return sent


class DoubleAnswer(Adversary):
    """Answers a buy window twice: its answer, then the opposite."""

    def tamper(self, peer: Peer, out: list[Event], now: float) -> Outgoing:
        sent = wire(out)
        for _, envelope in list(sent):
            message = opened(envelope)
            if isinstance(message, BuyAnswer) and message.seat == self.seat and not self.acted:
                self.acted = True
                other = replace(message, claim=not message.claim)
                return [*sent, (None, self.sign(peer, other))]
        return sent


class LateClaim(Adversary):
    """Calls "Køb!" for a window that has already been resolved."""

    def tamper(self, peer: Peer, out: list[Event], now: float) -> Outgoing:
        sent = wire(out)
        replica = peer.replica
        window = replica.last_window
        if self.acted or window is None or replica.window is not None:
            return sent
        self.acted = True
        return [*sent, (None, self.sign(peer, BuyAnswer(replica.game, window, self.seat, True)))]


LIBRARY: dict[str, type[Adversary]] = {
    "equivocation": Equivocation,
    "false_nack": FalseNack,
    "quitter": Quitter,
    "withhold_ack": WithholdAck,
    "premature_end": PrematureEnd,
    "silent_catch_up": SilentCatchUp,
    "forged_ack": ForgedAck,
    "embedded_envelope": EmbeddedEnvelope,
    "double_answer": DoubleAnswer,
    "late_claim": LateClaim,
}
