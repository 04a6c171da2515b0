"""Mental poker: group operations, seeds and commitments, proven shuffles and shares, audit."""

from p2p_rommy.deck.audit import AuditReport, Finding, audit_round
from p2p_rommy.deck.proofs import ALL
from p2p_rommy.deck.seat import DeckParams, DeckPhase, DeckSeat

__all__ = ["ALL", "AuditReport", "DeckParams", "DeckPhase", "DeckSeat", "Finding", "audit_round"]
