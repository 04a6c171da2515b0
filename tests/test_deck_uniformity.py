"""With every seat but one using a fixed permutation, where a chosen card ends up is
uniform: chi-square at alpha = 0.001. Positions come from the very functions the
seats shuffle with (`round_permutation`) and the audit composes (`compose`); the
full-round tests tie those to what the seats actually decrypt."""

from __future__ import annotations

import math

import pytest

from p2p_rommy.deck.derive import Seed, compose, round_permutation

CARDS = 52
TRIALS = CARDS * 150


def chi_square_critical(df: int, alpha_z: float = 3.090232) -> float:
    """Wilson-Hilferty approximation of the chi-square quantile (z for alpha = 0.001)."""
    return df * (1 - 2 / (9 * df) + alpha_z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize("honest", [0, 2, 3])
@pytest.mark.parametrize("card", [0, 37])
def test_a_chosen_card_lands_uniformly(honest, card):
    game = bytes(32)
    fixed = tuple(reversed(range(CARDS)))  # what the colluding seats always do
    counts = [0] * CARDS
    for trial in range(TRIALS):
        seed = Seed(trial.to_bytes(32, "big"))
        order = tuple(range(CARDS))
        for seat in range(4):
            step = round_permutation(game, 7, seat, 0, CARDS, seed) if seat == honest else fixed
            order = compose(order, step)
        counts[order.index(card)] += 1
    expected = TRIALS / CARDS
    statistic = sum((count - expected) ** 2 / expected for count in counts)
    assert statistic < chi_square_critical(CARDS - 1), (statistic, counts)


def test_the_critical_value_is_right():
    # chi2.ppf(0.999, 51) = 87.97 (tables); the approximation is within 0.2
    assert abs(chi_square_critical(51) - 87.97) < 0.2
