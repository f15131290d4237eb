"""Inside git: the hook's early start and its baseline, and the manifest merge driver."""
