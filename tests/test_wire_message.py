"""The declared-once messages (wire/message.py): body, schema and decoder from one class."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

import pytest

from p2p_rommy.errors import ProtocolError
from p2p_rommy.wire.codec import SchemaError, array, blob, fixed, integer, pack, text, unpack
from p2p_rommy.wire.message import In, Key, Message, Out


@dataclass(frozen=True, slots=True)
class Sample(Message):
    KIND: ClassVar[str] = "test/sample"
    round_no: Annotated[int, integer(0, 9), Key("round")]
    name: Annotated[str, text(8)]
    items: Annotated[tuple[bytes, ...], array(blob(2), 3)]


@dataclass(frozen=True, slots=True)
class Reordered(Message):
    """Constructor order (a, b) differs from the wire order (b, a); a nested value."""

    KIND: ClassVar[str] = "test/reordered"
    ORDER: ClassVar[tuple[str, ...] | None] = ("b", "a")
    a: Annotated[frozenset[int], array(integer(0, 9), 3), Out(sorted), In(frozenset)]
    b: Annotated[int, integer(0, 9)]


def test_the_body_is_kind_then_the_fields_in_declared_order_under_their_wire_keys():
    message = Sample(3, "Ann", (b"ab", b"cd"))
    assert list(message.wire()) == ["kind", "round", "name", "items"]
    assert message.encode() == pack(
        {"kind": "test/sample", "round": 3, "name": "Ann", "items": [b"ab", b"cd"]}
    )
    assert Sample.decode(message.encode()) == message


def test_the_schema_is_the_declared_checks_under_the_wire_keys():
    schema = Sample.schema()
    assert schema.kind == "test/sample"
    assert list(schema.fields) == ["round", "name", "items"]


def test_order_gives_the_wire_order_and_out_and_in_convert_a_nested_value():
    message = Reordered(frozenset({2, 1}), 7)
    assert message.wire() == {"kind": "test/reordered", "b": 7, "a": [1, 2]}
    assert list(message.wire()) == ["kind", "b", "a"]
    assert Reordered.decode(message.encode()) == message
    assert Reordered.fields(unpack(message.encode())) == {"a": frozenset({1, 2}), "b": 7}


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"kind": "test/sample", "round": 3, "name": "Ann"}, "missing ['items']"),
        ({"kind": "test/other", "round": 3, "name": "A", "items": []}, "expected a test/sample"),
        ({"kind": "test/sample", "name": "A", "round": 3, "items": []}, "not in SPEC order"),
        ({"kind": "test/sample", "round": 10, "name": "A", "items": []}, "round must be"),
        ({"kind": "test/sample", "round": 1, "name": "A", "items": [b"a"]}, "items[0] must be"),
        ([1, 2], "must be a map"),
    ],
)
def test_a_malformed_body_is_refused_with_its_reason(body, reason):
    with pytest.raises(ProtocolError, match=None) as refused:
        Sample.decode(pack(body), sender=2)
    assert reason in str(refused.value)


def test_a_field_without_a_check_is_a_declaration_error():
    @dataclass(frozen=True, slots=True)
    class Unchecked(Message):
        KIND: ClassVar[str] = "test/unchecked"
        value: int

    with pytest.raises(TypeError, match="no wire check"):
        Unchecked.schema()


def test_a_config_with_a_house_value_of_no_house_type_is_refused_with_a_reason():
    """A peer's config is untrusted (SPEC §3.9): a house rule's value that is bytes is a
    protocol error naming the sender, not a crash."""
    from p2p_rommy.config import PROTOCOL_VERSION, decode_config
    from p2p_rommy.wire.identity import Identity

    key = Identity.generate().public_key
    body = {
        "kind": "config",
        "version": PROTOCOL_VERSION,
        "table": "t",
        "variant": "romme",
        "house": [["jokers", b"x"]],
        "seats": [["Ann", key], ["Bo", key]],
        "first_dealer": 0,
        "nonce": bytes(16),
    }
    with pytest.raises(ProtocolError, match="house rule value"):
        decode_config(pack(body), sender=1)


def test_every_decoding_path_runs_the_class_rule_across_fields():
    """A log message must name its signer's seat (SPEC §3.9); the rule is the class's
    `received`, so decoding with the class itself cannot skip it."""
    from p2p_rommy.log.messages import Ack, BuyAnswer

    ack = Ack(bytes(32), 4, 2, bytes(32), bytes(32))
    assert Ack.decode(ack.encode(), sender=2) == ack
    with pytest.raises(ProtocolError, match="another seat than its signer"):
        Ack.decode(ack.encode(), sender=3)
    twice = BuyAnswer(bytes(32), 4, 1, True, (1, 1))
    with pytest.raises(ProtocolError, match="lists a seat twice"):
        BuyAnswer.decode(twice.encode(), sender=1)


def test_a_config_of_another_version_is_refused_by_the_class_decoder_too():
    """`GameConfig.decode` is `decode_config`: version and canonical form are checked."""
    from dataclasses import replace

    from p2p_rommy.config import GameConfig, Seat
    from p2p_rommy.wire.identity import Identity

    seats = tuple(Seat(name, Identity.generate().public_key) for name in ("Ann", "Bo"))
    config = GameConfig("romme", (), seats, 0)
    assert GameConfig.decode(config.encode()) == config
    with pytest.raises(ProtocolError, match="protocol version 4 is not"):
        GameConfig.decode(replace(config, version=4).encode(), sender=1)
    body = unpack(config.encode())
    body["house"] = body["house"][:1]
    with pytest.raises(ProtocolError, match="not in canonical form"):
        GameConfig.decode(pack(body))


def test_an_error_names_the_nested_item_it_is_about():
    """`array` and `fixed` check their items unnamed and name the one that fails
    afterwards: the reason names the item's place exactly, however deep."""
    check = fixed(text(8), array(fixed(integer(0, 5), blob(2)), 4), blob(3))
    assert check(["a", [[1, b"xx"], [2, b"yy"]], b"abc"], "e") == (
        "a",
        ((1, b"xx"), (2, b"yy")),
        b"abc",
    )
    for value, reason in [
        (["a", [[1, b"xx"], [9, b"yy"]], b"abc"], "e[1][1][0] must be a whole number from 0 to 5"),
        (["a", [[1, b"xx"], [2, b"y"]], b"abc"], "e[1][1][1] must be 2 bytes"),
        (["a", [[1, b"xx"], [1]], b"abc"], "e[1][1] must be a list of 2 items"),
        (["a", [[1, b"xx"]], b"ab"], "e[2] must be 3 bytes"),
    ]:
        with pytest.raises(SchemaError) as refused:
            check(value, "e")
        assert str(refused.value) == reason
