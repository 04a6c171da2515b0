"""How long the deal on screen may still take, from its own pace so far.

A deal is a chain of shuffles (each proved by one seat and checked by the others), then
the cards given out. The screen cannot know this machine's or the others' speed in
advance, so it measures: once one shuffle (or one card) has gone by, the time each took
times the number still owed, less the time already spent on the current one. Pure:
time is passed in."""

from __future__ import annotations

from p2p_rommy.engine.due import Due, DueKind


class DealEstimate:
    """Feed it what is due at each redraw; it answers seconds left, or None before the
    first unit of the current kind of work has gone by (or outside a deal)."""

    def __init__(self) -> None:
        self._kind: DueKind | None = None
        self._marks: list[tuple[float, int]] = []
        """(when, how many were left) at each change of the count, this kind of work."""

    def seconds_left(self, now: float, due: Due | None) -> float | None:
        if due is None or due.kind not in (DueKind.SHUFFLE, DueKind.SHARES) or due.left <= 0:
            self._kind, self._marks = None, []
            return None
        if due.kind is not self._kind or (self._marks and due.left > self._marks[-1][1]):
            self._kind, self._marks = due.kind, []  # a new stretch: a new pass or task
        if not self._marks or self._marks[-1][1] != due.left:
            self._marks.append((now, due.left))
        if len(self._marks) < 2:
            return None
        (first_at, first_left), (last_at, last_left) = self._marks[0], self._marks[-1]
        per_unit = (last_at - first_at) / (first_left - last_left)
        return max(0.0, per_unit * due.left - (now - last_at))
