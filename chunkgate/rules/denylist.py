"""Paths that should never be embedded, whatever their content.

## CG301 denylisted-path

Fires, once per file at line 1, when a corpus file's path is on the
denylist. The built-in list (names compared in any case):

- lockfiles: `package-lock.json`, `npm-shrinkwrap.json`, `yarn.lock`,
  `pnpm-lock.yaml`, `bun.lock(b)`, `deno.lock`, `Cargo.lock`, `Gemfile.lock`,
  `poetry.lock`, `Pipfile.lock`, `pdm.lock`, `uv.lock`, `pixi.lock`,
  `composer.lock`, `go.sum`, `Gopkg.lock`, `glide.lock`, `mix.lock`,
  `pubspec.lock`, `Podfile.lock`, `Package.resolved`, `flake.lock`,
  `.terraform.lock.hcl`, `packages.lock.json`, Yarn's `.pnp.cjs`, and any
  `*.lock`, `*.lockb` or `*.lockfile`;
- license files: `LICENSE`, `LICENCE`, `COPYING`, `NOTICE`, `UNLICENSE`,
  `COPYRIGHT` and `THIRD-PARTY-NOTICES`, in capitals or lower case, with any
  suffix or extension (`LICENSE.txt`, `docs/LICENSE-MIT.txt`,
  `COPYING.LESSER`; not `Copyright.md`, a page name), and everything in a
  `LICENSES/` folder (the REUSE layout). A page's name (`.md`, `.mdx`,
  `.rst`, `.adoc`, `.html`: `LICENSE.md`, `license.rst`) is confirmed by its
  text: the page is a license text (as CG302 tells one) or includes a license
  file; the page about a `license` command is not one;
- minified files and source maps: `*.min.js`, `*.min.css`, any `*.min.*` or
  `*-min.*`, `*.js.map`, `*.css.map`;
- vendored folders, anywhere in the path: `node_modules/`, `vendor/`,
  `vendors/`, `third_party/`, `third-party/`, `3rdparty/`,
  `bower_components/`, `jspm_packages/`, `.venv/`, `site-packages/`, `Pods/`,
  `Godeps/`, `.yarn/`; in the pages folder of a site generator
  (`docs/` of `mkdocs.yml`), `vendor/` and `third-party/` are sections of
  pages (`docs/extensions/third-party/`), not vendored code;
- build output folders with names no page folder has, anywhere: `_build/`
  (Sphinx), `.next/`, `.nuxt/`, `.docusaurus/`, `.svelte-kit/`,
  `*.egg-info/`, `__generated__/`;
- build output folders with common names, `site/` (MkDocs), `build/`,
  `dist/`, `out/`, `public/` (Hugo), `_site/` (Jekyll) and `target/`: at the
  repository root, and deeper only where a `.gitignore` ignores the folder
  (committed anyway): `content/en/methods/site/` in a Hugo site is pages;
- caches and reports, anywhere: `__pycache__/`, `.tox/`, `.nox/`,
  `.mypy_cache/`, `.pytest_cache/`, `.ruff_cache/`, `.cache/`, `coverage/`,
  `htmlcov/`;
- paths marked `linguist-generated` or `linguist-vendored` in
  `.gitattributes`;
- the gitignore-style patterns of `denylist.paths` in `.chunkgate.yaml`; as
  in `.gitignore` the last matching pattern decides, and a `!pattern` lets a
  path back in, also one the built-in list names
  (`denylist: {paths: ["!docs/build/**"]}`).

It also fires on each chunk whose text matches one of the regular
expressions of `denylist.content` (for example `(?i)internal use only`), at
the line of the match, naming the pattern; an inline
`chunkgate: disable=CG301` on that chunk allows it. A pattern may search
one file for at most 2 seconds (where the platform has `SIGALRM`): one that
backtracks, like `(a+)+$`, stops the run with an error naming it and the file.

**Why it matters:** lockfiles, license texts, build output and vendored code
are not your documentation. Embedded, they fill the index with near-duplicate
noise that outranks real answers (a question about "dependencies" retrieves
`package-lock.json`).

**Fix:** exclude the path in `.chunkgate.yaml`, with the glob the message
suggests, e.g. `exclude: ["docs/site/**"]`.

Fires:

```text
site/index.md
node_modules/pkg/README.md
LICENSE
```

Passes:

```text
docs/index.md
docs/licensing.md
content/en/methods/site/BaseURL.md
src/pkg/build_steps.py
```
"""

from __future__ import annotations

import contextlib
import functools
import re
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pathspec

from chunkgate.core.errors import ConfigError
from chunkgate.core.regex import lazy
from chunkgate.rules.base import (
    FileContext,
    Finding,
    Option,
    Rule,
    exclude_hint,
    literal_glob,
    literal_name,
)
from chunkgate.rules.license import is_license_file

PATHS: Option[tuple[str, ...]] = Option(
    "denylist.paths", "globs", (), "gitignore-style path patterns added to the built-in denylist"
)
CONTENT: Option[tuple[re.Pattern[str], ...]] = Option(
    "denylist.content",
    "regexes",
    (),
    "Python regexes searched in file contents (inline flags such as (?i) or (?m) where needed)",
)
RULES = (
    Rule(
        "CG301",
        "denylisted-path",
        "error",
        "a corpus file matches the denylist (lockfiles, licenses, vendored, build output)",
        priority=20,
        never_embed=True,
        options=(PATHS, CONTENT),
        version=2,  # issue 15: what real repositories hold
    ),
)
CODE = RULES[0].code

# Compared lower-cased: checkouts on case-insensitive file systems keep
# whatever case the author typed.
_LOCKFILES = frozenset(
    name.lower()
    for name in (
        "package-lock.json",
        "npm-shrinkwrap.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "bun.lock",
        "bun.lockb",
        "deno.lock",
        "Cargo.lock",
        "Gemfile.lock",
        "gems.locked",
        "poetry.lock",
        "Pipfile.lock",
        "pdm.lock",
        "uv.lock",
        "pixi.lock",
        "composer.lock",
        "go.sum",
        "go.work.sum",
        "Gopkg.lock",
        "glide.lock",
        "mix.lock",
        "pubspec.lock",
        "Podfile.lock",
        "Package.resolved",
        "Cartfile.resolved",
        "flake.lock",
        ".terraform.lock.hcl",
        "packages.lock.json",
        "paket.lock",
        "shard.lock",
        "conan.lock",
        "MODULE.bazel.lock",
        ".pnp.cjs",
        ".pnp.js",
        ".pnp.loader.mjs",
    )
)
# Every other package manager that writes "<name>.lock" (rye, cabal, esy, ...).
_LOCK_SUFFIXES = (".lock", ".lockb", ".lockfile")

_MINIFIED = lazy(r".+?(?P<tail>[.-]min\.[a-z0-9]+|\.(?:js|mjs|cjs|css)\.map)", re.IGNORECASE)

_VENDORED = "vendored folder"
# Vendored folders' names that a site's section about such things may have too.
_SECTION_NAMES = frozenset(
    ("vendor", "vendors", "third_party", "third-party", "thirdparty", "3rdparty", "3rd_party")
)
_BUILD = "build output folder"
_CACHE = "cache folder"
_FOLDERS: dict[str, str] = {
    **dict.fromkeys(
        (
            "node_modules",
            "vendor",
            "vendors",
            "third_party",
            "third-party",
            "thirdparty",
            "3rdparty",
            "3rd_party",
            "bower_components",
            "jspm_packages",
            # A virtualenv's code is in site-packages; "venv" is also a package
            # name (the standard library's own), so it is not listed.
            ".venv",
            "site-packages",
            "pods",
            "godeps",
            ".yarn",
        ),
        _VENDORED,
    ),
    **dict.fromkeys(
        (
            "_build",
            ".next",
            ".nuxt",
            ".docusaurus",
            ".svelte-kit",
            "__generated__",
        ),
        _BUILD,
    ),
    **dict.fromkeys(
        (
            "__pycache__",
            ".tox",
            ".nox",
            ".mypy_cache",
            ".pytest_cache",
            ".ruff_cache",
            ".cache",
            "coverage",
            "htmlcov",
        ),
        _CACHE,
    ),
    "licenses": "license folder",
}
# Where generators write their output by default, and also words that page folders
# are named (a Hugo site documents its `site` methods in content/en/methods/site/).
_ROOT_BUILD = frozenset(("site", "build", "dist", "out", "public", "_site", "target"))
_ATTRIBUTES = ("linguist-generated", "linguist-vendored")


def is_build_folder(name: str) -> bool:
    """Whether a folder's name is one build output has (``_build``, ``dist``, ``site``),
    wherever it is: for telling a build copy from its source (CG501)."""
    lowered = name.lower()
    return (
        _FOLDERS.get(lowered) == _BUILD or lowered.endswith(".egg-info") or lowered in _ROOT_BUILD
    )


def check(file: FileContext) -> Iterator[Finding]:
    pages = tuple(site.folder for site in file.config.chunking.sites if site.folder)
    matched = denylisted(
        file.path,
        file.attributes,
        file.config.option(PATHS),
        root=file.config.root,
        text=file.text,
        pages=pages,
    )
    if matched is not None:
        what, glob = matched
        # "**/LICENSE.md": the hint is meant for every such file, and says so.
        them = "it and every file like it, in any folder," if glob.startswith("**/") else "it"
        fix = f"exclude {them} in .chunkgate.yaml: {exclude_hint(glob)}"
        yield Finding(CODE, 1, f"denylisted: {what}", fix)
        return
    for pattern in file.config.option(CONTENT):
        with _budget(pattern, file.path):
            found_in = [(chunk, pattern.search(chunk.text)) for chunk in file.chunks]
        for chunk, found in found_in:
            if found is None:
                continue
            line = chunk.start_line + chunk.text.count("\n", 0, found.start())
            yield Finding(
                CODE,
                line,
                f"text matches denylist.content pattern '{pattern.pattern}'",
                "remove that text from the corpus, or mark the chunk with "
                "`chunkgate: disable=CG301` if it may be embedded",
                chunk=chunk,
            )


# The regex engine checks for signals as it backtracks, so an alarm stops a
# user's pattern that would run for hours. (Our own patterns are linear:
# tests/test_adversarial_patterns.py.)
CONTENT_SECONDS = 2.0


class _OverBudget(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _OverBudget


@contextlib.contextmanager
def _budget(pattern: re.Pattern[str], path: str) -> Iterator[None]:
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, CONTENT_SECONDS)
    try:
        yield
    except _OverBudget:
        raise ConfigError(
            f"denylist.content pattern '{pattern.pattern}' searched {path} for over "
            f"{CONTENT_SECONDS:g} s: it backtracks (a nested quantifier such as (a+)+); "
            "rewrite it in .chunkgate.yaml"
        ) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def denylisted(
    path: str,
    attributes: frozenset[str],
    patterns: tuple[str, ...] = (),
    *,
    root: Path | None = None,
    text: str | None = None,
    pages: tuple[str, ...] = (),
) -> tuple[str, str] | None:
    """What puts ``path`` on the denylist, and a glob that excludes it; None if nothing.

    ``root`` is the repository's folder, whose ``.gitignore`` files say whether a
    build folder below the root is ignored; ``text`` is the file's, which confirms
    that a page named like a license file (``license.md``) holds one; ``pages`` are the
    folders a site generator publishes (``docs/``), where ``third-party/`` is a section.
    """
    verdict = _user_verdict(patterns, path) if patterns else None
    if verdict is False:
        return None  # a `!pattern` lets it back in
    found = _built_in(path, attributes, root, text, pages)
    if found is not None:
        return found
    if verdict:
        pattern = _matching_pattern(patterns, path)
        return f"matches denylist.paths pattern '{pattern}'", pattern
    return None


def _gitignored(root: Path, folder: str) -> bool:
    from chunkgate.corpus.select import gitignored  # only for a build folder's name below the root

    return gitignored(root, folder, is_dir=True)


def _built_in(
    path: str,
    attributes: frozenset[str],
    root: Path | None,
    text: str | None,
    pages: tuple[str, ...],
) -> tuple[str, str] | None:
    parts = path.split("/")
    published = any(path.startswith(folder) for folder in pages)
    for index, folder in enumerate(parts[:-1]):
        lowered = folder.lower()
        category = _FOLDERS.get(lowered)
        if category is not None and published and lowered in _SECTION_NAMES:
            category = None  # docs/extensions/third-party/: the pages about them
        if category is None and lowered.endswith(".egg-info"):
            category = _BUILD
        if category is None and lowered in _ROOT_BUILD:
            where = "/".join(parts[: index + 1])
            if index == 0 or (root is not None and _gitignored(root, where)):
                category = _BUILD if index == 0 else f"{_BUILD} (ignored by .gitignore)"
        if category is not None:
            return f"{category} {folder}/", literal_name("/".join(parts[: index + 1])) + "/**"
    for attribute in _ATTRIBUTES:
        if attribute in attributes:
            return f"marked {attribute} in .gitattributes", literal_glob(path)
    name = parts[-1]
    lowered = name.lower()
    if lowered in _LOCKFILES:
        return f"lockfile {name}", f"**/{literal_name(name)}"
    if lowered.endswith(_LOCK_SUFFIXES):
        suffix = lowered[lowered.rindex(".") :]
        return f"lockfile {name}", f"**/*{suffix}"
    if is_license_file(name, text):
        return f"license file {name}", f"**/{literal_name(name)}"
    minified = _MINIFIED.fullmatch(name)
    if minified:
        return f"minified or source-map file {name}", f"**/*{minified['tail']}"
    return None


def _user_verdict(patterns: tuple[str, ...], path: str) -> bool | None:
    """As in .gitignore, the last pattern that matches decides: True for a pattern,
    False for a ``!pattern``; None when none matches."""
    if not _user_spec(tuple(p[1:] if p.startswith("!") else p for p in patterns)).match_file(path):
        return None
    for pattern in reversed(patterns):
        negated = pattern.startswith("!")
        if _user_spec((pattern[1:] if negated else pattern,)).match_file(path):
            return not negated
    return None  # pragma: no cover - the combined spec matched, so one pattern does


@functools.lru_cache(maxsize=16)
def _user_spec(patterns: tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    import pathspec  # only with denylist.paths configured

    return pathspec.GitIgnoreSpec.from_lines(patterns)


def _matching_pattern(patterns: tuple[str, ...], path: str) -> str:
    # As in .gitignore, the last matching pattern decides.
    for pattern in reversed(patterns):
        if not pattern.startswith("!") and _user_spec((pattern,)).match_file(path):
            return pattern
    return patterns[-1]  # pragma: no cover - the combined spec matched, so one pattern does
