"""Small sites built by their real generators, and chunkgate held to what they built.

Each ``build_*`` runs one generator on a site folder and returns the built site
(``chunkgate.sites.built``) with every source page's URL as the generator itself
reports it (an MkDocs hook, ``hugo list all``, a Jekyll hook, Sphinx's builder,
VitePress's ``transformHtml``). ``install-generators`` (beside the tests of
``tests/sites``) installs the ones pip does not.

``differences`` compares chunkgate's view of the repository with the built site:
each Markdown chunk's anchor must be an id on its page, and each link with a
fragment must be a CG404 exactly when the site lacks what it names.
"""

from __future__ import annotations

import csv
import io
import json
import os
import posixpath
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple
from urllib.parse import unquote, urlsplit

from chunkgate import corpus_chunks, load_config
from chunkgate.gate import run_check
from chunkgate.sites.built import BuiltSite, read_site

NODE_MODULES = Path(__file__).parent / "sites" / "node_modules"
_MARKDOWN = (".md", ".markdown", ".mdx")


class Unresolved(NamedTuple):
    """The references a Sphinx build could not resolve: (source, line, warning) each, the
    line being the first of the paragraph that holds the reference."""

    warnings: frozenset[tuple[str, int, str]]

    def lost(self, source: str, text: str, line: int, fragment: str) -> bool:
        """Whether the reference to ``fragment`` on ``line`` of ``source`` is one of them."""
        first = paragraph_start(text, line)
        return any(
            path == source and at in (line, first) and f"'{fragment}'" in warning
            for path, at, warning in self.warnings
        )


def paragraph_start(text: str, line: int) -> int:
    """The first line of the paragraph that holds ``line`` (1-based)."""
    lines = text.splitlines()
    while line > 1 and lines[line - 2].strip():
        line -= 1
    return line


class Built(NamedTuple):
    site: BuiltSite
    urls: dict[str, str]  # repository-relative source path -> URL path
    # A generator that resolves references itself (Sphinx: a MyST `#label` names a target
    # on any page) says which it could not; None for the others.
    unresolved: Unresolved | None = None


def _run(command: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        command, cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done


MKDOCS_HOOK = """\
import json, os
def on_files(files, config):
    pages = {f.src_uri: "/" + f.url.removeprefix("./") for f in files if f.is_documentation_page()}
    with open(os.environ["TRUTH_URLS"], "w") as out:
        json.dump(pages, out)
"""


def build_mkdocs(root: Path, out: Path, docs: str = "docs") -> Built:
    """``root/mkdocs.yml`` built by MkDocs (its hooks: a file this adds beside it)."""
    hook = out.parent / "truth_hook.py"
    hook.write_text(MKDOCS_HOOK)
    config = out.parent / "mkdocs.yml"
    config.write_text(f"INHERIT: {root / 'mkdocs.yml'}\ndocs_dir: {root / docs}\nhooks: [{hook}]\n")
    urls = out.parent / "urls.json"
    _run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(out)],
        root,
        TRUTH_URLS=str(urls),
        NO_MKDOCS_2_WARNING="1",
    )
    pages = json.loads(urls.read_text())
    return Built(read_site(out), {f"{docs}/{src}": url for src, url in pages.items()})


def build_hugo(root: Path, out: Path) -> Built:
    """A Hugo site with ``baseURL = "/"``; pages listed by ``hugo list all``."""
    _run(["hugo", "--quiet", "-d", str(out)], root)
    listing = _run(["hugo", "list", "all"], root).stdout
    urls = {
        row["path"]: urlsplit(row["permalink"]).path for row in csv.DictReader(io.StringIO(listing))
    }
    return Built(read_site(out), urls)


JEKYLL_HOOK = """\
require "json"
Jekyll::Hooks.register :site, :post_write do |site|
  urls = {}
  (site.pages + site.documents).each { |doc| urls[doc.relative_path] = doc.url }
  File.write(ENV.fetch("TRUTH_URLS"), JSON.generate(urls))
end
"""


def build_jekyll(root: Path, out: Path) -> Built:
    """A Jekyll site; its pages' URLs from a ``post_write`` hook in ``_plugins``."""
    (root / "_plugins").mkdir(exist_ok=True)
    (root / "_plugins" / "truth_urls.rb").write_text(JEKYLL_HOOK)
    urls = out.parent / "urls.json"
    _run(["jekyll", "build", "-q", "-d", str(out)], root, TRUTH_URLS=str(urls))
    (root / "_plugins" / "truth_urls.rb").unlink()
    return Built(read_site(out), json.loads(urls.read_text()))


# Arguments: the source folder, the output folder, the URLs file, configuration overrides.
SPHINX_SCRIPT = """\
import json, sys
from sphinx.application import Sphinx
src, out, urls = sys.argv[1:4]
overrides = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
app = Sphinx(src, src, out, out + "/.doctrees", "html", confoverrides=overrides,
             status=None, warning=sys.stderr, freshenv=True)
app.build()
json.dump({str(app.env.doc2path(d, False)): "/" + app.builder.get_target_uri(d)
           for d in app.env.found_docs}, open(urls, "w"))
"""


def build_sphinx(root: Path, out: Path, folder: str = "docs") -> Built:
    """The Sphinx project in ``root/folder`` (its ``conf.py``), built as HTML."""
    urls = out.parent / "urls.json"
    done = _run(
        [sys.executable, "-c", SPHINX_SCRIPT, str(root / folder), str(out), str(urls)], root
    )
    pages = json.loads(urls.read_text())
    return Built(
        read_site(out),
        {f"{folder}/{src}": url for src, url in pages.items()},
        unresolved_references(done.stderr, root),
    )


# A reference Sphinx could not resolve, as its warning names it (colours and all).
_XREF_MISSING = re.compile(
    r"^(?:\x1b\[[\d;]*m)?(/\S+?):(\d+): WARNING: (.*\[myst\.xref_missing\])", re.M
)


def unresolved_references(warnings: str, root: Path) -> Unresolved:
    """The references a Sphinx build under ``root`` reported it could not resolve."""
    return Unresolved(
        frozenset(
            (Path(path).relative_to(root).as_posix(), int(line), warning)
            for path, line, warning in _XREF_MISSING.findall(warnings)
            if Path(path).is_relative_to(root)
        )
    )


VITEPRESS_HOOKS = """\
import { writeFileSync } from 'node:fs'
const pages = {}
export const truth = {
  transformHtml(code, id, ctx) { pages[ctx.page] = id },
  buildEnd(site) {
    const out = {}
    for (const [page, id] of Object.entries(pages)) out[page] = id.slice(site.outDir.length + 1)
    writeFileSync(process.env.TRUTH_URLS, JSON.stringify(out))
  },
}
"""


def build_vitepress(root: Path, out: Path, folder: str = "docs") -> Built:
    """The VitePress site in ``root/folder``, whose ``.vitepress/config.mts`` spreads
    ``truth`` (written beside it) into its config; pages' URLs from ``transformHtml``."""
    (root / folder / ".vitepress" / "truth.mjs").write_text(VITEPRESS_HOOKS)
    (root / "node_modules").symlink_to(NODE_MODULES)
    urls = out.parent / "urls.json"
    vitepress = str(NODE_MODULES / "vitepress" / "bin" / "vitepress.js")
    try:
        _run(["node", vitepress, "build", folder, "--outDir", str(out)], root, TRUTH_URLS=str(urls))
    finally:
        (root / "node_modules").unlink()
        (root / folder / ".vitepress" / "truth.mjs").unlink()
    clean = "cleanUrls: true" in (root / folder / ".vitepress" / "config.mts").read_text()
    pages = {}
    for src, html in json.loads(urls.read_text()).items():
        if not (root / folder / src).is_file():
            continue  # the 404 page VitePress makes
        url = "/" + html
        url = url.removesuffix("index.html") if url.endswith("/index.html") else url
        pages[f"{folder}/{src}"] = url.removesuffix(".html") if clean else url
    return Built(read_site(out), pages)


_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)|^[ \t]*\[[^\]]+\]:[ \t]*<?([^\s>]+)")


def _links(text: str) -> dict[str, list[int]]:
    """The fixtures' link destinations and their lines (no code blocks hold links)."""
    found: dict[str, list[int]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        for match in _LINK.finditer(line):
            found.setdefault(match.group(1) or match.group(2), []).append(number)
    return found


def _broken(
    built: Built, root: Path, source: str, destination: str, lines: list[int]
) -> bool | None:
    """Whether the built site lacks what ``destination`` (in ``source``) names; a link to
    a Markdown file lands on that file's page, as every generator here rewrites it."""
    path, _, fragment = destination.partition("#")
    file = unquote(path)
    if built.unresolved is not None and (not file or file.lower().endswith(_MARKDOWN)):
        text = (root / source).read_text(encoding="utf-8")
        return any(built.unresolved.lost(source, text, line, fragment) for line in lines)
    if file.lower().endswith(_MARKDOWN):
        target = posixpath.normpath(posixpath.join(posixpath.dirname(source), file))
        if target not in built.urls:
            return True
        destination = f"{built.urls[target]}#{fragment}"
    lands = built.site.lands(built.urls[source], destination)
    return None if lands is None else not lands


def differences(repo: Path, built: Built) -> list[str]:
    """Where chunkgate and the built site disagree; [] when they agree."""
    config = load_config(repo)
    found = []
    for chunk in corpus_chunks(config):
        url = built.urls.get(chunk.path)
        if url is None or chunk.part > 1 or chunk.identity.startswith("~"):
            continue
        ids = built.site.page(url)
        if ids is None or chunk.identity not in ids:
            found.append(f"anchor {chunk.id}: not an id of {url} ({sorted(ids or ())})")
    flagged = {
        (v.path, m.group(1))
        for v in run_check(config).violations
        if v.rule == "CG404" and (m := re.match(r"link (\S+): ", v.message))
    }
    for source in sorted(built.urls):
        links = _links((repo / source).read_text(encoding="utf-8"))
        for destination, lines in sorted(links.items()):
            if "#" not in destination or "://" in destination:
                continue
            broken = _broken(built, repo, source, destination, lines)
            said = (source, destination) in flagged
            if broken is not None and broken != said:
                verdict = "broken" if broken else "fine"
                found.append(f"{source}: {destination} is {verdict} in the site, CG404 {said}")
    return found
