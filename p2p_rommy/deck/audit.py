"""The audit: replay a round's deck transcript from the revealed seeds.

This is the second, independent line of defence (the proofs were the first):
from the seeds anyone re-derives every scalar and permutation, recomputes every
shuffle and every share, and learns which card was at every deck position. A
failure is a `Finding` naming the seat, the step (index in the round's
transcript) and what is wrong. `rommy verify` and `rommy replay` build on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from p2p_rommy.deck import group
from p2p_rommy.deck.derive import (
    Seed,
    card_points,
    commitment,
    round_permutation,
    round_scalar,
)
from p2p_rommy.deck.messages import Commit, DeckMessage, SeedReveal, Shares, Shuffle, decode
from p2p_rommy.deck.proofs import (
    ALL,
    ProofError,
    SharesContext,
    ShuffleContext,
    round_binding,
    shuffle,
    verify_shares,
    verify_shuffle,
)
from p2p_rommy.deck.seat import DeckParams
from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_
from p2p_rommy.wire.identity import Opened, open_envelope, roster_of


@dataclass(frozen=True, slots=True)
class Finding:
    seat: int | None
    step: int
    what: str

    def __str__(self) -> str:
        who = "the transcript" if self.seat is None else f"seat {self.seat}"
        return f"{who} at step {self.step}: {self.what}"


@dataclass
class AuditReport:
    findings: list[Finding] = field(default_factory=list)
    cards: dict[int, int] = field(default_factory=dict)
    """Position -> card id, for every position of every pass (once the seeds are in)."""
    given: dict[int, int] = field(default_factory=dict)
    """Position -> the seat it was dealt to, or `ALL` when shown to everyone."""
    shown: dict[int, int] = field(default_factory=dict)
    """Position -> card id opened in public by the shares."""
    shuffles: list[tuple[int, int]] = field(default_factory=list)
    """(pass, seat) of every shuffle, in order."""
    complete: bool = False
    """True when every seed was revealed and so everything could be replayed."""
    pending: list[str] = field(default_factory=list)
    """What could not be checked yet (an unfinished round's seeds)."""

    @property
    def fair(self) -> bool:
        return not self.findings


def audit_round(
    params: DeckParams,
    public_keys: Sequence[bytes],
    envelopes: Sequence[bytes],
    rebuilt_cards: Sequence[Sequence[int]] = (),
    check_proofs: bool = True,
    finished: bool = True,
    received: Sequence[tuple[Opened, DeckMessage]] = (),
    points: Sequence[Sequence[bytes]] = (),
) -> AuditReport:
    """Check a round's deck transcript; `rebuilt_cards[u-1]` are pass u's card ids.

    For a round that is not `finished`, missing seeds are pending, not a forfeit.
    `received`: the envelopes as a deck seat already opened and decoded them, one for
    each (a replica's audit: each envelope is opened and decoded once). `points`:
    each pass's card points as the deck seat derived them (else derived here).
    """
    report = AuditReport()
    roster = roster_of(list(public_keys))
    p = params
    pass_cards = [tuple(range(p.deck_size)), *(tuple(c) for c in rebuilt_cards)]
    inputs = [
        tuple(points[u])
        if u < len(points) and len(points[u]) == len(cards)
        else card_points(p.game, p.round_no, u, len(cards))
        for u, cards in enumerate(pass_cards)
    ]
    bases = [sum(len(c) for c in pass_cards[:u]) for u in range(len(pass_cards))]
    decks: list[tuple[bytes, ...]] = list(inputs)
    keys: dict[tuple[int, int], bytes] = {}
    commits: dict[int, bytes] = {}
    seeds: dict[int, Seed] = {}
    shuffles: list[tuple[int, int, Shuffle, int]] = []
    shares: list[tuple[int, Shares]] = []
    reuse = len(received) == len(envelopes)
    for step, envelope in enumerate(envelopes):
        try:
            if reuse and received[step][0].raw == envelope:
                sealed, message = received[step]
            else:
                sealed = open_envelope(envelope, roster)
                message = decode(sealed.body, sealed.seat)
        except ProtocolError as error:
            seat = error.sender if isinstance(error.sender, int) else None
            report.findings.append(Finding(seat, step, error.reason))
            continue
        seat = sealed.seat
        if (message.game, message.round_no, message.seat) != (p.game, p.round_no, seat):
            report.findings.append(
                Finding(seat, step, N_("message for another game, round or seat"))
            )
        elif isinstance(message, Commit):
            commits[seat] = message.commitment
            keys[(seat, 0)] = message.key
        elif isinstance(message, Shuffle):
            if message.shuffle_pass >= len(pass_cards):
                report.findings.append(Finding(seat, step, N_("shuffle of an unknown pass")))
                continue
            u = message.shuffle_pass
            if check_proofs:
                try:
                    verify_shuffle(
                        ShuffleContext(
                            p.game,
                            p.round_no,
                            u,
                            seat,
                            round_binding([commits.get(s, b"") for s in range(p.players)]),
                        ),
                        message.key,
                        decks[u],
                        message.deck,
                        message.proof,
                    )
                except (ProofError, group.GroupError) as error:
                    report.findings.append(
                        Finding(seat, step, N_("shuffle proof fails: {error}").format(error=error))
                    )
            if u > 0:
                keys[(seat, u)] = message.key
            shuffles.append((step, seat, message, u))
            report.shuffles.append((u, seat))
            decks[u] = message.deck
        elif isinstance(message, Shares):
            shares.append((step, message))
        elif isinstance(message, SeedReveal):
            seeds[seat] = Seed(message.seed)
            if commits.get(seat) != commitment(p.game, p.round_no, seat, Seed(message.seed)):
                report.findings.append(
                    Finding(seat, step, N_("the revealed seed does not open its commitment"))
                )
    _replay_shares(report, p, keys, decks, bases, pass_cards, inputs, shares, check_proofs)
    last = len(envelopes)
    missing = [s for s in range(p.players) if s not in seeds]
    if missing and not finished:
        report.pending.append(
            "the seeds of seats " + ", ".join(map(str, missing)) + " (the round is not over): "
            "shuffles and shares are checked by their proofs only, the cards are not known"
        )
        return report
    for seat in missing:
        report.findings.append(Finding(seat, last, N_("did not reveal its seed (forfeit)")))
    if missing:
        return report
    report.complete = True
    _replay_from_seeds(report, p, seeds, keys, shuffles, shares, pass_cards, inputs, bases)
    return report


def _pass_of(position: int, bases: list[int], pass_cards: list[tuple[int, ...]]) -> int:
    for u, base in enumerate(bases):
        if base <= position < base + len(pass_cards[u]):
            return u
    raise ValueError(position)


def _replay_shares(
    report: AuditReport,
    p: DeckParams,
    keys: dict[tuple[int, int], bytes],
    decks: list[tuple[bytes, ...]],
    bases: list[int],
    pass_cards: list[tuple[int, ...]],
    inputs: list[tuple[bytes, ...]],
    shares: list[tuple[int, Shares]],
    check_proofs: bool,
) -> None:
    """Follow every chain of shares from the final deck point, checking each proof."""
    chain: dict[int, bytes] = {}
    for step, shared in shares:
        by_pass: dict[int, list[tuple[int, int, bytes, bytes]]] = {}
        for item in shared.items:
            try:
                u = _pass_of(item.position, bases, pass_cards)
            except ValueError:
                report.findings.append(
                    Finding(
                        shared.seat,
                        step,
                        N_("share for unknown position {position}").format(position=item.position),
                    )
                )
                continue
            inp = chain.get(item.position, decks[u][item.position - bases[u]])
            by_pass.setdefault(u, []).append((item.position, item.recipient, inp, item.point))
            given = report.given.get(item.position)
            if given is None:
                report.given[item.position] = item.recipient
            elif given != item.recipient and item.recipient != ALL:
                report.findings.append(
                    Finding(
                        shared.seat,
                        step,
                        N_("position {position} given twice").format(position=item.position),
                    )
                )
            chain[item.position] = item.point
        if not check_proofs:
            continue
        if len(shared.proofs) != len(by_pass):
            report.findings.append(
                Finding(
                    shared.seat,
                    step,
                    N_("not one share proof for each pass the shares touch"),
                )
            )
            continue
        for u, proof in zip(sorted(by_pass), shared.proofs, strict=True):
            items = by_pass[u]
            context = SharesContext(
                p.game, p.round_no, u, shared.seat, tuple((pos, rec) for pos, rec, _, _ in items)
            )
            try:
                verify_shares(
                    context,
                    keys[(shared.seat, u)],
                    [inp for _, _, inp, _ in items],
                    [out for _, _, _, out in items],
                    proof,
                )
            except (ProofError, KeyError) as error:
                report.findings.append(
                    Finding(shared.seat, step, N_("share proof fails: {error}").format(error=error))
                )
    labels = [{point: label for label, point in enumerate(points)} for points in inputs]
    for position, point in chain.items():
        u = _pass_of(position, bases, pass_cards)
        label = labels[u].get(point)
        if label is not None:  # every layer is off: the card was opened in public
            report.shown[position] = pass_cards[u][label]


def _replay_from_seeds(
    report: AuditReport,
    p: DeckParams,
    seeds: dict[int, Seed],
    keys: dict[tuple[int, int], bytes],
    shuffles: list[tuple[int, int, Shuffle, int]],
    shares: list[tuple[int, Shares]],
    pass_cards: list[tuple[int, ...]],
    inputs: list[tuple[bytes, ...]],
    bases: list[int],
) -> None:
    scalars = {
        (seat, u): round_scalar(p.game, p.round_no, seat, u, seeds[seat])
        for seat in range(p.players)
        for u in range(len(pass_cards))
    }
    for (seat, u), key in keys.items():
        if group.mul_base(scalars[(seat, u)]) != key:
            report.findings.append(
                Finding(seat, 0, N_("the key of pass {u} does not come from the seed").format(u=u))
            )
    decks = list(inputs)
    # label of each position of pass u, while every shuffle of it replays (else None)
    followed: list[list[int] | None] = [list(range(len(cards))) for cards in pass_cards]
    replayed_count = [0] * len(pass_cards)
    for step, seat, message, u in shuffles:
        permutation = round_permutation(
            p.game, p.round_no, seat, u, len(pass_cards[u]), seeds[seat]
        )
        scalar = scalars[(seat, u)]
        try:
            replayed = shuffle(scalar, permutation, decks[u])
        except group.GroupError:
            replayed = ()  # an input that is no deck: this shuffle cannot replay either
        if replayed != message.deck:
            report.findings.append(
                Finding(
                    seat,
                    step,
                    N_("the shuffle of pass {u} does not replay from the seed").format(u=u),
                )
            )
            followed[u] = None
        elif (before := followed[u]) is not None:
            followed[u] = [before[source] for source in permutation]
            replayed_count[u] += 1
        decks[u] = message.deck
    # Which card is where. Where every seat's shuffle of a pass replayed from its seed,
    # the final deck is exactly the seeds' permutations of the card points, so the
    # composed permutations say it; otherwise strip every seat's layer off the final
    # deck, which holds even where a shuffle strayed from its seed, so every other
    # finding stays accurate.
    for u, cards in enumerate(pass_cards):
        labels_of = followed[u]
        if labels_of is not None and replayed_count[u] == p.players:
            for position, source in enumerate(labels_of):
                report.cards[bases[u] + position] = cards[source]
            continue
        product = group.scalar_from_int(1)
        for seat in range(p.players):
            product = group.scalar_mul(product, scalars[(seat, u)])
        inverse = group.scalar_invert(product)
        labels = {point: label for label, point in enumerate(inputs[u])}
        for position, point in enumerate(decks[u]):
            label = labels.get(_mul_or_nothing(inverse, point))
            if label is None:
                report.findings.append(
                    Finding(
                        None,
                        0,
                        N_("position {value} holds no card").format(value=bases[u] + position),
                    )
                )
            else:
                report.cards[bases[u] + position] = cards[label]
    chain: dict[int, bytes] = {}
    inverses = {key: group.scalar_invert(scalar) for key, scalar in scalars.items()}
    for step, shared in shares:
        for item in shared.items:
            u = _pass_of(item.position, bases, pass_cards)
            inp = chain.get(item.position, decks[u][item.position - bases[u]])
            if _mul_or_nothing(inverses[(shared.seat, u)], inp) != item.point:
                report.findings.append(
                    Finding(
                        shared.seat,
                        step,
                        N_("the share for position {position} does not replay").format(
                            position=item.position
                        ),
                    )
                )
            chain[item.position] = item.point
    for position, card in report.shown.items():
        if report.cards.get(position) != card:
            report.findings.append(
                Finding(
                    None,
                    len(shares),
                    N_("position {position} opened to the wrong card").format(position=position),
                )
            )


def _mul_or_nothing(scalar: bytes, point: bytes) -> bytes:
    """scalar * point, or no bytes for a point that is no group element (a replica that
    left the proofs to this replay took the deck unchecked): it matches nothing."""
    try:
        return group.mul(scalar, point)
    except group.GroupError:
        return b""
