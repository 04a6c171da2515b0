"""A plain-text summary of a variant and its house rules (``rommy rules``)."""

from __future__ import annotations

from p2p_rommy.rules.house import HouseRuleSpec
from p2p_rommy.rules.variants import HOUSE_RULE_SPECS, ruleset

_SUMMARIES = {
    "lp": [
        "Contract rummy in 7 rounds; each round has its own contract to lay down first.",
        "3-5 players, 108 cards (2 packs + 4 jokers), 11 cards each, upcard turned.",
        "Passer: 3-4 of a rank, all suits different. Løber: 4+ in a row in one suit,",
        "ace high (J-Q-K-A) or low (A-2-3-4), never both. Jokers stand for any card;",
        "every meld needs a natural card.",
        "Turn: draw (stock or discard), lay down (the first time: the whole contract at",
        "once), discard one card unless you just laid your last.",
        "Køb!: the next player may take a discard as their draw; if they draw from the",
        "stock instead, the others may buy it and take one penalty card from the stock.",
        "Scoring: the closer 0; others joker 25, ace 15, 10/J/Q/K 10, 2-9 face value.",
        "Lowest total after 7 rounds wins.",
    ],
    "rummy": [
        "Norwegian basic rummy. 2-6 players, 52 cards without jokers, ace low only.",
        "Hands: 2 players 10 cards, 3-4 players 7, 5-6 players 6; upcard turned.",
        "Gruppe: 3-4 of a rank. Sekvens: 3+ in a row in one suit (A-2-3 yes, Q-K-A no).",
        "Turn: draw (stock or discard), lay out and add to any melds if you like,",
        "discard one card. A card taken from the discard pile cannot be discarded in",
        "the same turn. Your last card may be melded, laid off or discarded.",
        "Scoring: the round winner scores the sum of the others' hands (ace 1, 2-10",
        "face, J/Q/K 10). First to the target score wins.",
    ],
    "romme": [
        "German home rummy. 2-6 players, 110 cards (2 packs + 6 jokers).",
        "13 cards each; the dealer takes 14 and starts by discarding, with no draw.",
        "Sæt: 3-4 of a rank, suits different. Række: 3+ in a row in one suit, ace low",
        "(A-2-3) or high (Q-K-A). Your first melds in a deal must be worth 40 points at",
        "once (a joker counts as the card it stands for); after that build freely.",
        "Penalty in hand: 2-10 face, J/Q/K 10, ace 11, joker 20. Going out in one turn",
        "without having melded before (hand-rommé) doubles every opponent's count.",
        "The match ends when a total reaches the target; lowest total wins.",
    ],
}


def rules_summary(variant: str) -> str:
    """The summary, contracts (lp), and every house rule with its default."""
    rules = ruleset(variant)
    lines = [f"{rules.name} ({variant}) - rule document: shared/rules/{rules.rule_document}", ""]
    lines += ["  " + line for line in _SUMMARIES[variant]]
    if rules.opening == "contract":
        lines += ["", "  Contracts:"]
        for index, contract in enumerate(rules.contracts):
            lines.append(
                f"    round {index + 1}: {contract.describe(rules.set_name, rules.run_name)}"
            )
    lines += ["", "  House rules (--house KEY=VALUE):"]
    for spec in HOUSE_RULE_SPECS[variant]:
        default = HouseRuleSpec.format_value(spec.default)
        lines.append(f"    {spec.key} = {default}  ({spec.describe_values()})")
        lines.append(f"        {spec.help}")
    return "\n".join(lines)
