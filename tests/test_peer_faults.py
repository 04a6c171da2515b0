"""The log's safety rules, each provoked on purpose with in-memory peers: bad input is
refused with a reason and changes nothing; an out-of-turn step is refused with a NACK;
an ACK of a different state hash is its signer's refusal; two signed steps for one
number are kept as proof of equivocation."""

from __future__ import annotations

import msgpack

from p2p_rommy.engine.moves import DrawStock
from p2p_rommy.limits import REFUSED_KEPT
from p2p_rommy.log.events import sends
from p2p_rommy.log.messages import Ack, MoveStep, Step, step_digest
from tests.peer_table import PeerTable


def started(players: int = 3) -> tuple[PeerTable, list[list[bytes]]]:
    table = PeerTable("rummy", players, {"target_score": "15"})
    outputs = [sends(peer.start()) for peer in table.peers]
    return table, outputs


def test_bad_signature_and_garbage_are_refused_without_change():
    table, outputs = started()
    step_envelope = outputs[0][0]  # seat 0 proposes step 1 (its deck commitment)
    peer = table.peers[1]
    before = (peer.replica.n, peer.replica.state_hash(), peer.replica.tentative)
    version, key, body, signature = msgpack.unpackb(step_envelope)
    forged = msgpack.packb([version, key, body, bytes([signature[0] ^ 1]) + signature[1:]])
    for junk in (forged, b"\x00\x01garbage", msgpack.packb({"kind": "log/step"})):
        peer.receive(junk)
    assert len(peer.trouble.refused) == 3 and "bad signature" in peer.trouble.refused[0]
    assert (peer.replica.n, peer.replica.state_hash(), peer.replica.tentative) == before
    assert peer.frozen is None
    # the honest step still goes through afterwards
    assert sends(peer.receive(step_envelope))


def test_a_step_out_of_turn_is_refused_without_stopping_the_table():
    table, outputs = started()
    intruder = table.peers[2]
    rogue = Step(
        intruder.replica.game,
        1,
        2,
        intruder.replica.state_hash(),
        MoveStep(DrawStock(2), None),
    )
    envelope = intruder.replica.identity.sign(rogue.encode())
    peer = table.peers[1]
    before = (peer.replica.n, peer.replica.state_hash(), peer.replica.tentative)
    out = peer.receive(envelope, via=2)
    assert sends(out) == [] and peer.frozen is None
    assert list(peer.trouble.refused) == [
        "from seat 2: seat 2 proposed step 1 out of turn (it is seat 0's step)"
    ]
    assert (peer.replica.n, peer.replica.state_hash(), peer.replica.tentative) == before
    assert sends(peer.receive(outputs[0][0]))  # seat 0's step is still ACKed
    peer.receive(envelope, via=2)  # and the rogue step stays refused while it is pending
    assert len(peer.trouble.refused) == 2 and peer.frozen is None


def test_an_invalid_step_in_turn_is_refused_with_a_nack_naming_the_proposer():
    table, _ = started()
    cheat = table.peers[0]
    rogue = Step(
        cheat.replica.game,
        1,
        0,
        cheat.replica.state_hash(),
        MoveStep(DrawStock(0), None),  # a move before the deal
    )
    out = table.peers[1].receive(cheat.replica.identity.sign(rogue.encode()))
    assert table.peers[1].frozen and table.peers[1].culprit == 0
    assert "refused step 1 from seat 1" in table.peers[1].frozen
    nack = msgpack.unpackb(msgpack.unpackb(sends(out)[0])[2])
    assert nack["kind"] == "log/nack" and nack["seat"] == 1


def test_a_different_state_hash_is_its_signers_refusal():
    """Issue 24, 7: an ACK of another state no longer freezes the table naming nobody:
    it is its signer's refusal of the step (recorded, the step sent to all as evidence
    against a two-faced proposer), and nothing commits without that seat."""
    table, outputs = started()
    peer = table.peers[1]
    peer.receive(outputs[0][0])  # validate seat 0's step 1
    liar = table.peers[2]
    wrong = Ack(liar.replica.game, 1, 2, step_digest(outputs[0][0]), b"\x13" * 32)
    out = peer.receive(liar.replica.identity.sign(wrong.encode()))
    assert peer.frozen is None
    (dissent,) = peer.trouble.dissents
    assert dissent.seat == 2 and "another state (1313131313131313" in dissent.reason
    assert outputs[0][0] in sends(out)  # the step it holds, to everyone
    assert peer.replica.n == 0  # nothing committed
    waiting = peer.waiting(0.0)
    assert waiting is not None and waiting.seat == 2


def test_two_signed_steps_for_one_number_are_kept_as_evidence():
    table, outputs = started()
    first = outputs[0][0]
    peer = table.peers[1]
    peer.receive(first)
    cheat = table.peers[0]
    other = Step(
        cheat.replica.game,
        1,
        0,
        peer.replica.state_hash(),
        MoveStep(DrawStock(0), None),
    )
    second = cheat.replica.identity.sign(other.encode())
    peer.receive(second)
    assert peer.frozen and "seat 1 signed two different steps for step 1" in peer.frozen
    assert peer.culprit == 0 and peer.trouble.evidence == [(first, second)]


def test_acks_and_buy_answers_far_ahead_are_refused_not_kept():
    """Bounded issue: ACKs and buy answers for steps far ahead are refused, so a seated
    peer cannot make another keep them without bound."""
    from p2p_rommy.log.messages import BuyAnswer

    table, _ = started()
    peer, flooder = table.peers[1], table.peers[2]
    game = flooder.replica.game
    for n in range(1, 200):
        ack = Ack(game, n, 2, bytes(32), bytes(32))
        answer = BuyAnswer(game, n, 2, True)
        for message in (ack, answer):
            peer.receive(flooder.replica.identity.sign(message.encode()), via=2)
    assert len(peer.early.acks) <= 8 and len(peer.buy_windows._answers) <= 8
    assert peer.trouble.refused_count >= 2 * (199 - 8)  # every one refused...
    assert len(peer.trouble.refused) <= REFUSED_KEPT  # ...and the reasons kept are bounded too
    assert all("too far ahead" in r for r in peer.trouble.refused)
    assert peer.frozen is None


def test_stall_and_end_texts_count_seats_from_one():
    """Issue 31 (5): stall messages said "seat 0" while "you are seat N of M" counts
    from 1; every text for people counts from 1 (the `seat` fields stay 0-based)."""
    from p2p_rommy.errors import ProtocolError
    from p2p_rommy.i18n import Phrase
    from p2p_rommy.log.stalls import Stall
    from p2p_rommy.log.trouble import Dissent

    assert str(Stall(0, Phrase("its move"), 12.0)).startswith("seat 1 has not sent")
    assert str(Dissent(2, 7, "no")).startswith("seat 3 refused step 7")
    assert str(ProtocolError(1, "bad", 4)) == "seat 2 at step 4: bad"
