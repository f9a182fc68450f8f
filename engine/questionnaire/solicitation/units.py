"""A solicitation's pages split into units: sentences and list items, each a verbatim span of its
page's text, with the document's own numbering and the heading path it sits under.

A line that starts with a marker (a section number "1.3.1", "3.01"; an enumerator "A." "a)" "(iv)"
"1."; a bullet) starts a new block, the marker left out of the text; so does a line after a blank
line and a running header or footer (a line found at the same place on several pages), which is
skipped. A block is split into sentences; a sentence ending in ':' is the lead-in of the items
below it, which carry it; an inline enumeration ("must be (i) … (ii) … and (iii) …") is split into
its items, the words before it their lead-in. Lines under a lead-in that begin with the same word
("Category 1 - …", "Category 3 - …") are items too. Short all-capital lines and numbered short
lines without a sentence are headings: they name the section, they are not units.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from engine.questionnaire.solicitation.records import Page, Unit

_SECTION = re.compile(r"^(\d{1,2}(?:\.\d{1,3}){1,4})\.?(?=\s|$)")
_ENUM = re.compile(r"^(?:\((?P<p>[A-Za-z]|[ivxIVX]{1,5}|\d{1,2})\)|(?P<c>[A-Za-z]|[ivxIVX]{1,5}|\d{1,2})[.)])(?=\s|$)")
_BULLET = re.compile(r"^[•●○■▪◦➢►◆◇✓·*\-–](?=\s|$)")
_PAGE_NO = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s+of\s+\d{1,4})?$", re.I)
_ABBREV = re.compile(
    r"(?:\b(?:U\.S|e\.g|i\.e|etc|No|Nos|Inc|Co|Corp|Ltd|St|vs|Sec|Mr|Ms|Mrs|Dr|Jr|min|yrs|approx|ref|Ref|"
    r"Art|para|Para|Fig|Vol|Ch|al|Attach|Rev|Dept|Govt|Ft|a\.m|p\.m)|(?<!{labels} )\b[A-Z])\.$".format(
        labels=" )(?<!".join(
            "Attachment Appendix Exhibit Section Part Schedule Annex Volume Pool Tab Form Phase".split()
        )
    )
)  # an initial ("John C. Smith"), not a label's letter ("… quoted in Attachment C. Attachment C should …")
ABBREV_REACH = 24  # characters before a cut that tell an abbreviation or an initial (searching more is slow)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"“(A-Z])|(?<=[.!?][\"”)])\s+(?=[\"“(A-Z])")
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_DATED_ROW_END = re.compile(  # a schedule row ends with its date (and time): "… August 13, 2025 1:00 PM (HST) State's …"
    rf"\b(?:{_MONTHS}) \d{{1,2}}, \d{{4}}(?:,?\s+\d{{1,2}}:\d{{2}}\s*[AaPp]\.?[Mm]\.?(?:\s*\([A-Z]{{2,4}}\))?)?"
    r"(?P<gap>\s+)(?=[A-Z][a-z’']+\b)(?!(?:Eastern|Central|Mountain|Pacific|Hawaii|Alaska|Standard|Daylight|Time)\b)"
)


@dataclass(frozen=True)
class _Cut:
    """Where one sentence ends and the next begins (the gap between them), like a match's span."""

    a: int
    b: int

    def start(self) -> int:
        return self.a

    def end(self) -> int:
        return self.b


_COLON_END = re.compile(r"(?<=:)\s+(?=\S)")
_FOLLOWING = re.compile(r"\b(?:the following|as follows|below)\b[^.]{0,120}\.$", re.I)
_INLINE = re.compile(r"(?:(?<=\s)|^)(?:\((?P<m>[ivx]{1,4}|[a-z]|\d{1,2})\)|(?P<n>[a-z]|\d{1,2})\))\s")
_CAPS_HEAD = re.compile(r"^[A-Z][A-Z0-9 &/,'’().\-–]{2,80}-(?=[A-Z][a-z])")  # "BID FORMS-Unless …"
_HEADING_WORDS = 8  # a line of capitals longer than this is a sentence in capitals, not a heading
_SHORT_LINE = 50  # a longer line after a list's last item starts a paragraph, it does not continue the item
_CLAUSE_REF = re.compile(r"^(?:FAR|DFARS|GSAM|GSAR|HSAR|AFARS|DOSAR|AIDAR)\s+\d{2,3}\.\d")
_ROMAN = frozenset("i ii iii iv v vi vii viii ix x xi xii".split())


@dataclass(frozen=True)
class _Block:
    page: Page
    start: int
    end: int
    marker: str  # as written: "1.3.1", "A.", "(iv)", "•", ""
    first_line: int
    line_count: int


def _edge_lines(page: Page) -> frozenset[str]:
    """The lines at the top (4) and bottom (3) of a page, where running headers and footers sit."""
    texts = [page.text[a:b] for a, b in (*page.lines[:4], *page.lines[-3:])]
    return frozenset(texts)


def _repeated(seen: Counter[str], pages: int) -> frozenset[str]:
    if pages < 3:
        return frozenset()
    need = max(3, pages // 3)
    return frozenset(t for t, n in seen.items() if n >= need and len(t) < 80)


def running_lines(pages: Sequence[Page]) -> frozenset[str]:
    """Lines that repeat at the top or bottom of several pages (running headers and footers)."""
    seen: Counter[str] = Counter()
    for page in pages:
        seen.update(_edge_lines(page))
    return _repeated(seen, len(pages))


def _marker(line: str) -> tuple[str, int]:
    """The marker a line starts with and where its text begins ("" and 0 for none)."""
    for pattern in (_SECTION, _ENUM, _BULLET):
        m = pattern.match(line)
        if m:
            rest = line[m.end() :]
            return m.group(0), m.end() + (len(rest) - len(rest.lstrip()))
    return "", 0


def blocks(page: Page, skip: frozenset[str]) -> list[_Block]:
    """The page's blocks: runs of lines from one marker (or paragraph break) to the next."""
    out: list[_Block] = []
    current: list[int] = []  # [start, end, first line, count]
    marker, pending = "", ""

    def close() -> None:
        nonlocal current, marker
        if current:
            out.append(_Block(page, current[0], current[1], marker, current[2], current[3]))
        current, marker = [], ""

    for index, (a, b) in enumerate(page.lines):
        line = page.text[a:b]
        if line in skip or _PAGE_NO.match(line):
            close()
            continue
        found, offset = _marker(line)
        if found and offset >= len(line):  # a marker alone on its line: the next line is its text
            close()
            pending = found
            continue
        if found or pending or index in page.gaps or not current or _CLAUSE_REF.match(line):
            close()
            marker, pending = (found or pending), ""
            current = [a + offset, b, index, 1]
            continue
        current[1], current[3] = b, current[3] + 1
    close()
    return out


def _style(marker: str, previous: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """(style, label) of a marker: 'sec', 'num', 'upper', 'lower', 'roman', 'bullet'."""
    bare = marker.strip("().")
    if _SECTION.match(marker):
        return "sec", marker.rstrip(".")
    if _BULLET.match(marker):
        return "bullet", ""
    if bare.isdigit():
        return "num", bare
    if bare.lower() in _ROMAN:
        letters = [label for style, label in previous if style in ("lower", "upper")]
        after = letters and letters[-1].lower() == chr(ord(bare.lower()[0]) - 1)  # "h" then "i": a letter
        if not (len(bare) == 1 and after):
            return "roman", bare.lower()
    return ("upper" if bare.isupper() else "lower"), bare


def _id_part(style: str, label: str) -> str:
    if style in ("upper", "lower"):
        return label
    if style in ("num", "roman"):
        return f"({label})"
    return ""


def _heading_like(text: str) -> bool:
    """A heading: a short line of capitals, or a short phrase without a verb-like end ('Scope')."""
    words = text.split()
    if not words or len(words) > 12 or text.endswith((".", ";", ",")) and len(words) > 4:
        return False
    letters = [c for c in text if c.isalpha()]
    if letters and sum(c.isupper() for c in letters) / len(letters) > 0.8:
        return True
    core = text.rstrip(":").strip()
    return len(words) <= 7 and not core.endswith((".", ";", ",")) and core[:1].isupper() and " shall " not in core


def _wordy(line: str) -> bool:
    """Mostly letters: a heading's words, not a clause number ("GSAM 533.103") or a code."""
    chars = [c for c in line if not c.isspace()]
    return bool(chars) and sum(c.isalpha() for c in chars) >= 2 * len(chars) / 3


def _caps_heading(line: str) -> bool:
    """A line of capitals that names a part ("STATEMENT OF WORK"), not a sentence in capitals."""
    return (
        line.isupper()
        and _wordy(line)
        and _heading_like(line)
        and len(line.split()) <= _HEADING_WORDS
        and not re.search(r"\b(SHALL|MUST|WILL|SHOULD|MAY|ARE|IS)\b", line)
    )


def split_sentences(text: str, line_ends: frozenset[int] = frozenset()) -> list[tuple[int, int]]:
    """(start, end) of the sentences of ``text`` (an abbreviation or an initial does not end one);
    a ':' at the end of a line (an offset in ``line_ends``) ends one too (a lead-in)."""
    spans, start = [], 0
    cuts = sorted(
        [m for m in _SENTENCE_END.finditer(text)]
        + [m for m in _COLON_END.finditer(text) if m.start() in line_ends]
        + [_Cut(m.start("gap"), m.end("gap")) for m in _DATED_ROW_END.finditer(text)],
        key=lambda m: m.start(),
    )
    for m in cuts:
        head = text[start : m.start()]
        if m.start() < start or _ABBREV.search(head[-ABBREV_REACH:]) or not head.strip():
            continue
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip()]


_CONDITION = re.compile(r"\b(?:if|when|whenever|unless|where|in the event|provided that)\b", re.I)
_OBLIGES = re.compile(r"\b(?:shall|must|will|should|may|agrees?)\b", re.I)  # the items are what is obliged


def _inline_items(text: str) -> list[tuple[int, int]] | None:
    """The items of an inline enumeration "(i) … (ii) …" / "(a) … (b) …" (two or more in sequence);
    None for alternative conditions (the last one after "or", the words before them a condition with
    no modal after its "if", "when", "unless"…), which count once."""
    found = list(_INLINE.finditer(text))
    if len(found) < 2:
        return None
    labels = [m.group("m") or m.group("n") for m in found]
    if labels[0] not in ("i", "a", "1"):
        return None
    conditions = list(_CONDITION.finditer(text[: found[0].start()]))
    lead = text[conditions[-1].end() : found[0].start()] if conditions else "shall"
    if re.search(r"\s+or\s*$", text[: found[-1].start()]) and not _OBLIGES.search(lead):
        return None  # "If a Contractor (i) fails … or (ii) fails …, then …": alternative conditions, one requirement
    spans = []
    for m, nxt in zip(found, found[1:] + [None], strict=True):
        end = nxt.start() if nxt else len(text)
        piece = text[m.end() : end].rstrip()
        for tail in (" and", " or", ","):
            if piece.endswith(tail) and nxt is not None:
                piece = piece[: -len(tail)].rstrip()
        spans.append((m.end(), m.end() + len(piece)))
    return spans


def _repeated_head_items(
    page: Page, block: _Block, a: int, b: int, head: str = ""
) -> tuple[list[tuple[int, int]], str] | None:
    """Lines under a lead-in starting with the same word ("Category 1 - …"): one item each, a line
    that does not start so continuing the item above it; with the word. ``head``: the word the
    items above (on the page before) began with."""
    lines = [
        (max(s, a), min(e, b))
        for s, e in page.lines[block.first_line : block.first_line + block.line_count]
        if e > a and s < b
    ]
    heads = [page.text[s:e].split(" ", 1)[0] for s, e in lines]
    if not lines or not heads[0][:1].isupper() or (head and heads[0] != head):
        return None
    starts = [i for i, h in enumerate(heads) if h == heads[0]]
    if len(starts) < (1 if head else 2):
        return None
    spans = []
    for i, s in enumerate(starts):
        last = (starts[i + 1] if i + 1 < len(starts) else len(lines)) - 1
        if i + 1 == len(starts):  # the last item: its own line and lines without a sentence end
            last = s
            while (
                last + 1 < len(lines)
                and not page.text[lines[last][0] : lines[last][1]].endswith((".", ":"))
                and lines[last + 1][1] - lines[last + 1][0] < _SHORT_LINE
            ):
                last += 1
        spans.append((lines[s][0], lines[last][1]))
    return spans, heads[0]


@dataclass
class _Lead:
    text: str
    depth: int  # the list depth of the block it ends (0: not a list item)
    head: str = ""  # the word its unnumbered items begin with


@dataclass
class _State:
    """Where the walk through a file stands: its numbering, headings and open lead-in."""

    section: str = ""  # the section number ("1.3.1")
    stack: list[tuple[str, str]] = field(default_factory=list)  # the enumerators below it: (style, label)
    headings: dict[str, str] = field(default_factory=dict)  # section depth ("" = part) -> heading text
    lead: _Lead | None = None
    part_page: int = 0  # the page the part heading ("") was set on

    @property
    def number(self) -> str:
        return self.section + "".join(_id_part(s, lab) for s, lab in self.stack)

    @property
    def path(self) -> tuple[str, ...]:
        return tuple(self.headings[k] for k in sorted(self.headings, key=lambda k: (k != "", k)))


def _next_line(page: Page, block: _Block, marker: str) -> _Block:
    """``block`` without its first line (a heading)."""
    start = page.lines[block.first_line + 1][0]
    return _Block(page, start, block.end, marker, block.first_line + 1, block.line_count - 1)


def _place(state: _State, page: Page, block: _Block) -> tuple[_Block, str] | None:
    """The block's numbering and headings taken into ``state``; the block left to split into
    units and its list style ("" for none), or None when it was a heading only."""
    text = page.text[block.start : block.end]
    style, label = _style(block.marker, state.stack) if block.marker else ("", "")
    a0, b0 = page.lines[block.first_line]
    head_line = page.text[max(a0, block.start) : b0]
    titled = head_line.isupper() and _heading_like(head_line)
    clause = style == "num" and not titled and bool(_CAPS_HEAD.match(head_line))  # "51. PACKING SLIPS-All …"
    if style == "sec" or (style == "num" and titled) or clause:
        state.section, state.stack, state.lead = label, [], None
        depth = len(re.sub(r"(\.0)+$", "", label).split("."))
        cover = state.part_page == 1 and page.number > 1  # a cover page's capitals name no part of the body
        state.headings = {k: v for k, v in state.headings.items() if (k == "" and not cover) or k and int(k) < depth}
        if titled or (_heading_like(text) and len(split_sentences(text)) == 1):
            state.headings[str(depth)] = head_line.rstrip(":").strip()
            if block.line_count == 1 or head_line == text:
                if head_line.endswith(":"):
                    state.lead = _Lead(head_line, 0)
                return None
            return _next_line(page, block, block.marker), ""
        named = re.match(r"^([A-Z][A-Za-z/&,\- ]{2,60}?):\s", text)
        if named and len(named.group(1).split()) <= 6:
            state.headings[str(depth)] = named.group(1)
        return block, ""
    if style:
        positions = [s for s, _ in state.stack]
        if style in positions:
            state.stack = state.stack[: positions.index(style)]
        state.stack = [*state.stack, (style, label)]
        return block, style
    if text.isupper() and _wordy(text) and _heading_like(text):
        state.headings, state.lead, state.part_page = {"": text.rstrip(":").strip()}, None, page.number
        return None
    if not block.marker and block.line_count > 1 and _caps_heading(head_line):
        state.headings, state.lead, state.part_page = {"": head_line.rstrip(":").strip()}, None, page.number
        return _next_line(page, block, ""), ""
    return block, ""


WINDOW = 60  # running headers are looked for in this many pages around a page (a whole file up to this long)


def page_units(pages: Iterable[Page]) -> list[Unit]:
    """The units of a file's pages, in document order (see the module docstring)."""
    return list(stream_units(pages))


def stream_units(pages: Iterable[Page], window: int = WINDOW) -> Iterator[Unit]:
    """The units of a file's pages as the pages come, holding at most ``window`` pages: a page is
    split once ``window // 2`` pages after it have been read (its running headers and footers are
    those of the ``window`` pages around it), so a 1,000-page file never sits whole in memory. A
    file of up to ``window`` pages is split exactly as :func:`running_lines` over all its pages
    says. Stopping the iteration early loses nothing of the units already given."""
    seen: deque[frozenset[str]] = deque()  # the edge lines of the last ``window`` pages read
    count: Counter[str] = Counter()  # how many of them each edge line is on
    todo: deque[Page] = deque()  # read, not yet split
    walk = _Walk()
    for page in pages:
        seen.append(_edge_lines(page))
        count.update(seen[-1])
        if len(seen) > window:
            for line in seen.popleft():
                count[line] -= 1
                if not count[line]:
                    del count[line]
        todo.append(page)
        while len(seen) == window and todo and page.number - todo[0].number >= window // 2:
            yield from walk.page(todo.popleft(), _repeated(count, len(seen)))
    skip = _repeated(count, len(seen))
    while todo:
        yield from walk.page(todo.popleft(), skip)
    yield from walk.close()


class _Walk:
    """The walk through one file's pages in order: its numbering, headings and open lead-in
    (``_State``), and the last unit, held until the next shows whether it leads a list."""

    def __init__(self) -> None:
        self.state = _State()
        self.held: Unit | None = None

    def page(self, page: Page, skip: frozenset[str]) -> Iterator[Unit]:
        for unit in _units_of_page(self.state, page, skip):
            held, self.held = self.held, unit
            if held is not None:
                yield replace(held, leads=True) if unit.lead_in and unit.lead_in == held.text else held

    def close(self) -> Iterator[Unit]:
        if self.held is not None:
            yield self.held
        self.held = None


def _units_of_page(state: _State, page: Page, skip: frozenset[str]) -> list[Unit]:
    """The units of one page, the walk's ``state`` carried from the page before."""
    out: list[Unit] = []
    paragraph = 0
    for n, block in enumerate(blocks(page, skip)):
        placed = _place(state, page, block)
        if placed is None:
            continue
        block, style = placed
        depth = len(state.stack) if style else 0
        lead = state.lead
        continuing = n == 0 and not block.marker and lead is not None and lead.head
        if lead is not None and not continuing and not (style and depth > lead.depth):
            state.lead = lead = None
        paragraph += 1
        if continuing and lead is not None:
            listed = _repeated_head_items(page, block, block.start, block.end, lead.head)
            state.lead = None
            if listed:
                out.extend(
                    _unit(page, s, e, state.number, state.path, lead.text, True, paragraph) for s, e in listed[0]
                )
                if listed[0][-1][1] >= block.end:
                    continue
                block = _Block(page, listed[0][-1][1] + 1, block.end, "", block.first_line, block.line_count)
        out.extend(_sentence_units(state, page, block, bool(style), depth, paragraph))
    return out


def _sentence_units(state: _State, page: Page, block: _Block, item: bool, depth: int, paragraph: int) -> list[Unit]:
    """The units of one block: its sentences, a lead-in's items below it, an inline list's items."""
    out: list[Unit] = []
    number, path = state.number, state.path
    start = block.start
    caps = _CAPS_HEAD.match(page.text[start : block.end])
    if caps:
        start += caps.end()
    ends = frozenset(e - start for _, e in page.lines[block.first_line : block.first_line + block.line_count])
    sentences = [(start + a, start + b) for a, b in split_sentences(page.text[start : block.end], ends)]
    for i, (a, b) in enumerate(sentences):
        sentence = page.text[a:b]
        carried = state.lead.text if state.lead is not None and item and i == 0 else ""
        last = i == len(sentences) - 1
        if sentence.endswith(":") or (last and _FOLLOWING.search(sentence)):
            out.append(_unit(page, a, b, number, path, carried, item and i == 0, paragraph))
            state.lead = _Lead(sentence, depth if i == 0 else max(0, depth - 1))
            if i + 1 < len(sentences):
                listed = _repeated_head_items(page, block, sentences[i + 1][0], block.end)
                if listed:
                    state.lead.head = listed[1]
                    out.extend(_unit(page, s, e, number, path, sentence, True, paragraph) for s, e in listed[0])
                    rest = listed[0][-1][1]
                    if rest < block.end:  # sentences after the items
                        for x, y in split_sentences(page.text[rest : block.end]):
                            out.append(_unit(page, rest + x, rest + y, number, path, "", False, paragraph))
                        state.lead = None
                    break
            continue
        inline = _inline_items(sentence)
        if inline:
            words = re.sub(r"\s*\(?\w\)$", "", sentence[: inline[0][0]].strip())
            if words:
                out.append(_unit(page, a, a + len(words), number, path, carried, item and i == 0, paragraph))
            out.extend(_unit(page, a + s, a + e, number, path, words, True, paragraph) for s, e in inline)
            continue
        out.append(_unit(page, a, b, number, path, carried, item and i == 0, paragraph))
    return out


def _unit(
    page: Page, a: int, b: int, number: str, path: tuple[str, ...], lead: str, item: bool, paragraph: int
) -> Unit:
    return Unit(page.file, page.number, a, b, page.text[a:b].strip(), number, path, lead, item, paragraph)


__all__ = ["WINDOW", "blocks", "page_units", "running_lines", "split_sentences", "stream_units"]
