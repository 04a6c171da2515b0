"""House rules in words for players (the lobby, ``rommy rules --lang``): a short name
for each rule's key, which stays the spelling for ``--house KEY=VALUE``, and its value
as a word. The names are marked `N_` here and translated where they are shown."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from p2p_rommy.i18n import N_
from p2p_rommy.rules.house import HouseValue
from p2p_rommy.rules.variants import HOUSE_RULE_SPECS, VARIANTS, ruleset

NAMES = {
    "no_adjacent_jokers": N_("no two jokers side by side"),
    "jokers_not_more_than_naturals": N_("no more jokers than natural cards"),
    "build_in_opening_turn": N_("build in the opening turn"),
    "joker_swap": N_("joker swaps"),
    "empty_stock": N_("empty stock"),
    "max_buys": N_("Køb! per round"),
    "new_melds_after_opening": N_("new melds after opening"),
    "open_players_may_buy": N_("opened players may buy"),
    "buy_priority": N_("who wins a Køb!"),
    "buy_window_ms": N_("Køb! window (ms)"),
    "swapped_joker_must_be_played": N_("a swapped joker must be laid down"),
    "target_score": N_("target score"),
    "one_new_meld_per_turn": N_("one new meld per turn"),
    "going_out_at_once_doubles": N_("going out at once doubles"),
    "joker_penalty": N_("joker in hand costs"),
    "opening_naturals_only": N_("opening from natural cards only"),
    "winner_bonus": N_("bonus for going out"),
    "never_melded_doubles": N_("never melded pays double"),
    "fixed_deals": N_("fixed number of deals"),
}
"""Every house rule key of every variant (a test checks none is missing)."""

CHOICES = {
    "shuffle": N_("shuffle the discards"),
    "turn_over": N_("turn the discards over"),
    "first": N_("the first caller"),
    "seat": N_("nearest seat"),
    "lot": N_("drawn by lot"),
}

HELP = (
    N_("a player may lay off on the table in the turn they open"),
    N_("an opened player may swap a table joker for the card it stands for"),
    N_(
        "empty stock: shuffle the discard pile but its top card into a new stock, "
        "or turn it over unshuffled"
    ),
    N_("how many times one player may buy (Køb) in a round"),
    N_("an opened player may lay new passere and løbere in later turns"),
    N_("players who have opened may also buy"),
    N_(
        "who wins when several buy: the first caller, as most seats saw it (first), "
        "the claimant nearest after the discarder (seat), "
        "or a lot drawn from the round's seed commitments (lot)"
    ),
    N_("how long the buy window stays open (milliseconds)"),
    N_("a joker taken by a swap must be laid down in the same turn"),
    N_("two jokers may not stand next to each other in a run"),
    N_("a meld may not hold more jokers than natural cards"),
    N_("the first player whose total reaches this wins the match"),
    N_("empty stock: turn the whole discard pile over unshuffled, or shuffle it"),
    N_("at most one new combination per turn"),
    N_("a winner who lays out the whole hand in one turn scores double"),
    N_("what a joker left in hand costs"),
    N_("the 40 of the first lay-down must come from natural cards alone"),
    N_("the player who goes out scores minus this many points (0: scores 0)"),
    N_("a player who never melded in the deal pays double"),
    N_("the match ends when a running total reaches this (500 or 1000 are usual)"),
    N_("play exactly this many deals instead of to the target (0: off)"),
    N_("empty stock: shuffle the discard pile but its top card, or turn it over"),
)
"""Every house rule's help text, marked for translation (a test checks none is missing)."""


def say_value(value: HouseValue | object, translate: Callable[[str], str]) -> str:
    """A house rule's value as a word: on/off, unlimited, a choice in words, a number."""
    if value is None:
        return translate(N_("unlimited"))
    if isinstance(value, bool):
        return translate(N_("on")) if value else translate(N_("off"))
    if isinstance(value, str) and value in CHOICES:
        return translate(CHOICES[value])
    return str(value)


def say_rule(key: str, value: HouseValue | object, translate: Callable[[str], str]) -> str:
    name = NAMES.get(key)
    return f"{translate(name) if name else key}: {say_value(value, translate)}"


def changed_rules(
    variant: str, house: Iterable[tuple[str, object]], translate: Callable[[str], str]
) -> str:
    """The house rules that differ from the variant's defaults, in words, or ""."""
    defaults = {spec.key: spec.default for spec in HOUSE_RULE_SPECS.get(variant, ())}
    return ", ".join(
        say_rule(key, value, translate)
        for key, value in house
        if key not in defaults or defaults[key] != value
    )


def variant_name(variant: str) -> str:
    """The variant's own name for players ("Løbere og Passere"), not its id ("lp")."""
    return ruleset(variant).name if variant in VARIANTS else variant
