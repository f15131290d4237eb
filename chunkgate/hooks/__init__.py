"""What runs inside git: the pre-commit hook's start and baseline, and the manifest merge driver."""
