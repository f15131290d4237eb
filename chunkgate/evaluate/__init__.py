"""Retrieval checks: golden queries, the retrieval run and cited IDs."""
