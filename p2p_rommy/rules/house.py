"""Typed house rules: their specs, defaults, parsing and validation.

A house rule is fixed at game start and shown in the lobby. Each variant lists
its specs in `p2p_rommy.rules.variants`; this module only knows the kinds of
values (on/off, a number in a range, one of some words) and how to read them from
``KEY=VALUE`` text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from p2p_rommy.errors import ConfigError
from p2p_rommy.i18n import _

HouseValue = bool | int | str | None
"""A house rule's value; None stands for "unlimited" where a spec allows it."""

_TRUE = {"on", "true", "yes", "1", "til"}
_FALSE = {"off", "false", "no", "0", "fra"}


@dataclass(frozen=True, slots=True)
class HouseRuleSpec:
    """One house rule: its key, kind of value, default and what it means."""

    key: str
    kind: Literal["bool", "int", "choice"]
    default: HouseValue
    help: str
    source: str = ""
    """Where it comes from: the rule document's own name for it, or the decision."""
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int = 1_000_000
    allowed: tuple[int, ...] = ()
    """For an int rule with a fixed menu (joker penalty 20/25/30)."""
    unlimited: bool = False
    """An int rule that may also be ``unlimited`` (stored as None)."""

    def parse(self, text: str) -> HouseValue:
        """Read a value from text, or raise `ConfigError` saying what is accepted."""
        word = text.strip().lower()
        if self.kind == "bool":
            if word in _TRUE:
                return True
            if word in _FALSE:
                return False
            raise ConfigError(
                _("house rule {key} is on or off, not {value!r}").format(key=self.key, value=text)
            )
        if self.kind == "choice":
            if word in self.choices:
                return word
            raise ConfigError(
                _("house rule {key} is one of {choices}, not {value!r}").format(
                    key=self.key, choices=", ".join(self.choices), value=text
                )
            )
        if self.unlimited and word in ("unlimited", "none", "inf", "ubegrænset"):
            return None
        try:
            number = int(word)
        except ValueError:
            raise ConfigError(
                _("house rule {key} is {values}, not {value!r}").format(
                    key=self.key, values=self.describe_values(), value=text
                )
            ) from None
        return self.validate(number)

    def validate(self, value: HouseValue) -> HouseValue:
        """Check a typed value against this spec; return it or raise `ConfigError`."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ConfigError(
                    _("house rule {key} is on or off, not {value!r}").format(
                        key=self.key, value=value
                    )
                )
            return value
        if self.kind == "choice":
            if value not in self.choices:
                raise ConfigError(
                    _("house rule {key} is one of {choices}, not {value!r}").format(
                        key=self.key, choices=", ".join(self.choices), value=value
                    )
                )
            return value
        if value is None and self.unlimited:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(self._not(value))
        if self.allowed and value not in self.allowed:
            raise ConfigError(self._not(value))
        if not self.minimum <= value <= self.maximum:
            raise ConfigError(self._not(value))
        return value

    def _not(self, value: object) -> str:
        return _("house rule {key} is {values}, not {value!r}").format(
            key=self.key, values=self.describe_values(), value=value
        )

    def describe_values(self) -> str:
        """What values this rule takes, for help and error messages."""
        if self.kind == "bool":
            return _("on or off")
        either = _(" or ")
        if self.kind == "choice":
            return either.join(self.choices)
        if self.allowed:
            text = either.join(str(v) for v in self.allowed)
        else:
            text = _("a whole number from {low} to {high}").format(
                low=self.minimum, high=self.maximum
            )
        return text + (_(" or unlimited") if self.unlimited else "")

    @staticmethod
    def format_value(value: HouseValue) -> str:
        if value is None:
            return "unlimited"
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)


@dataclass(frozen=True, slots=True)
class HouseRules:
    """A variant's house rules with every value filled in, in spec order."""

    values: tuple[tuple[str, HouseValue], ...]

    def __getitem__(self, key: str) -> HouseValue:
        for name, value in self.values:
            if name == key:
                return value
        raise KeyError(key)

    def as_dict(self) -> dict[str, HouseValue]:
        return dict(self.values)


def resolve_house_rules(
    specs: Iterable[HouseRuleSpec],
    variant: str,
    overrides: Mapping[str, HouseValue | str] | None = None,
) -> HouseRules:
    """Defaults overlaid with `overrides` (typed values or text), all validated.

    An unknown key is an error that names the valid ones.
    """
    specs = tuple(specs)
    by_key = {spec.key: spec for spec in specs}
    values = {spec.key: spec.default for spec in specs}
    for key, value in (overrides or {}).items():
        spec = by_key.get(key.replace("-", "_"))
        if spec is None:
            valid = ", ".join(by_key) or "-"
            raise ConfigError(
                _("{variant} has no house rule {key!r}; its house rules are: {valid}").format(
                    variant=variant, key=key, valid=valid
                )
            )
        values[spec.key] = spec.parse(value) if isinstance(value, str) else spec.validate(value)
    return HouseRules(tuple((spec.key, values[spec.key]) for spec in specs))


def parse_assignments(items: Iterable[str]) -> dict[str, str]:
    """Split ``KEY=VALUE`` command-line items; a malformed one is a `ConfigError`."""
    result: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ConfigError(
                _("write house rules as KEY=VALUE (like max_buys=2), not {item!r}").format(
                    item=item
                )
            )
        result[key.strip()] = value.strip()
    return result
