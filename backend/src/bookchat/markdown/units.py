"""Answer units: the sentences and blocks of a section, each with its role and what it needs.

An answer is quoted in units, never in fragments: a prose sentence, a list item (shown with the
sentence that introduces the list), a table row (shown under its header), a code block (shown
after the sentence that introduces it), a sentence of an admonition. Each unit carries its role,
so page furniture (learning objectives, reading lists, exercises, summaries, self-checks) stays
searchable without ever being quoted as the answer when prose answers.

Ingest parses every section body once, with its heading path, and stores the units of each chunk
in its payload (`units_of_chunk`); query time reads them back (`payload_units`) and
parses only what is not stored: a reader's selection, a generated answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, cast

Role = Literal["prose", "definition", "list_item", "table_row", "code", "admonition", "furniture"]
ROLES: tuple[Role, ...] = (
    "prose",
    "definition",
    "list_item",
    "table_row",
    "code",
    "admonition",
    "furniture",
)

# Shared with the check of generated answers, which reads Markdown the same way.
FENCE = re.compile(r"^\s*(```|~~~)")
LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_QUOTE = re.compile(r"^\s*>\s?")
# A sentence ends at . ! or ? followed by space and something that can start a sentence.
# The closing quote or bracket after the mark stays with its sentence ('He said "Stop."').
# Never after a title or a Latin abbreviation ("Dr. Smith", "e.g. Git"): the sentence goes on.
_SENTENCE_END = re.compile(
    r"(?:(?<=[.!?])|(?<=[.!?][\"')\]]))"
    r"(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bDr\.)(?<!\bSt\.)(?<!\bJr\.)(?<!\bSr\.)"
    r"(?<!\bvs\.)(?<!\be\.g\.)(?<!\bi\.e\.)"
    r"\s+(?=[A-Z0-9`*_\"'(\[])"
)
_LETTER = re.compile(r"[A-Za-z]")
MIN_WORDS = 3

# Headings of page furniture: what a lesson says about itself rather than about its subject.
_FURNITURE_HEADING = re.compile(
    r"^(?:\d+(?:\.\d+)*\.?\s+)?(?:learning (?:objectives|outcomes|goals)|objectives|"
    r"prerequisites?|before you (?:begin|start)|what you(?:'ll| will) (?:learn|need|build)|"
    r"(?:additional |related |further |recommended )?(?:resources|reading)|references|"
    r"see also|official (?:tutorials|documentation|docs)|youtube channels|"
    r"(?:hands-on |practice |lab )?(?:exercises?|assignments?|labs?)\b.*|homework|"
    r"practice problems|"
    r"summary|key (?:takeaways|points|concepts)|takeaways|recap|wrap[- ]up|"
    r"check your understanding|self[- ](?:check|assessment)|quiz|review questions|"
    r"next (?:steps|lesson|chapter)|what's next|up next|table of contents|"
    r"submission|deliverables|grading(?: rubric)?|grade breakdown|academic integrity|"
    r"module assessment|weekly breakdown|extension ideas.*|task \d+\b.*|"
    r".*\(\d+ points?\))\s*[:!]?$",
    re.IGNORECASE,
)
# Sentences that are furniture wherever they stand.
_FURNITURE_SENTENCE = re.compile(
    r"^(?:after (?:completing|finishing) this|by the end of this|in this (?:lesson|chapter|module)"
    r",? you(?:'ll| will)|you will be able to|this (?:lesson|chapter|module) (?:covers|will)|"
    r"(?:complete|try) the (?:following )?(?:exercises?|assignment))",
    re.IGNORECASE,
)
_DEFINITION = re.compile(
    r"^(?:\*\*[^*]{1,60}\*\*|`[^`]{1,60}`|(?:an?|the)\s+[\w`*' -]{1,50}?|[\w`*' -]{1,50}?)"
    r"\s+(?:is|are|refers to|means|describes|stands for)\s+(?:a|an|the|when|how|what|any|one|"
    r"where|used|called|simply)\b",
    re.IGNORECASE,
)
_TERM_COLON = re.compile(r"^\*\*[^*]{1,60}\*\*\s*[:—–-]\s+\S")
# A sentence opening on one of these leans on the sentence before it ("It picks the first that is
# set of: …", "This adds your workspace's packages …"): quoted alone, it does not say what about.
ANAPHOR = re.compile(r"^(?:\*\*)?(?:this|these|that|those|it|its|they|their|such)\b", re.I)
_LINK_ONLY = re.compile(r"^\s*(?:\*\*)?\[?[^\]]{0,80}\]?\(?https?://\S+\)?\s*(?:[-—:].{0,80})?$")


@dataclass(frozen=True, slots=True)
class Unit:
    """One quotable piece of a section, in Markdown as written."""

    text: str  # a sentence, "- item", "| a | b |", a fenced block, "> sentence"
    role: Role
    lead: str = ""  # shown before it: a list's lead-in, a table's header rows, a code's intro
    block: int = 0  # units of one paragraph, list, table or quote share a block number
    # The sentence of its paragraph a unit opening on a pronoun leans on ("Git stores snapshots."
    # before "It never stores diffs."), shown before it; kept with the unit because a chunk may
    # start between the two.
    before: str = ""

    @property
    def plain(self) -> str:
        """The words to embed and match: markers off, a table row read with its header."""
        if self.role == "table_row" or (self.lead.startswith("|") and self.text.startswith("|")):
            header = _cells(self.lead.splitlines()[0]) if self.lead else []
            cells = _cells(self.text)
            if header and len(header) == len(cells):
                return "; ".join(f"{h}: {c}" for h, c in zip(header, cells, strict=True))
            return "; ".join(cells)
        if self.role == "code" or FENCE.match(self.text):
            body = "\n".join(line for line in self.text.splitlines() if not FENCE.match(line))
            return f"{self.lead} {body}".strip()[:600]
        text = _QUOTE.sub("", LIST_ITEM.sub("", self.text, count=1))
        if self.role in ("list_item", "furniture") and announces(self.lead):
            # "**Action Components**:" names what each item is one of: the item alone does not.
            return f"{self.lead} {text}"
        return text

    def to_json(self) -> list[Any]:
        """Compact form stored in payloads: [text, role, lead, block, before]."""
        return [self.text, self.role, self.lead, self.block, self.before]

    @classmethod
    def from_json(cls, row: Sequence[Any]) -> Unit:
        """The unit stored by `to_json` (rows stored before `before` existed have four fields)."""
        role = cast(Role, str(row[1]) if str(row[1]) in ROLES else "prose")
        before = str(row[4]) if len(row) > 4 else ""
        return cls(str(row[0]), role, str(row[2]), int(row[3]), before)


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


# A selection arrives with its markup removed, so "... must force-push. git push --force ..."
# starts a sentence in lower case: split there too, unless the period ends an abbreviation.
_LOWER_START = re.compile(r"(?<=[a-z0-9)][.!?])\s+(?=[a-z][\w-]* [\w-]+ )")
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|no|fig|ch|sec)\.)$", re.I)


# "**1. Missing function**:" splits after "**1."; the number belongs to what follows it, and
# alone it is dropped as unquotable, leaving "Missing function**:" with its bold broken.
_ENUMERATOR = re.compile(r"^[*_]*(?:\d{1,3}|[A-Za-z])[.)]$")


def _open_code(sentence: str) -> bool:
    """An inline code span is still open at the end of `sentence` (odd count of lone backticks)."""
    return re.sub(r"`{2,}", "", sentence).count("`") % 2 == 1


# A piece ending in an initial after a name or another initial ("John B.", "U.S.") goes on in
# the next one ("Weller signed it", "Army"); "written in C." ends its sentence.
_INITIAL = re.compile(r"(?:\b[A-Z][a-z]+ |\b[A-Z]\. ?|^)[A-Z]\.$")


def _sentences(text: str) -> list[str]:
    out: list[str] = []
    pieces = _SENTENCE_END.split(text)
    for i in range(len(pieces) - 1):
        if _INITIAL.search(pieces[i]) or _ENUMERATOR.match(pieces[i].strip()):
            pieces[i + 1] = f"{pieces[i].strip()} {pieces[i + 1]}"
            pieces[i] = ""
    for piece in pieces:
        parts = _LOWER_START.split(piece)
        for part in parts:
            if (
                out
                and (len(out[-1].split()) < 4 or _ABBREVIATION.search(out[-1]))
                and part is not parts[0]
            ):
                out[-1] = f"{out[-1]} {part.strip()}"
            elif part.strip():
                out.append(part.strip())
    # "titled `fixup! Add invoice model`;" is one sentence: an end mark inside inline code
    # ends nothing, and splitting there breaks the code span in both halves. Only a piece with a
    # backtick (one that may close the span) joins: a stray backtick must not glue a paragraph.
    whole: list[str] = []
    for sentence in out:
        if whole and _open_code(whole[-1]) and "`" in sentence:
            whole[-1] = f"{whole[-1]} {sentence}"
        else:
            whole.append(sentence)
    return whole


def _quotable(text: str) -> bool:
    return len(text.split()) >= MIN_WORDS and bool(_LETTER.search(text))


def is_furniture_heading(heading: str) -> bool:
    """True for a heading of page furniture ("Learning Objectives", "7. Additional Resources")."""
    return bool(_FURNITURE_HEADING.match(heading.strip().strip("*").strip()))


def _prose_role(sentence: str) -> Role:
    if _FURNITURE_SENTENCE.match(sentence.lstrip("*_ ")):
        return "furniture"
    if _DEFINITION.match(sentence) or _TERM_COLON.match(sentence):
        return "definition"
    return "prose"


@dataclass(slots=True)
class _Block:
    kind: Literal["prose", "list", "table", "code", "quote", "heading"]
    lines: list[str]


def _blocks(text: str) -> Iterator[_Block]:
    """Paragraphs, lists, tables, fenced code, quotes and headings, in reading order."""
    current: _Block | None = None
    in_fence = False
    for line in text.splitlines():
        if in_fence:
            assert current is not None
            current.lines.append(line.rstrip())
            if FENCE.match(line):
                in_fence = False
                yield current
                current = None
            continue
        if FENCE.match(line):
            if current:
                yield current
            current, in_fence = _Block("code", [line.rstrip()]), True
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            if current:
                yield current
            current = None
            if stripped:
                yield _Block("heading", [stripped])  # never quoted, but it ends a list
            continue
        kind: Literal["prose", "list", "table", "code", "quote"]
        if stripped.startswith("|") and stripped.count("|") >= 2:
            kind = "table"
        elif _QUOTE.match(line):
            kind = "quote"
        elif LIST_ITEM.match(line):
            kind = "list"
        elif current is not None and current.kind == "list":
            kind = "list"  # a continuation line of the item above
        else:
            kind = "prose"
        if current is None or current.kind != kind:
            if current:
                yield current
            current = _Block(kind, [])
        current.lines.append(line.rstrip())
    if current:
        yield current


def _list_items(lines: Sequence[str]) -> list[tuple[int, str]]:
    """A list's items with their indent (continuation lines joined to the item above)."""
    items: list[tuple[int, str]] = []
    for line in lines:
        marker = LIST_ITEM.match(line)
        if marker or not items:
            items.append((len(marker.group(1)) if marker else 0, line.strip()))
        else:
            indent, text = items[-1]
            items[-1] = (indent, f"{text} {line.strip()}")
    return items


def announces(text: str) -> bool:
    """Whether a sentence or item ends on a colon, announcing what follows ("**Key Points**:")."""
    return text.rstrip("*_` ").endswith(":")


def _prose_units(sentences: Sequence[str], block: int) -> list[Unit]:
    """A paragraph's quotable sentences, each opening on a pronoun with the one before it."""
    found: list[Unit] = []
    previous = ""
    for sentence in sentences:
        if _quotable(sentence):
            before = previous if previous and ANAPHOR.match(sentence) else ""
            found.append(Unit(sentence, _prose_role(sentence), "", block, before))
        previous = sentence
    return found


def split_units(markdown: str, heading_path: Sequence[str] = ()) -> list[Unit]:
    """The units of a section's Markdown (or of any passage), in reading order."""
    furniture = any(is_furniture_heading(h) for h in heading_path[1:])
    units: list[Unit] = []
    last_sentence = ""  # the prose sentence just before the current block
    list_lead = ""  # the lead-in of the list being read, kept across its blank lines
    parents: list[tuple[int, str]] = []  # the open items above the next one: (indent, text)
    previous = ""  # the kind of the block before
    for number, block in enumerate(_blocks(markdown)):
        found: list[Unit] = []
        if block.kind == "heading":
            last_sentence, previous = "", block.kind
            continue
        if block.kind == "prose":
            text = " ".join(line.strip() for line in block.lines)
            found = _prose_units(_sentences(text), number)
        elif block.kind == "quote":
            text = " ".join(_QUOTE.sub("", line).strip() for line in block.lines)
            found = [Unit(f"> {s}", "admonition", "", number) for s in _sentences(text)]
            found = [u for u in found if _quotable(u.text[2:])]
        elif block.kind == "list":
            if previous != "list":
                # A blank line between items does not end a list: its lead-in still holds.
                list_lead, parents = last_sentence, []
            for indent, item in _list_items(block.lines):
                while parents and parents[-1][0] >= indent:
                    parents.pop()
                # A nested item belongs to the item above it ("3. **Install space**:" over
                # "- Setup scripts for sourcing your workspace"), which announces it.
                above = LIST_ITEM.sub("", parents[-1][1], count=1) if parents else ""
                lead = above if announces(above) else list_lead
                parents.append((indent, item))
                role: Role = (
                    "furniture" if _LINK_ONLY.match(LIST_ITEM.sub("", item)) else "list_item"
                )
                if _quotable(LIST_ITEM.sub("", item)):
                    found.append(Unit(item, role, lead, number))
        elif block.kind == "table":
            rows = [line.strip() for line in block.lines]
            header_end = next((i for i, r in enumerate(rows) if _TABLE_SEPARATOR.match(r)), -1)
            lead = "\n".join(rows[: header_end + 1]) if header_end >= 0 else ""
            for row in rows[header_end + 1 :]:
                if _quotable(" ".join(_cells(row))):
                    found.append(Unit(row, "table_row", lead, number))
        else:
            intro = last_sentence if announces(last_sentence) else ""
            found = [Unit("\n".join(block.lines), "code", intro, number)]
        if furniture:
            found = [replace(u, role="furniture") for u in found]
        units.extend(found)
        # A lead-in may be too short to quote on its own ("Robots need:"), never to introduce.
        said = _sentences(" ".join(line.strip() for line in block.lines))
        last_sentence = said[-1] if block.kind == "prose" and said else ""
        previous = block.kind
    return units


_QUOTE_MARK = re.compile(r"(?:^|(?<=\s))>(?=\s)")


def _key(text: str) -> str:
    # Only the words decide: the chunker joins a paragraph's lines, quote marks included.
    return re.sub(r"\s+", "", _QUOTE_MARK.sub("", text))


def units_of_chunk(section_units: Sequence[Unit], chunk_text: str) -> list[Unit]:
    """The section's units that the chunk holds, whole: a unit the chunker cut (a very long
    sentence) belongs to the chunk where it starts, and a carried-over tail is never a unit."""
    chunk = _key(chunk_text)
    out = []
    for unit in section_units:
        key = _key(unit.text)
        if key in chunk or (len(key) > 300 and key[:120] in chunk):
            out.append(unit)
    return out


def payload_units(payload: Mapping[str, Any]) -> list[Unit]:
    """A stored chunk's units: as ingest stored them, else parsed from its text."""
    stored = payload.get("units")
    if isinstance(stored, list):
        return [Unit.from_json(row) for row in stored]
    heading_path = payload.get("heading_path") or []
    return split_units(str(payload.get("text", "")), [str(h) for h in heading_path])
