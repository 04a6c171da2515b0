"""The bench's clock per seat (`rommy bench --only deck`, issue #27): a proof taken on
trust is checked in its seat's idle time, gives way to the seat's turn, and is done
before a call that must follow it (SPEC §3.3)."""

from __future__ import annotations

import pytest

from p2p_rommy.bench import _Core


def test_a_check_fills_idle_time_and_gives_way_to_the_turn():
    core = _Core()
    assert core.call(0.0, 1.0, checked_first=False) == 1.0
    core.checks.append([1.0, 3.0])  # taken on trust in that call: 3 s to check
    # a message at 2.0: the check ran from 1.0 to 2.0 and waits behind the turn
    assert core.call(2.0, 0.5, checked_first=False) == 2.5
    assert core.checks == [[1.0, 2.0]]
    # a call that must follow the check: the 2 s left first, then the call
    assert core.call(2.6, 0.5, checked_first=True) == pytest.approx(5.0)
    assert core.checks == []


def test_checks_run_in_order_and_none_before_it_is_ready():
    core = _Core()
    core.checks += [[0.0, 1.0], [5.0, 1.0]]
    assert core.call(3.0, 1.0, checked_first=False) == 4.0  # the first check was done by 1.0
    assert core.checks == [[5.0, 1.0]]
    assert core.call(4.5, 0.1, checked_first=True) == pytest.approx(6.1)  # 5.0 to 6.0, then it
