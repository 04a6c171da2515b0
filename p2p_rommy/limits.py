"""Rate limits on what a peer may ask of another, and the token bucket that keeps them.

Sans-IO: a bucket is told the time (`now`, seconds on any monotonic clock). Each limit
is a named constant with its unit; SPEC §4.3 states them. (Sizes and timeouts of the
network layer are in `net/timing.py`.)
"""

from __future__ import annotations

from dataclasses import dataclass

CHAT_LINES_PER_S = 1.0
"""Chat lines a seat may send per second, on average."""
CHAT_BURST = 5
"""Chat lines a seat may send at once."""
SYNC_ASKS_PER_S = 1.0
"""Catch-up asks (`log/sync` with ask) a seat may send per second, on average."""
SYNC_BURST = 4
"""Catch-up asks a seat may send at once (one per reconnect, one per quiet spell)."""
OUTBOX_MAX = 4096
"""Envelopes queued for one link; a link that falls further behind is cut and resynced."""
LOBBY_INBOX_MAX = 64
"""Lobby messages waiting for the creator to read them."""
LOBBY_STRIKES = 5
"""Unexpected lobby messages from one member before its connection is closed."""
LOBBY_FRAME_BYTES = 64 << 10
"""Largest lobby frame (64 KiB): a lobby message is at most a few hundred bytes."""


@dataclass
class TokenBucket:
    """`rate` tokens a second, at most `burst` saved up; `take` spends one if it can."""

    rate: float
    burst: int
    tokens: float = -1.0
    at: float | None = None

    def take(self, now: float) -> bool:
        if self.at is None:
            self.tokens, self.at = float(self.burst), now
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
