"""The front-ends that drive a seat, above the screens and the seat machinery:

- `tables`: ``rommy host``, ``join`` and ``resume`` — one flow each, played by a bot
  headless (here) or by a person in the full-screen client (`screen`);
- `screen`: the lobby and game screens on a network seat;
- `local`: ``rommy play`` — one person and bots at a real table in one process.
"""
