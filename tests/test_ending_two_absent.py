"""Two seats missing at once (issue 24): what the table does today, with production
`Peer`s on a logical clock. An end leaves out one seat and needs every other seat's
ACK, so with a second seat gone it cannot commit (SPEC §4.4, "Two seats missing",
pending a wire change): the table then waits, naming the second absent seat as the
one it waits for, and nothing is forfeited or blamed without the signatures."""

from __future__ import annotations

from tests.clocked_table import ClockedTable


def test_with_two_seats_gone_the_end_waits_for_the_second_and_blames_nobody():
    table = ClockedTable(4)
    table.start()
    first = table.peers[0]
    table.run(until=lambda: first.replica.n >= 20 and first.pending is not None)
    table.down.update({2, 3})
    table.run()
    table.tick(31.0)
    waiting = first.waiting(31.0)
    assert waiting is not None and waiting.seat in (2, 3)
    table.post(0, first.end_game(waiting.seat, 31.0))
    table.run()
    other = 5 - waiting.seat  # the second absent seat
    for peer in table.peers[:2]:
        assert peer.replica.tentative is not None and peer.replica.tentative.kind == "end"
        assert peer.replica.ended is None  # the other absent seat's ACK never comes
    table.tick(100.0)
    table.run()
    for peer in table.peers[:2]:
        assert peer.replica.ended is None and peer.replica.forfeited == ()
        assert peer.frozen is None and peer.culprit is None and not peer.trouble.evidence
        now_waiting = peer.waiting(100.0)
        assert now_waiting is not None and now_waiting.seat == other  # named on screen
