"""The corpus for ingest pipelines: export records, the re-embed plan and adapters."""
