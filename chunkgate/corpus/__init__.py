"""Which files are the corpus, and reading them as text."""
