"""Tables drawn without rules, their columns aligned by text position only: found from the words
of a page outside its ruled tables and given as :class:`~engine.questionnaire.pdf.flat.ruled.Table`
values, so that the same readers read them as a ruled table (header.py, options.py, rows.py).

A **header** is a visual row (words on one baseline, within 3 pt) of three or more phrases (words
closer to each other than 0.45 of their height: a space; an option's label run together with the next
column's, "Non-Compliant Comments", is two), one naming a question column and another
an ID, answer, notes or option column, half of them or more naming one (not a justified line of
prose whose wide spaces part every word; :func:`~engine.questionnaire.pdf.flat.header.column_role`
and the table model's option words: "Requirement | In Place | Not in Place", "番号 | 要求事項 | 回答 |
備考"); a visual row right under it whose phrases are all option labels, each under one of its
phrases, is its second row ("Response" over "Yes | No | N/A"). The **columns** start where the
header's phrases start (a second row's options replacing the label spanning them) and end where
the next starts. The **rows** below: a row starts at a visual row with text in the first column
(its ID, where the first column holds IDs; else a requirement starting with an ID, or one after a
wider gap than between a row's lines), the visual rows that do not go on from it (a requirement
wrapped over lines); the table ends at a visual row with text left of its first column, or after a
gap of more than three lines, unless the row after the gap starts with an ID of the same shape as the
row's before it ("QU02" after "QU01": the blank answer space of that row printed empty). A header
naming an ID column over one row starting with an ID is a table too (a section's table of one
requirement: "ID | % | Requirement" over "SV01 | 10% | How will you …"). A **checklist's header**, two
or more short labels naming no question column over rows each an item beside a box alone under
another label ("SCHEDULE HEADING | COMPLETED?") or, under a second label of option words ("Document |
Y / N"), nothing there, heads a table of those rows only (no row at the next page's top goes on with
it). Rows at the top of the next page that start with an ID at the
table's first column go on with it, its header not repeated, and so do the lines before them that
start at one of its columns (the rest of its last row, broken by the page); so do rows there with text
at its first column and only boxes to tick at the starts of two or more of its other columns
("Requirement 7: ☐ ☐ ☐ ☐" under a summary's header on the page before), as far as such rows go.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.questionnaire.pdf.flat.asking import asks
from engine.questionnaire.pdf.flat.boxes import option_words
from engine.questionnaire.pdf.flat.header import column_role, id_like, leading_id
from engine.questionnaire.pdf.flat.ruled import Row, Table, inside, joined_ids, unbroken
from engine.questionnaire.pdf.layout import Box, PageText, Word, is_glyph
from engine.questionnaire.table_model import OPTION_WORDS

_SAME_ROW = 3.0  # points between the centres of words on one visual row
_PHRASE_GAP = 0.45  # of a word's height: more between two words starts a new phrase (a space is about 0.25)


@dataclass(frozen=True)
class _Visual:
    """Words on one baseline, as phrases left to right."""

    y0: float
    y1: float
    phrases: tuple[tuple[Word, ...], ...]

    def text(self, i: int) -> str:
        return " ".join(w.text for w in self.phrases[i])

    def x0(self, i: int) -> float:
        return self.phrases[i][0].box.x0


def aligned_tables(
    text: PageText, ruled: list[Table], height: float, columns: tuple[float, ...] = ()
) -> tuple[list[Table], tuple[float, ...]]:
    """The tables of ``text`` drawn without rules (see the module docstring), outside ``ruled``, and
    the column edges of the last (else ``columns``). ``columns``: the edges of the last such table of
    the pages before; rows at the top of this page (below a running header in its top 7 %, from its first
    line where none is in the paper's top 7 %: a page printed lower) that start
    with an ID at its first column go on with it, its header not repeated."""
    words = [w for line in text.lines for w in line.words if not any(inside(w.box, t.box) for t in ruled)]
    rows = visual_rows(words)
    out: list[Table] = []
    top = min((row.y0 for row in rows), default=0.0)
    top = top if top > 0.07 * height else 0.0  # nothing in the paper's top 7 %: the page printed lower, from its top
    r = next(
        (
            i
            for i, row in enumerate(rows)
            if row.y0 > top + 0.07 * height
            or _starts_row(row, columns)
            or _boxed_row(row, columns)
            or _header(row)
            or _answer_header(rows, i) is not None
        ),
        len(rows),
    )
    if columns and r < len(rows) and _boxed_row(rows[r], columns):  # "Requirement 7: ☐ ☐ ☐ ☐" under no header
        n = next((k for k in range(r, len(rows)) if not _boxed_row(rows[k], columns)), len(rows))
        out.append(_table([], [e + 2 for e in columns[:-1]], columns[-1], [[row] for row in rows[r:n]]))
        r = n
    while columns and 0 < r < len(rows) and _line_before(rows, r, columns):  # the rest of a row, in the top 7 %
        r -= 1
    if columns and r < len(rows) and (_starts_row(rows[r], columns) or _rest_of_row(rows, r, columns)):
        xs = [e + 2 for e in columns[:-1]]
        first = next(row for row in rows[r:] if _starts_row(row, columns))
        data, r = _body(rows, r, xs, rows[r].y0, rows[r].y1 - rows[r].y0, id_like(first.text(0)))
        out.append(_table([], xs, columns[-1], data))
    checklist = False  # the last table is a checklist
    while r < len(rows):
        table, r, listed = _table_at(rows, r)
        if table is not None:
            out.append(table)
            checklist = listed
    if out:
        last = out[-1]
        columns = () if checklist else tuple(c.x0 for c in last.rows[-1].cells if c is not None) + (last.box.x1,)
    return out, columns


def _starts_row(row: _Visual, columns: tuple[float, ...]) -> bool:
    """Whether ``row`` starts a row of the table of ``columns``: an ID at its first column."""
    return bool(columns) and abs(row.x0(0) - columns[0]) <= 3 and _numbered(row.text(0))


def _boxed_row(row: _Visual, columns: tuple[float, ...]) -> bool:
    """Whether ``row`` is a row of the table of ``columns`` whose cells right of its first are boxes to
    tick ("Requirement 7: ☐ ☐ ☐ ☐", no ID): text at its first column, then a box at the start of each
    of two or more of its columns and nothing else."""
    if len(columns) < 3 or len(row.phrases) < 3 or abs(row.x0(0) - columns[0]) > 3 or is_glyph(row.text(0)):
        return False
    rest = range(1, len(row.phrases))
    return all(is_glyph(row.text(i)) and any(abs(row.x0(i) - x) <= 6 for x in columns[1:-1]) for i in rest)


def _line_before(rows: list[_Visual], r: int, columns: tuple[float, ...]) -> bool:
    """Whether visual row ``r - 1`` is a line of the row ``r`` goes on from or starts (no header,
    starting at one of the table's columns, at most a line's height above it: not a running header)."""
    above = rows[r - 1]
    near = rows[r].y0 - above.y1 <= max(above.y1 - above.y0, rows[r].y1 - rows[r].y0)
    return near and not _header(above) and any(abs(above.x0(0) - x) <= 3 for x in columns[:-1])


def _rest_of_row(rows: list[_Visual], r: int, columns: tuple[float, ...]) -> bool:
    """Whether visual row ``r``, at the top of a page, is the rest of the last row of the table of
    ``columns`` broken by the page: it starts at one of the table's columns and a row starting with an
    ID at the table's first column follows within three visual rows."""
    return (
        not _header(rows[r])
        and any(abs(rows[r].x0(0) - x) <= 3 for x in columns[:-1])
        and any(_starts_row(row, columns) for row in rows[r + 1 : r + 4])
    )


def _numbered(text: str) -> bool:
    """An ID, or a requirement starting with one ("1.2.1 The provider shall …")."""
    return id_like(text) or bool(leading_id(text)[0])


def visual_rows(words: list[Word]) -> list[_Visual]:
    """Words as visual rows (centres within ``_SAME_ROW``), each as phrases left to right; an ID wrapped
    at its last dot in a narrow column joined (``joined_ids``: "9.4.1." over "1" is "9.4.1.1")."""
    rows: list[list[Word]] = []
    for w in sorted(words, key=lambda w: (w.box.cy, w.box.x0)):
        if rows and abs(rows[-1][0].box.cy - w.box.cy) <= _SAME_ROW:
            rows[-1].append(w)
        else:
            rows.append([w])
    out = []
    for row in joined_ids([sorted(row, key=lambda w: w.box.x0) for row in rows]):
        phrases: list[list[Word]] = [[row[0]]]
        for w in row[1:]:
            if w.box.x0 - phrases[-1][-1].box.x1 > _PHRASE_GAP * max(w.box.height, 1.0):
                phrases.append([w])
            else:
                phrases[-1].append(w)
        out.append(_Visual(min(w.box.y0 for w in row), max(w.box.y1 for w in row), tuple(map(tuple, phrases))))
    return out


def _is_option(label: str) -> bool:
    return bool(OPTION_WORDS.match(" ".join(label.split())))


def label_role(text: str) -> str | None:
    """A header phrase's role: its column's, an option's, or, for a label of three or four words, its
    last word's ("PCI DSS Requirement", "Control Question": the noun the words before qualify); for one
    of three to five words whose first word names a question column, that one's (the noun a name after
    it qualifies, where a language puts it first: "Exigence PCI DSS", "Requisito de la PCI DSS")."""
    words = text.split()
    last = column_role(words[-1]) if 2 < len(words) <= 4 else None
    first = "question" if 2 < len(words) <= 5 and column_role(words[0]) == "question" else None
    return column_role(text) or ("option" if _is_option(text) else None) or last or first


def _parted(row: _Visual) -> _Visual:
    """``row`` with each phrase that is an option's label run together with the next column's label
    parted into the two ("Non-Compliant Comments": the labels printed 3 pt apart; not "Not in Place")."""
    phrases: list[tuple[Word, ...]] = []
    for p in row.phrases:
        words = [w.text for w in p]
        cut = next(
            (i for i in range(1, len(p)) if _is_option(" ".join(words[:i])) and label_role(" ".join(words[i:]))),
            None,
        )
        phrases += [p] if cut is None or _is_option(" ".join(words)) else [p[:cut], p[cut:]]
    return _Visual(row.y0, row.y1, tuple(phrases))


def _header(row: _Visual) -> bool:
    """Whether ``row`` is a header (see the module docstring); a row holding a box to tick is none: it is
    answered ("Yes I have a Statement   ☐", an option one a line with its box after its label)."""
    row = _parted(row)
    if len(row.phrases) < 3 or any(is_glyph(w.text) for p in row.phrases for w in p):
        return False
    roles = [label_role(row.text(i)) for i in range(len(row.phrases))]
    named = sum(r is not None for r in roles)
    return "question" in roles and named >= 2 and 2 * named >= len(roles)  # not a justified line of prose


def _two_labels_over_options(rows: list[_Visual], r: int) -> bool:
    """A header of two labels, a question column's and one over the option labels a few lines under it
    ("PCI DSS Requirement | Requirement Responses" over "In Place | In Place with CCW | …": the SAQ's
    summary of its responses, "Requirement 1: ☐ ☐ ☐ ☐"), too few phrases for a header on its own."""
    head = _parted(rows[r])
    roles = [label_role(head.text(i).rstrip("* ")) for i in range(len(head.phrases))]  # a footnote mark aside
    return (
        len(roles) == 2 and roles[0] == "question" and roles[1] is not None and _wrapped_options(rows, r)[0] is not None
    )


def _answer_header(rows: list[_Visual], r: int) -> float | None:
    """A header of two labels, the right naming an answer or notes column and the left a short label
    ("Information Required | Explanation": the PCI SAQ's compensating controls worksheet), over two rows
    or more (no gap of more than three lines) with text under the left label and none under the right
    one (the answers left to write): the x where those rows start (a column of their titles left of the
    header: "Constraints"), else None."""
    head = _parted(rows[r])
    if len(head.phrases) != 2 or label_role(head.text(1)) not in ("answer", "comment"):
        return None
    if len(head.text(0).split()) > 6 or label_role(head.text(0)) not in (None, "question"):
        return None
    body: list[_Visual] = []
    last, pitch = head.y1, max(head.y1 - head.y0, 8.0)
    for row in rows[r + 1 :]:
        if row.y0 - last > 3 * pitch:
            break
        body.append(row)
        last = row.y1
    left = min([head.x0(0)] + [row.x0(0) for row in body[:1]])
    asked = sum(any(abs(row.x0(i) - head.x0(0)) <= 3 for i in range(len(row.phrases))) for row in body)
    answered = any(w.box.x1 > head.x0(1) - 3 for row in body for p in row.phrases for w in p)
    inside_left = all(row.x0(0) >= left - 3 for row in body)
    return left if asked >= 2 and not answered and inside_left else None


def _checklist_head(rows: list[_Visual], r: int) -> bool:
    """A checklist's header: two or more short labels (six words at most, no box) naming no question
    column ("SCHEDULE HEADING | COMPLETED?", "Unterlage | Beigefügt", "Document | Y / N"), right over
    a row of the checklist (:func:`_boxed`; flat/boxes.py ``checklist_rows`` reads the table)."""
    head = rows[r]
    if len(head.phrases) < 2 or r + 1 >= len(rows):
        return False
    if any(len(p) > 6 or any(is_glyph(w.text) for w in p) for p in head.phrases):
        return False
    below = rows[r + 1]
    return below.y0 - head.y1 < 2 * (head.y1 - head.y0) and _boxed(head, [below])


def _boxed(head: _Visual, group: list[_Visual]) -> bool:
    """Whether a row of a checklist (its visual rows) starts under the header's first label and ends
    with one box alone under another label, with no other box; or, under a header of two labels, the
    second option words ("Document | Y / N") and the first neither asking nor numbered, holds no box,
    no option words and nothing under the second label (the answer to type in)."""
    first = group[0]
    last = first.phrases[-1]
    glyphs = [w for row in group for p in row.phrases for w in p if is_glyph(w.text)]
    if abs(first.x0(0) - head.x0(0)) > 3:
        return False
    k, label = len(head.phrases) - 1, head.text(0)
    if not glyphs and k == 1 and option_words(head.text(k)) and not (asks(label) or "?" in label or _numbered(label)):
        phrases = [p for row in group for p in row.phrases]
        typed = any(option_words(" ".join(w.text for w in p)) for p in phrases)
        return not typed and all(p[-1].box.x1 < head.x0(k) - 2 for p in phrases)
    return (
        len(first.phrases) >= 2
        and len(last) == 1
        and is_glyph(last[0].text)
        and (_over(head, last[0].box.x0) or 0) >= 1
        and glyphs == [last[0]]
    )


def _table_at(rows: list[_Visual], r: int) -> tuple[Table | None, int, bool]:
    """The table whose header is visual row ``r`` and the row after it, else (None, r + 1), and
    whether it is a checklist (its rows hold no IDs: no rows at the next page's top go on with it)."""
    head = _parted(rows[r])
    titles = _answer_header(rows, r)  # the x of a column of rows' titles left of the header, if any
    checklist = not (_header(head) or _two_labels_over_options(rows, r) or titles is not None)
    if checklist and not _checklist_head(rows, r):
        return None, r + 1, False
    starts = [(head.x0(i), head.y0) for i in range(len(head.phrases))]
    starts += [(titles, head.y0)] if titles is not None and titles < head.x0(0) - 5 else []
    headers = [head]
    below = rows[r + 1] if r + 1 < len(rows) else None
    if below is None or not (below.y0 - head.y1 < 2 * (head.y1 - head.y0) and _second_row(head, below)):
        below, skip = _wrapped_options(rows, r)
    else:
        skip = 1
    if below is not None:
        headers.append(below)
        spanned = {_over(head, below.x0(i)) for i in range(len(below.phrases))}
        starts = [s for i, s in enumerate(starts) if i not in spanned] + [
            (below.x0(i), below.y0) for i in range(len(below.phrases))
        ]
    xs = sorted(x for x, _ in starts)
    n = r + 1 + (skip if len(headers) > 1 else 0)
    ids = column_role(head.text(0)) == "id"
    data, n = _body(rows, n, xs, headers[-1].y1, head.y1 - head.y0, ids)
    if checklist:  # its rows: those with a box, the table ends at the first without
        data = data[: next((k for k, group in enumerate(data) if not _boxed(head, group)), len(data))]
        n = r + 1 + sum(len(group) for group in data)
    one = len(data) == 1 and ids and id_like(data[0][0].text(0))  # a section's table of one requirement
    if len(data) < 2 and not one:
        return None, r + 1, False
    right = max(w.box.x1 for group in [headers, *data] for row in group for p in row.phrases for w in p) + 2
    return _table(headers, xs, right, data), n, checklist


def _body(
    rows: list[_Visual], n: int, xs: list[float], last: float, pitch: float, ids: bool
) -> tuple[list[list[_Visual]], int]:
    """The table's rows from visual row ``n`` and the visual row after them: each a run of visual
    rows, the first with text in the first column; where that column holds no IDs (``ids`` false:
    the requirement, wrapped over lines), the first starting with an ID or after a wider gap than
    between a row's lines."""
    data: list[list[_Visual]] = []
    while n < len(rows):
        row = rows[n]
        far = row.y0 - last > 3 * max(pitch, 8.0) and not (ids and data and _next_id(data[-1][0], row, xs[0]))
        if row.x0(0) < xs[0] - 5 or far:
            break
        starts = row.x0(0) < xs[1] - 2 and (ids or _numbered(row.text(0)) or row.y0 - last > 0.3 * (row.y1 - row.y0))
        if starts or not data:
            data.append([row])
        else:
            data[-1].append(row)
        last = row.y1
        n += 1
    return data, n


def _next_id(before: _Visual, row: _Visual, x: float) -> bool:
    """Whether ``row`` starts with an ID of the same shape as the row ``before``'s, at the first
    column ``x`` ("QU02" after "QU01"): the table's next row, after the blank answer space of the
    row before printed empty (a gap wider than the table's ends it otherwise)."""
    a, b = before.text(0), row.text(0)
    shape = re.sub(r"\d", "0", a) == re.sub(r"\d", "0", b)
    return abs(row.x0(0) - x) <= 3 and abs(before.x0(0) - x) <= 3 and id_like(b) and shape and a != b


def _table(headers: list[_Visual], xs: list[float], right: float, data: list[list[_Visual]]) -> Table:
    """The table of ``headers`` (none, one or two visual rows) and ``data`` in the columns starting
    at ``xs``, its rules between its rows."""
    right = max([right] + [w.box.x1 + 2 for group in data for row in group for p in row.phrases for w in p])
    edges = [x - 2 for x in xs] + [right]
    left = edges[0]
    top = (headers[0] if headers else data[0][0]).y0 - 2
    bottom = data[-1][-1].y1 + 2
    out_rows = []
    if headers:
        head = headers[0]
        below_top = headers[1].y0 - 1 if len(headers) > 1 else head.y1 + 1
        out_rows.append(_header_row(head, edges, head.y0 - 2, below_top))
    if len(headers) > 1:
        below = headers[1]
        out_rows.append(Row(Box(left, below.y0 - 1, right, below.y1 + 1), _cells(edges, below.y0 - 1, below.y1 + 1)))
    tops = [group[0].y0 - 2 for group in data] + [bottom]
    for a, b in zip(tops, tops[1:]):
        out_rows.append(Row(Box(left, a, right, b), _cells(edges, a, b)))
    rules = tuple((y, left, right) for y in [top, *(row.band.y1 for row in out_rows)])
    return Table(Box(left, top, right, bottom), tuple(out_rows), rules)


def _second_row(head: _Visual, below: _Visual) -> bool:
    """Option labels only, every one under a phrase of the header that is no option itself."""
    return all(_is_option(below.text(i)) for i in range(len(below.phrases))) and all(
        (k := _over(head, below.x0(i))) is not None and not _is_option(head.text(k)) for i in range(len(below.phrases))
    )


def _wrapped_options(rows: list[_Visual], r: int) -> tuple[_Visual | None, int]:
    """The option labels of a header whose labels wrap over lines, a few lines under it (the PCI
    SAQ's "Response" over "(Check one response for each requirement)" over "In Place | In Place with
    | Not | Not in" / "CCW | Applicab | Place" / "le"): the first of the next six visual rows, close
    one under the other, with two or more phrases right of the header's first column that each begin
    an option's label, the lines under it adding to the phrase they start under (a word broken over
    lines joined without a space); each joined label an option, or, in any language, each over one box
    of the first row with boxes under the labels ("Umgesetzt | Umgesetzt mit CCW | Nicht zutreffend" over "☐ ☐ ☐":
    a column of boxes is an option's whatever its label says), each under a header phrase that is no
    option. As one visual row (its phrases the joined labels) and the visual rows it takes."""
    head = rows[r]
    pitch = max(head.y1 - head.y0, 1.0)
    last = head.y1
    for k in range(r + 1, min(r + 7, len(rows))):
        row = rows[k]
        if row.y0 - last > 1.5 * pitch or row.x0(0) <= head.x0(0) + 2:
            return None, 0
        last = row.y1
        if len(row.phrases) < 2:
            continue
        labels = [[p] for p in row.phrases]
        end, lowest = k, row
        for nxt in rows[k + 1 : k + 4]:
            if nxt.y0 - lowest.y1 > 0.8 * pitch or nxt.x0(0) <= head.x0(0) + 2:
                break
            at = [
                next((i for i in range(len(row.phrases)) if abs(row.x0(i) - nxt.x0(j)) <= 3), None)
                for j in range(len(nxt.phrases))
            ]
            if None in at:
                break
            for j, i in enumerate(at):
                labels[i].append(nxt.phrases[j])
            end, lowest = end + 1, nxt
        boxed = _boxes_under(row, rows[end + 1 : end + 6])
        joined = [_joined(parts, boxed) for parts in labels]
        if None in joined or not all(
            (o := _over(head, row.x0(i))) is not None and not _is_option(head.text(o)) for i in range(len(row.phrases))
        ):
            continue
        phrases = tuple(
            (Word(Box(parts[0][0].box.x0, row.y0, max(p[-1].box.x1 for p in parts), lowest.y1), text),)
            for parts, text in zip(labels, joined)
        )
        return _Visual(row.y0, lowest.y1, phrases), end - r
    return None, 0


def _boxes_under(labels: _Visual, below: list[_Visual]) -> bool:
    """Whether the first of the visual rows ``below`` that holds a box to tick (a section's title across
    the table may come first) holds one under each of the ``labels`` (from the label's start to the
    next's) and no box elsewhere right of the first label's start."""
    row = next((b for b in below if any(is_glyph(w.text) for p in b.phrases for w in p)), None)
    if row is None:
        return False
    glyphs = [w for p in row.phrases for w in p if is_glyph(w.text) and w.box.x0 >= labels.x0(0) - 3]
    starts = [labels.x0(i) - 3 for i in range(len(labels.phrases))] + [float("inf")]
    return len(glyphs) == len(labels.phrases) and all(
        sum(a <= w.box.x0 < b for w in glyphs) == 1 for a, b in zip(starts, starts[1:])
    )


def _joined(parts: list[tuple[Word, ...]], boxed: bool = False) -> str | None:
    """A label wrapped over lines, joined: with spaces, or a word broken at a line's end joined
    without one ("Not Applicab" / "le"); None when neither is an option's label. Over a column of
    boxes (``boxed``) any label, its lines joined by ruled.py's ``unbroken``."""
    texts = [" ".join(w.text for w in p) for p in parts]
    spaced = " ".join(texts)
    if _is_option(spaced):
        return spaced
    tight = texts[0]
    for part in texts[1:]:
        tight += part if part[:1].islower() and tight[-1:].isalpha() else f" {part}"
    if _is_option(tight) or not boxed:
        return tight if _is_option(tight) else None
    return unbroken(parts)


def _over(head: _Visual, x: float) -> int | None:
    """The header phrase that starts at or left of ``x`` nearest to it."""
    left = [i for i in range(len(head.phrases)) if head.x0(i) <= x + 2]
    return max(left, key=head.x0) if left else None


def _cells(edges: list[float], y0: float, y1: float) -> tuple[Box | None, ...]:
    return tuple(Box(a, y0, b, y1) for a, b in zip(edges, edges[1:]))


def _header_row(head: _Visual, edges: list[float], y0: float, y1: float) -> Row:
    """The header's first row: a cell per phrase, from its start to the next phrase's (a label
    spanning the option labels under it covers their columns)."""
    starts = [head.x0(i) - 2 for i in range(len(head.phrases))] + [edges[-1]]
    cells: list[Box | None] = []
    for a, b in zip(starts, starts[1:]):
        covered = [e for e in edges[:-1] if a - 1 <= e < b - 1]
        cells.append(Box(a, y0, b, y1))
        cells.extend([None] * max(0, len(covered) - 1))
    return Row(Box(edges[0], y0, edges[-1], y1), tuple(cells))


__all__ = ["aligned_tables", "label_role", "visual_rows"]
