"""`rommy verify`: a clean transcript is FAIR; every kind of tampering is caught and
the step named; a cut transcript is checked as far as it goes; junk exits 2."""

from __future__ import annotations

import asyncio

import msgpack
import pytest

from p2p_rommy.cli import main
from p2p_rommy.log.messages import Record
from p2p_rommy.log.transcript import MAGIC, frame_record, parse
from p2p_rommy.netsim import simulate_network
from p2p_rommy.verify import verify_transcript


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> bytes:
    path = tmp_path_factory.mktemp("verify") / "transcript"
    asyncio.run(simulate_network("rummy", 3, 21, {"target_score": "15"}, path, timeout=300))
    return path.read_bytes()


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


def test_flipped_signature_byte(capsys, tmp_path, clean):
    records = _records(clean)
    version, key, body, signature = msgpack.unpackb(records[40].step)
    signature = bytes([signature[0] ^ 0x01]) + signature[1:]
    records[40] = Record(msgpack.packb([version, key, body, signature]), records[40].acks)
    code, out = run_verify(capsys, tmp_path, rebuild(clean, records))
    assert code == 1 and "CHEATING DETECTED" in out and "at step 41: bad signature" in out


def test_changed_move(capsys, tmp_path, clean):
    records = _records(clean)
    index = next(i for i, r in enumerate(records) if b"discard" in r.step)
    version, key, body, signature = msgpack.unpackb(records[index].step)
    step = msgpack.unpackb(body)
    step["body"]["move"][2] += 1  # discard another slot
    records[index] = Record(
        msgpack.packb([version, key, msgpack.packb(step), signature]), records[index].acks
    )
    code, out = run_verify(capsys, tmp_path, rebuild(clean, records))
    assert code == 1 and f"at step {index + 1}" in out


def test_removed_step(capsys, tmp_path, clean):
    records = _records(clean)
    del records[60]
    code, out = run_verify(capsys, tmp_path, rebuild(clean, records))
    assert code == 1 and "at step 61" in out and "removed or reordered" in out


def test_reordered_steps(capsys, tmp_path, clean):
    records = _records(clean)
    records[70], records[71] = records[71], records[70]
    code, out = run_verify(capsys, tmp_path, rebuild(clean, records))
    assert code == 1 and "at step 71" in out


def test_swapped_seeds(capsys, tmp_path, clean):
    records = _records(clean)
    seeds = [i for i, r in enumerate(records) if b"deck/seed" in r.step][:2]
    first, second = seeds
    records[first], records[second] = records[second], records[first]
    code, out = run_verify(capsys, tmp_path, rebuild(clean, records))
    assert code == 1 and f"at step {first + 1}" in out


def test_acks_must_match(capsys, tmp_path, clean):
    records = _records(clean)
    records[30] = Record(records[30].step, records[31].acks)  # ACKs of another step
    code, out = run_verify(capsys, tmp_path, rebuild(clean, records))
    assert code == 1 and "at step 31" in out


def test_cut_transcript_is_checked_as_far_as_it_goes(capsys, tmp_path, clean):
    records = _records(clean)[:50]
    report = verify_transcript(rebuild(clean, records))
    assert report.fair and report.steps == 50 and not report.finished
    assert any("not over" in note for note in report.pending)
    torn = rebuild(clean, records)[:-7]
    report = verify_transcript(torn)
    assert report.fair and report.steps == 49 and any("torn" in note for note in report.pending)


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
