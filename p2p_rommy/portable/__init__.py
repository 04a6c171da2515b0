"""What differs between Windows, macOS and the other POSIX systems, in one place.

Every function takes the system as a parameter (default: `system.this_system()`, which
reads `system.SYSTEM`), so each branch is tested on any machine (tests/test_portable.py),
and a test can make a whole process think it runs on Windows by setting `SYSTEM`
(tests/windows_like.py). Modules that exist on one system only (`fcntl`, `msvcrt`,
`ctypes.windll`) are imported inside their branch: importing the package works
everywhere.

- `files`: file modes (checked only where they mean something: not on Windows, where
  the profile's ACL guards the data dir), the game lock (`fcntl.flock` on POSIX,
  `msvcrt.locking` on Windows: both held by the OS and dropped when the process
  dies), the data dir (platformdirs, an existing ~/.local/share/p2p-rommy kept).
- `user`: the login name and the client's language from the system's settings.
- `console`: output a legacy code page cannot encode.
- `sockets`: a listening socket, exclusive on Windows.

Why each: docs/decisions.md, "Portable files".
"""
