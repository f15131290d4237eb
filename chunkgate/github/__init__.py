"""GitHub Actions: the action's run, its inputs and the pull request comment."""
