"""Per-language tree-sitter wheels against language packs: size, wheels, import time.

    python benchmarks/treesitter_bindings.py [WORK_DIR]

Downloads (with pip, no install) the ``code`` extra's wheels and the two
language packs, for Linux, macOS and Windows on Python 3.10 and 3.13, and
prints what each choice weighs, whether every platform has a wheel, and
how long importing ``tree_sitter`` and loading one grammar takes here.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import tomllib

PLATFORMS = ("manylinux2014_x86_64", "manylinux2014_aarch64", "macosx_11_0_arm64", "win_amd64")
PYTHONS = ("3.10", "3.13")
PACKS = ("tree-sitter-language-pack", "tree-sitter-languages")


def extra() -> list[str]:
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    return list(tomllib.loads(pyproject.read_text())["project"]["optional-dependencies"]["code"])


def download(requirements: list[str], target: Path, platform: str, python: str) -> list[Path]:
    target.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
         "--platform", platform, "--python-version", python, "-d", str(target), *requirements],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    return sorted(target.glob("*.whl")) if done.returncode == 0 else []


def unpacked(wheels: list[Path]) -> int:
    return sum(i.file_size for w in wheels for i in zipfile.ZipFile(w).infolist())


def import_ms(statement: str) -> float:
    runs = []
    for _ in range(5):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", statement],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        last = done.stderr.strip().splitlines()[-1]
        runs.append(int(last.split("|")[1]) / 1000)
    return sorted(runs)[len(runs) // 2]


def main(argv: list[str]) -> int:
    work = Path(argv[1] if len(argv) > 1 else "/tmp/chunkgate-bindings")
    requirements = extra()
    print("| choice | platform | Python | wheels | download MB | installed MB |")
    print("|---|---|---|---|---|---|")
    for name, wanted in (("per-language (code extra)", requirements), *((p, [p]) for p in PACKS)):
        for platform in PLATFORMS:
            for python in PYTHONS:
                target = work / name.split()[0] / f"{platform}-{python}"
                wheels = download(wanted, target, platform, python)
                size = sum(w.stat().st_size for w in wheels) / 1e6
                print(
                    f"| {name} | {platform} | {python} | {len(wheels)}/{len(wanted)} | "
                    f"{size:.1f} | {unpacked(wheels) / 1e6:.1f} |"
                )
    print()
    print(f"import tree_sitter: {import_ms('import tree_sitter'):.1f} ms")
    load = "import tree_sitter, tree_sitter_rust as r; tree_sitter.Language(r.language())"
    print(f"import tree_sitter + one grammar: {import_ms(load):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
