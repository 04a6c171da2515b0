"""The project's errors, by whose fault they are.

`IllegalMove` is a move the rules refuse (a player's mistake or a bot's bug);
`ConfigError` is a bad game configuration or house rule; `NotationError` a card
the user typed wrong. Peer data that breaks the protocol gets its own errors in
the layers where it enters.
"""

from __future__ import annotations

from collections.abc import Callable


def N_(message: str) -> str:
    """`i18n.N_` (which imports this module): marked here, translated where shown."""
    return message


class RommyError(Exception):
    """Base of every error this package raises on purpose."""


class IllegalMove(RommyError):
    """The rules refuse this move; the state it was applied to is unchanged.

    The reason is a message id — an English template marked for translation — and its
    values: `str()` is the English sentence, `say(translate)` the sentence in the
    client's language (every text value is translated too: "laying off", a meld's
    name; numbers and card notations are the same in every language)."""

    def __init__(self, template: str, **values: object) -> None:
        self.template = template
        self.values = values
        super().__init__(template.format(**values) if values else template)

    def say(self, translate: Callable[[str], str]) -> str:
        shown = {k: translate(v) if isinstance(v, str) else v for k, v in self.values.items()}
        return translate(self.template).format(**shown)


class ConfigError(RommyError):
    """A variant, house rule or player count that does not exist or does not fit."""


class NotationError(RommyError, ValueError):
    """Text that is not a card in the notation (``7H``, ``10S``, ``AS``, ``JK``)."""


class ProtocolError(RommyError):
    """Data from a peer broke the protocol; it is refused and nothing changes.

    `sender` is the seat (or key id, before a seat is known) the data came from,
    `step` where in the round's or log's sequence it happened, if known.
    """

    def __init__(self, sender: int | str | None, reason: str, step: int | None = None) -> None:
        self.sender = sender
        self.reason = reason
        self.step = step
        if isinstance(sender, str):
            where = "" if step is None else f" at step {step}"
            super().__init__(f"{sender}{where}: {reason}")
            return
        template = (  # whole sentences, so that `i18n.say_reason` can translate them
            (N_("a peer: {reason}") if step is None else N_("a peer at step {step}: {reason}"))
            if sender is None
            else N_("seat {seat}: {reason}")
            if step is None
            else N_("seat {seat} at step {step}: {reason}")
        )  # people count seats from 1
        seat = None if sender is None else sender + 1
        super().__init__(template.format(seat=seat, step=step, reason=reason))


class CheatDetected(ProtocolError):
    """A peer's signed data proves it broke the rules on purpose or by fault: a finding."""
