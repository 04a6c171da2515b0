"""A plain-text summary of a variant and its house rules (``rommy rules``), in the
client's language when given a `translate` (``rommy rules --lang da``)."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from p2p_rommy.i18n import N_
from p2p_rommy.rules.house import HouseRuleSpec
from p2p_rommy.rules.variants import HOUSE_RULE_SPECS, ruleset

_SUMMARIES = {
    "lp": N_(
        "Contract rummy in 7 rounds; each round has its own contract to lay down first.\n"
        "3-5 players, 108 cards (2 packs + 4 jokers), 11 cards each, upcard turned.\n"
        "Passer: 3-4 of a rank, all suits different. Løber: 4+ in a row in one suit,\n"
        "ace high (J-Q-K-A) or low (A-2-3-4), never both. Jokers stand for any card;\n"
        "every meld needs a natural card.\n"
        "Turn: draw (stock or discard), lay down (the first time: the whole contract at\n"
        "once), discard one card unless you just laid your last.\n"
        "Køb!: the next player may take a discard as their draw; if they draw from the\n"
        "stock instead, the others may buy it and take one penalty card from the stock.\n"
        "Scoring: the closer 0; others joker 25, ace 15, 10/J/Q/K 10, 2-9 face value.\n"
        "Lowest total after 7 rounds wins."
    ),
    "rummy": N_(
        "Norwegian basic rummy. 2-6 players, 52 cards without jokers, ace low only.\n"
        "Hands: 2 players 10 cards, 3-4 players 7, 5-6 players 6; upcard turned.\n"
        "Gruppe: 3-4 of a rank. Sekvens: 3+ in a row in one suit (A-2-3 yes, Q-K-A no).\n"
        "Turn: draw (stock or discard), lay out and add to any melds if you like,\n"
        "discard one card. A card taken from the discard pile cannot be discarded in\n"
        "the same turn. Your last card may be melded, laid off or discarded.\n"
        "Scoring: the round winner scores the sum of the others' hands (ace 1, 2-10\n"
        "face, J/Q/K 10). First to the target score wins."
    ),
    "romme": N_(
        "German home rummy. 2-6 players, 110 cards (2 packs + 6 jokers).\n"
        "13 cards each; the dealer takes 14 and starts by discarding, with no draw.\n"
        "Sæt: 3-4 of a rank, suits different. Række: 3+ in a row in one suit, ace low\n"
        "(A-2-3) or high (Q-K-A). Your first melds in a deal must be worth 40 points at\n"
        "once (a joker counts as the card it stands for); after that build freely.\n"
        "Penalty in hand: 2-10 face, J/Q/K 10, ace 11, joker 20. Going out in one turn\n"
        "without having melded before (hand-rommé) doubles every opponent's count.\n"
        "The match ends when a total reaches the target; lowest total wins."
    ),
}


def _same(text: str) -> str:
    return text


def describe_values(spec: HouseRuleSpec, translate: Callable[[str], str]) -> str:
    """What values a rule takes, as typed after ``--house KEY=``, in words around them."""
    either = translate(N_("{first} or {second}"))
    if spec.kind == "bool":
        return either.format(first="on", second="off")
    if spec.kind == "choice":
        text = spec.choices[0]
        for choice in spec.choices[1:]:
            text = either.format(first=text, second=choice)
        return text
    if spec.allowed:
        text = str(spec.allowed[0])
        for allowed in spec.allowed[1:]:
            text = either.format(first=text, second=allowed)
    else:
        text = translate(N_("a whole number from {minimum} to {maximum}")).format(
            minimum=spec.minimum, maximum=spec.maximum
        )
    return either.format(first=text, second="unlimited") if spec.unlimited else text


def rules_summary(variant: str, translate: Callable[[str], str] = _same) -> str:
    """The summary, contracts (lp), and every house rule with its default."""
    rules = ruleset(variant)
    lines = [
        translate(N_("{name} ({variant}) - rule document: {document}")).format(
            name=rules.name, variant=variant, document=f"shared/rules/{rules.rule_document}"
        ),
        "",
    ]
    for line in translate(_SUMMARIES[variant]).splitlines():
        lines += _wrapped(line, "  ", "  ")
    if rules.opening == "contract":
        lines += ["", "  " + translate(N_("Contracts:"))]
        for index, contract in enumerate(rules.contracts):
            lines.append(
                "    "
                + translate(N_("round {number}: {contract}")).format(
                    number=index + 1, contract=contract.describe(rules.set_name, rules.run_name)
                )
            )
    lines += ["", "  " + translate(N_("House rules (--house KEY=VALUE):"))]
    for spec in HOUSE_RULE_SPECS[variant]:
        default = HouseRuleSpec.format_value(spec.default)
        lines += _wrapped(
            f"{spec.key} = {default}  ({describe_values(spec, translate)})", "    ", " " * 6
        )
        lines += _wrapped(translate(spec.help), " " * 8, " " * 8)
    return "\n".join(lines)


WIDTH = 80
"""A terminal's usual width: every line of the summary fits it, in every language."""


def _wrapped(text: str, first: str, rest: str) -> list[str]:
    return textwrap.wrap(
        text, WIDTH, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False
    ) or [first.rstrip()]
