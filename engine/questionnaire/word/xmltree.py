"""WordprocessingML as the Word questionnaire reader and writer see it: the text of a paragraph
as Word shows it (the text of content controls inside it included, which python-docx's
``paragraph.text`` drops; deleted text of tracked changes left out, inserted text kept: a document
read as if its changes were accepted; field codes left out, field results kept), the boxes a
paragraph draws (checkbox content controls, legacy FORMCHECKBOX fields, ☐ glyphs) with the words
that label them, the content controls and legacy form fields it holds, and a table as a grid of
cells with its merges resolved.

Elements are lxml elements of the document part (engine/questionnaire/word/package.py parses it);
a place in the document is named by :func:`locator` (an XPath from the part's root, such as
``/w:document/w:body/w:tbl[3]/w:tr[2]/w:tc[2]``) and found again by :func:`resolve`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml import etree

from engine.questionnaire.placeholders import is_placeholder

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W14_NS = "http://schemas.microsoft.com/office/word/2010/wordml"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
W = f"{{{W_NS}}}"
W14 = f"{{{W14_NS}}}"

# wrappers whose children belong to their parent's flow (a block, a row, a cell or a run sequence)
_WRAPPERS = {f"{W}customXml", f"{W}smartTag", f"{W}ins", f"{W}moveTo", f"{W}dir", f"{W}bdo", f"{W}fldSimple"}
_SKIPPED = {f"{W}del", f"{W}moveFrom"}  # tracked deletions: not in the accepted document
# run content never read as text: drawings and text boxes (their own flow), VML, embedded objects
_OPAQUE = {
    f"{W}drawing",
    f"{W}pict",
    f"{W}object",
    "{http://schemas.openxmlformats.org/markup-compatibility/2006}AlternateContent",
}
BOX_GLYPHS = {"☐": False, "□": False, "❏": False, "❑": False, "☒": True, "☑": True, "■": True, "⊠": True}
# Wingdings boxes typed as private-use characters in the text (the GSA checklist's "\uf06f Yes \uf06f No"):
# unchecked, and the checked box of the same font that ticks each
PRIVATE_BOXES = {"\uf06f": "\uf0fe", "\uf0a8": "\uf0fe", "\uf071": "\uf0fe"}
BOX_GLYPHS.update({ch: False for ch in PRIVATE_BOXES} | {"\uf0fe": True, "\uf0fd": True})
UNCHECKED_GLYPHS = "☐□❏❑"
# Wingdings / Symbol characters Word draws as boxes (w:sym w:char): unchecked, checked
# the same codes in the Symbol font are other signs: F0A8 is ♦ (the PCI SAQ's "Response♦"), F071 θ, F078 ξ
SYMBOL_FONT_NOT_BOXES = {"F0A8", "F071", "F078", "F06F"}
SYMBOL_FONTS = {"symbol", "wingdings", "wingdings 2", "wingdings 3", "webdings"}
SYM_BOXES = {"F06F": False, "F0A8": False, "F071": False, "F0FE": True, "F078": True, "F0FD": True}
BLANK = re.compile(
    r"^[\s_.…\u2002\u2003\u00a0\-–—]*$"  # nothing, spaces, an underscore line, dots, an ellipsis
    r"|^(?:\s*(?:\[[^\]]{0,60}\]|<[^<>]{0,60}>|_{3,}))+\s*$"  # [Number], <Fill In>, <insert diagram>, ____
    r"|^\s*(?:click|tap|select|choose)\b[^.]{0,60}\b(?:enter|select|choose)\b[^.]{0,60}\.?\s*$"  # Click here to enter text.
    r"|^\s*(?:enter|type|insert|fill in)\b[^.]{0,40}\bhere\b[^.]{0,20}\.?\s*$"  # Enter text here
    r"|^\s*(?:select|choose|pick)\s+(?:one|an?\s+(?:item|option|value|date))\.?\s*$",  # Select One, Choose an item.
    re.IGNORECASE,
)


def qn(tag: str) -> str:
    """``"w:p"`` → ``"{…/main}p"``."""
    prefix, local = tag.split(":")
    return f"{{{W14_NS if prefix == 'w14' else W_NS}}}{local}"


def local(el: etree._Element) -> str:
    return etree.QName(el).localname if isinstance(el.tag, str) else ""


def is_blank(text: str) -> bool:
    """Whether a place's text is no answer: empty, an underscore line, a placeholder such as
    ``<Fill In>``, ``[Number]`` or "Click here to enter text.", a date mask ("YYYY-MM-DD"), an
    instruction ("Insert CSP Name"), in any script (engine/questionnaire/placeholders.py)."""
    return bool(BLANK.match(text or "")) or is_placeholder(text)


# the hidden bookmark an export puts on an answer written where the document drew no place for one
# (a new paragraph after the question, a text box): how a reader knows it again as an answer, not guidance
ANSWER_BOOKMARK = "_Answer"


def written_answer(el: etree._Element) -> bool:
    """Whether ``el`` (a paragraph, a text box) holds an answer an export wrote (:data:`ANSWER_BOOKMARK`)."""
    return any((b.get(f"{W}name") or "").startswith(ANSWER_BOOKMARK) for b in el.iter(f"{W}bookmarkStart"))


LINE = "_____"  # an answer written on an underscore line, read where the line was


def line_pieces(p: etree._Element) -> list[tuple[str, etree._Element, str | None]]:
    """A paragraph's own text (not its text boxes') in pieces, in order: each ``w:t`` with its text
    (answer None), and each answer an export wrote on one of its underscore lines (inside an
    :data:`ANSWER_BOOKMARK`) as one piece: :data:`LINE`, its ``w:bookmarkStart`` and the answer."""
    out: list[tuple[str, etree._Element, str | None]] = []
    inside: str | None = None
    for el in p.iter(f"{W}bookmarkStart", f"{W}bookmarkEnd", f"{W}t"):
        if next(el.iterancestors(f"{W}p"), None) is not p:
            continue
        if el.tag == f"{W}bookmarkStart" and (el.get(f"{W}name") or "").startswith(ANSWER_BOOKMARK):
            inside = el.get(f"{W}id")
            out.append((LINE, el, ""))
        elif el.tag == f"{W}bookmarkEnd" and el.get(f"{W}id") == inside:
            inside = None
        elif el.tag == f"{W}t" and inside is not None:
            text, start, answer = out[-1]
            out[-1] = (text, start, f"{answer}{el.text or ''}")
        elif el.tag == f"{W}t":
            out.append((el.text or "", el, None))
    return out


def wval(el: etree._Element | None, default: str | None = None) -> str | None:
    """The ``w:val`` attribute of ``el`` (``default`` when ``el`` is None or has none)."""
    if el is None:
        return default
    return el.get(f"{W}val", el.get(f"{W14}val", default))


def on(el: etree._Element | None) -> bool:
    """An on/off property (``<w:b/>``, ``<w:checked w:val="0"/>``): present and not false."""
    return el is not None and wval(el, "1") not in ("0", "false", "off")


def guidance_look(rpr: etree._Element | None) -> list[etree._Element]:
    """The run properties that give text a hint's look: italics, a grey colour ("808080", "A6A6A6":
    equal red, green and blue between dark and white)."""
    if rpr is None:
        return []
    out = [el for el in (rpr.find(f"{W}i"), rpr.find(f"{W}iCs")) if on(el)]
    color = rpr.find(f"{W}color")
    value = wval(color) or ""
    if re.fullmatch(r"[0-9A-Fa-f]{6}", value):
        r, g, b = (int(value[i : i + 2], 16) for i in (0, 2, 4))
        if max(r, g, b) - min(r, g, b) <= 16 and 0x40 <= r <= 0xE0:
            out.append(color)
    return out


# ------------------------------------------------------------------------------------ locators


class Locations:
    """The addresses of many elements of one part (lxml's ``getpath`` counts the siblings anew
    for every element): each parent's children numbered once."""

    def __init__(self, root: etree._Element) -> None:
        self._paths: dict[etree._Element, str] = {root: "/" + self._name(root)}
        self._steps: dict[etree._Element, str] = {}

    @staticmethod
    def _name(el: etree._Element) -> str:
        local = etree.QName(el).localname
        return f"{el.prefix}:{local}" if el.prefix else local

    def __call__(self, el: etree._Element) -> str:
        path = self._paths.get(el)
        if path is not None:
            return path
        parent = el.getparent()
        if parent is None:
            return el.getroottree().getpath(el)
        if el not in self._steps:  # number the parent's children once, by tag ("w:p[3]"; a lone one unnumbered)
            children = [c for c in parent if isinstance(c.tag, str)]
            totals: dict[str, int] = {}
            for child in children:
                totals[child.tag] = totals.get(child.tag, 0) + 1
            counts: dict[str, int] = {}
            for child in children:
                counts[child.tag] = counts.get(child.tag, 0) + 1
                name = self._name(child)
                self._steps[child] = name if totals[child.tag] == 1 else f"{name}[{counts[child.tag]}]"
        path = f"{self(parent)}/{self._steps[el]}"
        self._paths[el] = path
        return path


_LOCATIONS: dict[int, tuple[etree._Element, Locations]] = {}


def forget_locations() -> None:
    """Let go of the part whose elements :func:`locator` numbered (the reader calls it when done:
    a large document's tree is not kept alive by the cache)."""
    _LOCATIONS.clear()


def locator(el: etree._Element) -> str:
    """The element's address in its part: an XPath from the root (stable for the same bytes),
    as lxml's ``getpath`` writes it. The numbering of one part is kept until
    :func:`forget_locations` (or another part's element is located)."""
    root = el.getroottree().getroot()
    held = _LOCATIONS.get(id(root))
    if held is None or held[0] is not root:
        _LOCATIONS.clear()  # one part at a time: the reader's
        held = _LOCATIONS[id(root)] = (root, Locations(root))
    return held[1](el)


_STEP = re.compile(r"^(?:(\w+):)?([\w-]+)(?:\[(\d+)\])?$")


_DRAWING_NS = {
    "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
    "pic": "http://schemas.openxmlformats.org/drawingml/2006/picture",
    "wps": "http://schemas.microsoft.com/office/word/2010/wordprocessingShape",
    "wpg": "http://schemas.microsoft.com/office/word/2010/wordprocessingGroup",
    "wp": "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
    "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
    "v": "urn:schemas-microsoft-com:vml",
}


class Resolver:
    """Finds the elements :func:`locator` names in one part, walking its children (an XPath
    engine would compile every path; a questionnaire has thousands): the children of each
    element by tag are listed once."""

    def __init__(self, root: etree._Element) -> None:
        self.root = root
        self._prefixes = {k: v for k, v in root.nsmap.items() if k}
        self._prefixes.setdefault("w", W_NS)
        for prefix, uri in _DRAWING_NS.items():  # declared where a drawing starts, not on the root
            self._prefixes.setdefault(prefix, uri)
        self._children: dict[tuple[int, str], list[etree._Element]] = {}
        self._steps: dict[str, tuple[str, int] | None] = {}

    def __call__(self, path: str) -> etree._Element | None:
        steps = path.strip("/").split("/")
        el = self.root
        first = self._step(steps[0]) if steps else None
        if first is None or first[0] != el.tag:
            return None
        for step in steps[1:]:
            parsed = self._step(step)
            if parsed is None:
                return None
            tag, index = parsed
            key = (id(el), tag)
            kids = self._children.get(key)
            if kids is None:
                kids = self._children[key] = [c for c in el if c.tag == tag]
            if not 0 <= index < len(kids):
                return None
            el = kids[index]
        return el

    def _step(self, step: str) -> tuple[str, int] | None:
        """("{ns}tag", 0-based index) of one step of a path ("w:tc[2]")."""
        if step not in self._steps:
            m = _STEP.match(step)
            ns = self._prefixes.get(m.group(1)) if m and m.group(1) else ""
            if m is None or ns is None:
                self._steps[step] = None
            else:
                tag = f"{{{ns}}}{m.group(2)}" if ns else m.group(2)
                self._steps[step] = (tag, int(m.group(3) or 1) - 1)
        return self._steps[step]


def resolve(root: etree._Element, path: str) -> etree._Element | None:
    """The element ``path`` (:func:`locator`) names in the part whose root is ``root`` (one
    look-up; :class:`Resolver` for many)."""
    return Resolver(root)(path)


# ------------------------------------------------------------------------------- flows of blocks


def children(el: etree._Element) -> Iterator[etree._Element]:
    """The children of a block, row or cell container in the document's flow: content controls
    (``w:sdt``) and custom-XML / tracked-insertion wrappers opened, tracked deletions left out."""
    for child in el:
        tag = child.tag
        if tag == f"{W}sdt":
            content = child.find(f"{W}sdtContent")
            if content is not None:
                yield from children(content)
        elif tag in _WRAPPERS:
            yield from children(child)
        elif tag in _SKIPPED or not isinstance(tag, str):
            continue
        else:
            yield child


def blocks(container: etree._Element) -> list[etree._Element]:
    """The paragraphs and tables of a body, cell or content control, in order."""
    return [c for c in children(container) if c.tag in (f"{W}p", f"{W}tbl")]


def paragraphs(container: etree._Element) -> list[etree._Element]:
    """Every paragraph inside ``container`` (nested tables too), in document order."""
    return [p for p in container.iter(f"{W}p") if not _in_opaque(p, container)]


def _in_opaque(el: etree._Element, stop: etree._Element) -> bool:
    parent = el.getparent()
    while parent is not None and parent is not stop:
        if parent.tag in _OPAQUE or parent.tag in _SKIPPED:
            return True
        parent = parent.getparent()
    return False


# -------------------------------------------------------------------------------- inline content


@dataclass(frozen=True)
class Box:
    """A box the document draws to tick: ``kind`` ``"checkbox"`` (a w14 checkbox content control,
    ``el`` its ``w:sdt``), ``"FORMCHECKBOX"`` (a legacy field, ``el`` its ``w:ffData``) or
    ``"glyph"`` (a ☐ character, ``el`` its ``w:t`` or ``w:sym`` and ``offset`` its index in the
    text); ``label``: the words it stands for."""

    kind: str
    el: etree._Element
    checked: bool
    offset: int = 0
    label: str = ""

    def locator(self) -> str:
        return locator(self.el) + (f"#{self.offset}" if self.kind == "glyph" and self.el.tag == f"{W}t" else "")


@dataclass(frozen=True)
class Control:
    """A content control or legacy form field that takes text or a pick: ``kind`` one of
    ``text``, ``rich text``, ``dropdown``, ``combo box``, ``date``, ``FORMTEXT``, ``FORMDROPDOWN``;
    ``el`` the ``w:sdt`` (or the field's ``w:ffData``); ``items`` a list's entries; ``text`` what
    it shows; ``placeholder`` whether that is its placeholder text."""

    kind: str
    el: etree._Element
    text: str
    items: tuple[str, ...] = ()
    placeholder: bool = False
    tag: str = ""
    default: str = ""  # a legacy text field's default text (``w:textInput/w:default``)

    @property
    def drawn(self) -> str:
        """What it stands as in its paragraph's text: a legacy text field its default whatever was
        typed into it (see :func:`_close_formtext`), any other control what it shows."""
        return self.default if self.kind == "FORMTEXT" else self.text


@dataclass
class Inline:
    """A paragraph read: its text (controls' text included), its boxes and its controls."""

    text: str = ""
    boxes: list[Box] = field(default_factory=list)
    controls: list[Control] = field(default_factory=list)
    pieces: list[tuple[str, object]] = field(default_factory=list)  # ("text", str) | ("box", Box)
    # the words before the first box that are no box's label: "Do you agree?" of "Do you agree? ☐ Yes ☐ No"
    # and of "Do you agree? Yes ☐ No ☐"; "" for "Yes ☐ No ☐"
    head: str = ""


def sdt_kind(sdt: etree._Element) -> str:
    """What a content control is: checkbox, dropdown, combo box, date, text, picture, rich text…"""
    pr = sdt.find(f"{W}sdtPr")
    if pr is None:
        return "rich text"
    for tag, kind in (
        (f"{W14}checkbox", "checkbox"),
        (f"{W}dropDownList", "dropdown"),
        (f"{W}comboBox", "combo box"),
        (f"{W}date", "date"),
        (f"{W}text", "text"),
        (f"{W}picture", "picture"),
        (f"{W}docPartObj", "building block"),
        (f"{W}docPartList", "building block"),
        (f"{W}citation", "citation"),
        (f"{W}bibliography", "bibliography"),
        (f"{W}group", "group"),
        (f"{W}equation", "equation"),
    ):
        if pr.find(tag) is not None:
            return kind
    return "wrapper" if wrapped_control(sdt) is not None or _moved_table_control(sdt, pr) else "rich text"


def _moved_table_control(sdt: etree._Element, pr: etree._Element) -> bool:
    """A control that wrapped a whole table, as LibreOffice moves it when it saves the file: into the
    table's first cell, around that cell's paragraphs of words, with nothing but its id left (no type,
    tag, alias, placeholder or lock). The first cell of a table is its corner label, not an answer place:
    the control is a wrapper, the cell read as its words."""
    if any(c.tag not in (f"{W}id", f"{W}rPr") for c in pr):
        return False
    tc = sdt.getparent()
    if tc is None or tc.tag != f"{W}tc" or not "".join(sdt.itertext()).strip():
        return False
    tr = tc.getparent()
    tbl = tr.getparent() if tr is not None else None
    if tr is None or tr.tag != f"{W}tr" or tbl is None or tbl.tag != f"{W}tbl":
        return False
    return tbl.find(f"{W}tr") is tr and tr.find(f"{W}tc") is tc


def wrapped_control(sdt: etree._Element) -> etree._Element | None:
    """The one content control an untyped control holds and nothing else (empty runs aside), or
    None. LibreOffice saves a Word checkbox control so: an outer control keeping the id, the box inside;
    the outer one is a wrapper (``sdt_kind`` "wrapper"), never a place for text: what it holds is read."""
    content = sdt.find(f"{W}sdtContent")
    if content is None:
        return None
    inner = [c for c in content if c.tag == f"{W}sdt"]
    rest = [c for c in content if c.tag != f"{W}sdt" and isinstance(c.tag, str)]
    if len(inner) != 1 or any(c.tag != f"{W}r" or any(k.tag != f"{W}rPr" for k in c) for c in rest):
        return None
    return inner[0]


def list_items(pr: etree._Element) -> tuple[str, ...]:
    """The entries of a dropdown or combo box control (their shown text)."""
    box = pr.find(f"{W}dropDownList")
    box = box if box is not None else pr.find(f"{W}comboBox")
    if box is None:
        return ()
    out = []
    for item in box.findall(f"{W}listItem"):
        shown = (item.get(f"{W}displayText") or item.get(f"{W}value") or "").strip()
        if not prompt_item(shown):
            out.append(shown)
    return tuple(out)


_PROMPT_ITEM = re.compile(r"^[\s?？!.\-–—_*/\\|()]*$")


def prompt_item(item: str) -> bool:
    """Whether a list's entry is its prompt, not an option: empty, a mark alone ("?", "-", "--", "…"), a
    placeholder or an instruction ("Choose an item.", "Select one", "Please select")."""
    text = (item or "").strip()
    if _PROMPT_ITEM.match(text) or is_blank(text):
        return True
    return text.lower().startswith(("choose an item", "select", "please select", "please choose"))


def read_inline(p: etree._Element) -> Inline:
    """The text, boxes and controls of one paragraph (see the module docstring)."""
    out = Inline()
    state = _FieldState()
    _walk_inline(p, out, state)
    out.text = "".join(str(v) for k, v in out.pieces if k == "text")
    _label_boxes(out)
    return out


@dataclass
class _FieldState:
    depth: int = 0  # nested complex fields
    in_code: list[bool] = field(default_factory=list)  # per open field: between begin and separate
    ff: list[etree._Element | None] = field(default_factory=list)  # per open field: its ffData


def _walk_inline(el: etree._Element, out: Inline, state: _FieldState) -> None:
    for child in el:
        tag = child.tag
        if not isinstance(tag, str) or tag in _SKIPPED or tag in _OPAQUE:
            continue
        if tag == f"{W}pPr" or tag == f"{W}rPr":
            continue
        if tag == f"{W}sdt":
            _inline_sdt(child, out, state)
        elif tag == f"{W}r":
            _run(child, out, state)
        elif tag in _WRAPPERS or tag == f"{W}hyperlink":
            _walk_inline(child, out, state)


def _inline_sdt(sdt: etree._Element, out: Inline, state: _FieldState) -> None:
    kind = sdt_kind(sdt)
    content = sdt.find(f"{W}sdtContent")
    if kind == "checkbox":
        checked = on(sdt.find(f"{W}sdtPr/{W14}checkbox/{W14}checked"))
        out.pieces.append(("box", Box("checkbox", sdt, checked)))
        return
    before = len(out.pieces)
    if content is not None:
        _walk_inline(content, out, state)
    if kind in ("text", "rich text", "dropdown", "combo box", "date"):
        shown = "".join(str(v) for k, v in out.pieces[before:] if k == "text")
        pr = sdt.find(f"{W}sdtPr")
        placeholder = pr is not None and pr.find(f"{W}showingPlcHdr") is not None
        tag = wval(pr.find(f"{W}tag")) if pr is not None else ""
        items = list_items(pr) if pr is not None else ()
        out.controls.append(Control(kind, sdt, shown, items, placeholder, tag or ""))


def _run(r: etree._Element, out: Inline, state: _FieldState) -> None:
    for item in r:
        tag = item.tag
        if tag == f"{W}fldChar":
            _field_char(item, out, state)
        elif state.in_code and state.in_code[-1]:
            continue  # the field's instruction, not its result
        elif tag == f"{W}t":
            _text(item, out, symbol_font(r))
        elif tag in (f"{W}tab", f"{W}ptab"):
            out.pieces.append(("text", "\t"))
        elif tag in (f"{W}br", f"{W}cr"):
            out.pieces.append(("text", "\n"))
        elif tag == f"{W}noBreakHyphen":
            out.pieces.append(("text", "-"))
        elif tag == f"{W}sym":
            char = (item.get(f"{W}char") or "").upper()
            if _symbol_box(char, (item.get(f"{W}font") or "").lower()):
                out.pieces.append(("box", Box("glyph", item, SYM_BOXES[char])))


def _symbol_box(char: str, font: str) -> bool:
    """Whether the glyph ``char`` (its hex code) of a symbol font draws a box."""
    return char in SYM_BOXES and not (font == "symbol" and char in SYMBOL_FONT_NOT_BOXES)


def symbol_font(r: etree._Element) -> str | None:
    """The symbol font a run is set in ("symbol", "wingdings", "wingdings 2", "webdings"), or None."""
    fonts = r.find(f"{W}rPr/{W}rFonts")
    if fonts is None:
        return None
    name = (fonts.get(f"{W}ascii") or fonts.get(f"{W}hAnsi") or "").strip().lower()
    return name if name in SYMBOL_FONTS else None


def _text(t: etree._Element, out: Inline, font: str | None = None) -> None:
    """A run's text, its boxes apart. A private-use character in a run set in a symbol font is that font's
    glyph, read as the ``w:sym`` of the same font and code is (one word processor writes the glyph as
    ``w:sym``, another, LibreOffice, as the run's text): a box where the font draws one, else a sign that is
    no word of the text (the Symbol font's ♦ marking a footnote)."""
    text = t.text or ""
    start = 0
    for i, ch in enumerate(text):
        glyph = font is not None and "\ue000" <= ch <= "\uf8ff"
        if glyph:
            box = SYM_BOXES.get(f"{ord(ch):04X}") if _symbol_box(f"{ord(ch):04X}", font) else None
        else:
            box = BOX_GLYPHS[ch] if ch in BOX_GLYPHS and ch not in "■" and _glyph_is_box(text, i) else None
        if glyph or box is not None:
            if i > start:
                out.pieces.append(("text", text[start:i]))
            if box is not None:
                out.pieces.append(("box", Box("glyph", t, box, offset=i)))
            start = i + 1
    if start < len(text):
        out.pieces.append(("text", text[start:]))


def _glyph_is_box(text: str, i: int) -> bool:
    """A box glyph stands for a box when it is a word of its own (not inside a word)."""
    before = text[i - 1] if i > 0 else " "
    return not before.isalnum()


def _field_char(fc: etree._Element, out: Inline, state: _FieldState) -> None:
    kind = fc.get(f"{W}fldCharType")
    if kind == "begin":
        ff = fc.find(f"{W}ffData")
        state.in_code.append(True)
        state.ff.append(ff)
        if ff is not None and ff.find(f"{W}checkBox") is not None:
            box = ff.find(f"{W}checkBox")
            checked = box.find(f"{W}checked")
            value = on(checked) if checked is not None else on(box.find(f"{W}default"))  # ticked, else its default
            out.pieces.append(("box", Box("FORMCHECKBOX", ff, value)))
        elif ff is not None and ff.find(f"{W}ddList") is not None:
            dd = ff.find(f"{W}ddList")
            items = tuple(wval(e, "") or "" for e in dd.findall(f"{W}listEntry"))
            index = int(wval(dd.find(f"{W}result"), wval(dd.find(f"{W}default"), "0")) or 0)
            shown = items[index] if 0 <= index < len(items) else ""
            options = tuple(i for i in items if not prompt_item(i))  # "?" / "Select": the field's prompt
            out.controls.append(Control("FORMDROPDOWN", ff, shown, options, placeholder=prompt_item(shown)))
        elif ff is not None and ff.find(f"{W}textInput") is not None:
            out.controls.append(Control("FORMTEXT", ff, ""))  # its text: the field's result, read below
            out.pieces.append(("field", len(out.controls) - 1))
    elif kind == "separate":
        if state.in_code:
            state.in_code[-1] = False
    elif kind == "end":
        if state.in_code:
            state.in_code.pop()
            ff = state.ff.pop()
            if ff is not None and ff.find(f"{W}textInput") is not None:
                _close_formtext(out)


def _close_formtext(out: Inline) -> None:
    """The FORMTEXT field just closed: its text is the result read since its begin. In the
    paragraph's text it stands as the document drew it, its default text (blank when it has none),
    whatever was typed or written into it: an answer written into a field inside a label or beside
    a question ("thereby (Merchant Company Name) has demonstrated …") leaves the label and the
    question as they were, and is read as the field's answer."""
    for i in range(len(out.pieces) - 1, -1, -1):
        kind, value = out.pieces[i]
        if kind == "field":
            shown = "".join(str(v) for k, v in out.pieces[i + 1 :] if k == "text")
            c = out.controls[value]  # type: ignore[index]
            default = wval(c.el.find(f"{W}textInput/{W}default"), "") or ""
            if all(k == "text" for k, _ in out.pieces[i + 1 :]):  # the paragraph reads the field as drawn
                out.pieces[i:] = [("text", default)]
            else:
                default = shown
                del out.pieces[i]
            out.controls[value] = Control("FORMTEXT", c.el, shown, placeholder=is_blank(shown), default=default)  # type: ignore[index]
            return


def _label_boxes(out: Inline) -> None:
    """Each box's label: the text after it up to the next box (or, for a box that ends the
    paragraph after some text, the text before it: "Yes ☐"). Where every label is written before its
    box ("Yes ☐ No ☐": words before the first box and between each two, none after the last), each box
    takes the words before it, the first the last sentence's of them ("Do you agree? Yes ☐ No ☐": "Yes";
    the rest is the paragraph's ``head``)."""
    pieces = out.pieces
    boxes = [i for i, (k, _) in enumerate(pieces) if k == "box"]

    def words(start: int, end: int) -> str:
        return clean("".join(str(v) for k, v in pieces[start:end] if k == "text"))

    out.head = words(0, boxes[0]) if boxes else ""
    before = (
        len(boxes) > 1
        and bool(out.head)
        and not words(boxes[-1] + 1, len(pieces))
        and all(words(boxes[n - 1] + 1, boxes[n]) for n in range(1, len(boxes)))
    )
    for n, i in enumerate(boxes):
        if before:
            label = words(boxes[n - 1] + 1, i) if n else _SENTENCES.split(out.head)[-1]
            if not n:
                out.head = out.head[: len(out.head) - len(label)].strip()
        else:
            end = boxes[n + 1] if n + 1 < len(boxes) else len(pieces)
            label = words(i + 1, end)
            if not label and not (n == 0 and len(boxes) > 1):
                label = words(boxes[n - 1] + 1 if n else 0, i)
        box: Box = pieces[i][1]  # type: ignore[assignment]
        pieces[i] = ("box", Box(box.kind, box.el, box.checked, box.offset, label))
    out.boxes = [v for k, v in pieces if k == "box"]  # type: ignore[misc]


_SENTENCES = re.compile(r"(?<=[?!.:？！。：])\s+")


def clean(text: str) -> str:
    """Text on one line: whitespace runs as one space, box glyphs and ends trimmed."""
    text = "".join(" " if ch in BOX_GLYPHS else ch for ch in text)
    return " ".join(text.split()).strip(" :")


def one_line(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


# ------------------------------------------------------------------------------------ tables


@dataclass
class Cell:
    """One cell of a table grid: ``el`` its ``w:tc``, ``col`` its first grid column, ``span``
    its width in grid columns; ``merged_from`` the cell above it continues (a vertical merge)."""

    el: etree._Element
    row: int
    col: int
    span: int
    merged_from: Cell | None = None
    _inlines: list[tuple[etree._Element, Inline]] | None = None

    @property
    def origin(self) -> Cell:
        cell = self
        while cell.merged_from is not None:
            cell = cell.merged_from
        return cell

    def own_paragraphs(self) -> list[etree._Element]:
        """The cell's paragraphs, without those of tables nested in it."""
        out = []
        for block in blocks(self.el):
            if block.tag == f"{W}p":
                out.append(block)
        return out

    def nested(self) -> list[etree._Element]:
        return [b for b in blocks(self.el) if b.tag == f"{W}tbl"]

    def inlines(self) -> list[tuple[etree._Element, Inline]]:
        if self._inlines is None:
            self._inlines = [(p, read_inline(p)) for p in self.own_paragraphs()]
        return self._inlines

    @property
    def text(self) -> str:
        return "\n".join(i.text for _, i in self.inlines()).strip()

    @property
    def line(self) -> str:
        return one_line(self.text)

    @property
    def boxes(self) -> list[Box]:
        return [b for _, i in self.inlines() for b in i.boxes]

    @property
    def controls(self) -> list[Control]:
        return [c for _, i in self.inlines() for c in i.controls]

    def cell_control(self) -> etree._Element | None:
        """A content control that wraps the whole cell (``w:tr/w:sdt/w:sdtContent/w:tc``)."""
        parent = self.el.getparent()
        if parent is not None and parent.tag == f"{W}sdtContent":
            return parent.getparent()
        return None

    def block_control(self) -> etree._Element | None:
        """A content control that holds the cell's paragraphs (``w:tc/w:sdt/w:sdtContent/w:p``);
        the outermost one when they nest."""
        found = None
        for p in self.own_paragraphs():
            outer, parent = None, p.getparent()
            while parent is not None and parent is not self.el:
                if parent.tag == f"{W}sdt":
                    outer = parent
                parent = parent.getparent()
            if outer is None:
                if read_inline(p).text.strip():
                    return None
                continue
            if found is not None and outer is not found:
                return None
            found = outer
        return found

    @property
    def blank(self) -> bool:
        """No answer in it: blank-like text, no box, no nested table."""
        return is_blank(self.text) and not self.boxes and not self.nested()


@dataclass
class Grid:
    """A table as rows of cells (merges resolved): ``rows[r]`` lists the cells that start in row
    r or continue a vertical merge into it, left to right; ``width`` the grid columns."""

    el: etree._Element
    rows: list[list[Cell]]
    width: int

    def at(self, r: int, col: int) -> Cell | None:
        for cell in self.rows[r]:
            if cell.col <= col < cell.col + cell.span:
                return cell
        return None

    def own(self, r: int) -> list[Cell]:
        """Row r's cells that start there (not the continuations of a merge from above)."""
        return [c for c in self.rows[r] if c.merged_from is None]


def table_rows(tbl: etree._Element) -> list[etree._Element]:
    return [c for c in children(tbl) if c.tag == f"{W}tr"]


def _draws_border(tc: etree._Element) -> bool | None:
    """Whether a cell draws a border of its own (None: it says nothing, its table's borders apply)."""
    borders = tc.find(f"{W}tcPr/{W}tcBorders")
    if borders is None:
        return None
    return any((b.get(f"{W}val") or "nil") not in ("nil", "none") for b in borders)


def _margin_cell(tc: etree._Element, row: list[etree._Element]) -> bool:
    """A row's first or last cell that is only its margin: empty (no text, box, control or drawing), it
    draws no border while every other cell of the row draws its own. Word writes such a margin as the
    row's ``w:gridBefore`` / ``w:gridAfter`` (no cell); LibreOffice, saving the file, as an empty cell
    without borders. Not a column of the table: the grid skips it as it skips Word's margin."""
    if len(row) < 2 or _draws_border(tc) is not False or "".join(tc.itertext()).strip():
        return False
    if any(True for _ in tc.iter(f"{W}sdt", f"{W}fldChar", f"{W}sym", f"{W}drawing", f"{W}object", f"{W}tbl")):
        return False
    return all(_draws_border(c) for c in row if c is not tc)


def grid(tbl: etree._Element) -> Grid:
    """The table's grid (see :class:`Grid`)."""
    rows: list[list[Cell]] = []
    width = len(tbl.findall(f"{W}tblGrid/{W}gridCol"))
    above: dict[int, Cell] = {}
    for r, tr in enumerate(table_rows(tbl)):
        col = int(wval(tr.find(f"{W}trPr/{W}gridBefore"), "0") or 0)
        cells: list[Cell] = []
        tcs = [c for c in children(tr) if c.tag == f"{W}tc"]
        for i, tc in enumerate(tcs):
            pr = tc.find(f"{W}tcPr")
            span = int(wval(pr.find(f"{W}gridSpan"), "1") or 1) if pr is not None else 1
            if i in (0, len(tcs) - 1) and _margin_cell(tc, tcs):
                col += max(span, 1)
                continue
            vmerge = pr.find(f"{W}vMerge") if pr is not None else None
            cell = Cell(tc, r, col, max(span, 1))
            if vmerge is not None and wval(vmerge, "continue") == "continue" and col in above:
                cell.merged_from = above[col]
            cells.append(cell)
            for c in range(col, col + cell.span):
                above[c] = cell
            col += cell.span
        rows.append(cells)
        width = max(width, col)
    return Grid(tbl, rows, width)


__all__ = [
    "ANSWER_BOOKMARK",
    "BLANK",
    "PRIVATE_BOXES",
    "Box",
    "Cell",
    "Control",
    "Grid",
    "Inline",
    "LINE",
    "W",
    "W14",
    "W_NS",
    "blocks",
    "children",
    "clean",
    "grid",
    "is_blank",
    "line_pieces",
    "forget_locations",
    "locator",
    "guidance_look",
    "on",
    "paragraphs",
    "qn",
    "read_inline",
    "Resolver",
    "resolve",
    "sdt_kind",
    "wrapped_control",
    "table_rows",
    "written_answer",
    "wval",
]
