"""What the seats of one simulated table share because they run in one process: a
seam for volume, like the fast group, that changes no result.

- **Verified signatures are remembered.** On a real table each seat checks each
  envelope once, where it arrives (issue 28). Here every seat of the table, and then
  `rommy verify`'s checker on every honest transcript, checks the same bytes again: a
  4-seat lp game checked each envelope about seven times. Strict Ed25519 verification
  is a pure function of (key, signature, message), so the answer remembered for those
  exact bytes is the answer a fresh check gives; a forged or altered envelope is other
  bytes and is checked (and refused) like any other. So are the signatures this
  process makes: a signature libsodium just made with a seat's key verifies under
  that key (Ed25519 is correct), so (key, signature, message) is known good from the
  moment it is made, and the seats' checks of the same bytes find it there. Every
  signature is still a real one, and every other triple (an envelope claiming another
  seat's key, altered bytes) is checked by libsodium.
- **Decoded envelopes and messages are remembered** the same way: splitting an
  envelope into its fields and decoding a log or deck message body are functions of
  the bytes (and the sender a refusal names) whose answers are frozen values, and
  here every seat and the checker decode each body again. The fields of an envelope
  this process signs are known from its making (`Identity.sign` packs exactly them:
  the codec's one encoding), so they are remembered then, within the limits a split
  enforces. What is checked against a
  seat's own state (whose key signed it, its signature, what it says) is not
  remembered but done by each seat.
- **Opened envelopes are remembered**: `open_envelope` is a function of the bytes
  and of what the roster says of their signer's key id (its seat and public key), and
  its answer is a frozen value; every seat opens each envelope. So an envelope opened
  before is answered again with the same `Opened` when the roster asking holds the
  same (seat, key) for its signer; any other roster, and any envelope not yet opened
  (or refused), is opened as ever.
- **A round's audit is remembered**: every seat replays the finished round from its
  seeds (`audit_round`, a function of the round's parameters, keys, transcript,
  rebuilt cards and card points), and here the four replay the same round. The
  report is kept by those inputs and each seat gets its own copy of it (the
  envelopes a seat had opened only spare the audit opening them again: they are
  what opening them gives).
- **Verified share proofs are remembered** as shuffle proofs already are in every
  process (`deck/proofs.py`): only a success, for exactly those inputs.
- **The seats share their game states.** Every seat applies every move to the state
  before it (`engine.apply.apply`, a pure function of a frozen state and a frozen
  move: "replace, never mutate") and hashes the state after it for its ACK. Here the
  answer for the same state object and an equal move is remembered, with the state
  (so its id is not reused while kept), and so is each state's hash; every seat's
  match starts from one state (`new_game` of the same rules, players and dealer), so
  the seats' states are the same objects step after step, and one seat's work is
  every seat's. A move that is refused is refused again by each seat (nothing is
  remembered of it); a state or a move this process has not seen is applied as ever.
- **The deck's work runs on one thread** under the fast group: `deck/parallel.py`
  splits proofs over threads because libsodium releases the GIL; the fast group's
  arithmetic is Python integers, which never do, so the threads only cost. The results
  are the same bytes on one thread or many (`parallel.each`).
"""

from __future__ import annotations

import contextlib
import functools
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TypeVar

from p2p_rommy.deck import audit, parallel, proofs
from p2p_rommy.deck import messages as deck_messages
from p2p_rommy.deck import seat as deck_seat
from p2p_rommy.engine.moves import Move
from p2p_rommy.engine.state import GameState
from p2p_rommy.log import (
    buy_checks,
    buying,
    certificates,
    replica,
    round_decks,
    seated_replica,
    transcript,
)
from p2p_rommy.log import messages as log_messages
from p2p_rommy.rules.variants import RuleSet
from p2p_rommy.wire import identity
from p2p_rommy.wire.codec import MAX_BODY_BYTES

SIGNATURES_KEPT = 1 << 16
"""Good (key, signature, message) triples remembered (made or verified here): a 4-seat
lp game has ~13,000 envelopes, each checked by every seat within a few steps of its
making."""
DECODED_KEPT = 1 << 14
"""Decoded envelopes and bodies remembered (of each kind): every seat decodes a body
within a few steps of the first, and the checker after the game reads a transcript
from its start, so this keeps the freshest ~1,500 steps of a 4-seat table."""

_SIGNATURE = "signature"
"""`Identity`'s method that signs (replaced on the class: its instances are frozen)."""
_SIGN = "sign"
"""`Identity`'s method that makes an envelope."""
_ENVELOPE_MAX = MAX_BODY_BYTES + 256
"""The largest envelope `envelope_fields` splits (its `unpack` limit)."""
STATES_KEPT = 1 << 10
"""States after a move, and state hashes, remembered: every seat applies a move within
a few steps of the first (a catching-up seat later: then it works them out again)."""
_APPLIERS = (replica, round_decks, buy_checks, seated_replica)
"""The log's modules that apply moves to the replicated state (they import `apply` by
name); `replica` also starts each match (`new_game`) and hashes the states."""
_APPLY, _NEW_GAME, _STATE_HASH = "apply", "new_game", "state_hash"
"""The names the log's modules bind the engine's functions by."""
_OPEN = "open_envelope"
_OPENERS = (identity, buying, buy_checks, replica, certificates, transcript, deck_seat, audit)
"""The modules that open envelopes (they import `open_envelope` by name)."""
_AUDIT = "audit_round"
"""The function that audits a round (`round_decks` imports it by name)."""
AUDITS_KEPT = 16
"""Round audits remembered: the seats of a table audit a round within a few steps."""
_SHARES = "verify_shares"
_SHARES_CHECKERS = (deck_seat, audit)
"""The modules that check share proofs (the deck seat, the round's audit)."""

T = TypeVar("T")
R = TypeVar("R")


def _remembering(verify: Callable[..., None]) -> Callable[..., None]:
    """`verify_shares` that checks each (context, key, inputs, outputs, proof) once."""
    verified: OrderedDict[tuple[object, ...], None] = OrderedDict()

    def verify_shares(
        context: proofs.SharesContext,
        key: bytes,
        inputs: Sequence[bytes],
        outputs: Sequence[bytes],
        proof: proofs.DleqProof,
    ) -> None:
        fingerprint = (context, key, tuple(inputs), tuple(outputs), proof)
        if fingerprint in verified:
            return
        verify(context, key, inputs, outputs, proof)  # raises for a bad one
        if len(verified) >= DECODED_KEPT:
            verified.popitem(last=False)
        verified[fingerprint] = None

    return verify_shares


class _KnownSignatures:
    """Strict Ed25519 verification that remembers the good answers: those it gave and
    the signatures this process made (`signed`), at most `SIGNATURES_KEPT`. A good
    (key, signature, message) is kept as the message of (key, signature): a check
    compares the message it is asked about with it, rather than hash it (a shuffle's
    message is ~15 KiB, and every seat checks it)."""

    def __init__(self, verify: Callable[[bytes, bytes, bytes], bool]) -> None:
        self._verify = verify
        self._good: OrderedDict[tuple[bytes, bytes], bytes] = OrderedDict()

    def _remember(self, public_key: bytes, signature: bytes, message: bytes) -> None:
        good = self._good
        if len(good) >= SIGNATURES_KEPT:
            good.popitem(last=False)
        good[public_key, signature] = message

    def verify(self, public_key: bytes, signature: bytes, message: bytes) -> bool:
        if self._good.get((public_key, signature)) == message:
            return True
        if not self._verify(public_key, signature, message):
            return False
        self._remember(public_key, signature, message)
        return True

    def signing(
        self, sign: Callable[[identity.Identity, bytes], bytes]
    ) -> Callable[[identity.Identity, bytes], bytes]:
        """`Identity.signature` that remembers what it signed as verified, and the
        signature itself: Ed25519 signatures are deterministic (RFC 8032, 5.1.6), so
        the same key signing the same bytes again makes the same signature."""
        made_here: OrderedDict[tuple[bytes, bytes], bytes] = OrderedDict()

        def signature(signer: identity.Identity, message: bytes) -> bytes:
            key = (signer.private_bytes, message)
            made = made_here.get(key)
            if made is None:
                made = sign(signer, message)
                if len(made_here) >= SIGNATURES_KEPT:
                    made_here.popitem(last=False)
                made_here[key] = made
            self._remember(signer.public_key, made, message)
            return made

        return signature


class _EnvelopeFields:
    """`envelope_fields` that remembers its answers (at most `DECODED_KEPT`), and those
    of the envelopes `Identity.sign` makes here (`signing`)."""

    def __init__(self, fields: Callable[[bytes], tuple[bytes, bytes, bytes]]) -> None:
        self._fields = fields
        self._known: OrderedDict[bytes, tuple[bytes, bytes, bytes]] = OrderedDict()

    def __call__(self, data: bytes) -> tuple[bytes, bytes, bytes]:
        known = self._known.get(data)
        if known is None:
            known = self._fields(data)  # raises for a malformed one
            self._keep(data, known)
        return known

    def _keep(self, data: bytes, fields: tuple[bytes, bytes, bytes]) -> None:
        known = self._known
        if len(known) >= DECODED_KEPT:
            known.popitem(last=False)
        known[data] = fields

    def signing(
        self, sign: Callable[[identity.Identity, bytes], bytes]
    ) -> Callable[[identity.Identity, bytes], bytes]:
        """`Identity.sign` that remembers the fields of the envelope it makes: [version,
        key id, body, signature] packed, so the signature is its last 64 bytes. Only
        an envelope a split would accept (a bytes body, both within the limits)."""

        def sign_envelope(signer: identity.Identity, body: bytes) -> bytes:
            envelope = sign(signer, body)
            if (
                type(body) is bytes
                and len(body) <= MAX_BODY_BYTES
                and len(envelope) <= _ENVELOPE_MAX
            ):
                self._keep(envelope, (signer.key_id, body, envelope[-64:]))
            return envelope

        return sign_envelope


class _SharedStates:
    """`apply`, `new_game` and `state_hash` that remember their answers (at most
    `STATES_KEPT` of each): by the state's identity (kept with it) and the move's value,
    only for a move that was applied (one that raises is tried again each time)."""

    def __init__(
        self,
        apply: Callable[[GameState, Move], GameState],
        new_game: Callable[[RuleSet, int, int], GameState],
        state_hash: Callable[[GameState], bytes],
    ) -> None:
        self._apply, self._new_game, self._state_hash = apply, new_game, state_hash
        self._after: OrderedDict[tuple[int, Move], tuple[GameState, GameState]] = OrderedDict()
        self._hashes: OrderedDict[int, tuple[GameState, bytes]] = OrderedDict()
        self._games: dict[tuple[RuleSet, int, int], GameState] = {}

    def apply(self, state: GameState, move: Move) -> GameState:
        key = (id(state), move)
        kept = self._after.get(key)
        if kept is not None and kept[0] is state:
            return kept[1]
        after = self._apply(state, move)  # raises for a refused move: nothing is kept
        if len(self._after) >= STATES_KEPT:
            self._after.popitem(last=False)
        self._after[key] = (state, after)
        return after

    def new_game(self, rules: RuleSet, players: int, first_dealer: int = 0) -> GameState:
        # by the rules' value: each seat's config makes its own (equal) `RuleSet`
        key = (rules, players, first_dealer)
        state = self._games.get(key)
        if state is None:
            state = self._new_game(rules, players, first_dealer)
            if len(self._games) >= STATES_KEPT:
                self._games.clear()
            self._games[key] = state
        return state

    def state_hash(self, state: GameState) -> bytes:
        kept = self._hashes.get(id(state))
        if kept is not None and kept[0] is state:
            return kept[1]
        digest = self._state_hash(state)
        if len(self._hashes) >= STATES_KEPT:
            self._hashes.popitem(last=False)
        self._hashes[id(state)] = (state, digest)
        return digest


class _OpenedEnvelopes:
    """`open_envelope` that remembers its answers (at most `DECODED_KEPT`) by the
    envelope's bytes, with the roster's entry for its signer that it was opened under."""

    def __init__(self, open_envelope: Callable[..., identity.Opened]) -> None:
        self._open = open_envelope
        self._known: OrderedDict[bytes, tuple[bytes, tuple[int, bytes], identity.Opened]] = (
            OrderedDict()
        )

    def __call__(self, data: bytes, roster: Mapping[bytes, tuple[int, bytes]]) -> identity.Opened:
        if type(data) is not bytes:
            return self._open(data, roster)
        kept = self._known.get(data)
        if kept is not None and roster.get(kept[0]) == kept[1]:
            return kept[2]
        opened = self._open(data, roster)  # raises for a bad one: nothing is kept
        signer = identity.envelope_fields(data)[0]
        known = self._known
        if len(known) >= DECODED_KEPT:
            known.popitem(last=False)
        known[data] = (signer, roster[signer], opened)
        return opened


class _RememberedAudits:
    """`audit_round` that remembers its reports (at most `AUDITS_KEPT`) by its inputs
    but `received` (see the module docstring), and hands out copies of them."""

    def __init__(self, audit_round: Callable[..., audit.AuditReport]) -> None:
        self._audit = audit_round
        self._known: OrderedDict[tuple[object, ...], audit.AuditReport] = OrderedDict()

    def __call__(
        self,
        params: deck_seat.DeckParams,
        public_keys: Sequence[bytes],
        envelopes: Sequence[bytes],
        rebuilt_cards: Sequence[Sequence[int]] = (),
        check_proofs: bool = True,
        finished: bool = True,
        received: Sequence[tuple[identity.Opened, deck_messages.DeckMessage]] = (),
        points: Sequence[Sequence[bytes]] = (),
    ) -> audit.AuditReport:
        key = (
            params,
            tuple(public_keys),
            tuple(envelopes),
            tuple(tuple(cards) for cards in rebuilt_cards),
            check_proofs,
            finished,
            tuple(tuple(each) for each in points),
        )
        report = self._known.get(key)
        if report is None:
            report = self._audit(
                params,
                public_keys,
                envelopes,
                rebuilt_cards,
                check_proofs,
                finished,
                received,
                points,
            )
            if len(self._known) >= AUDITS_KEPT:
                self._known.popitem(last=False)
            self._known[key] = report
        return _copy(report)


def _copy(report: audit.AuditReport) -> audit.AuditReport:
    """A report of its own (its findings are frozen values)."""
    return audit.AuditReport(
        findings=list(report.findings),
        cards=dict(report.cards),
        given=dict(report.given),
        shown=dict(report.shown),
        shuffles=list(report.shuffles),
        complete=report.complete,
        pending=list(report.pending),
    )


def _serial(function: Callable[[T], R], items: Iterable[T], cores: int = 1) -> list[R]:
    return [function(item) for item in items]


@contextlib.contextmanager
def one_process(threads: bool = True) -> Iterator[None]:
    """Inside: signatures checked and bodies decoded once per process (and the deck on
    one thread unless `threads`). The production functions are back on the way out."""
    verify, each = identity.verify_signature, parallel.each
    sign, sign_envelope = identity.Identity.signature, identity.Identity.sign
    fields, log_body, deck_body = (
        identity.envelope_fields,
        log_messages.decode_message,
        deck_messages.decode_message,
    )
    shares = proofs.verify_shares
    remembered = _remembering(shares)
    for module in _SHARES_CHECKERS:  # they import it by name
        setattr(module, _SHARES, remembered)
    known = _KnownSignatures(verify)
    identity.verify_signature = known.verify
    setattr(identity.Identity, _SIGNATURE, known.signing(sign))
    remembered_fields = _EnvelopeFields(fields)
    identity.envelope_fields = remembered_fields
    setattr(identity.Identity, _SIGN, remembered_fields.signing(sign_envelope))
    log_messages.decode_message = functools.lru_cache(maxsize=DECODED_KEPT)(log_body)
    deck_messages.decode_message = functools.lru_cache(maxsize=DECODED_KEPT)(deck_body)
    opener = identity.open_envelope
    opened = _OpenedEnvelopes(opener)
    for module in _OPENERS:
        setattr(module, _OPEN, opened)
    audit_round = getattr(round_decks, _AUDIT)
    setattr(round_decks, _AUDIT, _RememberedAudits(audit_round))
    applies = [getattr(module, _APPLY) for module in _APPLIERS]
    new_game, state_hash = getattr(replica, _NEW_GAME), getattr(replica, _STATE_HASH)
    shared = _SharedStates(applies[0], new_game, state_hash)
    for module in _APPLIERS:
        setattr(module, _APPLY, shared.apply)
    setattr(replica, _NEW_GAME, shared.new_game)
    setattr(replica, _STATE_HASH, shared.state_hash)
    if not threads:
        parallel.each = _serial
    try:
        yield
    finally:
        for module in _OPENERS:
            setattr(module, _OPEN, opener)
        setattr(round_decks, _AUDIT, audit_round)
        for module, apply in zip(_APPLIERS, applies, strict=True):
            setattr(module, _APPLY, apply)
        setattr(replica, _NEW_GAME, new_game)
        setattr(replica, _STATE_HASH, state_hash)
        identity.verify_signature, parallel.each = verify, each
        setattr(identity.Identity, _SIGNATURE, sign)
        setattr(identity.Identity, _SIGN, sign_envelope)
        identity.envelope_fields = fields
        for module in _SHARES_CHECKERS:
            setattr(module, _SHARES, shares)
        log_messages.decode_message, deck_messages.decode_message = log_body, deck_body
