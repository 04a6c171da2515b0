"""How fast a bot calls Køb!: after a human-like reaction time, never at once.

Under `buy_priority = first` the first caller wins (lp:24 "den første vinder", SPEC
§4.7). A bot that called the moment the window opened would beat every person at the
table, so a bot waits a reaction time drawn per window from its own seed, by level,
before it calls (it passes at once: a pass races nobody). A person who presses `k`
within about 0.4 s is first on every screen against every level; `rommy bench --only
bots` reports how often a prompt person wins (docs/decisions.md).
"""

from __future__ import annotations

import random

from p2p_rommy.engine.moves import Move
from p2p_rommy.engine.view import Player, View
from p2p_rommy.limits import BOT_REACTION_HIGH_S, BOT_REACTION_LOW_S, BOTS_ONLY_REACTION_S


class Reacting:
    """A bot with a reaction time: it plays and decides as `inner`, and the peer holds
    its call until `call_after_s(window)` has passed since the window opened."""

    def __init__(
        self, inner: Player, kind: str, seed: int, span: tuple[float, float] | None = None
    ) -> None:
        self.inner = inner
        self.kind = kind
        self.seed = seed
        own = getattr(inner, "reaction_s", None)
        default = (BOT_REACTION_LOW_S, BOT_REACTION_HIGH_S)
        if span is None:
            span = own if isinstance(own, tuple) else default
        self.span: tuple[float, float] = span
        """The level's reaction range, uniform between these (seconds): the heuristic
        levels' own (easy 1.2-2.6 s, normal 0.8-1.8 s, hard 0.5-1.2 s), else
        `BOT_REACTION_LOW_S` to `BOT_REACTION_HIGH_S` (or `span`, given: `hurried`)."""
        self._drawn: tuple[int, tuple[float, float], float] | None = None
        """The last (window, span, reaction time) drawn: the peer asks at every call
        while the window is open, and seeding a `Random` from a string is not cheap."""

    def choose(self, view: View) -> Move:
        return self.inner.choose(view)

    def wants_buy(self, view: View) -> bool | None:
        return self.inner.wants_buy(view)

    def call_after_s(self, window: int) -> float:
        """This bot's reaction time in `window`: drawn from its seed and the window, the
        same on every run (a replay reacts alike)."""
        drawn, span = self._drawn, self.span
        if drawn is not None and drawn[0] == window and drawn[1] == span:
            return drawn[2]
        low, high = span
        after = random.Random(f"{self.seed}/{window}").uniform(low, high)
        self._drawn = (window, span, after)
        return after


def hurried(player: Player) -> Player:
    """`player` for a table where every seat is a bot run by the same harness: there is
    no person to be fair to, so a reacting bot calls after `BOTS_ONLY_REACTION_S`.
    A new `Reacting` is returned: the bot given is left as it was."""
    if isinstance(player, Reacting):
        return Reacting(player.inner, player.kind, player.seed, BOTS_ONLY_REACTION_S)
    return player


def reacting(inner: Player, kind: str, rng: random.Random) -> Reacting:
    """`inner` with its level's reaction time, seeded from a copy of `rng` (the bot's
    own draws are left as they were)."""
    copy = random.Random()
    copy.setstate(rng.getstate())
    return Reacting(inner, kind, copy.getrandbits(64))
