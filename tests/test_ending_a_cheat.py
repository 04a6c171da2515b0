"""A table frozen by a named cheat can still be ended without the culprit, who forfeits
(issue 24, "a table that cannot go on can still end without the signer"). The rule is
the one for a stalled seat (SPEC §4.4 "Ending without a seat") with another own check:
each signer signs only because its own checking named that seat, from that seat's
signed data (an invalid step, two steps for one number). Production `Peer`s on a
logical clock (tests/clocked_table.py), real signatures."""

from __future__ import annotations

from p2p_rommy.engine.moves import Discard, DrawStock, TakeDiscard
from p2p_rommy.log.events import sends
from p2p_rommy.log.messages import Ack, EndStep, MoveStep, Step
from p2p_rommy.wire.codec import unpack
from tests.clocked_table import ClockedTable

CHEAT = 2


def message(envelope: bytes) -> object:
    from p2p_rommy.log.messages import decode

    return decode(unpack(envelope)[2])


def cheats_turn(players: int = 3) -> ClockedTable:
    """The cheat's (last seat's) turn to draw, at t = 100; its moves come from the test."""
    cheat = players - 1
    table = ClockedTable(players, people=frozenset({cheat}))
    table.now = 100.0
    table.start()
    table.run()
    assert table.peers[cheat].replica.my_turn()
    return table


def signed_step(table: ClockedTable, seat: int, body: MoveStep) -> bytes:
    replica = table.peers[seat].replica
    step = Step(replica.game, replica.n + 1, seat, replica.committed_hash, body)
    return replica.identity.sign(step.encode())


def an_invalid_step(table: ClockedTable, seat: int) -> bytes:
    """A discard in the draw phase: signed by `seat`, refused by the rules."""
    hand = table.peers[seat].replica.state.hands[seat]
    return signed_step(table, seat, MoveStep(Discard(seat, hand[0], 0), None))


def ended_without(table: ClockedTable, culprit: int, seats: list[int]) -> None:
    for seat in seats:
        peer = table.peers[seat]
        assert peer.replica.ended is not None and peer.replica.ended[0] == (culprit,), seat
        assert peer.replica.over


def test_an_invalid_step_freezes_every_peer_and_the_others_end_without_its_proposer():
    """Issue 24: a peer frozen by a seat's invalid step could not end the game: the
    cheat escaped the forfeit that leaving costs. Now the lowest other seat proposes
    the end at once (its own checking named the seat: no stall wait), the others sign
    for the same reason, and the culprit forfeits; verify names it and the signers."""
    table = cheats_turn()
    bad = an_invalid_step(table, CHEAT)
    for seat in (0, 1):
        table.deliver(seat, bad, CHEAT)
    table.run()
    for peer in table.peers[:CHEAT]:
        assert peer.frozen and peer.culprit == CHEAT
    table.post(0, table.peers[0].end_game(CHEAT, 100.5))
    table.run()
    ended_without(table, CHEAT, [0, 1])
    assert table.peers[1].replica.forfeited == (CHEAT,)
    reason = table.peers[0].replica.ended[1]
    assert "seat 3 (P3)" in reason and "illegal move" in reason, reason
    report = table.report(1)
    assert report.status == "fair" and report.forfeited == (CHEAT,), report.text()
    assert report.ended_by == (0, 1)
    assert "seat 3 (P3)" in report.ended and "on the word of seats 1 (P1) and 2 (P2)" in (
        report.text()
    )


def test_a_step_invalid_at_one_seat_and_valid_at_another_is_proven_at_both_then_ended():
    """Two-faced: an invalid step to seat 1, a valid one to seat 2. The refuser sends the
    step it refused to all, so seat 2 holds both signed steps (proof) and both name the
    cheat; the end commits. Before, seat 2 recorded seat 1's refusal as dissent and
    would end the honest refuser out."""
    table = cheats_turn()
    bad = an_invalid_step(table, CHEAT)
    good = signed_step(table, CHEAT, MoveStep(DrawStock(CHEAT), None))
    table.deliver(0, bad, CHEAT)
    table.deliver(1, good, CHEAT)
    table.run()
    for peer in table.peers[:CHEAT]:
        assert peer.frozen and peer.culprit == CHEAT, peer.frozen
    assert not table.peers[1].trouble.dissents or table.peers[1].culprit == CHEAT
    table.post(0, table.peers[0].end_game(CHEAT, 100.5))
    table.run()
    ended_without(table, CHEAT, [0, 1])
    assert table.report(0).forfeited == (CHEAT,)


def test_two_steps_for_one_number_are_proven_everywhere_and_the_others_end_without_it():
    table = cheats_turn()
    one = signed_step(table, CHEAT, MoveStep(DrawStock(CHEAT), None))
    other = signed_step(table, CHEAT, MoveStep(TakeDiscard(CHEAT), None))
    table.deliver(0, one, CHEAT)
    table.deliver(1, other, CHEAT)
    table.run()
    for peer in table.peers[:CHEAT]:
        assert peer.culprit == CHEAT and "two different steps" in peer.frozen
    table.post(0, table.peers[0].end_game(CHEAT, 100.5))
    table.run()
    ended_without(table, CHEAT, [0, 1])
    report = table.report(1)
    assert report.status == "fair" and report.forfeited == (CHEAT,), report.text()
    assert "two different steps" in report.ended


def acks_in(events: list) -> list[bytes]:
    return [e for e in sends(events) if isinstance(message(e), Ack)]


def test_a_frozen_peer_signs_an_end_only_without_the_seat_its_own_checking_named():
    """The own check: frozen naming seat 4, seat 3 does not sign an end without seat 2
    (which it never waited for); a peer that is not frozen does not sign an end without
    the cheat before its own stall wait (it holds it)."""
    table = cheats_turn(players=4)
    bad = an_invalid_step(table, 3)
    frozen, other, proposer = table.peers[2], table.peers[1], table.peers[0].replica
    frozen.receive(bad, 100.5, 3)
    assert frozen.culprit == 3
    end = proposer.propose_end((3,), "cheated")
    proposer.tentative = None
    envelope = proposer.identity.sign(end.encode())
    assert acks_in(other.receive(envelope, 100.5, 0)) == [] and other.held_end == envelope
    not_named = proposer.propose_end((1,), "cheated")
    proposer.tentative = None
    assert acks_in(frozen.receive(proposer.identity.sign(not_named.encode()), 100.5, 0)) == []
    assert len(acks_in(frozen.receive(envelope, 100.5, 0))) == 1


def test_a_held_end_is_signed_once_this_seat_finds_the_cheat_itself():
    """An end that came before the evidence is held; when the evidence comes (the step
    the refuser forwards to all) the peer names the cheat itself and signs it."""
    table = cheats_turn()
    bad = an_invalid_step(table, CHEAT)
    first, second = table.peers[0], table.peers[1]
    table.post(0, first.receive(bad, 100.5, CHEAT))
    assert first.culprit == CHEAT
    kept = list(table.inbox[1])  # seat 1's NACK and the step it refused
    assert any(isinstance(message(m), Step) for _, m in kept)
    table.inbox[1].clear()
    table.post(0, first.end_game(CHEAT, 100.5))
    table.run()  # seat 2 holds the end: it has seen no cheat and waited 0.5 s
    assert second.held_end is not None and second.replica.ended is None
    table.inbox[1].extend(kept)
    table.run()
    assert second.culprit == CHEAT
    table.tick(101.0)
    table.run()
    ended_without(table, CHEAT, [0, 1])


def test_at_two_seats_an_end_after_a_cheat_is_an_abandoned_game():
    table = cheats_turn(players=2)
    bad = an_invalid_step(table, 1)
    table.deliver(0, bad, 1)
    assert table.peers[0].culprit == 1
    table.post(0, table.peers[0].end_game(1, 100.5))
    replica = table.peers[0].replica
    assert replica.ended is not None and replica.abandoned and replica.forfeited == ()
    assert isinstance(message(table.peers[0].records[-1].step).body, EndStep)


class ClientSession:
    """What `ClientModel` reads of a session (its published view, its clock) and the
    intents it hands back, over a production `Peer` (the network is not the point)."""

    def __init__(self, table: ClockedTable, seat: int) -> None:
        from p2p_rommy.seat.snapshot import table_view

        self.config = table.config
        self.table, self.seat = table, seat
        self.listeners: list = []
        self.said: list[str] = []
        self.view = table_view(table.peers[seat], table.now, None, {}, ())

    def clock(self) -> float:
        return self.table.now

    def say(self, text: str) -> None:
        self.said.append(text)

    def end_game(self, absent: int | tuple[int, ...]) -> None:
        self.table.post(self.seat, self.table.peers[self.seat].end_game(absent, self.table.now))


def test_e_on_a_table_frozen_by_a_cheat_offers_the_end_without_it_and_ends_the_game():
    """The client: a frozen table's prompt offers `e` against the named seat at once (no
    stall wait), `e` asks, `e` again proposes; the other seat's `e` tells the table."""
    from p2p_rommy.tui.model import ClientModel

    table = cheats_turn()
    bad = an_invalid_step(table, CHEAT)
    for seat in (0, 1):
        table.deliver(seat, bad, CHEAT)
    table.run()
    table.now = 100.5
    first, second = (ClientModel(ClientSession(table, seat)) for seat in (0, 1))
    cheat = first.names[CHEAT]
    assert first.prompt().endswith(f". e ends the game without {cheat}"), first.prompt()
    second.end_without_stalled()
    second.end_without_stalled()
    assert second.session.said == [f"I agree to end the game without {cheat}"]
    first.end_without_stalled()
    assert first.status.startswith(f"End the game without {cheat}?")
    assert table.peers[0].replica.tentative is None
    first.end_without_stalled()
    table.run()
    ended_without(table, CHEAT, [0, 1])
    from p2p_rommy.seat.snapshot import table_view
    from p2p_rommy.tui.render import summary_lines

    first.session.view = table_view(table.peers[0], table.now, None, {}, ())
    lines = [text for _, text in summary_lines(first)]
    assert f"ended without {cheat}, caught cheating (forfeited)" in lines, lines


def restarted(table: ClockedTable, seat: int) -> None:
    """`seat` restarts from its committed records (`rommy resume`), and asks."""
    from p2p_rommy.log.peer import Peer
    from p2p_rommy.log.seated_replica import SeatedReplica
    from tests.deck_table import Counter

    old = table.peers[seat]
    seeds = {}
    for deck in (old.replica.deck, old.replica.next_deck):
        if deck is not None:
            seeds[deck.seat.params.round_no] = deck.seat.seed.value
    replica = SeatedReplica(
        table.config, seat, table.identities[seat], Counter(b"restarted"), seeds=seeds
    )
    for record in old.records:
        replica.restore(record.step, record.acks)
    peer = Peer(replica, None, old.stall_watch.stall_after, records=list(old.records))
    table.peers[seat] = peer
    table.down.discard(seat)
    table.post(seat, peer.start(table.now))


def test_a_seat_restarted_after_the_others_froze_learns_the_cheat_from_them_and_signs():
    """Four seats; the cheat (seat 4) signs two steps for one number while honest seat 3
    is down. Seats 1 and 2 freeze naming it, and seat 1 proposes the end without it,
    which needs seat 3's word. Seat 3 restarts (it lost nothing: it had not seen the
    steps) and asks: the frozen seats answer its catch-up ask (SPEC §4.4 "Catch-up")
    with what they hold, the proof included, so seat 3's own checking names the cheat
    and it signs the end. Before, a frozen seat ignored the ask: seat 3 never learned
    of the cheat, the end never committed, and the cheat escaped its forfeit."""
    table = cheats_turn(4)
    cheat = 3
    table.down.add(2)
    one = signed_step(table, cheat, MoveStep(DrawStock(cheat), None))
    other = signed_step(table, cheat, MoveStep(TakeDiscard(cheat), None))
    table.deliver(0, one, cheat)
    table.deliver(1, other, cheat)
    table.run()
    for peer in table.peers[:2]:
        assert peer.culprit == cheat and "two different steps" in peer.frozen
    table.post(0, table.peers[0].end_game(cheat, 100.5))
    table.run()
    assert [p.replica.ended for p in table.peers[:2]] == [None, None]  # seat 3's word
    table.now = 101.0
    restarted(table, 2)
    table.run()
    third = table.peers[2]
    assert third.culprit == cheat and "two different steps" in third.frozen
    ended_without(table, cheat, [0, 1, 2])
    report = table.report(2)
    assert report.status == "fair" and report.forfeited == (cheat,), report.text()
    assert report.ended_by == (0, 1, 2)
