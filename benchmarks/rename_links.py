"""CG404 against renames: rename up to 10 linked headings per corpus and count the findings.

Each renamed heading's anchor changes (an explicit `{ #id }` gets a suffix,
otherwise the heading text does); every link to it must now be reported, and
nothing else.

    python benchmarks/rename_links.py fastapi-docs hugo-docs httpx-docs
"""

import random
import sys

from references import _texts
from verdict import default_corpora

from chunkgate.chunking import context_for
from chunkgate.chunking.markdown import headings
from chunkgate.config.model import Config
from chunkgate.core.model import Violation
from chunkgate.links.broken import resolve
from chunkgate.links.extract import extract_links
from chunkgate.rules.references import reference_violations
from chunkgate.sites.routes import detect_routes

random.seed(21)
total = 0
for name in sys.argv[1:]:
    root = default_corpora() / name
    texts, paths = _texts(root)
    site = detect_routes(paths, lambda p: (root / p).read_bytes())
    config = Config(root=root)
    before = {
        (v.path, v.line, v.message)
        for v in reference_violations(config, texts, site=site)
        if isinstance(v, Violation)
    }
    targets = {}
    for path, text in texts.items():
        for link in extract_links(text, local_only=True):
            t = resolve(link.destination, path, lambda p: p if p in texts else None, site)
            if t:
                targets.setdefault((t.path, t.fragment), []).append((path, link.line))
    # headings whose anchor is linked: rename them
    chosen = []
    for (tpath, frag), sources in random.sample(sorted(targets.items()), len(targets)):
        _, found = headings(context_for(texts[tpath], tpath))
        h = next((h for h in found if h.identity == frag), None)
        if h is None or len(chosen) >= 10 or any(c[0] == tpath for c in chosen):
            continue
        lines = texts[tpath].split("\n")
        line = lines[h.first]
        if "#" + frag + " " in line or "#" + frag + "}" in line:
            lines[h.first] = line.replace("#" + frag, "#" + frag + "-renamed", 1)
        elif h.first == h.last and line.lstrip().startswith("#"):
            lines[h.first] = line.rstrip() + " Renamed"
        else:
            continue
        texts[tpath] = "\n".join(lines)
        chosen.append((tpath, frag, len(sources)))
    after = {
        (v.path, v.line, v.message)
        for v in reference_violations(config, texts, site=site)
        if isinstance(v, Violation)
    }
    new = after - before
    expected = sum(len(set(targets[(p, f)])) for p, f, _ in chosen)
    hit = {(p, f) for p, f, _ in chosen}
    wrong = [n for n in new if not any(f"#{f}" in n[2] for _, f in hit)]
    print(
        print(
            f"{name}: renamed {len(chosen)} linked headings; {expected} links to them; "
            f"{len(new)} new findings; {len(wrong)} unrelated; {len(before - after)} disappeared"
        )
    )
    for p, f, n in chosen:
        print("   ", p, "#" + f, n, "links")
    total += len(new)
