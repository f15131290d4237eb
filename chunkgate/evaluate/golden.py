"""``eval``: does retrieval still find the chunks a golden file expects for each query?

A golden file lists queries and the chunk IDs that answer them, in YAML::

    - query: how do I declare a path parameter?
      expected: [docs/tutorial/path-params.md#path-parameters]

(a list, or a mapping with a ``queries`` list), or in JSON lines, one
``{"query": ..., "expected": [...]}`` per line (``expected`` may be one
string). The BM25 index of the corpus's chunks (``evaluate.index``, the one
``search`` ranks by) ranks every chunk for each query; a query's recall@k is the share of its
expected IDs in the top k, its reciprocal rank 1/rank of the first one found
there (0 when none is). An expected ID that the manifest records as moved
(``moved_from``) counts as found under the ID it moved to, and the other way
round, so a golden file written before or after an acknowledged rename
measures the same thing. An expected ID of a section merged into a neighbour
(``markdown.merge_small``) counts as found where the chunk that holds it is.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from chunkgate.chunking.embedtext import DEFAULT_EMBED, EmbedSettings
from chunkgate.core.classes import representatives
from chunkgate.core.errors import ChunkgateError
from chunkgate.core.model import Chunk
from chunkgate.diff.moves import unit_id
from chunkgate.evaluate.index import index_chunks


class GoldenQuery(NamedTuple):
    query: str
    expected: tuple[str, ...]
    line: int  # where it is written in the golden file


class QueryResult(NamedTuple):
    query: str
    expected: tuple[str, ...]
    retrieved: tuple[str, ...]  # the top k chunk IDs
    found: tuple[str, ...]  # the expected IDs found there
    rank: int | None  # 1-based rank of the first one found

    @property
    def recall(self) -> float:
        return len(self.found) / len(self.expected)

    @property
    def reciprocal_rank(self) -> float:
        return 1 / self.rank if self.rank else 0.0


class EvalRun(NamedTuple):
    name: str  # the revision, or "working tree"
    k: int
    chunks: int
    results: tuple[QueryResult, ...]

    @property
    def recall(self) -> float:
        return sum(r.recall for r in self.results) / max(len(self.results), 1)

    @property
    def mrr(self) -> float:
        return sum(r.reciprocal_rank for r in self.results) / max(len(self.results), 1)


def load_golden(path: Path) -> list[GoldenQuery]:
    """The queries of a golden file; a ``ChunkgateError`` names the line of a bad one."""
    try:
        raw = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise ChunkgateError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ChunkgateError(f"{path}: not UTF-8") from None
    if path.suffix.lower() in (".jsonl", ".ndjson"):
        return _from_json_lines(path, raw)
    return _from_yaml(path, raw)


def _from_json_lines(path: Path, raw: str) -> list[GoldenQuery]:
    queries = []
    for number, line in enumerate(raw.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ChunkgateError(f"{path}:{number}: invalid JSON: {exc.msg}") from None
        queries.append(_query(path, number, row))
    return _checked(path, queries)


def _from_yaml(path: Path, raw: str) -> list[GoldenQuery]:
    import yaml  # type: ignore[import-untyped, unused-ignore]

    try:
        node = yaml.compose(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        document = yaml.safe_load(raw)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        raise ChunkgateError(
            f"{path}{where}: invalid YAML: {getattr(exc, 'problem', exc)}"
        ) from None
    items = document.get("queries") if isinstance(document, dict) else document
    if not isinstance(items, list):
        raise ChunkgateError(f"{path}: expected a list of queries (or a 'queries' list)")
    nodes = _item_nodes(node)
    lines = [n.start_mark.line + 1 for n in nodes] if len(nodes) == len(items) else []
    return _checked(
        path, [_query(path, lines[i] if lines else i + 1, item) for i, item in enumerate(items)]
    )


def _item_nodes(node: Any) -> list[Any]:
    # yaml loads only for a YAML golden file
    import yaml

    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if getattr(key, "value", None) == "queries":
                node = value
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []


def _query(path: Path, line: int, row: object) -> GoldenQuery:
    if not isinstance(row, dict):
        raise ChunkgateError(f"{path}:{line}: expected a mapping with 'query' and 'expected'")
    query = row.get("query")
    expected = row.get("expected", row.get("expected_ids"))
    if isinstance(expected, str):
        expected = [expected]
    if not isinstance(query, str) or not query.strip():
        raise ChunkgateError(f"{path}:{line}: 'query' must be a non-empty string")
    if (
        not isinstance(expected, list)
        or not expected
        or not all(isinstance(e, str) and "#" in e for e in expected)
    ):
        raise ChunkgateError(
            f"{path}:{line}: 'expected' must be a chunk ID (path#identity) or a list of them"
        )
    return GoldenQuery(query, tuple(dict.fromkeys(expected)), line)


def _checked(path: Path, queries: list[GoldenQuery]) -> list[GoldenQuery]:
    if not queries:
        raise ChunkgateError(f"{path}: no queries")
    return queries


def evaluate(
    name: str,
    chunks: Sequence[Chunk],
    golden: Sequence[GoldenQuery],
    *,
    k: int = 5,
    moves: Iterable[tuple[str, str]] = (),
    embed: EmbedSettings = DEFAULT_EMBED,
) -> EvalRun:
    """Rank ``chunks`` by BM25 of their embed texts (``embed``: the corpus's settings) for
    each golden query and score the top ``k``."""
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    ids = [chunk.id for chunk in chunks]
    same = representatives(moves)  # each ID that takes part in a recorded move
    holders = {alias: chunk.id for chunk in chunks for alias in chunk.merged}

    def key(chunk_id: str) -> str:
        # Any part of the expected section counts: `install~2` is the section `install`;
        # so does the chunk a section was merged into.
        unit = unit_id(chunk_id)
        unit = holders.get(unit, unit)
        return same.get(unit, unit)

    index = index_chunks(chunks, embed)
    results = []
    for item in golden:
        retrieved = tuple(ids[hit.position] for hit in index.top(item.query, k))
        wanted: dict[str, list[str]] = {}
        for expected in item.expected:
            wanted.setdefault(key(expected), []).append(expected)
        found: list[str] = []
        rank = None
        for position, chunk_id in enumerate(retrieved, 1):
            for expected in wanted.get(key(chunk_id), ()):
                if expected not in found:
                    found.append(expected)
                    rank = rank or position
        results.append(QueryResult(item.query, item.expected, retrieved, tuple(found), rank))
    return EvalRun(name, k, len(chunks), tuple(results))
