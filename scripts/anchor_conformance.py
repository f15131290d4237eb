"""Write tests/data/anchors/expected.json: the heading IDs that the site generators
themselves give heading fixtures, for tests/test_anchors_conformance.py.

Each fixture is a document of headings only: the hand-written
tests/data/anchors/headings.md, the CommonMark spec examples that hold
headings, and the top-level headings of every page of the shared corpora
(each page's heading lines in order, with a kramdown attribute list below a
heading kept). Each document is given to the generators in one run each:

- Python-Markdown's toc (and pymdownx.slugs), in process (pip: markdown, pymdown-extensions)
- kramdown with the GFM parser, as Jekyll runs it (Debian: ruby-kramdown ruby-kramdown-parser-gfm)
- Hugo's goldmark, one site per autoHeadingIDType (Debian: hugo)
- github-slugger on mdast's text of each heading, MDX for .mdx, as Astro
  Starlight does (npm: github-slugger mdast-util-from-markdown mdast-util-mdx
  micromark-extension-mdxjs, in NODE_PATH)
- VitePress, one site of every document (npm: vitepress, in the folder ``--npm`` names)

    python scripts/anchor_conformance.py --corpora ../shared/corpora --npm ../npm/x
    python scripts/anchor_conformance.py --corpora ../shared/corpora --npm ../npm/x --only vitepress

``--only GENERATOR`` runs that generator alone and keeps the other generators' IDs
recorded before (the documents must be the same).
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from chunkgate.chunking import cmark, context_for
from chunkgate.chunking.frontmatter import parse_front_matter

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
_IAL = re.compile(r"[ \t]{0,3}\{:.*\}[ \t]*")

# (set name, corpus folder, the generators that publish it); fixtures go to all.
CORPORA = {
    "fastapi-docs": ("mkdocs-fastapi",),
    "httpx-docs": ("mkdocs-httpx",),
    "just-the-docs": ("kramdown",),
    "hugo-docs": ("hugo-github",),
    "starlight-docs": ("slugger",),
    "vite-docs": ("vitepress",),
}
FIXTURE_GENERATORS = (
    "mkdocs-fastapi", "mkdocs-httpx", "mkdocs-unicode", "mkdocs-pymdownx-lower",
    "mkdocs-pymdownx-fold-percent", "kramdown", "hugo-github", "hugo-github-ascii",
    "hugo-blackfriday", "slugger", "vitepress",
)  # fmt: skip


def heading_document(text: str) -> str:
    """The top-level heading lines of a page, in order, a blank line apart."""
    ctx = context_for(text, "x.md")
    lines = ctx.lines
    front = parse_front_matter(lines)
    body = text
    if front:
        body = "\n" * front.lines + text.split("\n", front.lines)[-1]
    blocks = []
    for _, first, last, _, nested in cmark.headings(body, lines):
        if nested:
            continue
        block = lines[first - 1 : last]
        if last < len(lines) and _IAL.fullmatch(lines[last]):
            block.append(lines[last])
        blocks.append("\n".join(line.lstrip(" ") for line in block))
    return "\n\n".join(blocks) + "\n"


def documents(corpora: Path) -> dict[str, list[dict[str, str]]]:
    out: dict[str, list[dict[str, str]]] = {}
    hand = (DATA / "anchors" / "headings.md").read_text(encoding="utf-8")
    spec = json.loads((DATA / "commonmark-spec-examples.json").read_text(encoding="utf-8"))
    fixtures = [{"path": "headings.md", "markdown": hand}]
    # The spec's examples test block structure, which the generators' parsers (not all of
    # them CommonMark) read differently: only their headings are kept, as for the corpora.
    fixtures += [
        {"path": f"spec-{e['example']}.md", "markdown": heading_document(e["markdown"])}
        for e in spec
        if re.search(r"<h[1-6]", e["html"]) and heading_document(e["markdown"]).strip()
    ]
    out["fixtures"] = fixtures
    for name in CORPORA:
        docs = []
        for path in sorted((corpora / name).rglob("*")):
            if path.suffix not in (".md", ".mdx", ".markdown") or not path.is_file():
                continue
            doc = heading_document(path.read_text(encoding="utf-8"))
            if doc.strip():
                docs.append({"path": path.relative_to(corpora / name).as_posix(), "markdown": doc})
        out[name] = docs
    return out


def python_markdown(docs: list[dict[str, str]], generator: str) -> list[list[str]]:
    import markdown
    from pymdownx.slugs import slugify

    extensions = ["toc", "admonition"]
    config: dict[str, dict[str, object]] = {"toc": {}}
    if generator == "mkdocs-fastapi":
        extensions += ["attr_list", "extra"]
    elif generator == "mkdocs-unicode":
        from markdown.extensions.toc import slugify_unicode

        config["toc"]["slugify"] = slugify_unicode
    elif generator == "mkdocs-pymdownx-lower":
        config["toc"]["slugify"] = slugify(case="lower")
    elif generator == "mkdocs-pymdownx-fold-percent":
        config["toc"]["slugify"] = slugify(case="fold", percent_encode=True)
    out = []
    for doc in docs:
        rendered = markdown.markdown(
            doc["markdown"], extensions=extensions, extension_configs=config
        )
        out.append(_ids(rendered))
    return out


def _ids(rendered: str) -> list[str]:
    return [
        html.unescape(m.group(2) or "")
        for m in re.finditer(r"<h([1-6])(?:[^>]*?\sid=\"([^\"]*)\")?[^>]*>", rendered)
    ]


_RUBY = r"""
require 'json'; require 'kramdown'; require 'kramdown-parser-gfm'
docs = JSON.parse(STDIN.read)
puts JSON.generate(docs.map { |d| Kramdown::Document.new(d, input: 'GFM').to_html })
"""


def kramdown(docs: list[dict[str, str]]) -> list[list[str]]:
    sources = json.dumps([d["markdown"] for d in docs])
    done = subprocess.run(
        ["ruby", "-e", _RUBY], input=sources, capture_output=True, text=True, check=True
    )
    return [_ids(rendered) for rendered in json.loads(done.stdout)]


def hugo(docs: list[dict[str, str]], style: str) -> list[list[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp)
        (site / "layouts" / "_default").mkdir(parents=True)
        (site / "layouts" / "_default" / "single.html").write_text("{{ .Content }}")
        (site / "hugo.toml").write_text(
            'baseURL = "http://x/"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap", '
            '"robotsTXT", "404", "home", "section"]\n[markup.goldmark.parser]\n'
            f'autoHeadingIDType = "{style}"\n[markup.goldmark.renderer]\nunsafe = true\n'
        )
        content = site / "content"
        content.mkdir()
        for index, doc in enumerate(docs):
            (content / f"d{index}.md").write_text(
                f"---\ntitle: d{index}\n---\n{doc['markdown']}", encoding="utf-8"
            )
        subprocess.run(["hugo", "--quiet", "-d", "out"], cwd=site, check=True)
        return [
            _ids((site / "out" / f"d{i}" / "index.html").read_text(encoding="utf-8"))
            for i in range(len(docs))
        ]


_NODE = r"""
const fs = require('fs');
const {default: GithubSlugger} = require('github-slugger');
const {fromMarkdown} = require('mdast-util-from-markdown');
const {mdxFromMarkdown} = require('mdast-util-mdx');
const {mdxjs} = require('micromark-extension-mdxjs');
// The heading's text as the rendered element holds it (hast's toString, which Astro's
// rehypeHeadingIds reads): text and code, not raw HTML tags nor an image's alt.
const toString = n => n.type === 'text' || n.type === 'inlineCode' ? n.value
  : n.type === 'html' || n.type === 'image' ? '' : (n.children || []).map(toString).join('');
const docs = JSON.parse(fs.readFileSync(0, 'utf8'));
const out = docs.map(d => {
  let tree;
  try {
    tree = d.path.endsWith('.mdx')
      ? fromMarkdown(d.markdown, {extensions: [mdxjs()], mdastExtensions: [mdxFromMarkdown()]})
      : fromMarkdown(d.markdown);
  } catch (e) { return null; }
  const slugger = new GithubSlugger();
  return tree.children.filter(n => n.type === 'heading').map(n => slugger.slug(toString(n)));
});
process.stdout.write(JSON.stringify(out));
"""


def slugger(docs: list[dict[str, str]]) -> list[list[str] | None]:
    done = subprocess.run(
        ["node", "-e", _NODE],
        input=json.dumps(docs),
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ},
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def vitepress(docs: list[dict[str, str]], npm: Path) -> list[list[str] | None]:
    """One VitePress build of every document as a page; ``npm`` holds its node_modules.
    A page VitePress refuses (a repeated ``{#id}``, a Vue template error) is None, and
    the site is built again without it; an image a heading shows is made (empty)."""
    refused: set[int] = set()
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp)
        (site / "node_modules").symlink_to(npm / "node_modules")
        source = site / "docs"
        (source / ".vitepress").mkdir(parents=True)
        config = "export default { ignoreDeadLinks: true }\n"
        (source / ".vitepress" / "config.mts").write_text(config)
        for index, doc in enumerate(docs):
            (source / f"d{index}.md").write_text(doc["markdown"], encoding="utf-8")
        binary = npm / "node_modules" / ".bin" / "vitepress"
        while True:
            done = subprocess.run(
                [str(binary), "build", "docs"],
                cwd=site,
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode == 0:
                break
            asset = re.search(r'Could not resolve "\./([^"/]+)"', done.stdout + done.stderr)
            if asset is not None:  # an image the heading shows: any file will do
                (source / asset.group(1)).write_bytes(b"")
                continue
            failed = re.search(r"/d(\d+)\.md", done.stdout + done.stderr)
            if failed is None:
                raise SystemExit(done.stdout + done.stderr)
            refused.add(int(failed.group(1)))
            (source / f"d{failed.group(1)}.md").unlink()
        dist = source / ".vitepress" / "dist"
        return [
            None if i in refused else _ids((dist / f"d{i}.html").read_text(encoding="utf-8"))
            for i in range(len(docs))
        ]


def run(generator: str, docs: list[dict[str, str]], npm: Path) -> list[list[str] | None]:
    if generator == "vitepress":
        return list(vitepress(docs, npm))
    if generator.startswith("mkdocs"):
        return list(python_markdown(docs, generator))
    if generator == "kramdown":
        return list(kramdown(docs))
    if generator.startswith("hugo-"):
        return list(hugo(docs, generator.removeprefix("hugo-")))
    return slugger(docs)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpora", type=Path, required=True)
    parser.add_argument("--npm", type=Path, help="a folder whose node_modules has vitepress")
    parser.add_argument("--only", help="one generator; the others' recorded IDs are kept")
    args = parser.parse_args()
    target = DATA / "anchors" / "expected.json"
    sets = documents(args.corpora)
    out: dict[str, dict[str, Any]] = {}
    if args.only:
        out = json.loads(target.read_text(encoding="utf-8"))
    for name, docs in sets.items():
        generators = FIXTURE_GENERATORS if name == "fixtures" else CORPORA[name]
        if args.only:
            if args.only not in generators:
                continue
            recorded = out.setdefault(name, {"documents": docs, "expected": {}})
            if recorded["documents"] != docs:
                raise SystemExit(f"{name}: the documents changed: run every generator")
            recorded["expected"][args.only] = run(args.only, docs, args.npm)
        else:
            out[name] = {
                "documents": docs,
                "expected": {generator: run(generator, docs, args.npm) for generator in generators},
            }
        print(name, len(docs), "documents", file=sys.stderr)
    target.write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
