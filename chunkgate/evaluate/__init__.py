"""Retrieval: golden queries, a search, the retrieval run and cited IDs."""
