"""The corpus for ingest pipelines: records, the re-embed plan and adapters."""
