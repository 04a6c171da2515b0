"""Køb! windows as one seat holds them: the only owner of the window and its clock.

A committed discard (or the lp upcard) that the seat in turn declines opens a window
(SPEC §4.7); it is named by the number of the step whose commit opened it. Every
eligible seat broadcasts its own signed answer — claim or pass — and the seat in turn
resolves the window with all of them. This class keeps, per window, the answers this
seat has seen (bounded: closed windows are forgotten), whether this seat has answered,
and when the open window opened *on this seat's clock*: a person who has not answered
when `buy_window_ms` runs out passes by themself, and the client shows the same clock
(`seconds_left`). Under `buy_priority = first` it also keeps the order in which calls
reached this seat: its observation, signed with its answer (SPEC §4.7). Sans-IO: time
is passed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from p2p_rommy.limits import BUY_WINDOWS_KEPT
from p2p_rommy.log.messages import BuyAnswer, BuySeal
from p2p_rommy.wire.identity import Opened


@dataclass
class OpenWindow:
    """The open Køb! window as the committed game has it: made by the commit that opens
    it and dropped (`Replica.window` back to None) by the commit that closes it, so its
    number is never read after it closed. It also keeps the answers and seals of this
    window as `Replica.open_message` opened them (each is opened once: its own check,
    then the resolution that carries it)."""

    number: int
    """The step whose commit opened it (SPEC §4.7)."""
    eligible: tuple[int, ...]
    """The seats that may claim the card, nearest after the discarder first."""
    answerers: tuple[int, ...]
    """The seats whose answers the resolution must carry (`buy_race.answerers`)."""
    opened: dict[bytes, tuple[Opened, BuyAnswer | BuySeal]] = field(default_factory=dict)


def buyer_of(claims: Sequence[int]) -> int | None:
    """Who bought in a resolved window, from its committed buy step's claims as they
    rank (`Replica.last_claims`, `Tentative.claims`): the first; None when nobody
    called. The client and `rommy replay` both ask this (no diffing of states)."""
    return claims[0] if claims else None


class BuyWindows:
    """The answers and the clock of this seat's Køb! windows."""

    def __init__(self, seat: int, window_s: float) -> None:
        self.seat = seat
        self.window_s = window_s
        """How long a window stays open for a person (the `buy_window_ms` house rule)."""
        self._answers: dict[int, list[tuple[int, bytes]]] = {}
        """window -> (seat, signed answer) in the order they arrived."""
        self._calls: dict[int, list[int]] = {}
        """window -> the seats whose calls (claims) reached this seat, in that order."""
        self._seals: dict[int, dict[int, bytes]] = {}
        """window -> seat -> its signed seal (under `seat`/`lot`)."""
        self._sealed: dict[int, bool] = {}
        """window -> the claim this seat sealed and has not opened yet."""
        self._answered: set[int] = set()
        self._late: dict[int, dict[tuple[int, bool], bytes]] = {}
        """seat -> (window, a seal?) -> the answer or seal it sent for a closed window
        this seat held nothing of, as it came (the newest `BUY_WINDOWS_KEPT` per seat)."""
        self._clock: tuple[int, float] | None = None
        """(window, when it opened on this seat's clock)."""

    # --- the clock ---------------------------------------------------------------

    def opened(self, window: int, now: float) -> None:
        """`window` opened now (its step committed here)."""
        self._clock = (window, now)

    def seconds_left(self, window: int | None, now: float) -> float | None:
        """Time left to answer `window` on this seat's clock; None when it is not open
        here (or its opening was not seen: a restart inside it starts the clock anew)."""
        if window is None or self._clock is None or self._clock[0] != window:
            return None
        return max(0.0, self.window_s - (now - self._clock[1]))

    def time_is_up(self, window: int, now: float) -> bool:
        """Whether this seat's time to answer `window` has run out (a window whose
        opening this seat did not see — it restarted inside it — starts its clock now)."""
        if self._clock is None or self._clock[0] != window:
            self.opened(window, now)
        left = self.seconds_left(window, now)
        return left is not None and left <= 0.0

    # --- the answers -------------------------------------------------------------

    def answered(self, window: int | None) -> bool:
        """Whether this seat has answered (or sealed) `window` — also before a restart,
        when catch-up brought its own signed answer back (a second would be two-faced)."""
        if window is None:
            return False
        if window in self._answered:
            return True  # (asked at every call into the peer while the window is open)
        own = self.held(window, self.seat) or self.held_seal(window, self.seat)
        return own is not None

    def answer(self, window: int, envelope: bytes, claim: bool) -> None:
        """This seat's own signed answer."""
        self._answered.add(window)
        self.add(window, self.seat, envelope, claim)

    def held(self, window: int, seat: int) -> bytes | None:
        """`seat`'s answer in `window`, if this seat has it."""
        return next((e for s, e in self._answers.get(window, []) if s == seat), None)

    def add(self, window: int, seat: int, envelope: bytes, claim: bool) -> None:
        self._answers.setdefault(window, []).append((seat, envelope))
        if claim:
            self._calls.setdefault(window, []).append(seat)

    def seal(self, window: int, claim: bool, envelope: bytes) -> None:
        """This seat sealed `claim` in `window` (it opens it once every seal is in)."""
        self._answered.add(window)
        self._sealed[window] = claim
        self.add_seal(window, self.seat, envelope)

    def sealed_claim(self, window: int) -> bool | None:
        """The claim this seat sealed in `window` and has not opened, if any."""
        return self._sealed.get(window)

    def opened_seal(self, window: int) -> None:
        self._sealed.pop(window, None)

    def add_seal(self, window: int, seat: int, envelope: bytes) -> None:
        self._seals.setdefault(window, {})[seat] = envelope

    def held_seal(self, window: int, seat: int) -> bytes | None:
        return self._seals.get(window, {}).get(seat)

    def seals(self, window: int | None) -> list[bytes]:
        """Every seal held for `window`, by seat."""
        held = self._seals.get(window, {}) if window is not None else {}
        return [held[seat] for seat in sorted(held)]

    def unsealed(self, window: int | None, eligible: tuple[int, ...]) -> list[int]:
        """The eligible seats whose seal in `window` this seat has not seen."""
        held = self._seals.get(window, {}) if window is not None else {}
        return [seat for seat in eligible if seat not in held]

    def calls(self, window: int) -> tuple[int, ...]:
        """The seats whose calls in `window` reached this seat, in the order they did."""
        return tuple(self._calls.get(window, ()))

    def opened_at(self, window: int) -> float | None:
        """When `window` opened on this seat's clock, if it saw it open."""
        return self._clock[1] if self._clock is not None and self._clock[0] == window else None

    def answers(self, window: int | None) -> list[bytes]:
        """Every answer held for `window`, in arrival order."""
        return [] if window is None else [e for _, e in self._answers.get(window, [])]

    def unanswered(self, window: int | None, eligible: tuple[int, ...]) -> list[int]:
        """The eligible seats whose answer in `window` this seat has not seen."""
        seen = {seat for seat, _ in self._answers.get(window, [])} if window else set()
        return [seat for seat in eligible if seat not in seen]

    def closed_answer(self, window: int, seat: int, envelope: bytes, seal: bool) -> bytes | None:
        """`seat`'s answer (or seal, with `seal`) in closed `window` that this seat holds,
        to check a late `envelope` against; if it holds none, `envelope` is kept as that
        one (bounded per seat), so that a second, different one is checked against it:
        a seat that named the sender sends both to all (SPEC §4.7 "Two answers")."""
        held = self.held_seal(window, seat) if seal else self.held(window, seat)
        if held is not None:
            return held
        late = self._late.setdefault(seat, {})
        held = late.get((window, seal))
        if held is None:
            late[(window, seal)] = envelope
            while len(late) > BUY_WINDOWS_KEPT:
                del late[next(iter(late))]  # the oldest that came
        return held

    def forget_closed(self, committed: int, still_open: int | None) -> None:
        """Drop windows that have closed (bounded memory): keep the open one, answers
        for windows ahead of the committed step (they may open here soon), and the
        answers and seals of the last `BUY_WINDOWS_KEPT` windows that closed: a second,
        different answer for one of them that comes late (a seat still in the window
        holds both and sends them to all) is proof here too (`Buying.on_answer`)."""
        closed = {w for w in (*self._answers, *self._seals) if w <= committed and w != still_open}
        if len(closed) <= BUY_WINDOWS_KEPT and not any(
            w <= committed and w != still_open
            for w in (*self._answered, *self._calls, *self._sealed)
        ):
            return  # nothing to forget (most commits): every window held is kept as it is
        recent = set(sorted(closed)[-BUY_WINDOWS_KEPT:]) if BUY_WINDOWS_KEPT else set()

        def kept(w: int) -> bool:
            return w > committed or w == still_open or w in recent

        self._answers = {w: a for w, a in self._answers.items() if kept(w)}
        self._answered = {w for w in self._answered if w > committed or w == still_open}
        self._calls = {w: c for w, c in self._calls.items() if w > committed or w == still_open}
        self._seals = {w: c for w, c in self._seals.items() if kept(w)}
        self._sealed = {w: c for w, c in self._sealed.items() if w > committed or w == still_open}
