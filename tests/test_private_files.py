"""Private files (bounded issue): the data dir and game dirs are 0700, every file 0600,
and a key or secrets file that others can read is refused with a message saying how to
fix it, as OpenSSH does; a damaged address book is a clear error, not a traceback."""

from __future__ import annotations

import pytest

from p2p_rommy.errors import ConfigError
from p2p_rommy.seat.opening import load_identity
from p2p_rommy.seat.storage import GameStore


def mode(path) -> int:
    return path.stat().st_mode & 0o777


def test_the_identity_key_is_private_and_an_open_one_is_refused(tmp_path):
    data = tmp_path / "data"
    identity = load_identity(data)
    assert mode(data) == 0o700 and mode(data / "identity") == 0o600
    (data / "identity").chmod(0o644)
    with pytest.raises(ConfigError) as error:
        load_identity(data)
    message = str(error.value)
    assert "0644" in message and "too open" in message and "chmod 600" in message
    (data / "identity").chmod(0o600)
    assert load_identity(data) == identity


def test_game_files_are_private_and_open_secrets_are_refused(tmp_path):
    from p2p_rommy.log.transcript import Genesis, sign_config
    from tests.peer_table import make_config

    config, identities = make_config("rummy", 3)
    genesis = Genesis(config, config.encode(), tuple(sign_config(config, i) for i in identities))
    store = GameStore(tmp_path / "data", config.game_id)
    store.begin(genesis)
    store.save_secret("seed/0", bytes(32))
    store.save_addresses({0: [("127.0.0.1", 1)]})
    store.close()
    for directory in (tmp_path / "data", tmp_path / "data" / "games", store.directory):
        assert mode(directory) == 0o700, directory
    for file in (store.transcript_path, store.secrets_path, store.addresses_path):
        assert mode(file) == 0o600, file
    store.secrets_path.chmod(0o640)
    with pytest.raises(ConfigError, match="too open"):
        GameStore(tmp_path / "data", config.game_id).load()
    store.secrets_path.chmod(0o600)
    store.addresses_path.write_bytes(b"\x93\x01\x02\x03")  # not a map
    with pytest.raises(ConfigError, match="damaged"):
        GameStore(tmp_path / "data", config.game_id).load()
