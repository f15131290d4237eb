from __future__ import annotations

import re
from pathlib import Path

import pytest
from identify.vendor.licenses import LICENSES

from chunkgate.chunking import chunk_document
from chunkgate.config.model import Config
from chunkgate.core.model import Severity
from chunkgate.rules import license
from chunkgate.rules.base import FileContext, Finding

TEXTS = dict(LICENSES)

_README = """\
# Example

Example parses configuration files and validates them against a schema. It
works with YAML, TOML and JSON, reports every problem with its line, and can
fix the simple ones for you.

## Install

Install it with pip:

```console
$ pip install example
```

## License

{license}

## Contributing

Open an issue before a large change, and run the tests with `tox` first.
"""


def _readme(spdx: str) -> str:
    return _README.format(license=TEXTS[spdx].strip())


def _findings(
    tmp_path: Path, text: str, path: str = "README.md", **severities: Severity
) -> list[Finding]:
    config = Config(root=tmp_path, severities=severities)
    chunked = chunk_document(text, path, options=config.chunking)
    file = FileContext(path, len(text.encode()), text, chunked.chunks, config, chunked.problems)
    return list(license.check(file))


def _section(text: str, heading: str) -> int:
    return text.split("\n").index(heading) + 1


@pytest.mark.parametrize("spdx", ["MIT", "Apache-2.0", "GPL-3.0", "BSD-3-Clause", "ISC"])
def test_fires_on_a_license_pasted_into_a_readme(tmp_path: Path, spdx: str) -> None:
    text = _readme(spdx)
    (finding,) = _findings(tmp_path, text)
    line = _section(text, "## License")
    assert (finding.code, finding.line) == ("CG302", line)
    assert finding.chunk is not None
    assert finding.chunk.id == "README.md#license"
    assert finding.message.startswith("section is ")
    assert f"% {spdx} license text (" in finding.message
    assert finding.fix == (
        "replace the license text with one line that names the license and links LICENSE"
    )


@pytest.mark.parametrize("spdx", ["MIT", "Apache-2.0", "GPL-3.0", "Unlicense", "MPL-2.0"])
@pytest.mark.parametrize(
    ("path", "severities"),
    [
        pytest.param("docs/License.md", {}, id="a-name-cg301-does-not-know"),
        pytest.param("LICENSE.md", {"CG301": "off"}, id="cg301-off"),
    ],
)
def test_fires_once_on_a_license_file(
    tmp_path: Path, spdx: str, path: str, severities: dict[str, Severity]
) -> None:
    text = TEXTS[spdx].replace("[year] [fullname]", "2024 Ana Example")
    (finding,) = _findings(tmp_path, text, path, **severities)
    assert (finding.code, finding.line, finding.chunk) == ("CG302", 1, None)
    assert re.fullmatch(
        rf"file is (9\d|100)% {spdx} license text \([\d,]+ words\)", finding.message
    )
    anchored = path if "/" in path else f"/{path}"  # a root name, not the name in any folder
    assert finding.fix == f'exclude it in .chunkgate.yaml: exclude: ["{anchored}"]'


@pytest.mark.parametrize("path", ["LICENSE", "LICENSE.md", "docs/license.md", "COPYING.md"])
def test_a_license_file_cg301_reports_is_not_reported_twice(tmp_path: Path, path: str) -> None:
    assert _findings(tmp_path, TEXTS["MIT"], path) == []


def test_a_license_split_by_its_own_headings_is_one_finding(tmp_path: Path) -> None:
    # GPL-3.0 as choosealicense's Markdown renders it: a heading per section.
    body = TEXTS["GPL-3.0"].strip()
    body = body.replace("TERMS AND CONDITIONS", "### TERMS AND CONDITIONS")
    body = body.replace("  0. Definitions.", "#### 0. Definitions.")
    body = body.replace("  1. Source Code.", "#### 1. Source Code.")
    body = body.replace("  2. Basic Permissions.", "#### 2. Basic Permissions.")
    text = _README.format(license=body)
    chunks = chunk_document(text, "README.md").chunks
    assert len(chunks) > 6
    (finding,) = _findings(tmp_path, text)
    assert finding.line == _section(text, "## License")
    assert "(4 sections) are" in finding.message
    assert "GPL-3.0 license text" in finding.message


def test_a_reflowed_and_edited_license_still_fires(tmp_path: Path) -> None:
    mit = TEXTS["MIT"].replace("[year] [fullname]", "2019 Sebastián Ramírez")
    reflowed = " ".join(mit.split()).replace("Software", "software")
    (finding,) = _findings(tmp_path, f"# Project\n\nIntro.\n\n## License\n\n{reflowed}\n")
    assert "MIT license text" in finding.message


_APACHE_HEADER = """\
# Copyright 2024 Example Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""


def test_a_python_license_header_belongs_to_no_chunk_and_does_not_fire(tmp_path: Path) -> None:
    source = _APACHE_HEADER + "import os\n\n\ndef main():\n    return os.getcwd()\n"
    assert _findings(tmp_path, source, "src/main.py") == []
    (chunk,) = chunk_document(source, "src/main.py").chunks
    assert chunk.start_line == 14
    assert "License" not in chunk.text


def test_a_license_in_the_module_docstring_is_the_header_and_does_not_fire(tmp_path: Path) -> None:
    docstring = _APACHE_HEADER.replace("# ", "").replace("#", "")
    source = f'"""Parse things.\n\n{docstring}"""\nimport os\n\n\ndef main():\n    return 1\n'
    assert _findings(tmp_path, source, "src/main.py") == []


def test_a_license_pasted_into_python_code_fires_with_an_spdx_fix(tmp_path: Path) -> None:
    notice = _APACHE_HEADER.replace("# ", "").replace("#", "")
    source = f'"""Parse things."""\nimport os\n\n__license__ = """\n{notice}"""\n'
    (finding,) = _findings(tmp_path, source, "src/main.py")
    assert finding.line == 1
    assert finding.chunk is not None
    assert "Apache-2.0 license text" in finding.message
    assert (
        finding.fix
        == "shorten the license header to one line: # SPDX-License-Identifier: Apache-2.0"
    )


@pytest.mark.parametrize(
    ("text", "path"),
    [
        pytest.param(
            "# Example\n\n## License\n\nLicensed under the MIT License.\n",
            "README.md",
            id="one-line",
        ),
        pytest.param(
            "# SPDX-License-Identifier: MIT\nimport os\n\n\ndef main():\n    return os.getcwd()\n",
            "src/main.py",
            id="spdx-header",
        ),
        pytest.param(
            "# Example\n\n## License\n\n"
            "This project is licensed under the terms of the MIT license. You can use it in "
            "commercial and open source projects, modify it and distribute it, as long as you "
            "keep the copyright notice. The documentation is licensed under CC-BY-4.0, and the "
            "logo is a trademark of the project: ask before you use it for your own product. "
            "See the LICENSE file and the FAQ for the details, or ask on the forum if in doubt.\n",
            "README.md",
            id="a-paragraph-about-licensing",
        ),
        pytest.param(
            "# Metadata\n\n```python\napp = FastAPI(\n    license_info={\n"
            '        "name": "Apache 2.0",\n'
            '        "url": "https://www.apache.org/licenses/LICENSE-2.0.html",\n'
            "    },\n)\n```\n\n"
            "The license_info parameter sets the license of the exposed API: the name of the "
            "license and a URL to the license used for the API, shown in the docs UI.\n",
            "docs/metadata.md",
            id="license-in-code",
        ),
        pytest.param(
            "# Warranty\n\n" + " ".join(["The device has a two year warranty."] * 20) + "\n",
            "docs/warranty.md",
            id="many-words-no-license",
        ),
        pytest.param("", "docs/empty.md", id="empty"),
    ],
)
def test_no_op(tmp_path: Path, text: str, path: str) -> None:
    assert _findings(tmp_path, text, path) == []


def test_license_quoted_in_a_long_section_does_not_fire(tmp_path: Path) -> None:
    own = (
        "We chose a permissive license on purpose. Companies can embed the parser in "
        "closed products, students can copy the examples into their homework, and nobody "
        "has to ask us first. What we ask in return is attribution, which the license "
        "spells out in one sentence. "
    ) * 4
    sentence = (
        "The above copyright notice and this permission notice shall be included in all "
        "copies or substantial portions of the Software."
    )
    assert _findings(tmp_path, f"# Why MIT\n\n{own}\n\n> {sentence}\n\n{own}\n") == []


def test_every_license_text_passes_the_prefilter() -> None:
    for spdx, text in LICENSES:
        assert any(stem in text for stem in license._STEMS), spdx


def test_every_license_matches_itself() -> None:
    for spdx, text in LICENSES:
        words = license._words(text)
        match = license._best(license._shingles(words), len(words))
        assert match is not None
        assert (match.spdx, match.found) == (spdx, match.total)
