"""Players that choose moves from a seat's view."""
