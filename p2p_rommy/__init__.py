"""p2p-rommy: peer-to-peer rummy for the home network, with provably fair dealing."""

__version__ = "0.1.0"
