"""The three variants as data: a frozen `RuleSet` the engine reads.

The engine never branches on a variant's name; everything that differs between
Løbere og Passere, Rummy and Rommé is a field here. House rules are folded into
the same fields, so `RuleSet` is the whole truth about how a game is played.
Comments cite the rule documents in ``shared/rules/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from p2p_rommy.cards import ACE, JACK, KING, QUEEN
from p2p_rommy.errors import ConfigError
from p2p_rommy.i18n import N_, _
from p2p_rommy.rules.house import HouseRules, HouseRuleSpec, HouseValue, resolve_house_rules

VARIANTS = ("lp", "rummy", "romme")

Opening = Literal["none", "contract", "points"]
EmptyStock = Literal["shuffle", "turn_over"]
BuyPriority = Literal["first", "seat", "lot"]
Scoring = Literal["penalty", "winner_takes"]


@dataclass(frozen=True, slots=True)
class Contract:
    """Løbere og Passere: how many passere (sets) and løbere (runs) a round asks for."""

    sets: int
    runs: int

    def describe(self, set_name: str, run_name: str) -> str:
        parts = []
        if self.runs:
            parts.append(f"{self.runs} {run_name}{'' if self.runs == 1 else 'e'}")
        if self.sets:
            parts.append(f"{self.sets} {set_name}{'' if self.sets == 1 else 'e'}")
        return " + ".join(parts)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Everything about how one game is played, house rules included."""

    variant: str
    name: str
    rule_document: str
    house: HouseRules
    min_players: int
    max_players: int
    deck_size: int
    hand_sizes: tuple[tuple[int, int], ...]
    """(players, cards each) for every allowed player count."""
    dealer_extra_cards: int
    dealer_starts: bool
    """Rommé: the dealer takes 14 cards and starts by discarding, without a draw."""
    ace_high: bool
    run_min: int
    run_max: int
    set_min: int
    set_max: int
    run_name: str
    set_name: str
    opening: Opening
    contracts: tuple[Contract, ...]
    opening_points: int
    opening_naturals_only: bool
    rounds: int | None
    """A fixed number of rounds (lp: 7), or None to play to a target."""
    target_score: int | None
    scoring: Scoring
    card_points: tuple[int, ...] = field(repr=False)
    """Penalty or score of a card in hand, indexed by rank (0 = joker, 1 = ace)."""
    build_in_opening_turn: bool
    new_melds_after_opening: bool
    new_melds_in_opening_turn: bool
    one_new_meld_per_turn: bool
    joker_swap: bool
    swapped_joker_must_be_played: bool
    no_adjacent_jokers: bool
    jokers_not_more_than_naturals: bool
    discard_taken_card_barred: bool
    """Rummy: the card taken from the discard pile cannot go back on it that turn."""
    empty_stock: EmptyStock
    rebuild_keeps_top: bool
    """Whether the top discard stays out of a rebuilt stock (lp, Rommé) or goes in (Rummy)."""
    buying: bool
    max_buys: int | None
    open_players_may_buy: bool
    buy_priority: BuyPriority
    buy_window_ms: int
    hand_romme_doubles: bool
    never_melded_doubles: bool
    going_out_at_once_doubles: bool
    winner_bonus: int

    def hand_size(self, players: int) -> int:
        for count, size in self.hand_sizes:
            if count == players:
                return size
        raise ConfigError(
            _("{name} is for {low}-{high} players, not {count}").format(
                name=self.name, low=self.min_players, high=self.max_players, count=players
            )
        )

    def check_players(self, players: int) -> None:
        self.hand_size(players)

    def contract(self, round_index: int) -> Contract | None:
        """The contract of round `round_index` (0-based), for contract variants."""
        if self.opening != "contract":
            return None
        return self.contracts[round_index]

    def points(self, rank: int) -> int:
        return self.card_points[rank]

    def describe_opening(self, round_index: int) -> str:
        if self.opening == "contract":
            return self.contracts[round_index].describe(self.set_name, self.run_name)
        if self.opening == "points":
            return f"{self.opening_points} points"
        return "none"


def _points(joker: int, ace: int, court: int = 10) -> tuple[int, ...]:
    values = [joker, ace, *range(2, 11), court, court, court]
    assert len(values) == KING + 1 and values[JACK] == values[QUEEN] == court
    return tuple(values)


_JOKER_TOGGLES = (
    HouseRuleSpec(
        "no_adjacent_jokers",
        "bool",
        False,
        "two jokers may not stand next to each other in a run",
        "RULES-DECISIONS: Jokers",
    ),
    HouseRuleSpec(
        "jokers_not_more_than_naturals",
        "bool",
        False,
        "a meld may not hold more jokers than natural cards",
        "RULES-DECISIONS: Jokers",
    ),
)

LP_HOUSE_RULES: tuple[HouseRuleSpec, ...] = (
    HouseRuleSpec(
        "build_in_opening_turn",
        "bool",
        False,
        "a player may lay off on the table in the turn they open",
        "Byg i åbningsturen (standard: fra)",
    ),
    HouseRuleSpec(
        "joker_swap",
        "bool",
        True,
        "an opened player may swap a table joker for the card it stands for",
        "Byt joker (standard: til)",
    ),
    HouseRuleSpec(
        "empty_stock",
        "choice",
        "shuffle",
        "empty stock: shuffle the discard pile but its top card into a new stock, "
        "or turn it over unshuffled",
        "Tom bunke (standard: bland)",
        choices=("shuffle", "turn_over"),
    ),
    HouseRuleSpec(
        "max_buys",
        "int",
        None,
        "how many times one player may buy (Køb) in a round",
        "Maks. køb pr. runde (standard: ubegrænset)",
        maximum=20,
        unlimited=True,
    ),
    HouseRuleSpec(
        "new_melds_after_opening",
        "bool",
        True,
        "an opened player may lay new passere and løbere in later turns",
        "Nye meldinger efter åbning (standard: til)",
    ),
    HouseRuleSpec(
        "open_players_may_buy",
        "bool",
        True,
        "players who have opened may also buy",
        "RULES-DECISIONS: Køb",
    ),
    HouseRuleSpec(
        "buy_priority",
        "choice",
        "first",
        "who wins when several buy: the first caller, as most seats saw it (first), "
        "the claimant nearest after the discarder (seat), "
        "or a lot drawn from the round's seed commitments (lot)",
        "Køb: »den første vinder«; RULES-DECISIONS: Køb; docs/fairness.md",
        choices=("first", "seat", "lot"),
    ),
    HouseRuleSpec(
        "buy_window_ms",
        "int",
        5000,
        "how long the buy window stays open (milliseconds)",
        "RULES-DECISIONS: Køb",
        minimum=1000,
        maximum=60000,
    ),
    HouseRuleSpec(
        "swapped_joker_must_be_played",
        "bool",
        False,
        "a joker taken by a swap must be laid down in the same turn",
        "RULES-DECISIONS: Joker swap",
    ),
    *_JOKER_TOGGLES,
)

RUMMY_HOUSE_RULES: tuple[HouseRuleSpec, ...] = (
    HouseRuleSpec(
        "target_score",
        "int",
        100,
        "the first player whose total reaches this wins the match",
        "Avtal eksempelvis å spille til 100 poeng",
        minimum=1,
        maximum=100000,
    ),
    HouseRuleSpec(
        "empty_stock",
        "choice",
        "turn_over",
        "empty stock: turn the whole discard pile over unshuffled, or shuffle it",
        "Hvis trekkbunken blir tom",
        choices=("turn_over", "shuffle"),
    ),
    HouseRuleSpec(
        "one_new_meld_per_turn",
        "bool",
        False,
        "at most one new combination per turn",
        "Noen varianter tillater bare én ny kombinasjon per tur",
    ),
    HouseRuleSpec(
        "going_out_at_once_doubles",
        "bool",
        False,
        "a winner who lays out the whole hand in one turn scores double",
        "... eller gir dobbel poengsum når en spiller går ut på én gang",
    ),
)

ROMME_HOUSE_RULES: tuple[HouseRuleSpec, ...] = (
    HouseRuleSpec(
        "joker_penalty",
        "int",
        20,
        "what a joker left in hand costs",
        "Joker: 20 (Nogle borde hæver joker-straffen til 25 eller 30)",
        allowed=(20, 25, 30),
    ),
    HouseRuleSpec(
        "opening_naturals_only",
        "bool",
        False,
        "the 40 of the first lay-down must come from natural cards alone",
        "strengere grupper kræver, at de 40 kommer fra naturlige kort alene",
    ),
    HouseRuleSpec(
        "winner_bonus",
        "int",
        0,
        "the player who goes out scores minus this many points (0: scores 0)",
        "eller en negativ bonus, hvis den mulighed er slået til",
        maximum=500,
    ),
    HouseRuleSpec(
        "never_melded_doubles",
        "bool",
        False,
        "a player who never melded in the deal pays double",
        "en spiller, der aldrig fik meldt noget ... fordoble sit eget tal",
    ),
    HouseRuleSpec(
        "target_score",
        "int",
        500,
        "the match ends when a running total reaches this (500 or 1000 are usual)",
        "udslagsgrænse: ... 500 (At spille til 1000 ...)",
        minimum=1,
        maximum=100000,
    ),
    HouseRuleSpec(
        "fixed_deals",
        "int",
        0,
        "play exactly this many deals instead of to the target (0: off)",
        "Alternativet er et fast antal givninger",
        maximum=100,
    ),
    HouseRuleSpec(
        "joker_swap",
        "bool",
        False,
        "an opened player may swap a table joker for the card it stands for",
        "RULES-DECISIONS: not in the rule document",
    ),
    HouseRuleSpec(
        "swapped_joker_must_be_played",
        "bool",
        False,
        "a joker taken by a swap must be laid down in the same turn",
        "RULES-DECISIONS: Joker swap",
    ),
    HouseRuleSpec(
        "empty_stock",
        "choice",
        "shuffle",
        "empty stock: shuffle the discard pile but its top card, or turn it over",
        "RULES-DECISIONS: Rommé",
        choices=("shuffle", "turn_over"),
    ),
    *_JOKER_TOGGLES,
)

HOUSE_RULE_SPECS: dict[str, tuple[HouseRuleSpec, ...]] = {
    "lp": LP_HOUSE_RULES,
    "rummy": RUMMY_HOUSE_RULES,
    "romme": ROMME_HOUSE_RULES,
}

# loebere-og-passere: "De 7 runder" table.
LP_CONTRACTS = (
    Contract(sets=2, runs=0),
    Contract(sets=1, runs=1),
    Contract(sets=0, runs=2),
    Contract(sets=3, runs=0),
    Contract(sets=2, runs=1),
    Contract(sets=1, runs=2),
    Contract(sets=0, runs=3),
)


def _lp(house: HouseRules) -> RuleSet:
    return RuleSet(
        variant="lp",
        name="Løbere og Passere",
        rule_document="loebere-og-passere.da.txt",
        house=house,
        # "3-5 spillere. ... (108 kort). Hver spiller får 11 kort."
        min_players=3,
        max_players=5,
        deck_size=108,
        hand_sizes=((3, 11), (4, 11), (5, 11)),
        dealer_extra_cards=0,
        dealer_starts=False,
        # "Es er enten højt (B-D-K-E) eller lavt (E-2-3-4), aldrig begge dele"
        ace_high=True,
        # "Løber: mindst 4 kort i træk"; "Passer: mindst 3 ... (højst 4)"
        run_min=4,
        run_max=13,
        set_min=3,
        set_max=4,
        run_name="løber",
        set_name="passer",
        opening="contract",
        contracts=LP_CONTRACTS,
        opening_points=0,
        opening_naturals_only=False,
        rounds=7,
        target_score=None,
        scoring="penalty",
        # "joker 25, es 15, 10/B/D/K 10, 2-9 kortets værdi"
        card_points=_points(joker=25, ace=15),
        build_in_opening_turn=bool(house["build_in_opening_turn"]),
        new_melds_after_opening=bool(house["new_melds_after_opening"]),
        new_melds_in_opening_turn=False,
        one_new_meld_per_turn=False,
        joker_swap=bool(house["joker_swap"]),
        swapped_joker_must_be_played=bool(house["swapped_joker_must_be_played"]),
        no_adjacent_jokers=bool(house["no_adjacent_jokers"]),
        jokers_not_more_than_naturals=bool(house["jokers_not_more_than_naturals"]),
        discard_taken_card_barred=False,
        empty_stock=_empty_stock(house),
        rebuild_keeps_top=True,
        buying=True,
        max_buys=_limit(house, "max_buys"),
        open_players_may_buy=bool(house["open_players_may_buy"]),
        buy_priority=_buy_priority(house),
        buy_window_ms=_int(house, "buy_window_ms"),
        hand_romme_doubles=False,
        never_melded_doubles=False,
        going_out_at_once_doubles=False,
        winner_bonus=0,
    )


def _rummy(house: HouseRules) -> RuleSet:
    return RuleSet(
        variant="rummy",
        name="Rummy",
        rule_document="rummy.nb.txt",
        house=house,
        # "| 2 | 10 |", "| 3–4 | 7 |", "| 5–6 | 6 |"; "52 kort uten jokere"
        min_players=2,
        max_players=6,
        deck_size=52,
        hand_sizes=((2, 10), (3, 7), (4, 7), (5, 6), (6, 6)),
        dealer_extra_cards=0,
        dealer_starts=False,
        # "I denne varianten er ess lavest ... Dame–konge–ess ... er ikke tillatt."
        ace_high=False,
        run_min=3,
        run_max=13,
        set_min=3,
        set_max=4,
        run_name="sekvens",
        set_name="gruppe",
        opening="none",
        contracts=(),
        opening_points=0,
        opening_naturals_only=False,
        rounds=None,
        target_score=_int(house, "target_score"),
        scoring="winner_takes",
        # "Ess 1, 2–10 kortets tallverdi, knekt, dame og konge 10"
        card_points=_points(joker=0, ace=ACE),
        build_in_opening_turn=True,
        new_melds_after_opening=True,
        new_melds_in_opening_turn=True,
        one_new_meld_per_turn=bool(house["one_new_meld_per_turn"]),
        joker_swap=False,
        swapped_joker_must_be_played=False,
        no_adjacent_jokers=False,
        jokers_not_more_than_naturals=False,
        # "Tok du toppkortet fra kastebunken, kan du ikke kaste det samme kortet tilbake"
        discard_taken_card_barred=True,
        empty_stock=_empty_stock(house),
        # "snur dere hele kastebunken"
        rebuild_keeps_top=False,
        buying=False,
        max_buys=0,
        open_players_may_buy=False,
        buy_priority="seat",
        buy_window_ms=0,
        hand_romme_doubles=False,
        never_melded_doubles=False,
        going_out_at_once_doubles=bool(house["going_out_at_once_doubles"]),
        winner_bonus=0,
    )


def _romme(house: HouseRules) -> RuleSet:
    fixed_deals = _int(house, "fixed_deals")
    return RuleSet(
        variant="romme",
        name="Rommé",
        rule_document="romme.da.txt",
        house=house,
        # "to spil med 52 kort og seks jokere — 110 kort";
        # "tretten kort til hver spiller; kortgiveren tager fjorten"
        min_players=2,
        max_players=6,
        deck_size=110,
        hand_sizes=tuple((n, 13) for n in range(2, 7)),
        dealer_extra_cards=1,
        dealer_starts=True,
        # "Es: 11 — eller 1, når det bruges lavt i en es-to-tre-række"
        ace_high=True,
        run_min=3,
        run_max=13,
        set_min=3,
        set_max=4,
        run_name="række",
        set_name="sæt",
        opening="points",
        contracts=(),
        # "Dine allerførste meldinger ... mindst 40 point lagt på én gang"
        opening_points=40,
        opening_naturals_only=bool(house["opening_naturals_only"]),
        rounds=fixed_deals or None,
        target_score=None if fixed_deals else _int(house, "target_score"),
        scoring="penalty",
        card_points=_points(joker=_int(house, "joker_penalty"), ace=11),
        # "Derefter må du bygge kort på alles meldinger og lægge frit ned."
        build_in_opening_turn=True,
        new_melds_after_opening=True,
        new_melds_in_opening_turn=True,
        one_new_meld_per_turn=False,
        joker_swap=bool(house["joker_swap"]),
        swapped_joker_must_be_played=bool(house["swapped_joker_must_be_played"]),
        no_adjacent_jokers=bool(house["no_adjacent_jokers"]),
        jokers_not_more_than_naturals=bool(house["jokers_not_more_than_naturals"]),
        discard_taken_card_barred=False,
        empty_stock=_empty_stock(house),
        rebuild_keeps_top=True,
        buying=False,
        max_buys=0,
        open_players_may_buy=False,
        buy_priority="seat",
        buy_window_ms=0,
        hand_romme_doubles=True,
        never_melded_doubles=bool(house["never_melded_doubles"]),
        going_out_at_once_doubles=False,
        winner_bonus=_int(house, "winner_bonus"),
    )


_BUILDERS = {"lp": _lp, "rummy": _rummy, "romme": _romme}


# --- reading validated house rules as their types (the specs checked the values) ---


def _int(house: HouseRules, key: str) -> int:
    value = house[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(N_("house rule {key} is not a whole number").format(key=key))
    return value


def _limit(house: HouseRules, key: str) -> int | None:
    """A whole number, or None for unlimited."""
    return None if house[key] is None else _int(house, key)


def _empty_stock(house: HouseRules) -> EmptyStock:
    value = house["empty_stock"]
    if value == "shuffle":
        return "shuffle"
    if value == "turn_over":
        return "turn_over"
    raise ConfigError(
        N_("house rule empty_stock is shuffle or turn_over, not {value!r}").format(value=value)
    )


def _buy_priority(house: HouseRules) -> BuyPriority:
    value = house["buy_priority"]
    if value == "first":
        return "first"
    if value == "seat":
        return "seat"
    if value == "lot":
        return "lot"
    raise ConfigError(
        N_("house rule buy_priority is first, seat or lot, not {value!r}").format(value=value)
    )


def ruleset(variant: str, house: Mapping[str, HouseValue | str] | None = None) -> RuleSet:
    """The rule set of `variant` with `house` overriding its house-rule defaults."""
    if variant not in _BUILDERS:
        raise ConfigError(
            N_("no variant {variant!r}; the variants are {value}").format(
                variant=variant, value=", ".join(VARIANTS)
            )
        )
    resolved = resolve_house_rules(HOUSE_RULE_SPECS[variant], variant, house)
    return _BUILDERS[variant](resolved)
