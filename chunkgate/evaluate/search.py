"""``search``: one query against the corpus's chunks, to look at what retrieval returns
before anything is embedded (issue 43).

The chunks are the ones ``check`` sees (the corpus, or the named paths), read as
``export`` reads them: from the work tree, or with ``rev`` from git's objects and
the configuration committed there. They are ranked by the index ``eval`` uses
(``evaluate.index``), so a query typed here and the same query in a golden file
give the same top k.

Each result carries the terms it matched with their weights, and the findings the
file-level rules make for it that say it should not be embedded as it is: a size
finding (CG2xx) on the chunk, a never-embed one (CG3xx: a license, a lockfile, a
link farm) on the chunk or its whole file. Only the files of the results are
checked, with the rule run ``check`` makes (``gate.filecheck.file_findings``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from chunkgate.config.model import Config
from chunkgate.core.model import Chunk, Violation
from chunkgate.evaluate.index import Index, vocabulary, word_finding
from chunkgate.evaluate.kept import Kept, KeptChunks, key
from chunkgate.evaluate.snippets import Snippet, snippet
from chunkgate.evaluate.words import chunk_words
from chunkgate.gate.filecheck import file_findings, to_violations
from chunkgate.git.attributes import gitattributes_flags
from chunkgate.ingest.records import ExportPlan, Skipped, close_readers, plan_export, read_source
from chunkgate.rules import FileContext

# The families whose findings say a chunk should not be embedded as it is: sizes and
# never-embed content (SPEC §4).
_FAMILIES = ("CG2", "CG3")


class Hit(NamedTuple):
    rank: int  # from 1
    chunk: Chunk
    score: float
    snippet: Snippet
    terms: tuple[tuple[str, float], ...]  # each matched query term and its weight
    findings: tuple[Violation, ...]  # why it should not be embedded as it is

    def to_dict(self) -> dict[str, object]:
        chunk = self.chunk
        return {
            "rank": self.rank,
            "id": chunk.id,
            "score": round(self.score, 4),
            "path": chunk.path,
            "kind": chunk.kind,
            "heading_path": list(chunk.heading_path),
            "symbol": chunk.symbol,
            "lines": [chunk.start_line, chunk.end_line],
            "tokens": chunk.tokens,
            "chars": chunk.chars,
            "snippet": self.snippet.text,
            "marks": [list(mark) for mark in self.snippet.marks],
            "terms": [{"term": term, "weight": round(w, 4)} for term, w in self.terms],
            "findings": [
                {"rule": v.rule, "name": v.name, "severity": v.severity, "message": v.message}
                for v in self.findings
            ],
        }


class SearchResult(NamedTuple):
    query: str
    name: str  # the revision searched, as named, or "working tree"
    chunks: int  # how many were ranked
    k: int
    terms: tuple[str, ...]  # the query's tokens, as the index reads it
    hits: tuple[Hit, ...]
    explain: int | None  # the rank whose terms to show (``--explain``; maybe past the hits)
    skipped: tuple[str, ...] = ()  # files that give no chunks, with why

    def to_dict(self) -> dict[str, object]:
        return {
            "query": self.query,
            "searched": self.name,
            "chunks": self.chunks,
            "k": self.k,
            "terms": list(self.terms),
            "explain": self.explain,
            "results": [hit.to_dict() for hit in self.hits],
            "skipped": list(self.skipped),
        }


class Corpus(NamedTuple):
    """The chunks a search ranks, indexed: build once, ask many queries (``search``)."""

    name: str  # the revision, as named, or "working tree"
    plan: ExportPlan
    chunks: tuple[Chunk, ...]
    ranking: Index
    skipped: tuple[str, ...]  # files that give no chunks, with why


def load_corpus(
    config: Config,
    paths: Sequence[str] | None = None,
    *,
    rev: str | None = None,
    jobs: int = 1,
    revision_config: bool = True,
) -> Corpus:
    """The corpus's chunks (or those of ``paths``; at ``rev``), as ``check`` sees them;
    the files git knows as they are read from the cache where it has them (``kept``)."""
    plan = plan_export(config, paths, rev, revision_config=revision_config)
    settings = plan.config
    cache = KeptChunks(settings.root, settings.chunking, settings.max_file_bytes, word_finding())
    known = {s.path: cache.get(key(s.blob, s.path)) for s in plan.sources if s.blob}
    missing = plan._replace(sources=tuple(s for s in plan.sources if known.get(s.path) is None))
    fresh = missing.each(chunk_words, jobs=jobs)
    chunked = dict(zip([s.path for s in missing.sources], fresh, strict=True))
    # bm25s only now: workers forked from a process without it (numpy, scipy) cost less
    # (2.30 s against 2.40 s for the first search on FastAPI's docs, 8 rounds).
    vocab = vocabulary(cache.words)
    chunks: list[Chunk] = []
    documents: list[bytes] = []
    skipped: list[str] = []
    for source in plan.sources:
        kept = known.get(source.path)
        if kept is None:
            found = chunked[source.path]
            if isinstance(found, Skipped):
                skipped.append(f"{found.path}: {found.message}")
                continue
            kept = Kept(found.chunks, vocab.renumber(found.words.split(), found.numbers))
            if source.blob:
                cache.put(key(source.blob, source.path), kept)
        chunks.extend(kept.chunks)
        documents.extend(kept.words)
    index = Index(documents, vocab)
    cache.words = vocab.words
    if len(cache.words) > 2 * (vocab.stopwords + index.words):
        # Half the vocabulary is words of files that changed since: start afresh.
        cache.clear()
    cache.save()
    name = "working tree" if rev is None else rev
    return Corpus(name, plan, tuple(chunks), index, tuple(skipped))


def search(corpus: Corpus, query: str, *, k: int = 8, explain: int | None = None) -> SearchResult:
    """The top ``k`` chunks of ``corpus`` for ``query``; ``explain``: the rank to explain."""
    chunks, index = corpus.chunks, corpus.ranking
    terms = index.terms(query)
    ranked = index.top(query, k)
    findings = _findings(corpus.plan, {chunks[r.position].path for r in ranked})
    hits = tuple(
        Hit(
            rank,
            chunk,
            found.score,
            snippet(chunk.text, set(terms)),
            tuple(index.weights(query, found.position)),
            tuple(v for v in findings.get(chunk.path, ()) if v.chunk_id in (None, chunk.id)),
        )
        for rank, found in enumerate(ranked, 1)
        for chunk in (chunks[found.position],)
    )
    return SearchResult(
        query, corpus.name, len(chunks), k, tuple(terms), hits, explain, corpus.skipped
    )


def run_search(
    config: Config,
    query: str,
    paths: Sequence[str] | None = None,
    *,
    k: int = 8,
    rev: str | None = None,
    explain: int | None = None,
    jobs: int = 1,
    revision_config: bool = True,
) -> SearchResult:
    """``chunkgate search``: the top ``k`` chunks of the corpus (or ``paths``; at
    ``rev``) for ``query``."""
    corpus = load_corpus(config, paths, rev=rev, jobs=jobs, revision_config=revision_config)
    return search(corpus, query, k=k, explain=explain)


def _findings(plan: ExportPlan, paths: Iterable[str]) -> dict[str, list[Violation]]:
    """The size and never-embed findings ``check`` makes in each of ``paths``."""
    config = plan.config
    wanted = set(paths)
    sources = [source for source in plan.sources if source.path in wanted]
    flags = gitattributes_flags(config.root, [s.path for s in sources]) if plan.in_git else {}
    found: dict[str, list[Violation]] = {}
    try:
        reads = [read_source(config, source, plan.rev) for source in sources]
    finally:
        close_readers()
    for read in reads:
        if isinstance(read, Skipped):
            continue
        source = read.source
        context = FileContext(
            path=source.path,
            size=len(read.data),
            text=read.text,
            chunks=read.chunked.chunks,
            config=config,
            problems=read.chunked.problems,
            attributes=frozenset(flags.get(source.path, ())),
        )
        found[source.path] = [
            v
            for v in to_violations(config, source.path, file_findings(context))
            if v.rule.startswith(_FAMILIES)
        ]
    return found
