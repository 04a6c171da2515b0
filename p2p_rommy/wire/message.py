"""A wire message declared once: its frozen dataclass gives its body, schema and decoder.

A message is a frozen dataclass that subclasses `Message`, names its ``KIND`` and
annotates each field with its check (`p2p_rommy.wire.codec`):

    @dataclass(frozen=True, slots=True)
    class CoinCommit(Message):
        KIND: ClassVar[str] = "coin/commit"
        lobby: Annotated[bytes, blob(32)]
        digest: Annotated[bytes, blob(32)]

From that one declaration come the body (`wire`: ``kind`` first, then the fields in their
declared order, which is the SPEC's key order, or in ``ORDER`` where the constructor's
order differs), the `Schema` that checks a received body (types, bounds, exact keys,
key order) and the decoder that turns a checked body into the value. A field's wire key
is its name unless a `Key` says otherwise; a field whose value is not plain msgpack
(tuples, bytes, text, numbers) names an `Out` that gives its wire form and an `In` that
builds the value from the checked wire form. A rule across fields (a seat that must be
the signer's) is the class's `received`, which every decoding path runs; what a message
means for the state it arrives in (which table, whose turn) is checked by its module.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from p2p_rommy.wire.codec import Check, Schema, pack, unpack


@dataclass(frozen=True, slots=True)
class Key:
    """The field's key on the wire, where it differs from its name (``round_no`` is ``round``)."""

    name: str


@dataclass(frozen=True, slots=True)
class Out:
    """How the field's value is written, where it is not plain msgpack (a nested value)."""

    convert: Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class In:
    """How the field's checked wire form becomes its value, where that is a nested value."""

    convert: Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class _Field:
    name: str
    key: str
    check: Check
    out: Callable[[Any], Any] | None
    into: Callable[[Any], Any] | None


@dataclass(frozen=True, slots=True)
class _Layout:
    schema: Schema
    fields: tuple[_Field, ...]
    writes: tuple[tuple[str, str, Callable[[Any], Any] | None], ...]
    """Each field's wire key, name and `Out` conversion, in wire order."""
    intos: tuple[Callable[[Any], Any] | None, ...] | None
    """Where the wire order is the constructor's, each field's `In` conversion (None
    for a field that has none): the value is built positionally (the fast path)."""
    plain: bool
    """The wire order is the constructor's and no field converts: build from the checked
    values as they are."""
    checks: bool
    """The class says a `received` rule: run it on each decoded value."""


_LAYOUTS: dict[type, _Layout] = {}


def _field(name: str, hint: Any, owner: str) -> _Field:
    key, check, out, into = name, None, None, None
    for item in getattr(hint, "__metadata__", ()):
        if isinstance(item, Key):
            key = item.name
        elif isinstance(item, Out):
            out = item.convert
        elif isinstance(item, In):
            into = item.convert
        elif callable(item):
            check = item
    if check is None:
        raise TypeError(f"{owner}.{name} has no wire check (annotate it Annotated[type, check])")
    return _Field(name, key, check, out, into)


def _layout(cls: type[Message]) -> _Layout:
    """The fields of `cls` read once from its annotations, in wire order."""
    layout = _LAYOUTS.get(cls)
    if layout is not None:
        return layout
    hints = typing.get_type_hints(cls, include_extras=True)
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls.__name__} must be a frozen dataclass")
    names = [f.name for f in dataclasses.fields(cls)]
    order = list(cls.ORDER) if cls.ORDER is not None else names
    if sorted(order) != sorted(names):
        raise TypeError(f"{cls.__name__}.ORDER must name each field once")
    fields = tuple(_field(name, hints[name], cls.__name__) for name in order)
    schema = Schema(cls.KIND, {f.key: f.check for f in fields})
    intos = tuple(f.into for f in fields) if order == names else None
    plain = intos is not None and all(into is None for into in intos)
    writes = tuple((f.key, f.name, f.out) for f in fields)
    checks = cls.received is not Message.received
    layout = _Layout(schema, fields, writes, intos, plain, checks)
    _LAYOUTS[cls] = layout
    return layout


class Message:
    """The base of a declared message (a frozen dataclass; see the module's text)."""

    __slots__ = ()
    KIND: ClassVar[str]
    ORDER: ClassVar[tuple[str, ...] | None] = None
    """The fields' names in wire order, where that is not the constructor's order."""

    @classmethod
    def schema(cls) -> Schema:
        return _layout(cls).schema

    def wire(self) -> dict[str, Any]:
        """The body as a map: ``kind``, then each field's wire form, in SPEC order."""
        layout = _LAYOUTS.get(type(self)) or _layout(type(self))
        body: dict[str, Any] = {"kind": self.KIND}
        for key, name, out in layout.writes:
            value = getattr(self, name)
            body[key] = value if out is None else out(value)
        return body

    def encode(self) -> bytes:
        """The canonical bytes of the body (tuples are written as msgpack arrays)."""
        return pack(self.wire())

    @classmethod
    def fields(cls, body: Any, sender: int | str | None = None) -> dict[str, Any]:
        """The field values a received body holds, by name (checked, and converted where
        a field says `In`); `ProtocolError` if malformed."""
        layout = _LAYOUTS.get(cls) or _layout(cls)
        clean = layout.schema.check(body, sender)
        return {
            f.name: clean[f.key] if f.into is None else f.into(clean[f.key]) for f in layout.fields
        }

    @classmethod
    def from_body(cls, body: Any, sender: int | str | None = None) -> Self:
        """The message a received body holds; `ProtocolError` if malformed."""
        make: Callable[..., Self] = cls  # a dataclass: its fields are its parameters
        layout = _LAYOUTS.get(cls) or _layout(cls)
        if layout.plain:
            message = make(*layout.schema.check(body, sender).values())
        elif layout.intos is not None:
            clean = layout.schema.check(body, sender).values()
            pairs = zip(clean, layout.intos, strict=True)
            message = make(*[value if into is None else into(value) for value, into in pairs])
        else:
            message = make(**cls.fields(body, sender))
        if layout.checks:
            message.received(sender)
        return message

    def received(self, sender: int | str | None) -> None:
        """Raise `ProtocolError` if this value, just decoded from `sender`, breaks a rule
        its fields' checks cannot say alone (a field that must name the signer, a list
        without repeats). Every decoding path runs it; by default there is none."""

    @classmethod
    def decode(cls, data: bytes, sender: int | str | None = None) -> Self:
        """The message these bytes hold; `ProtocolError` if undecodable or malformed."""
        return cls.from_body(unpack(data, sender), sender)
