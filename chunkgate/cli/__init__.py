"""The command line. The only module that imports click; every command is thin:
parse options, call one core function, render, exit (0 clean, 1 violations, 2 errors)."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from chunkgate import __version__
from chunkgate.core.errors import ChunkgateError
from chunkgate.git import listings, process
from chunkgate.report import formats

if TYPE_CHECKING:
    from chunkgate.chunking import ChunkedFile
    from chunkgate.config.model import Config
    from chunkgate.core.model import Heading
    from chunkgate.git.hookfiles import NamedListing
    from chunkgate.git.listings import WorkTreeListing
    from chunkgate.listing import Failure

F = TypeVar("F", bound=Callable[..., Any])
_T = TypeVar("_T")


def _fail(message: str) -> None:
    from chunkgate.report.printable import printable  # a file name may hold an ESC

    click.echo(f"chunkgate: error: {printable(message)}", err=True)


def reports_errors(command: F) -> F:
    """Turn chunkgate's errors into a one-line message and exit code 2."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except ChunkgateError as exc:
            _fail(str(exc))
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("chunkgate: interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:
            raise  # the reader stopped (`| head`): Click ends quietly, as a pipe's writer should
        except OSError as exc:  # disk full, read-only, permissions: the environment's
            from chunkgate.core.errors import os_error_message

            _fail(os_error_message(exc))
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


config_option = click.option(
    "--config",
    "config_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Configuration file (default: .chunkgate.yaml or pyproject.toml at the repository root).",
)
quiet_option = click.option("-q", "--quiet", is_flag=True, help="Print nothing but errors.")
baseline_option = click.option(
    "--baseline",
    metavar="REV",
    help="Keep the IDs of the manifest committed at REV stable, not HEAD's (e.g. the pull "
    "request's base, for a move already committed).",
)
jobs_option = click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=0),
    default=0,
    help="Worker processes for many files (0: one per CPU).",
)


def format_option(command: formats.Formats) -> Callable[[F], F]:
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(command.choices()),
        default="auto",
        show_default=True,
        help="auto: github under GitHub Actions, rich on a terminal, text otherwise."
        if command.github
        else "auto: rich on a terminal, text otherwise.",
    )


def _load(config_path: Path | None, hook_files: Sequence[str] | None = None) -> Config:
    from chunkgate.config.load import load_config

    return load_config(Path.cwd(), config_path=config_path, hook_files=hook_files)


def _load_whole(config_path: Path | None) -> tuple[Config, WorkTreeListing | None]:
    """The configuration of a run over the whole corpus, and git's listing of the work
    tree, started first: its untracked files are the untracked site configs the
    configuration looks for, and the run's corpus (one walk of the tree, not two)."""

    from chunkgate.config.load import load_config
    from chunkgate.hooks import start as hookstart

    listing = hookstart.take_whole()
    if listing is None:
        root = process.find_root(Path.cwd()) if process.installed() else None
        listing = None if root is None else listings.WorkTreeListing(root)
    return load_config(Path.cwd(), config_path=config_path, listing=listing), listing


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="chunkgate")
def cli() -> None:
    """Keep a RAG corpus's chunks stable, sized and clean.

    Chunks Markdown by heading, Python by definition and text in windows,
    each with a stable, citable ID; keeps a committed manifest of every
    chunk; and fails a commit or CI run when the corpus gets worse.
    """
    # A file name that is not UTF-8 (a lone surrogate once decoded) must not crash the
    # output under a strict-encoding stdout: it is shown as a \udcXX escape instead.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", "") == "strict":
            reconfigure(errors="backslashreplace")


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@format_option(formats.CHUNKS)
@click.option("--text", "with_text", is_flag=True, help="Include each chunk's text.")
@jobs_option
@config_option
@quiet_option
@reports_errors
def chunks(
    *,
    paths: tuple[str, ...],
    fmt: str,
    with_text: bool,
    jobs: int,
    config_path: Path | None,
    quiet: bool,
) -> None:
    """Print the chunks of files (folders: their corpus files)."""
    from chunkgate.core.parallel import default_jobs
    from chunkgate.listing import Failure, chunk_named, whole
    from chunkgate.report.listing import json_lines, write_chunks

    config = _load(config_path)
    failures: list[Failure] = []

    def chunked(convert: Callable[[ChunkedFile], _T]) -> Iterator[_T]:
        for result in chunk_named(config, paths, convert, jobs=jobs or default_jobs()):
            if isinstance(result, Failure):
                failures.append(result)
            else:
                yield result

    out = sys.stdout
    fmt = formats.CHUNKS.resolve(fmt, out)
    if fmt == "jsonl":
        # Each file's lines are rendered where it is chunked (in a worker, with
        # jobs) and written as they come: a corpus's chunks are never all held.
        write_chunks(chunked(functools.partial(json_lines, text=with_text)), fmt, out, text=True)
    elif not quiet or fmt == "json":
        from chunkgate.chunking.markdown import anchors_shown

        shown = functools.partial(anchors_shown, config.chunking)
        write_chunks(chunked(whole), fmt, out, text=with_text, anchors=shown)
    else:
        for _ in chunked(whole):  # still chunk every file, to report the ones that fail
            pass
    _report_failures(failures)


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@format_option(formats.OUTLINE)
@config_option
@quiet_option
@reports_errors
def outline(paths: tuple[str, ...], fmt: str, config_path: Path | None, quiet: bool) -> None:
    """Print the Markdown heading tree of files, with each section's chunk ID."""
    from chunkgate.listing import Failure, outline_named
    from chunkgate.report.listing import write_outline

    config = _load(config_path)
    outlines: list[list[Heading]] = []
    failures: list[Failure] = []
    for result in outline_named(config, paths):
        if isinstance(result, Failure):
            failures.append(result)
        else:
            outlines.append(result)
    out = sys.stdout
    fmt = formats.OUTLINE.resolve(fmt, out)
    if not quiet or fmt in ("json", "jsonl"):
        write_outline(outlines, fmt, out)
    _report_failures(failures)


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--rev", help="Export this commit, read from git's objects (not the work tree).")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the records to this file (replaced at once when done) instead of stdout.",
)
@jobs_option
@config_option
@quiet_option
@reports_errors
def export(
    *,
    paths: tuple[str, ...],
    rev: str | None,
    output: Path | None,
    jobs: int,
    config_path: Path | None,
    quiet: bool,
) -> None:
    """Write the corpus (or PATHS) as JSON lines ready for ingest: one record a chunk, with
    its text and embed text, relations, git blob and commit, and recorded moves."""
    from chunkgate.core.parallel import default_jobs
    from chunkgate.ingest.records import Skipped, plan_export
    from chunkgate.listing import Failure
    from chunkgate.report.progress import with_progress

    config = _load(config_path)
    plan = plan_export(config, paths or None, rev, revision_config=config_path is None)
    failures: list[Failure] = []

    def lines() -> Iterator[str]:
        files = plan.files(jobs=jobs or default_jobs())
        if not quiet:
            files = with_progress(files, len(plan.sources), sys.stderr, os.environ, "export")
        for file in files:
            if isinstance(file, Skipped):
                failures.append(Failure(file.path, file.message))
            else:
                yield file

    if output is None:
        for text in lines():
            sys.stdout.write(text)
    else:
        from chunkgate.manifest import write_atomic

        write_atomic(output.resolve(), (text.encode("utf-8") for text in lines()))
    _report_failures(failures)


def _report_failures(failures: list[Failure]) -> None:
    for failure in failures:
        _fail(f"{failure.path}: {failure.message}")
    if failures:
        sys.exit(2)


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--all", "whole", is_flag=True, help="Check the whole corpus (the default without PATHS)."
)
@click.option(
    "--update",
    is_flag=True,
    help="Also rewrite the manifest entries of these files; exit 1 if the manifest changed "
    "(what the pre-commit hook does).",
)
@format_option(formats.CHECK)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the report to this file (e.g. results.sarif) instead of stdout.",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=0),
    default=0,
    help="Worker processes for large cold runs (0: one per CPU).",
)
@baseline_option
@click.option(
    "--hook",
    is_flag=True,
    help="As the pre-commit hook runs it: only PATHS and the files the commit deletes, "
    "never the whole corpus (even with no PATHS).",
)
@click.option(
    "--show-known",
    is_flag=True,
    help="Also list the problems the committed manifest already records.",
)
@click.option(
    "--strict", is_flag=True, help="Fail on every problem, the recorded (known) ones too."
)
@click.option(
    "--select",
    metavar="CODES",
    help="Only these rules (comma-separated codes or prefixes: CG201,CG3).",
)
@click.option("--ignore", metavar="CODES", help="Not these rules (codes or prefixes).")
@config_option
@quiet_option
@reports_errors
def check(
    *,
    paths: tuple[str, ...],
    whole: bool,
    update: bool,
    fmt: str,
    output: Path | None,
    jobs: int,
    baseline: str | None,
    hook: bool,
    show_known: bool,
    strict: bool,
    select: str | None,
    ignore: str | None,
    config_path: Path | None,
    quiet: bool,
) -> None:
    """Check the corpus, or the named files, against the rules and the manifest.

    Files listed in the manifest that no longer exist are checked too. Exit
    status: 0 clean (warnings allowed), 1 errors found or (with --update) the
    manifest changed, 2 usage, config or git errors.
    """
    # First, before the imports and the configuration: the hook's git listings (started
    # by the console script already, when it could tell the paths).
    listing: NamedListing | WorkTreeListing | None = None
    if hook and config_path is None:
        from chunkgate.hooks import start as hookstart

        listing = hookstart.take(paths) or hookstart.named_listing(paths)
    from chunkgate.config.model import with_rules
    from chunkgate.core.parallel import default_jobs
    from chunkgate.gate import run_check

    named = list(paths) if hook else None if whole or not paths else list(paths)
    hook_files = list(paths) if hook else None
    if named is None:
        loaded, listing = _load_whole(config_path)
    else:
        loaded = _load(config_path, hook_files)
    config = with_rules(loaded, select=select, ignore=ignore, strict=strict)
    if output is not None:
        output = _output_path(config, output)
    revision, note = _baseline(config.root, baseline)
    result = run_check(
        config,
        named,
        update=update,
        jobs=jobs or default_jobs(),
        baseline=revision,
        hold_moves=update,  # the hook: an autofix commit must not make a move pass
        listing=listing,
    )
    if note and result.violations:
        result = result._replace(notes=(*result.notes, note))
    if show_known:
        result = result.with_known()
    _write_report(result, fmt, output, quiet)
    sys.exit(1 if result.errors or (update and result.manifest_changed) else 0)


def _baseline(root: Path, given: str | None) -> tuple[str, str]:
    """The baseline revision (``--baseline``, pre-commit's from-ref, else HEAD) and a note
    that says how to record moves against it, when it is not HEAD."""
    from chunkgate.git import commits

    if given is not None:
        return commits.resolve(root, given), ""
    if not os.environ.get("PRE_COMMIT_FROM_REF"):  # pre-commit run --from-ref/--to-ref
        return "HEAD", ""
    from chunkgate.hooks.baseline import hook_baseline, hook_note

    revision = hook_baseline(root, os.environ)
    return revision, hook_note(revision)


def parse_check_args(args: list[str]) -> dict[str, Any]:
    """The parameters ``chunkgate check ARGS...`` would get, checked as the command checks
    them (for the action's ``args`` input)."""
    try:
        context = check.make_context("chunkgate check", list(args))
    except click.exceptions.Exit:
        raise ChunkgateError("args: --help is not an argument to run with") from None
    except click.ClickException as exc:
        raise ChunkgateError(f"args: {exc.format_message()}") from None
    return dict(context.params)


def _output_path(config: Config, output: Path) -> Path:
    """``-o FILE``: inside the work tree, never a corpus file, the manifest or under .git."""
    from chunkgate.corpus import paths

    relative = paths.relative_to_root(config.root, output)
    return paths.allowed(
        config.root,
        relative,
        what="-o",
        read_by=config.reads,
        fix="name a new report file, or redirect the output (> FILE)",
    )


def _write_report(result: Any, fmt: str, output: Path | None, quiet: bool) -> None:
    from chunkgate.report.check import write_check

    if output is None:
        write_check(result, formats.CHECK.resolve(fmt, sys.stdout), sys.stdout, quiet=quiet)
        return
    import io

    buffer = io.StringIO()
    write_check(result, "text" if fmt == "auto" else fmt, buffer, quiet=quiet)
    from chunkgate.manifest import write_atomic

    # A file name that is not UTF-8 holds lone surrogates: written as \udcXX escapes.
    write_atomic(output, buffer.getvalue().encode("utf-8", "backslashreplace"))


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--accept-moves",
    is_flag=True,
    help="Record detected moves (renamed headings, moved files) as moved_from.",
)
@jobs_option
@baseline_option
@config_option
@quiet_option
@reports_errors
def update(
    *,
    paths: tuple[str, ...],
    accept_moves: bool,
    jobs: int,
    baseline: str | None,
    config_path: Path | None,
    quiet: bool,
) -> None:
    """Rewrite the manifest for the named files (all without PATHS)."""
    from chunkgate.core.parallel import default_jobs
    from chunkgate.gate import run_check

    listing = None
    if paths:
        config = _load(config_path)
    else:
        config, listing = _load_whole(config_path)
    result = run_check(
        config,
        list(paths) or None,
        listing=listing,
        update=True,
        accept_moves=accept_moves,
        jobs=jobs or default_jobs(),
        baseline=_baseline(config.root, baseline)[0],
    )
    if not quiet:
        for note in result.notes:
            click.echo(note)
        if not result.manifest_changed:
            click.echo(f"{result.manifest} is up to date")
        if result.violations:
            from chunkgate.report.check import problems

            click.echo(f"{problems(result.summary)}: `chunkgate check --show-known` lists them")


@cli.command("merge-driver")
@click.argument("base", type=click.Path(exists=True, dir_okay=False))
@click.argument("ours", type=click.Path(exists=True, dir_okay=False))
@click.argument("theirs", type=click.Path(exists=True, dir_okay=False))
@click.argument("name", required=False)
@reports_errors
def merge_driver(base: str, ours: str, theirs: str, name: str | None) -> None:
    """Three-way merge of a manifest file for git (%O %A %B %P).

    Configure with `.gitattributes`: `chunkgate.manifest/** merge=chunkgate` and
    `git config merge.chunkgate.driver "chunkgate merge-driver %O %A %B %P"`.
    """
    from chunkgate.hooks.mergedriver import run_merge_driver

    status, messages = run_merge_driver(Path(base), Path(ours), Path(theirs), name)
    for message in messages:
        click.echo(f"chunkgate: {message}", err=True)
    sys.exit(status)


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@format_option(formats.STATS)
@click.option(
    "--largest",
    type=click.IntRange(min=0),
    default=10,
    show_default=True,
    help="How many of the largest chunks to list.",
)
@config_option
@reports_errors
def stats(*, paths: tuple[str, ...], fmt: str, largest: int, config_path: Path | None) -> None:
    """Chunk size distribution: percentiles, the largest chunks, a histogram against the limits."""
    from chunkgate.listing import corpus_sizes
    from chunkgate.report.stats import write_stats
    from chunkgate.stats import corpus_stats

    config = _load(config_path)
    options = config.chunking
    found = corpus_sizes(config, list(paths) or None)
    result = corpus_stats(
        found.sizes,
        max_size=options.max,
        min_size=options.min,
        unit=options.unit,
        largest=largest,
        known=found.known,
    )
    write_stats(result, formats.STATS.resolve(fmt, sys.stdout), sys.stdout)


@cli.command()
@click.argument("code", required=False)
@reports_errors
def rules(code: str | None) -> None:
    """List the rules, or print one rule's documentation."""
    from chunkgate.rules import RULES, rule_docs

    docs = rule_docs()
    if code is not None:
        key = code.upper()
        if key not in RULES:
            by_name = {rule.name: rule.code for rule in RULES.values()}
            key = by_name.get(code.lower(), key)
        if key not in RULES:
            raise click.BadParameter(f"unknown rule {code!r}; see `chunkgate rules`")
        rule = RULES[key]
        click.echo(f"{rule.code} {rule.name} (default: {rule.severity})\n")
        click.echo(docs.get(key, rule.summary))
        return
    for rule in RULES.values():
        click.echo(f"{rule.code}  {rule.name:<18} {rule.severity:<8} {rule.summary}")
    click.echo("\n`chunkgate rules CODE` prints a rule's documentation.")


@cli.command()
@click.option("--force", is_flag=True, help="Overwrite an existing .chunkgate.yaml.")
@reports_errors
def init(force: bool) -> None:
    """Write a commented .chunkgate.yaml and print the pre-commit and Actions snippets."""

    from chunkgate.config.template import default_config_yaml
    from chunkgate.corpus.paths import allowed
    from chunkgate.git import process

    root = process.find_root(Path.cwd()) or Path.cwd()
    target = allowed(root, ".chunkgate.yaml", what="init: the config file")
    if target.exists() and not force:
        click.echo(f"{target} exists; leaving it alone (use --force to overwrite)")
    else:
        from chunkgate.manifest import write_atomic

        write_atomic(target, default_config_yaml().encode("utf-8"))
        click.echo(f"wrote {target}")
    click.echo(INIT_SNIPPETS)


INIT_SNIPPETS = """
Next steps:

1. Build the manifest and commit it:

    chunkgate update && git add chunkgate.manifest .chunkgate.yaml

2. Let git merge a file's manifest entry when two branches changed that file
   (optional; different files merge without it, on GitHub too):

    echo 'chunkgate.manifest/** merge=chunkgate eol=lf' >> .gitattributes
    git config merge.chunkgate.driver "chunkgate merge-driver %O %A %B %P"

3. Add the pre-commit hook (.pre-commit-config.yaml), with REV a commit SHA or
   release tag of chunkgate that you pin (chunkgate is not on PyPI yet):

    repos:
      - repo: https://github.com/chunkgate/chunkgate
        rev: REV
        hooks:
          - id: chunkgate

   `pre-commit autoupdate --repo https://github.com/chunkgate/chunkgate` fills
   in REV; `git ls-remote https://github.com/chunkgate/chunkgate HEAD` prints
   the newest commit's SHA.

4. Gate pull requests (.github/workflows/chunkgate.yml), with the same REV:

    on: pull_request
    jobs:
      chunkgate:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v4
            with:
              fetch-depth: 0
          - uses: chunkgate/chunkgate@REV
            with:
              fail-on: unstable

To install chunkgate elsewhere: pip install git+https://github.com/chunkgate/chunkgate@REV
"""


@cli.command()
@click.argument("base", required=False)
@click.argument("head", required=False)
@click.option(
    "--base",
    "base_option",
    metavar="auto|REV",
    help="The base revision; auto: the pull request's base under GitHub Actions, "
    "else the merge base with origin's default branch.",
)
@format_option(formats.DIFF)
@click.option(
    "--fail-on",
    default="",
    metavar="LIST",
    help="Exit 1 when any of these is present (comma-separated): unstable, removed, oversized.",
)
@config_option
@quiet_option
@reports_errors
def diff(
    *,
    base: str | None,
    head: str | None,
    base_option: str | None,
    fmt: str,
    fail_on: str,
    config_path: Path | None,
    quiet: bool,
) -> None:
    """Compare chunks between two revisions: BASE (default HEAD) and HEAD (default:
    the working tree). A...B compares the merge base of A and B with B.

    Reports added, removed, modified and moved chunks (old ID → new ID);
    --format plan writes the re-embed plan (JSON lines: upsert, update, rekey,
    delete, then the unchanged count). Exit status: 0, 1 when a --fail-on
    category is present, 2 usage, config or git errors.
    """
    from chunkgate.diff.compare import diff_revisions, fail_reasons, parse_fail_on
    from chunkgate.git.autobase import resolve_auto_base
    from chunkgate.report.diff import write_diff

    categories = parse_fail_on(fail_on)
    if base_option is not None:
        if head is not None:
            raise click.UsageError("give the base either as --base or as an argument, not both")
        base, head = base_option, base
    root = Path.cwd()
    if base == "auto":
        base = resolve_auto_base(root, os.environ)
    fmt = formats.DIFF.resolve(fmt, sys.stdout)
    if fmt == "plan":
        from chunkgate.ingest.reembed import plan, write_plan

        rows = plan(_load(config_path), base or "HEAD", head, revision_config=config_path is None)
        write_plan(rows, sys.stdout)
        if not categories:
            sys.exit(0)
    result = diff_revisions(root, base or "HEAD", head, config_path=config_path)
    if fmt != "plan" and (not quiet or fmt in ("json", "github")):
        write_diff(result, fmt, sys.stdout, fail_on=categories)
    reasons = fail_reasons(result, categories)
    for reason in reasons:
        _fail(reason)
    sys.exit(1 if reasons else 0)


def main() -> None:
    """The console script: run the command, then end the process without the
    interpreter's teardown.

    Freeing every module, class and cached pattern one by one took 15-20 ms of a
    0.17 s hook run, for a process whose work is done: its files were written and
    closed and its worker pools shut down by the commands themselves; what is left
    is run here (the ``atexit`` functions, a plugin's or coverage's too) and the
    output flushed.
    """
    import atexit

    if os.environ.get("CHUNKGATE_DEBUG_GIT") == "1":
        from chunkgate.git import process

        atexit.register(
            lambda: print(f"chunkgate: {process.process_count()} git processes", file=sys.stderr)
        )
    try:
        cli(prog_name="chunkgate")
        status = 0
    except SystemExit as exc:
        status = _exit_status(exc.code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: as Python's own exit reports it
            status = status or 120
    os._exit(status)


def _exit_status(code: object) -> int:
    """The status ``sys.exit(code)`` ends the process with (a message is printed)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


@cli.command("eval")
@click.argument("golden", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-k", "k", type=click.IntRange(min=1), default=5, show_default=True,
              help="How many chunks each query retrieves.")  # fmt: skip
@click.option("--base", metavar="REV", help="Also run the queries against the corpus at REV.")
@click.option(
    "--max-drop",
    type=click.FloatRange(min=0, max=1),
    default=0.0,
    show_default=True,
    help="With --base: exit 1 when recall@k falls by more than this.",
)
@click.option(
    "--min-recall",
    type=click.FloatRange(min=0, max=1),
    help="Exit 1 when recall@k is below this.",
)
@format_option(formats.EVAL)
@config_option
@reports_errors
def eval_command(
    *,
    golden: Path,
    k: int,
    base: str | None,
    max_drop: float,
    min_recall: float | None,
    fmt: str,
    config_path: Path | None,
) -> None:
    """Run GOLDEN's queries (YAML or JSON lines) against a BM25 index of the corpus's chunks.

    Reports recall@k and MRR@k per query and overall. With --base REV the same
    queries run against the corpus at REV, read from git. Exit status: 0, 1
    when recall fell by more than --max-drop (or is under --min-recall), 2 errors.
    """
    from chunkgate.evaluate.retrieval import run_eval
    from chunkgate.report.evaluate import write_eval

    report = run_eval(
        Path.cwd(),
        golden,
        k=k,
        base=base,
        max_drop=max_drop,
        min_recall=min_recall,
        config_path=config_path,
    )
    write_eval(report, formats.EVAL.resolve(fmt, sys.stdout), sys.stdout)
    reasons = report.failures()
    for reason in reasons:
        _fail(reason)
    sys.exit(1 if reasons else 0)


@cli.command("lint")
@click.argument("export", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--against",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Another export of the same corpus: report chunks whose ID changed (CG608).",
)
@click.option(
    "--field",
    "fields",
    multiple=True,
    metavar="NAME=KEY",
    help="Where a field is in each row: text, id, source or heading = a key, dotted "
    "for nested ones (--field source=metadata.file_path).",
)
@format_option(formats.CHECK)
@config_option
@quiet_option
@reports_errors
def lint_command(
    *,
    export: Path,
    against: Path | None,
    fields: tuple[str, ...],
    fmt: str,
    config_path: Path | None,
    quiet: bool,
) -> None:
    """Apply chunkgate's rules to chunks another pipeline exported (JSON lines or JSON).

    Reads LangChain, LlamaIndex, chonkie, ChunkLint and chunkgate exports.
    Exit status: 0 clean (warnings allowed), 1 errors found, 2 errors.
    """
    from chunkgate.lint import FIELDS, lint_export

    mapping: dict[str, str] = {}
    for item in fields:
        name, sep, key = item.partition("=")
        if not sep or name not in FIELDS or not key:
            raise click.BadParameter(
                f"{item!r}: expected NAME=KEY with NAME one of {', '.join(FIELDS)}",
                param_hint="--field",
            )
        mapping[name] = key
    result = lint_export(_load(config_path), export, against=against, fields=mapping)
    _write_report(result, fmt, None, quiet)
    sys.exit(1 if result.errors else 0)


@cli.command("refs")
@click.argument(
    "files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "--field",
    metavar="KEY",
    help="Read IDs from this key (JSON, JSON lines, YAML) or column (CSV), whatever their "
    "shape, instead of finding path#identity strings.",
)
@click.option("--fix", is_flag=True, help="Rewrite IDs through recorded moves (moved_from).")
@format_option(formats.REFS)
@config_option
@quiet_option
@reports_errors
def refs(
    *,
    files: tuple[Path, ...],
    field: str | None,
    fix: bool,
    fmt: str,
    config_path: Path | None,
    quiet: bool,
) -> None:
    """Check that the chunk IDs other files cite (eval sets, citations, notes) exist.

    An ID that moved (moved_from in the manifest) is named with where it went;
    --fix rewrites it there, changing nothing else in the file. Exit status: 0
    every ID exists (after --fix), 1 some do not, 2 errors.
    """
    from chunkgate.evaluate.citations import check_files, corpus_ids
    from chunkgate.report.citations import write_citations

    known, moved, suffixes = corpus_ids(Path.cwd(), config_path=config_path)
    result = check_files(list(files), known, moved, field=field, fix=fix, suffixes=suffixes)
    fmt = formats.REFS.resolve(fmt, sys.stdout)
    if not quiet or fmt == "json":
        write_citations(result, fmt, sys.stdout)
    sys.exit(1 if result.broken else 0)
