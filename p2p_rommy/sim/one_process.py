"""What the seats of one simulated table share because they run in one process: a
seam for volume, like the fast group, that changes no result.

- **Verified signatures are remembered.** On a real table each seat checks each
  envelope once, where it arrives (issue 28). Here every seat of the table, and then
  `rommy verify`'s checker on every honest transcript, checks the same bytes again: a
  4-seat lp game checked each envelope about seven times. Strict Ed25519 verification
  is a pure function of (key, signature, message), so the answer remembered for those
  exact bytes is the answer a fresh check gives; a forged or altered envelope is other
  bytes and is checked (and refused) like any other.
- **The deck's work runs on one thread** under the fast group: `deck/parallel.py`
  splits proofs over threads because libsodium releases the GIL; the fast group's
  arithmetic is Python integers, which never do, so the threads only cost. The results
  are the same bytes on one thread or many (`parallel.each`).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from p2p_rommy.deck import parallel
from p2p_rommy.wire import identity

SIGNATURES_KEPT = 1 << 16
"""Verified (key, signature, message) answers remembered: a 4-seat lp game has ~10,000
envelopes, each checked by every seat within a few steps of its arrival."""

T = TypeVar("T")
R = TypeVar("R")


def _serial(function: Callable[[T], R], items: Iterable[T], cores: int = 1) -> list[R]:
    return [function(item) for item in items]


@contextlib.contextmanager
def one_process(threads: bool = True) -> Iterator[None]:
    """Inside: signatures checked once per process (and the deck on one thread unless
    `threads`). The production functions are back on the way out."""
    verify, each = identity.verify_signature, parallel.each
    identity.verify_signature = functools.lru_cache(maxsize=SIGNATURES_KEPT)(verify)
    if not threads:
        parallel.each = _serial
    try:
        yield
    finally:
        identity.verify_signature, parallel.each = verify, each
