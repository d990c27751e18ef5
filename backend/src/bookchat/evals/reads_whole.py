"""Does an answer read whole? The faults a reader sees at a glance, whatever the words score.

Token F1 cannot tell "1. **Visual** … 3. **Inertial**" from the whole list, nor an answer that
opens on "It picks the first that is set" from one that says what "it" is: both share the same
words with a reference. These checks look at the shape of what the reader reads instead:

- `opens_on_pronoun`: the answer's first sentence leans on one the reader was not shown
  ("This adds your workspace's packages …");
- `starts_mid_sentence`: a paragraph opens on a lower-case word, a closing bracket, or "(" and a
  lower-case word, as a cut sentence does ("(one repository) or in `~/.config/git/ignore` …");
- `dangling_lead`: a line ending in a colon announces what never comes (the answer ends there, or
  prose follows where a list, table or command should);
- `list_gap`: a numbered list that does not count 1, 2, 3 (an item was left out);
- `broken_markup`: an unpaired `**`, inline backtick or code fence ("Perception**: The ability").

bookchat's own introduction of a passage ("The most relevant passage, from “…”:", or of an
overview: "The authors' own summary of “…”:") is not part of the quoted text and is skipped; its
note after a lead-in whose script was too long to quote stands for that script. Abstentions are
not judged: they quote nothing.
"""

from __future__ import annotations

import re
from dataclasses import astuple

from bookchat.answer.phrases import CATALOGUE
from bookchat.markdown.units import ANAPHOR, FENCE, LIST_ITEM
from bookchat.overview.said import ENGLISH, FRENCH

_MARKERS = re.compile(r"\s*\[\d+(?:\s*,\s*\d+)*\]")
_NUMBERED = re.compile(r"^[ \t]*(\d{1,3})[.)][ \t]+")
_STRUCTURE = re.compile(r"^[ \t]*(?:[-*+|>#]|\d{1,3}[.)]|`{3,}|~{3,})")
_CUT_OPENING = re.compile(r"^(?:[a-z]|[,;:)\]]|\([a-z])")
_CUT_OPENING_PLAIN = re.compile(r"^(?:[,;:)\]]|\([a-z])")
FAULTS = ("opens_on_pronoun", "starts_mid_sentence", "dangling_lead", "list_gap", "broken_markup")


def _intro(line: str) -> bool:
    """bookchat's own line introducing a quoted passage or an overview, in any language it
    writes."""
    templates = [phrases.passage_intro for phrases in CATALOGUE.values()]
    templates += [t for said in (ENGLISH, FRENCH) for t in astuple(said)]
    for template in templates:
        head, _, tail = re.sub(r"\{(?:section|title|count)\}", "{}", template).partition("{}")
        if line.startswith(head) and line.endswith(tail):
            return True
    return False


def _lines(answer: str) -> list[str]:
    """The quoted text's lines: citation markers removed, the passage introduction dropped."""
    lines = [_MARKERS.sub("", line).rstrip() for line in answer.strip().splitlines()]
    if lines and _intro(lines[0]):
        lines = lines[1:]
    return lines


def _prose_blocks(lines: list[str]) -> list[tuple[int, str]]:
    """(line index, text) of every paragraph that is plain prose, outside code fences."""
    blocks: list[tuple[int, str]] = []
    fenced, previous_blank = False, True
    for i, line in enumerate(lines):
        if FENCE.match(line):
            fenced = not fenced
            previous_blank = False
            continue
        if fenced:
            continue
        if line.strip() and previous_blank and not _STRUCTURE.match(line):
            blocks.append((i, line.strip()))
        previous_blank = not line.strip()
    return blocks


def _continued(line: str) -> bool:
    """bookchat's note that what the lead-in before it introduces is in the cited section."""
    return line in {phrases.continued_in_source for phrases in CATALOGUE.values()}


def _dangling(lines: list[str]) -> bool:
    fenced = False
    content = [(i, line) for i, line in enumerate(lines) if line.strip()]
    for k, (_, line) in enumerate(content):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced or not line.rstrip("*_` ").endswith(":"):
            continue
        after = content[k + 1][1] if k + 1 < len(content) else None
        if after is None or not (_STRUCTURE.match(after) or _continued(after)):
            return True
    return False


def _list_gap(lines: list[str]) -> bool:
    expected: int | None = None
    for line in lines:
        if not line.strip():
            continue
        numbered = _NUMBERED.match(line)
        if numbered is None:
            # An indented or bulleted line belongs to the current item; anything else ends it.
            if not (line.startswith((" ", "\t")) or LIST_ITEM.match(line)):
                expected = None
            continue
        number = int(numbered.group(1))
        if number != (expected or 1):
            return True
        expected = number + 1
    return False


def _broken_markup(lines: list[str]) -> bool:
    fences = sum(1 for line in lines if FENCE.match(line))
    if fences % 2:
        return True
    fenced = False
    for line in lines:
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        if line.count("**") % 2 or re.sub(r"`{2,}", "", line).count("`") % 2:
            return True
    return False


def read_faults(answer: str, *, markup: bool = True) -> list[str]:
    """The names (from FAULTS) of what keeps `answer` from reading whole; [] when nothing does.

    `markup=False` for a quote of a reader's selection, which arrives as plain text: there a
    sentence may open on a command that lost its backticks ("git push --force overwrites …")."""
    lines = _lines(answer)
    if not any(line.strip() for line in lines):
        return []
    blocks = _prose_blocks(lines)
    cut = _CUT_OPENING if markup else _CUT_OPENING_PLAIN
    first = next(line for line in lines if line.strip())
    found = {
        "opens_on_pronoun": bool(
            blocks and blocks[0][1] == first.strip() and ANAPHOR.match(first.strip())
        ),
        "starts_mid_sentence": any(cut.match(text) for _, text in blocks),
        "dangling_lead": _dangling(lines),
        "list_gap": _list_gap(lines),
        "broken_markup": _broken_markup(lines),
    }
    return [name for name in FAULTS if found[name]]
