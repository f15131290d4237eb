"""What runs inside git: the pre-commit hook's start and the manifest merge driver."""
