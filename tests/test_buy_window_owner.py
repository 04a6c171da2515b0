"""The open Køb! window has one owner (issue 28): `Replica.window`, made by the commit
that opens it and dropped by the commit that closes it; the buyer of a resolved window
is read from its committed buy step (`buyer_of`), by the client and by `rommy replay`.
SPEC §4.7: a window is named by the step whose commit opened it."""

from __future__ import annotations

from p2p_rommy.engine.apply import buy_order
from p2p_rommy.engine.moves import ResolveBuy
from p2p_rommy.engine.state import Phase
from p2p_rommy.log.buy_race import ranked
from p2p_rommy.log.buy_window import OpenWindow, buyer_of
from p2p_rommy.log.events import Committed, Event, sends
from p2p_rommy.log.messages import BuyAnswer, BuyStep
from p2p_rommy.log.replica import Observer
from p2p_rommy.seat.snapshot import news
from p2p_rommy.seat.table_view import Bought
from tests.peer_table import PeerTable
from tests.test_buy_race import Eager, Window, resolution, verify_winner, winner_everywhere
from tests.test_engine_lp import _declined_discard


def test_the_open_window_is_made_at_its_opening_and_dropped_when_it_closes():
    w = Window(house={"buy_priority": "seat"})
    for peer in w.peers:
        window = peer.replica.window
        assert isinstance(window, OpenWindow)
        assert window.number == w.window == peer.replica.buy_window
        assert window.eligible == w.eligible == peer.replica.state.buy_eligible
        assert window.answerers == w.eligible  # sealed answers: the eligible seats answer
    near, *rest = w.eligible
    for seat in [near, *rest]:
        w.flood([(seat, e) for e in sends(w.peers[seat].answer_buy(seat == near, 0.0))])
    assert winner_everywhere(w) == near
    n_buy, body = resolution(w.peers[0])
    assert body.window == w.window
    for peer in w.peers:
        replica = peer.replica
        # closed: nothing of it is left to read as if it were open (the table plays on
        # to the next discard, whose window is another one, with its own number)
        assert replica.buy_window != w.window
        assert replica.window is None or replica.window.number > n_buy
        assert replica.last_window == w.window
        assert buyer_of(replica.last_claims) == near
        assert replica.n >= n_buy


def test_the_opened_answers_live_in_the_window_and_go_with_it():
    w = Window()
    caller = w.eligible[0]
    w.flood([(caller, w.call(caller))])
    sequencer = w.peers[w.turn].replica
    window = sequencer.window
    assert window is not None and len(window.opened) == 1  # opened once, kept there
    (_, answer), *_ = window.opened.values()
    assert answer.seat == caller and answer.window == w.window
    for seat in w.eligible[1:]:
        w.flood([(seat, e) for e in sends(w.peers[seat].answer_buy(False, 0.0))])
    assert sequencer.buy_window != w.window
    assert winner_everywhere(w) == caller
    assert verify_winner(w) == caller  # verify names it from the committed step too


def test_nobody_buys_is_none():
    assert buyer_of(()) is None
    assert buyer_of((3, 1)) == 3


def test_a_replica_holds_a_window_exactly_while_the_committed_state_is_in_one():
    # replayed record by record (as `rommy verify` does): the owner exists only while
    # the committed phase is the buy window, and always names the step that opened it
    w = Window()
    caller = w.eligible[0]
    w.flood([(caller, w.call(caller))])
    for seat in w.eligible[1:]:
        w.flood([(seat, e) for e in sends(w.peers[seat].answer_buy(False, 0.0))])
    observer = Observer(w.table.config)
    opened: list[int] = []
    for record in w.peers[0].records:
        before = observer.window
        observer.restore(record.step, record.acks)
        window = observer.window
        assert (window is None) == (observer.state.phase is not Phase.BUY)
        if window is not None and window is not before:
            assert window.number == observer.n  # the commit that opened it
            assert window.eligible == observer.state.buy_eligible
            opened.append(window.number)
    assert w.window in opened and len(opened) >= 2  # the upcard's, the discard's
    assert observer.last_window == w.window
    assert buyer_of(observer.last_claims) == caller


def test_the_seat_rule_ranks_the_same_for_the_log_and_the_engine():
    # RULES-DECISIONS Køb (`seat` is a house rule): the claimant nearest after the
    # discarder buys, whatever order the calls came in — one function for both layers
    table = _declined_discard({"buy_priority": "seat"})
    state = table.state
    eligible = state.buy_eligible
    assert len(eligible) >= 2
    calls = tuple(reversed(eligible))
    answers = [BuyAnswer(b"g" * 32, 9, seat, True, (), bytes(32)) for seat in calls]
    claims, outcome = ranked(state, answers, eligible, lambda seat, nonces: bytes([seat]))
    assert claims == eligible and outcome is None
    assert buy_order(state, calls) == eligible
    bought = table.play(ResolveBuy(calls))
    assert bought.state.buys[buyer_of(claims)] == 1


def test_two_buy_steps_in_one_publish_each_name_their_own_buyer():
    """Issue 28: when one call (catch-up) commits several Køb! steps, the client's news
    names each step's buyer from that step's own claims (`Committed.claims`), not the
    replica's latest `last_claims` for all of them."""
    table = PeerTable("lp", 4, seed=3, players_factory=Eager)
    heard: list[Event] = []
    listened = table.peers[0]
    receive = listened.receive

    def recording(envelope: bytes, now: float = 0.0, via: int | None = None) -> list[Event]:
        out = receive(envelope, now, via)
        heard.extend(out)
        return out

    listened.receive = recording  # every event seat 0 gives back

    def buyers() -> list[int | None]:
        return [
            buyer_of(e.claims)
            for e in heard
            if isinstance(e, Committed) and isinstance(e.step.body, BuyStep)
        ]

    table.run(until=lambda: len(set(buyers())) >= 2)
    bought = [e for e in heard if isinstance(e, Committed) and isinstance(e.step.body, BuyStep)]
    assert len(set(buyers())) >= 2  # two windows with different buyers (or none)
    # the truth, step by step: an observer replaying the records reads each buy
    # step's claims from the committed state right after it
    observer = Observer(table.config)
    truth: dict[int, int | None] = {}
    for record in listened.records:
        observer.restore(record.step, record.acks)
        if isinstance(record.decoded_step().body, BuyStep):
            truth[observer.n] = buyer_of(observer.last_claims)
    told = [item for item in news(bought) if isinstance(item, Bought)]  # one publish
    assert [item.n for item in told] == [e.n for e in bought]
    assert {item.n: item.buyer for item in told} == {e.n: truth[e.n] for e in bought}
