"""chunkgate's view of one corpus, as JSON on stdout: run by ``groundtruth.py`` in its own
process, with the checkout under test first on ``sys.path`` (``--chunkgate``), so that
the code before and after a change answers the same questions.

    PYTHONPATH=CHECKOUT python benchmarks/truth_chunkgate.py CORPUS

The corpus is copied into a temporary git repository (chunkgate reads what git
tracks) and checked with the default configuration, as ``check`` does right
after ``init``: every chunk's ID, every CG404 (the known ones too), and, where
the checkout has the internals of 10fad8d, why each link is or is not judged.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_MARKDOWN = (".md", ".markdown", ".mdx")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=truth", "-c", "user.email=truth@invalid", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


def view(corpus: Path) -> dict[str, object]:
    from chunkgate import corpus_chunks, load_config
    from chunkgate.gate import run_check

    with tempfile.TemporaryDirectory(prefix="truth_cg_") as scratch:
        repo = Path(scratch) / corpus.name
        shutil.copytree(corpus, repo, symlinks=True)
        _git(repo, "init", "-q")
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", "corpus")
        config = load_config(repo)
        chunks = [
            [chunk.path, chunk.identity]
            for chunk in corpus_chunks(config)
            if chunk.path.lower().endswith(_MARKDOWN)
            and chunk.part == 1
            and not chunk.identity.startswith("~")
        ]
        result = run_check(config)
        found = (*result.violations, *result.known)
        cg404 = [[v.path, v.line, v.message] for v in found if v.rule == "CG404"]
        unverified = [
            [getattr(u, "path", ""), getattr(u, "line", 0), str(getattr(u, "message", u))]
            for u in getattr(result, "unverified", ())
        ]
        try:
            judged = _judgements(config, repo)
        except (ImportError, AttributeError, TypeError) as error:
            judged = {"error": repr(error)}
    return {"chunks": chunks, "cg404": cg404, "unverified": unverified, "links": judged}


def _judgements(config: object, repo: Path) -> dict[str, object]:
    """Each link chunkgate extracts, and whether it judges it (10fad8d's internals)."""
    from chunkgate.links.anchors import file_anchors
    from chunkgate.links.broken import resolve
    from chunkgate.links.corpus import read_text, sites_of
    from chunkgate.links.extract import extract_links

    sites = sites_of(repo)
    markdown = sorted(
        p.relative_to(repo).as_posix()
        for p in repo.rglob("*")
        if p.suffix.lower() in _MARKDOWN and ".git" not in p.parts
    )
    texts = {path: read_text(repo, path) for path in markdown}
    exists = set(texts)
    anchors: dict[str, object] = {}
    rows = []
    for path, text in texts.items():
        if text is None:
            continue
        for link in extract_links(text):
            target = resolve(
                link.destination, path, lambda p: p if p in exists else None, sites.of(path)
            )
            if "#" not in link.destination:
                status = "no fragment"
            elif target is None:
                status = "not resolved to a corpus page"
            else:
                if target.path not in anchors:
                    page = texts.get(target.path)
                    anchors[target.path] = (
                        None
                        if page is None
                        else file_anchors(
                            page,
                            target.path,
                            sites.of(target.path),
                            texts.get,
                            options=config.chunking,  # type: ignore[attr-defined]
                        )
                    )
                status = "anchors unknown" if anchors[target.path] is None else "judged"
            rows.append([path, link.line, link.destination, status])
    return {"rows": rows}


if __name__ == "__main__":
    json.dump(view(Path(sys.argv[1])), sys.stdout)
