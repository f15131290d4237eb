"""Which manifest layout plain `git merge` merges (issue 16). Standard library and `git` only.

    python benchmarks/merge_layouts.py [--pairs 240] [--same-file 40] [--files 200,2000]
        [--matrix 4] [--bytes-files 10000] [--seed 16] [--only single,per-file,...]

A seeded synthetic corpus (paths in a few folders, 1-8 sections a file) is rendered in every
candidate layout into a real git repository. Pairs of branches change different source files
(edit, add, delete, rename; neighbours in path order, one folder, adds between the same two
files) and are merged by plain `git merge`: no driver, no global or system config. A clean merge
whose manifest is not the one rendered for the merged files is wrong. Then one change each side
of the boundary between two neighbours, every pair of kinds; and at --bytes-files files, what one
commit of 5 edited files adds to `.git` in each layout.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import os
import random
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

HEADER = '{"chunkgate_manifest": 1, "chunking": 3, "config": "52e5f615e5831cb9", '
HEADER += '"rules": "3dcb57c3a1ee509a"}\n'
SHARDS = "chunkgate.manifest/"
FOLDERS = ["docs", "docs/guide", "docs/guide/advanced", "docs/reference", "docs/tutorial"]
FOLDERS += ["docs/zh/tutorial", "blog", "examples"]
SYLLABLES = [c + v for c in "bdklmnprstv" for v in "aeio"]
KINDS = ["random", "neighbours", "same-folder", "adds-between"]
PINNED = {"NAME": "bench", "EMAIL": "bench@chunkgate.invalid", "DATE": "2024-01-01T00:00:00Z"}
ENV = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
ENV |= {
    f"GIT_{who}_{key}": value for who in ("AUTHOR", "COMMITTER") for key, value in PINNED.items()
}
ENV |= {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"}


class Source(NamedTuple):
    sections: tuple[tuple[str, str], ...]  # (heading, body): one chunk each


Corpus = dict[str, Source]
Items = list[tuple[str, Source]]


class Change(NamedTuple):
    op: str  # edit, add, delete, rename
    path: str
    to: str = ""  # a rename's new path
    src: Source | None = None  # an edit's or an add's new content


Pair = tuple[list[Change], list[Change]]


def words(rng: random.Random, low: int = 1, high: int = 1) -> str:
    return " ".join(
        "".join(rng.choices(SYLLABLES, k=rng.randint(1, 3))) for _ in range(rng.randint(low, high))
    )


def section(rng: random.Random) -> tuple[str, str]:
    body = "\n".join(words(rng, 4, 12) for _ in range(rng.randint(1, 8)))
    return words(rng, 1, 4).capitalize(), body


def new_source(rng: random.Random) -> Source:
    return Source(tuple(section(rng) for _ in range(rng.randint(1, 8))))


def edited(rng: random.Random, src: Source) -> Source:
    """A section's body grows, a section is inserted or one is removed (later lines move)."""
    parts, i = list(src.sections), rng.randrange(len(src.sections))
    op = rng.choice(("body", "insert", "remove"))
    if op == "insert" and len(parts) < 8:
        parts.insert(i, section(rng))
    elif op == "remove" and len(parts) > 1:
        del parts[i]
    else:
        parts[i] = (parts[i][0], parts[i][1] + "\n" + words(rng, 4, 12))
    return Source(tuple(parts))


@functools.cache
def source_text(src: Source) -> str:
    return "\n".join(f"## {heading}\n\n{body}\n" for heading, body in src.sections)


@functools.cache
def entry(path: str, src: Source) -> tuple[str, str]:
    """A file line's blob ID and chunk count, and the chunk lines, as chunkgate writes them."""
    data = source_text(src).encode()
    stats = f'"blob": "{hashlib.sha1(b"blob %d%c%s" % (len(data), 0, data)).hexdigest()}", '
    lines, start, seen = [], 1, dict[str, int]()
    for heading, body in src.sections:
        chunk = f"## {heading}\n\n{body}\n"
        slug = heading.lower().replace(" ", "-")
        seen[slug] = seen.get(slug, -1) + 1
        anchor = f"{slug}-{seen[slug]}" if seen[slug] else slug
        end = start + chunk.count("\n") - 1
        sizes = f'"chars": {len(chunk)}, "tokens": {(len(chunk) + 3) // 4}'
        digest = hashlib.sha256(chunk.encode()).hexdigest()[:16]
        lines.append(f'{{"id": "{path}#{anchor}", "lines": [{start}, {end}], {sizes}, ')
        lines.append(f'"hash": "{digest}"}}\n')
        start = end + 2
    return stats + f'"chunks": {len(src.sections)}', "".join(lines)


# One file's entry: today's file line, or a line that only the path decides before (and after).
def plain(path: str, src: Source) -> str:
    stats, chunks = entry(path, src)
    return f'{{"file": "{path}", {stats}}}\n{chunks}'


def named(path: str, src: Source, end: bool = False) -> str:
    stats, chunks = entry(path, src)
    return f'{{"file": "{path}"}}\n{{{stats}}}\n{chunks}' + (f'{{"end": "{path}"}}\n' * end)


class Layout(NamedTuple):
    name: str
    shard: Callable[[str], str]  # the manifest file that holds a source file's entry
    render: Callable[[Items], str]  # that manifest file, from its sources in path order
    fixed: Callable[[Corpus], dict[str, str]]  # the manifest files that are not shards


def one_file(name: str, block: Callable[[str, Source], str], between: str = "") -> Layout:
    def render(items: Items) -> str:
        return HEADER + between.join(block(path, src) for path, src in items)

    return Layout(name, lambda _: "chunkgate.manifest.jsonl", render, lambda _: {})


def sharded(name: str, shard: Callable[[str], str], listing: bool = False) -> Layout:
    def fixed(corpus: Corpus) -> dict[str, str]:  # the header; with listing, every path too
        return {
            SHARDS + "manifest.json": HEADER + "".join(f'"{p}"\n' for p in sorted(corpus) * listing)
        }

    return Layout(name, shard, lambda items: "".join(plain(p, s) for p, s in items), fixed)


LAYOUTS = [
    one_file("single", plain),
    one_file("single+blank", plain, "\n"),
    one_file("single+name", named),
    one_file("single+name+end", functools.partial(named, end=True)),
    sharded("per-folder", lambda path: SHARDS + path.rpartition("/")[0] + ".jsonl"),
    sharded("per-file", lambda path: SHARDS + path + ".jsonl"),
    sharded("per-file+list", lambda path: SHARDS + path + ".jsonl", listing=True),
]


def groups(layout: Layout, corpus: Corpus) -> dict[str, Items]:
    out: dict[str, Items] = {}
    for path in sorted(corpus):
        out.setdefault(layout.shard(path), []).append((path, corpus[path]))
    return out


def render(layout: Layout, corpus: Corpus) -> dict[str, str]:
    shards = {shard: layout.render(items) for shard, items in groups(layout, corpus).items()}
    return shards | layout.fixed(corpus)


def tree(layout: Layout, corpus: Corpus) -> dict[str, str]:
    return {path: source_text(src) for path, src in corpus.items()} | render(layout, corpus)


def apply(corpus: Corpus, changes: list[Change]) -> Corpus:
    out = dict(corpus)
    for change in changes:
        if change.op == "rename":
            out[change.to] = out.pop(change.path)
        elif change.op == "delete":
            del out[change.path]
        elif change.src:
            out[change.path] = change.src
    return out


def make_corpus(rng: random.Random, count: int) -> Corpus:
    corpus: Corpus = {}
    while len(corpus) < count:
        corpus[f"{rng.choice(FOLDERS)}/{words(rng)}-{words(rng)}.md"] = new_source(rng)
    return corpus


def name_after(rng: random.Random, paths: list[str], i: int, taken: set[str]) -> str:
    """A free path in paths[i]'s folder, sorting between paths[i] and paths[i + 1] if it can."""
    after = paths[i + 1] if i + 1 < len(paths) else "\x7f"
    for attempt in range(40):
        name = f"{paths[i].removesuffix('.md')}_{words(rng)}.md"
        if name not in taken and (paths[i] < name < after or attempt > 20):
            taken.add(name)
            return name
    raise RuntimeError(f"no free name after {paths[i]}")


def pair(rng: random.Random, corpus: Corpus, kind: str) -> Pair:
    """Two branches' 1-5 changes each, to different source files, drawn by kind (see KINDS)."""
    paths, taken = sorted(corpus), set(corpus)
    if kind == "random":
        pool = rng.sample(range(len(paths)), 10)
    elif kind == "same-folder":
        folder = rng.choice(FOLDERS)
        pool = [i for i, path in enumerate(paths) if path.rpartition("/")[0] == folder]
        pool = rng.sample(pool, min(10, len(pool)))
    else:  # a run of neighbours in path order
        start = rng.randrange(len(paths) - 11)
        pool = list(range(start, start + 10))
    sides: Pair = ([], [])
    for changes, targets in zip(sides, (pool[0::2], pool[1::2]), strict=True):  # interleaved
        if kind == "adds-between":  # both sides add a file after the same one
            changes.append(
                Change("add", name_after(rng, paths, pool[0], taken), src=new_source(rng))
            )
        for i in targets[: rng.randint(1, 5) - len(changes)]:
            op = rng.choices(("edit", "add", "delete", "rename"), (4, 2, 2, 2))[0]
            if op == "add":
                changes.append(Change("add", name_after(rng, paths, i, taken), src=new_source(rng)))
            elif op == "rename":  # to the next name, or next to another file of the pool
                to = name_after(rng, paths, rng.choice((i, rng.choice(pool))), taken)
                changes.append(Change("rename", paths[i], to))
            else:
                changes.append(Change(op, paths[i], src=edited(rng, corpus[paths[i]])))
    return sides


def same_file(rng: random.Random, corpus: Corpus) -> Pair:
    path = rng.choice(sorted(corpus))
    ours = edited(rng, corpus[path])
    while (theirs := edited(rng, corpus[path])) == ours:
        pass
    return [Change("edit", path, src=ours)], [Change("edit", path, src=theirs)]


def boundary(rng: random.Random, corpus: Corpus, ours: str, theirs: str) -> Pair:
    """One change each side of a boundary: ours on X, theirs on the next file Y (or between)."""
    paths, taken = sorted(corpus), set(corpus)
    i = rng.randrange(len(paths) - 2)
    sides: Pair = ([], [])
    for changes, op, j in zip(sides, (ours, theirs), (i, i + 1), strict=True):
        if op == "add":  # a new file between X and Y
            changes.append(Change("add", name_after(rng, paths, i, taken), src=new_source(rng)))
        elif op == "rename":  # to the next name, past no other file
            changes.append(Change("rename", paths[j], name_after(rng, paths, j, taken)))
        else:
            changes.append(Change(op, paths[j], src=edited(rng, corpus[paths[j]])))
    return sides


def run(repo: Path, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    command = ["git", "-c", "merge.conflictstyle=merge", "-c", "gc.auto=0", *args]
    return subprocess.run(command, check=False, cwd=repo, env=ENV, input=stdin, capture_output=True)


def git(repo: Path, *args: str, stdin: bytes = b"") -> bytes:
    done = run(repo, *args, stdin=stdin)
    if done.returncode:
        raise RuntimeError(f"git {' '.join(args)}: {done.stderr.decode()}")
    return done.stdout


def commit(repo: Path, old: dict[str, str], new: dict[str, str], message: str) -> None:
    for rel in old.keys() - new.keys():
        (repo / rel).unlink()
    for rel in (rel for rel, text in new.items() if old.get(rel) != text):
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_bytes(new[rel].encode())
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def base_repo(where: Path, layout: Layout, corpus: Corpus) -> tuple[Path, dict[str, str]]:
    (repo := where / layout.name).mkdir(parents=True)
    git(repo, "init", "-q", "-b", "base")
    commit(repo, {}, files := tree(layout, corpus), "base")
    return repo, files


def merge(repo: Path, layout: Layout, corpus: Corpus, files: dict[str, str], changes: Pair) -> str:
    for branch, side in zip("ab", changes, strict=True):
        git(repo, "checkout", "-q", "-f", "-B", branch, "base")
        commit(repo, files, tree(layout, apply(corpus, side)), branch)
    if run(repo, "merge", "-q", "--no-edit", "a").returncode == 0:
        found = [repo / "chunkgate.manifest.jsonl", *(repo / SHARDS).rglob("*")]
        merged = {p.relative_to(repo).as_posix(): p.read_text() for p in found if p.is_file()}
        wanted = render(layout, apply(apply(corpus, changes[0]), changes[1]))
        return "clean" if merged == wanted else "wrong"
    if not (conflicted := git(repo, "diff", "--name-only", "--diff-filter=U").decode().split()):
        raise RuntimeError(f"git merge failed in {repo} without a conflict")
    git(repo, "merge", "--abort")
    manifest = sum(path.startswith("chunkgate.manifest") for path in conflicted)
    return ("conflict" if manifest else "") + ("+source" if manifest < len(conflicted) else "")


def cell(outcomes: list[str]) -> str:
    conflicts = sum(o.startswith("conflict") for o in outcomes)
    sources = sum(o.endswith("source") for o in outcomes)
    out = f"{conflicts} / {outcomes.count('wrong')} / {outcomes.count('clean')}"
    return out + (f" (sources: {sources})" if sources else "")


def merges(args: argparse.Namespace, count: int, where: Path) -> None:
    rng = random.Random(f"{args.seed}-{count}")
    corpus = make_corpus(rng, count)
    pairs = [(KINDS[n % 4], pair(rng, corpus, KINDS[n % 4])) for n in range(args.pairs)]
    pairs += [("same file", same_file(rng, corpus)) for _ in range(args.same_file)]
    print(f"\n{count:,} files, {args.pairs} different-file pairs, {args.same_file} same-file: ")
    print("manifest conflicts / wrong clean merges / clean and right (sources that conflicted)\n")
    columns = [*KINDS, "all different-file", "same file"]
    print("| layout | " + " | ".join(columns) + " |\n" + "|---" * (len(columns) + 1) + "|")
    for layout in selected(args):
        repo, files = base_repo(where, layout, corpus)
        outcomes: dict[str, list[str]] = {kind: [] for kind in columns}
        for kind, changes in pairs:
            outcome = merge(repo, layout, corpus, files, changes)
            outcomes[kind].append(outcome)
            outcomes["all different-file"] += [outcome] * (kind != "same file")
        print(f"| {layout.name} | " + " | ".join(cell(outcomes[c]) for c in columns) + " |")


def matrix(args: argparse.Namespace, where: Path) -> None:
    rng = random.Random(f"{args.seed}-matrix")
    corpus, ops = make_corpus(rng, 200), ("edit", "delete", "rename", "add")
    cases = [
        (a, b, boundary(rng, corpus, a, b)) for _ in range(args.matrix) for a in ops for b in ops
    ]
    print(f"\nOne change each side of a boundary X | Y, 200 files, {args.matrix} pairs a cell:")
    print("conflicts / wrong clean merges (rows: our change to X; columns: theirs to Y;")
    print("add: a new file between X and Y)\n")
    print("| layout | ours | " + " | ".join(ops) + " |\n" + "|---" * 6 + "|")
    for layout in selected(args):
        repo, files = base_repo(where, layout, corpus)
        outcomes: dict[tuple[str, str], list[str]] = {(a, b): [] for a, b, _ in cases}
        for a, b, changes in cases:
            outcomes[a, b].append(merge(repo, layout, corpus, files, changes))
        for a in ops:
            counts = [" / ".join(cell(outcomes[a, b]).split(" / ")[:2]) for b in ops]
            print(f"| {layout.name} | {a} | " + " | ".join(counts) + " |")


def git_sizes(repo: Path) -> tuple[int, int]:
    """Loose objects' KiB by `count-objects -v`, and the bytes of the packs."""
    counts = dict(
        line.split(": ") for line in git(repo, "count-objects", "-v").decode().splitlines()
    )
    packs = sum(pack.stat().st_size for pack in (repo / ".git/objects/pack").glob("*.pack"))
    return int(counts["size"]), packs


def new_objects(repo: Path) -> list[tuple[int, int, int]]:
    """HEAD's new objects: count, bytes, zlib bytes on disk; all of them, then the manifest's."""
    listed = git(repo, "rev-list", "--objects", "HEAD", "^HEAD~1").decode().splitlines()
    ids = "".join(line.split(" ")[0] + "\n" for line in listed).encode()
    sizes = git(repo, "cat-file", "--batch-check=%(objectsize) %(objectsize:disk)", stdin=ids)
    rows = [(1, *map(int, size.split())) for size in sizes.decode().splitlines()]
    mine = [row for row, line in zip(rows, listed, strict=True) if " chunkgate.manifest" in line]
    return [tuple(map(sum, zip(*part, strict=True))) for part in (rows, mine)]  # type: ignore[misc]


def write_time(layout: Layout, corpus: Corpus, paths: list[str], where: Path) -> float:
    """Median wall time of writing the manifest files that hold paths (temp, fsync, rename)."""
    shards, samples = groups(layout, corpus), []
    for _ in range(15):
        begin = time.perf_counter()
        for shard in {layout.shard(path) for path in paths}:
            target = where / shard.replace("/", "%")
            with open(f"{target}.tmp", "wb") as out:
                out.write(layout.render(shards[shard]).encode())
                os.fsync(out.fileno())
            os.replace(f"{target}.tmp", target)
        samples.append(time.perf_counter() - begin)
    return statistics.median(samples)


def read_time(repo: Path) -> float:
    """Median wall time of reading every manifest file (warm page cache), as a full check must."""
    samples = []
    for _ in range(5):
        begin = time.perf_counter()
        for folder, _dirs, names in os.walk(repo / SHARDS):
            for name in names:
                Path(folder, name).read_bytes()
        if (single := repo / "chunkgate.manifest.jsonl").exists():
            single.read_bytes()
        samples.append(time.perf_counter() - begin)
    return statistics.median(samples)


def sizes(args: argparse.Namespace, where: Path) -> None:
    rng = random.Random(f"{args.seed}-bytes")
    corpus = make_corpus(rng, args.bytes_files)
    edits = [Change("edit", p, src=edited(rng, corpus[p])) for p in rng.sample(sorted(corpus), 5)]
    print(f"\nA commit editing 5 of {args.bytes_files:,} files; figures are the manifest's / all")
    print("(objects and their bytes new in HEAD, zlib bytes on disk, `count-objects -v` KiB; the")
    print("thin pack a push sends; the pack's growth at `git repack -ad`; files in the PR;")
    print("median wall ms to write the changed manifest files, and to read all of them)\n")
    columns = ["manifest", "objects", "bytes", "on disk", "loose KiB", "push", "after gc"]
    columns += ["PR files", "write (ms)", "read all (ms)"]
    print("| layout | " + " | ".join(columns) + " |\n|---" + "|---:" * len(columns) + "|")
    for layout in selected(args):
        repo, files = base_repo(where, layout, corpus)
        git(repo, "repack", "-adq")
        git(repo, "prune-packed")
        loose, packs = git_sizes(repo)
        commit(repo, files, tree(layout, apply(corpus, edits)), "five edits")
        (n, size, disk), (mn, msize, mdisk) = new_objects(repo)
        push = git(
            repo, "pack-objects", "--revs", "--thin", "--stdout", "-q", stdin=b"HEAD\n^HEAD~1\n"
        )
        loose = git_sizes(repo)[0] - loose
        git(repo, "repack", "-adq")
        shown = git(repo, "diff", "--name-only", "HEAD~1", "HEAD").decode().split()
        (scratch := where / f"{layout.name}-write").mkdir()
        ms = 1000 * write_time(layout, apply(corpus, edits), [e.path for e in edits], scratch)
        total = sum(map(len, render(layout, corpus).values())) / 1e6
        cells = [f"{total:.1f} MB", f"{mn} / {n}", f"{msize:,} / {size:,}", f"{mdisk:,} / {disk:,}"]
        cells += [f"{loose:,}", f"{len(push):,}", f"{git_sizes(repo)[1] - packs:,}"]
        cells += [f"{sum(p.startswith('chunkgate.manifest') for p in shown)} / {len(shown)}"]
        cells += [f"{ms:.1f}", f"{1000 * read_time(repo):.1f}"]
        print(f"| {layout.name} | " + " | ".join(cells) + " |")


def selected(args: argparse.Namespace) -> list[Layout]:
    names = args.only.split(",") if args.only else [layout.name for layout in LAYOUTS]
    return [layout for layout in LAYOUTS if layout.name in names]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=240, help="different-file pairs per size")
    parser.add_argument("--same-file", type=int, default=40, help="same-file pairs per size")
    parser.add_argument("--files", default="200,2000", help="corpus sizes for the merges")
    parser.add_argument("--bytes-files", type=int, default=10000, help="0: no bytes table")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--matrix", type=int, default=4, help="samples a cell, 0: no table")
    parser.add_argument("--only", default="", help="layouts, comma-separated")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="merge-layouts-") as scratch:
        for count in (int(c) for c in args.files.split(",") if c):
            merges(args, count, Path(scratch) / f"merges-{count}")
        if args.matrix:
            matrix(args, Path(scratch) / "matrix")
        if args.bytes_files:
            sizes(args, Path(scratch) / "bytes")


if __name__ == "__main__":
    main()
