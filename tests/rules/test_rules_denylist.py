from __future__ import annotations

from pathlib import Path

import pytest
from identify.vendor.licenses import LICENSES

from chunkgate.chunking.anchors import AnchorStyle
from chunkgate.chunking.base import ChunkOptions
from chunkgate.config.model import Config
from chunkgate.rules import denylist
from chunkgate.rules.base import FileContext, Finding
from chunkgate.sites.model import Site

MIT = dict(LICENSES)["MIT"]


def _findings(
    tmp_path: Path,
    path: str,
    *,
    attributes: frozenset[str] = frozenset(),
    patterns: tuple[str, ...] = (),
    text: str = MIT,
) -> list[Finding]:
    config = Config(root=tmp_path, options={"denylist.paths": patterns})
    file = FileContext(path, 5, text, (), config, attributes=attributes)
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
        pytest.param("pkg/NOTICE.txt", "license file NOTICE.txt", "**/NOTICE.txt"),
        pytest.param("debian/copyright", "license file copyright", "**/copyright"),
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
        pytest.param(
            "env/lib/python3.12/site-packages/x/README.md",
            "vendored folder site-packages/",
            "env/lib/python3.12/site-packages/**",
        ),
        # Build output: common names at the root, distinctive ones anywhere.
        pytest.param("dist/index.md", "build output folder dist/", "dist/**"),
        pytest.param("build/html/a.md", "build output folder build/", "build/**"),
        pytest.param("site/index.md", "build output folder site/", "site/**", id="mkdocs"),
        pytest.param("_site/index.md", "build output folder _site/", "_site/**", id="jekyll"),
        pytest.param("public/index.md", "build output folder public/", "public/**", id="hugo"),
        pytest.param("out/a.md", "build output folder out/", "out/**"),
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
    them = "it and every file like it, in any folder," if glob.startswith("**/") else "it"
    assert finding.fix == f'exclude {them} in .chunkgate.yaml: exclude: ["{glob}"]'


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
    them = "it and every file like it, in any folder," if pattern.startswith("**/") else "it"
    assert finding.fix == f'exclude {them} in .chunkgate.yaml: exclude: ["{pattern}"]'


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
        # Page folders named like build output below the root (a Hugo site's methods).
        pytest.param("content/en/methods/site/BaseURL.md", id="hugo-site-methods"),
        pytest.param("docs/build/index.md", id="docs-about-building"),
        pytest.param("src/app/public/README.md", id="public-below-the-root"),
        pytest.param("venv/__init__.py", id="the-venv-package"),
        pytest.param("content/en/methods/site/Copyright.md", id="a-page-named-copyright"),
        pytest.param("pkg/Notice.txt", id="mixed-case-license-word"),
    ],
)
def test_no_op(tmp_path: Path, path: str) -> None:
    assert _findings(tmp_path, path) == []


def test_negated_pattern_does_not_fire(tmp_path: Path) -> None:
    patterns = ("docs/*.md", "!docs/keep.md")
    assert _findings(tmp_path, "docs/keep.md", patterns=patterns) == []
    assert len(_findings(tmp_path, "docs/drop.md", patterns=patterns)) == 1


@pytest.mark.parametrize(
    ("gitignore", "path", "what", "glob"),
    [
        pytest.param(
            ("docs/.gitignore", "site/\n"),
            "docs/site/index.md",
            "build output folder (ignored by .gitignore) site/",
            "docs/site/**",
            id="nested-gitignore",
        ),
        pytest.param(
            (".gitignore", "**/build/\n"),
            "pkg/docs/build/a.md",
            "build output folder (ignored by .gitignore) build/",
            "pkg/docs/build/**",
            id="root-gitignore",
        ),
    ],
)
def test_a_build_folder_below_the_root_fires_where_gitignore_ignores_it(
    tmp_path: Path, gitignore: tuple[str, str], path: str, what: str, glob: str
) -> None:
    # Committed although ignored: the folder is build output that got checked in.
    (tmp_path / gitignore[0]).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / gitignore[0]).write_text(gitignore[1])
    (finding,) = _findings(tmp_path, path)
    assert finding.message == f"denylisted: {what}"
    assert finding.fix == f'exclude it in .chunkgate.yaml: exclude: ["{glob}"]'


def test_a_build_folder_below_the_root_that_gitignore_lets_in_does_not_fire(
    tmp_path: Path,
) -> None:
    (tmp_path / ".gitignore").write_text("site/\n!content/**/site/\n")
    assert _findings(tmp_path, "content/en/methods/site/Pages.md") == []
    assert len(_findings(tmp_path, "docs/site/index.md")) == 1


@pytest.mark.parametrize(
    ("patterns", "path"),
    [
        pytest.param(("!site/**",), "site/index.md", id="a-build-folder"),
        pytest.param(("!**/LICENSE.md",), "docs/LICENSE.md", id="a-license-file"),
        pytest.param(("!vendor/docs/**",), "vendor/docs/guide.md", id="vendored-docs"),
    ],
)
def test_a_negated_pattern_lets_a_path_back_in(
    tmp_path: Path, patterns: tuple[str, ...], path: str
) -> None:
    assert _findings(tmp_path, path) != []
    assert _findings(tmp_path, path, patterns=patterns) == []


def test_a_later_pattern_denylists_again(tmp_path: Path) -> None:
    patterns = ("!vendor/**", "vendor/secret/**")
    assert _findings(tmp_path, "vendor/docs/a.md", patterns=patterns) == []
    (finding,) = _findings(tmp_path, "vendor/secret/a.md", patterns=patterns)
    assert finding.message == "denylisted: vendored folder vendor/"


def test_other_attributes_do_not_fire(tmp_path: Path) -> None:
    assert _findings(tmp_path, "docs/a.md", attributes=frozenset({"linguist-documentation"})) == []


def test_denylist_content_fires_on_the_matching_chunk(tmp_path: Path) -> None:
    import re

    from chunkgate.chunking import chunk_document
    from chunkgate.config.model import Config
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


@pytest.mark.parametrize(
    ("path", "text"),
    [
        pytest.param("LICENSE", "text\n", id="a-license-name-without-a-page-suffix"),
        pytest.param("LICENSE.txt", "text\n", id="txt-is-no-page"),
        pytest.param("docs/license.md", f"# License\n\n{MIT}", id="a-page-holding-the-license"),
        pytest.param(
            "docs/license.md",
            '# License\n\n```\n--8<-- "LICENSE"\n```\n',
            id="a-page-including-the-license-file",
        ),
    ],
)
def test_a_license_name_fires_when_its_text_confirms_a_page(
    tmp_path: Path, path: str, text: str
) -> None:
    (finding,) = _findings(tmp_path, path, text=text)
    assert finding.message == f"denylisted: license file {path.rpartition('/')[2]}"


def test_a_page_named_like_a_license_file_is_judged_by_its_text(tmp_path: Path) -> None:
    # A command reference's page about the `license` command (tldr's pages/common/license.md).
    page = (
        "# license\n\n> Create license files for open-source projects.\n\n"
        "- Create an MIT license:\n\n`license mit`\n"
    )
    assert _findings(tmp_path, "pages/common/license.md", text=page) == []
    assert _findings(tmp_path, "docs/COPYING.rst", text="Copying files\n=============\n") == []


def test_a_vendored_folder_name_in_a_sites_pages_is_a_section(tmp_path: Path) -> None:
    site = Site("docs/", AnchorStyle("mkdocs", "toc"))
    config = Config(root=tmp_path, chunking=ChunkOptions(sites=(site,)))

    def findings(path: str) -> list[Finding]:
        return list(denylist.check(FileContext(path, 5, "text\n", (), config)))

    assert findings("docs/extensions/third-party/fastapi.md") == []
    assert findings("docs/vendor/index.md") == []
    # Outside the pages, and node_modules anywhere, it is vendored code.
    (outside,) = findings("third-party/lib/README.md")
    assert outside.message == "denylisted: vendored folder third-party/"
    (inside,) = findings("docs/node_modules/pkg/README.md")
    assert inside.message == "denylisted: vendored folder node_modules/"
