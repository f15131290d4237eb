"""Comparing two revisions: their chunks, the moves between them, the changes."""
