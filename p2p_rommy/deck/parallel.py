"""Independent pieces of one proof, computed on every core.

The per-card pieces of a shuffle proof and of its check are independent. libsodium
(through cffi) releases the GIL during a scalar multiplication, so threads run them in
parallel. Results come back in order and nothing random is drawn here (the prover draws all
its entropy first, in order), so a proof is the same bytes on one core or many.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

CORES = max(1, os.cpu_count() or 1)
_POOL = ThreadPoolExecutor(max_workers=CORES, thread_name_prefix="rommy-proof")


def each(function: Callable[[T], R], items: Iterable[T], cores: int = CORES) -> list[R]:
    """`[function(item) for item in items]`, the items split across `cores` threads."""
    work = list(items)
    if cores <= 1 or len(work) < 2:
        return [function(item) for item in work]
    size = -(-len(work) // cores)
    chunks = [work[start : start + size] for start in range(0, len(work), size)]
    futures = [_POOL.submit(lambda chunk: [function(i) for i in chunk], c) for c in chunks]
    return [result for future in futures for result in future.result()]
