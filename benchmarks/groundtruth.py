"""chunkgate against the real generators (issue 39, part 1): a table per site.

For each corpus with a recipe (``truth_builds.RECIPES``) the site is built by
its generator, which also says each source file's URL; the built HTML is read
(``chunkgate.sites.built``) and compared with chunkgate's view of the corpus
(``truth_chunkgate.py``, run on the checkout ``--chunkgate`` names):

(a) anchors: each Markdown chunk's anchor is an id on its file's built page;
(b) CG404: every link with a fragment and no scheme, found in the sources by a
    plain scan (outside fenced code and code spans; admonition bodies included),
    is broken in the site when the page at the URL it resolves to (the linked
    file's URL for a link to a ``.md`` file, else the URL joined to the linking
    page's) is missing or lacks the id; CG404's precision and recall against that;
(c) the links chunkgate leaves unjudged, counted by reason.

    python benchmarks/groundtruth.py [--chunkgate CHECKOUT] [--only a,b] [--json OUT]
        [--corpora DIR] [--show N] [--keep DIR]
    python benchmarks/groundtruth.py --table OUT   # the table of a saved run

Needs the generators (see ``truth_builds``). Links are counted once per (file,
destination): a judgement depends on nothing else.
"""

from __future__ import annotations

import argparse
import json
import os
import posixpath
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from truth_builds import RECIPES, BuildFailed, Built, build  # noqa: E402
from verdict import default_corpora  # noqa: E402

from chunkgate.sites.built import BuiltSite, read_site  # noqa: E402

_MARKDOWN = (".md", ".markdown", ".mdx")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:|//")
_FENCE = re.compile(r"^[ \t>]*(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+).*?\1")
_LINK = re.compile(
    r"\]\(\s*<?([^)\s>]+)"  # inline link or image
    r"|^[ \t]*\[[^\]]+\]:[ \t]*<?([^\s>]+)"  # reference definition
    r"|\bhref=[\"']([^\"']+)"  # raw HTML
)


def scan_links(text: str) -> Iterator[tuple[int, str]]:
    """Every link destination written in ``text`` outside fenced code and code spans."""
    fence: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        for match in _LINK.finditer(_CODE_SPAN.sub("", line)):
            yield number, next(group for group in match.groups() if group)


# Jekyll's site prefix, empty in the builds here (``baseurl: ""``).
_BASEURL = re.compile(r"\{\{\s*site\.baseurl\s*\}\}")


def _destination_of(message: str) -> str:
    found = re.match(r"link (.+?): ", message)
    return found.group(1) if found else ""


class Truth:
    """What the built site says of a link: "ok", "broken", or a reason it cannot say."""

    def __init__(self, corpus: Path, built: Built, site: BuiltSite) -> None:
        self.corpus, self.built, self.site = corpus, built, site
        self.sources = set(built.urls)

    def _target_file(self, source: str, path: str) -> str | None:
        if path.startswith("/"):
            ends = [s for s in self.sources if s.endswith(path)]
            return ends[0] if len(ends) == 1 else None
        return posixpath.normpath(posixpath.join(posixpath.dirname(source), path))

    def judge(self, source: str, destination: str, lines: list[int]) -> str:
        page_url = self.built.urls.get(source)
        if page_url is None:
            return "unknown: the linking file is not a page of the site"
        path = destination.partition("#")[0]
        unresolved = self.built.unresolved
        if unresolved is not None and (not path or path.lower().endswith(_MARKDOWN)):
            # The generator resolved the reference itself, on whichever page its target is.
            text = (self.corpus / source).read_text(encoding="utf-8", errors="replace")
            fragment = unquote(destination.partition("#")[2])
            lost = any(unresolved.lost(source, text, line, fragment) for line in lines)
            return "broken" if lost else "ok"
        destination = _BASEURL.sub("", destination)
        if "{{" in destination or "{%" in destination:
            return "unknown: a template expression in the destination"
        path, _, fragment = destination.partition("#")
        href = destination
        if unquote(path.partition("?")[0]).lower().endswith(_MARKDOWN):
            target = self._target_file(source, unquote(path.partition("?")[0]))
            if target in self.built.unbuilt:
                return "unknown: the linked page was left out of the build"
            if target is None or target not in self.built.urls:
                return "broken"  # no such page
            href = f"{self.built.urls[target]}#{fragment}"
        lands = self.site.lands(page_url, href)
        if lands is None:
            return "unknown: not a page of the site (a file of another type, another site)"
        return "ok" if lands else "broken"


def chunkgate_view(corpus: Path, checkout: Path) -> dict:
    done = subprocess.run(
        [sys.executable, str(HERE / "truth_chunkgate.py"), str(corpus)],
        env={**os.environ, "PYTHONPATH": str(checkout)},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def compare(corpus: Path, built: Built, site: BuiltSite, view: dict) -> dict:
    # (a) anchors
    equal, anchor_misses, unpublished = 0, [], 0
    for path, identity in view["chunks"]:
        url = built.urls.get(path)
        ids = site.page(url) if url is not None else None
        if ids is None:
            unpublished += 1
        elif identity in ids:
            equal += 1
        else:
            anchor_misses.append(f"{path}#{identity} (page {url})")
    # (b) links: the scan's, and any CG404 names that the scan missed
    links: dict[tuple[str, str], int] = {}
    lines: dict[tuple[str, str], list[int]] = {}
    for file in sorted(corpus.rglob("*")):
        if file.suffix.lower() in _MARKDOWN and file.is_file():
            path = file.relative_to(corpus).as_posix()
            for line, destination in scan_links(file.read_text(encoding="utf-8", errors="replace")):
                links.setdefault((path, destination), line)
                lines.setdefault((path, destination), []).append(line)
    flagged = {(p, unquote(_destination_of(m))) for p, _, m in view["cg404"]}
    by_key = {(p, unquote(d)): (p, d) for p, d in links}
    for key in flagged - by_key.keys():
        by_key[key] = key
        links[key] = 0
    unverified = {(p, line) for p, line, _ in view["unverified"]}
    status: dict[tuple[str, str], str] = {}
    rows = view["links"].get("rows", []) if isinstance(view["links"], dict) else []
    for path, _line, destination, judged in rows:
        status[(path, unquote(destination))] = judged
    truth = Truth(corpus, built, site)
    # Why a link chunkgate is silent on was not judged needs 10fad8d's internals.
    silent = "not extracted by chunkgate" if rows else "not judged (no internals to ask why)"
    unjudged: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    misses: list[str] = []
    for (path, destination), line in sorted(links.items()):
        if _SCHEME.match(destination) or "#" not in destination or destination.endswith("#"):
            continue
        key = (path, unquote(destination))
        verdict = truth.judge(path, destination, lines.get((path, destination), [line]))
        said = key in flagged
        where = f"{path}:{line} {destination}"
        if verdict.startswith("unknown"):
            counts["truth unknown"] += 1
            unjudged[verdict] += 1
            continue
        counts["links"] += 1
        if said and verdict == "broken":
            counts["tp"] += 1
        elif said:
            counts["fp"] += 1
            misses.append(f"FP {where}")
        elif verdict == "broken":
            counts["fn"] += 1
            misses.append(f"FN {where}: {status.get(key, silent)}")
        if not said:
            reason = status.get(key, silent)
            if (path, line) in unverified:
                reason = "listed as unverified"
            if reason != "judged":
                unjudged[f"chunkgate: {reason}"] += 1
    tp, fp, fn = counts["tp"], counts["fp"], counts["fn"]
    return {
        "chunks": len(view["chunks"]),
        "anchors_compared": equal + len(anchor_misses),
        "anchors_equal": equal,
        "anchors_equal_pct": 100 * equal / max(1, equal + len(anchor_misses)),
        "chunks_of_unpublished_files": unpublished,
        "links_with_fragment": counts["links"],
        "truth_broken": tp + fn,
        "cg404": tp + fp,
        "precision": tp / (tp + fp) if tp + fp else None,
        "recall": tp / (tp + fn) if tp + fn else None,
        "unjudged": dict(unjudged.most_common()),
        "anchor_mismatches": anchor_misses,
        "link_mismatches": misses,
    }


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def table(results: dict[str, dict]) -> str:
    lines = [
        "| site | generator | build s | read s | pages | anchors equal | links | CG404 "
        "| truth broken | precision | recall | unjudged |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, r in results.items():
        if "error" in r:
            lines.append(f"| {name} | build failed: {r['error'][:80]} |")
            continue
        unjudged = "; ".join(f"{k} {v}" for k, v in r["unjudged"].items())
        lines.append(
            f"| {name} | {r['generator']} | {r['build_seconds']:.1f} | {r['read_seconds']:.2f} "
            f"| {r['pages']} | {r['anchors_equal_pct']:.1f}% ({r['anchors_equal']}/"
            f"{r['anchors_compared']}) | {r['links_with_fragment']} | {r['cg404']} "
            f"| {r['truth_broken']} "
            f"| {_pct(r['precision'])} | {_pct(r['recall'])} | {unjudged} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--chunkgate", type=Path, default=HERE.parent, help="checkout to test")
    parser.add_argument("--corpora", type=Path)
    parser.add_argument("--only", help="comma-separated corpus names")
    parser.add_argument("--json", type=Path, help="write every figure and mismatch here")
    parser.add_argument("--table", type=Path, help="only print the table of a --json file")
    parser.add_argument("--keep", type=Path, help="build the sites in DIR/NAME and keep them")
    parser.add_argument("--show", type=int, default=0, help="print N mismatches per site")
    args = parser.parse_args()
    if args.table:
        print(table(json.loads(args.table.read_text())))
        return 0
    names = args.only.split(",") if args.only else list(RECIPES)
    args.corpora = args.corpora or default_corpora()
    results: dict[str, dict] = {}
    for name in names:
        corpus = args.corpora / name
        if not corpus.is_dir():
            continue
        with tempfile.TemporaryDirectory(prefix=f"truth_{name}_") as temporary:
            scratch = Path(temporary)
            if args.keep:  # the build stays there, to look at
                scratch = args.keep / name
                scratch.mkdir(parents=True, exist_ok=True)
            try:
                built = build(corpus, scratch)
            except BuildFailed as failed:
                results[name] = {"error": str(failed)[-2000:]}
                print(f"{name}: build failed", file=sys.stderr)
                continue
            start = time.perf_counter()
            site = read_site(built.site)
            read_seconds = time.perf_counter() - start
            row = compare(corpus, built, site, chunkgate_view(corpus, args.chunkgate))
        results[name] = {
            "generator": built.generator,
            "build_seconds": built.seconds,
            "read_seconds": read_seconds,
            "pages": len(site.pages),
            "trimmed": list(built.trimmed),
            **row,
        }
        print(f"{name}: built and compared", file=sys.stderr)
        for miss in (row["anchor_mismatches"] + row["link_mismatches"])[: args.show]:
            print(f"    {miss}", file=sys.stderr)
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
