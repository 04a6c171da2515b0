"""Running one seat of a game: everything around the sans-IO cores that does I/O.

- `opening`: the one way a seat is opened (`open_seat`: replica, peer, session,
  listening, dialling), this player's identity and options;
- `session`: the seat's event loop glue (the peer in worker threads, the mesh, the files);
- `storage`: its transcript, secrets and address book on disk; `known_players`;
  `logfile` (where records go while the full-screen client owns the terminal);
- `loopback_match`: bot matches in one process (`rommy simulate --network`, the
  verifier's tests, the bench).

The front-ends that drive a seat (bots, the screen, `rommy play`) are in `frontends/`,
above the screens (`tui/`), which read a seat's session.
"""
