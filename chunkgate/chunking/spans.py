"""Backtick code spans and inline link markup, found in one pass.

These replace regular expressions that backtrack on hostile lines (issue 18):
``(`+)(.+?)\\1`` and ``(`+)(?:(?!\\1).)+?\\1`` tried every length of the
opening run against every later position of the line (a line of 8,000
backticks took minutes), and the inline-markup pattern of definition terms
scanned to the end of the line from every unclosed ``[``. Each function here
returns exactly what the pattern's ``finditer`` or ``sub`` did, in time linear
in the text; tests/test_spans.py compares them with the old patterns.
"""

from __future__ import annotations

from collections.abc import Iterator

from chunkgate.core.regex import lazy

_WORD = lazy(r"\w")
_RUN = lazy("`+")


class _Runs:
    """The runs of backticks of a text: start, length, and the longest run from each
    one to the end of its line (``.`` matches anything but a newline)."""

    def __init__(self, text: str) -> None:
        self.starts: list[int] = []
        self.lengths: list[int] = []
        lines: list[int] = []
        line = end = 0
        for run in _RUN.finditer(text):
            line += text.count("\n", end, run.start())
            end = run.end()
            self.starts.append(run.start())
            self.lengths.append(end - run.start())
            lines.append(line)
        self.longest = list(self.lengths)
        for index in range(len(self.starts) - 2, -1, -1):
            if lines[index] == lines[index + 1]:
                self.longest[index] = max(self.longest[index], self.longest[index + 1])
        self.line = lines

    def later(self, index: int) -> int:
        """The longest run after run ``index`` on its line (0: none)."""
        after = index + 1
        same = after < len(self.starts) and self.line[after] == self.line[index]
        return self.longest[after] if same else 0

    def closer(self, index: int, length: int) -> int:
        """Where the first run after run ``index`` of at least ``length`` starts."""
        after = index + 1
        while self.lengths[after] < length:
            after += 1
        return self.starts[after]


def code_spans(text: str, *, closer_inside: bool) -> Iterator[tuple[int, int, int]]:
    """(start, length of the fence, end) of each match of ``(`+)(.+?)\\1``
    (``closer_inside``: the content may start with the fence) or of
    ``(`+)(?:(?!\\1).)+?\\1``, as ``finditer`` finds them."""
    if "`" not in text:
        return
    runs = _Runs(text)
    index, position = 0, runs.starts[0] if runs.starts else len(text)
    while index < len(runs.starts):
        end = runs.starts[index] + runs.lengths[index]
        position = max(position, runs.starts[index])
        if position >= end:
            index += 1
            continue
        rest = end - position  # the fence is at most the rest of this run
        beyond = min(rest, runs.later(index))
        if closer_inside:
            # The widest fence that closes inside the run itself, if wider than one beyond.
            fence = max((rest - 1) // 2, beyond)
            inside = fence <= (rest - 1) // 2
        else:
            fence = beyond if 2 * beyond > rest else 0
            inside = False
        if fence < 1:
            # No fence fits from here until the rest of the run is under twice the
            # longest run after it.
            position = max(position + 1, min(end, end - 2 * runs.later(index) + 1))
            continue
        close = position + fence + 1 if inside else runs.closer(index, fence)
        yield position, fence, close + fence
        position = close + fence
        while index < len(runs.starts) and runs.starts[index] + runs.lengths[index] <= position:
            index += 1


def blank_code_spans(text: str) -> str:
    """``text`` with each match of ``(`+).+?\\1`` made as many NUL characters."""
    out: list[str] = []
    done = 0
    for start, _, end in code_spans(text, closer_inside=True):
        out += [text[done:start], "\0" * (end - start)]
        done = end
    out.append(text[done:])
    return "".join(out)


def without_inline_markup(text: str) -> str:
    """``text`` as ``re.sub`` left it with the pattern
    ``!?\\[([^\\]]*)\\]\\([^)]*\\)|!?\\[([^\\]]*)\\]\\[[^\\]]*\\]|[`*]|(?<!\\w)_|_(?!\\w)``
    and the replacement ``group(1) or group(2) or ""``: links and references
    become their text, code and emphasis marks go."""
    out: list[str] = []
    size = len(text)
    close = -2  # the first "]" after the last "[" looked at; -1: there is none
    no_paren = no_bracket = False  # no ")" / "]" after some point: no link can end
    position = done = 0
    while position < size:
        char = text[position]
        bracket = position + 1 if char == "!" and text[position + 1 : position + 2] == "[" else -1
        if char == "[":
            bracket = position
        if bracket >= 0 and close != -1:
            if close <= bracket:
                close = text.find("]", bracket + 1)
            end = -1
            if close != -1 and text[close + 1 : close + 2] == "(" and not no_paren:
                end = text.find(")", close + 2)
                no_paren = end == -1
            if end == -1 and close != -1 and text[close + 1 : close + 2] == "[" and not no_bracket:
                end = text.find("]", close + 2)
                no_bracket = end == -1
            if end != -1:
                out.append(text[done:position])
                out.append(text[bracket + 1 : close])
                position = done = end + 1
                continue
        if (
            char in "`*"
            or (char == "_" and not _word(text, position - 1))
            or (char == "_" and not _word(text, position + 1))
        ):
            out.append(text[done:position])
            done = position + 1
        position += 1
    out.append(text[done:])
    return "".join(out)


def _word(text: str, position: int) -> bool:
    return 0 <= position < len(text) and _WORD.match(text, position) is not None


class _Next:
    """The next place each needle occurs at or after a position, for positions that only
    grow: each part of the text is searched once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: dict[str, int] = {}

    def __call__(self, needle: str, start: int) -> int:
        at = self.found.get(needle, -2)
        if at != -1 and at < start:
            at = self.found[needle] = self.text.find(needle, start)
        return at


def template_spans(text: str, *, output: bool) -> Iterator[tuple[int, int]]:
    """(start, end) of each match of ``\\{\\{[<%].*?[>%]\\}\\}|\\{%.*?%\\}`` (shortcodes and
    tags), with ``output`` also ``|\\{\\{(?![<%]).*?\\}\\}``, as ``finditer`` finds them: each
    closes at the first closer after it on its line."""
    after = _Next(text)
    position = text.find("{")
    while position != -1:
        line_end = after("\n", position)
        line_end = len(text) if line_end == -1 else line_end
        opener = text[position : position + 3]
        if opener in ("{{<", "{{%"):
            ends = [
                at for at in (after(">}}", position + 3), after("%}}", position + 3)) if at >= 0
            ]
            close, width = (min(ends) if ends else -1), 3
        elif opener.startswith("{%"):
            close, width = after("%}", position + 2), 2
        elif opener.startswith("{{") and output:
            close, width = after("}}", position + 2), 2
        else:
            close, width = -1, 0
        if close >= 0 and close + width <= line_end:
            yield position, close + width
            position = text.find("{", close + width)
        else:
            position = text.find("{", position + 1)
