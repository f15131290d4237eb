"""CG404 over a repository's corpus, as the gate will run it: texts from disk, moves
from the manifest, the site from the generator's configuration."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from chunkgate.config.model import Config
from chunkgate.core.errors import UnreadableError
from chunkgate.core.model import Violation
from chunkgate.corpus.select import select_files
from chunkgate.corpus.source import decode
from chunkgate.git import listings, process
from chunkgate.rules.references import reference_violations
from chunkgate.sites.routes import MARKDOWN_SUFFIXES, Routes, detect_routes


def corpus_reference_violations(config: Config) -> list[Violation]:
    """Every broken link of the corpus (CG404), sorted by path and line."""
    root = config.root
    texts: dict[str, str] = {}
    for file in select_files(config).files:
        if not file.path.lower().endswith(MARKDOWN_SUFFIXES):
            continue
        try:
            texts[file.path] = decode((root / file.path).read_bytes(), file.path)
        except (OSError, UnreadableError):
            continue  # CG001 reports it
    violations = reference_violations(
        config, texts, moved_from=recorded_moves(config), site=site_of(root, config.generator_files)
    )
    return sorted(violations, key=Violation.sort_key)


def recorded_moves(config: Config) -> dict[str, str]:
    """Chunk ID -> the old ID the manifest records it as moved from."""
    from chunkgate.manifest import WorkTreeManifest
    from chunkgate.manifest.folder import recorded_moves as moves

    in_git = (config.root / ".git").exists() and process.installed()
    return moves(WorkTreeManifest(config.root, config.manifest, in_git=in_git), None)


def site_of(root: Path, generator_files: Collection[str] | None = None) -> Routes:
    """The repository's site generator, from the configuration files at its top.

    ``generator_files`` are the tracked generator configs, as ``load_config``
    listed them (``Config.generator_files``); without them, the index is listed.
    """
    if generator_files is not None:
        paths = list(generator_files)
        # A Hugo config.toml counts beside a content folder with tracked files in it.
        for path in generator_files:
            folder, _, name = path.rpartition("/")
            if name == "config.toml" and "/" not in folder:
                paths += listings.index_blobs(root, [f"{folder}/content" if folder else "content"])
    elif (root / ".git").exists() and process.installed():
        paths = list(listings.index_blobs(root))
    else:
        paths = [p.name for p in root.iterdir()]
        paths += [f"{p.parent.name}/{p.name}" for p in root.glob("*/*") if p.is_file()]

    def read(path: str) -> bytes | None:
        try:
            return (root / path).read_bytes()
        except OSError:
            return None

    return detect_routes(paths, read)
