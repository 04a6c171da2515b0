"""Who called Køb! first, decided from what every seat saw (SPEC §4.7).

lp:24 "den første vinder": over a network there is no clock everyone can check, and
the seat that sequences the window must not decide the order. Under `buy_priority =
first` every seat signs, with its answer, its *observation*: the seats whose calls
reached it, in the order they did (its own call at the moment it sent it). Each seat
has one vote, for the first claimant its observation lists; the claimant with the
most votes wins, ties to the seat nearest after the discarder. The winner is a function
of the set of signed answers, recomputed by every peer and by `rommy verify`: one seat
that lies moves one vote (docs/fairness.md says how close a race that can flip).
Receive-order fairness in the spirit of Aequitas (Kelkar et al. 2020) and Themis (2023).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2p_rommy.engine.apply import buy_order
from p2p_rommy.engine.state import GameState
from p2p_rommy.log.messages import BuyAnswer


def answerers(state: GameState) -> tuple[int, ...]:
    """The seats that answer in the open window: under `first` every seat (the
    discarder and the seat in turn observe the race too; they cannot claim), else the
    eligible seats."""
    if state.rules.buy_priority == "first":
        return tuple(range(state.players))
    return state.buy_eligible


@dataclass(frozen=True, slots=True)
class Race:
    """How a window under `first` settled: the claimants in the order they rank (the
    first buys), each one's votes, and how many seats observed."""

    order: tuple[int, ...]
    votes: dict[int, int]
    observers: int


def first_vote(answer: BuyAnswer, claimants: set[int]) -> int | None:
    """The claimant this answer's observation saw first (entries of seats that did not
    claim are ignored: a seat cannot make another seat a caller)."""
    return next((seat for seat in answer.seen if seat in claimants), None)


def race(answers: Sequence[BuyAnswer], eligible: tuple[int, ...]) -> Race:
    """The window's claimants ranked by the seats' observations: most first-votes first,
    ties to the seat nearest after the discarder (the order of `eligible`)."""
    claimants = {answer.seat for answer in answers if answer.claim}
    votes = dict.fromkeys(sorted(claimants), 0)
    for answer in answers:
        first = first_vote(answer, claimants)
        if first is not None:
            votes[first] += 1
    order = sorted(claimants, key=lambda seat: (-votes[seat], eligible.index(seat)))
    return Race(tuple(order), votes, len(answers))


def ranked(
    state: GameState,
    answers: Sequence[BuyAnswer],
    eligible: tuple[int, ...],
    lot: Callable[[int, bytes], bytes],
) -> tuple[tuple[int, ...], Race | None]:
    """The open window's claims as its house rule ranks them, the buyer first, and under
    `first` how the race settled: the one place the priority rule is applied (SPEC
    §4.7). `first`: the race of the seats' observations; `lot`: each claimant's place in
    the window's lot (`lot(seat, nonces)`, lowest first, over the eligible seats'
    nonces); `seat`: nearest after the discarder (`engine.apply.buy_order`, which the
    engine applies to the claims it is given too)."""
    priority = state.rules.buy_priority
    if priority == "first":
        outcome = race(answers, eligible)
        return outcome.order, outcome
    claims = tuple(answer.seat for answer in answers if answer.claim)
    if priority == "lot":
        by_seat = {answer.seat: answer.nonce for answer in answers}
        nonces = b"".join(by_seat[seat] for seat in eligible)
        return tuple(sorted(claims, key=lambda seat: lot(seat, nonces))), None
    return buy_order(state, claims), None
