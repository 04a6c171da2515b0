"""msgpack with hard limits, and a small schema checker for message bodies.

Every byte from a peer goes through `unpack` (size, container lengths, depth, no
ext types, no floats, one encoding) and then `Schema.check`; anything else raises
`ProtocolError` naming the sender. Nothing here trusts its input.

One encoding: a value has exactly one byte form, the one `pack` gives (shortest
integers, strings and containers, no duplicate map keys). `unpack` refuses any other
form, so bytes that a third party re-encoded never reach a signature check, a
comparison or a transcript, and cannot be blamed on their signer (SPEC §3.9).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgpack

from p2p_rommy.errors import ProtocolError
from p2p_rommy.i18n import N_

MAX_BODY_BYTES = 1 << 20
"""A body larger than 1 MiB is refused before decoding (a shuffle of 110 cards is ~15 KiB)."""
MAX_CONTAINER = 4096
MAX_DEPTH = 8


_PACKERS = threading.local()
"""Each thread's own `msgpack.Packer` (one is not safe to share between threads)."""


def pack(value: object) -> bytes:
    """msgpack, str for text and bin for bytes (the only encoder this project uses).
    The same bytes as `msgpack.packb(value, use_bin_type=True)`, from a packer kept per
    thread: `packb` makes a new one, and its buffer, for every value (a peer packs each
    message it signs and each it receives, to check its one encoding)."""
    try:
        packer = _PACKERS.packer
    except AttributeError:
        packer = _PACKERS.packer = msgpack.Packer(use_bin_type=True)
    data: bytes = packer.pack(value)  # resets itself, also when it raises
    return data


def _no_ext(code: int, data: bytes) -> object:
    raise ValueError(f"ext type {code} is not allowed")


_BYTES_LIKE = (bytes, bytearray, memoryview)
"""What `unpack` takes (a tuple: ``bytes | bytearray | memoryview`` would build a union
at every call)."""


def unpack(data: bytes, sender: int | str | None = None, max_bytes: int = MAX_BODY_BYTES) -> Any:
    """Decode one msgpack value within the limits, or raise `ProtocolError`."""
    if not isinstance(data, _BYTES_LIKE):
        raise ProtocolError(sender, N_("not bytes"))
    if len(data) > max_bytes:
        raise ProtocolError(
            sender,
            N_("message of {value} bytes is over the {max_bytes} limit").format(
                value=len(data), max_bytes=max_bytes
            ),
        )
    raw = bytes(data)
    try:
        value = msgpack.unpackb(
            raw,
            raw=False,
            strict_map_key=True,
            use_list=True,
            max_str_len=MAX_CONTAINER,
            max_bin_len=max_bytes,
            max_array_len=MAX_CONTAINER,
            max_map_len=64,
            max_ext_len=0,
            ext_hook=_no_ext,
        )
    except Exception as error:  # msgpack raises many kinds; all mean "not a valid message"
        raise ProtocolError(
            sender, N_("undecodable message: {error_type}").format(error_type=type(error).__name__)
        ) from None
    _check_depth_and_types(value, sender)
    if pack(value) != raw:
        raise ProtocolError(
            sender, N_("message not in canonical form (a longer encoding or a repeated map key)")
        )
    return value


_CONTAINERS = (list, dict)


def _check_depth_and_types(value: object, sender: int | str | None) -> None:
    """No floats, nesting at most `MAX_DEPTH`. The types of a container's items are
    gathered in one pass in C (a shuffle proof holds thousands of integers), and only
    containers are descended into."""
    if isinstance(value, float):
        raise ProtocolError(sender, N_("floats are not allowed"))
    if not isinstance(value, _CONTAINERS):
        return
    stack: list[tuple[list[Any] | dict[Any, Any], int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item if isinstance(item, list) else item.values()
        if depth >= MAX_DEPTH and len(children):  # its items would lie deeper
            raise ProtocolError(
                sender, N_("message nested deeper than {MAX_DEPTH}").format(MAX_DEPTH=MAX_DEPTH)
            )
        types = set(map(type, children))
        if float in types:
            raise ProtocolError(sender, N_("floats are not allowed"))
        if list in types or dict in types:
            stack.extend((child, depth + 1) for child in children if type(child) in _CONTAINERS)


Check = Callable[[Any, str], Any]
"""A field check: takes the raw value and the field name, returns the clean value or raises."""


class SchemaError(ValueError):
    pass


def integer(low: int, high: int) -> Check:
    def check(value: Any, name: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise SchemaError(
                N_("{name} must be a whole number from {low} to {high}").format(
                    name=name, low=low, high=high
                )
            )
        return value

    return check


def blob(size: int | None = None, max_size: int = MAX_BODY_BYTES) -> Check:
    def check(value: Any, name: str) -> bytes:
        if not isinstance(value, bytes):
            raise SchemaError(N_("{name} must be bytes").format(name=name))
        if size is not None and len(value) != size:
            raise SchemaError(N_("{name} must be {size} bytes").format(name=name, size=size))
        if len(value) > max_size:
            raise SchemaError(
                N_("{name} is longer than {max_size} bytes").format(name=name, max_size=max_size)
            )
        return value

    return check


def text(max_len: int) -> Check:
    def check(value: Any, name: str) -> str:
        if not isinstance(value, str) or len(value) > max_len:
            raise SchemaError(
                N_("{name} must be text of at most {max_len} characters").format(
                    name=name, max_len=max_len
                )
            )
        return value

    return check


def array(item: Check, max_len: int = MAX_CONTAINER, min_len: int = 0) -> Check:
    """A list of items that each pass `item` (named ``name[index]`` in an error)."""

    def check(value: Any, name: str) -> tuple[Any, ...]:
        if not isinstance(value, list) or not min_len <= len(value) <= max_len:
            raise SchemaError(
                N_("{name} must be a list of {min_len} to {max_len} items").format(
                    name=name, min_len=min_len, max_len=max_len
                )
            )
        try:
            return tuple([item(element, name) for element in value])
        except Exception:
            _named(((item, element) for element in value), name)
            raise

    return check


def int_array(low: int, high: int, max_len: int = MAX_CONTAINER, min_len: int = 0) -> Check:
    """`array(integer(low, high), max_len, min_len)`, checked in a few passes in C (a
    shuffle proof's permutations are thousands of integers)."""

    def check(value: Any, name: str) -> tuple[int, ...]:
        if not isinstance(value, list) or not min_len <= len(value) <= max_len:
            raise SchemaError(
                N_("{name} must be a list of {min_len} to {max_len} items").format(
                    name=name, min_len=min_len, max_len=max_len
                )
            )
        if value and (set(map(type, value)) != {int} or min(value) < low or max(value) > high):
            raise SchemaError(
                N_("{name} must hold whole numbers from {low} to {high}").format(
                    name=name, low=low, high=high
                )
            )
        return tuple(value)

    return check


def _named(checks: Iterable[tuple[Check, Any]], name: str) -> None:
    """Check items again, each named ``name[index]``, when one failed unnamed: the first
    that fails raises its error with its name. (`array` and `fixed` check their items
    unnamed, since a check's name only words its error, and naming each of a shuffle's
    hundreds of points costs more than checking it; every check is a function of its
    value, so the same item fails again, and only its error's words change.)"""
    for index, (check, value) in enumerate(checks):
        check(value, f"{name}[{index}]")


def fixed(*items: Check) -> Check:
    """A list of exactly these fields, in order (a tuple on the wire; an error names
    its item ``name[index]``)."""

    count = len(items)

    def check_all(value: Any, name: str) -> tuple[Any, ...]:
        if not isinstance(value, list) or len(value) != count:
            raise SchemaError(
                N_("{name} must be a list of {value} items").format(name=name, value=count)
            )
        try:
            return tuple([check(v, name) for check, v in zip(items, value, strict=True)])
        except Exception:
            _named(zip(items, value, strict=True), name)
            raise

    return check_all


@dataclass(frozen=True, slots=True)
class Schema:
    """A message body: a map with exactly these keys, each checked."""

    kind: str
    fields: Mapping[str, Check]
    keys: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """``kind`` and the fields' keys, in SPEC order: a well-formed body's keys, exactly."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "keys", ("kind", *self.fields))

    def check(self, body: Any, sender: int | str | None = None) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise ProtocolError(sender, N_("a {kind} message must be a map").format(kind=self.kind))
        if tuple(body) != self.keys or body["kind"] != self.kind:
            self._refuse(body, sender)
        clean = {}
        for name, check in self.fields.items():
            try:
                clean[name] = check(body[name], name)
            except SchemaError as error:
                raise ProtocolError(
                    sender,
                    N_("malformed {kind} message: {error}").format(kind=self.kind, error=error),
                ) from None
        return clean

    def _refuse(self, body: dict[Any, Any], sender: int | str | None) -> None:
        """Raise the first thing wrong with a body whose keys or kind are not this schema's."""
        expected = set(self.keys)
        if set(body) != expected:
            missing = sorted(expected - set(body))
            extra = sorted(set(body) - expected)
            raise ProtocolError(
                sender,
                N_("malformed {kind} message (missing {missing}, unexpected {extra})").format(
                    kind=self.kind, missing=missing, extra=extra
                ),
            )
        if body["kind"] != self.kind:
            raise ProtocolError(
                sender,
                N_("expected a {kind} message, not {value!r}").format(
                    kind=self.kind, value=body["kind"]
                ),
            )
        raise ProtocolError(
            sender, N_("a {kind} message's keys are not in SPEC order").format(kind=self.kind)
        )


def kind_of(body: Any, sender: int | str | None = None) -> str:
    if not isinstance(body, dict) or not isinstance(body.get("kind"), str):
        raise ProtocolError(sender, N_("a message body must be a map with a kind"))
    kind: str = body["kind"]
    return kind
