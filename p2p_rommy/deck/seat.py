"""One seat's side of the deck protocol for one round: messages in, messages out.

Theory of operation (protocol/SPEC.md §3):

1. Every seat commits to a fresh seed and publishes its key ``E = e*B``.
2. Shuffle passes: from the dealer round the table, each seat re-encrypts and
   permutes the deck and proves it; every seat checks each proof before the next
   seat shuffles. Pass 0 is the deal; a rebuilt stock is a new pass over fresh
   card labels.
3. Share tasks: to give deck position ``k`` to seat ``j``, every other seat in seat
   order removes its layer from the chain that starts at the public deck point and
   proves it (DLEQ); ``j`` removes its own layer privately. To show a card to all,
   every seat removes its layer (an undealt card) or the owner removes the last one.
4. At round end every seat reveals its seed; `p2p_rommy.deck.audit` replays all.

Tasks (shuffle passes and share tasks) run one at a time in the order the game
asks for them, which the log makes the same on every peer. The object does no
I/O: `start`, the request methods and `receive` return envelopes to broadcast;
a refused message raises `ProtocolError` and changes nothing.
"""

from __future__ import annotations

import enum
import functools
import hashlib
import secrets
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from p2p_rommy.deck import group, parallel
from p2p_rommy.deck.derive import Seed, card_points, commitment, round_permutation, round_scalar
from p2p_rommy.deck.messages import (
    Commit,
    DeckMessage,
    SeedReveal,
    ShareItem,
    Shares,
    Shuffle,
    decode,
    encode,
)
from p2p_rommy.deck.proofs import (
    ALL,
    Commitment,
    DleqProof,
    ProofError,
    SharesContext,
    ShuffleContext,
    ShuffleProof,
    check_deck_shape,
    check_shuffle_form,
    commit_permutation,
    prove_shares,
    prove_shuffle,
    round_binding,
    shuffle,
    verify_shares,
    verify_shuffle,
)
from p2p_rommy.errors import CheatDetected, ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.wire.identity import Entropy, Identity, Opened, open_envelope, roster_of

CONTEXT_DOMAIN = b"p2p-rommy/v1/deck-context\x00"


@dataclass(frozen=True, slots=True)
class DeckParams:
    """What every seat agrees on before a round's deck protocol starts."""

    game: bytes
    round_no: int
    players: int
    dealer: int
    deck_size: int

    def __post_init__(self) -> None:
        if len(self.game) != 32:
            raise ValueError("a game id is 32 bytes")
        if not 2 <= self.players <= 6 or not 0 <= self.dealer < self.players:
            raise ValueError("2-6 players and a seated dealer")

    def shuffle_order(self) -> tuple[int, ...]:
        """Seats in shuffle order: the dealer first, then round the table."""
        return tuple((self.dealer + offset) % self.players for offset in range(self.players))


class DeckPhase(enum.Enum):
    COMMIT = "commit"
    RUNNING = "running"
    SEEDS = "seeds"
    DONE = "done"


@dataclass
class ShufflePass:
    """A deck: the deal (pass 0) or a rebuilt stock; its slots are ``base .. base+size-1``."""

    index: int
    base: int
    cards: tuple[int, ...]
    """Card id of each label."""
    points: tuple[bytes, ...]
    keys: dict[int, bytes] = field(default_factory=dict)
    decks: list[tuple[bytes, ...]] = field(default_factory=list)
    lookup: dict[bytes, int] = field(default_factory=dict)

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def final(self) -> tuple[bytes, ...]:
        return self.decks[-1]

    def holds(self, position: int) -> bool:
        return self.base <= position < self.base + self.size


@dataclass
class ShareTask:
    """Layers to remove: for each position, its recipient and the seats that strip it."""

    items: tuple[tuple[int, int, tuple[int, ...]], ...]
    sequence: tuple[int, ...]
    cursor: int = 0
    mine: dict[int, tuple[tuple[int, int], ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """`items_for`'s answers, worked out once (a function of `items`: a fork's copy of
    the task shares them)."""

    def items_for(self, seat: int) -> tuple[tuple[int, int], ...]:
        """(position, recipient) of each item `seat` strips, in the task's order."""
        found = self.mine.get(seat)
        if found is None:
            found = self.mine[seat] = tuple(
                (position, recipient) for position, recipient, strip in self.items if seat in strip
            )
        return found

    def copy(self) -> ShareTask:
        return ShareTask(self.items, self.sequence, self.cursor, self.mine)


@dataclass
class ShuffleTask:
    shuffle_pass: ShufflePass
    cursor: int = 0


Task = ShareTask | ShuffleTask


@dataclass(frozen=True, slots=True)
class DeferredProof:
    """A shuffle this seat shuffled on before verifying its proof (it shuffles next):
    everything `verify_shuffle` needs, and who to blame."""

    context: ShuffleContext
    key: bytes
    source: tuple[bytes, ...]
    deck: tuple[bytes, ...]
    proof: ShuffleProof
    step: int


@dataclass(frozen=True, slots=True)
class Unproven:
    """A proof an observer left to the round's replay from the seeds (`replay_proofs`):
    `check` verifies it as `receive` would have, raising the same `CheatDetected`."""

    step: int
    check: Callable[[], None]


class LateProof(CheatDetected):
    """A proof left to the replay (`Unproven`) failed when it was checked after all;
    `step` is where the failing message is (the caller's numbering)."""


@dataclass(frozen=True, slots=True)
class DeckDue:
    """Whose deck message comes next, and which: `commit`, `shuffle` (`number` of
    `count` shufflers), `shares` (`count` cards still to deal) or `seed`."""

    seat: int
    kind: str
    number: int = 0
    count: int = 0


class DeckSeat:
    """The deck protocol for one seat and one round."""

    def __init__(
        self,
        params: DeckParams,
        seat: int,
        identity: Identity | None,
        public_keys: Sequence[bytes],
        entropy: Entropy = secrets.token_bytes,
        eager: bool = True,
        seed: bytes | None = None,
        quiet: bool = False,
        replay_proofs: bool = False,
    ) -> None:
        """`eager`: apply this seat's own messages as soon as it makes them (in-process
        use). With ``eager=False`` (the log) a message this seat makes is applied only
        when it comes back through `receive`, in the log's order, like everyone else's.

        A peer restarting from its transcript passes the round's saved `seed` and
        `quiet=True`: it then makes no shuffle or shares while it replays the log
        (its own committed messages come back through `adopt`), until `wake`.

        `replay_proofs` (an observer that audits every finished round, `rommy verify`):
        shuffle and share proofs are not verified as they come but kept (`unproven`):
        the audit's replay from the seeds shows what each of them claims, so a clean
        audit makes them redundant (`forget_unproven`); anything found first calls
        `check_unproven`, which names the first bad proof exactly as `receive` would
        have (docs/decisions.md, "Verify does each thing once")."""
        if len(public_keys) != params.players:
            raise ValueError("the roster must list every seat's key")
        if identity is None:
            seat = -1  # an observer (the verifier): checks everything, sends nothing
        elif public_keys[seat] != identity.public_key:
            raise ValueError("this identity does not hold that seat")
        self.params = params
        self.seat = seat
        self.identity = identity
        self.roster = roster_of(list(public_keys))
        self.entropy = entropy
        self.seed = Seed(seed) if seed is not None else Seed.generate(entropy)
        self.quiet = quiet
        self.phase = DeckPhase.COMMIT
        self.commitments: dict[int, bytes] = {}
        self.commit_bodies: dict[int, bytes] = {}
        self.seeds: dict[int, Seed] = {}
        self.context = b""
        self.passes: list[ShufflePass] = []
        self.tasks: deque[Task] = deque()
        self.chain: dict[int, bytes] = {}
        self.assigned: dict[int, int] = {}
        self.known: dict[int, int] = {}
        """Position -> card id, for every card this seat has learned (own or public)."""
        self.public: dict[int, int] = {}
        """Position -> card id, for the cards shown to everyone."""
        self.transcript: list[Opened] = []
        self.messages: list[DeckMessage] = []
        """Each of `transcript`'s bodies, decoded (the audit reads them again)."""
        self._own_scalars: dict[int, bytes] = {}
        self._own_inverses: dict[int, bytes] = {}
        self.eager = eager
        self._unsent: bytes | None = None
        """Non-eager: the message this seat made and has not yet seen come back."""
        self._prepared: Commitment | None = None
        """The deal's permutation commitment, made at `start` while the others commit
        (a third of the shuffle proof, off the chain of shuffles: SPEC §3.5)."""
        self.replay_proofs = replay_proofs and identity is None
        self.unproven: list[Unproven] = []
        """Proofs left to the replay from the seeds (`replay_proofs`), in order."""
        self.deferred: list[DeferredProof] = []
        """Proofs of the shuffle before this seat's own, not yet verified (pipelining:
        SPEC §3.3); `check_deferred` verifies them, and nothing is shared before."""
        self._due: tuple[DeckDue | None, DeckDue | None] | None = None
        """`due`'s answers (without, with `seeds_due`) for the seat as it is: forgotten
        at every change of phase, tasks, commitments or seeds."""
        self._new_pass(0, tuple(range(params.deck_size)))

    # --- requests from the game -------------------------------------------

    def start(self) -> list[bytes]:
        """Publish this seat's commitment and key (and prepare the deal's proof)."""
        key = group.mul_base(self._scalar(0))
        p = self.params
        if self.identity is not None and not self.quiet:
            permutation = round_permutation(
                p.game, p.round_no, self.seat, 0, p.deck_size, self.seed
            )
            self._prepared = commit_permutation(permutation, self.entropy)
        message = Commit(
            p.game, p.round_no, self.seat, commitment(p.game, p.round_no, self.seat, self.seed), key
        )
        return self._send(message)

    def deal(self, assignments: Sequence[tuple[int, int]]) -> list[bytes]:
        """Give each (position, seat) to that seat, or to everyone for seat `ALL`."""
        return self._queue_shares(
            [
                (position, recipient, self._strippers(recipient))
                for position, recipient in assignments
            ]
        )

    def draw(self, position: int, recipient: int) -> list[bytes]:
        return self.deal([(position, recipient)])

    def reveal(self, owner: int, positions: Sequence[int]) -> list[bytes]:
        """`owner` shows cards it holds to everyone: it removes its last layer in public."""
        return self._queue_shares([(position, ALL, (owner,)) for position in positions])

    def rebuild(self, base: int, cards: Sequence[int]) -> list[bytes]:
        """Shuffle recycled card ids (from the discard pile) into new slots from `base`."""
        index = len(self.passes)
        expected = self.passes[-1].base + self.passes[-1].size
        if base != expected:
            raise ValueError(f"a rebuilt stock starts at slot {expected}, not {base}")
        self._new_pass(index, tuple(cards))
        return self._advance()

    def finish(self) -> list[bytes]:
        """End of round: reveal this seat's seed."""
        if self.phase is not DeckPhase.RUNNING or self.tasks:
            raise ValueError("the round's deck work is not finished")
        self.check_deferred()
        self.phase = DeckPhase.SEEDS
        self._due = None
        if self.identity is None:  # an observer has no seed to reveal
            return []
        p = self.params
        return self._send(SeedReveal(p.game, p.round_no, self.seat, self.context, self.seed.value))

    def adopt(self, envelope: bytes) -> None:
        """This seat's own message from the committed log (after a restart): take it
        as the one this seat made, whatever it would make now."""
        if self.eager:
            raise ValueError("only a seat driven by the log adopts its messages")
        self._unsent = envelope

    def wake(self) -> list[bytes]:
        """End a replay: what this seat owes now (its unsent message, or the next one)."""
        self.quiet = False
        if self._unsent is not None:
            return [self._unsent]
        return self._advance()

    # --- what this seat knows ---------------------------------------------

    @property
    def idle(self) -> bool:
        return self.phase is DeckPhase.RUNNING and not self.tasks

    def due(self, seeds_due: bool) -> DeckDue | None:
        """The one answer to "whose deck message is next": the lowest seat that has not
        committed; the shuffler or sharer at the head of the tasks; once the round is
        over (`seeds_due`, which the game decides) the lowest seat yet to reveal its
        seed; None while the deck waits on the game.

        Remembered until the seat changes: the log asks it many times for every
        message (issue #31)."""
        known = self._due
        if known is None:
            without = self._work_out_due(False)
            # the seeds come last: only a deck waiting on the game may owe one
            seeds = without if without is not None else self._work_out_due(True)
            known = self._due = (without, seeds)
        return known[seeds_due]

    def _work_out_due(self, seeds_due: bool) -> DeckDue | None:
        players = self.params.players
        if self.phase is DeckPhase.COMMIT:
            return DeckDue(min(s for s in range(players) if s not in self.commitments), "commit")
        if self.phase is DeckPhase.RUNNING and self.tasks:
            task = self.tasks[0]
            if isinstance(task, ShuffleTask):
                seat = self.params.shuffle_order()[task.cursor]
                return DeckDue(seat, "shuffle", task.cursor + 1, players)
            left = sum(len(t.items) for t in self.tasks if not isinstance(t, ShuffleTask))
            return DeckDue(task.sequence[task.cursor], "shares", count=left)
        if self.phase in (DeckPhase.RUNNING, DeckPhase.SEEDS) and seeds_due:
            return DeckDue(min(s for s in range(players) if s not in self.seeds), "seed")
        return None

    # --- receiving --------------------------------------------------------

    @property
    def binding(self) -> bytes:
        """The round's binding (`round_binding` of every seat's commitment, in seat
        order), which every shuffle challenge hashes; known once all have committed."""
        return round_binding([self.commitments[s] for s in range(self.params.players)])

    def check_deferred(self) -> None:
        """Verify the proofs this seat shuffled on before verifying (`CheatDetected`
        naming the shuffler if one fails). Called while the others check this seat's
        own shuffle, and in any case before this seat takes another seat's message or
        makes a share."""
        while self.deferred:
            pending = self.deferred.pop(0)
            try:
                verify_shuffle(
                    pending.context,
                    pending.key,
                    pending.source,
                    pending.deck,
                    pending.proof,
                )
            except ProofError as error:
                raise CheatDetected(
                    pending.context.seat,
                    N_("bad shuffle: {error}").format(error=error),
                    pending.step,
                ) from None

    def check_unproven(self) -> None:
        """Verify the proofs left to the replay (`replay_proofs`), in order: the first
        that fails raises the `CheatDetected` its `receive` would have raised."""
        while self.unproven:
            self.unproven[0].check()
            self.unproven.pop(0)

    def forget_unproven(self) -> None:
        """The round's replay from the seeds came out clean: every statement the kept
        proofs made is shown true, from the committed seeds."""
        self.unproven.clear()

    def receive(self, envelope: bytes, opened: Opened | None = None) -> list[bytes]:
        """Check and apply a peer's envelope; return what this seat sends in answer.
        `opened`: the envelope as the caller has already opened it (once is enough)."""
        self.take(envelope, opened)
        return self._advance()

    def advance(self) -> list[bytes]:
        """What this seat sends now, if it is its turn (its shuffle or its shares)."""
        return self._advance()

    def after(self, envelope: bytes, opened: Opened | None = None) -> DeckSeat:
        """This seat as it would be once `envelope` is taken (`take` on a `fork`), itself
        unchanged: how the log checks a step before it commits (`Replica.check`)."""
        other = self.fork()
        other.take(envelope, opened)
        return other

    def fork(self) -> DeckSeat:
        """An independent copy of this seat: a step is checked, and answered, on a copy,
        and the copy becomes the seat when the step commits (issue 28: a check changes
        nothing). What is never written again is shared (a pass every seat has shuffled,
        the other passes' labels and decks' tuples, the opened messages, this seat's
        own scalars, which are functions of its seed); every container a message
        writes is copied. Built by hand, not by `copy.copy`: the log forks a deck seat
        for every step it checks or makes (issue #31)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        players = self.params.players
        passes = [
            shuffled
            if len(shuffled.decks) == players  # shuffled by all: never written again
            else ShufflePass(
                shuffled.index,
                shuffled.base,
                shuffled.cards,
                shuffled.points,
                dict(shuffled.keys),
                list(shuffled.decks),
                shuffled.lookup,
            )
            for shuffled in self.passes
        ]
        other.passes = passes
        other.tasks = deque([_task_copy(task, passes) for task in self.tasks])
        other.commitments = dict(self.commitments)
        other.commit_bodies = dict(self.commit_bodies)
        other.seeds = dict(self.seeds)
        other.chain = dict(self.chain)
        other.assigned = dict(self.assigned)
        other.known = dict(self.known)
        other.public = dict(self.public)
        other.transcript = list(self.transcript)
        other.messages = list(self.messages)
        other.unproven = list(self.unproven)
        other.deferred = list(self.deferred)
        return other

    def take(self, envelope: bytes, opened: Opened | None = None) -> None:
        """Check and apply a peer's envelope, answering nothing yet (`advance`)."""
        if opened is None or opened.raw != envelope:
            opened = open_envelope(envelope, self.roster)
        if opened.seat != self.seat:
            self.check_deferred()
        if opened.seat == self.seat:
            if self.eager or envelope != self._unsent:
                raise ProtocolError(
                    opened.seat, N_("a message signed with this seat's own key came back")
                )
            self._unsent = None
        message = decode(opened.body, opened.seat)
        self._apply(opened, message)

    def _send(self, message: DeckMessage) -> list[bytes]:
        assert self.identity is not None, "an observer sends nothing"
        envelope = self.identity.sign(encode(message))
        if not self.eager:
            self._unsent = envelope
            return [envelope]
        opened = open_envelope(envelope, self.roster)
        self._apply(opened, message)
        return [envelope, *self._advance()]

    def _apply(self, opened: Opened, message: DeckMessage) -> None:
        try:
            self._apply_message(opened, message)
        finally:
            self._due = None  # whatever it changed (nothing, if it refused the message)

    def _apply_message(self, opened: Opened, message: DeckMessage) -> None:
        sender, step = opened.seat, len(self.transcript)
        p = self.params
        if (message.game, message.round_no, message.seat) != (p.game, p.round_no, sender):
            raise ProtocolError(sender, N_("message is for another game, round or seat"), step)
        if isinstance(message, Commit):
            self._on_commit(opened, message, step)
        else:
            if message.prev != self.context:
                raise ProtocolError(
                    sender,
                    N_(
                        "message does not follow the round's deck transcript as this seat "
                        "has it (different decks shown to different seats, or a replay)"
                    ),
                    step,
                )
            if isinstance(message, SeedReveal):
                # Seeds, like commits, are sent at once by everyone: they all name the
                # transcript as it ends and do not extend it.
                self._on_seed(message, step)
            else:
                if isinstance(message, Shuffle):
                    self._on_shuffle(message, step)
                else:
                    self._on_shares(message, step)
                self.context = hashlib.sha256(self.context + opened.body).digest()
        self.transcript.append(opened)
        self.messages.append(message)

    def _on_commit(self, opened: Opened, message: Commit, step: int) -> None:
        sender = opened.seat
        if self.phase is not DeckPhase.COMMIT or sender in self.commitments:
            raise ProtocolError(sender, N_("unexpected commitment"), step)
        group.check_point(message.key, sender, "the committed key")
        self.commitments[sender] = message.commitment
        self.commit_bodies[sender] = opened.body
        self.passes[0].keys[sender] = message.key
        if len(self.commitments) == self.params.players:
            p = self.params
            material = CONTEXT_DOMAIN + p.game + p.round_no.to_bytes(4, "big")
            material += b"".join(self.commit_bodies[s] for s in range(p.players))
            self.context = hashlib.sha256(material).digest()
            self.phase = DeckPhase.RUNNING

    def _on_shuffle(self, message: Shuffle, step: int) -> None:
        sender = message.seat
        task = self.tasks[0] if self.tasks else None
        if self.phase is not DeckPhase.RUNNING or not isinstance(task, ShuffleTask):
            raise ProtocolError(sender, N_("no shuffle is due now"), step)
        shuffled = task.shuffle_pass
        expected = self.params.shuffle_order()[task.cursor]
        if sender != expected or message.shuffle_pass != shuffled.index:
            raise ProtocolError(
                sender,
                N_("it is seat {expected}'s turn to shuffle pass {index}").format(
                    expected=expected + 1, index=shuffled.index
                ),
                step,
            )
        if shuffled.index == 0:
            if message.key != shuffled.keys[sender]:
                raise CheatDetected(
                    sender, N_("the shuffle names a key other than the committed one"), step
                )
        else:
            group.check_point(message.key, sender, "the shuffle key")
        source = shuffled.decks[-1] if shuffled.decks else shuffled.points
        context = ShuffleContext(
            self.params.game, self.params.round_no, shuffled.index, sender, self.binding
        )
        try:
            if sender == self.seat:
                pass  # a seat's own shuffle needs no checking by itself
            elif self.replay_proofs:
                check_deck_shape(len(source), message.deck)  # what the rest relies on
                self.unproven.append(
                    Unproven(
                        step,
                        _shuffle_check(
                            context, message.key, tuple(source), message.deck, message.proof, step
                        ),
                    )
                )
            elif self._shuffles_after(task):
                # pipelined: shuffle on at once, verify while the others check ours
                check_shuffle_form(len(source), message.deck, message.proof)
                self.deferred.append(
                    DeferredProof(
                        context, message.key, tuple(source), message.deck, message.proof, step
                    )
                )
            else:
                verify_shuffle(context, message.key, source, message.deck, message.proof)
        except ProofError as error:
            raise CheatDetected(
                sender, N_("bad shuffle: {error}").format(error=error), step
            ) from None
        shuffled.keys[sender] = message.key
        shuffled.decks.append(message.deck)
        task.cursor += 1
        if task.cursor == self.params.players:
            self.tasks.popleft()

    def _shuffles_after(self, task: ShuffleTask) -> bool:
        """This seat makes the shuffle after the one at the task's cursor."""
        order = self.params.shuffle_order()
        after = task.cursor + 1
        return self.identity is not None and after < len(order) and order[after] == self.seat

    def _on_shares(self, message: Shares, step: int) -> None:
        sender = message.seat
        task = self.tasks[0] if self.tasks else None
        if self.phase is not DeckPhase.RUNNING or not isinstance(task, ShareTask):
            raise ProtocolError(sender, N_("no shares are due now"), step)
        expected_seat = task.sequence[task.cursor]
        if sender != expected_seat:
            raise ProtocolError(
                sender,
                N_("it is seat {expected_seat}'s turn to share").format(
                    expected_seat=expected_seat + 1
                ),
                step,
            )
        wanted = task.items_for(sender)
        got = tuple((item.position, item.recipient) for item in message.items)
        if got != wanted:
            raise ProtocolError(
                sender, N_("the shares are not for the positions the game assigned"), step
            )
        by_pass: dict[int, list[ShareItem]] = {}
        for item in message.items:
            by_pass.setdefault(self._pass_of(item.position).index, []).append(item)
        if len(message.proofs) != len(by_pass):
            raise ProtocolError(
                sender, N_("a shares message carries one proof for each pass it touches"), step
            )
        checks: list[_SharesCheck] = []
        for index, proof in zip(sorted(by_pass), message.proofs, strict=True):
            items = by_pass[index]
            context = SharesContext(
                self.params.game,
                self.params.round_no,
                index,
                sender,
                tuple((item.position, item.recipient) for item in items),
            )
            inputs = tuple(self._chain_point(item.position) for item in items)
            outputs = tuple(item.point for item in items)
            checks.append((context, self.passes[index].keys[sender], inputs, outputs, proof))
        if sender != self.seat and self.replay_proofs:
            self.unproven.append(Unproven(step, _shares_check(sender, checks, step)))
        elif sender != self.seat:
            _shares_check(sender, checks, step)()
        updates = {item.position: item.point for item in message.items}
        self.chain.update(updates)
        task.cursor += 1
        if task.cursor == len(task.sequence):
            self.tasks.popleft()
            self._finish_shares(task, step)

    def _on_seed(self, message: SeedReveal, step: int) -> None:
        sender = message.seat
        if (
            self.phase not in (DeckPhase.RUNNING, DeckPhase.SEEDS)
            or self.tasks
            or sender in self.seeds
        ):
            raise ProtocolError(sender, N_("unexpected seed reveal"), step)
        seed = Seed(message.seed)
        if (
            commitment(self.params.game, self.params.round_no, sender, seed)
            != self.commitments[sender]
        ):
            raise CheatDetected(sender, N_("the revealed seed does not open its commitment"), step)
        self.seeds[sender] = seed
        if len(self.seeds) == self.params.players:
            self.phase = DeckPhase.DONE

    # --- driving the tasks --------------------------------------------------

    def _advance(self) -> list[bytes]:
        """Send whatever this seat owes next, repeatedly, until it waits on others."""
        if self.phase is not DeckPhase.RUNNING or not self.tasks or self._unsent is not None:
            return []
        if self.identity is None or self.quiet:
            return []
        due = self.due(seeds_due=False)
        if due is None or due.seat != self.seat:
            return []
        task = self.tasks[0]
        if isinstance(task, ShuffleTask):
            return self._send(self._my_shuffle(task.shuffle_pass))
        return self._send(self._my_shares(task))

    def _my_shuffle(self, shuffled: ShufflePass) -> Shuffle:
        p = self.params
        scalar = self._scalar(shuffled.index)
        key = group.mul_base(scalar)
        permutation = round_permutation(
            p.game, p.round_no, self.seat, shuffled.index, shuffled.size, self.seed
        )
        source = shuffled.decks[-1] if shuffled.decks else shuffled.points
        deck = shuffle(scalar, permutation, source)
        context = ShuffleContext(p.game, p.round_no, shuffled.index, self.seat, self.binding)
        prepared, self._prepared = self._prepared, None
        proof = prove_shuffle(
            context, scalar, key, permutation, source, deck, self.entropy, prepared
        )
        return Shuffle(
            p.game, p.round_no, self.seat, self.context, shuffled.index, key, deck, proof
        )

    def _my_shares(self, task: ShareTask) -> Shares:
        self.check_deferred()  # shares are only ever built on proven chains
        p = self.params
        mine = task.items_for(self.seat)
        by_pass: dict[int, list[tuple[int, int]]] = {}
        for position, recipient in mine:
            by_pass.setdefault(self._pass_of(position).index, []).append((position, recipient))
        points: dict[int, bytes] = {}
        proofs = []
        for index in sorted(by_pass):
            items = by_pass[index]
            inverse = self._inverse(index)
            inputs = [self._chain_point(position) for position, _ in items]
            outputs = [bytes(out) for out in parallel.each(partial(group.mul, inverse), inputs)]
            context = SharesContext(p.game, p.round_no, index, self.seat, tuple(items))
            key = self.passes[index].keys[self.seat]
            proofs.append(
                prove_shares(context, self._scalar(index), key, inputs, outputs, self.entropy)
            )
            points.update(zip((position for position, _ in items), outputs, strict=True))
        shares = tuple(
            ShareItem(position, recipient, points[position]) for position, recipient in mine
        )
        return Shares(p.game, p.round_no, self.seat, self.context, shares, tuple(proofs))

    def _queue_shares(self, items: list[tuple[int, int, tuple[int, ...]]]) -> list[bytes]:
        if self.phase not in (DeckPhase.COMMIT, DeckPhase.RUNNING):
            raise ValueError(N_("the round's deck is closed"))  # a reason verify may show
        for position, recipient, strippers in items:
            self._pass_of(position)
            if recipient != ALL and not 0 <= recipient < self.params.players:
                raise ValueError(N_("no seat {seat}").format(seat=recipient + 1))
            owner_reveal = strippers != self._strippers(recipient)
            if owner_reveal:
                if self.assigned.get(position) != strippers[0]:
                    raise ValueError(
                        N_("seat {seat} does not hold position {position}").format(
                            seat=strippers[0] + 1, position=position
                        )
                    )
            elif position in self.assigned:
                raise ValueError(
                    N_("position {position} was already given to seat {seat}").format(
                        position=position, seat=self.assigned[position] + 1
                    )
                )
            self.assigned[position] = recipient
        stripping = {s for _, _, strippers in items for s in strippers}
        sequence = tuple(s for s in range(self.params.players) if s in stripping)
        self.tasks.append(ShareTask(tuple(items), sequence))
        self._due = None
        return self._advance()

    def _finish_shares(self, task: ShareTask, step: int) -> None:
        for position, recipient, _ in task.items:
            shuffled = self._pass_of(position)
            if recipient == ALL:
                label = shuffled.lookup.get(self.chain[position])
                if label is None:
                    raise ProtocolError(
                        None,
                        N_("position {position} did not open to a card").format(position=position),
                        step,
                    )
                self.public[position] = self.known[position] = shuffled.cards[label]
            elif recipient == self.seat:
                point = group.mul(self._inverse(shuffled.index), self.chain[position])
                label = shuffled.lookup.get(point)
                if label is None:
                    raise ProtocolError(
                        None,
                        N_("position {position} did not open to a card").format(position=position),
                        step,
                    )
                self.known[position] = shuffled.cards[label]

    # --- helpers ------------------------------------------------------------

    def _new_pass(self, index: int, cards: tuple[int, ...]) -> None:
        p = self.params
        base = 0 if not self.passes else self.passes[-1].base + self.passes[-1].size
        points = card_points(p.game, p.round_no, index, len(cards))
        shuffled = ShufflePass(index, base, cards, points)
        shuffled.lookup = {point: label for label, point in enumerate(points)}
        self.passes.append(shuffled)
        self.tasks.append(ShuffleTask(shuffled))
        self._due = None

    def _scalar(self, shuffle_pass: int) -> bytes:
        if shuffle_pass not in self._own_scalars:
            p = self.params
            self._own_scalars[shuffle_pass] = round_scalar(
                p.game, p.round_no, self.seat, shuffle_pass, self.seed
            )
        return self._own_scalars[shuffle_pass]

    def _inverse(self, shuffle_pass: int) -> bytes:
        """1/e for a pass, inverted once (constant time, like the scalar itself)."""
        if shuffle_pass not in self._own_inverses:
            self._own_inverses[shuffle_pass] = group.scalar_invert(self._scalar(shuffle_pass))
        return self._own_inverses[shuffle_pass]

    def _strippers(self, recipient: int) -> tuple[int, ...]:
        return _strippers(self.params.players, recipient)

    def _pass_of(self, position: int) -> ShufflePass:
        for shuffled in self.passes:
            if shuffled.holds(position):
                return shuffled
        raise ValueError(N_("no deck position {position}").format(position=position))

    def _chain_point(self, position: int) -> bytes:
        if position in self.chain:
            return self.chain[position]
        shuffled = self._pass_of(position)
        return shuffled.final[position - shuffled.base]


@functools.cache
def _strippers(players: int, recipient: int) -> tuple[int, ...]:
    """The seats that strip their layer from a card given to `recipient`: all others."""
    return tuple(s for s in range(players) if s != recipient)


def _task_copy(task: Task, passes: list[ShufflePass]) -> Task:
    """`task` for a `fork`: a shuffle task on the fork's own copy of its pass."""
    if isinstance(task, ShuffleTask):
        return ShuffleTask(passes[task.shuffle_pass.index], task.cursor)
    return task.copy()


def _shuffle_check(
    context: ShuffleContext,
    key: bytes,
    source: tuple[bytes, ...],
    deck: tuple[bytes, ...],
    proof: ShuffleProof,
    step: int,
) -> Callable[[], None]:
    """The check `_on_shuffle` leaves to the replay, raising what it would have raised."""

    def check() -> None:
        try:
            verify_shuffle(context, key, source, deck, proof)
        except ProofError as error:
            raise CheatDetected(
                context.seat, N_("bad shuffle: {error}").format(error=error), step
            ) from None

    return check


_SharesCheck = tuple[SharesContext, bytes, tuple[bytes, ...], tuple[bytes, ...], DleqProof]
"""One proof of a `deck/shares` message: its context, the sender's key, the items'
chain points before and after."""


def _shares_check(sender: int, checks: list[_SharesCheck], step: int) -> Callable[[], None]:
    """The checks of a `deck/shares` message's proofs (one per pass it touches; each
    splits its work over the cores); the first bad one raises (`_on_shares` runs it at
    once, or leaves it to the replay)."""

    def check() -> None:
        for context, key, inputs, outputs, proof in checks:
            try:
                verify_shares(context, key, inputs, outputs, proof)
            except ProofError as error:
                raise CheatDetected(
                    sender,
                    N_("bad shares of pass {shuffle_pass}: {error}").format(
                        shuffle_pass=context.shuffle_pass, error=error
                    ),
                    step,
                ) from None

    return check
