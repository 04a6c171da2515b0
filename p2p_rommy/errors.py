"""The project's errors, by whose fault they are.

`IllegalMove` is a move the rules refuse (a player's mistake or a bot's bug);
`ConfigError` is a bad game configuration or house rule; `NotationError` a card
the user typed wrong. Peer data that breaks the protocol gets its own errors in
the layers where it enters.
"""

from __future__ import annotations


class RommyError(Exception):
    """Base of every error this package raises on purpose."""


class IllegalMove(RommyError):
    """The rules refuse this move; the state it was applied to is unchanged."""


class ConfigError(RommyError):
    """A variant, house rule or player count that does not exist or does not fit."""


class NotationError(RommyError, ValueError):
    """Text that is not a card in the notation (``7H``, ``10S``, ``AS``, ``JK``)."""
