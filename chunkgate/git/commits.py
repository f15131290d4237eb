"""Plain questions about commits: which one a name means, a merge base, a shallow clone,
and fetching one; ``revisions`` builds the fetching and deepening on these."""

from __future__ import annotations

from pathlib import Path

from chunkgate.core.errors import GitError
from chunkgate.git.process import GitCommandError, run


def resolve(root: Path, rev: str) -> str:
    """The full sha of the commit ``rev`` names."""
    try:
        out = run(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    except GitCommandError as exc:
        if exc.returncode == 1:  # --verify --quiet: not a commit, nothing on stderr
            raise GitError(f"git rev-parse: unknown revision {rev!r}") from None
        raise
    return out.decode("ascii").strip()


def merge_base(root: Path, a: str, b: str) -> str:
    """The best common ancestor of two revisions (for ``A...B``), from the history here."""
    first, second = resolve(root, a), resolve(root, b)
    try:
        return run(root, "merge-base", first, second).decode("ascii").strip()
    except GitCommandError as exc:
        if exc.returncode == 1:
            raise GitError(f"git merge-base: {a!r} and {b!r} have no common ancestor") from None
        raise


def is_shallow(root: Path) -> bool:
    return run(root, "rev-parse", "--is-shallow-repository").strip() == b"true"


def fetch(root: Path, remote: str, sha: str, depth: int | None = None) -> None:
    """Fetch one commit a shallow clone lacks (e.g. a pull request's base)."""
    args = ["fetch", "--quiet", "--no-tags"]
    if depth is not None:
        args.append(f"--depth={depth}")
    run(root, *args, "--end-of-options", remote, sha)


def first_added(root: Path, folder: str) -> str | None:
    """The oldest commit (in this history) that added a file below ``folder``; None when
    none did (a folder not committed yet, or no history)."""
    try:
        out = run(root, "log", "--diff-filter=A", "--format=%H", "--", f"{folder}/")
    except GitCommandError:
        return None  # no commits yet, or not a repository
    shas = out.decode("ascii").split()
    return shas[-1] if shas else None


def is_ancestor(root: Path, older: str, newer: str) -> bool:
    """Whether commit ``older`` is an ancestor of ``newer`` (itself included)."""
    try:
        run(root, "merge-base", "--is-ancestor", older, newer)
    except GitCommandError as exc:
        if exc.returncode == 1:  # answered: not an ancestor
            return False
        raise
    return True
