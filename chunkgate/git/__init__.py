"""Everything chunkgate asks git, every process started through ``process.popen``."""
