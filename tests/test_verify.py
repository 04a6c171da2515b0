"""`rommy verify`: a clean transcript is FAIR (0); a step signed by a seat that breaks
a rule is CHEATING DETECTED naming it (1); junk exits 2; damage to the file — a bad
signature, records removed, repeated or reordered, a flipped bit, bytes after the end
— is DAMAGED (3) and names nobody; a cut transcript is INCOMPLETE (4), checked as far
as it goes (trust issue, attack 8)."""

from __future__ import annotations

import subprocess
import sys
import time

import msgpack
import pytest

from p2p_rommy.cli import main
from p2p_rommy.engine.moves import Discard
from p2p_rommy.log.messages import Ack, MoveStep, Record, Step
from p2p_rommy.log.messages import decode as decode_log
from p2p_rommy.log.transcript import (
    FRAME_START,
    MAGIC,
    Genesis,
    frame_record,
    parse,
    sign_config,
)
from p2p_rommy.seat.loopback_match import seeded_config
from p2p_rommy.verify import verify_transcript
from tests.loopback import CLEAN_RUMMY

_, _, SEED, HOUSE = CLEAN_RUMMY


@pytest.fixture(scope="module")
def clean(clean_rummy: bytes) -> bytes:
    return clean_rummy  # played once for this module and tests/test_verify_once.py


def rebuild(data: bytes, records: list[Record]) -> bytes:
    parsed = parse(data)
    return (
        MAGIC
        + frame_record(parsed.genesis.encode())
        + b"".join(frame_record(r.encode()) for r in records)
    )


def run_verify(capsys, tmp_path, data: bytes) -> tuple[int, str]:
    path = tmp_path / "t"
    path.write_bytes(data)
    code = main(["verify", str(path)])
    out, err = capsys.readouterr()
    return code, out + err


def test_clean_transcript_is_fair(capsys, tmp_path, clean):
    code, out = run_verify(capsys, tmp_path, clean)
    assert code == 0, out
    assert out.strip().endswith("FAIR")
    assert "round 1: shuffled by" in out and "audit clean" in out and "standing:" in out


def test_json_report(capsys, tmp_path, clean):
    path = tmp_path / "t"
    path.write_bytes(clean)
    assert main(["verify", str(path), "--json"]) == 0
    import json

    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == "fair" and report["finished"] and report["steps"] > 100


def _records(data: bytes) -> list[Record]:
    return list(parse(data).records)


def assert_damaged(out: str, code: int, *words: str) -> None:
    assert code == 3 and "DAMAGED TRANSCRIPT" in out, out
    assert "CHEATING" not in out and "FAIR" not in out.splitlines()[-1]
    for word in words:
        assert word in out, out


def test_a_signed_step_that_breaks_a_rule_names_its_seat(capsys, tmp_path, clean):
    _, identities = seeded_config("rummy", 3, HOUSE, SEED)
    records = _records(clean)
    index = next(i for i, r in enumerate(records) if b"discard" in r.step)
    step = decode_log(msgpack.unpackb(records[index].step)[2])
    assert isinstance(step, Step)
    assert isinstance(step.body, MoveStep) and isinstance(step.body.move, Discard)
    other_slot = (step.body.move.slot + 1) % 52  # discard a slot that is not in the hand
    move = Discard(step.seat, other_slot, step.body.move.card)
    forged = Step(step.game, step.n, step.seat, step.prev, MoveStep(move, step.body.reveal))
    records[index] = Record(identities[step.seat].sign(forged.encode()), records[index].acks)
    code, out = run_verify(capsys, tmp_path, rebuild(clean, records))
    assert code == 1 and "CHEATING DETECTED" in out, out
    assert f"seat {step.seat + 1} (P{step.seat + 1}" in out or f"seat {step.seat + 1} (" in out
    assert f"at step {index + 1}" in out


def test_flipped_signature_byte_is_damage(capsys, tmp_path, clean):
    records = _records(clean)
    version, key, body, signature = msgpack.unpackb(records[40].step)
    signature = bytes([signature[0] ^ 0x01]) + signature[1:]
    records[40] = Record(msgpack.packb([version, key, body, signature]), records[40].acks)
    code, out = run_verify(capsys, tmp_path, rebuild(clean, records))
    assert_damaged(out, code, "record 41", "bad signature")


def test_changed_move_without_its_signature_is_damage(capsys, tmp_path, clean):
    records = _records(clean)
    index = next(i for i, r in enumerate(records) if b"discard" in r.step)
    version, key, body, signature = msgpack.unpackb(records[index].step)
    step = msgpack.unpackb(body)
    step["body"]["move"][2] += 1  # discard another slot
    records[index] = Record(
        msgpack.packb([version, key, msgpack.packb(step), signature]), records[index].acks
    )
    code, out = run_verify(capsys, tmp_path, rebuild(clean, records))
    assert_damaged(out, code, f"record {index + 1}")


@pytest.mark.parametrize("change", ["removed", "repeated", "reordered", "seeds swapped"])
def test_records_out_of_place_are_damage(capsys, tmp_path, clean, change):
    records = _records(clean)
    if change == "removed":
        del records[60]
    elif change == "repeated":
        records.insert(61, records[60])
    elif change == "reordered":
        records[60], records[61] = records[61], records[60]
    else:
        first, second = [i for i, r in enumerate(records) if b"deck/seed" in r.step][:2]
        records[first], records[second] = records[second], records[first]
    code, out = run_verify(capsys, tmp_path, rebuild(clean, records))
    assert_damaged(out, code, "removed, repeated or reordered")


@pytest.mark.parametrize("where", ["signature", "body"])
def test_an_altered_ack_is_damage(capsys, tmp_path, clean, where):
    """An ACK that is not exactly the envelope its seat owes is opened after all (issue
    #27's shortcut): a flipped signature byte, or a changed body under the old
    signature, is damage naming the record and the ACK."""
    records = _records(clean)
    acks = list(records[30].acks)
    version, key, body, signature = msgpack.unpackb(acks[1])
    if where == "signature":
        signature = bytes([signature[0] ^ 0x01]) + signature[1:]
    else:
        ack = msgpack.unpackb(body)
        ack["state"] = bytes(32)
        body = msgpack.packb(ack)
    acks[1] = msgpack.packb([version, key, body, signature])
    records[30] = Record(records[30].step, tuple(acks))
    code, out = run_verify(capsys, tmp_path, rebuild(clean, records))
    assert_damaged(out, code, "record 31", "seat 2's ACK", "bad signature")


def test_an_ack_of_another_state_signed_by_its_seat_names_the_seat(tmp_path, clean):
    """A well-signed ACK that acknowledges another state is that seat's doing: the
    shortcut's refusal falls back to the full check, which names it."""
    _, identities = seeded_config("rummy", 3, HOUSE, SEED)
    records = _records(clean)
    acks = list(records[30].acks)
    ack = decode_log(msgpack.unpackb(acks[2])[2])
    assert isinstance(ack, Ack)
    acks[2] = identities[2].sign(Ack(ack.game, ack.n, ack.seat, ack.step, bytes(32)).encode())
    records[30] = Record(records[30].step, tuple(acks))
    report = verify_transcript(rebuild(clean, records))
    assert report.culprit == 2 and report.step == 31, report.text()
    assert "ACKed another state" in (report.what or "")


def test_acks_of_another_step_are_damage(capsys, tmp_path, clean):
    records = _records(clean)
    records[30] = Record(records[30].step, records[31].acks)
    code, out = run_verify(capsys, tmp_path, rebuild(clean, records))
    assert_damaged(out, code, "record 31", "ACK")


def test_one_bit_flipped_in_the_middle_is_damage_not_a_torn_tail(capsys, tmp_path, clean):
    middle = len(clean) // 2
    for bit in (0x01, 0x80):
        flipped = clean[:middle] + bytes([clean[middle] ^ bit]) + clean[middle + 1 :]
        code, out = run_verify(capsys, tmp_path, flipped)
        assert_damaged(out, code)
        report = verify_transcript(flipped)
        assert report.culprit is None and report.steps < len(_records(clean))


def test_bytes_after_the_games_end_are_damage(capsys, tmp_path, clean):
    for tail in (b"junk", frame_record(_records(clean)[-1].encode())):
        code, out = run_verify(capsys, tmp_path, clean + tail)
        assert_damaged(out, code, "after the game's end")


def test_cut_transcript_is_incomplete_and_checked_as_far_as_it_goes(capsys, tmp_path, clean):
    records = _records(clean)[:50]
    report = verify_transcript(rebuild(clean, records))
    assert report.fair and report.steps == 50 and not report.finished
    assert report.status == "incomplete" and report.exit_code == 4
    assert any("not over" in note for note in report.pending)
    code, out = run_verify(capsys, tmp_path, rebuild(clean, records))
    assert code == 4 and out.strip().splitlines()[-1].startswith("INCOMPLETE")
    torn = rebuild(clean, records)[:-7]
    report = verify_transcript(torn)
    assert report.fair and report.steps == 49 and any("torn" in note for note in report.pending)
    assert report.exit_code == 4


@pytest.mark.parametrize("junk", [b"", b"hello", MAGIC + b"\x00\x00\x00\x05abcde\x00\x00\x00\x00"])
def test_not_a_transcript_exits_2(capsys, tmp_path, junk):
    code, out = run_verify(capsys, tmp_path, junk)
    assert code == 2 and "not a readable transcript" in out and "Traceback" not in out


def test_missing_file_exits_2(capsys, tmp_path):
    assert main(["verify", str(tmp_path / "nope")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_replay_shows_every_hand_of_a_finished_round(capsys, tmp_path, clean):
    path = tmp_path / "t"
    path.write_bytes(clean)
    assert main(["replay", str(path), "--round", "1", "--ascii"]) == 0
    out = capsys.readouterr().out
    assert "-- round 1, dealer" in out and "??" not in out
    assert " discards " in out and out.strip().endswith("FAIR")
    # a cut transcript keeps the unfinished round's hands hidden
    cut = rebuild(clean, _records(clean)[:40])
    path.write_bytes(cut)
    assert main(["replay", str(path)]) == 0
    assert "??" in capsys.readouterr().out


def test_replay_plays_the_game_once(clean, monkeypatch):
    """`rommy replay` narrates from the one pass that verifies (it played it twice)."""
    from p2p_rommy.log.replica import Observer
    from p2p_rommy.replay import replay_lines

    commits = []
    original = Observer.commit

    def counted(self):
        commits.append(self.n + 1)
        original(self)

    monkeypatch.setattr(Observer, "commit", counted)
    lines = replay_lines(clean)
    assert lines[-1].endswith("FAIR")
    assert sorted(commits) == sorted(set(commits)) == list(range(1, len(commits) + 1))


def test_a_pipe_or_a_device_is_refused_not_read_forever(capsys, tmp_path):
    """Bounded issue: `rommy verify` on a FIFO or /dev/zero says so and exits 2."""
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (fifo, "/dev/zero"):
        assert main(["verify", str(path)]) == 2
        assert "not a regular file" in capsys.readouterr().err


def test_verify_streams_one_record_at_a_time(tmp_path, clean):
    """Bounded issue: memory is bounded by the largest record, not the file: a
    transcript twenty times as long (a finished game followed by copies of its records,
    which is damage) is checked without holding it."""
    import tracemalloc

    from p2p_rommy.verify import verify_stream

    tail = b"".join(frame_record(r.encode()) for r in _records(clean)) * 20
    path = tmp_path / "long"
    path.write_bytes(clean + tail)
    tracemalloc.start()
    with open(path, "rb") as file:
        report = verify_stream(file)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert report.status == "damaged" and "after the game's end" in report.damage
    assert peak < len(clean) + len(tail) // 4  # far less than the file


def test_a_file_of_look_alike_records_is_judged_in_seconds(tmp_path):
    """Issue #24 item 8: after a damaged record verify searches for a good one. A file of
    look-alike records, each claiming half a megabyte, made that search quadratic: this
    1 MiB one took about 30 CPU-seconds (a 25 MiB one, hours). Now the search is bounded:
    damage, nobody blamed, in seconds."""
    config, identities = seeded_config("rummy", 3, HOUSE, SEED)
    genesis = Genesis(config, config.encode(), tuple(sign_config(config, i) for i in identities))
    look_alike = (512 << 10).to_bytes(4, "big") + bytes([FRAME_START])
    path = tmp_path / "crafted.rommy"
    path.write_bytes(MAGIC + frame_record(genesis.encode()) + look_alike * ((1 << 20) // 5))
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "p2p_rommy", "verify", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    took = time.monotonic() - began
    assert_damaged(done.stdout + done.stderr, done.returncode, "look-alike records")
    assert took < 15, took  # the old search: over 2 minutes on a loaded machine
