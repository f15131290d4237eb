"""``chunkgate export``: the corpus as JSON lines ready for ingest (issue 20)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers import cli_process, commit_all, git, git_env, write

from chunkgate.chunking import CHUNKING_VERSION
from chunkgate.cli import cli
from chunkgate.config.load import load_config
from chunkgate.core.model import Chunk
from chunkgate.ingest.records import export_records

GUIDE = """\
---
title: The Guide
tags: [setup]
---
Welcome.

# Configuration

## Networking

The timeout defaults to 30s.
"""
CODE = "class Client:\n    def send(self):\n        return 1\n"


@pytest.fixture
def repo(cli_repo: Path) -> Path:
    write(cli_repo, "docs/guide.md", GUIDE)
    write(cli_repo, "pkg/client.py", CODE)
    write(cli_repo, "README.md", "# Project\r\n\r\nSome words about it.\r\n")
    commit_all(cli_repo, "first")
    return cli_repo


def test_records_in_path_order_with_every_field(repo: Path) -> None:
    records = list(export_records(load_config(repo)))
    assert [r["id"] for r in records] == [
        "README.md#project",
        "docs/guide.md#~preamble",
        "docs/guide.md#networking",
        "pkg/client.py#class-Client",
    ]
    head = git(repo, "rev-parse", "HEAD").strip()
    networking = records[2]
    assert networking == {
        "id": "docs/guide.md#networking",
        "path": "docs/guide.md",
        "language": "markdown",
        "kind": "section",
        "symbol": None,
        "heading_path": ["Configuration", "Networking"],
        "breadcrumb": "The Guide > Configuration > Networking",
        "level": 2,
        "lines": [7, 11],
        "start_char": networking["start_char"],
        "end_char": networking["end_char"],
        "chars": len(networking["text"]),  # type: ignore[arg-type]
        "tokens": networking["tokens"],
        "hash": networking["hash"],
        "part": 1,
        "parts": 1,
        "parent": None,
        "prev": "docs/guide.md#~preamble",
        "next": None,
        "metadata": {"title": "The Guide", "tags": ["setup"]},
        "moved_from": [],
        "blob": git(repo, "rev-parse", "HEAD:docs/guide.md").strip(),
        "commit": head,
        "chunking": CHUNKING_VERSION,
        "model": None,
        "text": "# Configuration\n\n## Networking\n\nThe timeout defaults to 30s.",
        "embed_text": "The Guide > Configuration > Networking\n"
        "# Configuration\n\n## Networking\n\nThe timeout defaults to 30s.",
    }
    assert records[3]["breadcrumb"] == "pkg.client > Client"


def test_records_are_the_chunks_dicts_reshaped(repo: Path) -> None:
    from chunkgate import chunk_file

    config = load_config(repo)
    records = {r["id"]: r for r in export_records(config)}
    spans = ("start_line", "end_line", "start_column", "end_column")
    for path in ("docs/guide.md", "pkg/client.py", "README.md"):
        for chunk in chunk_file(repo / path, root=repo, options=config.chunking):
            fields = chunk.to_dict()
            record = records[chunk.id]
            assert record["lines"] == [fields["start_line"], fields["end_line"]]
            assert {k: v for k, v in fields.items() if k not in spans} == {
                k: record[k] for k in fields if k not in spans
            }


def reshaped(chunk: Chunk, text: str, **closing: object) -> dict[str, object]:
    """The record ``ingestrecords`` writes field by field, built the plain way from
    ``Chunk.to_dict``: the oracle every exported line is held to."""
    from chunkgate.chunking.embedtext import EmbedSettings, breadcrumb

    fields = chunk.to_dict(text=False)
    head = ("id", "path", "language", "kind", "symbol", "heading_path")
    record: dict[str, object] = {key: fields.pop(key) for key in head}
    crumb = breadcrumb(chunk, EmbedSettings())
    record["breadcrumb"] = crumb
    record["level"] = fields.pop("level")
    first, last = fields.pop("start_line"), fields.pop("end_line")
    record["lines"] = [first, last]
    column = fields.pop("start_column", 1)
    fields.pop("end_column", None)
    lines = text.replace("\r\n", "\n").split("\n")
    start = sum(len(line) + 1 for line in lines[: first - 1]) + column - 1  # type: ignore[operator]
    record["start_char"], record["end_char"] = start, start + len(chunk.text)
    metadata = fields.pop("metadata", {})
    record.update(fields)
    record["metadata"] = metadata
    record.update(closing)
    record["text"] = chunk.text
    record["embed_text"] = f"{crumb}\n{chunk.text}" if crumb else chunk.text
    return record


_VERSIONS = {"chunking": CHUNKING_VERSION, "model": None}
SAMPLES = {
    "docs/guide.md": GUIDE,
    "docs/long.md": "# Long \u00e9t\u00e9\n\n" + 'A sentence "quoted" \\ here.\n\n' * 300,
    "pkg/client.py": CODE,
    "README.md": "# Project\r\n\r\nSome words about it.\r\n",
}


def exported_lines(path: str, text: str) -> tuple[list[Chunk], list[str]]:
    from chunkgate.chunking import chunk_document
    from chunkgate.chunking.embedtext import EmbedSettings
    from chunkgate.ingest.lines import file_lines

    chunks = list(chunk_document(text.replace("\r\n", "\n"), path).chunks)
    moves = [(chunks[0].id, f"{path}#old")]
    lines = file_lines(
        chunks, text, EmbedSettings(), blob="b" * 40, commit=None, model=None, moves=moves
    )
    return chunks, lines.splitlines()


@pytest.mark.parametrize("path", sorted(SAMPLES))
def test_each_line_is_the_chunks_dict_reshaped(path: str) -> None:
    text = SAMPLES[path]
    chunks, lines = exported_lines(path, text)
    assert len(lines) == len(chunks) > 0
    for number, (chunk, line) in enumerate(zip(chunks, lines, strict=True)):
        moved = [f"{path}#old"] if number == 0 else []
        expected = reshaped(chunk, text, moved_from=moved, blob="b" * 40, commit=None, **_VERSIONS)
        assert line == json.dumps(expected, ensure_ascii=False)
    if path == "docs/long.md":
        assert chunks[-1].parts > 1  # parts, relations and non-ASCII text are covered


def test_a_field_the_chunks_dict_gains_fails_until_written(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = Chunk.to_dict

    def grown(chunk: Chunk, *, text: bool = True) -> dict[str, object]:
        return {**plain(chunk, text=text), "language_version": "3"}

    monkeypatch.setattr(Chunk, "to_dict", grown)
    chunks, lines = exported_lines("docs/guide.md", GUIDE)
    expected = reshaped(chunks[0], GUIDE, moved_from=["docs/guide.md#old"], blob="b" * 40)
    assert expected["language_version"] == "3"
    assert "language_version" not in json.loads(lines[0])


def test_char_offsets_cut_the_normalised_file(repo: Path) -> None:
    for record in export_records(load_config(repo)):
        raw = (repo / str(record["path"])).read_text(encoding="utf-8")
        text = raw.replace("\r\n", "\n")
        start, end = record["start_char"], record["end_char"]
        assert isinstance(start, int)
        assert isinstance(end, int)
        assert text[start:end] == record["text"]


def test_uncommitted_change_has_a_blob_and_no_commit(repo: Path) -> None:
    write(repo, "docs/guide.md", GUIDE.replace("30s", "60s"))
    records = {r["id"]: r for r in export_records(load_config(repo))}
    changed = records["docs/guide.md#networking"]
    assert changed["commit"] is None
    assert changed["blob"] == git(repo, "hash-object", "docs/guide.md").strip()
    assert records["pkg/client.py#class-Client"]["commit"] is not None


def test_rev_reads_git_objects_not_the_work_tree(repo: Path) -> None:
    first = git(repo, "rev-parse", "HEAD").strip()
    write(repo, "docs/guide.md", GUIDE.replace("30s", "60s"))
    write(repo, "docs/new.md", "# New\n\nA new page.\n")
    commit_all(repo, "second")
    (repo / "pkg" / "client.py").unlink()  # the work tree no longer has it
    old = list(export_records(load_config(repo), rev=first))
    assert {r["commit"] for r in old} == {first}
    assert "docs/new.md#new" not in {r["id"] for r in old}
    by_id = {r["id"]: r for r in old}
    assert by_id["docs/guide.md#networking"]["text"].endswith("30s.")  # type: ignore[union-attr]
    assert "pkg/client.py#class-Client" in by_id
    new = {r["id"]: r for r in export_records(load_config(repo), rev="HEAD")}
    assert str(new["docs/guide.md#networking"]["text"]).endswith("60s.")
    assert "docs/new.md#new" in new


def test_records_are_json_lines_ready(repo: Path) -> None:
    for record in export_records(load_config(repo)):
        assert json.loads(json.dumps(record, ensure_ascii=False)) == record


def test_library_export_is_the_same_records(repo: Path) -> None:
    import chunkgate
    from chunkgate import export

    assert "export" in chunkgate.__all__
    config = load_config(repo)
    assert list(export(config, rev="HEAD")) == list(export_records(config, rev="HEAD"))


# -- the command ---------------------------------------------------------------------------


def export_cli(*args: str) -> Result:
    return CliRunner().invoke(cli, ["export", *args])


def test_command_prints_the_library_records(repo: Path) -> None:
    result = export_cli()
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [json.loads(line) for line in lines] == list(export_records(load_config(repo)))
    for line in lines:  # each line is the canonical JSON of its record
        assert json.dumps(json.loads(line), ensure_ascii=False) == line


def test_paths_files_and_folders(repo: Path) -> None:
    write(repo, "docs/more/deep.md", "# Deep\n\nbody text here\n")
    ids = [
        json.loads(line)["id"] for line in export_cli("docs/more", "README.md").stdout.splitlines()
    ]
    assert ids == ["README.md#project", "docs/more/deep.md#deep"]


def test_rev_with_paths_reads_that_revision(repo: Path) -> None:
    write(repo, "docs/guide.md", "# Replaced\n\nnew text\n")
    result = export_cli("--rev", "HEAD", "docs")
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["id"] for r in records] == ["docs/guide.md#~preamble", "docs/guide.md#networking"]
    missing = export_cli("--rev", "HEAD", "docs/new.md")
    assert missing.exit_code == 2
    assert "docs/new.md: no such file or corpus folder in HEAD" in missing.stderr


def test_rev_uses_the_configuration_committed_there(repo: Path) -> None:
    write(repo, ".chunkgate.yaml", "embed: {separator: ' / '}\n")
    commit_all(repo, "separator")
    write(repo, ".chunkgate.yaml", "embed: {breadcrumb: false}\n")
    now = {r["id"]: r for r in map(json.loads, export_cli().stdout.splitlines())}
    then = {r["id"]: r for r in map(json.loads, export_cli("--rev", "HEAD").stdout.splitlines())}
    networking = "docs/guide.md#networking"
    assert now[networking]["embed_text"] == now[networking]["text"]
    assert then[networking]["breadcrumb"] == "The Guide / Configuration / Networking"


def test_bad_revision_is_one_line_and_leaves_the_output_alone(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("old\n", encoding="utf-8")
    result = export_cli("--rev", "no-such-branch", "-o", str(out))
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"chunkgate: error: --rev no-such-branch: no such commit in {repo}"
    ]
    assert out.read_text(encoding="utf-8") == "old\n"


def test_output_file_is_replaced_whole(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("old\n", encoding="utf-8")
    assert export_cli("-o", str(out)).exit_code == 0
    assert out.read_text(encoding="utf-8") == export_cli().stdout
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "repo") == ["out.jsonl"]


def test_moved_from_comes_from_the_manifest(repo: Path) -> None:
    assert CliRunner().invoke(cli, ["update"]).exit_code == 0
    commit_all(repo, "manifest")
    write(repo, "docs/guide.md", GUIDE.replace("## Networking", "## Network settings"))
    assert CliRunner().invoke(cli, ["update", "--accept-moves"]).exit_code == 0
    records = {r["id"]: r for r in map(json.loads, export_cli().stdout.splitlines())}
    moved = records["docs/guide.md#network-settings"]
    assert moved["moved_from"] == ["docs/guide.md#networking"]
    assert moved["commit"] is None  # not committed yet
    assert records["pkg/client.py#class-Client"]["moved_from"] == []
    commit_all(repo, "renamed")
    at_head = {r["id"]: r for r in map(json.loads, export_cli("--rev", "HEAD").stdout.splitlines())}
    assert at_head["docs/guide.md#network-settings"]["moved_from"] == ["docs/guide.md#networking"]


def test_unreadable_file_is_named_and_the_others_exported(repo: Path) -> None:
    write(repo, "docs/binary.md", b"# B\n\x00\xff\xfe binary\n")
    result = export_cli()
    assert result.exit_code == 2
    assert "docs/binary.md" in result.stderr
    assert "docs/guide.md#networking" in result.stdout


def test_line_separators_in_text_stay_inside_their_record(repo: Path) -> None:
    write(repo, "docs/odd.md", "# Odd\n\none\u2028two\x85three\x1cfour\n")
    records = [r for r in export_records(load_config(repo)) if r["path"] == "docs/odd.md"]
    assert [r["text"] for r in records] == ["# Odd\n\none\u2028two\x85three\x1cfour"]


def test_outside_git_there_is_no_blob_or_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "plain"
    write(folder, "a.md", "# A\n\nsome text\n")
    monkeypatch.chdir(folder)
    (record,) = map(json.loads, export_cli().stdout.splitlines())
    assert (record["blob"], record["commit"]) == (None, None)
    refused = export_cli("--rev", "HEAD")
    assert refused.exit_code == 2
    assert "is not a git repository" in refused.stderr


# -- many files: jobs, determinism, progress ------------------------------------------------


@pytest.fixture
def many(repo: Path) -> Path:
    for index in range(210):
        write(
            repo,
            f"pages/{index:03d}.md",
            f"# Page {index}\n\nText of page {index}.\n\n## Part\n\nMore.\n",
        )
    commit_all(repo, "many")
    return repo


def run(
    repo: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "chunkgate", "export", *args],
        cwd=repo,
        capture_output=True,
        env=env or {**git_env(), "PYTHONIOENCODING": "utf-8"},
        check=False,
    )


def test_same_bytes_twice_and_with_one_or_two_jobs(many: Path) -> None:
    runs = [run(many, "--jobs", jobs) for jobs in ("1", "2", "2")]
    assert [r.returncode for r in runs] == [0, 0, 0]
    assert runs[0].stdout == runs[1].stdout == runs[2].stdout
    assert runs[0].stdout.count(b"\n") == 4 + 2 * 210
    revs = [run(many, "--rev", "HEAD", "--jobs", jobs).stdout for jobs in ("1", "2")]
    assert revs[0] == revs[1] == runs[0].stdout


def test_no_progress_in_a_pipe(many: Path) -> None:
    env = {k: v for k, v in git_env().items() if k not in ("CI", "GITHUB_ACTIONS")}
    result = run(many, env=env)
    assert result.returncode == 0
    assert result.stderr == b""


@pytest.mark.parametrize(
    "stdout",
    [
        pytest.param({"PYTHONIOENCODING": "utf-8:strict"}, id="strict-utf8"),
        pytest.param({"PYTHONIOENCODING": "utf-8:surrogateescape"}, id="surrogateescape"),
        pytest.param({"PYTHONIOENCODING": "", "LC_ALL": "C.UTF-8"}, id="c-utf8-locale"),
    ],
)
def test_a_file_name_that_is_not_utf8_is_written_alike_to_stdout_and_to_a_file(
    git_repo: Path, stdout: dict[str, str]
) -> None:
    # Issue 44: `export -o` raised UnicodeEncodeError; stdout wrote the raw byte
    # (not UTF-8, not JSON) or an escape, as the locale had it.
    name = b"caf\xe9.md"
    (git_repo / os.fsdecode(name)).write_text("# Caf\n\nText here.\n", encoding="utf-8")
    commit_all(git_repo, "a name that is not UTF-8")
    listed = cli_process(git_repo, "export", "-q", env=stdout)
    written = cli_process(git_repo, "export", "-q", "-o", "out.jsonl", env=stdout)
    assert (listed.returncode, written.returncode, written.stderr) == (0, 0, b"")
    data = (git_repo / "out.jsonl").read_bytes()
    assert data == listed.stdout
    (record,) = [json.loads(line) for line in data.decode("utf-8").splitlines()]
    assert os.fsencode(record["path"]) == name
    assert record["id"] == record["path"] + "#caf"
    assert b'"path": "caf\\udce9.md"' in data
