"""Two seats missing at once (issue 24), with production `Peer`s on a logical clock. Since
v6 an end leaves out a set of seats (SPEC §4.4 "Ending without a seat", *Two seats
missing*): the lowest seat outside it proposes it, every seat outside it signs, each
only once it has waited its stall limit itself for each seat it leaves out (for a seat
found missing while an earlier end was pending: for its ACK of that end), and the new
end replaces the pending one. Its signers are a majority of the table (two of five
gone, not two of four); the seats left out forfeit."""

from __future__ import annotations

import pytest

from p2p_rommy import i18n
from p2p_rommy.log.events import Send
from p2p_rommy.log.messages import Ack, step_digest
from tests.clocked_table import ClockedTable

STALL = 30.0


def two_gone(*, at_once: bool, kind: str | None = None) -> ClockedTable:
    """A table of five whose seats 4 and 5 (3 and 4 from 0) leave together, 20 steps in:
    `at_once`, while seat 1's own step is in flight, which neither of them saw (the table
    waits for both ACKs; a step of `kind`, if given); else while the table waits for seat
    4's step (or its ACKs)."""
    table = ClockedTable(5, stall_after=STALL)
    table.start()
    first = table.peers[0]
    if at_once:
        table.run(
            until=lambda: (
                first.replica.n >= 20
                and first.pending is not None
                and first.pending.step.seat == 0
                and not first.pending.acks.keys() - {0}
                and kind in (None, first.pending.tentative.kind)
            )
        )
    else:
        table.run(
            until=lambda: (
                first.replica.n >= 20
                and first.pending is None
                and first.replica.expected_proposer() == 3
            )
        )
    table.down.update({3, 4})
    table.run()
    return table


def assert_ended_without_both(table: ClockedTable) -> None:
    for peer in table.peers[:3]:
        assert peer.replica.ended is not None and peer.replica.ended[0] == (3, 4)
        assert peer.replica.forfeited == (3, 4) and not peer.replica.abandoned
        assert peer.frozen is None and peer.culprit is None and not peer.trouble.evidence
        record = peer.records[-1]
        assert record.acks[3] == b"" and record.acks[4] == b"" and all(record.acks[:3])
    report = table.report(1)
    assert report.fair and report.complete, report.text()
    assert report.absent == (3, 4) and report.forfeited == (3, 4)
    assert report.ended_by == (0, 1, 2)
    text = report.text()
    assert "without seats 4 (P4) and 5 (P5), who all forfeit" in text, text
    assert "on the word of seats 1 (P1), 2 (P2) and 3 (P3)" in text, text
    i18n.use("da")
    try:
        danish = report.text()
    finally:
        i18n.use("en")
    assert "uden pladserne 4 (P4) og 5 (P5), som alle taber" in danish, danish
    reason = danish.split("underskrevet af pladserne 1 (P1), 2 (P2) og 3 (P3): ")[1]
    english = table.peers[0].replica.ended[1]
    i18n.use("da")
    try:
        said = i18n.say_reason(english)
    finally:
        i18n.use("en")
    assert reason.splitlines()[0] == said != english, danish


def test_with_two_seats_gone_at_once_the_others_end_without_both_and_both_forfeit():
    table = two_gone(at_once=True)
    first = table.peers[0]
    assert [w.seat for w in first.waits(STALL + 1)] == [3, 4]  # both owe their ACK
    assert first.end_set(STALL - 1) == ()  # nobody waited long enough yet
    table.tick(STALL + 1)
    assert first.end_set(STALL + 1) == (3, 4)
    table.post(0, first.end_game((3, 4), STALL + 1))
    table.run()
    assert_ended_without_both(table)


def test_a_seat_found_missing_while_an_end_is_pending_is_left_out_by_a_new_end():
    """The table waited for one of them first; an end without it cannot commit, since
    the other never ACKs it: once each signer has waited its stall limit for that ACK,
    a new end without both replaces it."""
    table = two_gone(at_once=False)
    first, second, third = table.peers[:3]
    table.tick(STALL + 1)  # bots' peers end by themselves only with `end_after`: asked
    (one,) = first.end_set(STALL + 1)
    table.post(0, first.end_game(one, STALL + 1))
    table.run()
    for peer in (first, second, third):
        assert peer.replica.tentative is not None and peer.replica.tentative.kind == "end"
        assert peer.replica.pending_absent() == (one,) and peer.replica.ended is None
    other = 7 - one
    assert [w.seat for w in second.waits(STALL + 2)] == [other]  # its ACK of the end
    # not before each signer has waited for that ACK itself
    assert first.end_set(2 * STALL) == ()
    assert first.end_game((3, 4), 2 * STALL) == []
    table.tick(2 * STALL + 2)
    assert first.end_set(2 * STALL + 2) == (3, 4)
    table.post(0, first.end_game((other,), 2 * STALL + 2))  # the pending end's seat stays out
    table.run()
    assert_ended_without_both(table)


def test_bots_end_a_table_two_seats_left_by_themselves():
    table = two_gone(at_once=True)
    for peer in table.peers:
        peer.end_after = STALL
    table.tick(STALL + 1)
    table.run()
    assert_ended_without_both(table)


def test_a_present_seat_cannot_be_slipped_into_an_end():
    """Seat 5 left; seat 1 (a cheat) proposes to end without seats 2 and 5, although
    seat 2 is there. Seats 3 and 4 must sign, have not waited for seat 2, and hold the
    end unsigned: it never commits, and seat 2 forfeits nothing."""
    table = ClockedTable(5, stall_after=STALL)
    table.start()
    first = table.peers[0]
    table.run(until=lambda: first.replica.n >= 20)
    table.down.add(4)
    table.run()
    table.tick(STALL + 1)
    assert first.end_set(STALL + 1) == (4,)  # seat 2 (1 from 0) owes nothing
    replica = first.replica
    step = replica.propose_end((1, 4), "seats 2 and 5 did not come back")
    assert replica.tentative is not None
    envelope = replica.identity.sign(step.encode())
    ack = Ack(replica.game, step.n, 0, step_digest(envelope), replica.tentative.hash)
    table.post(0, [Send(envelope), Send(replica.identity.sign(ack.encode()))])
    table.run()
    for now in (STALL + 2, 3 * STALL, 10 * STALL):
        table.tick(now, seats=[1, 2, 3])
        table.run()
        for signer in table.peers[2:4]:
            assert signer.held_end == envelope  # held, not signed
            assert signer.pending is None or signer.pending.tentative.kind != "end"
        honest = table.peers[1:4]  # (the cheat's own replica was bent to forge the end)
        assert [(p.replica.ended, p.replica.forfeited) for p in honest] == [(None, ())] * 3
    assert table.peers[1].ousted == envelope  # seat 2 holds it, unsigned, uncommitted


def test_a_seat_that_signed_the_first_end_commits_the_one_that_replaced_it_from_its_record():
    """Catch-up or restart: a replica holding the pending end without one seat takes the
    committed end without both from its record (the replaced end is moot)."""
    from p2p_rommy.log.replica import Observer
    from p2p_rommy.log.trouble import decode_step

    table = two_gone(at_once=False)
    first = table.peers[0]
    table.tick(STALL + 1)
    (one,) = first.end_set(STALL + 1)
    out = table.post(0, first.end_game(one, STALL + 1))
    (first_end,) = [e.envelope for e in out if isinstance(e, Send) and is_step(e.envelope)]
    table.run()
    table.tick(2 * STALL + 2)
    table.post(0, first.end_game((3, 4), 2 * STALL + 2))
    table.run()
    assert_ended_without_both(table)
    *before, last = first.records
    observer = Observer(table.config)
    for record in before:
        observer.restore(record.step, record.acks)
    observer.validate(decode_step(first_end))
    assert observer.pending_absent() == (one,)
    observer.restore(last.step, last.acks)
    assert observer.ended is not None and observer.ended[0] == (3, 4)
    assert observer.forfeited == (3, 4)


def is_step(envelope: bytes) -> bool:
    from p2p_rommy.log.messages import Step, decode
    from p2p_rommy.wire.codec import unpack

    return isinstance(decode(unpack(envelope)[2]), Step)


@pytest.mark.parametrize(
    ("absent", "why"),
    [
        ([], "list of 1 to 5"),
        ([3, 2], "unsorted or twice"),
        ([2, 2], "unsorted or twice"),
        ([0, 1, 2, 3, 4, 5], "list of 1 to 5"),
        ([6], "absent"),
    ],
)
def test_an_end_lists_its_seats_sorted_once_each_and_not_all_of_them(absent, why):
    """SPEC §4.4, §4.10: `absent` is a sorted, non-empty list of distinct seats, fewer
    than the table's (the replica checks that bound, from the config)."""
    from p2p_rommy.errors import ProtocolError
    from p2p_rommy.log.messages import EndStep, decode_body

    with pytest.raises(ProtocolError, match=why):
        decode_body({"kind": "end", "absent": absent, "reason": "left"}, 0)
    assert decode_body({"kind": "end", "absent": [2, 3], "reason": "left"}, 0) == EndStep(
        (2, 3), "left"
    )


def test_the_replica_refuses_an_end_that_leaves_out_every_seat_but_none():
    from p2p_rommy.errors import ProtocolError
    from p2p_rommy.log.messages import EndStep, Step

    table = ClockedTable(3, stall_after=STALL)
    replica = table.peers[0].replica
    for absent in ((0, 1, 2), (1, 3)):
        step = Step(replica.game, 1, 0, replica.committed_hash, EndStep(absent, "left"))
        with pytest.raises(ProtocolError, match="malformed end step"):
            replica.check_end(step, step.body)


def test_e_offers_the_end_without_both_and_the_summary_names_both():
    """The client: with two seats gone past the stall limit the prompt offers `e` without
    both, `e` asks, `e` again proposes, and the end names both on the summary."""
    from p2p_rommy.seat.snapshot import table_view
    from p2p_rommy.tui.model import ClientModel
    from p2p_rommy.tui.render import summary_lines
    from tests.test_ending_a_cheat import ClientSession

    table = two_gone(at_once=True, kind="move")
    table.tick(STALL + 1)
    first = ClientModel(ClientSession(table, 0))
    both = f"{first.names[3]}, {first.names[4]}"
    assert first.prompt().endswith(f"e ends the game without {both}"), first.prompt()
    first.end_without_stalled()
    assert first.status.startswith(f"End the game without {both}?")
    first.end_without_stalled()
    table.run()
    assert_ended_without_both(table)
    first.session.view = table_view(table.peers[0], table.now, None, {}, ())
    lines = [text for _, text in summary_lines(first)]
    assert f"ended without {both}, who left (forfeited)" in lines, lines


def test_each_seat_gone_is_reported_as_stalling():
    from p2p_rommy.log.events import Stalled

    table = two_gone(at_once=True)
    events = table.peers[1].tick(STALL + 1)
    assert sorted(e.stall.seat for e in events if isinstance(e, Stalled)) == [3, 4]


def half_gone(players: int) -> ClockedTable:
    """A table of `players` whose seats from 2 on (1 from 0) but the first half leave 20
    steps in, while seat 1's own step is in flight: half the table or more is gone."""
    table = ClockedTable(players, stall_after=STALL)
    table.start()
    first = table.peers[0]
    table.run(
        until=lambda: (
            first.replica.n >= 20
            and first.pending is not None
            and first.pending.step.seat == 0
            and not first.pending.acks.keys() - {0}
        )
    )
    table.down.update(range(players // 2 if players > 3 else 1, players))
    table.run()
    return table


@pytest.mark.parametrize("players", [3, 4])
def test_half_the_table_or_less_never_ends_the_game_without_the_rest(players):
    """SPEC §4.4 *Two seats missing*: an end leaves out fewer than half the table (its
    signers are a majority). A lone seat of three cannot vouch that the others did not
    commit the step its end would replace (found by the simulator: a seat restarted
    alone ended a game the others had played on); two of four cut off from the other
    two would each end the game without the other pair (two ends, both committed)."""
    table = half_gone(players)
    gone = tuple(sorted(table.down))
    for peer in table.peers:
        peer.end_after = STALL
    first = table.peers[0]
    stayed = [s for s in range(players) if s not in gone]
    assert [w.seat for w in first.waits(STALL + 1)] == list(gone)
    for now in (STALL + 1, 3 * STALL, 10 * STALL):
        assert first.end_set(now) == ()
        assert first.end_game(gone, now) == []
        table.tick(now, seats=stayed)
        table.run()
        for seat in stayed:
            peer = table.peers[seat]
            assert peer.replica.ended is None and peer.replica.pending_absent() == ()
    assert first.replica.most_absent == 1
    assert len(first.replica.end_hashes()) == players  # an ACK of an end: one seat out


def test_an_end_without_half_the_table_is_refused_as_its_proposers_fault():
    """SPEC §4.4 *Two seats missing*: an end's signers are a majority of the table. An
    end without both others at a table of three, or without two of four, is not one the
    receivers hold or sign: it is refused, naming its proposer."""
    from p2p_rommy.errors import ProtocolError
    from p2p_rommy.log.messages import EndStep, Step

    table = ClockedTable(3, stall_after=STALL)
    replica = table.peers[1].replica
    step = Step(replica.game, 1, 0, replica.committed_hash, EndStep((1, 2), "left"))
    with pytest.raises(ProtocolError, match="a majority signs") as caught:
        replica.check_end(step, step.body)
    assert caught.value.sender == 0
    four = ClockedTable(4, stall_after=STALL).peers[3].replica
    assert four.most_absent == 1
    step = Step(four.game, 1, 0, four.committed_hash, EndStep((2, 3), "left"))
    with pytest.raises(ProtocolError, match="a majority signs"):
        four.check_end(step, step.body)  # two of four: the other two are no majority
    five = ClockedTable(5, stall_after=STALL).peers[4].replica
    assert five.most_absent == 2
    step = Step(five.game, 1, 0, five.committed_hash, EndStep((2, 3, 4), "left"))
    with pytest.raises(ProtocolError, match="a majority signs"):
        five.check_end(step, step.body)
    step = Step(five.game, 1, 0, five.committed_hash, EndStep((3, 4), "left"))
    five.check_end(step, step.body)  # three of five sign: allowed


def test_a_seat_back_after_the_stall_limit_as_its_end_goes_round_is_ended_out_not_a_split():
    """The simulator's 2-2 split (issue 24, seed 2018 of the full mix at a 5 s stall
    limit): seat 4 thinks past the stall limit; seat 1 proposes the end without it and
    seat 2 signs; seat 4's move reaches seat 3 first, which ACKs it and, having heard
    from seat 4, held the end unsigned. Seats 1 and 2 never ACK a step after signing
    the end that replaces it, and seat 3 never signed the end: nothing could commit.
    Seat 3 had itself waited its stall limit for that move before it came (SPEC §4.4
    *Time, measured by each signer*): it signs the end, which commits; the move never
    can. A seat back in time (its move before the limit) is never ended out."""
    import random

    from p2p_rommy.bots.random_player import RandomPlayer
    from p2p_rommy.log.events import Send as SendEvent

    table = ClockedTable(4, people=frozenset({3}), stall_after=STALL)
    table.start()
    first, third, last = table.peers[0], table.peers[2], table.peers[3]
    table.run(until=lambda: first.replica.n >= 20 and last.replica.my_turn())
    table.run()
    assert last.replica.my_turn() and first.pending is None
    n = first.replica.n
    table.now = STALL + 1
    chosen = RandomPlayer(random.Random(5)).choose(last.replica.view())
    moved = [e.envelope for e in last.submit(chosen, table.now) if isinstance(e, SendEvent)]
    for envelope in moved:  # seat 4's move and its ACK reach seat 3 only, for now
        table.post(2, third.receive(envelope, table.now, 3))
    table.inbox[0].clear()
    table.inbox[1].clear()
    assert third.pending is not None and third.pending.step.seat == 3
    table.post(0, first.end_game(3, table.now))
    table.run()
    for now in (STALL + 2, 3 * STALL):
        table.tick(now)
        table.run()
    for peer in table.peers[:3]:
        assert peer.replica.n == n + 1 and peer.replica.ended is not None, peer.seat
        assert peer.replica.ended[0] == (3,) and peer.replica.forfeited == (3,)
    assert table.report(2).status == "fair"
