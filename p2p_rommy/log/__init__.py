"""The replicated log: steps, propose/ack/commit, buy-claim ordering, transcripts."""
