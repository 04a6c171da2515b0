"""The values a replica's check gives back, and a round's deck as a replica holds it.

A step is checked against the committed state without changing it (`Replica.check`):
what the step leads to is a `Tentative` — the engine state after it, the state hash
every seat must ACK, a buy step's ranked claims, an end's seats — and the deck
messages it carries are taken on a copy of their deck's seat (`DeckAfter`). The commit
applies it. `RoundDeck` is a round's deck: its seat, its log and this seat's messages
not yet proposed.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from p2p_rommy.deck import DeckSeat
from p2p_rommy.engine.state import GameState
from p2p_rommy.log.buy_race import Race

STATE_DOMAIN = b"p2p-rommy/v1/log-state\x00"
"""The domain of the state hash every seat ACKs (SPEC §4.4)."""


@dataclass
class Tentative:
    """A checked, not yet committed step and everything it leads to (`Replica.check`):
    the replica itself changes only when `commit` applies it."""

    n: int
    proposer: int
    state: GameState
    hash: bytes
    kind: str
    claims: tuple[int, ...] = ()
    """A buy step's claimants, in the order the window's priority ranks them."""
    race: Race | None = None
    """Under `buy_priority = first`: how the race settled (votes per claimant)."""
    deck: DeckAfter | None = None
    """The deck messages the step carries (a deck message, a move's reveal), taken on
    a copy of their deck."""
    end: tuple[tuple[int, ...], str] | None = None
    """An end step's (seats left out, reason)."""


@dataclass
class DeckAfter:
    """A step's deck messages taken by a copy of the deck seat they belong to
    (`DeckSeat.after`): the round's deck keeps its committed seat until the step
    commits, and then takes this one."""

    round: RoundDeck
    """The deck they belong to (the round's, or the next round's)."""
    seat: DeckSeat
    """`round.seat` with the messages taken."""
    entries: tuple[bytes, ...]
    """The envelopes, for the deck's log."""
    made: list[bytes] = field(default_factory=list)
    """What this replica's seat sends next, made on `seat` as soon as the step was
    checked (its shuffle pipelined, SPEC §3.3): the deck's outbox at commit."""
    background: bool = False
    """A step of the next round's deck (`next_deck`)."""


@dataclass
class RoundDeck:
    seat: DeckSeat
    log: list[bytes] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)
    """The log step of each entry of `log`."""
    rebuilt: list[list[int]] = field(default_factory=list)
    dealt: bool = False
    outbox: deque[bytes] = field(default_factory=deque)
    """This replica's messages for this deck that the peer has not proposed."""
