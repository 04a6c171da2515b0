"""Player words for the raw tokens our English reasons carry: message kinds, move
kinds, lobby classes and stages, Python's and msgpack's exception type names.

A reason stays English where it is made (on the wire, in transcripts and rommy.log)
and keeps the token itself (`undecodable message: ExtraData`, `malformed deck/shares
message ...`): that is what a developer greps for. Where a reason is shown,
`i18n.say_reason` puts the token's words in its place in Danish and Norwegian."""

from __future__ import annotations

from p2p_rommy.errors import N_

RAW_WORDS: dict[str, str] = {
    # message kinds (SPEC §4.10)
    "hello": N_("greeting"),
    "auth": N_("proof of identity"),
    "config": N_("game settings"),
    "log/step": N_("game step"),
    "log/ack": N_("confirmation of a step"),
    "log/nack": N_("refusal of a step"),
    "log/sync": N_("request to catch up"),
    "buy/answer": N_("Køb! answer"),
    "buy/seal": N_("sealed Køb! answer"),
    "chat/say": N_("chat message"),
    "deck/commit": N_("sealed shuffle key"),
    "deck/shuffle": N_("shuffle"),
    "deck/shares": N_("keys to the cards"),
    "deck/seed": N_("shuffle seed"),
    "lobby/join": N_("request to join"),
    "lobby/state": N_("the table's list of players"),
    "lobby/begin": N_("start signal"),
    "lobby/relay": N_("relayed start messages"),
    "coin/commit": N_("sealed coin"),
    "coin/reveal": N_("coin value"),
    # the lobby's start: its classes and stages
    "CoinCommit": N_("sealed coin"),
    "CoinReveal": N_("coin value"),
    "ConfigSignature": N_("signature of the game settings"),
    "commits": N_("sealed coins"),
    "reveals": N_("coin values"),
    "signatures": N_("signatures of the game settings"),
    # move kinds (a move's wire form)
    "draw": N_("draw from the stock"),
    "take": N_("take the discard"),
    "discard": N_("discard"),
    "lay": N_("lay down"),
    "layoff": N_("lay off"),
    "swap": N_("joker swap"),
    "buy": N_("Køb!"),
    "reveal": N_("showing cards"),
    "start": N_("start of the round"),
    # why a message could not be read (msgpack's and Python's exception types)
    "ExtraData": N_("bytes left over after the message"),
    "FormatError": N_("bytes that are not in the message format"),
    "StackError": N_("nested too deep"),
    "OutOfData": N_("the message ends too soon"),
    "BufferFull": N_("the message is too large"),
    "ValueError": N_("a value that is not allowed here"),
    "TypeError": N_("a value of the wrong type"),
    "OverflowError": N_("a number too large"),
    "UnicodeDecodeError": N_("text that is not UTF-8"),
    "RecursionError": N_("nested too deep"),
    "TimeoutError": N_("no answer in time"),
}
"""Raw token -> its words (English, marked `N_`, translated where shown)."""
