"""Performance issue: a peer's memory stays bounded over a long match. The records of
finished rounds live on disk only (read back for a seat that fell that far behind), and
a seat without a screen does not load what it does not use."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys

from p2p_rommy.log.committed import CommittedRecords
from p2p_rommy.log.events import sends_to
from p2p_rommy.log.messages import Record, Sync


class ListArchive:
    """Records 'on disk' as far as `held` says: the transcript's part of the contract."""

    def __init__(self) -> None:
        self.records: list[Record] = []
        self.reads = 0

    def held(self) -> int:
        return len(self.records)

    def read(self, start: int) -> list[Record]:
        self.reads += 1
        return self.records[start:]


def record(i: int) -> Record:
    return Record(b"step %d" % i, (b"ack %d" % i,))


def test_records_are_let_go_of_only_once_durable_and_read_back_alike():
    archive = ListArchive()
    records = CommittedRecords([], archive)
    everything = [record(i) for i in range(10)]
    for r in everything[:6]:
        records.append(r)
    records.release()  # a round ended at 6 records, none of them on disk yet
    assert records.in_memory == 6
    archive.records += everything[:4]  # the store wrote four
    records.append(everything[6])
    assert records.in_memory == 3  # the four durable ones let go, the rest kept
    archive.records += everything[4:7]
    for r in everything[7:]:
        records.append(r)
    assert records.in_memory == 4  # 6 let go (the round), 4 of the new one kept
    assert len(records) == 10 and records[9] == everything[9] and records[-1] == everything[9]
    assert archive.reads == 0  # nothing read back for the current round
    assert records[2] == everything[2] and archive.reads == 1
    assert records[3:] == everything[3:] and records[7:] == everything[7:]
    assert list(records) == everything and records == CommittedRecords(everything)


def test_without_an_archive_everything_stays_in_memory():
    records = CommittedRecords([record(0)])
    records.append(record(1))
    records.release()
    assert records.in_memory == 2 and list(records) == [record(0), record(1)]


def test_a_seat_keeps_only_the_round_in_play_and_answers_from_its_transcript(tmp_path):
    from p2p_rommy.bots import make_bot
    from p2p_rommy.frontends.local import local_table

    async def main():  # to 60 points: at least two finished rounds to let go of
        # (heuristic bots: three rounds in 235 steps, where random ones took 1,070)
        human, others = await local_table(
            "rummy", ["normal"], {"target_score": "60"}, "Ann", 3, tmp_path
        )
        human.peer.player = make_bot("normal", random.Random(3))
        seats = {s.peer.seat: s for s in [human, *others]}

        def over(seat: int) -> bool:  # every seat is here: none waits for another at the end
            return seats[seat].peer.replica.over

        runs = (s.run(settled=over) for s in seats.values())
        await asyncio.wait_for(asyncio.gather(*runs), 240)
        return human, others

    human, others = asyncio.run(main())
    peer = human.peer
    assert peer.replica.over and peer.replica.state.round_index >= 2
    everything = list(others[0].peer.records)  # the bot's seat keeps no files: all in memory
    assert len(peer.records) == len(everything)
    assert peer.records.in_memory < len(everything) // 2  # the finished rounds let go
    assert list(peer.records) == everything  # read back from the transcript, the same
    middle = len(everything) // 3  # a finished round's records, read from there on
    assert peer.records[middle : middle + 5] == everything[middle : middle + 5]
    assert peer.records[middle] == everything[middle]
    # a seat that lost everything asks from the start: answered from the transcript
    other = others[0].peer
    ask = other.replica.identity.sign(Sync(peer.replica.game, other.seat, 0, True).encode())
    out = peer.receive(ask, 1e9, other.seat)  # long after the match's own asks
    steps = {r.step for r in everything}
    sent = [envelope for seat, envelope in sends_to(out) if seat == other.seat]
    assert [e for e in sent if e in steps] == [r.step for r in everything]


def test_a_seat_without_a_screen_does_not_load_the_screen_or_a_second_crypto_library():
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, p2p_rommy.cli, p2p_rommy.frontends.tables;"
            "print(sorted({m.split('.')[0] for m in sys.modules}))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "prompt_toolkit" not in loaded and "cryptography" not in loaded
