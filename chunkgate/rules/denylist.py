"""Paths that should never be embedded, whatever their content.

## CG301 denylisted-path

Fires, once per file at line 1, when a corpus file's path is on the
denylist. The built-in list (names compared in any case, folders anywhere in
the path):

- lockfiles: `package-lock.json`, `npm-shrinkwrap.json`, `yarn.lock`,
  `pnpm-lock.yaml`, `bun.lock(b)`, `deno.lock`, `Cargo.lock`, `Gemfile.lock`,
  `poetry.lock`, `Pipfile.lock`, `pdm.lock`, `uv.lock`, `pixi.lock`,
  `composer.lock`, `go.sum`, `Gopkg.lock`, `glide.lock`, `mix.lock`,
  `pubspec.lock`, `Podfile.lock`, `Package.resolved`, `flake.lock`,
  `.terraform.lock.hcl`, `packages.lock.json`, Yarn's `.pnp.cjs`, and any
  `*.lock`, `*.lockb` or `*.lockfile`;
- license files: `LICENSE`, `LICENCE`, `COPYING`, `NOTICE`, `UNLICENSE`,
  `COPYRIGHT` and `THIRD-PARTY-NOTICES`, with any suffix or extension
  (`LICENSE.md`, `docs/LICENSE-MIT.txt`, `COPYING.LESSER`), and everything in
  a `LICENSES/` folder (the REUSE layout);
- minified files and source maps: `*.min.js`, `*.min.css`, any `*.min.*` or
  `*-min.*`, `*.js.map`, `*.css.map`;
- vendored folders: `node_modules/`, `vendor/`, `vendors/`, `third_party/`,
  `third-party/`, `3rdparty/`, `bower_components/`, `jspm_packages/`,
  `.venv/`, `venv/`, `site-packages/`, `Pods/`, `Godeps/`, `.yarn/`;
- build output: `dist/`, `build/`, `_build/`, `site/` (MkDocs), `_site/`
  (Jekyll), `target/`, `.next/`, `.nuxt/`, `.docusaurus/`, `.svelte-kit/`,
  `*.egg-info/`, `__generated__/`;
- caches and reports: `__pycache__/`, `.tox/`, `.nox/`, `.mypy_cache/`,
  `.pytest_cache/`, `.ruff_cache/`, `.cache/`, `coverage/`, `htmlcov/`;
- paths marked `linguist-generated` or `linguist-vendored` in
  `.gitattributes`;
- the gitignore-style patterns of `denylist.paths` in `.chunkgate.yaml`.

It also fires on each chunk whose text matches one of the regular
expressions of `denylist.content` (for example `(?i)internal use only`), at
the line of the match, naming the pattern; an inline
`chunkgate: disable=CG301` on that chunk allows it.

**Why it matters:** lockfiles, license texts, build output and vendored code
are not your documentation. Embedded, they fill the index with near-duplicate
noise that outranks real answers (a question about "dependencies" retrieves
`package-lock.json`).

**Fix:** exclude the path in `.chunkgate.yaml`, with the glob the message
suggests, e.g. `exclude: ["docs/site/**"]`.

Fires:

```text
docs/site/index.md
node_modules/pkg/README.md
LICENSE.md
```

Passes:

```text
docs/index.md
docs/licensing.md
src/pkg/build_steps.py
```
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pathspec

from chunkgate.rules.base import FileContext, Finding, Option, Rule

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

# A license word, then nothing or a separator and anything: LICENSE,
# LICENSE.md, LICENSE-MIT.txt, COPYING.LESSER; not "licensing.md".
_LICENSE = re.compile(
    r"(?:(?:un)?licen[cs]es?|copying|copyright|notice|third[-_]?party[-_]?notices?)"
    r"(?:[-_.].*)?",
    re.IGNORECASE,
)
_MINIFIED = re.compile(r".+?(?P<tail>[.-]min\.[a-z0-9]+|\.(?:js|mjs|cjs|css)\.map)", re.IGNORECASE)

_VENDORED = "vendored folder"
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
            ".venv",
            "venv",
            "site-packages",
            "pods",
            "godeps",
            ".yarn",
        ),
        _VENDORED,
    ),
    **dict.fromkeys(
        (
            "dist",
            "build",
            "_build",
            "site",
            "_site",
            "target",
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
_ATTRIBUTES = ("linguist-generated", "linguist-vendored")


def check(file: FileContext) -> Iterator[Finding]:
    matched = denylisted(file.path, file.attributes, file.config.option(PATHS))
    if matched is not None:
        what, glob = matched
        fix = f'exclude it in .chunkgate.yaml: exclude: ["{glob}"]'
        yield Finding(CODE, 1, f"denylisted: {what}", fix)
        return
    for pattern in file.config.option(CONTENT):
        for chunk in file.chunks:
            found = pattern.search(chunk.text)
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


def denylisted(
    path: str, attributes: frozenset[str], patterns: tuple[str, ...] = ()
) -> tuple[str, str] | None:
    """What puts ``path`` on the denylist, and a glob that excludes it; None if nothing."""
    parts = path.split("/")
    for index, folder in enumerate(parts[:-1]):
        lowered = folder.lower()
        category = _FOLDERS.get(lowered)
        if category is None and lowered.endswith(".egg-info"):
            category = _BUILD
        if category is not None:
            return f"{category} {folder}/", "/".join(parts[: index + 1]) + "/**"
    for attribute in _ATTRIBUTES:
        if attribute in attributes:
            return f"marked {attribute} in .gitattributes", path
    name = parts[-1]
    lowered = name.lower()
    if lowered in _LOCKFILES:
        return f"lockfile {name}", f"**/{name}"
    if lowered.endswith(_LOCK_SUFFIXES):
        suffix = lowered[lowered.rindex(".") :]
        return f"lockfile {name}", f"**/*{suffix}"
    if _LICENSE.fullmatch(name):
        return f"license file {name}", f"**/{name}"
    minified = _MINIFIED.fullmatch(name)
    if minified:
        return f"minified or source-map file {name}", f"**/*{minified['tail']}"
    if patterns and _user_spec(patterns).match_file(path):
        pattern = _matching_pattern(patterns, path)
        return f"matches denylist.paths pattern '{pattern}'", pattern
    return None


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
