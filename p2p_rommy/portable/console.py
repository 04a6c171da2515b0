"""Output: text a console or file in a legacy code page (cp1252) cannot encode."""

from __future__ import annotations

from typing import TextIO

SUITS = "♠♥♦♣"


def can_show(stream: TextIO, text: str = SUITS) -> bool:
    """Whether `stream`'s encoding can write `text` (cp1252 and ASCII cannot write the
    suit symbols: then suits are shown as letters, as with --ascii)."""
    try:
        text.encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def tolerant(stream: TextIO) -> None:
    """Make `stream` write a character its encoding lacks as "?" instead of raising
    UnicodeEncodeError (a name in another script on a cp1252 console or in a file
    written with a legacy code page)."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None and not can_show(stream, "\U0010fffd"):
        reconfigure(errors="replace")
