"""What CG404 costs on the shared corpora, against chunking the same files.

For each corpus: CPU seconds (median of --runs) of the link check over every
Markdown file (links, anchors, includes, the site's rules), of chunking the
same files, and their ratio; plus the findings.

    python benchmarks/references.py [--runs 5] [--corpora DIR] [--show]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from verdict import default_corpora

from chunkgate.chunking import chunk_document
from chunkgate.config.model import Config
from chunkgate.core.model import Violation
from chunkgate.rules.references import reference_violations
from chunkgate.sites.routes import MARKDOWN_SUFFIXES, detect_routes


def _texts(root: Path) -> tuple[dict[str, str], list[str]]:
    texts: dict[str, str] = {}
    paths: list[str] = []
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
            paths.append(path)
            if name.lower().endswith(MARKDOWN_SUFFIXES):
                texts[path] = (root / path).read_text(encoding="utf-8")
    return texts, paths


def _cpu(run: object, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        run()  # type: ignore[operator]
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--corpora", type=Path)
    parser.add_argument("--show", action="store_true", help="print every finding")
    args = parser.parse_args()
    where = args.corpora or default_corpora()
    for root in sorted(p for p in where.iterdir() if p.is_dir()):
        texts, paths = _texts(root)
        site = detect_routes(paths, lambda p, r=root: (r / p).read_bytes())
        config = Config(root=root)
        judged = reference_violations(config, texts, site=site)
        found = [v for v in judged if isinstance(v, Violation)]
        check = _cpu(lambda: reference_violations(config, texts, site=site), args.runs)
        chunk = _cpu(lambda: [chunk_document(t, p) for p, t in texts.items()], args.runs)
        print(
            f"{root.name}: {len(texts)} files, site {site.generator}, {len(found)} broken links, "
            f"{len(judged) - len(found)} unverified; "
            f"CG404 {check:.2f} s, chunking {chunk:.2f} s ({check / chunk:.2f}x)"
        )
        if args.show:
            for violation in found:
                print(f"    {violation.path}:{violation.line}: {violation.message}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
