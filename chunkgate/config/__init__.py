"""The configuration: its model, loading, validation and the ``init`` template."""
