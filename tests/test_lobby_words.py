"""Client issue 30, item 11: joining a full table said "a peer: the table's creator
closed the connection (0 bytes read on a total of 4 expected bytes)", and a creator
who left said the same. Each now says what happened, in the player's language."""

from __future__ import annotations

import asyncio

import pytest

from p2p_rommy import i18n
from p2p_rommy.errors import ProtocolError
from p2p_rommy.net.lobby import LobbyHost, TableSettings, join_table
from p2p_rommy.rules.variants import ruleset
from p2p_rommy.wire.identity import Identity


async def full_then_closed() -> tuple[str, str]:
    rules = ruleset("rummy")
    settings = TableSettings("Fredag", "rummy", rules.house.values, 2)  # two seats
    host = LobbyHost(Identity.generate(), "Ann", settings, [], "127.0.0.1", None, advertise=False)
    await host.listen("127.0.0.1")
    seated = asyncio.ensure_future(
        join_table(Identity.generate(), "Bo", "127.0.0.1", host.port, None, [])
    )
    async with asyncio.timeout(20):
        while len(host.members) < 2:
            await asyncio.sleep(0.02)
    with pytest.raises(ProtocolError) as full:
        await asyncio.wait_for(
            join_table(Identity.generate(), "Cy", "127.0.0.1", host.port, None, []), 20
        )
    await host.close()
    with pytest.raises(ProtocolError) as left:
        await asyncio.wait_for(seated, 20)
    return str(full.value), str(left.value)


def test_a_full_table_and_a_creator_who_left_are_said_in_words():
    full, left = asyncio.run(full_then_closed())
    assert "the table did not let you in: it is full" in full and "bytes" not in full, full
    assert "the table closed: its creator left" in left and "bytes" not in left, left


def test_in_danish():
    i18n.use("da")
    try:
        full, left = asyncio.run(full_then_closed())
    finally:
        i18n.use("en")
    assert "bordet lukkede dig ikke ind: det er fuldt" in full, full
    assert "bordet blev lukket: opretteren gik" in left, left


def test_the_command_line_says_it_without_a_peer_prefix(capsys, tmp_path):
    """A table that closes the connection at once, joined from the command line."""
    import socket
    import threading

    from p2p_rommy.cli import main

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def close_each() -> None:
        for _ in range(2):
            connection, _address = server.accept()
            connection.close()

    threading.Thread(target=close_each, daemon=True).start()
    try:
        for language, expected in (("da", "bordet lukkede dig ikke ind"), ("en", "did not let")):
            argv = ["join", "--bot", "--connect", f"127.0.0.1:{port}", "--lang", language]
            code = main([*argv, "--data-dir", str(tmp_path)])
            err = capsys.readouterr().err
            last = err.strip().splitlines()[-1]
            assert code == 2 and last.startswith("rommy: "), err
            assert expected in last and "a peer" not in last, err
    finally:
        i18n.use("en")
        server.close()
