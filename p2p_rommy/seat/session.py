"""One peer's game on the network: the consensus peer, its mesh, its files, its clock.

This is the async glue and nothing more: envelopes from the mesh go to the peer,
what the peer wants to send goes to the mesh, committed records go to the
transcript, and a ticker lets time pass for buy windows. Every rule, proof and
vote lives in the sans-IO layers below.

Off the event loop: every call into the peer (which may prove or verify a shuffle, a
second of CPU) and every write to disk (with its fsync) runs in a worker thread, one
call at a time per seat and in the order the events came (`_run`); only the sends
and the client's redraws stay on the loop, so keys answer while a deal is computed.
libsodium (through cffi) releases the GIL, so seats in one process compute in parallel.

Durable or stopped: a round's seed, every committed record and the step this seat
ACKs are on disk before anything that follows from them leaves this machine. If a
write or fsync fails (a full disk), the session stops at once — nothing more is
sent, the connections close, so the others see a stall naming this seat, not a
cheat — and `halted` says what failed and where. Once there is space again, `rommy
resume` fetches whatever the file lacks from the others: nothing is lost.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import socket
import time
from collections.abc import Callable
from dataclasses import replace

from p2p_rommy.config import GameConfig
from p2p_rommy.engine.moves import Move
from p2p_rommy.engine.state import GameState, Phase
from p2p_rommy.errors import IllegalMove
from p2p_rommy.i18n import _, say_os_error
from p2p_rommy.limits import PAUSE_FLUSH_S, TICK_S
from p2p_rommy.log.events import Acked, Committed, Event, Refused, records, sends, sends_to
from p2p_rommy.log.messages import Record
from p2p_rommy.log.peer import Peer
from p2p_rommy.net.mesh import Mesh
from p2p_rommy.seat.presence import Presence
from p2p_rommy.seat.snapshot import news, table_view
from p2p_rommy.seat.storage import GameStore
from p2p_rommy.seat.table_view import TableView

log = logging.getLogger(__name__)

PAUSE_NOTICE = "pausing: my disk is full, I will be back with rommy resume"
"""What a seat that cannot write says to the table (as chat) before it stops."""

WORKERS = concurrent.futures.ThreadPoolExecutor(max_workers=8, thread_name_prefix="rommy-peer")
"""The threads peers compute in (shared by every seat in this process)."""


class Session:
    def __init__(
        self,
        peer: Peer,
        config: GameConfig,
        store: GameStore | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.peer = peer
        self.config = config
        self.store = store
        self.clock = clock
        self.view = table_view(peer, clock(), None, {}, ())
        """What a client may see (`seat/table_view.py`): replaced, on the loop, after
        every call into the peer."""
        self.listeners: list[Callable[[TableView], None]] = []
        """Told of every new `view`, on the event loop (the client)."""
        self.presence = Presence([seat.name for seat in config.seats])
        """Who left and came back, for the log (`seat/presence.py`)."""
        self.mesh = Mesh(
            peer.replica.identity,
            config.game_id,
            peer.seat,
            config.public_keys,
            self._on_message,
            self._on_change,
            self._on_link_up,
        )
        self.done = asyncio.Event()
        self.changed = asyncio.Event()
        """Set whenever something a client would redraw has happened."""
        self._ticker: asyncio.Task[None] | None = None
        self._saved_rounds: set[int] = set()
        self.halted: str | None = None
        """Why this seat stopped on its own (a failed write), if it did."""
        self._stopping: asyncio.Task[None] | None = None
        self._turn = asyncio.Lock()
        """One call into the peer at a time, in the order they were asked for."""
        self._tasks: set[asyncio.Task[object]] = set()
        self._deferred_queued = False
        """A check of a deferred shuffle proof is queued (`_check_deferred`)."""
        self._audit_queued = False
        """The audit of a finished round is queued (`_audit`)."""

    async def listen(
        self, host: str = "127.0.0.1", port: int = 0, sock: socket.socket | None = None
    ) -> tuple[str, int]:
        return await self.mesh.listen(host, port, sock)

    @property
    def address(self) -> tuple[str, int]:
        """Where this seat listens (after `listen`)."""
        address = self.mesh.address
        if address is None:
            raise RuntimeError("listen() first")
        return address

    def connect(self, addresses: dict[int, list[tuple[str, int]]]) -> None:
        self.mesh.connect(addresses)

    def start(self) -> None:
        self._later(lambda: self.peer.start(self.clock()))
        self._ticker = asyncio.get_running_loop().create_task(self._tick())

    async def run(
        self, timeout: float | None = None, settled: Callable[[int], bool] | None = None
    ) -> GameState:
        """Play until the match is over (or the table freezes, or a restarted seat finds
        nobody left: `peer.alone`); return the final state. Then wait (up to 10 s) until
        what is queued for the others is written, but not for a seat that needs nothing
        more: one `settled(seat)` names (a seat of the same process whose match is over
        too), or one that has left (`_left_at_the_end`). Then leave (`Mesh.close`)."""
        self.start()
        try:
            async with asyncio.timeout(timeout):
                await self.done.wait()
            if self.halted is None and not self.peer.alone:
                await self.mesh.flushed(settled=self._left_at_the_end(settled))
        finally:
            await self.close()
        return self.peer.replica.state

    def _left_at_the_end(self, settled: Callable[[int], bool] | None) -> Callable[[int], bool]:
        """Once the match is over here, a seat that closed its side of the connection has
        sent its last words (SPEC §4.4: a seat closes only after them) and left: what is
        queued for it would never be written, and it needs none of it. Before the end
        (a frozen table) its queue is still waited for: it may come back for it."""

        def needs_nothing(seat: int) -> bool:
            if settled is not None and settled(seat):
                return True
            return self.peer.replica.over and self.mesh.left(seat)

        return needs_nothing

    async def close(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
        for task in list(self._tasks):
            task.cancel()
        await self.mesh.close()
        async with self._turn:  # a call still computing finishes before the files close
            if self.store is not None:
                self.store.close()

    # --- plumbing -------------------------------------------------------------

    async def _on_message(self, seat: int, envelope: bytes) -> bool:
        """Hand an envelope to the peer; False if it refused it (the mesh counts those)."""
        events = await self._run(lambda: self.peer.receive(envelope, self.clock(), seat))
        return not any(isinstance(event, Refused) for event in events)

    def _on_change(self) -> None:
        """A connection went up or down (a call into the peer may be running: the view
        keeps its snapshot and only the connections change)."""
        connected = tuple(sorted(self.mesh.connected().items())) if hasattr(self, "mesh") else ()
        notes = self.presence.changed(dict(connected), self.peer.replica.over, self.clock())
        self.view = replace(self.view, connected=connected, news=news(notes))
        self._tell()
        self.changed.set()

    def _publish(self, events: tuple[Event, ...]) -> None:
        """On the loop, while no call into the peer runs: a new view for the client."""
        connected = self.mesh.connected()
        over = self.peer.replica.over
        events = self.presence.news(events, self.peer.catching_up, self.clock(), over)
        self.view = table_view(self.peer, self.clock(), self.halted, connected, events)
        self._tell()

    def _tell(self) -> None:
        for listener in self.listeners:
            listener(self.view)

    def _on_link_up(self, seat: int) -> None:
        self._later(lambda: self.peer.link_up(seat, self.clock()))

    def _later(
        self, call: Callable[[], list[Event]], on_refused: Callable[[Exception], None] | None = None
    ) -> None:
        """Run `call` in its turn without waiting for it (`on_refused` gets a refusal)."""
        task = asyncio.get_running_loop().create_task(self._run(call, on_refused))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(
        self, call: Callable[[], list[Event]], on_refused: Callable[[Exception], None] | None = None
    ) -> list[Event]:
        """Call into the peer in a worker thread, in turn; make what it committed durable
        there too; then send its messages from the loop. Returns the call's events."""
        async with self._turn:
            if self.halted is not None:
                return []
            loop = asyncio.get_running_loop()
            computing = loop.run_in_executor(WORKERS, self._call_and_store, call)
            try:
                out, failed = await asyncio.shield(computing)
            except asyncio.CancelledError:
                # the call goes on in its thread: hold the turn until it is done, so a
                # closing session never closes its files under it or reads half of it
                with contextlib.suppress(Exception):
                    await computing
                raise
            except IllegalMove as error:
                if on_refused is None:
                    raise
                on_refused(error)
                return []
            if failed is not None:
                self._halt(failed)
                return out
            self._handle(out)
            return out

    def _call_and_store(
        self, call: Callable[[], list[Event]]
    ) -> tuple[list[Event], OSError | None]:
        """In a worker thread: the peer's call, then its seed and records on disk."""
        out = call()
        try:
            self._save_seed()  # before anything that commits to it leaves this machine
            for event in out:  # in the order they happened: a record, then the next ACK
                if isinstance(event, Committed) and event.replaces:
                    self._replaced(event.record)
                elif isinstance(event, Committed):
                    self._committed(event.record)
                elif isinstance(event, Acked) and self.store is not None:
                    self.store.save_ack(event.step, event.ack)  # before the ACK leaves
        except OSError as error:
            return out, error
        return out, None

    def _handle(self, out: list[Event]) -> None:
        """On the loop, once `out`'s records are on disk: send, redraw, finish."""
        if self.halted is not None:
            return
        broadcast = sends(out)
        if broadcast:
            self.mesh.broadcast(broadcast)
        for seat, envelope in sends_to(out):
            self.mesh.send(seat, [envelope])
        self._publish(tuple(out))
        if records(out) or broadcast:
            self.changed.set()
        peer = self.peer
        if peer.frozen and peer.ending_frozen(self.clock()):
            pass  # the others may still end the game without the seat it caught cheating
        elif peer.replica.over or peer.frozen or peer.alone:
            self.done.set()  # alone: restarted, and nobody is left to go on with
        elif self.peer.replica.deferred and not self._deferred_queued:
            # verify it while the others check this seat's shuffle (SPEC §3.3)
            self._deferred_queued = True
            self._later(self._check_deferred)
        elif self._audit_due() and not self._audit_queued:
            self._audit_queued = True
            self._later(self._audit)

    def _audit_due(self) -> bool:
        """A finished round's audit waits, and the next round's deal is in: it runs
        while the table waits for a move, not between the last move and the next hand."""
        replica = self.peer.replica
        return replica.unaudited is not None and replica.state.phase is not Phase.ROUND_START

    def _audit(self) -> list[Event]:
        """In a worker thread, in turn: the previous round's audit (a finding freezes)."""
        self._audit_queued = False
        return self.peer.audit()

    def _check_deferred(self) -> list[Event]:
        """In a worker thread, in turn: the proof this seat shuffled on, verified."""
        self._deferred_queued = False
        return self.peer.check_deferred()

    def _halt(self, error: OSError) -> None:
        """A write failed: stop sending, close the connections, say what and where."""
        where = error.filename or (self.store.directory if self.store is not None else "?")
        game = self.config.game_id.hex()[:16]
        self.halted = _(
            "cannot write {where}: {why}. This seat stops here and sends nothing more; the "
            "others wait for it. Nothing is lost: make room, then run rommy resume {game}"
        ).format(where=where, why=say_os_error(error, False), game=game)
        log.error("%s", self.halted)
        if self._ticker is not None:
            self._ticker.cancel()
        # a signed word to the table (not part of the game), then nothing more
        said = self.peer.say(PAUSE_NOTICE)
        self.mesh.broadcast(sends(said))
        self._publish(tuple(said))
        self._stopping = asyncio.get_running_loop().create_task(self._stop_after_notice())
        self.changed.set()
        self.done.set()

    async def _stop_after_notice(self) -> None:
        await self.mesh.flushed(PAUSE_FLUSH_S)
        await self.mesh.close()

    def _committed(self, record: Record) -> None:
        if self.store is not None:
            self.store.append(record)

    def _replaced(self, record: Record) -> None:
        """An end that outranks the last record, in its place (`log/overturn.py`)."""
        if self.store is not None:
            self.store.replace_last(record)

    def _save_seed(self) -> None:
        """Keep the seed of each open deck (this round's and the next, shuffled in the
        background) in the secrets file: a restarted peer needs it to go on with the
        rounds it committed to."""
        replica = self.peer.replica
        if self.store is None or replica.identity is None:
            return
        for deck in replica.open_decks:
            round_no = deck.seat.params.round_no
            if round_no not in self._saved_rounds:
                self._saved_rounds.add(round_no)
                if replica.seeds.get(round_no) != deck.seat.seed.value:
                    self.store.save_secret(f"seed/{round_no}", deck.seat.seed.value)

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(TICK_S)
            await self._run(lambda: self.peer.tick(self.clock()))

    # --- for the client -------------------------------------------------------

    def submit(self, move: Move, on_refused: Callable[[Exception], None] | None = None) -> None:
        """A move from the client, made in its turn; `on_refused` gets the engine's
        `IllegalMove` if it is refused (the client checks first: see `ClientModel`)."""
        self._later(lambda: self.peer.submit(move, self.clock()), on_refused or _ignore)

    def answer_buy(self, claim: bool) -> None:
        self._later(lambda: self.peer.answer_buy(claim, self.clock()))

    def say(self, text: str) -> None:
        """A chat line to the table."""
        self._later(lambda: self.peer.say(text))

    def end_game(self, absent: int | tuple[int, ...]) -> None:
        """Propose to end the game without the seat or seats `absent` (`Peer.end_game`)."""
        self._later(lambda: self.peer.end_game(absent, self.clock()))


def _ignore(error: Exception) -> None:
    log.info("refused: %s", error)
