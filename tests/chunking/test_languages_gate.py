"""Code and reStructuredText through the gate: rules, notes, moves (issue 22)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import commit_all, git_env, manifest_text, write
from helpers import invoke as run

CONFIG = 'include: ["**/*.md", "**/*.go", "**/*.rs", "**/*.rst"]\n'

APACHE_HEADER = """\
// Copyright 2013-2023 The Cobra Authors
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//      http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package cobra
"""

GO = """\
// Serve answers every request on the listener until it is closed.
func (s *Server) Serve(listener net.Listener) error {
\tfor {
\t\tconn, err := listener.Accept()
\t\tif err != nil {
\t\t\treturn err
\t\t}
\t\tgo s.handle(conn)
\t}
}
"""

RST = """\
Guide
=====

Text that is long enough to pass the minimum chunk size without trouble.

Setup
-----

Install the package, then write the configuration file next to it.
"""


@pytest.fixture
def repo(cli_repo: Path) -> Path:
    write(cli_repo, ".chunkgate.yaml", CONFIG)
    return cli_repo


def violations(*args: str) -> list[dict[str, object]]:
    # --strict: what the manifest just written records would be known, not reported.
    result = run("check", "--format", "json", "--strict", *args)
    return list(json.loads(result.output)["violations"])


def test_license_header_in_go_suggests_an_spdx_comment(repo: Path) -> None:
    write(repo, "cobra.go", APACHE_HEADER + "\n" + GO)
    commit_all(repo)
    run("update")
    found = [v for v in violations() if v["rule"] == "CG302"]
    assert [v["chunk_id"] for v in found] == ["cobra.go#module"]
    assert found[0]["fix"] == (
        "shorten the license header to one line: // SPDX-License-Identifier: Apache-2.0"
    )


def test_code_chunks_in_the_manifest_and_a_rename_is_a_move(repo: Path) -> None:
    write(repo, "server.go", "package server\n\n" + GO)
    commit_all(repo)
    assert run("update").exit_code in (0, 1)
    manifest = manifest_text(repo)
    assert "server.go#method-Server.Serve" in manifest
    commit_all(repo, "manifest")
    write(repo, "server.go", "package server\n\n" + GO.replace("Serve(", "Run("))
    moved = [v for v in violations("server.go") if v["rule"] == "CG402"]
    assert [v["chunk_id"] for v in moved] == ["server.go#method-Server.Run"]


def test_renamed_rst_section_suggests_an_explicit_target(repo: Path) -> None:
    write(repo, "docs/guide.rst", RST)
    commit_all(repo)
    run("update")
    commit_all(repo, "manifest")
    write(repo, "docs/guide.rst", RST.replace("Setup\n-----", "Set-up\n------"))
    moved = [v for v in violations("docs/guide.rst") if v["rule"] == "CG402"]
    assert len(moved) == 1
    assert "keep the old ID with `.. _setup:` above the title" in str(moved[0]["fix"])


def test_links_in_code_are_not_a_link_farm(repo: Path) -> None:
    links = "\n".join(f"//! - [crate{i}](https://docs.rs/crate{i})" for i in range(12))
    write(repo, "lib.rs", links + "\n\npub fn run() -> u32 {\n    42\n}\n")
    commit_all(repo)
    run("update")
    assert [v for v in violations() if v["rule"] == "CG304"] == []


def test_missing_extras_are_said_once(repo: Path) -> None:
    for name in ("a.go", "b.go", "c.rs"):
        write(repo, name, "package x\n\nfunc f() {\n\treturn\n}\n")
    write(repo, "docs/guide.rst", RST)
    commit_all(repo)
    script = (
        "import sys\n"
        "sys.modules['tree_sitter'] = None\n"  # as if neither extra were installed
        "sys.modules['docutils'] = None\n"
        "sys.argv = ['chunkgate', 'update']\n"
        "from chunkgate.__main__ import main\n"
        "main()\n"
    )
    env = {**os.environ, **git_env(), "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    output = done.stdout + done.stderr
    assert output.count("install chunkgate with its `code` extra") == 1, output
    assert output.count("install chunkgate with its `rst` extra") == 1, output
    assert "3 Go, Rust files chunked as text windows" in output
    assert "1 reStructuredText file chunked as text windows" in output
    manifest = manifest_text(repo)
    assert "a.go#~1" in manifest  # text windows, nothing lost


def test_markdown_hook_imports_no_new_module(repo: Path) -> None:
    write(repo, "README.md", "# Title\n\nSome text that is long enough for a chunk.\n")
    commit_all(repo)
    env = {**os.environ, **git_env()}
    # The modules loaded when the hook is done (chunkers are imported by importlib,
    # which `-X importtime` does not see).
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print(' '.join(sorted(sys.modules)), file=sys.stderr))\n"
        "sys.argv = ['chunkgate', 'check', '--update', 'README.md']\n"
        "from chunkgate.__main__ import main\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    imported = done.stderr.split()
    assert "chunkgate.chunking.markdown" in imported  # the measurement works
    new = ("tree_sitter", "docutils", "chunkgate.chunking.code", "chunkgate.chunking.rst")
    assert [name for name in imported if name.startswith(new)] == []
