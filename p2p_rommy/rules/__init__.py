"""The three variants and their house rules as data; meld validation."""

from p2p_rommy.rules.variants import VARIANTS, RuleSet, ruleset

__all__ = ["VARIANTS", "RuleSet", "ruleset"]
