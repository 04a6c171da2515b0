"""SPEC §4.4 "An end outranks the last step of the seat it leaves out": a seat away while
its own ACK was the last one a step lacked commits that step alone when it comes back,
while the others, who never had that ACK, ended the game without it for the same
number. It takes the step back and commits the end (found by the simulator with long
absences, session 15: seeds 55, 93 and 446 of `rommy bench --only sim --long`; before,
its log stayed one record apart from the table's for good)."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2p_rommy.errors import ProtocolError
from p2p_rommy.log.events import Committed, Note
from p2p_rommy.log.messages import EndStep, Record, Step
from p2p_rommy.log.transcript import Genesis, sign_config
from p2p_rommy.log.trouble import decode_step
from p2p_rommy.seat import storage
from p2p_rommy.seat.storage import GameStore
from tests.clocked_table import ClockedTable
from tests.test_ending import stuck_on_an_ack

LATE = 3
"""The seat away (the last of four), whose ACK of the step in flight never left."""


def ended_without_the_late_seat() -> tuple[ClockedTable, Record, Record]:
    """Seats 0-2 hold seat 0's step n with their ACKs; seat 3 left before it came. They
    wait their stall limit and end the game without it at n. Returns the table, the
    step's record as seat 3 would commit it (every ACK but its own, which it adds) and
    the end's record."""
    table = stuck_on_an_ack()
    pending = table.peers[0].pending
    assert pending is not None
    step, acks = pending.envelope, [pending.acks[s][1] for s in range(LATE)]
    table.tick(31.0)
    table.post(0, table.peers[0].end_game(LATE, 31.0))
    table.run()
    for peer in table.peers[:LATE]:
        assert peer.replica.ended is not None and peer.replica.n == pending.n
    return table, Record(step, tuple(acks)), table.peers[0].records[-1]


def commit_alone(table: ClockedTable, step: Record) -> list[bytes]:
    """Seat 3 comes back and reads what was queued for it: the step and every other
    seat's ACK of it. It commits the step from what it holds; its own ACK never leaves."""
    late = table.peers[LATE]
    n = late.replica.n + 1
    for envelope in (step.step, *step.acks):
        late.receive(envelope, 60.0, 0)
    assert late.replica.n == n and late.records[-1].step == step.step
    assert late.replica.ended is None
    return [record.step for record in late.records]


def test_the_seat_left_out_takes_back_the_step_it_committed_alone():
    table, step, end = ended_without_the_late_seat()
    commit_alone(table, step)
    late = table.peers[LATE]
    events = late.receive(end.step, 60.0, 0)
    assert late.replica.ended is None  # the end alone is not its certificate
    for ack in end.acks:
        if ack:
            events += late.receive(ack, 60.0, 0)
    assert late.replica.ended is not None and late.replica.ended[0] == (LATE,)
    assert list(late.records) == list(table.peers[0].records)
    (committed,) = [e for e in events if isinstance(e, Committed)]
    assert committed.replaces and committed.n == late.replica.n
    assert any(isinstance(e, Note) and "their end takes its place" in e.text for e in events)
    report = table.report(LATE)
    assert report.status == "fair" and report.forfeited == (LATE,), report.text()


def test_the_end_s_acks_may_come_before_the_end():
    table, step, end = ended_without_the_late_seat()
    commit_alone(table, step)
    late = table.peers[LATE]
    for ack in end.acks:
        if ack:
            late.receive(ack, 60.0, 0)
    assert late.replica.ended is None and late.records[-1].step == step.step
    late.receive(end.step, 60.0, 0)
    assert late.replica.ended is not None
    assert list(late.records) == list(table.peers[0].records)


def test_until_every_signer_has_acked_the_step_stands():
    """The end's certificate is every seat it does not leave out: with one ACK missing
    the step stands (the end may never commit), and the missing ACK completes it."""
    table, step, end = ended_without_the_late_seat()
    mine = commit_alone(table, step)
    late = table.peers[LATE]
    late.receive(end.step, 60.0, 0)
    signed = [ack for ack in end.acks if ack]
    for ack in signed[:-1]:
        late.receive(ack, 60.0, 0)
    late.tick(61.0)
    assert late.replica.ended is None and [r.step for r in late.records] == mine
    assert late.ousted == end.step
    late.receive(signed[-1], 61.0, 0)
    assert late.replica.ended is not None


def test_only_an_end_that_leaves_this_seat_out_replaces_its_step():
    """An end without another seat is not this seat's to take in its step's place (a
    signer of an end never takes one: it holds no step of that number, honestly)."""
    table, step, end = ended_without_the_late_seat()
    commit_alone(table, step)
    late = table.peers[LATE]
    body = decode_step(end.step).body
    assert isinstance(body, EndStep)
    other = EndStep((1,), body.reason)
    assert not late._end_for_last(  # an end without seat 1 instead: not for this seat
        Step(late.replica.game, end_step(end).n, 0, end_step(end).prev, other), b"", 60.0
    )


def end_step(record: Record) -> Step:
    return decode_step(record.step)


def test_catch_up_brings_the_end_to_the_seat_it_left_out():
    """The seat left out asks (a link comes up); a seat that ended the game without it
    answers with the end, though both are at the same number."""
    table, step, _ = ended_without_the_late_seat()
    commit_alone(table, step)
    late = table.peers[LATE]
    table.down.discard(LATE)
    table.post(LATE, late.link_up(0, 60.0))
    table.run()
    assert late.replica.ended is not None
    assert list(late.records) == list(table.peers[0].records)


def test_the_replica_checks_the_end_against_the_state_before_the_step():
    table, step, end = ended_without_the_late_seat()
    commit_alone(table, step)
    replica = table.peers[LATE].replica
    ended = end_step(end)
    body = ended.body
    assert isinstance(body, EndStep)
    before = replica.n
    tentative = replica.check_overturn(ended, body)
    assert replica.n == before and replica.ended is None  # nothing changed
    assert tentative.hash in replica.overturn_hashes()
    wrong = Step(ended.game, ended.n, ended.seat, replica.committed_hash, body)
    with pytest.raises(ProtocolError, match="does not build on the committed state"):
        replica.check_overturn(wrong, body)  # built on the step's state, not the one before
    later = Step(ended.game, ended.n + 1, ended.seat, ended.prev, body)
    with pytest.raises(ProtocolError, match="cannot replace"):
        replica.check_overturn(later, body)


def test_an_end_replaces_nothing_after_an_end():
    table, _, end = ended_without_the_late_seat()
    replica = table.peers[0].replica
    ended = end_step(end)
    assert isinstance(ended.body, EndStep)
    assert replica.overturn_hashes() == {}
    with pytest.raises(ProtocolError, match="cannot replace"):
        replica.check_overturn(ended, ended.body)


# --- on disk -------------------------------------------------------------------------


def store_with(tmp_path: Path, table: ClockedTable, records: list[Record]) -> GameStore:
    config = table.config
    genesis = Genesis(
        config, config.encode(), tuple(sign_config(config, i) for i in table.identities)
    )
    store = GameStore(tmp_path, config.game_id)
    store.begin(genesis)
    for record in records:
        store.append(record)
    return store


def test_the_transcript_s_last_record_is_replaced(tmp_path: Path):
    """`GameStore.replace_last`: the file holds the end in the step's place; read back
    (`rommy resume`, `rommy verify`) it is the table's transcript."""
    table, step, end = ended_without_the_late_seat()
    commit_alone(table, step)
    late = table.peers[LATE]
    records = list(late.records)
    store = store_with(tmp_path, table, records)
    store.replace_last(end)
    assert store.held() == len(records)
    assert store.read(len(records) - 1) == [end]
    store.close()
    loaded = GameStore(tmp_path, table.config.game_id).load()
    assert loaded.records == [*records[:-1], end]
    assert loaded.repaired is None


def test_a_crash_while_replacing_leaves_the_record_before_it_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The file is cut before the step (durably), then the end appended: a crash in
    between leaves the record before the step last, and the step the seat ACKed in
    flight again on resume; the end comes back with catch-up."""
    table, step, end = ended_without_the_late_seat()
    commit_alone(table, step)
    records = list(table.peers[LATE].records)
    store = store_with(tmp_path, table, records)

    def crash(fd: int, data: bytes, path: Path) -> None:
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(storage, "_write_all", crash)
    with pytest.raises(OSError, match="No space left"):
        store.replace_last(end)
    store.close()
    monkeypatch.undo()
    loaded = GameStore(tmp_path, table.config.game_id).load()
    assert loaded.records == records[:-1] and loaded.repaired is None
