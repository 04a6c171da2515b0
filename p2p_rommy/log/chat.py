"""Chat at the table: signed `chat/say` lines, not part of the game's log.

Kept apart from consensus: a bounded list of the latest lines (a flood costs nothing),
a running count so a reader can ask what arrived since it last looked, and a token
bucket per seat (`CHAT_LINES_PER_S`, `CHAT_BURST`) past which lines are refused.
Sans-IO: time is passed in.
"""

from __future__ import annotations

from collections import deque

from p2p_rommy.limits import CHAT_BURST, CHAT_KEPT, CHAT_LINES_PER_S, TokenBucket
from p2p_rommy.log.messages import CHAT_MAX
from p2p_rommy.wire.text import chat_line


class ChatLines:
    """The latest chat lines, this seat's own included, as they arrived."""

    def __init__(self) -> None:
        self.lines: deque[tuple[int, str]] = deque(maxlen=CHAT_KEPT)
        """(seat, text) of the latest lines; older ones fall off."""
        self.count = 0
        """Lines since the start (`lines` keeps only the latest)."""
        self._buckets: dict[int, TokenBucket] = {}

    def said(self, seat: int, text: str) -> str:
        """This seat's own line, made inert and cut to length ("" if nothing is left)."""
        line = chat_line(text, CHAT_MAX)
        if line:
            self._keep(seat, line)
        return line

    def heard(self, seat: int, text: str, now: float) -> bool:
        """Another seat's line; False (not kept) when it chats faster than allowed."""
        bucket = self._buckets.setdefault(seat, TokenBucket(CHAT_LINES_PER_S, CHAT_BURST))
        if not bucket.take(now):
            return False
        self._keep(seat, chat_line(text, CHAT_MAX))
        return True

    def since(self, count: int) -> list[tuple[int, str]]:
        """The lines that arrived after the first `count` (those still kept)."""
        new = min(self.count - count, len(self.lines))
        return list(self.lines)[len(self.lines) - new :] if new > 0 else []

    def _keep(self, seat: int, line: str) -> None:
        self.lines.append((seat, line))
        self.count += 1
