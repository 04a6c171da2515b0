"""asyncio TCP mesh, framing, handshake, zeroconf discovery, lobby: the only network I/O."""
