"""The full-screen terminal client: renders a seat's view, turns keys into intents."""
