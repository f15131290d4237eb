"""Chunks whose bodies are nearly the same.

## CG502 near-duplicate

Fires on a chunk whose body (the text under its heading) shares at least
`near_duplicates.threshold` (default 0.8) of its word 3-grams with an
earlier chunk's body (Jaccard similarity; earlier in path order), and is not
an exact copy (CG501 reports those). Bodies of fewer than 20 words are not
compared: short boilerplate matches too easily. Candidates are found with
MinHash and locality-sensitive hashing (datasketch, the `neardup` extra), in
time close to linear in the corpus, and each candidate pair is then measured
exactly, so the threshold is what is reported.

**Why it matters:** near copies (a section pasted under another heading, a
translated page that kept the original text) crowd retrieval results with
the same passage and drift apart when only one is edited.

**Fix:** keep one copy and link to it, or make the copies say what differs.

Fires: two sections whose bodies differ only in one product name.

Passes: two sections about the same topic written separately.

In ``check`` and ``update`` every corpus file is chunked again for the
bodies (the manifest keeps no text); a run on named files (the hook)
compares those files with each other only, as CG501 does.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from chunkgate.chunking import chunk_bytes
from chunkgate.core.errors import ChunkgateError, UnreadableError
from chunkgate.core.model import Chunk, Violation
from chunkgate.core.regex import lazy
from chunkgate.rules.base import CorpusContext, Option, Rule

if TYPE_CHECKING:
    from chunkgate.config.model import Config

THRESHOLD: Option[float] = Option(
    "near_duplicates.threshold",
    "fraction",
    0.8,
    "CG502: chunk bodies sharing at least this share of their word 3-grams are near duplicates",
)
RULES = (
    Rule(
        "CG502",
        "near-duplicate",
        "off",
        "a chunk's body is nearly the same as another's (near_duplicates.threshold)",
        priority=53,
        options=(THRESHOLD,),
    ),
)
CODE = RULES[0].code
MIN_WORDS = 20
SHINGLE = 3  # words per shingle: long enough that shared vocabulary is not a match
_PERMUTATIONS = 64
_WORD = lazy(r"\w+")
_SAME_AS = " the same text as "  # between the similarity and the original's ID


def shingles(text: str) -> set[str]:
    words = _WORD.findall(text.lower())
    if len(words) < MIN_WORDS:
        return set()
    return {" ".join(words[i : i + SHINGLE]) for i in range(len(words) - SHINGLE + 1)}


def near_duplicates(
    chunks: Sequence[Chunk], threshold: float
) -> Iterator[tuple[Chunk, Chunk, float]]:
    """(copy, original, similarity) for each chunk nearly equal to an earlier one."""
    try:
        from datasketch import MinHash, MinHashLSH  # an optional extra, and numpy with it
    except ImportError:
        raise ChunkgateError(
            "CG502 needs datasketch: install chunkgate with its neardup extra (or pip install "
            "datasketch), or set rules: {CG502: off}"
        ) from None
    ordered = sorted(
        range(len(chunks)),
        key=lambda i: (chunks[i].path.encode("utf-8", "surrogateescape"), chunks[i].start_line),
    )
    sets = {i: shingles(chunks[i].body) for i in ordered}
    kept = [i for i in ordered if sets[i]]
    if len(kept) < 2:
        return
    hashes = MinHash.bulk(
        [[s.encode("utf-8") for s in sets[i]] for i in kept], num_perm=_PERMUTATIONS, seed=1
    )
    lsh = MinHashLSH(threshold=max(threshold - 0.1, 0.05), num_perm=_PERMUTATIONS)
    rank = {index: position for position, index in enumerate(kept)}
    for index, minhash in zip(kept, hashes, strict=True):
        best: tuple[float, int] | None = None
        for other in lsh.query(minhash):
            original = int(other)
            if chunks[original].hash == chunks[index].hash:
                continue
            similarity = _jaccard(sets[index], sets[original])
            if similarity >= threshold and (
                best is None or (similarity, -rank[original]) > (best[0], -rank[best[1]])
            ):
                best = (similarity, original)
        lsh.insert(str(index), minhash)
        if best is not None:
            yield chunks[index], chunks[best[1]], best[0]


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b)


def near_duplicate_violations(config: Config, chunks: Sequence[Chunk]) -> list[Violation]:
    severity = config.severity(CODE)
    if severity == "off":
        return []
    out = []
    for copy, original, similarity in near_duplicates(chunks, config.option(THRESHOLD)):
        if CODE in copy.suppressed:
            continue
        out.append(
            Violation(
                CODE,
                RULES[0].name,
                severity,
                copy.path,
                copy.start_line,
                copy.id,
                f"{similarity:.0%}{_SAME_AS}{original.id}",
                f"keep one copy and link to {original.id}, or make the copies say what differs",
            )
        )
    return out


def original_of(violation: Violation) -> str | None:
    """The ID of the chunk a CG502 finding's chunk nearly copies, read back from its
    message (written above); None for any other finding."""
    if violation.rule != CODE:
        return None
    return violation.message.partition(_SAME_AS)[2] or None


def check_corpus(context: CorpusContext) -> list[Violation]:
    """CG502 over the corpus files (or the named ones), chunked again from disk."""
    config = context.config
    chunks: list[Chunk] = []
    for path in context.files:
        try:
            data = (config.root / path).read_bytes()
            chunks.extend(chunk_bytes(data, path, options=config.chunking).chunks)
        except (OSError, UnreadableError):
            continue  # CG001 reports it
    return near_duplicate_violations(config, chunks)
