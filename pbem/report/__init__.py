"""Turn reports rendered from a state's log of events and rolls: text (email), Markdown, JSON."""
from .render import render

__all__ = ["render"]
