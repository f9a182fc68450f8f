"""Small Word questionnaires written by the tests: python-docx for paragraphs, tables, styles and
lists, raw WordprocessingML for what python-docx cannot write (content controls, legacy form
fields, box bullets). Each helper returns XML text in the ``w:`` / ``w14:`` namespaces that
:func:`add` parses and appends to the body."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

import docx
from docx.document import Document
from docx.table import Table
from lxml import etree

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W14_NS = "http://schemas.microsoft.com/office/word/2010/wordml"
NS = f'xmlns:w="{W_NS}" xmlns:w14="{W14_NS}"'


def new() -> Document:
    return docx.Document()


def save(doc: Document, path: Path) -> Path:
    doc.save(str(path))
    return path


def element(xml: str) -> etree._Element:
    """One element from XML text using the ``w:``/``w14:`` prefixes (declared here)."""
    xml = re.sub(r"^<([\w:]+)", lambda m: f"<{m.group(1)} {NS}", xml.strip(), count=1)
    return etree.fromstring(xml)


def add(doc: Document, xml: str) -> etree._Element:
    """Append a block (a ``w:p``, ``w:tbl`` or ``w:sdt``) to the body, before its section properties."""
    el = element(xml)
    body = doc.element.body
    body.insert(len(body) - 1, el)
    return el


def text(t: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{escape(t)}</w:t></w:r>'


def para(*runs: str, style: str = "") -> str:
    ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f"<w:p>{ppr}{''.join(runs)}</w:p>"


def sdt_text(tag: str, placeholder: str = "Click here to enter text.", kind: str = "<w:text/>") -> str:
    """An inline text content control showing its placeholder."""
    return (
        f'<w:sdt><w:sdtPr><w:alias w:val="{tag}"/><w:tag w:val="{tag}"/><w:id w:val="1"/><w:showingPlcHdr/>{kind}'
        f'</w:sdtPr><w:sdtContent><w:r><w:rPr><w:rStyle w:val="PlaceholderText"/></w:rPr><w:t>{placeholder}</w:t>'
        "</w:r></w:sdtContent></w:sdt>"
    )


def sdt_block(tag: str, placeholder: str = "Click here to enter text.") -> str:
    """A block (rich text) content control holding one placeholder paragraph."""
    return (
        f'<w:sdt><w:sdtPr><w:tag w:val="{tag}"/><w:showingPlcHdr/></w:sdtPr><w:sdtContent>'
        f'<w:p><w:r><w:rPr><w:rStyle w:val="PlaceholderText"/></w:rPr><w:t>{placeholder}</w:t></w:r></w:p>'
        "</w:sdtContent></w:sdt>"
    )


def sdt_dropdown(tag: str, items: list[str], combo: bool = False) -> str:
    kind = "comboBox" if combo else "dropDownList"
    entries = "".join(f'<w:listItem w:displayText="{i}" w:value="{i}"/>' for i in items)
    return sdt_text(tag, "Choose an item.", f'<w:{kind}><w:listItem w:value=""/>{entries}</w:{kind}>')


def sdt_date(tag: str) -> str:
    return sdt_text(tag, "Click here to enter a date.", '<w:date><w:dateFormat w:val="M/d/yyyy"/></w:date>')


def sdt_checkbox(checked: bool = False) -> str:
    glyph = "☒" if checked else "☐"
    return (
        f'<w:sdt><w:sdtPr><w:id w:val="7"/><w14:checkbox><w14:checked w14:val="{int(checked)}"/>'
        '<w14:checkedState w14:val="2612" w14:font="MS Gothic"/><w14:uncheckedState w14:val="2610" '
        f'w14:font="MS Gothic"/></w14:checkbox></w:sdtPr><w:sdtContent><w:r><w:t>{glyph}</w:t></w:r>'
        "</w:sdtContent></w:sdt>"
    )


def _field(ff: str, code: str, result: str = "") -> str:
    res = f'<w:r><w:t xml:space="preserve">{result}</w:t></w:r>' if result else ""
    return (
        f'<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="F"/><w:enabled/>{ff}</w:ffData></w:fldChar>'
        f'</w:r><w:r><w:instrText xml:space="preserve"> {code} </w:instrText></w:r>'
        f'<w:r><w:fldChar w:fldCharType="separate"/></w:r>{res}<w:r><w:fldChar w:fldCharType="end"/></w:r>'
    )


def formtext(max_length: int | None = None, default: str = "") -> str:
    """A legacy text field showing its default text (five en spaces when it has none)."""
    limit = f'<w:maxLength w:val="{max_length}"/>' if max_length else ""
    shown = f'<w:default w:val="{escape(default)}"/>' if default else ""
    return _field(f"<w:textInput>{shown}{limit}</w:textInput>", "FORMTEXT", escape(default) or "\u2002" * 5)


def formcheckbox(checked: bool = False) -> str:
    return _field(f'<w:checkBox><w:sizeAuto/><w:default w:val="{int(checked)}"/></w:checkBox>', "FORMCHECKBOX")


def lo_formcheckbox(mark: int = 1) -> str:
    """An unticked legacy checkbox field as LibreOffice writes it when it saves a Word file: an empty field
    name, ``w:sizeAuto`` and no ``w:default``, its result two ``__Fieldmark__`` bookmarks and an empty run,
    an empty run after the field's end."""
    name = f"__Fieldmark__{mark}_1"
    return (
        '<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val=""/><w:enabled/><w:calcOnExit w:val="0"/>'
        "<w:checkBox><w:sizeAuto/></w:checkBox></w:ffData></w:fldChar></w:r>"
        '<w:r><w:rPr/><w:instrText xml:space="preserve"> FORMCHECKBOX </w:instrText></w:r>'
        f'<w:r><w:rPr/><w:fldChar w:fldCharType="separate"/></w:r><w:bookmarkStart w:id="{2 * mark}" w:name="{name}"/>'
        f'<w:bookmarkStart w:id="{2 * mark + 1}" w:name="{name}"/><w:bookmarkEnd w:id="{2 * mark + 1}"/><w:r/>'
        '<w:r><w:rPr/><w:fldChar w:fldCharType="end"/></w:r><w:r><w:rPr/></w:r>'
    )


def lo_sdt_checkbox(checked: bool = False, id_: int = 7) -> str:
    """A checkbox content control as LibreOffice writes Word's when it saves the file: an untyped control
    keeping the id, holding the box control (no id of its own) and an empty run before its glyph."""
    glyph = "☒" if checked else "☐"
    return (
        f'<w:sdt><w:sdtPr><w:id w:val="{id_}"/></w:sdtPr><w:sdtContent><w:sdt><w:sdtPr><w14:checkbox>'
        f'<w14:checked w14:val="{int(checked)}"/><w14:checkedState w14:val="2612"/><w14:uncheckedState w14:val="2610"/>'
        f"</w14:checkbox></w:sdtPr><w:sdtContent><w:r><w:rPr/></w:r><w:r><w:t>{glyph}</w:t></w:r></w:sdtContent></w:sdt>"
        "</w:sdtContent></w:sdt>"
    )


def symbol_text(code: str, font: str = "Symbol") -> str:
    """A symbol font's glyph (hex ``code``, e.g. "F0A8") written as the run's text in that font, as
    LibreOffice writes a ``w:sym``."""
    return (
        f'<w:r><w:rPr><w:rFonts w:ascii="{font}" w:hAnsi="{font}" w:cs="{font}"/></w:rPr>'
        f"<w:t>{chr(int(code, 16))}</w:t></w:r>"
    )


def formdropdown(items: list[str]) -> str:
    entries = "".join(f'<w:listEntry w:val="{i}"/>' for i in items)
    return _field(f"<w:ddList>{entries}</w:ddList>", "FORMDROPDOWN", items[0])


def table(rows: list[list[str]], widths: int | None = None) -> str:
    """A table: each cell's XML (its paragraphs; "" for an empty cell, a ``gs2:`` prefix spans two columns)."""
    cols = widths or max(sum(2 if c.startswith("gs2:") else 1 for c in r) for r in rows)
    grid = "".join('<w:gridCol w:w="2000"/>' for _ in range(cols))
    out = []
    for row in rows:
        cells = []
        for c in row:
            span = '<w:tcPr><w:gridSpan w:val="2"/></w:tcPr>' if c.startswith("gs2:") else ""
            c = c[4:] if c.startswith("gs2:") else c
            body = c if c.startswith("<w:") else para(text(c)) if c else "<w:p/>"
            cells.append(f"<w:tc>{span}{body}</w:tc>")
        out.append(f"<w:tr>{''.join(cells)}</w:tr>")
    return (
        f'<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>{grid}</w:tblGrid>{"".join(out)}</w:tbl>'
    )


def box_bullets(doc: Document) -> str:
    """A list whose bullet is a box (❏): its numId, added to the document's numbering part."""
    numbering = doc.part.numbering_part.element
    abstract = element(
        '<w:abstractNum w:abstractNumId="90"><w:multiLevelType w:val="hybridMultilevel"/><w:lvl w:ilvl="0">'
        '<w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="❏"/><w:lvlJc w:val="left"/>'
        '<w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum>'
    )
    first_num = numbering.find(f"{{{W_NS}}}num")
    if first_num is not None:
        first_num.addprevious(abstract)
    else:
        numbering.append(abstract)
    numbering.append(element('<w:num w:numId="90"><w:abstractNumId w:val="90"/></w:num>'))
    return "90"


def lettered_lists(doc: Document, count: int, restart: bool = False) -> list[str]:
    """``count`` lists of one definition, "(a)" over "(1)" (a control's text in the FedRAMP SSP): their
    numIds, added to the document's numbering part; ``restart`` each begins at (a) again
    (``w:startOverride``), as Word writes a list numbered anew."""
    numbering = doc.part.numbering_part.element
    levels = "".join(
        f'<w:lvl w:ilvl="{i}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/><w:lvlText w:val="(%{i + 1})"/>'
        f'<w:lvlJc w:val="left"/><w:pPr><w:ind w:left="{1066 + 706 * i}" w:hanging="360"/></w:pPr></w:lvl>'
        for i, fmt in enumerate(("lowerLetter", "decimal"))
    )
    abstract = element(
        f'<w:abstractNum w:abstractNumId="91"><w:multiLevelType w:val="multilevel"/>{levels}</w:abstractNum>'
    )
    first_num = numbering.find(f"{{{W_NS}}}num")
    if first_num is not None:
        first_num.addprevious(abstract)
    else:
        numbering.append(abstract)
    ids = [str(100 + n) for n in range(count)]
    again = '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride>' if restart else ""
    for num_id in ids:
        numbering.append(element(f'<w:num w:numId="{num_id}"><w:abstractNumId w:val="91"/>{again}</w:num>'))
    return ids


def listed(t: str, num_id: str, level: int = 0) -> str:
    return f'<w:p><w:pPr><w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="{num_id}"/></w:numPr></w:pPr>{text(t)}</w:p>'


def fold(t: str) -> str:
    """``t`` without spaces or dashes, NFKC-normalised and case-folded: a printed question's words
    compared with the written ones whatever the printer's line breaks and hyphens."""
    return re.sub(r"[\s\-–]+", "", unicodedata.normalize("NFKC", t)).casefold()


def printed(tmp_path: Path, doc: Document, rulings: str, paper: str = "A4"):
    """``doc`` saved, printed to a flat PDF by the bench's printer (engine/bench/word_printed.py)
    with ``rulings`` on ``paper``, and read by the flat PDF reader."""
    from engine.bench.word_printed import print_docx  # noqa: PLC0415  (the printer imports PyMuPDF)
    from engine.questionnaire.pdf.reader import read_pdf_questionnaire  # noqa: PLC0415

    path = save(doc, tmp_path / "questionnaire.docx")
    pdf = tmp_path / "printed.pdf"
    print_docx(path, pdf, rulings, paper)
    return read_pdf_questionnaire(pdf)


SAQ_OPTIONS = ("In Place", "In Place with CCW", "Not Applicable", "Not in Place")


@dataclass(frozen=True)
class SaqLabels:
    """A PCI SAQ requirement table's header words in one language: the requirement's, the testing's and
    the response's column titles, the instruction under the response's, and the four option labels."""

    requirement: str = "PCI DSS Requirement"
    testing: str = "Expected Testing"
    response: str = "Response"
    instruction: str = "(Check one response for each requirement)"
    options: tuple[str, ...] = SAQ_OPTIONS


SAQ_ENGLISH = SaqLabels()


def saq_header(table, labels: SaqLabels = SAQ_ENGLISH) -> None:
    """A PCI SAQ requirement table's two header rows on ``table`` (7 columns): "PCI DSS Requirement",
    "Expected Testing" and "Response" over the four option labels (``SAQ_OPTIONS``), at the SAQ's widths;
    ``labels`` the same words in another language."""
    from docx.shared import Inches  # noqa: PLC0415

    for i, width in enumerate((0.5, 1.9, 1.6, 0.55, 0.55, 0.55, 0.55)):
        table.columns[i].width = Inches(width)
    table.cell(0, 0).merge(table.cell(0, 1)).text = labels.requirement
    table.cell(0, 2).text = labels.testing
    response = table.cell(0, 3).merge(table.cell(0, 6))
    response.text = labels.response
    response.add_paragraph(labels.instruction)
    for i, option in enumerate(labels.options):
        table.cell(1, 3 + i).text = option


@dataclass(frozen=True)
class SaqTitle:
    """A row of a PCI SAQ requirement table holding a section's title across all seven columns (no ID,
    no box), e.g. "1.1 Processes and mechanisms … are defined and understood."."""

    text: str


@dataclass(frozen=True)
class SaqNote:
    """A row of a PCI SAQ requirement table holding paragraphs across the requirement's and the testing's
    columns (no ID, no box), e.g. "Applicability Notes" over its note."""

    paragraphs: tuple[str, ...]


def saq_table(
    doc: Document,
    rows: Sequence[tuple[str, str, str] | SaqTitle | SaqNote],
    repeat_header: bool = False,
    labels: SaqLabels = SAQ_ENGLISH,
) -> Table:
    """A PCI SAQ requirement table added to ``doc``: the two header rows of :func:`saq_header`
    (marked to repeat on each page when ``repeat_header``), then one row per item of ``rows`` in order:
    a requirement ``(ID, requirement, expected testing)`` with an empty box (☐) under each of the four
    options, a :class:`SaqTitle` across the table or a :class:`SaqNote` across the requirement's and
    the testing's columns; ``labels`` the header's words in another language. Returns the python-docx
    table (its columns at the SAQ's widths)."""
    table = doc.add_table(rows=2 + len(rows), cols=7)
    saq_header(table, labels)
    if repeat_header:
        for r in (0, 1):
            table.rows[r]._tr.get_or_add_trPr().append(element("<w:tblHeader/>"))
    for r, row in enumerate(rows, start=2):
        if isinstance(row, SaqTitle):
            table.cell(r, 0).merge(table.cell(r, 6)).text = row.text
        elif isinstance(row, SaqNote):
            notes = table.cell(r, 1).merge(table.cell(r, 2))
            notes.text = row.paragraphs[0]
            for paragraph in row.paragraphs[1:]:
                notes.add_paragraph(paragraph)
        else:
            table.cell(r, 0).text, table.cell(r, 1).text, table.cell(r, 2).text = row
            for c in range(3, 7):
                table.cell(r, c).text = "☐"
    return table
