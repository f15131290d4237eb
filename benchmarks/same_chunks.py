"""Every chunk of every corpus file, chunked by a git revision's code and by this checkout's.

Run by hand (never as a test), from the repository root, before keeping a change
that must not change output::

    python benchmarks/same_chunks.py REV [DIR ...]

Default folders: the shared corpora, the two synthetic Markdown corpora (written
to a temporary folder) and the installed standard library. Each side runs in its
own process (``git archive REV`` on ``PYTHONPATH`` for the revision) and records,
for every file and every anchor flavour setting, a digest of everything
``chunk_bytes`` returns (every field of every chunk, the problems, or the
error). Exit status 1 on any difference, with the first files that differ.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPORA = next(
    (p / "shared/corpora" for p in HERE.parents if (p / "shared/corpora").is_dir()), None
)
SUFFIXES = (".md", ".markdown", ".mdx", ".py", ".rst", ".txt")
# Markdown is also chunked with each flavour that reads headings' source text.
FLAVOURS = ("auto", "mkdocs", "kramdown", "hugo", "docusaurus")


def _files(root: Path) -> Iterator[tuple[str, Path]]:
    for path in sorted(root.rglob("*")):
        if path.suffix in SUFFIXES and path.is_file() and "site-packages" not in path.parts:
            yield path.relative_to(root).as_posix(), path


def dump(roots: list[Path]) -> dict[str, str]:
    """file and setting -> digest of its chunking, with this process's chunkgate."""
    from chunkgate.chunking import ChunkOptions, chunk_bytes

    settings = {name: ChunkOptions(anchors=name) for name in FLAVOURS}
    out: dict[str, str] = {}
    for root in roots:
        for relative, path in _files(root):
            data = path.read_bytes()
            for name, options in settings.items():
                if name != "auto" and not relative.endswith((".md", ".markdown", ".mdx")):
                    continue
                try:
                    result = repr(chunk_bytes(data, relative, options=options))
                except Exception as exc:  # failures must be the same too
                    result = repr(exc)
                digest = hashlib.sha256(result.encode("utf-8", "surrogatepass")).hexdigest()
                out[f"{root}/{relative} [{name}]"] = digest
    return out


def _side(pythonpath: Path, roots: list[Path], out: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": os.fspath(pythonpath)}
    subprocess.run(
        [sys.executable, __file__, "--dump", str(out), *map(str, roots)], env=env, check=True
    )
    found: dict[str, str] = json.loads(out.read_text(encoding="utf-8"))
    return found


def main(argv: list[str]) -> int:
    if argv[:1] == ["--dump"]:
        Path(argv[1]).write_text(json.dumps(dump([Path(a) for a in argv[2:]])), encoding="utf-8")
        return 0
    revision, *named = argv
    with tempfile.TemporaryDirectory(prefix="same-chunks-") as work:
        folder = Path(work)
        roots = [Path(p).resolve() for p in named] or _default_roots(folder)
        archive = subprocess.run(
            ["git", "archive", revision], cwd=HERE.parent, capture_output=True, check=True
        ).stdout
        (folder / "old.tar").write_bytes(archive)
        with tarfile.open(folder / "old.tar") as tar:
            tar.extractall(folder / "old", filter="data")
        old = _side(folder / "old", roots, folder / "old.json")
        new = _side(HERE.parent, roots, folder / "new.json")
    differing = sorted(key for key in old.keys() | new.keys() if old.get(key) != new.get(key))
    print(f"{len(new):,} file chunkings compared with {revision}: {len(differing)} differ")
    for key in differing[:20]:
        print(f"  {key}")
    return 1 if differing else 0


def _default_roots(folder: Path) -> list[Path]:
    sys.path.insert(0, os.fspath(HERE))
    import synthetic

    roots = sorted(CORPORA.iterdir()) if CORPORA else []
    for shape, write in synthetic.SHAPES.items():
        write(folder / shape)
        roots.append(folder / shape)
    return [*roots, Path(sysconfig.get_paths()["stdlib"])]


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
