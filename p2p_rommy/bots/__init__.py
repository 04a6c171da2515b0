"""Players that choose moves from a seat's view: random-legal, the heuristic bot's
levels, and the frozen reference player the bench measures them against."""

from __future__ import annotations

import random

from p2p_rommy.engine.view import Player
from p2p_rommy.errors import ConfigError
from p2p_rommy.i18n import _

BOT_KINDS = ("random", "easy", "normal", "hard", "reference")


def make_bot(kind: str, rng: random.Random) -> Player:
    """A player of this kind: ``random`` (random-legal), a heuristic level, or
    ``reference`` (the frozen yardstick, `bots/reference.py`), calling Køb! after a
    human-like reaction time (`bots/reaction.py`)."""
    from p2p_rommy.bots.heuristic import HeuristicBot
    from p2p_rommy.bots.random_player import RandomPlayer
    from p2p_rommy.bots.reaction import reacting
    from p2p_rommy.bots.reference import ReferenceBot

    if kind == "random":
        return reacting(RandomPlayer(rng), kind, rng)
    if kind in ("easy", "normal", "hard"):
        return reacting(HeuristicBot(kind, rng), kind, rng)
    if kind == "reference":
        return reacting(ReferenceBot("normal", rng), kind, rng)
    raise ConfigError(_no_bot(kind))


def parse_bots(text: str | None, players: int) -> list[str]:
    """``normal,random,random`` -> one kind per seat (a single kind fills every seat)."""
    if not text:
        return ["random"] * players
    kinds = [part.strip() for part in text.split(",") if part.strip()]
    for kind in kinds:
        if kind not in BOT_KINDS:
            raise ConfigError(_no_bot(kind))
    if len(kinds) == 1:
        return kinds * players
    if len(kinds) != players:
        raise ConfigError(
            _("--bots names {count} bots for {players} players").format(
                count=len(kinds), players=players
            )
        )
    return kinds


def _no_bot(kind: str) -> str:
    return _("no bot {kind!r}; the bots are {kinds}").format(kind=kind, kinds=", ".join(BOT_KINDS))
