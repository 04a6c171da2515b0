"""Spec issue: SPEC §2 is self-contained — a reader rebuilds every state vector from it
and docs/rules.md. Its table of decks, players and hand sizes and its lists of house
rules (order and defaults) must match the rules as the engine has them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from p2p_rommy.cards import composition
from p2p_rommy.rules import ruleset

SPEC = (Path(__file__).parent.parent / "protocol" / "SPEC.md").read_text()
SECTION = SPEC.split("## 2. Game state encoding and hash", 1)[1].split("## 3. Deck protocol", 1)[0]


def spec_value(text: str) -> object:
    text = text.strip().strip("`")
    if text in ("true", "false"):
        return text == "true"
    if text == "nil":
        return None
    if text.startswith('"'):
        return text.strip('"')
    return int(text)


@pytest.mark.parametrize("variant", ["lp", "rummy", "romme"])
def test_the_house_rules_in_spec_order_with_their_defaults(variant):
    block = re.search(rf"^- `{variant}`: (.*?)(?=^- `|\n\n)", SECTION, re.MULTILINE | re.DOTALL)
    assert block, variant
    pairs = re.findall(r"`([a-z_]+)` (`[^`]*`|[a-z0-9]+)", " ".join(block.group(1).split()))
    stated = tuple((name, spec_value(value)) for name, value in pairs)
    assert stated == ruleset(variant).house.values


@pytest.mark.parametrize("variant", ["lp", "rummy", "romme"])
def test_decks_players_and_hand_sizes(variant):
    row = re.search(rf"^\| `{variant}` \| (.*) \|$", SECTION, re.MULTILINE)
    assert row, variant
    decks, jokers, cards, players, hand, extra, _ = [c.strip() for c in row.group(1).split("|")]
    rules = ruleset(variant)
    deck = composition(rules.deck_size)
    assert int(cards) == rules.deck_size == len(deck.cards)
    assert int(jokers) == sum(1 for card in deck.cards if card.is_joker)
    assert int(decks) * 52 + int(jokers) == rules.deck_size
    low, high = (int(n) for n in players.split("–"))
    assert (low, high) == (rules.min_players, rules.max_players)
    sizes = {p: rules.hand_size(p) for p in range(low, high + 1)}
    if hand.isdigit():
        assert set(sizes.values()) == {int(hand)}
    else:
        for size, span in re.findall(r"(\d+) for (\d+(?:–\d+)?) players?", hand):
            first, *last = (int(n) for n in span.split("–"))
            for p in range(first, (last[0] if last else first) + 1):
                assert sizes[p] == int(size), (variant, p)
    assert (extra != "none") == (rules.dealer_extra_cards == 1)
