"""Køb! as the rules say — the first caller wins — decided from every seat's signed
observation of the order the calls reached it (issue 25; SPEC §4.7; lp:24 "Siger
vedkommende nej, må alle andre råbe »Køb!« – den første vinder").

Production `Peer`s on a logical clock, the calls delivered to each seat in an order the
test chooses: the rule's winner on every peer and in `rommy verify`; one lying seat
(any, the sequencer included) cannot flip a race every honest seat saw the same way; a
seat that signs two answers is named, both kept; a seat that never sends its
observation is the seat the table waits for."""

from __future__ import annotations

import random
from collections import deque

import pytest

from p2p_rommy.bench import kob_race
from p2p_rommy.bots.random_player import RandomPlayer
from p2p_rommy.bots.reaction import Reacting
from p2p_rommy.engine.state import Phase
from p2p_rommy.limits import STALL_AFTER_S
from p2p_rommy.log.buy_race import race
from p2p_rommy.log.buy_seal import nonce_of
from p2p_rommy.log.buy_window import buyer_of
from p2p_rommy.log.events import Stalled, sends, sends_to
from p2p_rommy.log.messages import BuyAnswer, BuyStep, decode
from p2p_rommy.log.peer import Peer
from p2p_rommy.log.seated_replica import SeatedReplica
from p2p_rommy.log.transcript import MAGIC, Genesis, frame_record, sign_config
from p2p_rommy.verify import verify_transcript
from p2p_rommy.wire.codec import unpack
from tests.deck_table import Counter
from tests.peer_table import PeerTable


class Holder:
    """Plays at random and answers Køb! only when the test says so (like a person)."""

    def __init__(self, seat: int) -> None:
        self.inner = RandomPlayer(random.Random(seat))

    def choose(self, view):
        return self.inner.choose(view)

    def wants_buy(self, view):
        return None


def answer_of(envelope: bytes) -> BuyAnswer:
    message = decode(unpack(envelope)[2])
    assert isinstance(message, BuyAnswer)
    return message


class Window:
    """A 5-seat lp table stopped in its first Køb! window (nobody has answered)."""

    def __init__(self, seed: int = 5, players=Holder, house=None) -> None:
        self.table = PeerTable("lp", 5, house or {}, seed=seed, players_factory=players)
        self.now = 0.0
        self.table.run()  # until quiet: every eligible seat waits for its person
        self.peers: list[Peer] = self.table.peers
        self.dropped: set[int] = set()
        """Seats whose messages never leave them (a silent seat)."""
        # the upcard's window has no discarder: everyone passes, on to a discard's window
        for seat in self.peers[0].replica.state.buy_eligible:
            self.flood([(seat, e) for e in sends(self.peers[seat].answer_buy(False, 0.0))])
        state = self.peers[0].replica.state
        assert state.discarder is not None
        assert all(p.replica.state.phase is Phase.BUY for p in self.peers)
        assert LP_DEFAULT(self.peers[0]) == (house or {}).get("buy_priority", "first")
        self.eligible = state.buy_eligible
        self.turn = state.turn  # the sequencer: it declined the card and resolves
        self.window = self.peers[0].replica.buy_window
        assert self.window is not None and len(self.eligible) >= 3

    def call(self, seat: int) -> bytes:
        """`seat`'s person presses k: its signed call, not yet delivered."""
        (envelope,) = sends(self.peers[seat].answer_buy(True, 0.0))
        return envelope

    def give(self, recipient: int, sender: int, envelope: bytes) -> None:
        self.post(recipient, self.peers[recipient].receive(envelope, self.now, sender))

    def flood(self, posts: list[tuple[int, bytes]], skip=lambda sender, to, e: False) -> None:
        """Deliver broadcasts (and what they give rise to, messages to one seat too)."""
        queue = deque((sender, envelope, None) for sender, envelope in posts)
        while queue:
            sender, envelope, to = queue.popleft()
            if sender in self.dropped:
                continue
            for peer in self.peers:
                if peer.seat == sender or skip(sender, peer.seat, envelope):
                    continue
                if to is not None and peer.seat != to:
                    continue
                events = peer.receive(envelope, self.now, sender)
                queue += [(peer.seat, e, None) for e in sends(events)]
                queue += [(peer.seat, e, seat) for seat, e in sends_to(events)]

    def post(self, seat: int, events) -> None:
        """`seat`'s events: its broadcasts and its messages to one seat."""
        self.flood([(seat, e) for e in sends(events)])
        for to, envelope in sends_to(events):
            self.give(to, seat, envelope)

    def transcript(self) -> bytes:
        config, identities = self.table.config, self.table.identities
        genesis = Genesis(
            config, config.encode(), tuple(sign_config(config, i) for i in identities)
        )
        records = self.peers[0].records
        return (
            MAGIC
            + frame_record(genesis.encode())
            + b"".join(frame_record(r.encode()) for r in records)
        )


def LP_DEFAULT(peer: Peer) -> str:
    return peer.replica.config.rules.buy_priority


def resolution(peer: Peer) -> tuple[int, BuyStep]:
    """The step number and body of the last committed buy step (the race's)."""
    found = [
        (n, body)
        for n, record in enumerate(peer.records, start=1)
        if isinstance(body := decode(unpack(record.step)[2]).body, BuyStep)
    ]
    assert found, "no buy step committed"
    return found[-1]


def winner_everywhere(w: Window) -> int:
    """The seat that bought in the window, the same on every peer (none frozen)."""
    assert all(p.frozen is None for p in w.peers), [p.frozen for p in w.peers]
    (buys,) = {p.replica.state.buys for p in w.peers}
    assert sum(buys) == 1
    return buys.index(1)


def verify_winner(w: Window) -> int:
    """`rommy verify` replays the transcript and recomputes the window's winner."""
    n_buy, _ = resolution(w.peers[0])
    after: dict[int, tuple[int, ...]] = {}
    buyers: dict[int, int | None] = {}

    def seen(n, step, before, state, claims):
        if n == n_buy:
            after[n] = tuple(b - a for a, b in zip(before.buys, state.buys, strict=True))
            buyers[n] = buyer_of(claims)

    report = verify_transcript(w.transcript(), seen)
    assert report.culprit is None and report.what is None and report.damage is None
    # the buyer named from the committed buy step is the seat whose hand took the card
    assert buyers[n_buy] == after[n_buy].index(1)
    return after[n_buy].index(1)


def run_race(w: Window, a: int, b: int, first_at: dict[int, int], liars=None) -> None:
    """A and B call at once (each before the other's call reaches it); every other
    seat r gets `first_at[r]`'s call first. Then the eligible seats left pass, and the
    table runs on. `liars`: seat -> the order it claims to have seen."""
    for seat, order in (liars or {}).items():
        w.peers[seat].buy_windows.calls = lambda window, order=order: order
    calls = {a: w.call(a), b: w.call(b)}
    for r in range(5):
        if r in (a, b):
            continue
        first = first_at[r]
        second = b if first == a else a
        w.give(r, first, calls[first])
        w.give(r, second, calls[second])
    w.give(a, b, calls[b])
    w.give(b, a, calls[a])
    for seat in w.eligible:
        if seat not in (a, b):
            w.flood([(seat, e) for e in sends(w.peers[seat].answer_buy(False, 0.0))])


# --- the rule -----------------------------------------------------------------


def test_the_rule_counts_one_vote_per_seat_and_breaks_ties_by_seat_order():
    # SPEC §4.7: each seat's vote is the first claimant its observation lists
    g = b"g" * 32

    def ans(seat, claim, seen):
        return BuyAnswer(g, 9, seat, claim, seen)

    answers = [ans(0, True, (0,)), ans(1, True, (0, 1)), ans(2, False, (1, 0)), ans(3, False, (0,))]
    result = race(answers, (1, 0, 2))
    assert result.order == (0, 1) and result.votes == {0: 3, 1: 1} and result.observers == 4
    # a tie goes to the claimant nearest after the discarder (eligible order)
    tie = [ans(0, True, (0,)), ans(1, True, (1,)), ans(2, False, ())]
    assert race(tie, (1, 0, 2)).order == (1, 0)
    # a seat cannot make a non-claimant a caller: such entries are skipped
    assert race([ans(0, True, (0,)), ans(2, False, (1, 0))], (1, 0, 2)).votes == {0: 2}


# --- peers on a logical clock ----------------------------------------------------


@pytest.mark.parametrize("majority", ["far", "near"])
def test_the_call_most_seats_saw_first_wins_on_every_peer_and_in_verify(majority):
    w = Window()
    near, far = w.eligible[0], w.eligible[-1]
    others = [s for s in range(5) if s not in (near, far)]
    # the three other seats: two see the majority's call first, one the other's
    top, bottom = (far, near) if majority == "far" else (near, far)
    first_at = {others[0]: top, others[1]: top, others[2]: bottom}
    run_race(w, far, near, first_at)
    assert winner_everywhere(w) == top  # 3 of 5 screens (its own and two others)
    assert verify_winner(w) == top
    for peer in w.peers:
        settled = peer.replica.last_race
        assert settled is not None and settled.votes == {top: 3, bottom: 2}
        assert settled.observers == 5 and peer.replica.last_claims[0] == top


@pytest.mark.parametrize("liar", ["sequencer", "discarder", "passer", "rival"])
def test_one_lying_seat_cannot_flip_a_race_every_honest_seat_saw_the_same_way(liar):
    w = Window()
    a, b = w.eligible[-1], w.eligible[0]  # b is nearest: it would win every tie
    discarder = w.peers[0].replica.state.discarder
    passer = next(s for s in w.eligible if s not in (a, b))
    seat = {"sequencer": w.turn, "discarder": discarder, "passer": passer, "rival": b}[liar]
    assert seat is not None
    lie = {seat: (b, a) if seat != b else ()}  # the rival: "nobody called before me"
    # everyone honest sees A first; B presses after A's call reached it
    calls_a = w.call(a)
    for r in range(5):
        if r != a:
            w.give(r, a, calls_a)
    w.peers[seat].buy_windows.calls = lambda window: lie[seat]
    calls_b = w.call(b)
    for r in range(5):
        if r != b:
            w.give(r, b, calls_b)
    for other in w.eligible:
        if other not in (a, b):
            w.flood([(other, e) for e in sends(w.peers[other].answer_buy(False, 0.0))])
    assert winner_everywhere(w) == a
    assert verify_winner(w) == a
    settled = w.peers[0].replica.last_race
    assert settled is not None and settled.votes == {a: 4, b: 1}  # the lie moved one vote


def test_a_seat_that_signs_two_answers_for_one_window_is_named_with_both_kept():
    w = Window()
    seat = w.eligible[1]
    identity = w.table.identities[seat]
    game = w.table.config.game_id
    first = identity.sign(BuyAnswer(game, w.window, seat, False, ()).encode())
    second = identity.sign(BuyAnswer(game, w.window, seat, True, (seat,)).encode())
    peer = w.peers[w.turn]
    peer.receive(first, 0.0, seat)
    assert peer.frozen is None
    peer.receive(second, 0.0, seat)
    assert peer.culprit == seat and "Køb! answers" in (peer.frozen or "")
    assert (first, second) in peer.trouble.evidence


def _pass_to_everyone_claim_to_the_sequencer() -> tuple[Window, int, bytes, bytes]:
    """A window where one eligible seat signs a pass for every peer but the sequencer
    and a claim for the sequencer; the other eligible seats pass. Returns the window,
    the seat and its two signed answers."""
    w = Window()
    seat = w.eligible[1]
    identity = w.table.identities[seat]
    game = w.table.config.game_id
    passed = identity.sign(BuyAnswer(game, w.window, seat, False, ()).encode())
    claimed = identity.sign(BuyAnswer(game, w.window, seat, True, (seat,)).encode())
    for peer in w.peers:
        if peer.seat not in (seat, w.turn):
            w.give(peer.seat, seat, passed)
    w.give(w.turn, seat, claimed)
    for other in w.eligible:
        if other != seat:
            w.flood([(other, e) for e in sends(w.peers[other].answer_buy(False, 0.0))])
    return w, seat, passed, claimed


def test_pass_to_everyone_and_claim_to_the_sequencer_is_named_by_the_others():
    # issue 24 item 4: a resolution whose answer from seat s differs from the one a
    # peer holds is s's equivocation (both kept, s named)
    w, seat, passed, claimed = _pass_to_everyone_claim_to_the_sequencer()
    named = [p for p in w.peers if p.seat not in (seat, w.turn)]
    assert named and all(p.culprit == seat for p in named), [p.frozen for p in named]
    assert all((passed, claimed) in p.trouble.evidence for p in named)
    assert all(not any(p.replica.state.buys) for p in w.peers)  # nobody bought on it


def test_a_seat_that_never_sends_its_observation_is_the_named_stall():
    w = Window()
    discarder = w.peers[0].replica.state.discarder
    assert discarder is not None and discarder not in w.eligible
    w.dropped.add(discarder)  # it hears everything and says nothing
    for seat in w.eligible:
        w.flood([(seat, e) for e in sends(w.peers[seat].answer_buy(seat == w.eligible[0], 0.0))])
    for peer in w.peers:
        if peer.seat == discarder:
            continue
        assert peer.replica.state.phase is Phase.BUY  # the window cannot close without it
        waiting = peer.waiting(1.0)
        assert waiting is not None and waiting.seat == discarder
        assert "Køb" in str(waiting.what)
        stalls = [e for e in peer.tick(STALL_AFTER_S + 1) if isinstance(e, Stalled)]
        assert [s.stall.seat for s in stalls] == [discarder]


# --- bots react like people (issue 25: a person can win) ---------------------------


class Eager:
    """Calls Køb! on every discard it may (a bot that always wants the card)."""

    def __init__(self, seat: int) -> None:
        self.inner = RandomPlayer(random.Random(seat))

    def choose(self, view):
        return self.inner.choose(view)

    def wants_buy(self, view):
        return True


def test_a_bot_calls_after_its_reaction_time_and_a_prompt_person_wins():
    # bots/reaction.py: a bot calls 0.7-2 s after the window opened on its clock; a
    # person pressing k at 0.4 s is first on every screen and buys
    w = Window(players=lambda seat: Reacting(Eager(seat), "random", seat))
    person = w.eligible[-1]  # farthest from the discarder: a tie would not be theirs
    bots = [s for s in w.eligible if s != person]
    reaction = {s: w.peers[s].player.call_after_s(w.window) for s in bots}
    assert all(0.7 <= r <= 2.0 for r in reaction.values())
    w.now = 0.4
    w.flood([(person, e) for e in sends(w.peers[person].answer_buy(True, w.now))])
    called_at: dict[int, float] = {}
    for tick in range(5, 25):
        w.now = tick / 10
        for peer in w.peers:
            out = sends(peer.tick(w.now))
            if any(answer_of(e).claim for e in out if _is_answer(e)):
                called_at.setdefault(peer.seat, w.now)
            w.flood([(peer.seat, e) for e in out])
        if any(p.replica.state.phase is not Phase.BUY for p in w.peers):
            break
    for seat, when in called_at.items():
        assert when >= reaction[seat], (seat, when, reaction[seat])  # never before it
    assert winner_everywhere(w) == person
    settled = w.peers[0].replica.last_race
    assert settled is not None and settled.order[0] == person
    assert settled.votes[person] == 5  # first on every screen


def _is_answer(envelope: bytes) -> bool:
    return isinstance(decode(unpack(envelope)[2]), BuyAnswer)


def test_the_bench_reports_how_often_a_prompt_person_wins_against_each_level():
    figures = kob_race(200)
    for level in ("easy", "normal", "hard"):
        assert figures[f"bots.kob.prompt_person_vs_{level}.wins"] >= 0.9, figures


# --- seat and lot: sealed answers, no last look (issue 24 item 4) -------------------


def _kinds(envelopes: list[bytes]) -> list[str]:
    return [unpack(unpack(e)[2])["kind"] for e in envelopes]


def test_under_seat_answers_are_sealed_and_opened_only_once_every_seal_is_in():
    # SPEC §4.7: nobody can see a rival's answer before its own is fixed
    w = Window(house={"buy_priority": "seat"})
    near, *rest = w.eligible
    last = rest[-1]
    sent: list[bytes] = []
    for seat in [near, *rest[:-1]]:
        out = sends(w.peers[seat].answer_buy(seat == near, 0.0))
        assert _kinds(out) == ["buy/seal"], "sealed, not opened"
        sent += out
        w.flood([(seat, e) for e in out])
    # every peer holds those seals and nobody has opened anything yet
    assert all(p.replica.state.phase is Phase.BUY for p in w.peers)
    assert all(not p.buy_windows.answers(w.window) for p in w.peers if p.seat != last)
    waiting = w.peers[w.turn].waiting(1.0)
    assert waiting is not None and waiting.seat == last  # the one seal missing
    out = sends(w.peers[last].answer_buy(True, 0.0))
    assert _kinds(out) == ["buy/seal", "buy/answer"]  # the last seal opens at once
    w.flood([(last, e) for e in out])
    assert winner_everywhere(w) == near  # seat priority: nearest after the discarder
    assert verify_winner(w) == near
    _, body = resolution(w.peers[0])
    assert len(body.seals) == len(w.eligible) == len(body.answers)


def test_an_opening_that_does_not_match_its_seal_names_its_seat():
    w = Window(house={"buy_priority": "seat"})
    cheat = w.eligible[-1]
    identity, game = w.table.identities[cheat], w.table.config.game_id
    # it seals a pass like everyone, then "opens" a claim (its honest opening dropped)
    (seal,) = sends(w.peers[cheat].answer_buy(False, 0.0))
    w.flood([(cheat, seal)])
    w.dropped.add(cheat)
    for seat in w.eligible[:-1]:
        w.flood([(seat, e) for e in sends(w.peers[seat].answer_buy(False, 0.0))])
    nonce = nonce_of(identity, game, w.window)
    lie = identity.sign(BuyAnswer(game, w.window, cheat, True, (), nonce).encode())
    for peer in w.peers:
        if peer.seat != cheat:
            w.give(peer.seat, cheat, lie)
    sequencer = w.peers[w.turn]
    assert sequencer.culprit == cheat, sequencer.frozen
    assert "does not open its seal" in (sequencer.frozen or "")
    assert not any(p.replica.state.buys[cheat] for p in w.peers)


def test_a_seat_restarted_inside_a_sealed_window_opens_what_it_sealed():
    # the nonce is derived from the seat's own signature: after a restart it can still
    # open its seal (its own seal comes back by catch-up), and it never seals twice
    w = Window(house={"buy_priority": "seat"})
    seat = w.eligible[0]
    w.flood([(seat, e) for e in sends(w.peers[seat].answer_buy(True, 0.0))])
    old = w.peers[seat]
    deck = old.replica.deck
    assert deck is not None  # what its secrets file keeps: the round's seed, and the
    seeds = {deck.seat.params.round_no: deck.seat.seed.value}  # next round's if open
    following = old.replica.next_deck
    if following is not None:
        seeds[following.seat.params.round_no] = following.seat.seed.value
    replica = SeatedReplica(
        w.table.config,
        seat,
        w.table.identities[seat],
        Counter(b"restarted"),
        seeds=seeds,
    )
    for record in old.records:
        replica.restore(record.step, record.acks)
    restarted = Peer(replica, Holder(seat), records=list(old.records))
    w.peers[seat] = restarted
    w.post(seat, restarted.start(0.0))
    assert restarted.answered_buy()  # its seal came back: the person is not asked again
    assert sends(restarted.answer_buy(False, 0.0)) == []
    for other in w.eligible[1:]:
        w.flood([(other, e) for e in sends(w.peers[other].answer_buy(False, 0.0))])
    assert winner_everywhere(w) == seat  # it opened the claim it sealed before the crash


@pytest.mark.parametrize(
    ("seats", "honest_a", "honest_b", "liars", "winner"),
    [
        (5, 4, 0, 1, "A"),  # one liar, every honest screen saw A first: A
        (3, 2, 0, 1, "A"),  # ... even at a table of 3 (2 honest screens against 1)
        (4, 2, 1, 1, "B"),  # one liar tips a 2-1 split into a tie: B sits nearer
        (5, 3, 1, 1, "A"),  # a split by two survives one liar
        (3, 1, 0, 2, "B"),  # two colluders at 3: one honest screen left
        (4, 2, 0, 2, "B"),  # two colluders at 4: a 2-2 tie, B nearer
        (5, 3, 0, 2, "A"),  # two colluders at 5 cannot flip a unanimous race
    ],
)
def test_how_close_a_race_lying_seats_can_flip(seats, honest_a, honest_b, liars, winner):
    # docs/fairness.md and SPEC §4.7: k liars flip A's race to B exactly when
    # h_B + k > h_A, or h_B + k = h_A and B sits nearer after the discarder
    a, b = 1, 0  # eligible order (b, a): B is nearest
    votes = [(a,)] * honest_a + [(b,)] * honest_b + [(b,)] * liars
    assert len(votes) == seats
    answers = [
        BuyAnswer(b"g" * 32, 9, seat, seat in (a, b), seen) for seat, seen in enumerate(votes)
    ]
    # a claimant's own observation must list itself: give A and B theirs explicitly
    answers[a] = BuyAnswer(b"g" * 32, 9, a, True, (b, a) if votes[a] == (b,) else (a,))
    answers[b] = BuyAnswer(b"g" * 32, 9, b, True, (a, b) if votes[b] == (a,) else (b,))
    order = race(answers, (b, a)).order
    assert order[0] == (a if winner == "A" else b)


def test_an_honest_opening_to_all_and_a_false_one_to_the_sequencer_is_named_everywhere():
    """Issue 24: a seat seals a pass, opens it honestly to everyone but sends the
    sequencer a claim that does not open its seal. The sequencer named it, but the
    others held a good opening and went on waiting for the sequencer's resolution (and
    would end the honest sequencer out). Now an opening is checked against its seal on
    arrival, and the proof (the seal and the answer, both signed by that seat) goes to
    all: every seat names it, and the others may end the game without it."""
    w = Window(house={"buy_priority": "seat"})
    cheat = w.eligible[-1]
    identity, game = w.table.identities[cheat], w.table.config.game_id
    (seal,) = sends(w.peers[cheat].answer_buy(False, 0.0))
    w.flood([(cheat, seal)])
    w.dropped.add(cheat)  # what it sends from now on is the test's to deliver
    for seat in w.eligible[:-1]:
        w.flood([(seat, e) for e in sends(w.peers[seat].answer_buy(False, 0.0))])
    opened = [e for e in w.peers[cheat].buy_windows.answers(w.window) if answer_of(e).seat == cheat]
    assert opened, "the cheat opened its pass once every seal was in"
    nonce = nonce_of(identity, game, w.window)
    lie = identity.sign(BuyAnswer(game, w.window, cheat, True, (), nonce).encode())
    for peer in w.peers:
        if peer.seat not in (cheat, w.turn):
            w.give(peer.seat, cheat, opened[0])
    w.give(w.turn, cheat, lie)
    others = [p for p in w.peers if p.seat != cheat]
    assert all(p.culprit == cheat for p in others), [(p.seat, p.frozen) for p in others]
    assert not any(p.replica.state.buys[cheat] for p in w.peers)


def test_verify_names_the_seat_whose_recorded_opening_does_not_open_its_recorded_seal():
    """Issue 24 item 3: what verify sees of a two-faced Køb! answer. Under `seat`/`lot`
    the buy step records every eligible seat's seal and opening, both signed by that
    seat: a recorded opening that does not open its recorded seal names that seat (SPEC
    §4.7), never the sequencer that carried it. (The other face of a seat that answered
    two ways never enters a record: every seat that held it refused the resolution.)"""
    from dataclasses import replace as replaced

    from p2p_rommy.log.messages import Record, Step
    from tests.loopback import transcript_of

    w = Window(house={"buy_priority": "seat"})
    for seat in w.eligible:
        w.post(seat, w.peers[seat].answer_buy(False, 0.0))
    assert all(p.frozen is None for p in w.peers)
    n, body = resolution(w.peers[0])
    cheat = w.eligible[0]
    identity, game = w.table.identities[cheat], w.table.config.game_id
    nonce = nonce_of(identity, game, w.window)
    lie = identity.sign(BuyAnswer(game, w.window, cheat, True, (), nonce).encode())
    answers = tuple(lie if answer_of(a).seat == cheat else a for a in body.answers)
    records = list(w.peers[0].records)
    step = decode(unpack(records[n - 1].step)[2])
    assert isinstance(step, Step)
    forged = replaced(step, body=replaced(body, answers=answers))
    sequencer = w.table.identities[step.seat]
    records[n - 1] = Record(sequencer.sign(forged.encode()), records[n - 1].acks)
    config, identities = w.table.config, w.table.identities
    report = verify_transcript(transcript_of(config, identities, records))
    assert report.culprit == cheat != step.seat, report.text()
    assert "does not open its seal" in (report.what or ""), report.text()


def test_the_sequencer_of_a_two_faced_answer_learns_the_proof_and_names_it_too():
    """Issue 24: pass to everyone, claim to the sequencer (under `first`). The others
    named the seat but the sequencer, holding only the claim, waited on for their ACKs
    and could never sign an end without the cheat. The proof now goes to all."""
    w, seat, _passed, _claimed = _pass_to_everyone_claim_to_the_sequencer()
    assert all(p.culprit == seat for p in w.peers if p.seat != seat), [p.frozen for p in w.peers]
