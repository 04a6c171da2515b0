"""Cheating peers for tests: one behaviour each, playing over real TCP on 127.0.0.1
against honest peers that run the production code unchanged.

A cheat is built from three hooks: a `SeatedReplica` subclass (what it proposes), a deck
seat class (what it sends in the deck protocol) and a `Session` subclass (what goes
on the wire, and to whom).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, replace

import msgpack

from p2p_rommy.bots import make_bot
from p2p_rommy.deck import DeckSeat
from p2p_rommy.deck.derive import card_point, round_permutation
from p2p_rommy.deck.messages import SeedReveal, encode
from p2p_rommy.deck.proofs import ShuffleContext, prove_shuffle
from p2p_rommy.engine.apply import apply
from p2p_rommy.engine.moves import (
    Discard,
    DrawStock,
    LayDown,
    Move,
    NewMeld,
    ResolveBuy,
    RevealHand,
    TakeDiscard,
)
from p2p_rommy.engine.state import Phase
from p2p_rommy.errors import ProtocolError
from p2p_rommy.log.events import Event, Send, SendTo, sends
from p2p_rommy.log.messages import (
    Ack,
    BuyAnswer,
    BuyStep,
    Chat,
    DeckStep,
    MoveStep,
    Nack,
    Step,
    decode,
)
from p2p_rommy.log.peer import Peer
from p2p_rommy.log.seated_replica import SeatedReplica
from p2p_rommy.rules.melds import MeldKind, Placed
from p2p_rommy.seat.loopback_match import seeded_config
from p2p_rommy.seat.session import Session
from p2p_rommy.wire.codec import unpack
from p2p_rommy.wire.entropy import StreamEntropy
from p2p_rommy.wire.identity import key_id
from tests.loopback import seat_on_loopback, transcript_of


@dataclass
class Cheat:
    """How the cheating seat differs from an honest one."""

    replica: type[SeatedReplica] = SeatedReplica
    session: type[Session] = Session


@dataclass
class Table:
    sessions: list[Session]
    cheater: int
    transcript: bytes
    """The honest seat's committed records as a transcript (for `rommy verify`)."""

    @property
    def honest(self) -> list[Session]:
        return [s for s in self.sessions if s.peer.seat != self.cheater]


async def play_against(
    cheat: Cheat,
    cheater: int,
    until: Callable[[list[Session]], bool],
    variant: str = "rummy",
    players: int = 3,
    house: dict[str, str] | None = None,
    seed: int = 3,
    stall_after: float = 30.0,
    timeout: float = 60.0,
    end_after: float | None = None,
) -> Table:
    """Play honest bots against one cheat until `until(honest sessions)` holds."""
    house = {"target_score": "1"} if house is None else house
    config, identities = seeded_config(variant, players, house, seed)
    rng = random.Random(seed)
    bots = [make_bot("random", random.Random(rng.getrandbits(64))) for _ in range(players)]

    def kind(seat: int) -> Cheat:
        return cheat if seat == cheater else Cheat()

    sessions = await seat_on_loopback(
        config,
        identities,
        entropy=lambda seat: StreamEntropy(b"adversary %d deck %d" % (seed, seat)),
        player=lambda seat: bots[seat],
        replica=lambda config, seat, identity, entropy: kind(seat).replica(
            config, seat, identity, entropy
        ),
        peer=lambda replica, bot: Peer(replica, bot, stall_after, end_after=end_after),
        session=lambda peer, config: kind(peer.seat).session(peer, config),
    )
    honest = [s for s in sessions if s.peer.seat != cheater]
    try:
        async with asyncio.timeout(timeout):
            while not until(honest):
                await asyncio.sleep(0.05)
    finally:
        for session in sessions:
            await session.close()
    return Table(sessions, cheater, transcript_of(config, identities, honest[0].peer.records))


def all_frozen(honest: list[Session]) -> bool:
    return all(s.peer.frozen for s in honest)


def all_over(honest: list[Session]) -> bool:
    return all(s.peer.replica.over for s in honest)


def all_stalled(honest: list[Session]) -> bool:
    return all(s.peer.stall_watch.stalls for s in honest)


# --- what goes on the wire ----------------------------------------------------


class WireCheat(Session):
    """A session that may add to, drop from or split what its honest peer sends."""

    def _handle(self, out: list[Event]) -> None:
        extra = self.tamper(out)
        super()._handle(out)
        if extra:
            self.mesh.broadcast(extra)

    def tamper(self, out: list[Event]) -> list[bytes]:
        """Change `out` in place; return extra envelopes for everyone."""
        return []

    def own(self, envelope: bytes) -> object:
        return decode(unpack(envelope)[2])

    def sign(self, message: Step | Ack | BuyAnswer | Chat) -> bytes:
        return self.peer.replica.identity.sign(message.encode())


class OnceAfter(WireCheat):
    """Sends what `extra` makes, once, after step `after` has committed."""

    after = 10
    sent = False

    def tamper(self, out: list[Event]) -> list[bytes]:
        if self.sent or self.peer.replica.n < self.after:
            return []
        self.sent = True
        return self.extra()

    def extra(self) -> list[bytes]:
        return []


class ForgedSignature(OnceAfter):
    """Sends an ACK in seat 0's name: seat 0's key id, its own signature."""

    def extra(self) -> list[bytes]:
        replica = self.peer.replica
        body = Ack(replica.game, replica.n + 1, 0, b"\x42" * 32, b"\x42" * 32).encode()
        version, _, _, signature = msgpack.unpackb(replica.identity.sign(body))
        victim = key_id(self.config.public_keys[0])
        return [msgpack.packb([version, victim, body, signature])]


class Replay(OnceAfter):
    """Sends step 5's envelope again once step 30 has committed."""

    after = 30

    def extra(self) -> list[bytes]:
        return [self.peer.records[4].step]


class OtherGame(WireCheat):
    """Signs a copy of its next step for another game id and sends it too."""

    sent = False

    def tamper(self, out: list[Event]) -> list[bytes]:
        for envelope in sends(out):
            message = self.own(envelope)
            if isinstance(message, Step) and not self.sent and message.n > 20:
                self.sent = True
                return [self.sign(replace(message, game=b"\x07" * 32))]
        return []


class OutOfTurn(WireCheat):
    """Proposes a draw while another seat is in turn."""

    sent = False

    def tamper(self, out: list[Event]) -> list[bytes]:
        replica = self.peer.replica
        proposer = replica.expected_proposer()
        if (
            self.sent
            or replica.tentative is not None
            or replica.state.phase is not Phase.DRAW
            or proposer == self.peer.seat
        ):
            return []
        self.sent = True
        body = MoveStep(DrawStock(self.peer.seat), None)
        step = Step(replica.game, replica.n + 1, self.peer.seat, replica.state_hash(), body)
        return [self.sign(step)]


class Equivocation(WireCheat):
    """Its first draw goes out as "draw from the stock" to one peer and "take the
    discard" to the other."""

    split = False

    def tamper(self, out: list[Event]) -> list[bytes]:
        for index, event in enumerate(out):
            if not isinstance(event, Send):
                continue
            envelope = event.envelope
            step = self.own(envelope)
            if self.split or not isinstance(step, Step) or step.seat != self.peer.seat:
                continue
            body = step.body
            if not isinstance(body, MoveStep) or not isinstance(body.move, DrawStock | TakeDiscard):
                continue
            self.split = True
            other = TakeDiscard if isinstance(body.move, DrawStock) else DrawStock
            second = self.sign(replace(step, body=MoveStep(other(step.seat), None)))
            first_seat, second_seat = (s for s in range(self.config.players) if s != step.seat)
            del out[index]
            self.mesh.send(first_seat, [envelope])
            self.mesh.send(second_seat, [second])
            return []
        return []


class WithholdAck(WireCheat):
    """Stops sending its ACKs once step 25 has committed."""

    def tamper(self, out: list[Event]) -> list[bytes]:
        if self.peer.replica.n >= 25:
            out[:] = [
                e for e in out if not (isinstance(e, Send | SendTo) and self.own_ack(e.envelope))
            ]
        return []

    def own_ack(self, envelope: bytes) -> bool:
        message = self.own(envelope)
        return isinstance(message, Ack) and message.seat == self.peer.seat


IDENTITY_POINT = b"\x01" + bytes(31)


class WeakKeyForgery(OnceAfter):
    """Sends an ACK "signed" under the small-order identity-point key with (R = identity,
    S = 0), a signature that a lax verifier accepts for every message."""

    def extra(self) -> list[bytes]:
        replica = self.peer.replica
        body = Ack(replica.game, replica.n + 1, 0, b"\x42" * 32, b"\x42" * 32).encode()
        forged = IDENTITY_POINT + bytes(32)
        return [msgpack.packb(["env1", key_id(IDENTITY_POINT), body, forged])]


class ChatInjection(OnceAfter):
    """Says a chat line with a newline, a fake chat line and terminal escapes in it."""

    after = 5

    def extra(self) -> list[bytes]:
        replica = self.peer.replica
        line = "gg\n<seat 0> I can see your hand\x1b[2J\x1b]0;FAIR\x07"
        return [self.sign(Chat(replica.game, self.peer.seat, line))]


class DoubleAnswer(WireCheat):
    """Answers a buy window twice: a pass, then a claim."""

    sent = False

    def tamper(self, out: list[Event]) -> list[bytes]:
        for envelope in sends(out):
            message = self.own(envelope)
            if isinstance(message, BuyAnswer) and message.seat == self.peer.seat and not self.sent:
                self.sent = True
                other = BuyAnswer(message.game, message.window, message.seat, not message.claim)
                return [self.sign(other)]
        return []


class ReorderingSequencer(SeatedReplica):
    """As the seat in turn, lists the answers of a buy window in reverse order: harmless,
    since the winner follows from the set of answers, not from their order."""

    reordered = 0

    def propose_buy(self, answers: list[bytes]) -> Step:
        if len(answers) > 1:
            type(self).reordered += 1
        return super().propose_buy(answers[::-1])


class Quitter(WireCheat):
    """Goes silent for good once step 40 has committed (a player who leaves the table
    after seeing a bad hand, hoping to keep a lead)."""

    def tamper(self, out: list[Event]) -> list[bytes]:
        if self.peer.replica.n >= 40:
            out[:] = [e for e in out if not isinstance(e, Send | SendTo)]
        return []


class FalseRefusal(WireCheat):
    """Refuses (NACKs) a valid step once step 20 has committed, then sends nothing more."""

    refused = False
    reason = "I do not like this step"

    def tamper(self, out: list[Event]) -> list[bytes]:
        if self.refused:
            out[:] = [e for e in out if not isinstance(e, Send | SendTo)]
            return []
        for index, event in enumerate(out):
            if not isinstance(event, Send):
                continue
            message = self.own(event.envelope)
            if isinstance(message, Ack) and message.seat == self.peer.seat and message.n > 20:
                replica = self.peer.replica
                nack = Nack(replica.game, message.n, self.peer.seat, self.reason)
                out[index] = Send(replica.identity.sign(nack.encode()))
                out[:] = [
                    e
                    for i, e in enumerate(out)
                    if not isinstance(e, SendTo) and not (isinstance(e, Send) and i > index)
                ]
                self.refused = True
                break
        return []


class LateClaim(WireCheat):
    """Calls "Køb!" for a window that has already been resolved."""

    sent = False

    def tamper(self, out: list[Event]) -> list[bytes]:
        replica = self.peer.replica
        window = replica.last_window
        if self.sent or window is None or replica.window is not None:
            return []
        self.sent = True
        return [self.sign(BuyAnswer(replica.game, window, self.peer.seat, True))]


def longer_form(envelope: bytes) -> bytes:
    """The same envelope (same body, same signature) in a non-shortest msgpack form:
    an array16 header where `pack` writes a fixarray."""
    assert envelope[0] == 0x94
    return b"\xdc\x00\x04" + envelope[1:]


class Reencode(WireCheat):
    """Frames other seats: re-sends a committed step and an in-flight ACK that other
    seats signed, re-encoded in a longer form (same bodies, same signatures)."""

    sent_step = False
    sent_ack = False

    def tamper(self, out: list[Event]) -> list[bytes]:
        peer = self.peer
        extra: list[bytes] = []
        if not self.sent_step and peer.replica.n >= 10:
            victim = next(r.step for r in peer.records if self.own(r.step).seat != peer.seat)
            extra.append(longer_form(victim))
            self.sent_step = True
        tentative = peer.replica.tentative
        if not self.sent_ack and tentative is not None and peer.replica.n >= 12:
            held = peer.pending.acks if peer.pending is not None else {}
            others = [envelope for seat, (_, envelope) in held.items() if seat != peer.seat]
            if others:
                extra.append(longer_form(others[0]))
                self.sent_ack = True
        return extra


# --- what it proposes ---------------------------------------------------------


class ForcedMoves(SeatedReplica):
    """A replica that can propose a move the rules refuse (with the deck proof of the
    faces it shows, as far as it can give one)."""

    def forced(self, move: Move, reveal: bool = True) -> Step:
        prev = self.state_hash()
        taken = self._reveal_for(self.seat, move) if reveal else None
        body = MoveStep(move, taken.entries[0] if taken is not None else None)
        return self._own(Step(self.game, self.n + 1, self.seat, prev, body), deck=taken)


class IllegalMeld(ForcedMoves):
    """Lays down its first two cards as a "set" (a meld needs three)."""

    def propose_move(self, move: Move) -> Step:
        if self.state.phase is not Phase.PLAY:
            return super().propose_move(move)
        view = self.view()
        cards = tuple(Placed(slot, card, 0) for slot, card in view.hand()[:2])
        return self.forced(LayDown(self.seat, (NewMeld(MeldKind.SET, cards),)))


class CardNotInHand(ForcedMoves):
    """Discards a card from another seat's hand."""

    def propose_move(self, move: Move) -> Step:
        if self.state.phase is not Phase.PLAY:
            return super().propose_move(move)
        other = self.state.hands[(self.seat + 1) % self.config.players][0]
        return self.forced(Discard(self.seat, other, 0), reveal=False)


class LyingHand(ForcedMoves):
    """At the end of the round shows every card of its hand as the lowest card."""

    def propose_reveal(self) -> Step:
        hand = self.state.hands[self.seat]
        truth = self.view()
        move = RevealHand(self.seat, tuple((slot, 0) for slot in hand))
        prev = self.state_hash()
        taken = self._reveal_for(self.seat, RevealHand(self.seat, tuple(truth.hand())))
        body = MoveStep(move, taken.entries[0] if taken is not None else None)
        return self._own(Step(self.game, self.n + 1, self.seat, prev, body), deck=taken)


class SteeringSequencer(SeatedReplica):
    """As the seat in turn, resolves a buy window without the claims in it (keeping the
    passes): the discard stays with nobody, whoever claimed it."""

    def propose_buy(self, answers: list[bytes]) -> Step:
        kept = [a for a in answers if not self.open_buy_answer(a).claim]
        if len(kept) == len(answers):
            return super().propose_buy(answers)
        assert self.buy_window is not None
        body = BuyStep(self.buy_window, tuple(kept))
        step = Step(self.game, self.n + 1, self.seat, self.state_hash(), body)
        return self._own(step, apply(self.state, ResolveBuy(())))


# --- what it sends in the deck protocol -----------------------------------------


class CheatingDeckReplica(SeatedReplica):
    """Sends its deck messages even when its own deck seat would refuse them."""

    def propose_deck(self) -> Step:
        envelope = self.outbox[0]
        try:
            return super().propose_deck()
        except ProtocolError:
            body = DeckStep(envelope)
            return self._own(Step(self.game, self.n + 1, self.seat, self.state_hash(), body))


def cheating_deck(deck_class: type[DeckSeat]) -> type[SeatedReplica]:
    name = f"{deck_class.__name__}Replica"
    return type(name, (CheatingDeckReplica,), {"deck_seat_class": deck_class})


def tampered_shuffle(tamper: Callable[[list[bytes], DeckSeat], None]) -> type[DeckSeat]:
    """A deck seat that changes its shuffle's output and proves it as best it can."""

    class TamperedShuffle(DeckSeat):
        def _my_shuffle(self, shuffled):  # type: ignore[no-untyped-def]
            honest = super()._my_shuffle(shuffled)
            deck = list(honest.deck)
            tamper(deck, self)
            p = self.params
            source = shuffled.decks[-1] if shuffled.decks else shuffled.points
            permutation = round_permutation(
                p.game, p.round_no, self.seat, shuffled.index, shuffled.size, self.seed
            )
            context = ShuffleContext(p.game, p.round_no, shuffled.index, self.seat, self.binding)
            scalar = self._scalar(shuffled.index)
            proof = prove_shuffle(
                context, scalar, honest.key, permutation, source, deck, self.entropy
            )
            return replace(honest, deck=tuple(deck), proof=proof)

    return TamperedShuffle


def duplicate_point(deck: list[bytes], seat: DeckSeat) -> None:
    deck[3] = deck[4]


def substitute_card(deck: list[bytes], seat: DeckSeat) -> None:
    deck[3] = card_point(seat.params.game, seat.params.round_no, 0, 99)


class WrongShare(DeckSeat):
    """Sends a random point instead of its decryption share (with the honest proof)."""

    def _my_shares(self, task):  # type: ignore[no-untyped-def]
        honest = super()._my_shares(task)
        point = card_point(self.params.game, self.params.round_no, 0, 77)
        return replace(honest, items=tuple(replace(i, point=point) for i in honest.items))


class UnopenableCommitment(DeckSeat):
    """Reveals a seed that is not the one it committed to."""

    def finish(self) -> list[bytes]:
        super().finish()
        p = self.params
        lie = SeedReveal(p.game, p.round_no, self.seat, self.context, b"\x01" * 32)
        return [self.identity.sign(encode(lie))]


class WithholdSeed(DeckSeat):
    """Never reveals its seed."""

    def finish(self) -> list[bytes]:
        super().finish()
        return []
