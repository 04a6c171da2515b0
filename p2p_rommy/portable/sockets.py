"""Listening sockets: exclusive on Windows."""

from __future__ import annotations

import socket

from p2p_rommy.portable.system import System, this_system


def listening_socket(host: str, port: int, system: System | None = None) -> socket.socket:
    """A non-blocking TCP socket listening on (host, port); `OSError` if it cannot.
    On POSIX with SO_REUSEADDR (a restarted peer gets its port back while old
    connections linger; two listeners still cannot share it); on Windows with
    SO_EXCLUSIVEADDRUSE, since there SO_REUSEADDR would let another program bind the
    same port and take our connections.

    Made with the protocol named (TCP): the connections it accepts inherit it, and
    asyncio turns Nagle's algorithm off only for a socket whose protocol says TCP. With
    0 there, each accepted connection held a small message back until the other side's
    delayed ACK (40 ms on Linux), several times in every step of a deal."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        if (system or this_system()) == "windows":
            exclusive = getattr(socket, "SO_EXCLUSIVEADDRUSE", None)  # defined on Windows
            if exclusive is not None:
                sock.setsockopt(socket.SOL_SOCKET, exclusive, 1)
        else:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(16)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock
