"""The committed log as a peer holds it: the current round's records in memory, the
finished rounds' on disk only.

A 7-round match commits thousands of records (megabytes), and after a round ends the
peer needs the old ones only to answer a seat that fell that far behind, or to hold up
an old step as evidence: rare, and the transcript on disk has them. So once a round is
over and its records are durable, they are let go of, and read back from the
`RecordArchive` (the seat's transcript file) on the rare occasion. Without an archive
(in-process tables, tests) everything stays in memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol, overload

from p2p_rommy.log.messages import Record


class RecordArchive(Protocol):
    """Where committed records are durable (the transcript file)."""

    def held(self) -> int:
        """How many records, from the first, are durable now."""
        ...

    def read(self, start: int) -> Sequence[Record]:
        """The durable records from index `start` (0-based) on."""
        ...


class CommittedRecords(Sequence[Record]):
    """Every committed record, by index (record ``i`` is step ``i + 1``)."""

    def __init__(self, records: Iterable[Record] = (), archive: RecordArchive | None = None):
        self._recent: list[Record] = list(records)
        self._offset = 0
        """How many records, from the first, are no longer in memory."""
        self._release_to = 0
        self.archive = archive

    def append(self, record: Record) -> None:
        self._recent.append(record)
        self._trim()

    def replace_last(self, record: Record) -> None:
        """The last record, replaced by `record` (an end outranks it: `log/overturn.py`);
        kept in memory until the archive holds it in its place."""
        if self._recent:
            self._recent[-1] = record
        else:
            self._offset -= 1
            self._recent.append(record)
        self._release_to = min(self._release_to, len(self) - 1)

    def release(self) -> None:
        """Let go of every record committed so far, as soon as it is durable (a round
        has ended)."""
        self._release_to = len(self)
        self._trim()

    def last_word(self, envelope: bytes) -> bool:
        """Whether `envelope` is the last committed step or one of its ACKs (a copy: the
        match's last word is sent again, SPEC §4.4)."""
        if self._recent:
            last = self._recent[-1]  # (every message asks: the common case, at once)
        elif len(self):
            last = self[-1]
        else:
            return False
        return envelope == last.step or envelope in last.acks

    @property
    def in_memory(self) -> int:
        return len(self._recent)

    def _trim(self) -> None:
        if self.archive is None:
            return
        drop = min(self._release_to, self.archive.held()) - self._offset
        if drop > 0:
            del self._recent[:drop]
            self._offset += drop

    def __len__(self) -> int:
        return self._offset + len(self._recent)

    @overload
    def __getitem__(self, index: int) -> Record: ...

    @overload
    def __getitem__(self, index: slice) -> list[Record]: ...

    def __getitem__(self, index: int | slice) -> Record | list[Record]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            return (
                [self[i] for i in range(start, stop, step)]
                if step != 1
                else self._span(start, stop)
            )
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        if index >= self._offset:
            return self._recent[index - self._offset]
        return self._from_archive(index)[0]

    def _span(self, start: int, stop: int) -> list[Record]:
        if start >= stop:
            return []
        if start >= self._offset:
            return self._recent[start - self._offset : stop - self._offset]
        older = list(self._from_archive(start)[: self._offset - start])
        return (older + self._recent)[: stop - start]

    def _from_archive(self, start: int) -> Sequence[Record]:
        assert self.archive is not None, "records are let go of only with an archive"
        return self.archive.read(start)

    def __iter__(self) -> Iterator[Record]:
        if self._offset:
            yield from self._from_archive(0)[: self._offset]
        yield from list(self._recent)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return len(self) == len(other) and list(self) == list(other)
