"""One model of a questionnaire table, whatever drew it (a Word table, a ruled PDF table, columns of a
flat PDF aligned by position): its header rows and the role of each column, inferred from the
header's words (in any language) and from what the cells hold (issue #55 item 1).

The reader of a format turns its table into rows of :class:`TableCell` (grid column, span, text,
what place the cell offers) and asks :func:`infer` for a :class:`TableModel`:

- **header rows**: the rows at the top (under a title spanning the table, if any) whose cells hold
  only short labels and no place; a second row of labels under a label spanning several columns
  ("Response" over "In Place | In Place with CCW | Not Applicable | Not in Place") belongs to the
  header. Header rows are never questions.
- **roles**: :class:`Role` per grid column: the row's ID, the question or requirement, guidance
  (expected testing), the **options** of one choice (several columns whose cells are boxes or
  marks under option labels: one pick per row, its options the labels), the answer text, notes,
  owner or date; anything else is ``OTHER``.
- :meth:`TableModel.rows` the data rows: a row spanning the table is a section (its text kept as
  context), a row whose option cells continue the row above (a merged "Applicability Notes"
  row) belongs to that row, a row repeating the header starts a section too.
- :func:`question_groups` (a table over many pages, the Word reader's): the header written again
  and the "(continued)" row over it are skipped, a section's row (spanning, after the ID, or a bold
  title alone: :func:`bold_heading`) names the section, and the rows a question's text was cut
  onto (:func:`continues`) are joined to it (:func:`joined`).

The model decides nothing about a format's places: the Word reader (word/tables.py) and the PDF
reader (pdf/flat/) make the places of the cells the model names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum


class Role(str, Enum):
    ID = "row id"
    QUESTION = "question"
    GUIDANCE = "guidance"
    OPTION = "option"
    ANSWER = "answer"
    NOTES = "notes"
    OWNER_DATE = "owner or date"
    OTHER = "other"


class Holds(str, Enum):
    """What a cell offers the one who fills the table in."""

    TEXT = "text"  # words (a question, a label, guidance, or an answer given)
    BLANK = "blank"  # nothing, or a placeholder
    BOX = "box"  # one box to tick, nothing else
    BOXES = "boxes"  # boxes with their labels ("☐ Yes ☐ No"), or a box and words
    CONTROL = "control"  # a field or control to type into or pick from
    MARK = "mark"  # a mark already made ("X", "✓")


@dataclass(frozen=True)
class TableCell:
    row: int
    col: int  # the first grid column it covers
    span: int
    text: str
    holds: Holds
    continued: bool = False  # a vertical merge from the row above
    numbered: bool = False  # its paragraph numbered by the document (Word's list numbering: a number, no text)
    strong: bool = False  # its words all bold (a heading's look)


_WORDS = {
    Role.ID: r"^(?:no\.?|nr\.?|#|id|ref\.?|number|nummer|item|番号|項番|№|n°|n\.?\s?º\.?|núm(?:ero)?\.?|num[ée]ro)$|\b(?:question|requirement|control|item|vraag|frage)\s*(?:id|no\.?|#|number|nummer)\b",
    Role.QUESTION: r"\b(?:questions?|quer(?:y|ies)|requirements?|statements?|criteri(?:a|on)|controls?|checks?|vra(?:ag|gen)|eis(?:en)?|vereisten?|fragen?|fragentext|anforderung(?:en)?|kontrollfrage|kriteri(?:um|en)|exigences?|crit[èe]res?|preguntas?|requisitos?|criterios?|controles?)\b|質問|設問|要求事項|要件|確認項目|確認事項|チェック項目|質問事項|項目",
    Role.GUIDANCE: r"\b(?:expected testing|testing procedures?|guidance|how to|help|hints?|instructions?|toelichting|hinweise?|erl[äa]uterung|leitfaden|orientation|orientaci[óo]n|indicaciones|instrucciones|explications|consignes|richtlijn|uitleg)\b|説明|解説|手順",
    Role.ANSWER: r"\b(?:responses?|answers?|repl(?:y|ies)|implementation|explanation|evidence|details|justification|comments?|observations?|remediation|antwoord(?:en)?|antwort(?:en)?|r[ée]ponses?|respuestas?|beschrijving|umsetzung|kommentare?|commentaires?|observaciones|comentarios?)\b|回答|記入|対応状況|実施状況",
    Role.NOTES: r"\b(?:notes?|remarks?|opmerkingen?|bemerkungen?|anmerkungen?|remarques?|notas?)\b|備考|コメント",
    Role.OWNER_DATE: r"\b(?:owner|responsible|due|date|datum|eigenaar|verantwortlich|termin)\b|担当|期日|日付",
}
_ROLE_RE = {role: re.compile(words, re.IGNORECASE) for role, words in _WORDS.items()}
OPTION_WORDS = re.compile(
    r"^(?:yes|no|y|n|n/?a|na|not applicable|partial(?:ly)?|compliant|non-?compliant|in place|not in place"
    r"|in place with ccw|implemented|not implemented|partially implemented|planned(?: to be implemented)?"
    r"|true|false|ja|nee|nein|n\.v\.t\.?|oui|non|s[íi]|はい|いいえ|該当なし|対象外|適|否|○|×|✓|✗|x"
    r"|nicht zutreffend|entf[äa]llt|s\.\s?o\.?|sans objet|non applicable|no aplica|niet van toepassing|非該当|不適用"
    r"|met|not met|pass|fail|agree|disagree|done|open|closed)$",
    re.IGNORECASE,
)
_ID_VALUE = re.compile(
    r"^(?:[A-Z]{1,4}[-\s]?\d{1,3}(?:\.\d{1,3})*(?:\s?\(\d{1,2}\))?|\d{1,3}(?:\.\d{1,3}){0,4}\.?[a-z]?|[A-Z]{2,4}\d{2,3}"
    r"|[０-９]{1,3}(?:[.．][０-９]{1,3}){0,3}|\(?[a-z]\)|[ivx]{1,4}\.)$",
    re.IGNORECASE,
)
_MAX_LABEL_WORDS = 14


def is_id_value(text: str) -> bool:
    return bool(_ID_VALUE.match(" ".join(text.split())))


# an option's words that deny ("No", "Nein", "いいえ", "Not in Place"): "Yes" over "No" names two options, not one
_NEGATIVE = re.compile(
    r"^(?:no|n|nee|nein|non|いいえ|false|否|×|✗|not met|not in place|not implemented|fail|disagree)$", re.I
)
# a label with its translation in brackets: "Yes（はい）", "Remarks (備考)"
_TRANSLATED = re.compile(r"^(?P<label>[^（(]*?\S)\s*[（(](?P<other>[^（）()]+)[）)]\s*$")


def _part_role(part: str) -> Role | None:
    """The role one label names: an option's words (alone, or beside their translation in brackets:
    "Yes（はい）"), else the words of a role."""
    m = _TRANSLATED.match(part)
    if any(OPTION_WORDS.match(text) for text in (part, *((m["label"].strip(), m["other"].strip()) if m else ()))):
        return Role.OPTION
    for role in (Role.ID, Role.GUIDANCE, Role.NOTES, Role.OWNER_DATE, Role.ANSWER, Role.QUESTION):
        if _ROLE_RE[role].search(part):
            return role
    return None


def role_of_label(label: str) -> Role | None:
    """The role a column's header words name (the lower label of a two-level header first, or of a
    label and its translation, "確認事項 / Item", the other's when the lower is the ambiguous "Item")."""
    parts = [p.strip() for p in label.split(" / ") if p.strip()]
    roles = [(part, role) for part in reversed(parts) if (role := _part_role(part)) is not None]
    if not roles:
        return None
    part, role = roles[0]
    if role is Role.ID and part.lower() in ("item", "items") and any(r is Role.QUESTION for _, r in roles[1:]):
        return Role.QUESTION  # "確認事項 / Item": the checklist's items are its questions
    return role


@dataclass(frozen=True)
class TableModel:
    header_rows: tuple[int, ...]
    first_row: int  # the first data row
    width: int
    labels: dict[int, str]  # grid column -> its header label ("Response / In Place")
    roles: dict[int, Role]
    title_rows: tuple[int, ...] = ()

    def columns(self, role: Role) -> list[int]:
        return sorted(c for c, r in self.roles.items() if r is role)

    @property
    def options(self) -> list[int]:
        return self.columns(Role.OPTION)

    def option_label(self, col: int) -> str:
        return self.labels.get(col, "").split(" / ")[-1].strip()

    @property
    def question_col(self) -> int | None:
        cols = self.columns(Role.QUESTION)
        return cols[0] if cols else None

    @property
    def id_col(self) -> int | None:
        cols = self.columns(Role.ID)
        return cols[0] if cols else None

    def describe(self) -> dict[str, str]:
        """Each column's header and role, for the mapping screen: ``{"Response / In Place": "option"}``."""
        return {self.labels.get(c) or f"column {c + 1}": self.roles[c].value for c in sorted(self.roles)}


@dataclass
class _Rows:
    rows: Sequence[Sequence[TableCell]]
    width: int
    by_row: list[list[TableCell]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.by_row = [list(r) for r in self.rows]

    def own(self, r: int) -> list[TableCell]:
        return [c for c in self.by_row[r] if not c.continued]

    def at(self, r: int, col: int) -> TableCell | None:
        return next((c for c in self.by_row[r] if c.col <= col < c.col + c.span), None)

    def spans_all(self, r: int) -> bool:
        own = self.own(r)
        return len(self.by_row[r]) == 1 or (len(own) == 1 and own[0].span >= self.width - 1 and own[0].col == 0)


def _label_cell(c: TableCell) -> bool:
    """A header's cell: empty, or short words (its first line a label; a group label may say more
    under it: "Requirement Responses / More than one response may be selected…")."""
    lines = [x for x in c.text.split("\n") if x.strip()]
    first = lines[0].split() if lines else []
    return (
        c.holds in (Holds.TEXT, Holds.BLANK, Holds.MARK)  # "Yes", "X": an option's label in the header
        and len(first) <= _MAX_LABEL_WORDS
        and len(c.text.split()) <= 3 * _MAX_LABEL_WORDS
        and not is_id_value(c.text)
        and (not c.text.rstrip().endswith(("?", "？")) or _short_question(c.text))
    )


def _short_question(text: str) -> bool:
    """A header cell that asks of every row ("Compliant?", "¿Cumple?", "適合していますか？"): a label."""
    return len(text.split()) <= 3 and len(text.strip()) <= 24


def _header_rows(t: _Rows, start: int) -> list[int]:
    """The header's rows from ``start``: one row of labels (two or more), and the row of labels under
    it when a label of the first spans several columns or its cells continue into it."""
    if start >= len(t.by_row) - 1:
        return []
    own = t.own(start)
    texts = [c for c in own if c.text]
    group = len(texts) == 1 and texts[0].span > 1 and len(own) > 1  # one group label ("回答") over its labels
    if len(texts) < 2 and not group or not all(_label_cell(c) for c in own):
        return []
    rows = [start]
    nxt = start + 1
    if nxt < len(t.by_row) - 1:
        below = t.own(nxt)
        spanning = any(c.span > 1 and c.text for c in own)
        continued = any(c.continued for c in t.by_row[nxt])
        if (
            (spanning or continued)
            and below
            and all(_label_cell(c) for c in below)
            and sum(bool(c.text) for c in below) >= 2
        ):
            rows.append(nxt)
        elif _translated_row(own, below):
            rows.append(nxt)
    return rows if len(texts) >= 2 or len(rows) == 2 else []


def _translated_row(own: list[TableCell], below: list[TableCell]) -> bool:
    """A row of labels under the header's that says them again in another language ("項番 | 確認項目 | はい
    | いいえ | 備考" over "No. | Item | Yes | No | Remarks"): each cell under a label, naming the same role
    (an option's words under an option's), three or more of them naming one."""
    if not below or not all(_label_cell(c) and c.text for c in below) or len(below) != len(own):
        return False
    pairs = [(role_of_label(a.text), role_of_label(b.text)) for a, b in zip(own, below) if a.col == b.col]
    named = [a for a, b in pairs if a is not None and a == b]
    same = all(a == b or Role.ID in (a, b) and Role.QUESTION in (a, b) for a, b in pairs)
    return len(pairs) == len(own) and same and len(named) >= 3


def translated_lines(text: str) -> str | None:
    """A header cell that names its column again in another language on a line of its own ("はい" over
    "Yes", "備考" over "Remarks", "確認項目" over "Item"): one label and its translation, "はい / Yes", as
    when they share a line. Each line a short label naming the same role (an ID's and a question's words
    go together: "Item"); None for any other cell."""
    lines = [" ".join(x.split()) for x in text.split("\n") if x.strip()]
    if len(lines) < 2 or any(len(x.split()) > 4 for x in lines):
        return None
    roles = {_part_role(x) for x in lines}
    if None in roles or len(roles) > 1 and roles != {Role.ID, Role.QUESTION}:
        return None
    if roles == {Role.OPTION} and {bool(_NEGATIVE.match(x)) for x in lines} == {True, False}:
        return None  # "Yes" over "No": the options to write, not one said twice
    return " / ".join(lines)


def _labels(t: _Rows, header: list[int]) -> dict[int, str]:
    labels: dict[int, list[str]] = {c: [] for c in range(t.width)}
    for r in header:
        for cell in t.by_row[r]:
            if cell.continued or not cell.text:
                continue
            text = translated_lines(cell.text) or cell.text
            if cell.span > 1 and len(header) > 1:  # a group's label: its first line, not the instruction under it
                text = next(x for x in text.split("\n") if x.strip())
            for c in range(cell.col, cell.col + cell.span):
                if " ".join(text.split()) not in labels[c]:
                    labels[c].append(" ".join(text.split()))
    return {c: " / ".join(v) for c, v in labels.items() if v}


def _data_cells(t: _Rows, first: int, col: int) -> list[TableCell]:
    out = []
    for r in range(first, len(t.by_row)):
        if t.spans_all(r):
            continue
        cell = t.at(r, col)
        if cell is not None and cell.col == col and not cell.continued:
            out.append(cell)
    return out


def infer(rows: Sequence[Sequence[TableCell]], width: int) -> TableModel | None:
    """The model of a table with a header row (None when it has none: a form of labels beside
    places, a list of boxes, a table with no header are read by the format's own rules)."""
    t = _Rows(rows, width)
    start = 0
    titles = []
    while start < len(t.by_row) - 2 and t.spans_all(start) and all(c.holds is Holds.TEXT for c in t.own(start)):
        titles.append(start)
        start += 1
    header = _header_rows(t, start)
    if not header:
        return None
    first = header[-1] + 1
    labels = _labels(t, header)
    return _with_roles(t, tuple(header), first, labels, tuple(titles))


def _unnamed_over_boxes(labels: dict[int, str], col: int, boxes: int, texts: list[str]) -> bool:
    """Whether column ``col``'s lowest label (of six words at most) names no role and its cells hold
    boxes twice or more and at least as often as text: an option's label in words the model does not
    know (another language's: "Umgesetzt", "En place", "実施済み" over ☐ in each requirement's row, a
    section's title or a note between them), under a label naming the responses ("Antwort")."""
    lower = labels.get(col, "").split(" / ")[-1]
    return (
        bool(lower.split()) and len(lower.split()) <= 6 and role_of_label(lower) is None and boxes >= max(2, len(texts))
    )


def _with_roles(
    t: _Rows, header: tuple[int, ...], first: int, labels: dict[int, str], titles: tuple[int, ...]
) -> TableModel:
    roles: dict[int, Role] = {}
    blank: list[int] = []  # columns taken as answers for their empty cells alone
    starts = sorted({c.col for r in range(first, len(t.by_row)) for c in t.own(r)} | set(labels))
    for col in starts:
        cells = _data_cells(t, first, col)
        if not cells:
            continue
        named = role_of_label(labels.get(col, ""))
        holds = [c.holds for c in cells]
        boxes = sum(h is Holds.BOX for h in holds)
        empty = sum(h in (Holds.BLANK, Holds.MARK) for h in holds)
        texts = [c.text for c in cells if c.holds is Holds.TEXT]
        if boxes >= max(1, 0.6 * len(cells)) and len(labels.get(col, "").split(" / ")[-1].split()) <= 6:
            roles[col] = Role.OPTION
        elif boxes + empty >= 0.6 * len(cells) and (
            named is Role.OPTION or _unnamed_over_boxes(labels, col, boxes, texts)
        ):
            roles[col] = Role.OPTION
        elif named is Role.ID or (
            texts and (all(map(is_id_value, texts)) or sum(map(is_id_value, texts)) >= max(2, 0.6 * len(cells)))
        ):
            roles[col] = Role.ID
        elif named in (Role.QUESTION, Role.GUIDANCE, Role.NOTES, Role.OWNER_DATE, Role.ANSWER):
            roles[col] = named
        elif sum(h in (Holds.BLANK, Holds.CONTROL) for h in holds) >= 0.6 * len(cells):
            roles[col] = Role.ANSWER
            if all(h is Holds.BLANK for h in holds):
                blank.append(col)
        else:
            roles[col] = Role.OTHER
    if len([c for c in roles if roles[c] is Role.OPTION]) == 1:  # one box column: a column of ticks, not a pick
        col = next(c for c in roles if roles[c] is Role.OPTION)
        roles[col] = Role.ANSWER
    named = [c for c in roles if roles[c] is Role.QUESTION]
    if len(named) > 1:  # one label over several columns ("Question" over the number and the text)
        words = {c: sum(len(x.text) for x in _data_cells(t, first, c)) for c in named}
        keep = max(named, key=lambda c: (words[c], -c))
        for c in named:
            if c != keep:  # the column of numbers (typed, or drawn by Word: empty) is the row's ID
                texts = [x.text for x in _data_cells(t, first, c) if x.text]
                roles[c] = Role.ID if all(map(is_id_value, texts)) and c < keep else Role.OTHER
    if Role.QUESTION not in roles.values():  # the longest words of the columns left
        others = [c for c in roles if roles[c] is Role.OTHER]
        longest = max(
            others,
            key=lambda c: sum(len(x.text) for x in _data_cells(t, first, c)),
            default=None,
        )
        if longest is not None:
            roles[longest] = Role.QUESTION
    if Role.QUESTION not in roles.values():
        _item_column(t, first, roles)
    question = min((c for c in roles if roles[c] is Role.QUESTION), default=None)
    if question is not None and any(roles[c] in (Role.ANSWER, Role.NOTES, Role.OPTION) for c in roles if c > question):
        for c in blank:  # an empty column before the question, the places after it: the numbers Word draws
            if c < question:
                roles[c] = Role.ID
    return TableModel(header, first, t.width, labels, roles, titles)


def _item_column(t: _Rows, first: int, roles: dict[int, Role]) -> None:
    """No question column, and a column taken as IDs by its label ("Item", "No.") whose cells are words,
    not IDs ("No. | Item | Yes | No": a checklist's items): the longest of them is the question column."""
    words = {}
    for c in [c for c in roles if roles[c] is Role.ID]:
        texts = [x.text for x in _data_cells(t, first, c) if x.text]
        if texts and sum(map(is_id_value, texts)) <= 0.2 * len(texts):
            words[c] = sum(map(len, texts))
    if words:
        roles[max(words, key=lambda c: (words[c], -c))] = Role.QUESTION


@dataclass(frozen=True)
class PlacedCell:
    """A cell of a table drawn on a page: its x-range and what it holds (a ruled PDF table's cell,
    or a column of words aligned by position)."""

    x0: float
    x1: float
    text: str
    holds: Holds = Holds.TEXT


def infer_positioned(
    rows: Sequence[Sequence[PlacedCell]], slack: float = 3.0
) -> tuple[TableModel, list[list[TableCell]]] | None:
    """The model of a table drawn on a page, whose header's labels may be wrapped over several
    drawn rows ("In Place" over "with CCW") and whose columns are known by position: the header
    runs from the first row of two or more labels to the row before the first that starts at the
    table's left edge with words (a data row); the columns are the cells of the data row with the
    most cells; each column's label is the header words inside its x-range (a label wrapped over
    rows joined with spaces), else the header cell it lies under ("PCI DSS Requirement" over the
    ID and the requirement). Returns the model and the rows as grid cells."""
    if not rows:
        return None
    left = min(c.x0 for row in rows for c in row)
    start = next((r for r, row in enumerate(rows) if sum(bool(c.text.strip()) for c in row) >= 2), None)
    if start is None or not all(
        len(c.text.split()) <= 3 * _MAX_LABEL_WORDS and not is_id_value(c.text) for c in rows[start]
    ):
        return None
    first = start + 1
    while first < len(rows) and not any(c.text.strip() and c.x0 <= left + slack for c in rows[first]):
        if any(is_id_value(c.text) for c in rows[first]):
            break
        first += 1
    said_again = first < len(rows) - 1 and _placed_translation(rows[first - 1], rows[first])
    first += said_again
    data = [row for row in rows[first:] if row]
    if not data:
        return None
    widest = max(data, key=len)
    if len(widest) < 2:
        return None
    columns = [(c.x0, c.x1) for c in sorted(widest, key=lambda c: c.x0)]
    labels: dict[int, str] = {}
    for i, (x0, x1) in enumerate(columns):
        inside = [c.text.strip() for r in range(start, first) for c in rows[r]
                  if c.text.strip() and c.x0 >= x0 - slack and c.x1 <= x1 + slack]  # fmt: skip
        over = [c.text.strip() for r in range(start, first) for c in rows[r]
                if c.text.strip() and min(c.x1, x1) - max(c.x0, x0) >= 0.5 * (x1 - x0)]  # fmt: skip
        group = [x for x in over if x not in inside]
        words = " / ".join(dict.fromkeys(group))
        if inside:
            label = " / ".join(inside) if said_again and len(inside) == first - start else " ".join(inside)
            words = f"{words} / {label}" if words else label
        if words:
            labels[i] = " ".join(words.split())
    grid: list[list[TableCell]] = []
    for r, row in enumerate(rows):
        cells = []
        for c in sorted(row, key=lambda c: c.x0):
            cols = [
                i
                for i, (x0, x1) in enumerate(columns)
                if min(c.x1, x1) - max(c.x0, x0) > 0.5 * min(x1 - x0, c.x1 - c.x0)
            ]
            if cols:
                cells.append(TableCell(r, cols[0], len(cols), " ".join(c.text.split()), c.holds))
        grid.append(cells)
    t = _Rows(grid, len(columns))
    return _with_roles(t, tuple(range(start, first)), first, labels, tuple(range(start))), grid


def _placed_translation(labels: Sequence[PlacedCell], below: Sequence[PlacedCell]) -> bool:
    """A drawn row of labels under the header's last that says them again in another language, each
    under its own (:func:`_translated_row`, by position: "項番 はい いいえ" over "No. Yes No")."""
    over, under = sorted(labels, key=lambda c: c.x0), sorted(below, key=lambda c: c.x0)
    if len(over) != len(under) or any(min(a.x1, b.x1) <= max(a.x0, b.x0) for a, b in zip(over, under)):
        return False
    return _translated_row(
        [TableCell(0, i, 1, c.text, c.holds) for i, c in enumerate(over)],
        [TableCell(1, i, 1, c.text, c.holds) for i, c in enumerate(under)],
    )


def question_rows(rows: Sequence[Sequence[TableCell]], model: TableModel) -> list[tuple[int, str | None]]:
    """The data rows that are questions, each with the section it is in (a row spanning the table
    above it: "1.3 Network access … is restricted."): rows whose question cell holds words and
    whose option cells (if any) start in the row (not a merged continuation: "Applicability Notes")."""
    t = _Rows(rows, model.width)
    out: list[tuple[int, str | None]] = []
    section: str | None = None
    header_words = {model.labels.get(c, "") for c in model.roles}
    for r in range(model.first_row, len(t.by_row)):
        if t.spans_all(r):
            cell = t.own(r)[0] if t.own(r) else None
            if cell is not None and cell.text:
                section = " ".join(cell.text.split())
            continue
        own = t.own(r)
        if own and all(c.text in header_words for c in own if c.text) and sum(bool(c.text) for c in own) >= 2:
            section = None  # the header repeated on a new page
            continue
        qcol = model.question_col
        qcell = t.at(r, qcol) if qcol is not None else None
        if qcell is None or qcell.continued or not qcell.text:
            continue
        if model.options:  # each option a cell of its own (not a row spanning them: a section's title)
            opts = [t.at(r, c) for c in model.options]
            if any(o is None or o.continued or o is qcell or o.col != c for o, c in zip(opts, model.options)):
                continue
        out.append((r, section))
    return out


_SENTENCE_END = re.compile(r"[.?!:;。？！：；)）」』]\s*$")
# a line of Japanese never starts with a particle or a small kana: a text cut where its cell wrapped
_CJK_GOES_ON = "をにはがでとのへもやかゃゅょっー、"


_OPENS = "([{\"'¿¡«“‘-–•·*（「『【"  # what may open a text of its own (a bracket, a Spanish question, a bullet)


def _wide(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef"


def joined(parts: Sequence[str]) -> str:
    """A text cut over rows put together: with a space, none beside a Japanese or Chinese character."""
    out = ""
    for part in (" ".join(p.split()) for p in parts):
        if not part:
            continue
        out = f"{out}{part}" if out and (_wide(out[-1]) or _wide(part[0])) else f"{out} {part}".strip()
    return out


def _cell_at(row: Sequence[TableCell], col: int) -> TableCell | None:
    return next((c for c in row if c.col <= col < c.col + c.span), None)


def _starts_with_id(text: str) -> bool:
    words = text.split()
    return bool(words) and is_id_value(words[0].rstrip(":"))


def _number(ident: str) -> tuple[int, ...]:
    digits = ident.translate(str.maketrans("０１２３４５６７８９．", "0123456789."))
    return tuple(int(x) for x in re.findall(r"\d+", digits))


def _follows(before: str, ident: str) -> bool:
    """``ident`` may come after ``before`` in one numbering: the next at the same depth, at a depth
    above (4, 4.1 after 3.7) or the first below (3.7.1), or not a number at all ("a)")."""
    a, b = _number(before), _number(ident)
    if not a or not b:
        return True
    for depth in range(1, len(a) + 1):
        if b[:depth] == (*a[: depth - 1], a[depth - 1] + 1) and all(x == 1 for x in b[depth:]):
            return True
    return b[: len(a)] == a and len(b) == len(a) + 1 and b[-1] == 1


def continues(text: str, above: Sequence[TableCell], row: Sequence[TableCell], columns: tuple) -> bool:
    """``row`` goes on with the question of the row ``above`` whose words so far are ``text`` (its
    text cut where the cell's line wrapped, onto a row of its own; ``columns``: the question's
    column, the ID's or None, and the place columns). So when ``text`` ends mid-sentence, the
    row's question cell holds words not starting with an ID, none of its place cells offers a place
    of its own (each empty, or merged down from above), it has no ID of its own (nor a number the
    document draws), and something says it goes on: its place cells or ID merged down from the
    question's row, the question's row holding boxes or a control where this row holds none, an ID
    (typed or drawn in its column, or written before the text, or the question's cell numbered by
    the document) above and none here, or, the text
    above three words or more, its words starting in lower case, with punctuation or (Japanese)
    with a particle. A number starting the row ("a)", "1.4") starts an item of its own, unless
    it is a plain number that cannot follow the one above ("24 hours" under "1.3 …")."""
    qcol, idcol, places = columns
    cell = _cell_at(row, qcol)
    if cell is None or cell.continued or cell.col != qcol or not cell.text.strip() or _SENTENCE_END.search(text):
        return False
    if any(cell.col <= c < cell.col + cell.span for c in places) or cell.numbered:
        return False  # a row spanning the places (a section's title), or a question numbered by the document
    if _starts_with_id(cell.text):
        mark = cell.text.split()[0].rstrip(":")
        if not mark.isdigit() or _starts_with_id(text) and _follows(text.split()[0], mark):
            return False  # an item of its own ("a)", "1.4" after "1.3"; not "24 hours" after it)
    mine = [_cell_at(row, c) for c in places]
    theirs = [_cell_at(above, c) for c in places]
    if any(x is None or not x.continued and (x.holds is not Holds.BLANK or x.text.strip()) for x in mine):
        return False
    own_id = _cell_at(row, idcol) if idcol is not None else None
    their_id = _cell_at(above, idcol) if idcol is not None else None
    if own_id is not None and not own_id.continued and (own_id.text.strip() or own_id.numbered) and own_id is not cell:
        return False
    first = cell.text.strip()[:1]
    cut = len(text.split()) >= 3 or sum(map(_wide, text)) >= 8  # (a label's few words are no sentence cut short)
    words = cut and (first.islower() or first in _CJK_GOES_ON or not first.isalnum() and first not in _OPENS)
    return (
        words  # "personal data at rest?", "を管理すること。", "?" (French spacing cut before it)
        or any(x is not None and x.continued for x in [*mine, own_id])
        or any(
            y is not None and y.holds in (Holds.BOX, Holds.BOXES, Holds.CONTROL) and not x.continued  # type: ignore[union-attr]
            for x, y in zip(mine, theirs)
        )
        or bool(their_id is not None and their_id is not cell and (their_id.text.strip() or their_id.numbered))
        or _starts_with_id(text)
        or bool((asked := _cell_at(above, qcol)) is not None and asked.numbered)  # numbered by Word above, not here
    )


def question_groups(rows: Sequence[Sequence[TableCell]], model: TableModel) -> list[tuple[int, str | None, list[int]]]:
    """The data rows that are questions (:func:`question_rows`), each with its section and the rows
    that go on with its text (:func:`continues`), in a table that may run over many pages: the
    header written again (one row or both of a two-row header, under a row spanning the table that
    names it again, "Table 1 (continued)") is neither a question nor a section and leaves the
    section as it was; a row whose one cell spans every column from the question's (its number in
    the ID cell before it) is a section."""
    t = _Rows(rows, model.width)
    parts = {p.strip() for c in model.roles for p in model.labels.get(c, "").split(" / ") if p.strip()}
    repeats = [
        r
        for r in range(model.first_row, len(t.by_row))
        if sum(bool(c.text) for c in t.own(r)) >= 2
        and all(" ".join(c.text.split()) in parts for c in t.own(r) if c.text)
    ]
    out: list[tuple[int, str | None, list[int]]] = []
    section: str | None = None
    qcol = model.question_col
    places = tuple(c for c, role in model.roles.items() if role in (Role.OPTION, Role.ANSWER, Role.NOTES))
    starts = {r for r, _ in question_rows(rows, model)}
    bold = bold_headings(rows, qcol, model.first_row)
    for r in range(model.first_row, len(t.by_row)):
        if r in repeats:
            continue
        head = _section_of(t, r, qcol, bold)
        if head is not None:
            if r + 1 not in repeats:  # (a title over the header written again names no section)
                section = head
            continue
        if out and qcol is not None and out[-1][0] + len(out[-1][2]) == r - 1:
            q, _, more = out[-1]
            text = joined([c.text for k in (q, *more) if (c := t.at(k, qcol)) is not None])
            if continues(text, t.by_row[q], t.by_row[r], (qcol, model.id_col, places)):
                more.append(r)
                continue
        if r in starts:
            out.append((r, section, []))
    return out


def bold_headings(rows: Sequence[Sequence[TableCell]], qcol: int | None, first: int) -> bool:
    """Whether a bold row can be a heading: most of the question column's words are not bold."""
    cells = [c for row in rows[first:] if qcol is not None and (c := _cell_at(row, qcol)) is not None and c.text]
    return bool(cells) and sum(c.strong for c in cells) < 0.5 * len(cells)


def bold_heading(row: Sequence[TableCell], qcol: int | None) -> str | None:
    """The row's title when it is a section's heading not merged across the table: a title in bold
    alone in the question's cell (its number in bold in the ID's), nothing else in the row, no box
    nor control, no cell merged down into it, the title no sentence (where :func:`bold_headings`)."""
    if qcol is None or any(c.continued for c in row):
        return None
    return _plain_heading(list(row), qcol)


def _plain_heading(own: list[TableCell], qcol: int) -> str | None:
    texts = [c for c in own if c.text.strip()]
    if any(c.holds in (Holds.BOX, Holds.BOXES, Holds.CONTROL) for c in own) or not texts:
        return None
    title = next((c for c in texts if c.col == qcol), None)
    if (
        title is None
        or not all(c.strong for c in texts)
        or any(c is not title and not is_id_value(c.text) for c in texts)
    ):
        return None
    words = " ".join(title.text.split())
    if _SENTENCE_END.search(words) or len(words.split()) > 10 or len(words) > 80:
        return None
    return " ".join(" ".join(c.text.split()) for c in texts)


def _section_of(t: _Rows, r: int, qcol: int | None, bold: bool = False) -> str | None:
    """Row r's section title (:func:`section_of`)."""
    own = t.own(r)
    if t.spans_all(r):
        return " ".join(own[0].text.split()) if own and own[0].text else None
    if qcol is None or len(own) < 2:
        return None
    if bold and len(own) == len(t.by_row[r]) and (head := _plain_heading(own, qcol)) is not None:
        return head
    last = own[-1]
    before = own[:-1]
    if last.col > qcol or last.col + last.span < t.width or not last.text or last.span < 2:
        return None
    if not all(c.holds is Holds.TEXT and is_id_value(c.text) or not c.text for c in before):
        return None
    return " ".join(" ".join(x.text.split()) for x in own if x.text)


__all__ = [
    "OPTION_WORDS",
    "Holds",
    "Role",
    "TableCell",
    "bold_headings",
    "TableModel",
    "PlacedCell",
    "infer",
    "continues",
    "infer_positioned",
    "is_id_value",
    "joined",
    "question_groups",
    "question_rows",
    "role_of_label",
    "bold_heading",
]
