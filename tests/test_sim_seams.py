"""The simulator's seams for volume (`sim/toy_group.py`, `sim/one_process.py`) and the
deck seat's remembered answers give the answers the plain computation gives (issue #31:
they were made cheaper, and must change no game)."""

from __future__ import annotations

import random

import pytest

from p2p_rommy.deck import DeckParams, DeckPhase, DeckSeat, group
from p2p_rommy.errors import ProtocolError
from p2p_rommy.sim import toy_group as toy
from p2p_rommy.sim.one_process import one_process
from p2p_rommy.wire import identity
from p2p_rommy.wire.codec import MAX_BODY_BYTES
from p2p_rommy.wire.identity import Identity
from tests.deck_table import DeckTable

ORDER = group.ORDER


def _scalars() -> list[bytes]:
    draw = random.Random(31)
    edges = [1, 2, ORDER - 1, ORDER, ORDER + 1, 2**252, 2**255, 2**256 - 1]
    values = edges + [draw.randrange(1, 2**256) for _ in range(60)]
    return [value.to_bytes(32, "little") for value in values]


@pytest.mark.parametrize("name", ["scalar_mul", "scalar_add", "scalar_sub"])
def test_the_toy_groups_scalar_arithmetic_is_libsodiums_byte_for_byte(name: str) -> None:
    """Scalars are the integers mod l in both groups: a proof made under the toy group
    holds the bytes libsodium would have computed, canonical or not."""
    scalars = _scalars()
    for a in scalars:
        for b in scalars[::7]:
            assert getattr(toy, name)(a, b) == getattr(group, name)(a, b), (a, b)
    for a in scalars:
        assert toy.scalar_reduce(a + a) == group.scalar_reduce(a + a)
        if a != bytes(32):
            assert toy.scalar_invert(a) == group.scalar_invert(a)


def test_the_toy_groups_points_keep_the_equations_and_the_refusals() -> None:
    """x -> x*B: multiplying, adding and summing agree with the integers mod l, and what
    the real group refuses (no point, the identity, a zero scalar) is refused."""
    three, five = (3).to_bytes(32, "little"), (5).to_bytes(32, "little")
    point = toy.mul_base(three)
    assert toy.mul(five, point) == toy.mul_base((15).to_bytes(32, "little"))
    assert toy.add(point, point) == toy.mul_base((6).to_bytes(32, "little"))
    assert toy.mul_sum([three, five], [point, point]) == toy.mul_base((24).to_bytes(32, "little"))
    assert toy.sum_all([point, toy.mul_base((ORDER - 3).to_bytes(32, "little")), point]) == point
    for bad in (bytes(32), ORDER.to_bytes(32, "little"), b"\x01" * 31, "x"):
        assert not toy.is_point(bad)
        with pytest.raises(group.GroupError):
            toy.mul(three, bad)
    with pytest.raises(group.GroupError):
        toy.mul(ORDER.to_bytes(32, "little"), point)
    with pytest.raises(group.GroupError):
        toy.mul_base(bytes(32))
    with pytest.raises(group.GroupError):
        toy.add(point, toy.mul_base((ORDER - 3).to_bytes(32, "little")))
    with pytest.raises(group.GroupError):
        toy.sum_all([])


def test_in_one_process_an_envelope_signed_here_splits_as_a_fresh_split_would() -> None:
    """The fields of an envelope made here are remembered from its making: the same
    (key id, body, signature) a split finds; one the split refuses is still refused;
    signing again gives libsodium's signature; outside, the production functions."""
    seat = Identity(bytes(range(32)))
    split, sign = identity.envelope_fields, Identity.sign
    fresh = seat.sign(b"body")
    with one_process():
        envelope = seat.sign(b"body")
        assert envelope == fresh
        assert identity.envelope_fields(envelope) == split(envelope)
        assert identity.envelope_fields(envelope)[0] == seat.key_id
        assert seat.signature(b"again") == seat.signature(b"again")
        huge = seat.sign(bytes(MAX_BODY_BYTES + 1))
        with pytest.raises(ProtocolError):
            identity.envelope_fields(huge)
    assert identity.envelope_fields is split and Identity.sign is sign
    assert seat.signature(b"again") == Identity(bytes(range(32))).signature(b"again")


def _seen(seat: DeckSeat) -> tuple[object, ...]:
    """What a deck seat knows and owes, as plain values."""
    return (
        seat.phase,
        seat.context,
        [(p.index, dict(p.keys), list(p.decks)) for p in seat.passes],
        [(type(task).__name__, task.cursor) for task in seat.tasks],
        dict(seat.chain),
        dict(seat.known),
        dict(seat.public),
        [opened.raw for opened in seat.transcript],
        seat.due(False),
        seat.due(True),
    )


def _deliver(table: DeckTable) -> int:
    """`DeckTable.run`, each envelope taken first by a fork of its receiver: the fork
    ends where the seat ends, and the seat is untouched by it; the remembered `due` is
    the one worked out afresh after every message."""
    taken = 0
    while table.queue:
        sender, envelope = table.queue.popleft()
        for seat in table.seats:
            if seat.seat == sender:
                continue
            before = _seen(seat)
            copy = seat.fork()
            copy.take(envelope)
            assert _seen(seat) == before
            seat.take(envelope)
            assert _seen(copy) == _seen(seat)
            for seeds_due in (False, True):
                assert seat.due(seeds_due) == seat._work_out_due(seeds_due)
            taken += 1
            table.post(seat.seat, seat.advance())
    return taken


def test_a_deck_seats_fork_and_remembered_due_follow_every_message() -> None:
    """Through commits, shuffles, shares, a rebuilt stock and seeds (issue #31: a fork
    shares what is never written again, `due` is remembered until the seat changes)."""
    table = DeckTable(DeckParams(bytes(32), 0, 3, 1, 12))
    for seat in table.seats:
        table.post(seat.seat, seat.start())
    assert _deliver(table) > 0
    for position in range(4):
        for seat in table.seats:
            table.post(seat.seat, seat.draw(position, position % 3))
        _deliver(table)
    for seat in table.seats:
        table.post(seat.seat, seat.reveal(0, [0, 3]))
    _deliver(table)
    for seat in table.seats:
        table.post(seat.seat, seat.rebuild(12, [table.seats[0].known[0], 7]))
    _deliver(table)
    for seat in table.seats:
        table.post(seat.seat, seat.draw(12, 1))
    _deliver(table)
    for seat in table.seats:
        table.post(seat.seat, seat.finish())
    _deliver(table)
    assert all(seat.phase is DeckPhase.DONE for seat in table.seats)
    assert all(
        seat.public == {0: table.seats[0].known[0], 3: table.seats[0].known[3]}
        for seat in table.seats
    )


def test_in_one_process_the_seats_states_are_the_plain_engines() -> None:
    """The log's `apply`, `new_game` and `state_hash` remembered in one process answer
    what the engine's answer: equal states and the same hashes for every move of a
    match (asked again, and from an equal state that is another object), a refused
    move refused every time; the engine's own functions are back on the way out."""
    from p2p_rommy.engine.apply import apply, new_game
    from p2p_rommy.engine.encoding import state_hash
    from p2p_rommy.engine.moves import Discard, DrawStock
    from p2p_rommy.errors import IllegalMove
    from p2p_rommy.log import buy_checks, replica, round_decks, seated_replica
    from p2p_rommy.rules import ruleset
    from p2p_rommy.simulate import play_match, random_players

    rules = ruleset("lp")
    steps = []
    rng = random.Random(7)
    before = [(new_game(rules, 3, 1), ())]

    def observe(table, move):  # type: ignore[no-untyped-def]
        steps.append((*before[0], move))
        before[0] = (table.state, table.truth)

    play_match(rules, random_players(3, rng), rng, 1, observe)
    modules = (replica, round_decks, buy_checks, seated_replica)
    others = 0
    with one_process():
        shared = replica.new_game(ruleset("lp"), 3, 1)
        assert shared == new_game(rules, 3, 1)
        assert replica.new_game(ruleset("lp"), 3, 1) is shared  # every seat starts from it
        for state, truth, move in steps:
            plain = apply(state, move)
            for module in modules:
                after = module.apply(state, move)
                assert after == plain and after is module.apply(state, move)
                assert replica.state_hash(after) == state_hash(plain)
            twin = type(state)(*(getattr(state, f) for f in state.__slots__))
            assert twin is not state and replica.apply(twin, move) == plain
            if isinstance(move, Discard):  # another card of the same hand: another state
                for slot in state.hands[move.seat]:
                    other = Discard(move.seat, slot, truth[slot])
                    if other != move:
                        assert replica.apply(state, other) == apply(state, other) != plain
                        others += 1
                        break
        for _ in range(2):  # refused, and refused again: nothing kept
            with pytest.raises(IllegalMove):
                replica.apply(shared, DrawStock(0))
    assert len(steps) > 200 and others > 50
    assert all(m.apply is apply for m in modules)  # type: ignore[attr-defined]
    assert replica.state_hash is state_hash  # type: ignore[attr-defined]
    assert replica.new_game is new_game  # type: ignore[attr-defined]


def test_in_one_process_an_opened_envelope_is_what_a_fresh_open_gives() -> None:
    """An envelope opened again is answered from memory only under a roster that holds
    the same (seat, key) for its signer: another seat's roster opens it afresh, an
    unseated key and a bad signature are refused every time; outside, the production
    function is back in every module that opens envelopes."""
    from p2p_rommy.deck import audit
    from p2p_rommy.deck import seat as deck_seat
    from p2p_rommy.log import buy_checks, buying, certificates, replica, transcript

    plain = identity.open_envelope
    signer, other = Identity(bytes(range(32))), Identity(bytes(range(1, 33)))
    roster = identity.roster_of([other.public_key, signer.public_key])
    moved = identity.roster_of([signer.public_key, other.public_key])
    envelope = signer.sign(b"body")
    forged = envelope[:-1] + bytes([envelope[-1] ^ 1])
    with one_process():
        first = identity.open_envelope(envelope, roster)
        assert first == plain(envelope, roster) and first.seat == 1
        assert identity.open_envelope(envelope, roster) is first
        assert buy_checks.open_envelope(envelope, dict(roster)) is first  # an equal roster
        assert identity.open_envelope(envelope, moved) == plain(envelope, moved)
        assert identity.open_envelope(envelope, moved).seat == 0
        for _ in range(2):
            with pytest.raises(ProtocolError):
                identity.open_envelope(envelope, identity.roster_of([other.public_key]))
            with pytest.raises(ProtocolError):
                identity.open_envelope(forged, roster)
    modules = (identity, buying, buy_checks, replica, certificates, transcript, deck_seat, audit)
    assert all(module.open_envelope is plain for module in modules)  # type: ignore[attr-defined]


def test_in_one_process_every_opened_envelope_of_a_match_is_a_fresh_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Over whole simulated matches (with crashes and disk faults), every envelope the
    seats open in one process is what the production function answers for the same
    bytes and roster, and most are answered from memory."""
    from p2p_rommy.sim import one_process as seams
    from p2p_rommy.sim.plan import Spec
    from p2p_rommy.sim.runner import run_game

    plain = identity.open_envelope
    remembered = seams._OpenedEnvelopes.__call__
    asked = [0, 0]

    def checked(self, data, roster):  # type: ignore[no-untyped-def]
        asked[0] += 1
        asked[1] += data in self._known
        try:
            fresh = plain(data, roster)
        except ProtocolError as error:
            with pytest.raises(ProtocolError) as refused:
                remembered(self, data, roster)
            assert str(refused.value) == str(error)
            return remembered(self, data, roster)
        opened = remembered(self, data, roster)
        assert opened == fresh
        return opened

    monkeypatch.setattr(seams._OpenedEnvelopes, "__call__", checked)
    for seed in (5, 7):  # a crash, a torn write, a cut link; an adversary withholding ACKs
        outcome = run_game(Spec.draw(seed), verify_share=0.0)
        assert outcome.faults and not outcome.violations
    assert asked[0] > 1000 and asked[1] > asked[0] // 2, asked


def test_the_simulated_disk_holds_the_bytes_the_store_writes() -> None:
    """The simulated disk encodes its frames when a file is read (issue #31): what it
    holds, written or durable, after a crash, a torn write or a full disk, is the
    bytes of `frame_record(record.encode())` and of the ACK frame written at once."""
    from p2p_rommy.log.messages import Record
    from p2p_rommy.log.transcript import MAGIC, frame_record
    from p2p_rommy.sim.disk import DiskFull, SimDisk, Torn
    from p2p_rommy.sim.plan import Spec
    from p2p_rommy.sim.runner import Simulation
    from p2p_rommy.wire.codec import pack

    genesis = Simulation(Spec.draw(3), 0.0).genesis
    draw = random.Random(31)
    records = [
        Record(draw.randbytes(draw.choice([40, 900, 15000])), (draw.randbytes(130), b"", b"a"))
        for _ in range(40)
    ]
    disk = SimDisk(genesis)
    durable = written = MAGIC + frame_record(genesis.encode())
    acked = b""
    for index, record in enumerate(records):
        frame = frame_record(record.encode())
        if index % 9 == 4:  # a torn write: half the frame reaches the disk
            disk.tear = True
            with pytest.raises(Torn):
                disk.append(record)
            durable = written = written + frame[: len(frame) // 2]
        elif index % 9 == 7:  # a full disk refuses it
            disk.full = True
            with pytest.raises(DiskFull):
                disk.append(record)
            with pytest.raises(DiskFull):
                disk.save_ack(record.step, record.acks[0])
            disk.full = False
        else:
            disk.sync = index % 5 != 2  # a store that did not fsync this one
            disk.append(record)
            disk.save_ack(record.step, record.acks[0])
            written += frame
            last = frame_record(pack([record.step, record.acks[0]]))
            if disk.sync:
                durable, acked = written, last
        if index % 6 == 5:
            disk.crash()
            written = durable
        assert disk.transcript.written == written
        assert disk.transcript.durable == durable
        assert disk.acked.durable == acked
    disk.sync = True
    disk.save_ack(records[0].step, records[0].acks[0])
    disk.crash()
    assert disk.load_acked() == (records[0].step, records[0].acks[0])


def test_in_one_process_every_round_audit_of_a_match_is_a_fresh_audit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every round audit the seats of whole simulated matches ask for in one process is
    the report the plain audit gives for the same arguments, each seat's a copy of its
    own (changing one changes no other), and most come from memory; outside, the plain
    function is back."""
    from p2p_rommy.deck import audit
    from p2p_rommy.log import round_decks
    from p2p_rommy.sim import one_process as seams
    from p2p_rommy.sim.plan import Spec
    from p2p_rommy.sim.runner import run_game

    plain = audit.audit_round
    remembered = seams._RememberedAudits.__call__
    asked = [0, 0]

    def checked(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        known = len(self._known)
        report = remembered(self, *args, **kwargs)
        asked[0] += 1
        asked[1] += len(self._known) == known
        assert report == plain(*args, **kwargs)
        assert all(report is not kept for kept in self._known.values())
        report.findings.append(audit.Finding(None, 0, "changed by its seat"))
        report.cards.clear()
        again = remembered(self, *args, **kwargs)
        assert again == plain(*args, **kwargs)
        return again

    monkeypatch.setattr(seams._RememberedAudits, "__call__", checked)
    for seed in (5, 7, 8):  # rummy to a target: several rounds each
        outcome = run_game(Spec.draw(seed), verify_share=0.0)
        assert not outcome.violations
    assert asked[0] >= 6 and asked[1] >= asked[0] // 2, asked
    assert round_decks.audit_round is plain  # type: ignore[attr-defined]
