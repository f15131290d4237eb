"""The records, errors and helpers every layer shares."""
