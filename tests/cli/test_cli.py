"""Commands through Click's runner and as a real subprocess."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import commit_all, git, git_env, manifest_text, shard, write
from hypothesis import given
from hypothesis import strategies as st

from chunkgate import __version__
from chunkgate.chunking import ChunkedFile
from chunkgate.cli import cli
from chunkgate.config.load import load_config
from chunkgate.core.model import Chunk
from chunkgate.listing import chunk_named
from chunkgate.rules import RULES

SECTION = "Text that is long enough to pass the minimum chunk size without any trouble.\n"


@pytest.fixture
def repo(cli_repo: Path) -> Path:
    return cli_repo


def test_version_as_a_subprocess() -> None:
    for command in ([sys.executable, "-m", "chunkgate", "--version"],):
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        assert out.strip() == f"chunkgate, version {__version__}"


def test_chunks_json_fields(repo: Path) -> None:
    write(repo, "docs/a b.md", f"intro\n\n# Tïtle {{#t}}\n\n{SECTION}")
    result = CliRunner().invoke(cli, ["chunks", "--format", "json", "docs/a b.md"])
    assert result.exit_code == 0
    first, second = json.loads(result.output)
    assert list(second) == [
        "id",
        "path",
        "kind",
        "language",
        "symbol",
        "heading_path",
        "level",
        "start_line",
        "end_line",
        "chars",
        "tokens",
        "hash",
        "part",
        "parts",
        "parent",
        "prev",
        "next",
    ]
    assert (second["part"], second["parts"]) == (1, 1)
    assert (first["id"], second["id"], second["heading_path"]) == (
        "docs/a b.md#~preamble",
        "docs/a b.md#t",
        ["Tïtle"],
    )
    with_text = json.loads(
        CliRunner().invoke(cli, ["chunks", "--format", "json", "--text", "docs/a b.md"]).output
    )
    assert with_text[0]["text"] == "intro"


def test_chunks_jsonl_and_table(repo: Path) -> None:
    write(
        repo,
        "m.py",
        "import os\nimport sys\n\nSETTINGS = {'separator': os.sep, 'program': sys.argv[0]}\n"
        "\n\ndef f():\n    return os.sep\n",
    )
    lines = CliRunner().invoke(cli, ["chunks", "--format", "jsonl", "m.py"]).output.splitlines()
    assert [json.loads(line)["id"] for line in lines] == ["m.py#module", "m.py#function-f"]
    table = CliRunner().invoke(cli, ["chunks", "m.py"]).output
    assert "m.py#function-f" in table
    assert "function" in table


def test_chunks_json_of_parts(repo: Path) -> None:
    sentence = "This sentence is one of many in a paragraph written on a single line. "
    write(repo, "long.md", "# Long\n\n" + sentence * 60 + "\n")
    result = CliRunner().invoke(cli, ["chunks", "--format", "json", "--text", "long.md"])
    chunks = json.loads(result.output)
    assert [c["id"] for c in chunks] == ["long.md#long", "long.md#long~2", "long.md#long~3"]
    assert [(c["part"], c["parts"]) for c in chunks] == [(1, 3), (2, 3), (3, 3)]
    assert all(c["chars"] <= 2000 for c in chunks)
    # Cut inside line 3: the columns say where, and the text is that slice.
    line = (repo / "long.md").read_text().split("\n")[2]
    assert "start_column" not in chunks[0]
    assert chunks[0]["text"] == "# Long\n\n" + line[: chunks[0]["end_column"]]
    middle = chunks[1]
    assert middle["text"] == line[middle["start_column"] - 1 : middle["end_column"]]
    assert chunks[2]["text"] == line[chunks[2]["start_column"] - 1 :]
    assert "end_column" not in chunks[2]
    lines = CliRunner().invoke(cli, ["chunks", "--format", "jsonl", "--text", "long.md"])
    assert [json.loads(row) for row in lines.output.splitlines()] == chunks
    table = CliRunner().invoke(cli, ["chunks", "--format", "text", "long.md"]).output
    assert "(part 2/3)" in table
    assert f"3:{middle['start_column']}-3:{middle['end_column']}" in table


def test_chunks_jsonl_lists_the_sections_a_chunk_took_in(repo: Path) -> None:
    """With ``markdown.merge_small`` a chunk's JSON line names the IDs merged into it, as
    its ``to_dict`` and its manifest line do (the line is written field by field)."""
    write(repo, ".chunkgate.yaml", "markdown:\n  merge_small: true\n")
    write(
        repo,
        "guide.md",
        "# Guide\n\nA guide to installing things, with enough words to count.\n\n"
        "## Install\n\nSee below.\n\n### pip\n\nRun it in a fresh environment.\n\n"
        "### conda\n\nUse conda.\n",
    )
    out = CliRunner().invoke(cli, ["chunks", "--format", "jsonl", "--text", "guide.md"]).stdout
    rows = [json.loads(line) for line in out.splitlines()]
    assert [row.get("merged") for row in rows] == [None, ["guide.md#pip", "guide.md#conda"]]
    (chunked,) = chunk_named(load_config(repo), ["guide.md"], lambda file: file)
    assert rows == [chunk.to_dict(text=True) for chunk in chunked.chunks]


def test_chunks_jsonl_streams_file_by_file(repo: Path) -> None:
    # JSON lines leave as each file is chunked: a large corpus is never held whole.
    import functools

    from chunkgate.listing import chunk_named
    from chunkgate.report.listing import json_lines

    write(repo, "a.md", "# A\n\nbody\n")
    write(repo, "b.md", "# B\n\nbody\n")
    seen: list[str] = []

    def convert(file: ChunkedFile) -> str:
        seen.append(file.path)
        return json_lines(file, text=True)

    results = chunk_named(load_config(repo), ["a.md", "b.md"], convert)
    first = next(results)
    assert (seen, json.loads(str(first))["id"]) == (["a.md"], "a.md#a")
    assert [json.loads(str(r))["id"] for r in results] == ["b.md#b"]
    assert json_lines(ChunkedFile("c.md", "markdown", ()), text=True) == ""
    # What the command writes is exactly these lines.
    out = CliRunner().invoke(cli, ["chunks", "--format", "jsonl", "--text", "a.md", "b.md"]).stdout
    convert_all = functools.partial(json_lines, text=True)
    assert out == "".join(map(str, chunk_named(load_config(repo), ["a.md", "b.md"], convert_all)))


def _chunking_pid(file: ChunkedFile) -> int:
    return os.getpid()


def test_many_files_are_chunked_in_workers_and_few_here(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chunkgate.core import parallel
    from chunkgate.listing import chunk_named

    monkeypatch.setattr(parallel, "WORTH_SECONDS", 64 * parallel.FILE_SECONDS)
    for index in range(64):
        write(repo, f"docs/{index:03d}.md", f"# Page {index}\n\n{SECTION}")
    config = load_config(repo)
    many = set(chunk_named(config, ["docs"], _chunking_pid, jobs=2))
    assert len(many) >= 1
    assert os.getpid() not in many
    few = list(chunk_named(config, ["docs/000.md", "docs/001.md"], _chunking_pid, jobs=2))
    assert few == [os.getpid()] * 2
    assert set(chunk_named(config, ["docs"], _chunking_pid, jobs=1)) == {os.getpid()}


def test_workers_are_decided_by_bytes_not_by_count(repo: Path) -> None:
    """112 small pages are less work than starting a pool; three long chapters more."""
    from chunkgate.listing import chunk_named

    for index in range(112):
        write(repo, f"pages/{index:03d}.md", f"# Page {index}\n\n{SECTION}")
    for index in range(3):
        write(repo, f"book/{index}.md", "".join(f"# Part {n}\n\n{SECTION}\n" for n in range(3000)))
    config = load_config(repo)
    assert set(chunk_named(config, ["pages"], _chunking_pid, jobs=2)) == {os.getpid()}
    assert os.getpid() not in set(chunk_named(config, ["book"], _chunking_pid, jobs=2))


def test_a_few_large_files_are_chunked_in_workers(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chunkgate.core import parallel
    from chunkgate.listing import chunk_named

    worth = 2 * parallel.FILE_SECONDS + 5000 * parallel.BYTE_SECONDS["markdown"]
    monkeypatch.setattr(parallel, "WORTH_SECONDS", worth)
    write(repo, "small.md", f"# Small\n\n{SECTION}")
    write(repo, "large.md", "".join(f"# Part {n}\n\n{SECTION}\n" for n in range(60)))
    config = load_config(repo)
    assert list(chunk_named(config, ["small.md"], _chunking_pid, jobs=2)) == [os.getpid()]
    pids = list(chunk_named(config, ["small.md", "large.md", "gone.md"], _chunking_pid, jobs=2))
    assert len(pids) == 3
    assert os.getpid() not in pids[:2]


@pytest.mark.parametrize("fmt", ["jsonl", "json", "text"])
def test_chunks_with_several_jobs_print_the_same(
    repo: Path, fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over enough files to start workers, ``--jobs 2`` prints the same bytes as one
    job, failures included and in the same order."""
    from chunkgate.core import parallel

    monkeypatch.setattr(parallel, "WORTH_SECONDS", 64 * parallel.FILE_SECONDS)
    for index in range(80):
        write(repo, f"docs/{index:03d}.md", f"# Page {index}\n\n{SECTION}\n## Part\n\n{SECTION}")
    write(repo, "docs/040-bad.md", b"# B\n\xff\xfe\x00 binary\n")
    write(repo, "docs/050-bad.md", b"# C\n\xff not utf-8\n")
    runs = [
        CliRunner().invoke(cli, ["chunks", "--format", fmt, "--text", "--jobs", jobs, "docs"])
        for jobs in ("1", "2")
    ]
    assert [(r.exit_code, r.stdout, r.stderr) for r in runs[1:]] == [
        (runs[0].exit_code, runs[0].stdout, runs[0].stderr)
    ]
    assert runs[0].exit_code == 2
    assert runs[0].stderr.index("040-bad.md") < runs[0].stderr.index("050-bad.md")
    assert runs[0].stdout.count("docs/079.md#part") == (1 if fmt == "text" else 2)  # id, next


def test_unreadable_file_is_reported_after_the_jsonl_of_the_others(repo: Path) -> None:
    write(repo, "a.md", "# A\n\nbody\n")
    (repo / "bad.md").write_bytes(b"# B\n\xff\xfe\x00 binary\n")
    result = CliRunner().invoke(cli, ["chunks", "--format", "jsonl", "a.md", "bad.md"])
    assert result.exit_code == 2, result.output
    assert json.loads(result.stdout.splitlines()[0])["id"] == "a.md#a"
    assert "bad.md: binary file" in result.stderr


def test_empty_file_has_no_chunks(repo: Path) -> None:
    write(repo, "empty.md", "")
    result = CliRunner().invoke(cli, ["chunks", "--format", "json", "empty.md"])
    assert (result.exit_code, json.loads(result.output)) == (0, [])


def test_exit_codes_and_whole_output_as_a_subprocess(repo: Path) -> None:
    """main() leaves without tearing the interpreter down: every exit code and every
    byte of output must still come out, and exit handlers still run."""
    for index in range(300):
        write(
            repo,
            f"docs/{index}.md",
            f"# Page {index}\n\n{SECTION}\n## Same\n\nRepeated text here.\n",
        )
    commit_all(repo)

    def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "chunkgate", *args]
        # Buffered output, as users have it, so that a missing flush would show.
        environment = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"} | env
        return subprocess.run(
            command, cwd=repo, capture_output=True, text=True, env=environment, check=False
        )

    assert run("update").returncode == 0
    checked = run("check", "--format", "json", CHUNKGATE_DEBUG_GIT="1")
    report = json.loads(checked.stdout)
    assert (checked.returncode, report["summary"]["files"]) == (0, 300)
    assert checked.stderr.endswith("git processes\n")  # an exit handler's line
    listed = run("chunks", "--format", "jsonl", "docs")
    assert listed.returncode == 0
    assert len(listed.stdout.splitlines()) == 600
    write(repo, "docs/0.md", "# Page 0\n\n" + "Long. " * 2000 + "\n")
    assert run("check").returncode == 1
    usage = run("no-such-command")
    assert (usage.returncode, "No such command" in usage.stderr) == (2, True)


@pytest.mark.parametrize("fmt", ["jsonl", "text"])
def test_a_reader_that_stops_early_gets_no_error(repo: Path, fmt: str) -> None:
    """`chunkgate chunks docs | head -1`: the closed pipe ends the run quietly (Click's
    exit status 1), with no "error: Broken pipe" and no traceback."""
    # 4,000 chunks, about 270 KB as text: four times a pipe's 64 KiB buffer
    for index in range(2000):
        write(repo, f"docs/{index}.md", f"# Page {index}\n\n{SECTION}\n## More\n\nText.\n")
    command = [sys.executable, "-m", "chunkgate", "chunks", "--format", fmt, "docs"]
    proc = subprocess.Popen(
        command, cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=git_env()
    )
    assert proc.stdout is not None
    assert proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # as `head -1` does, with far more than a pipe's buffer to come
    stderr = proc.stderr.read().decode()
    proc.stderr.close()
    assert first.startswith(b"{" if fmt == "jsonl" else b"ID")
    assert proc.wait(timeout=120) == 1
    assert stderr == ""


def test_the_console_script_is_the_module_entry_point() -> None:
    """The installed ``chunkgate`` and ``python -m chunkgate`` run the same function."""
    (script,) = importlib.metadata.entry_points(group="console_scripts", name="chunkgate")
    assert script.value == "chunkgate.__main__:main"
    result = subprocess.run(
        [sys.executable, "-m", "chunkgate", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stdout.startswith("chunkgate, version")) == (0, True)


def test_binary_file_gives_a_message_not_a_traceback(repo: Path) -> None:
    write(repo, "img.md", b"\x00\x01\x02binary")
    result = subprocess.run(
        [sys.executable, "-m", "chunkgate", "chunks", "img.md"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "chunkgate: error: img.md: binary file" in result.stderr
    assert "Traceback" not in result.stderr


def test_outline_json_is_one_list_over_all_files(repo: Path) -> None:
    write(repo, "a.md", "# A\n\n> # quoted\n\n## B `code`\n")
    write(repo, "b.md", "Title\n=====\n")
    result = CliRunner().invoke(cli, ["outline", "--format", "json", "a.md", "b.md"])
    entries = json.loads(result.output)
    assert {entry.pop("anchors") for entry in entries} == {"github"}
    assert entries == [
        {"path": "a.md", "level": 1, "text": "A", "line": 1, "id": "a.md#a"},
        {"path": "a.md", "level": 2, "text": "B code", "line": 5, "id": "a.md#b-code"},
        {"path": "b.md", "level": 1, "text": "Title", "line": 1, "id": "b.md#title"},
    ]


def test_rules_lists_every_rule_and_prints_docs() -> None:
    listing = CliRunner().invoke(cli, ["rules"]).output
    assert all(code in listing for code in RULES)
    doc = CliRunner().invoke(cli, ["rules", "CG201"]).output
    assert doc.startswith("CG201 oversized (default: error)")
    assert "Passes" in doc
    assert "Fires" in doc
    assert CliRunner().invoke(cli, ["rules", "undersized"]).output.startswith("CG202")
    assert CliRunner().invoke(cli, ["rules", "CG999"]).exit_code == 2


def test_init_writes_a_config_that_loads_to_the_defaults(repo: Path) -> None:
    result = CliRunner().invoke(cli, ["init"])
    assert result.exit_code == 0
    assert "id: chunkgate" in result.output  # the pre-commit snippet
    assert "uses: chunkgate/chunkgate@" in result.output  # the Actions snippet
    config = load_config(repo)
    assert config.source == repo / ".chunkgate.yaml"
    assert config.chunking.max == 2000
    again = CliRunner().invoke(cli, ["init"])
    assert "leaving it alone" in again.output


def test_stats_json(repo: Path) -> None:
    write(repo, "a.md", f"# A\n\n{SECTION}\n# B\n\nshort\n")
    report = json.loads(CliRunner().invoke(cli, ["stats", "--format", "json"]).output)
    assert report["count"] == 2
    assert report["under_min"] == 1


def test_merge_driver_merges_sections_added_on_two_branches(repo: Path) -> None:
    write(repo, "a.md", f"# A\n\n{SECTION}")
    write(repo, "b.md", f"# B\n\n{SECTION}")
    write(repo, ".gitattributes", "chunkgate.manifest/** merge=chunkgate\n")
    assert CliRunner().invoke(cli, ["update"]).exit_code == 0
    commit_all(repo, "base")
    driver = f"{sys.executable} -m chunkgate merge-driver %O %A %B %P"
    git(repo, "config", "merge.chunkgate.driver", driver)
    git(repo, "checkout", "-q", "-b", "other")
    write(repo, "b.md", f"# B\n\n{SECTION}\n## B2\n\n{SECTION}")
    assert CliRunner().invoke(cli, ["update"]).exit_code == 0
    commit_all(repo, "other adds B2")
    git(repo, "checkout", "-q", "main")
    write(repo, "a.md", f"# A\n\n{SECTION}\n## A2\n\n{SECTION}")
    assert CliRunner().invoke(cli, ["update"]).exit_code == 0
    commit_all(repo, "main adds A2")
    git(repo, "merge", "-q", "--no-edit", "other")
    manifest = manifest_text(repo)
    assert '"id": "a.md#a2"' in manifest
    assert '"id": "b.md#b2"' in manifest
    assert CliRunner().invoke(cli, ["check"]).exit_code == 0
    # Both branches change a.md: its shard is merged by the driver, which keeps ours
    # and says to run update; the merged file is then settled by `chunkgate update`.
    git(repo, "checkout", "-q", "-b", "third")
    write(repo, "a.md", f"# A\n\n{SECTION}\n## A3\n\n{SECTION}")
    assert CliRunner().invoke(cli, ["update"]).exit_code == 0
    commit_all(repo, "third")
    git(repo, "checkout", "-q", "main")
    write(repo, "a.md", f"# A\n\n{SECTION}\n## A4\n\n{SECTION}")
    assert CliRunner().invoke(cli, ["update"]).exit_code == 0
    commit_all(repo, "main A4")
    merged = subprocess.run(
        ["git", "merge", "--no-edit", "third"],
        cwd=repo,
        env=git_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert merged.returncode != 0
    assert (
        "a.md: both sides changed its chunks; run `chunkgate update a.md`"
        in merged.stderr + merged.stdout
    )
    assert "<<<<<<<" not in shard(repo, "a.md").read_text()  # the driver left ours, whole


def test_check_writes_sarif_to_a_file(repo: Path) -> None:
    write(repo, "a.md", "# A\n\n" + "word " * 600)
    result = CliRunner().invoke(cli, ["check", "--format", "sarif", "-o", "out.sarif"])
    assert result.exit_code == 1
    log = json.loads((repo / "out.sarif").read_text())
    assert log["version"] == "2.1.0"
    assert {r["ruleId"] for r in log["runs"][0]["results"]} >= {"CG201"}


def test_format_auto_is_github_under_actions(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "a.md", "# A\n\n" + "word " * 600)
    write(repo, ".chunkgate.yaml", "size: {limit: 500}\n")  # over it: a CG201 error
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    output = CliRunner().invoke(cli, ["check", "a.md"]).output
    assert output.startswith("::error file=a.md,line=1,title=CG201 oversized::")


def test_no_color_gives_plain_rich_output(repo: Path) -> None:
    write(repo, "a.md", "# A\n\n" + "word " * 600)
    env = {**git_env(), "NO_COLOR": "1"}
    out = subprocess.run(
        [sys.executable, "-m", "chunkgate", "check", "--format", "rich", "a.md"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    assert "CG201" in out
    assert "\x1b[" not in out


@st.composite
def _chunks(draw: st.DrawFn) -> Chunk:
    body = draw(st.text(max_size=40))
    return Chunk(
        id=f'dir/ä "b".md#{body[:5]}', path='dir/ä "b".md', kind="section",
        language="markdown", symbol=draw(st.one_of(st.none(), st.text(max_size=10))),
        heading_path=tuple(draw(st.lists(st.text(max_size=8), max_size=3))), level=2,
        start_line=3, end_line=9, chars=len(body), tokens=1234, hash="0123456789abcdef",
        text=body, body_line=4, title=draw(st.one_of(st.none(), st.text(max_size=10))),
        tags=tuple(draw(st.lists(st.text(max_size=6), max_size=3))),
        fields=tuple(draw(st.lists(st.tuples(st.text(max_size=5), st.text()), max_size=2))),
        start_column=draw(st.integers(0, 3)), end_column=draw(st.integers(0, 3)),
        parent=draw(st.one_of(st.none(), st.text(max_size=5))),
    )  # fmt: skip


@given(_chunks(), st.booleans())
def test_json_lines_are_exactly_json_dumps_of_to_dict(chunk: Chunk, text: bool) -> None:
    from chunkgate.report.listing import json_line

    assert json_line(chunk, text=text) == json.dumps(chunk.to_dict(text=text), ensure_ascii=False)


@pytest.mark.parametrize(
    ("args", "status"),
    [(["--version"], 0), (["--no-such-option"], 2), (["chunks", "no-such-file.md"], 2)],
)
def test_the_console_script_ends_as_python_would(
    tmp_path: Path, args: list[str], status: int
) -> None:
    """``main`` ends the process itself: with the command's status, its output flushed
    (also when it is a pipe), and every atexit function run first."""
    script = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('atexit ran', flush=True))\n"
        f"sys.argv = ['chunkgate', *{args!r}]\n"
        "from chunkgate.__main__ import main\n"
        "main()\n"
        "print('not reached')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert done.returncode == status, done.stderr
    assert done.stdout.endswith("atexit ran\n")
    assert "not reached" not in done.stdout
    if status == 0:
        assert done.stdout.startswith("chunkgate, version")
    else:
        assert done.stderr.strip()  # the usage error or the error line


SECTION_TEXT = "Text that is long enough to pass the minimum chunk size without any trouble.\n"


def test_the_hook_takes_a_file_named_like_an_option(cli_repo: Path) -> None:
    # Issue 44: pre-commit runs `chunkgate check --update --hook ARGS... -rf.md` (no `--`):
    # click read `-rf.md` as the options -r, -f... and exited 2.
    write(cli_repo, "-rf.md", f"# Dashed\n\n{SECTION_TEXT}")
    write(cli_repo, "b.md", f"# B\n\n{SECTION_TEXT}")
    git(cli_repo, "add", "-A")
    runner = CliRunner()
    updated = runner.invoke(cli, ["check", "--update", "--hook", "-rf.md", "b.md"])
    assert updated.exit_code == 1, updated.output  # the manifest was written
    assert (cli_repo / "chunkgate.manifest" / "-rf.md.jsonl").is_file()
    # Options the user adds, with values, stay options; a name that is no file stays an error.
    listed = runner.invoke(cli, ["check", "--hook", "--format", "json", "-q", "-rf.md"])
    assert listed.exit_code == 0, listed.output
    assert json.loads(listed.output)["summary"]["files"] == 1
    missing = runner.invoke(cli, ["check", "--hook", "-x.md"])
    assert missing.exit_code == 2
    assert "No such option" in missing.output
