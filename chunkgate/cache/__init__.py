"""On-disk caches kept between runs, keyed by content."""
