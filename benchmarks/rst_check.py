"""Compare chunkgate's reStructuredText sections and IDs with Sphinx's own.

    python benchmarks/rst_check.py DOC_DIR [WORK_DIR]

DOC_DIR is a Sphinx documentation tree (``doc/`` of Sphinx's sdist, fetched by
benchmarks/fetch_code.sh). Sphinx (installed beside chunkgate[rst]) builds it
with its own conf.py (``-b dummy``: doctrees only); then, file by file, the
sections of Sphinx's doctrees (those written in the file itself, not pulled
in by ``include``) are lined up with ``chunkgate outline``'s, and each ID is
compared with Sphinx's anchor: the section's explicit label when it has one
(what ``:ref:`` links to), else its first id. Prints the counts and the
differences.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import time
from collections.abc import Callable
from difflib import SequenceMatcher
from pathlib import Path

from docutils import nodes

from chunkgate.chunking import chunk_document, context_for
from chunkgate.chunking.rst import outline, parse


def build(doc: Path, work: Path) -> Path:
    doctrees = work / "doctrees"
    if (doctrees / "environment.pickle").exists():
        return doctrees  # built by an earlier run
    subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "dummy", "-q", "-d", str(doctrees),
         str(doc), str(work / "out")],
        check=False,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    return doctrees


def sphinx_sections(doctree: nodes.document, source: Path) -> list[tuple[str, list[str]]]:
    found = []
    for section in doctree.findall(nodes.section):
        title = section[0]
        if Path(title.source or section.source or "").resolve() != source.resolve():
            continue
        found.append((title.astext(), list(section["ids"])))
    return found


def timing(doc: Path) -> None:
    """chunkgate's time per MB against docutils' parse alone (the floor), best of 3."""
    texts = [p.read_text(encoding="utf-8") for p in sorted(doc.rglob("*.rst"))]
    mb = sum(len(t.encode()) for t in texts) / 1e6
    for name, work in (
        ("docutils parse", lambda t, i: parse(t)),
        ("chunkgate chunk", lambda t, i: chunk_document(t, f"doc/{i}.rst")),
    ):
        best = min(_seconds(work, texts) for _ in range(3))
        print(f"{name}: {best / mb:.2f} s/MB ({mb:.2f} MB)")


def _seconds(work: Callable[[str, int], object], texts: list[str]) -> float:
    began = time.perf_counter()
    for index, text in enumerate(texts):
        work(text, index)
    return time.perf_counter() - began


def main(argv: list[str]) -> int:
    doc = Path(argv[1])
    work = Path(argv[2] if len(argv) > 2 else "/tmp/chunkgate-rst-check")
    doctrees = build(doc, work)
    with (doctrees / "environment.pickle").open("rb") as handle:
        env = pickle.load(handle)
    labels: dict[str, set[str]] = {}
    for _name, (docname, labelid, _title) in env.domaindata["std"]["labels"].items():
        labels.setdefault(docname, set()).add(labelid)
    totals = dict(files=0, sphinx=0, ours=0, aligned=0, equal=0, explicit=0, explicit_ok=0, opens=0)
    differences: list[str] = []
    for tree_path in sorted(doctrees.rglob("*.doctree")):
        docname = tree_path.relative_to(doctrees).with_suffix("").as_posix()
        source = doc / f"{docname}.rst"
        if not source.exists():
            continue
        with tree_path.open("rb") as handle:
            doctree = pickle.load(handle)
        theirs = sphinx_sections(doctree, source)
        text = source.read_text(encoding="utf-8")
        ours = outline(context_for(text, f"doc/{docname}.rst"))
        totals["files"] += 1
        totals["sphinx"] += len(theirs)
        totals["ours"] += len(ours)
        pairs = list(zip(theirs, ours, strict=False))
        if len(theirs) != len(ours):
            # Line the titles up; a section only Sphinx sees (one inside a Sphinx
            # directive's content) is a miss.
            matcher = SequenceMatcher(None, [t for t, _ in theirs], [h.text for h in ours])
            pairs = [
                (theirs[block.a + k], ours[block.b + k])
                for block in matcher.get_matching_blocks()
                for k in range(block.size)
            ]
            differences.append(
                f"{docname}: sections differ: sphinx {len(theirs)}, chunkgate {len(ours)}"
            )
        for (title, ids), heading in pairs:
            totals["aligned"] += 1
            ours_id = heading.id.partition("#")[2]
            explicit = [i for i in ids if i in labels.get(docname, set())]
            expected = explicit[0] if explicit else ids[0]
            if explicit:
                totals["explicit"] += 1
                totals["explicit_ok"] += ours_id in explicit
            totals["opens"] += ours_id in ids  # an anchor of the section in Sphinx's HTML
            if ours_id == expected or (explicit and ours_id in explicit):
                totals["equal"] += 1
            else:
                differences.append(f"{docname}: {title!r}: sphinx {ids}, chunkgate {ours_id}")
    timing(doc)
    for line in differences[:40]:
        print(line)
    print(totals)
    total = max(totals["sphinx"], 1)
    print(f"anchors equal to Sphinx's: {totals['equal']}/{total} = {totals['equal'] / total:.2%}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
