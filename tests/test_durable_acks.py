"""Durable ACKs (issue 24, item 5): the step a seat ACKs is on disk before the ACK
leaves; restarted, the seat holds it again, and a different step for that number from
its proposer is the proposer's equivocation — the resumed seat neither ACKs it nor is
framed as the one that signed two ACKs. Production `Peer`s on a logical clock, and the
session's files."""

from __future__ import annotations

import random
from dataclasses import replace

from p2p_rommy.bots.random_player import RandomPlayer
from p2p_rommy.engine.moves import DrawStock, TakeDiscard
from p2p_rommy.log.events import Acked, sends
from p2p_rommy.log.messages import Ack, MoveStep, Step, decode
from p2p_rommy.log.peer import Peer
from p2p_rommy.log.seated_replica import SeatedReplica
from p2p_rommy.seat.storage import GameStore
from p2p_rommy.wire.identity import envelope_body
from tests.deck_table import Counter
from tests.peer_table import PeerTable
from tests.test_blame import ATTACKER, at_attackers_turn

VICTIM, HONEST = 0, 2


def restarted(table: PeerTable, seat: int, acked: tuple[bytes, bytes] | None) -> Peer:
    """`seat` restarted from its committed records and round seed, as `rommy resume`
    does, holding `acked` (what its files kept of its last ACK)."""
    old = table.peers[seat]
    assert old.replica.deck is not None
    seeds = {old.replica.deck.seat.params.round_no: old.replica.deck.seat.seed.value}
    entropy = Counter(b"restarted %d" % seat)
    replica = SeatedReplica(table.config, seat, table.identities[seat], entropy, seeds=seeds)
    records = list(old.records)
    for record in records:
        replica.restore(record.step, record.acks)
    peer = Peer(replica, RandomPlayer(random.Random(9)), records=records, acked=acked)
    table.peers[seat] = peer
    return peer


def two_faced_steps(table: PeerTable) -> tuple[bytes, bytes]:
    """The attacker's draw and, for the same number, a take (both legal), signed."""
    replica = table.peers[ATTACKER].replica
    draw = Step(
        replica.game, replica.n + 1, ATTACKER, replica.state_hash(),
        MoveStep(DrawStock(ATTACKER), None),
    )  # fmt: skip
    take = replace(draw, body=MoveStep(TakeDiscard(ATTACKER), None))
    return replica.identity.sign(draw.encode()), replica.identity.sign(take.encode())


def test_a_resumed_seat_holds_the_step_it_acked_and_names_the_proposer_of_another():
    table = at_attackers_turn()
    first, second = two_faced_steps(table)
    out = table.peers[VICTIM].receive(first, 1.0, via=ATTACKER)
    acked = [e for e in out if isinstance(e, Acked)]
    (ack_envelope,) = sends(out)
    assert [(a.step, a.ack) for a in acked] == [(first, ack_envelope)]  # kept before sent
    table.peers[HONEST].receive(first, 1.0, via=ATTACKER)
    table.peers[HONEST].receive(ack_envelope, 1.0, via=VICTIM)
    # the victim crashes before step n commits; it resumes with what its files kept
    victim = restarted(table, VICTIM, (acked[0].step, acked[0].ack))
    resent = sends(victim.start(2.0))
    assert ack_envelope in resent  # the very same ACK, again
    out = victim.receive(second, 2.1, via=ATTACKER)
    acks_of_second = [
        e for e in sends(out) if isinstance(decode(envelope_body(e)), Ack) and e != ack_envelope
    ]
    assert acks_of_second == []  # it never ACKs a second step for that number
    assert victim.culprit == ATTACKER and "signed two different steps" in (victim.frozen or "")
    honest = table.peers[HONEST]
    for envelope in sends(out):
        honest.receive(envelope, 2.2, via=VICTIM)
    assert honest.culprit in (None, ATTACKER)  # never the resumed seat


def test_the_step_a_seat_acks_is_kept_in_its_files_and_read_back(tmp_path):
    from p2p_rommy.log.transcript import Genesis, sign_config

    table = at_attackers_turn()
    first, _ = two_faced_steps(table)
    (acked,) = [e for e in table.peers[VICTIM].receive(first, 1.0) if isinstance(e, Acked)]
    config = table.config
    store = GameStore(tmp_path, config.game_id)
    signatures = tuple(sign_config(config, identity) for identity in table.identities)
    store.begin(Genesis(config, config.encode(), signatures))
    assert store.load().acked is None
    store.close()
    store.save_ack(acked.step, acked.ack)
    store.save_ack(acked.step, acked.ack)  # each replaces the last
    assert GameStore(tmp_path, config.game_id).load().acked == (acked.step, acked.ack)
