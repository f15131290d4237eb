"""The re-embed plan (``chunkgate diff A B --format plan``, issue 20): what an index
built from A's export must do to hold B's export, embedding only what changed.

Rows, as JSON objects:

- ``delete``: ``{"op": "delete", "id"}``, a chunk that is gone;
- ``rekey``: ``{"op": "rekey", "id", "from", "embed_changed", ...}``, the chunk
  ``from`` lives on as ``id``: move its vector, store the record. A rekey is an
  acknowledged move (``update --accept-moves`` recorded ``moved_from``) or a
  detected one with the same hash; ``embed_changed`` says the embed text differs
  from the old one (a renamed heading) or another model embeds it, for a pipeline
  that wants every vector exact;
- ``upsert``: ``{"op": "upsert", ...}``, a new chunk or new embed text: embed it;
- ``update``: ``{"op": "update", ...}``, the same text and embed text, for the same
  model, with other fields changed (lines, relations, blob): store the record, keep
  the vector;
- last, ``{"op": "unchanged", "count", "commit", "chunking", "model"}``: the chunks
  the plan leaves alone, which B's export names with ``commit``, and the chunking
  version and the model (``embed.model``) of B's records.

Upsert, update and rekey rows carry B's whole export record. Deletes come
first (in A's order), then the rest in B's export order: the same bytes for the
same revisions. Applying the plan of A..B to A's export (and setting ``commit``
on the records it leaves alone) gives B's export exactly. A file whose blob,
recorded moves and settings are the same on both sides is not compared, only
counted (by the head side's manifest when it knows the file at that blob).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import IO

from chunkgate.chunking import CHUNKING_VERSION
from chunkgate.config.model import Config
from chunkgate.core.errors import ChunkgateError, GitError, ManifestError
from chunkgate.diff.moves import unit_id
from chunkgate.gate.load import expected_header
from chunkgate.git import objects, process
from chunkgate.git.revisions import resolve_revisions
from chunkgate.ingest.records import ExportPlan, Source, plan_export
from chunkgate.manifest import RevisionManifest, SummaryCache, WorkTreeManifest

Record = dict[str, object]
_dumps = json.JSONEncoder(ensure_ascii=False).encode


def plan(
    config: Config,
    base: str = "HEAD",
    head: str | None = None,
    *,
    jobs: int = 1,
    revision_config: bool = True,
) -> Iterator[Record]:
    """The plan's rows from revision ``base`` to ``head`` (None: the work tree);
    ``A...B`` as ``base`` starts at the merge base. ``revision_config`` reads each
    revision's own configuration (False: ``config`` for both, like ``--config``)."""
    if process.find_root(config.root) is None:
        raise GitError(f"not a git repository: {config.root}")
    revisions = resolve_revisions(config.root, base, head)
    old = plan_export(config, rev=revisions.base, revision_config=revision_config)
    new = plan_export(config, rev=revisions.head, revision_config=revision_config)
    return plan_between(old, new, jobs=jobs)


def plan_between(old: ExportPlan, new: ExportPlan, *, jobs: int = 1) -> Iterator[Record]:
    """The plan from one export to another (see the module)."""
    same_settings = old.config.chunking == new.config.chunking
    before = {source.path: source for source in old.sources}
    kept = {
        source.path
        for source in new.sources
        if same_settings and _same_file(before.get(source.path), source)
    }
    known = _manifest_counts(new) if kept else {}
    unchanged = 0
    unknown = []
    for source in new.sources:
        if source.path in kept:
            blob, count = known.get(source.path, (None, 0))
            if blob is not None and blob == source.blob:
                unchanged += count
            else:
                unknown.append(source)
    unchanged += sum(1 for _ in _records(new, unknown, jobs))
    old_records = list(_records(old, [s for s in old.sources if s.path not in kept], jobs))
    new_records = list(_records(new, [s for s in new.sources if s.path not in kept], jobs))
    versions = {"chunking": CHUNKING_VERSION, "model": new.config.chunking.model}
    return plan_rows(
        old_records, new_records, unchanged=unchanged, commit=new.commit, versions=versions
    )


def _same_file(old: Source | None, new: Source) -> bool:
    # B's records name its commit only when the file is as committed (``ingest``).
    return (
        old is not None
        and new.blob is not None
        and old.blob == new.blob
        and old.moves == new.moves
        and new.blob == new.committed
    )


def _manifest_counts(export: ExportPlan) -> dict[str, tuple[str | None, int]]:
    """Path -> (blob, chunk count) the head side's manifest records, when it chunks as
    this export does: an unchanged file it knows is counted without reading it."""

    config = export.config
    root, folder = config.root, config.manifest
    manifest: WorkTreeManifest | RevisionManifest
    with objects.BlobReader(root, lazy=True) as reader:
        if export.rev is None:
            manifest = WorkTreeManifest(root, folder, in_git=export.in_git)
        else:
            manifest = RevisionManifest(root, export.rev, folder, reader)
        try:
            header = manifest.header()
            if header is None or not header.same_chunking(expected_header(config)):
                return {}
            cache = SummaryCache(root, folder)
            found = manifest.summaries(cache, reader).found
            cache.save()
        except ManifestError:
            return {}  # `check` reports it; the files are counted by chunking them
    return {path: (summary.blob, summary.chunks) for path, summary in found.items()}


def _records(export: ExportPlan, sources: Sequence[Source], jobs: int) -> Iterator[Record]:
    if sources:
        yield from export._replace(sources=tuple(sources)).records(jobs=jobs)


def plan_rows(
    old: Sequence[Record],
    new: Sequence[Record],
    *,
    unchanged: int = 0,
    commit: str | None,
    versions: Mapping[str, object],
) -> Iterator[Record]:
    """The rows that turn the records ``old`` into ``new`` (``unchanged`` more are
    counted in the last row; ``commit`` is what they are named with; ``versions``, the
    chunking version and the model of ``new``, close the last row)."""
    before = _by_id(old)
    after = _by_id(new)
    gone = [record for record in old if record["id"] not in after]
    fresh = [record for record in new if record["id"] not in before]
    moved = _rekeys(gone, fresh, after)
    moved_away = {str(record["id"]) for record in moved.values()}
    for record in gone:
        if record["id"] not in moved_away:
            yield {"op": "delete", "id": record["id"]}
    for record in new:
        chunk_id = str(record["id"])
        was = moved.get(chunk_id)
        if was is not None:
            changed = not _same_vector(was, record)
            yield {"op": "rekey", "id": chunk_id, "from": was["id"], "embed_changed": changed} | {
                key: value for key, value in record.items() if key != "id"
            }
            continue
        was = before.get(chunk_id)
        if was is None:
            yield {"op": "upsert", **record}
        elif {**was, "commit": commit} == record:
            unchanged += 1
        elif was["text"] == record["text"] and _same_vector(was, record):
            yield {"op": "update", **record}
        else:
            yield {"op": "upsert", **record}
    yield {"op": "unchanged", "count": unchanged, "commit": commit, **versions}


def _same_vector(was: Record, record: Record) -> bool:
    """Whether ``was``'s vector is ``record``'s: the same embed text, by the same model."""
    return was["embed_text"] == record["embed_text"] and was.get("model") == record.get("model")


def _by_id(records: Iterable[Record]) -> dict[str, Record]:
    found: dict[str, Record] = {}
    for record in records:
        chunk_id = str(record["id"])
        if chunk_id in found:
            raise ChunkgateError(
                f"{record['path']}: chunk ID {chunk_id} is used twice (CG101); "
                "a re-embed plan keys chunks by ID: give one of them an explicit ID"
            )
        found[chunk_id] = record
    return found


def _rekeys(gone: list[Record], fresh: list[Record], after: dict[str, Record]) -> dict[str, Record]:
    """New ID -> the gone record whose vector it takes: acknowledged moves first (part
    by part: ``old~2`` to ``new~2``), then the same hash, in document order."""
    free = {str(record["id"]): record for record in gone}
    paired: dict[str, Record] = {}
    for record in fresh:
        chunk_id = str(record["id"])
        unit = unit_id(chunk_id)
        head = after.get(unit, record)
        for source in _strings(head.get("moved_from")):
            candidate = source + chunk_id[len(unit) :]
            if candidate in free:
                paired[chunk_id] = free.pop(candidate)
                break
    by_hash: dict[object, list[Record]] = defaultdict(list)
    for record in free.values():
        by_hash[record["hash"]].append(record)
    for record in fresh:
        chunk_id = str(record["id"])
        if chunk_id not in paired and by_hash.get(record["hash"]):
            paired[chunk_id] = by_hash[record["hash"]].pop(0)
    return paired


def _strings(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def write_plan(rows: Iterable[Record], stream: IO[str]) -> None:
    """The plan as JSON lines, one row a line."""
    for row in rows:
        stream.write(_dumps(row) + "\n")
