"""Bytes on the wire: bounded msgpack, schemas, Ed25519 identities, signed envelopes."""
