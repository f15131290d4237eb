from __future__ import annotations

from pathlib import Path

import pytest

from chunkgate.config import Config
from chunkgate.rules import denylist
from chunkgate.rules.base import FileContext, Finding


def _findings(
    tmp_path: Path,
    path: str,
    *,
    attributes: frozenset[str] = frozenset(),
    patterns: tuple[str, ...] = (),
) -> list[Finding]:
    config = Config(root=tmp_path, options={"denylist.paths": patterns})
    file = FileContext(path, 5, "text\n", (), config, attributes=attributes)
    return list(denylist.check(file))


@pytest.mark.parametrize(
    ("path", "what", "glob"),
    [
        # Lockfiles.
        pytest.param("package-lock.json", "lockfile package-lock.json", "**/package-lock.json"),
        pytest.param("web/yarn.lock", "lockfile yarn.lock", "**/yarn.lock"),
        pytest.param("pnpm-lock.yaml", "lockfile pnpm-lock.yaml", "**/pnpm-lock.yaml"),
        pytest.param("Cargo.lock", "lockfile Cargo.lock", "**/Cargo.lock"),
        pytest.param("ruby/Gemfile.lock", "lockfile Gemfile.lock", "**/Gemfile.lock"),
        pytest.param("poetry.lock", "lockfile poetry.lock", "**/poetry.lock"),
        pytest.param("Pipfile.lock", "lockfile Pipfile.lock", "**/Pipfile.lock"),
        pytest.param("composer.lock", "lockfile composer.lock", "**/composer.lock"),
        pytest.param("go.sum", "lockfile go.sum", "**/go.sum"),
        pytest.param("uv.lock", "lockfile uv.lock", "**/uv.lock"),
        pytest.param("bun.lockb", "lockfile bun.lockb", "**/bun.lockb"),
        pytest.param(
            "infra/.terraform.lock.hcl", "lockfile .terraform.lock.hcl", "**/.terraform.lock.hcl"
        ),
        pytest.param(
            "CARGO.LOCK", "lockfile CARGO.LOCK", "**/CARGO.LOCK", id="lockfile-upper-case"
        ),
        pytest.param("requirements.lock", "lockfile requirements.lock", "**/*.lock", id="any-lock"),
        pytest.param("gradle.lockfile", "lockfile gradle.lockfile", "**/*.lockfile"),
        # License files.
        pytest.param("LICENSE", "license file LICENSE", "**/LICENSE"),
        pytest.param("LICENSE.md", "license file LICENSE.md", "**/LICENSE.md"),
        pytest.param("docs/LICENSE-MIT.txt", "license file LICENSE-MIT.txt", "**/LICENSE-MIT.txt"),
        pytest.param(
            "license.rst", "license file license.rst", "**/license.rst", id="license-lower"
        ),
        pytest.param("LICENCE", "license file LICENCE", "**/LICENCE", id="licence-british"),
        pytest.param("COPYING.LESSER", "license file COPYING.LESSER", "**/COPYING.LESSER"),
        pytest.param("pkg/Notice.txt", "license file Notice.txt", "**/Notice.txt"),
        pytest.param("UNLICENSE", "license file UNLICENSE", "**/UNLICENSE"),
        pytest.param("COPYRIGHT.md", "license file COPYRIGHT.md", "**/COPYRIGHT.md"),
        pytest.param(
            "THIRD-PARTY-NOTICES.md",
            "license file THIRD-PARTY-NOTICES.md",
            "**/THIRD-PARTY-NOTICES.md",
        ),
        pytest.param("LICENSES/MIT.txt", "license folder LICENSES/", "LICENSES/**", id="reuse"),
        # Minified files and source maps.
        pytest.param("static/app.min.js", "minified or source-map file app.min.js", "**/*.min.js"),
        pytest.param(
            "static/site.MIN.CSS", "minified or source-map file site.MIN.CSS", "**/*.MIN.CSS"
        ),
        pytest.param(
            "static/jquery-min.js", "minified or source-map file jquery-min.js", "**/*-min.js"
        ),
        pytest.param("docs/data.min.md", "minified or source-map file data.min.md", "**/*.min.md"),
        pytest.param("static/app.js.map", "minified or source-map file app.js.map", "**/*.js.map"),
        # Vendored, build and cache folders, anywhere in the path.
        pytest.param(
            "node_modules/pkg/README.md", "vendored folder node_modules/", "node_modules/**"
        ),
        pytest.param(
            "web/node_modules/pkg/docs/guide.md",
            "vendored folder node_modules/",
            "web/node_modules/**",
            id="nested-node-modules",
        ),
        pytest.param("vendor/lib/README.md", "vendored folder vendor/", "vendor/**"),
        pytest.param(
            "src/Vendor/x.py", "vendored folder Vendor/", "src/Vendor/**", id="vendor-case"
        ),
        pytest.param("third_party/x/README.md", "vendored folder third_party/", "third_party/**"),
        pytest.param(
            "bower_components/x/a.md", "vendored folder bower_components/", "bower_components/**"
        ),
        pytest.param(".venv/lib/site.py", "vendored folder .venv/", ".venv/**"),
        pytest.param("venv/lib/x.py", "vendored folder venv/", "venv/**"),
        pytest.param("dist/index.md", "build output folder dist/", "dist/**"),
        pytest.param("docs/build/html/a.md", "build output folder build/", "docs/build/**"),
        pytest.param(
            "docs/site/index.md", "build output folder site/", "docs/site/**", id="mkdocs"
        ),
        pytest.param("docs/_build/a.md", "build output folder _build/", "docs/_build/**"),
        pytest.param("target/doc/a.md", "build output folder target/", "target/**"),
        pytest.param(".next/a.md", "build output folder .next/", ".next/**"),
        pytest.param(".docusaurus/a.md", "build output folder .docusaurus/", ".docusaurus/**"),
        pytest.param(
            "pkg.egg-info/PKG-INFO.md", "build output folder pkg.egg-info/", "pkg.egg-info/**"
        ),
        pytest.param("src/__pycache__/a.py", "cache folder __pycache__/", "src/__pycache__/**"),
        pytest.param(".tox/py311/a.py", "cache folder .tox/", ".tox/**"),
        pytest.param("coverage/index.md", "cache folder coverage/", "coverage/**"),
        pytest.param("htmlcov/index.md", "cache folder htmlcov/", "htmlcov/**"),
        pytest.param(
            "node_modules/pkg/LICENSE.md",
            "vendored folder node_modules/",
            "node_modules/**",
            id="folder-wins-over-file-name",
        ),
    ],
)
def test_fires(tmp_path: Path, path: str, what: str, glob: str) -> None:
    (finding,) = _findings(tmp_path, path)
    assert (finding.code, finding.line, finding.chunk) == ("CG301", 1, None)
    assert finding.message == f"denylisted: {what}"
    assert finding.fix == f'exclude it in .chunkgate.yaml: exclude: ["{glob}"]'


@pytest.mark.parametrize(
    ("attribute", "what"),
    [
        pytest.param("linguist-generated", "marked linguist-generated in .gitattributes"),
        pytest.param("linguist-vendored", "marked linguist-vendored in .gitattributes"),
    ],
)
def test_gitattributes(tmp_path: Path, attribute: str, what: str) -> None:
    (finding,) = _findings(tmp_path, "docs/api.md", attributes=frozenset({attribute}))
    assert finding.message == f"denylisted: {what}"
    assert finding.fix == 'exclude it in .chunkgate.yaml: exclude: ["docs/api.md"]'


@pytest.mark.parametrize(
    ("patterns", "path", "pattern"),
    [
        pytest.param(("docs/drafts/",), "docs/drafts/a.md", "docs/drafts/", id="folder"),
        pytest.param(("*.tmp.md", "CHANGELOG.md"), "CHANGELOG.md", "CHANGELOG.md", id="second"),
        pytest.param(("**/secret*",), "docs/x/secret-plan.md", "**/secret*", id="glob"),
        pytest.param(
            ("docs/*.md", "!docs/keep.md", "docs/keep.md"),
            "docs/keep.md",
            "docs/keep.md",
            id="last-match-wins",
        ),
    ],
)
def test_denylist_paths(tmp_path: Path, patterns: tuple[str, ...], path: str, pattern: str) -> None:
    (finding,) = _findings(tmp_path, path, patterns=patterns)
    assert finding.message == f"denylisted: matches denylist.paths pattern '{pattern}'"
    assert finding.fix == f'exclude it in .chunkgate.yaml: exclude: ["{pattern}"]'


@pytest.mark.parametrize(
    "path",
    [
        pytest.param("README.md"),
        pytest.param("docs/index.md"),
        pytest.param("docs/licensing.md", id="about-licensing"),
        pytest.param("docs/license_policy/faq.md", id="license-word-in-a-folder"),
        pytest.param("docs/admin.md", id="admin-is-not-min"),
        pytest.param("src/pkg/build_steps.py", id="build-in-a-file-name"),
        pytest.param("docs/building.md"),
        pytest.param("docs/site-map.md"),
        pytest.param("docs/vendoring.md"),
        pytest.param("docs/locking.md"),
        pytest.param("docs/clock.md", id="lock-inside-a-word"),
        pytest.param("docs/notices-and-alerts.md", id="notices"),
        pytest.param("src/distance.py", id="dist-prefix"),
        pytest.param("site.md", id="site-as-a-file"),
    ],
)
def test_no_op(tmp_path: Path, path: str) -> None:
    assert _findings(tmp_path, path) == []


def test_negated_pattern_does_not_fire(tmp_path: Path) -> None:
    patterns = ("docs/*.md", "!docs/keep.md")
    assert _findings(tmp_path, "docs/keep.md", patterns=patterns) == []
    assert len(_findings(tmp_path, "docs/drop.md", patterns=patterns)) == 1


def test_other_attributes_do_not_fire(tmp_path: Path) -> None:
    assert _findings(tmp_path, "docs/a.md", attributes=frozenset({"linguist-documentation"})) == []


def test_denylist_content_fires_on_the_matching_chunk(tmp_path: Path) -> None:
    import re

    from chunkgate.chunking import chunk_document
    from chunkgate.config import Config
    from chunkgate.rules import FileContext
    from chunkgate.rules.denylist import check

    text = "# Public\n\nAll good.\n\n# Secret\n\nThis is INTERNAL use only.\n"
    chunks = chunk_document(text, "docs/a.md").chunks
    config = Config(
        root=tmp_path, options={"denylist.content": (re.compile(r"(?i)internal use only"),)}
    )
    findings = list(check(FileContext("docs/a.md", len(text), text, chunks, config)))
    assert [(f.code, f.line, f.chunk.identity if f.chunk else None) for f in findings] == [
        ("CG301", 7, "secret")
    ]
    plain = Config(root=tmp_path)
    assert list(check(FileContext("docs/a.md", len(text), text, chunks, plain))) == []
