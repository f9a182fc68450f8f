"""The questions in a flat PDF's lines outside tables: an item starts with a marker (a bullet
●•▪◦–, a drawn box ☐ or the keycap ⃣ OpenChain's checklist uses, a number "1." "1.2" "a)" "(iv)")
and goes on over the lines indented under its text (and over the lines of its paragraph wrapped back
to its marker: one MuPDF block). An item is a question when it asks (asking.py), or when the
document numbers it as one: a run of five or more items numbered one after the other at one left
edge, two thirds of which ask (a web form printed: "68. For all contracts entered into …, please
confirm …"), a paragraph that asks right under such a question being part of its text;
a checklist statement (a box before it: "☐ We have a documented policy …") is a question to tick, and
so is a numbered item with its options marked beside its first line or on the line under it ("1. The
provider shall …   ☐ Yes ☐ No", "a) …" over "Yes / No": a numbered checklist), its options one choice. A
paragraph without a marker that asks and ends with "?" is a question too. Items that do not ask,
right after a question ending with "?" or ":", are that question's sub-questions; in a checklist
(boxes are most of the items), lines under a statement without a box of their own are part of it.
In a document that neither numbers its questions nor sets them in tables, a label over an answer
place (flat/panels.py) or over a run of options is a question; "○", "◯" and "( )" before the options
one a line are radios, and a run of them goes on past a page's footer and the next page's running
header (in its top 6 %). Numbers are IDs in ASCII digits ("（１）" → "1"); Japanese lines wrapped
are joined without a space; "(required)" ends no question's text.
A paragraph starting in lower case goes on from the text above, and "■" is a bullet. Headings,
requirements and instructions ("1.1 Request for Quote: …") are not questions.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.questionnaire.cues import ascii_digits, several_options, takes_several
from engine.questionnaire.pdf.flat.asking import SUB, asks, asks_yes_no
from engine.questionnaire.pdf.flat.boxes import box_choices, choices_of, label_question, option_name
from engine.questionnaire.pdf.flat.found import response_place
from engine.questionnaire.pdf.flat.panels import over_place, unruled_labels
from engine.questionnaire.pdf.layout import DRAWN_MARKED, SYMBOL_BULLETS, Box, Line, Word, is_glyph, wrapped
from engine.questionnaire.pdf.questions import YES_NO, Found
from engine.questionnaire.placeholders import is_date_mask
from engine.questionnaire.table_model import OPTION_WORDS

_BULLETS = frozenset("●•▪◦○◯■➢►–-*·◆◇✓") | SYMBOL_BULLETS  # (a symbol font's bullets as printed: layout.py)
_RADIOS = frozenset(("○", "◯", "( )"))  # a bullet that, one an option a line under a question, is a radio
_NUMBER = re.compile(
    r"^(\(?\d{1,3}[.)]|\d{1,3}(?:\.\d{1,3})+\.?|\(?[a-zA-Z][.)]|\([ivxlcIVXLC]{1,5}\)|[ivxlc]{1,5}[.)])$"
)

_LETTER_ID = re.compile(r"^[A-Z]-\d{1,3}$")  # a section's letter and an item's number: "A-2", "C-1"

TAB_GAP = 40.0  # points: a tab to the next stop (Word's every 36 pt) at most between a statement and its boxes


@dataclass
class Item:
    """A line item or paragraph: its marker kind (bullet, box, number or "" for a paragraph)."""

    page: int
    box: Box
    kind: str
    marker: str
    text: str
    blank: bool = False  # a label with a blank after it: a field to fill
    wraps: bool = False  # a paragraph that goes on from the marked item above, wrapped back to its marker
    apart: str = ""  # its first row's words before a wide gap, when text in a column beside follows (a panel)
    round: bool = False  # its marker is a drawn radio circle (layout.round_boxes)
    choices: tuple[str, ...] = ()  # the options marked beside its first line or on the line under it
    boxed: bool = False  # those options drawn as boxes to tick ("☐ Yes ☐ No"), not words to circle
    ended: bool = (
        False  # its text ran on into those boxes (a tab at most between, not a column's right edge): it ends there
    )
    part: int = 0  # its part of the page in reading order (a page in two columns: flat/columns.py)
    field: bool = False  # an answer place (an empty box, a line to write on) right under it (flat/panels.py)
    margin: bool = False  # in the page's top 6 % (a running header: a browser prints the date and the title)
    line: float = 0.0  # its first line's height
    form: bool = False  # a label of a line of fields typed with underscores (typed_fields)
    space: float = 0.0  # the blank space under it to the next item on its page, in its lines (0: none below)
    boxes_at: tuple[float, ...] = ()  # the left and right edges of the boxes to tick beside its first line


def page_items(
    page: int, lines: list[Line], part: int = 0, places: Sequence[Box] = (), height: float = 0.0
) -> list[Item]:
    """The items and paragraphs of a page's lines (outside tables), top to bottom; ``part``: the part
    of the page they are (flat/columns.py); ``places``: the page's answer places (flat/panels.py);
    ``height``: the page's."""
    lines = unruled_labels(lines)  # a form printed without rules: its labels' fields (flat/panels.py)
    rows = _visual_rows(lines)
    blank_ends = {id(line.words[-1]) for line in lines if line.blank}
    items: list[Item] = []
    current: Item | None = None
    indent = margin = size = 0.0
    last: Box | None = None
    block = -2  # the MuPDF block of the item's first line
    pitch: float | None = None  # the gap between the last two lines of the item read, once it has two
    for words, row_block in rows:
        fields = typed_fields(words)  # "Bank Name_____ Account Name_____": a label glued to its blank, each
        if fields:
            for label in fields:
                box = Box(label[0].box.x0, label[0].box.y0, label[-1].box.x1, max(w.box.y1 for w in label))
                current = Item(page, box, "", "", " ".join(w.text for w in label), blank=True, form=True)
                current.part, current.line = part, box.height
                items.append(current)
            last = box
            continue
        marks = words  # the row's whole words, its options' marks among them
        words, beside = _trailing_choices(words)
        boxed = bool(beside) and bool(box_choices(" ".join(w.text for w in marks[len(words) :])))
        boxes_at = (marks[len(words)].box.x0, marks[-1].box.x1) if boxed else ()
        # "Company name: ______": a line typed to write on after a label (a date's mask too, but in a boxed option's text)
        option = current is not None and current.kind == "box" and words[0].box.x0 >= indent
        words, typed = _typed_blank(words, masked=not option)
        box = Box(words[0].box.x0, min(w.box.y0 for w in words), words[-1].box.x1, max(w.box.y1 for w in words))
        kind, marker, rest = _marker(words)
        joined = " ".join(w.text for w in words)
        # "☐ Yes ☐ No" under a question: its options; "Yes/No" too, under a paragraph whose first sentence asks
        if choices_of(joined) or (current is not None and _first_asks(current.text) and row_choices(joined)):
            kind, marker, rest = "choices", "", words
        gap = box.y0 - last.y1 if last else 1e9
        tight = last is not None and gap <= 0.9 * max(box.height, 1.0)
        # a marked item's lines wrapped back to its marker end where the spacing grows by half a line (a paragraph after)
        tight = tight and not (
            current is not None and current.wraps and pitch is not None and gap > pitch + box.height / 2
        )
        if tight and current is not None and _wrapped_option(current, words, kind, indent):
            last = box  # the option's label wrapped, its box after its last line's words or alone under them
            continue
        blank = typed or id(words[-1]) in blank_ends  # "Requirement Number and Definition:       ": a field of its own
        # a wrapped paragraph goes on in its own type only (not into a running footer)
        apart = current is not None and current.wraps and abs(box.height - size) > 0.05 * size
        closed = current is not None and current.ended and not current.kind  # a statement ends with its boxes to tick
        closed = closed or (current is not None and current.kind == "choices")  # a row of options is a row of its own
        closed = closed or (current is not None and current.kind == "box" and current.ended)  # "Label   ☐" ends at ☐
        # a row with boxes of its own where the statement above has its boxes (either edge, at a tab stop): its own
        closed = closed or (current is not None and _aligned(current.boxes_at, boxes_at))
        if kind or current is None or not tight or box.x0 < indent or blank or current.blank or apart or closed:
            start = rest[0].box.x0 if rest else box.x0
            # a marked item's paragraph wrapped back to its marker ("12. Please confirm …" / "of your …", one block)
            wraps = bool(current and current.kind and not kind and tight and block >= 0 and row_block == block)
            wraps = wraps and box.x0 >= margin - 2 and abs(box.height - size) <= 0.05 * size  # in its type
            current = Item(page, box, kind, marker, " ".join(w.text for w in rest), blank, wraps, _before_gap(rest))
            current.part, current.line = part, box.height
            current.round = kind == "box" and words[0].round
            current.ended = kind == "box" and _box_after(words)
            items.append(current)
            indent = min(start - 5, box.x0 + 4) if kind else start - 5  # lines under the item's text go on
            block, margin, size, pitch = row_block, box.x0, box.height, (gap if wraps else None)
        else:
            current.text = wrapped(current.text, " ".join(w.text for w in words)).strip()
            current.box, pitch = current.box.union(box), gap
        if beside:
            current.choices = beside
            current.boxed = bool(box_choices(" ".join(w.text for w in marks[len(words) :])))
            current.ended = current.boxed and marks[len(words)].box.x0 - words[-1].box.x1 < TAB_GAP
            current.boxes_at = boxes_at
        last = box
    _place(items, places, height)
    return _marks_under([i for i in items if i.text])


def _place(items: list[Item], places: Sequence[Box], height: float) -> None:
    """Each item's answer place under it, whether it sits in the page's top margin, and the space under
    it (in its own lines' height, below the lines wrapped back to its marker)."""
    for k, item in enumerate(items):
        item.field = over_place(item.box, places)
        item.margin = item.box.y1 <= 0.06 * height
        end = next((j for j in range(k + 1, len(items)) if not items[j].wraps), len(items))  # its lines wrapped back
        bottom = max(i.box.y1 for i in items[k:end])
        below = items[end] if end < len(items) and items[end].part == item.part else None
        item.space = (below.box.y0 - bottom) / max(item.line, 1.0) if below is not None else 0.0


def _aligned(above: tuple[float, ...], below: tuple[float, ...]) -> bool:
    """Whether two rows' boxes to tick start or end at one place (a tab stop, left or right aligned)."""
    return bool(above and below) and (abs(above[0] - below[0]) <= 3 or abs(above[1] - below[1]) <= 3)


def _trailing_choices(words: list[Word]) -> tuple[list[Word], tuple[str, ...]]:
    """A row's words without the options marked at its end after a gap of 10 pt or more ("1. The
    provider shall …      ☐ Yes  ☐ No", "… Yes / No", "… of the Act 2015?      Yes/No"), or boxes to tick after any gap, and those options' labels (() when none: a row
    of options alone is one, "choices", of its own)."""
    if choices_of(" ".join(w.text for w in words)):
        return words, ()
    for i in range(1, len(words)):
        tail = " ".join(w.text for w in words[i:])
        apart = words[i].box.x0 - words[i - 1].box.x1 >= 10
        if apart or (is_glyph(words[i].text) and box_choices(tail)):
            choices = choices_of(tail)  # (boxes to tick end a statement however close they follow it)
            choices = choices or (row_choices(tail) if apart and i == len(words) - 1 else ())  # "…?    Yes/No"
            if choices:
                return words[:i], choices
    return words, ()


_GLUED = re.compile(r"^(_{4,})?([^_]+?)(_{4,})?$")  # "Name_____", "_____Postcode_____": a label glued to a blank
_FIELD_WORDS = 6  # a field's label: six words at most


def typed_fields(words: list[Word]) -> list[list[Word]]:
    """The labels of a line typed as a form's fields, each glued to the run of underscores to write
    on after it, with no colon ("Bank Name_____ Account Name_____"; "_____Postcode_____" after the
    blank of the field before), each label's words those since the blank before it (six at most);
    in such a line (one label glued at least), a label after its last blank is a field too, its blank
    beside or under it ("Bank Address_____    Sort Code", "_______    Account No."). The labels as
    their words, the underscores taken off; [] for any other line (a label and a colon before a
    blank typed apart from it is _typed_blank's)."""
    labels: list[list[Word]] = [[]]
    glued = False
    for w in words:
        m = _GLUED.match(w.text)
        if set(w.text) == {"_"} and len(w.text) >= 4:
            glued = glued or not labels[-1]  # a blank alone, a label after it
            labels.append([])
            continue
        if m is None or not (m.group(1) or m.group(3)):
            labels[-1].append(w)
            continue
        glued = glued or any(c.isalpha() for c in m.group(2))
        if m.group(1):
            labels.append([])
        labels[-1].append(replace(w, text=m.group(2)))
        if m.group(3):
            labels.append([])
    labels = [label for label in labels if label]
    if not glued or not all(
        len(label) <= _FIELD_WORDS and any(c.isalpha() for w in label for c in w.text) for label in labels
    ):
        return []
    return labels


def _typed_blank(words: list[Word], masked: bool = True) -> tuple[list[Word], bool]:
    """A row's words without a line typed to write on at its end (words of underscores only)
    after a label ending with a colon ("Company name:   ______"), or (``masked``: not a line of a
    boxed option's text, "☐ Non-Compliant: … / Target Date for Compliance: YYYY-MM-DD", the option's
    own) without a date's format mask right after such a label in the same run of words
    ("Self-assessment completion date: YYYY-MM-DD", "Datum: JJJJ-MM-TT": the date to write there),
    and whether there was one."""
    end = len(words)
    while end > 1 and set(words[end - 1].text) == {"_"} and len(words[end - 1].text) >= 4:
        end -= 1
    if end == len(words) and masked:
        colon = next((k for k, w in enumerate(words[:-1]) if re.search(r"[:：]$", w.text)), None)
        spaced = all(b.box.x0 - a.box.x1 < 0.45 * max(b.box.height, 1.0) for a, b in itertools.pairwise(words))
        if colon is not None and spaced and is_date_mask(" ".join(w.text for w in words[colon + 1 :])):
            end = colon + 1
    if end == len(words) or not re.search(r"[:：]$", words[end - 1].text):
        return words, False
    return words[:end], True


def _marks_under(items: list[Item]) -> list[Item]:
    """A row of options ("☐ Yes ☐ No", "Yes / No") right under a numbered item, starting under it,
    made that item's options (a numbered checklist's marks below each question); a row of boxes
    ("☐ Yes ☐ No ☐ NA") right under an unnumbered statement too, when they would not have fitted on
    its last line (a checklist's statement whose boxes wrapped onto the next line)."""
    out: list[Item] = []
    right = max((i.box.x1 for i in items), default=0.0)  # the text's right edge
    for item in items:
        above = out[-1] if out else None
        boxed = bool(box_choices(item.text))
        # (under a statement only when they did not fit on its last line: wrapped, not an instruction's own row)
        boxed = boxed and above is not None and above.box.x1 + (item.box.x1 - item.box.x0) + 4 > right
        if (
            item.kind == "choices"
            and above is not None
            and (
                above.kind == "number"
                or (above.kind == "" and (boxed or _typed_under(item, above, out[-2] if len(out) > 1 else None)))
            )
            and not above.choices
            and item.box.x0 >= above.box.x0
            and item.box.y0 - above.box.y1 <= 1.5 * max(item.box.height, 1.0)
        ):
            above.choices, above.boxed = row_choices(item.text), boxed
            continue
        out.append(item)
    return out


def _typed_under(item: Item, above: Item, before: Item | None) -> bool:
    """Options typed as words on a line of their own ("Yes/No", "Yes / No / N/A") right under a
    paragraph that asks ("Please confirm whether your turnover is …", "Has your organisation …"):
    that paragraph's answers to circle, a question of those options; not under the lines of a
    numbered item's paragraph wrapped back to its number (``before``, less than half a line above)."""
    wrapped = before is not None and before.kind == "number" and above.box.y0 - before.box.y1 < item.box.height / 2
    return not wrapped and not box_choices(item.text) and _first_asks(above.text)


def _first_asks(text: str) -> bool:
    """Whether a paragraph's first sentence asks (by its first word or its "?"): a question over its
    options, not a section's title and guidance run on into the question they end with ("User Support
    - Applicable to lots 2a and 2b Award criteria Your response must confirm … Will your organisation
    …?")."""
    first = re.match(r"(.+?[.?？。])(?:\s|$)", text)
    return asks(first.group(1) if first else text)


def row_choices(text: str) -> tuple[str, ...]:
    """The options a row of text alone offers: boxes with labels, option words parted by " / "
    (boxes.choices_of), option words each before its box ("Yes ☐ No ☐", "Ja ☐ Nein ☐"), or two or more option words joined by "/" with no space ("Yes/No",
    "Yes/No/Not Applicable", "Yes/No/N/A": a form's answers to circle, typed on their own line)."""
    found = choices_of(text) or box_choices(text, before=True)  # (or each label before its box: "Yes ☐ No ☐")
    if found:
        return found
    labels = [part.replace("\0", "/") for part in re.sub(r"(?i)\bn/a\b", "N\0A", text.strip()).split("/")]
    return tuple(labels) if len(labels) >= 2 and all(OPTION_WORDS.match(label) for label in labels) else ()


def _before_gap(words: list[Word]) -> str:
    """The words before the first gap of 30 pt or more between two of them (a label, then a column of
    guidance beside it on its row: "Animal Facilities      Buyers using the RM6264 …"); "" when none."""
    for i in range(1, len(words)):
        if words[i].box.x0 - words[i - 1].box.x1 >= 30:
            return " ".join(w.text for w in words[:i])
    return ""


def _visual_rows(lines: list[Line]) -> list[tuple[list[Word], int]]:
    """Lines that share a row merged (a marker "a." set apart from its text), top to bottom, each
    with the MuPDF block of its first line."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: (ln.box.y0, ln.box.x0)):
        for row in rows[-3:]:
            if row[0].box.same_row(line.box) and not (line.blank or any(x.blank for x in row)):  # fields apart
                row.append(line)
                break
        else:
            rows.append([line])
    out: list[tuple[list[Word], int]] = []
    for row in rows:
        ordered = sorted(row, key=lambda ln: ln.box.x0)
        words = [w for line in ordered for w in line.words]
        if words and out and _wrapped_label(out[-1][0], words):
            out[-1][0].extend(words)  # "… ☐ Yes ☐ No ☐" over "NA": the last box's label, wrapped
        elif words:
            out.append((words, ordered[0].block))
    return out


def _wrapped_label(above: list[Word], words: list[Word]) -> bool:
    """Whether ``words`` are the label of the box that ends the row ``above``, wrapped onto a line of
    their own: that row ends with a box after a run of two labelled boxes or more ("… ☐ Yes ☐ No ☐"),
    and the line is an option's words alone ("NA")."""
    if not above or not above[-1].glyph or not words or any(w.glyph for w in words):
        return False
    run = next((above[i:-1] for i, w in enumerate(above[:-1]) if w.glyph and box_choices(_text(above[i:-1]))), [])
    return bool(run) and bool(OPTION_WORDS.match(_text(words)))


def _text(words: list[Word]) -> str:
    return " ".join(w.text for w in words)


def _marker(words: list[Word]) -> tuple[str, str, list[Word]]:
    """(kind, marker, the words after it) of a row: kind is "bullet", "box", "number" or ""."""
    first = words[0].text
    if first[:1] in "○◯" and len(first) > 1 and first[1].isalnum():  # "◯Yes": the radio run into its label
        return "bullet", first[0], [replace(words[0], text=first[1:]), *words[1:]]
    if is_glyph(first) and first != "■":
        return "box", first, words[1:]
    if first in _BULLETS or first == "■":  # a filled square marks an item; a box to tick is empty
        return "bullet", first, words[1:]
    if first in ("(", "[") and len(words) > 2 and words[1].text in (")", "]") or first in ("()", "[]"):
        return "bullet", "( )", words[2 if first in ("(", "[") else 1 :]  # a radio written "( )": see _option
    if _LETTER_ID.match(ascii_digits(first)) and len(words) > 1:  # "A-2", "C-1 – Please provide …"
        return "number", ascii_digits(first), words[2:] if words[1].text in ("-", "–") and len(words) > 2 else words[1:]
    if _NUMBER.match(ascii_digits(first)) and len(words) > 1:
        return "number", ascii_digits(first).strip("().").rstrip(".)"), words[1:]  # "（１）" → "1"
    if _box_after(words):  # "Yes I have a Statement      ☐": an option, its box after its label
        return "box", words[-1].text, words[:-1]
    return "", "", words


def _box_after(words: list[Word]) -> bool:
    """A label (a line's words, twenty-five at most, no box among them) and one box to tick after it,
    a tab's gap or a space between: an option one a line with its box after its label ("Yes I have a
    Statement   ☐" / "Organisation has less than 5 staff   ☐", "… for the length of this contract ☐",
    "Yes ☐"), read as a box before its label, its item ended by the box (the line under it is no part
    of the option)."""
    *label, last = words
    return (
        1 <= len(label) <= 25
        and is_glyph(last.text)
        and last.text != "■"
        and not any(is_glyph(w.text) for w in label)
        and last.box.x0 > label[-1].box.x0  # (after it: a word's box may run on over its trailing space)
    )


def _wrapped_option(current: Item, words: list[Word], kind: str, indent: float) -> bool:
    """Whether a row right under the paragraph ``current`` (no marker, not ended) ends it as an option
    whose label wrapped (forty words at most): a box alone on the row (the label's box pushed onto the
    next line), or the label's last words starting in lower case with the box after them ("…
    pending development of your" / "procedures prior to award   ☐"). ``current`` then is that
    option, a box item ended by its box (see _box_after)."""
    if current.kind or current.ended or current.blank or len(current.text.split()) > 40 or words[0].box.x0 < indent:
        return False
    alone = len(words) == 1 and is_glyph(words[0].text) and words[0].text != "■"
    if not alone and not (kind == "box" and _box_after(words) and words[0].text[:1].islower()):
        return False
    if not alone:
        current.text = wrapped(current.text, " ".join(w.text for w in words[:-1])).strip()
    current.kind, current.marker, current.ended = "box", words[-1].text, True
    current.box = current.box.union(Box(words[0].box.x0, words[0].box.y0, words[-1].box.x1, words[-1].box.y1))
    return True


def item_questions(items: list[Item], tables: bool = False) -> list[Found]:
    """The questions among the items (see the module docstring)."""
    runs, heads = _option_runs(items)
    boxes = sum(1 for i in items if i.kind == "box" and id(i) not in runs)
    checklist = boxes >= 3 and 2 * boxes >= len(items)  # a list of ticks, not a document with a few boxes
    numbered = set() if checklist else _numbered_questions(items)
    runs, lists = _lead_in_lists(runs, heads, tables and not checklist, numbered)
    # in a document that neither numbers its questions nor sets them in tables (``tables``: it has table
    # questions), a label over an answer place or a run of options is one (a web form printed)
    fields = set() if numbered or checklist or tables else {id(i) for i in items if _over_place(i)}
    labels = fields | (set() if numbered or checklist or tables else {id(h) for h in heads.values()})
    out: list[Found] = []
    lead: tuple[Item, Found] | None = None  # the last question, while items may hang from it
    before = 0  # how many questions there were before the item above
    numbered_above = False  # the question of the item above is one the document numbers
    count, last = 0, None  # the questions before the item above, and the last of them
    since, plain = 99, False  # items since the one that made (or extended) the last question; the item above's
    claimed = {id(i) for run, _ in lists for i in run}  # the items of a run of options taken as a question's choices
    radios = any(i.round for i in items)  # the document draws radios round: its square boxes are check boxes
    gap: list[str] = []  # the lines since the item that made (or extended) the last question
    above = ""
    for item in items:
        made = bool(out) and (len(out) > count or out[-1] is not last)  # the item above made or extended one
        since = 0 if made else since + (1 if plain else 99)  # paragraphs between ("Tick all that apply.")
        gap = [] if made else [*gap, above]
        count, last, plain, above = len(out), (out[-1] if out else None), not item.kind, item.text
        run = runs.get(id(item))
        if run is not None and run[0] is item and since <= 2 and not checklist:  # a question's options
            chosen = [_label(i) for i in run if i.marker == DRAWN_MARKED]  # a radio's filled dot
            choices = tuple(_label(i) for i in run)
            out[-1] = replace(
                out[-1],
                choices=choices,
                several=takes_several(choices, out[-1].text, *gap)  # "Tick all that apply." between
                or (radios and not any(i.round for i in run) and several_options(choices)),
                choice_place=out[-1].text_place,
                existing_choice=chosen[0] if len(chosen) == 1 else None,
            )
            claimed |= {id(i) for i in run}
            lead, before, numbered_above = None, len(out), False
            count, last = len(out), out[-1]
            continue
        if id(item) in claimed:
            count, last = len(out), (out[-1] if out else None)
            continue
        goes_on = numbered_above and not item.kind and (item.wraps or _asking_paragraph(item.text))
        numbered_above = goes_on or id(item) in numbered
        if item.kind == "choices":  # the options of the question of the item right above, if any
            if len(out) == before + 1:
                out[-1] = replace(out[-1], choices=row_choices(item.text), choice_place=out[-1].text_place)
            lead, before = None, len(out)
            continue
        before = len(out)
        if goes_on:  # its lines wrapped, or a paragraph asking under it: part of the numbered question above
            out[-1] = replace(out[-1], text=f"{out[-1].text} {item.text}")
            continue
        if item.blank and (item.text.endswith(":") or item.form):
            out.append(replace(label_question(item.page, item.box, item.text), part=item.part))
            lead = None
            continue
        if checklist and item.kind != "box" and lead and item.kind:
            lead = (lead[0], _append(lead[1], item))  # a line under a checklist statement: part of it
            out[-1] = lead[1]
            continue
        if _is_question(item, numbered, checklist) or id(item) in labels:
            q = _item_question(item, item.kind == "box" or asks_yes_no(item.text), item.choices, id(item) in fields)
            out.append(q)
            lead = (item, q) if re.search(r"[?:]\s*$", item.text) else None
            continue
        if lead and item.kind and not checklist and not (item.kind == "box" and item.ended):  # (an option: no topic)
            parent = lead[1]
            out.append(
                replace(
                    _item_question(item, yes_no=parent.choices == YES_NO),
                    text=f"{parent.text}{SUB}{item.text}",
                )
            )
            continue
        lead = None
    return out + [listed for _, listed in lists]


def _is_question(item: Item, numbered: set[int], checklist: bool) -> bool:
    """Whether an item is a question by its number, its marks or its words (see item_questions)."""
    return (
        id(item) in numbered
        or (item.kind == "number" and bool(item.choices))  # a numbered question with its options' marks
        or (item.kind == "" and item.boxed and bool(item.choices))  # a statement with its boxes to tick beside it
        or (item.kind == "" and not item.wraps and bool(item.choices) and _first_asks(item.text))  # over "Yes/No"
        or (checklist and item.kind == "box")
        or _lettered_field(item)
        # (a paragraph wrapped back to the marker of the item above is that item's, no question of its own)
        or (not checklist and bool(item.kind or (_asking_paragraph(item.text) and not item.wraps)) and asks(item.text))
    )


def _lettered_field(item: Item) -> bool:
    """An item the document numbers by a section's letter and a number ("A-2 Registration Number",
    "C-1 …") over a blank space of three lines or more before the next item (the text box to answer
    in, printed empty): a form's label, a question whatever its words."""
    return item.kind == "number" and bool(_LETTER_ID.match(item.marker)) and item.space >= 3


def _over_place(item: Item) -> bool:
    """A label over an answer place that asks or ends with "?" or ":" ("Name of the provider:")."""
    return (
        item.field and item.kind in ("", "number") and (asks(item.text) or bool(re.search(r"[?:？：]\s*$", item.text)))
    )


def _lead_in_lists(
    runs: dict[int, list[Item]], heads: dict[int, Item], tables: bool, numbered: set[int]
) -> tuple[dict[int, list[Item]], list[tuple[list[Item], Found]]]:
    """In a document that sets its questions in tables (``tables``), the runs of options whose head is
    no question of its own (a lead-in: "Select one:", "… for this payment channel:"): a run of boxes to
    tick before statements on the lead-in's page, each a box drawn or a box's character ("☐", not a
    symbol font's private character: a bulleted list's Wingdings bullet reads as a box), is one
    question, its text the lead-in's and the statements', its options the statements, each named by
    its words up to a colon (as boxes.box_list reads such a list drawn in a table); any other such run
    is no question's options (its items read as they are). The runs left, and the lists with their
    questions."""
    if not tables:
        return runs, []
    kept: dict[int, list[Item]] = {}
    lists: list[tuple[list[Item], Found]] = []
    for first, head in heads.items():
        run = runs[first]
        if _is_question(head, numbered, False) or (head.blank and head.text.endswith(":")):
            kept |= {id(r): run for r in run}
        elif head.page == run[0].page and all(
            r.kind == "box" and not "\ue000" <= r.marker[:1] <= "\uf8ff" for r in run
        ):
            choices = tuple(_label(r) if r.ended else option_name(r.text) for r in run)  # (a label: whole)
            place = response_place(f"page {run[0].page + 1}, {choices[0][:40]}")
            box = head.box.union(run[-1].box)
            text = f"{head.text} " + " / ".join(r.text for r in run)
            several = takes_several(choices, head.text)  # "(select all that apply)"
            ident = head.marker if head.kind == "number" else None  # a numbered lead-in's number ("1.4")
            lists.append(
                (run, Found(run[0].page, box, ident, text, choices, place, place, several=several, part=run[0].part))
            )
    return kept, lists


def _option_runs(items: list[Item]) -> tuple[dict[int, list[Item]], dict[int, Item]]:
    """Runs of two or more items one after the other, each a box (a radio circle, a square) before
    a label that does not end with "?" ("UK Company - VAT Registered in the UK", "Yes"), right under
    an item that asks or is numbered (up to two paragraphs between that do not: "Tick all that
    apply."): the options of the question above them, one a line (a web form printed), a run going
    on over a page's footer (short lines without a box) to the boxes at the top of the next; by the
    id of each item, its run; and by the id of each run's first item, the item it answers. A run of radios written
    "○" / "◯" / "( )" follows a question that asks by its words or "?" (not only a ":" or a number: a
    list's bullets). A checklist's statements follow a heading, not a question."""
    out: dict[int, list[Item]] = {}
    heads: dict[int, Item] = {}  # the first item of each run: the question it answers
    run: list[Item] = []
    start = 0
    for i, item in enumerate([*items, None]):
        if item is not None and _option(item) and not item.text.rstrip().endswith(("?", "？")):
            start = i if not run else start
            run.append(item)
            continue
        if run and item is not None and _footer(items, i, run[-1]):
            continue
        head = _under_question(items[:start]) if len(run) >= 2 else None
        if head is not None and all(r.kind == "bullet" for r in run) and not asks(head.text):
            head = None  # "○" bullets under a heading ("Advanced LMS functionality:"): a list, not a choice
        if head is not None:
            out |= {id(r): run for r in run}
            heads[id(run[0])] = head  # the question the run answers (a label that asks without "?" included)
        run = []
    return out, heads


def _option(item: Item) -> bool:
    """An item that may be an option: a box before its label, or a radio written "○", "◯" or "( )"."""
    return item.kind == "box" or (item.kind == "bullet" and item.marker in _RADIOS)


_LEAD_IN_END = re.compile(r"[?:？：]\s*(?:[(（][^()（）]{1,60}[)）]\s*)?$")  # "…: (Select all that apply)"


def _under_question(above: list[Item]) -> Item | None:
    """The last of ``above`` that is neither a plain paragraph (two at most) nor the lines of one
    wrapped back to its marker (the marked item's: "2.1 Please confirm … or is prepared to obtain
    the level of cover" / "prior to award?"), when it asks or is numbered, or ends with "?" or ":", an
    instruction in brackets after it or not ("Signatory(s) confirms: (Select all that apply)", under a
    title set close above it and read as one paragraph with it); else None."""
    plain = 0
    for k, item in enumerate(reversed(above)):
        if item.wraps and k + 1 < len(above):  # a marked item's lines wrapped back ("prior to award?"): that item's
            continue
        if item.kind == "number" or asks(item.text) or _LEAD_IN_END.search(item.text):
            return item
        if _last_asks(item) and not item.wraps:  # (a numbered item's lines wrapped back: that item's)
            return item
        if item.kind or (not item.wraps and (plain := plain + 1) > 2):
            return None
    return None


def _last_asks(item: Item) -> bool:
    """A paragraph whose last sentence asks by its first word ("… a written Equalities Statement. Please
    confirm if you have a statement …, or less than 5 staff."): the question over the options under it."""
    sentences = re.split(r"(?<=[.?!。？])\s+", item.text.strip())
    return not item.kind and len(sentences) > 1 and asks(sentences[-1])


def _label(item: Item) -> str:
    """An option's label: its words up to a column beside it, or all of them, or, past twelve, its
    name (option_name: "List X Property These …"); a label with its box after it (_box_after), all
    its words however many ("Yes have levels of cover already and will continue to for this contract")."""
    if item.kind == "box" and item.ended:  # a label with its box after it: its words, a column's gap among them
        return item.text
    text = item.apart or item.text
    return text if len(text.split()) <= 12 else option_name(text)


def _footer(items: list[Item], at: int, last: Item) -> bool:
    """Whether ``items[at]`` starts a running footer between the options of one question: short
    lines without a marker (ten words at most, or a box with them: an option cut by the page's foot,
    its label lost) below the box item ``last`` on its page, then, at the next page's top, lines in
    its top 6 % only (its running header: a browser prints the date and the form's title), then a
    box item."""
    for item in items[at:]:
        if item.page != last.page and (item.page != last.page + 1 or _option(item) or not item.margin):
            return item.page == last.page + 1 and _option(item)  # the run goes on at the next page's top
        words = item.text.split()
        long = len(words) > 10 and not any(is_glyph(w) for w in words)  # a box cut by the page's foot: its row
        if item.kind or long or (item.page == last.page and item.box.y0 < last.box.y0):
            return False
    return False


def _numbered_questions(items: list[Item]) -> set[int]:
    """The ids of the items a document numbers as its questions: a run of at least five items
    numbered one after the other ("1.", "2.", "3." …, across pages) at one left edge, two thirds of
    which ask: each item of the run is a question, whether or not it asks by its words ("4. In
    accordance with questions 140 …, please confirm …", "68. For all contracts entered into …",
    the CCS RM6264 web form printed). A numbered list inside a question starts further right."""
    edges: list[list[Item]] = []  # the whole-numbered items by their left edge
    for item in items:
        if item.kind != "number" or not item.marker.isdecimal():
            continue
        edge = next((e for e in edges if abs(e[0].box.x0 - item.box.x0) <= 3), None)
        if edge is None:
            edges.append([item])
        else:
            edge.append(item)
    out: set[int] = set()
    for edge in edges:
        runs: list[list[Item]] = []
        for item in edge:
            if runs and int(item.marker) == int(runs[-1][-1].marker) + 1:
                runs[-1].append(item)
            else:
                runs.append([item])
        for run in runs:
            if len(run) >= 5 and 3 * sum(asks(i.text) for i in run) >= 2 * len(run):
                out |= {id(i) for i in run}
    return out


def _asking_paragraph(text: str) -> bool:
    """A paragraph without a marker that ends with "?", and starts a sentence: one that starts in
    lower case goes on from the text above it (a numbered paragraph's lines back at the margin:
    "potential supplier at this stage … What is meant by 'rely on' an organisation?", PPN 03/24)."""
    return text.rstrip().endswith(("?", "？")) and not text[:1].islower()


def _item_question(item: Item, yes_no: bool, choices: tuple[str, ...] = (), label: bool = False) -> Found:
    """The question of an item: its options ``choices`` (its marks), else Yes / No where ``yes_no``;
    its text without a closing "(required)" (a web form's mark), nor, for a ``label`` over an answer
    place, its closing colon."""
    locator = f"page {item.page + 1}" + (f", item {item.marker}" if item.kind == "number" else "")
    place = response_place(locator)
    choices = choices or (YES_NO if yes_no else ())
    return Found(
        page=item.page,
        box=item.box,
        id=item.marker if item.kind == "number" else None,
        text=_clean(item.text, label),
        choices=choices,
        choice_place=place if choices else None,
        text_place=place,
        part=item.part,
    )


_REQUIRED = re.compile(
    r"\s*[(（](required|mandatory|pflichtfeld|erforderlich|obligatoire|requis|verplicht|必須)[)）]\s*$", re.IGNORECASE
)


def _clean(text: str, label: bool) -> str:
    text = _REQUIRED.sub("", text)
    return re.sub(r"\s*[:：]\s*$", "", text) if label else text


def _append(q: Found, item: Item) -> Found:
    marker = f"{item.marker}. " if item.kind == "number" else "– "
    return replace(q, text=f"{q.text} {marker}{item.text}")
