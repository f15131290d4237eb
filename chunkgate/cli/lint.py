"""``chunkgate lint``: chunkgate's rules applied to another pipeline's exported chunks."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from chunkgate.cli.check import write_report
from chunkgate.cli.errors import reports_errors
from chunkgate.cli.options import config_option, format_option, load, quiet_option
from chunkgate.report import formats


def _field_keys(
    _context: click.Context, _param: click.Parameter, items: tuple[str, ...]
) -> dict[str, str]:
    """``--field NAME=KEY`` options as ``{NAME: KEY}``."""
    # imported per command: the rules over exported rows, which the hook never needs
    from chunkgate.lint import FIELDS

    mapping: dict[str, str] = {}
    for item in items:
        name, sep, key = item.partition("=")
        if not sep or name not in FIELDS or not key:
            raise click.BadParameter(
                f"{item!r}: expected NAME=KEY with NAME one of {', '.join(FIELDS)}",
                param_hint="--field",
            )
        mapping[name] = key
    return mapping


@click.command("lint")
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
    callback=_field_keys,
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
    fields: dict[str, str],
    fmt: str,
    config_path: Path | None,
    quiet: bool,
) -> None:
    """Apply chunkgate's rules to chunks another pipeline exported (JSON lines or JSON).

    Reads LangChain, LlamaIndex, chonkie, ChunkLint and chunkgate exports.
    Exit status: 0 clean (warnings allowed), 1 errors found, 2 errors.
    """
    # imported per command: the rules over exported rows, which the hook never needs
    from chunkgate.lint import lint_export

    result = lint_export(load(config_path), export, against=against, fields=fields)
    write_report(result, fmt, None, quiet)
    sys.exit(1 if result.errors else 0)
