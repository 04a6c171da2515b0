"""The next round shuffled in the background (issue #27, SPEC §3.3 "The next round's
deck", §4.4 "Proposer"): while a round is played, the next round's commitments and
shuffle chain run one step after each move, so a round starts with its deal only. Over
real TCP; the transcripts verify FAIR, and a cheat in the background deck stops the
table naming its shuffler, as `rommy verify` does."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import socket
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

from p2p_rommy.deck import DeckSeat, group
from p2p_rommy.deck.derive import round_permutation
from p2p_rommy.deck.messages import Commit, Shuffle
from p2p_rommy.deck.messages import decode as decode_deck
from p2p_rommy.deck.proofs import ShuffleContext, prove_shuffle, shuffle
from p2p_rommy.engine.state import Phase
from p2p_rommy.log.messages import DeckStep, MoveStep, Record, Step, decode
from p2p_rommy.log.replica import Observer
from p2p_rommy.log.transcript import frame_record, parse
from p2p_rommy.seat.loopback_match import simulate_network
from p2p_rommy.seat.session import Session
from p2p_rommy.verify import verify_transcript
from p2p_rommy.wire.identity import open_envelope, roster_of
from tests import adversaries as adv
from tests.adversaries import Cheat, play_against


@pytest.fixture(scope="module")
def four_seats(tmp_path_factory):
    """A 4-seat Rommé match of two deals (110 cards) over TCP; each record's commit time
    at seat 0. Two deals are what the tests need (round 2 shuffled during round 1) and
    end whatever the bots do (a Rummy match to 250 points took minutes)."""
    path = tmp_path_factory.mktemp("background") / "transcript"
    times: dict[int, list[float]] = defaultdict(list)
    real = Session._committed

    def timed(self: Session, record: Record) -> None:
        times[id(self)].append(time.monotonic())
        real(self, record)

    patch = pytest.MonkeyPatch()
    patch.setattr(Session, "_committed", timed)
    try:
        final, records, sessions = asyncio.run(
            simulate_network("romme", 4, 11, {"fixed_deals": "2"}, path, timeout=600)
        )
    finally:
        patch.undo()
    return path.read_bytes(), records, times[id(sessions[0])], final


def steps_by_round(data: bytes):
    """Per log step: what it is ("move", "commit", "shuffle", "shares", "seed"), the
    round its deck message is for, or the round a move is played in; and where each
    round's deal completed (the engine's `start`)."""
    parsed = parse(data)
    roster = roster_of(parsed.genesis.config.public_keys)
    observer = Observer(parsed.genesis.config)
    kinds: list[tuple[str, int]] = []
    dealt: dict[int, int] = {}
    for n, record in enumerate(parsed.records, start=1):
        step = decode(open_envelope(record.step, roster).body)
        assert isinstance(step, Step)
        playing = observer.state.round_index
        if isinstance(step.body, DeckStep):
            message = decode_deck(open_envelope(step.body.envelope, roster).body)
            kind = {Commit: "commit", Shuffle: "shuffle"}.get(type(message), "other")
            kinds.append((kind, message.round_no))
        else:
            assert isinstance(step.body, MoveStep)
            kinds.append(("move", playing))
        was = observer.state.phase
        observer.restore(record.step, record.acks)
        if was is Phase.ROUND_START and observer.state.phase is not Phase.ROUND_START:
            dealt[observer.state.round_index] = n
    return kinds, dealt


def test_round_two_is_shuffled_before_round_one_ends_and_starts_with_its_deal(four_seats, capsys):
    data, _, times, final = four_seats
    assert final.phase is Phase.MATCH_OVER and len(final.round_scores) >= 2
    kinds, dealt = steps_by_round(data)
    rounds = len(final.round_scores)
    moves = [(i, r) for i, (k, r) in enumerate(kinds) if k == "move"]
    last_move = {r: max(i for i, rr in moves if rr == r) for r in range(rounds)}
    for r in range(1, rounds):
        chain = [i for i, (k, rr) in enumerate(kinds) if k in ("commit", "shuffle") and rr == r]
        assert len(chain) == 8, chain  # four commits, four shuffles of the deal
        # the whole chain ran during round r - 1, between its moves
        assert max(chain) < last_move[r - 1], (r, chain, last_move[r - 1])
        assert min(chain) >= dealt[r - 1]  # opened once round r - 1's deal was in
        # between the last move and the new hand: seeds and the deal's shares only
        between = kinds[last_move[r - 1] + 1 : dealt[r]]
        assert {k for k, _ in between} == {"other"}, between
        # one background step after a move at most: the round never waits on two links
        for a, b in itertools.pairwise(chain):
            assert any(k == "move" for k, _ in kinds[a + 1 : b]), (r, a, b)
    waits = [times[dealt[r] - 1] - times[last_move[r - 1]] for r in range(1, rounds)]
    with capsys.disabled():  # the figure, printed whether or not -s is given
        print(
            "\nrounds 2+: last move -> next hand at seat 0, 4 seats in one process over TCP: "
            + ", ".join(f"{w * 1000:.0f} ms" for w in waits)
        )


def test_a_two_deck_transcript_verifies_fair_and_a_removed_record_is_damage(four_seats):
    data, _, _, final = four_seats
    report = verify_transcript(data)
    assert report.fair and report.finished, report.text()
    # each round listed once, in order, however the two decks' steps interleave
    assert [r.round_no for r in report.rounds] == list(range(len(final.round_scores)))
    # one background record removed: the file is damaged, nobody is named
    kinds, _ = steps_by_round(data)
    background = next(i for i, (k, r) in enumerate(kinds) if k == "shuffle" and r == 1)
    frames = [frame_record(r.encode()) for r in parse(data).records]
    head = data[: len(data) - len(b"".join(frames))]
    report = verify_transcript(head + b"".join(f for i, f in enumerate(frames) if i != background))
    assert report.status == "damaged" and report.culprit is None, report.text()


def _tamper_round_one(deck, seat) -> None:
    if seat.params.round_no == 1:
        adv.substitute_card(deck, seat)


@pytest.mark.parametrize(
    ("players", "cheater"),
    [(2, 0), (3, 1)],  # seed 3: round 1's dealer, the first to shuffle its deck
)
def test_a_bad_shuffle_of_the_background_deck_stops_the_table_naming_its_shuffler(players, cheater):
    """Round 1's first shuffler cheats while round 0 is played: the table stops naming
    it before round 0 is over. If the bad shuffle was committed (at a table of two the
    next shuffler may take it on trust, pipelining), `rommy verify` names it at its step;
    if it was refused before it committed, what was committed is fair."""
    shuffle = adv.tampered_shuffle(_tamper_round_one)
    table = asyncio.run(
        play_against(
            Cheat(replica=adv.cheating_deck(shuffle)),
            cheater,
            adv.all_frozen,
            players=players,
            seed=3,
            house={"target_score": "500"},
            timeout=120,
        )
    )
    for session in table.honest:
        peer, replica = session.peer, session.peer.replica
        assert peer.culprit == cheater and "bad shuffle" in peer.frozen, peer.frozen
        assert replica.state.round_index == 0 and replica.state.phase is not Phase.ROUND_START
        assert replica.next_deck is not None
        assert replica.next_deck.seat.params.shuffle_order()[0] == cheater
    report = verify_transcript(table.transcript)
    if players == 2 and not report.fair:  # committed on trust: the transcript proves whose
        assert report.culprit == cheater and "bad shuffle" in report.text(), report.text()
    else:  # refused before it committed: what was committed is fair, and not finished
        assert report.fair and not report.finished, report.text()


def free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    for each in sockets:
        each.bind(("127.0.0.1", 0))
    ports = [each.getsockname()[1] for each in sockets]
    for each in sockets:
        each.close()
    return ports


def test_rounds_two_and_later_start_soon_at_a_table_of_four_processes(capsys):
    """The issue's figure: four seats as four OS processes over TCP on 127.0.0.1, the
    time from the commit of a round's last move to the commit that completes the next
    deal (the next hand known), at every seat. Printed; what is asserted is that every
    seat played the same rounds and measured each start (the budget, 300 ms, is for an
    idle machine: this one is shared)."""
    ports = free_ports(4)
    script = Path(__file__).with_name("seat_process.py")
    env = {**os.environ, "PYTHONPATH": str(script.parent.parent)}
    processes = [
        subprocess.Popen(
            [sys.executable, str(script), str(seat), *map(str, ports)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for seat in range(4)
    ]
    results = []
    for process in processes:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    rounds = {r["rounds"] for r in results}
    assert len(rounds) == 1 and rounds.pop() >= 2, results
    assert all(len(r["waits"]) == r["rounds"] - 1 for r in results), results
    with capsys.disabled():  # the figure, printed whether or not -s is given
        print(
            "\nrounds 2+, four processes: last move -> next hand (ms) per seat: "
            + "; ".join(
                f"seat {r['seat'] + 1}: " + ", ".join(str(round(w * 1000)) for w in r["waits"])
                for r in results
            )
        )


class OffSeedShuffle(DeckSeat):
    """Round 0's deal: shuffles by a permutation other than its seed's, with a valid
    proof of it: only the audit's replay from the seeds sees it (SPEC §3.8)."""

    def _my_shuffle(self, shuffled):  # type: ignore[no-untyped-def]
        p = self.params
        if p.round_no != 0 or shuffled.index != 0:
            return super()._my_shuffle(shuffled)
        scalar = self._scalar(0)
        key = group.mul_base(scalar)
        honest = list(round_permutation(p.game, 0, self.seat, 0, shuffled.size, self.seed))
        permutation = honest[1:] + honest[:1]
        source = shuffled.decks[-1] if shuffled.decks else shuffled.points
        deck = shuffle(scalar, permutation, source)
        context = ShuffleContext(p.game, 0, 0, self.seat, self.binding)
        self._prepared = None
        proof = prove_shuffle(context, scalar, key, permutation, source, deck, self.entropy)
        return Shuffle(p.game, 0, self.seat, self.context, 0, key, deck, proof)


def test_an_audit_left_for_the_next_deal_still_stops_the_table_naming_the_cheat():
    """A seat audits a finished round while the next is played (SPEC §4.4, "Derived
    transitions"), not between the last move and the next hand: a finding then stops
    the table in the next round, naming the seat, and `rommy verify` names it too."""
    table = asyncio.run(
        play_against(
            Cheat(replica=adv.cheating_deck(OffSeedShuffle)),
            1,
            adv.all_frozen,
            seed=3,
            house={"target_score": "500"},
            timeout=180,
        )
    )
    for session in table.honest:
        peer, state = session.peer, session.peer.replica.state
        assert peer.culprit == 1 and "round 1 audit" in peer.frozen, peer.frozen  # as players count
        assert state.round_index == 1 and state.phase is not Phase.ROUND_START
    report = verify_transcript(table.transcript)
    assert not report.fair and report.culprit == 1, report.text()
