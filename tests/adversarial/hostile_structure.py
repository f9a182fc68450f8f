"""Hostile Word and PDF files of issue #56, written by the tests (nothing binary kept in git): each
small, under every size limit, and built to reach a reader's weak spot — a corrupt or deflate64
part, elements nested hundreds deep, a number no reader can use or one far past the document's
size, millions of empty paragraphs, a renamed main part, two members of one name; a PDF whose
page tree or field tree loops or lies, a field larger than its page, a page crowded with fields,
a stream that inflates to a gigabyte. Each function writes one file and returns its path."""

from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path

import pymupdf

from tests import word_fixtures as wf
from tests.pdf_forms import CHECKBOX, TEXT, add_field, label, save

MB = 1_000_000
BODY = "word/document.xml"
QUESTION = "Describe your backup process."


def word(path: Path) -> Path:
    """A small real questionnaire (python-docx): a table question and a numbered one."""
    doc = wf.new()
    wf.add(doc, wf.table([["Question", "Response"], [QUESTION, ""]]))
    doc.add_paragraph("Is MFA enforced for administrators?", style="List Number")
    return wf.save(doc, path)


def _rewrite(path: Path, edits: dict[str, bytes], *, rename: dict[str, str] | None = None) -> Path:
    """The package at ``path`` with some parts replaced (and some renamed)."""
    with zipfile.ZipFile(path) as zin:
        parts = [(i.filename, zin.read(i)) for i in zin.infolist()]
    rename = rename or {}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for name, data in parts:
            zout.writestr(rename.get(name, name), edits.get(name, data))
    return path


def _body(path: Path) -> str:
    return zipfile.ZipFile(path).read(BODY).decode()


def with_body(path: Path, make) -> Path:
    """A questionnaire whose document part is ``make(xml)``."""
    word(path)
    return _rewrite(path, {BODY: make(_body(path)).encode()})


def _around_question(xml: str, before: str, after: str) -> str:
    """The question's paragraph (the numbered one) wrapped in ``before`` … ``after``."""
    at = xml.index("<w:p>", xml.index("Is MFA enforced") - 400) if "<w:p>" in xml else 0
    end = xml.index("</w:p>", at) + len("</w:p>")
    return xml[:at] + before + xml[at:end] + after + xml[end:]


def nested_tables(path: Path, depth: int = 600) -> Path:
    """A table question (question, empty answer) inside ``depth`` tables, each in the one cell of the one before."""
    open_ = '<w:tbl><w:tblGrid><w:gridCol w:w="5000"/></w:tblGrid><w:tr><w:tc>'
    close = "<w:p/></w:tc></w:tr></w:tbl>"
    inner = wf.table([["Question", "Response"], ["Do you rotate encryption keys every year?", ""]])
    return with_body(path, lambda x: _around_question(x, open_ * depth + inner, close * depth))


def nested(path: Path, kind: str, depth: int) -> Path:
    """The question's run inside ``depth`` nested ``kind`` elements: "sdt" (content controls),
    "hyperlink", "ins" (tracked insertions) or "smartTag"."""
    opening = {
        "sdt": "<w:sdt><w:sdtPr/><w:sdtContent>",
        "hyperlink": '<w:hyperlink w:anchor="a">',
        "ins": '<w:ins w:id="1" w:author="A">',
        "smartTag": '<w:smartTag w:uri="u" w:element="e">',
    }[kind]
    closing = {"sdt": "</w:sdtContent></w:sdt>"}.get(kind, f"</w:{kind}>")
    run = '<w:r><w:t xml:space="preserve">Is MFA enforced for administrators?</w:t></w:r>'

    word(path)
    xml = _body(path)
    if run not in xml:  # python-docx writes the run as <w:r><w:t>…</w:t></w:r>
        run = "<w:r><w:t>Is MFA enforced for administrators?</w:t></w:r>"
    inner = opening * depth + run + closing * depth
    body = xml.replace(run, inner, 1)  # inline: around the question's run, inside its paragraph
    assert body != xml
    return _rewrite(path, {BODY: body.encode()})


def cell_attribute(path: Path, xml_in_tc_pr: str) -> Path:
    """The answer cell of the table question with ``xml_in_tc_pr`` in its cell properties."""

    def make(xml: str) -> str:
        at = xml.index(QUESTION)
        cell = xml.index("<w:tc>", at)
        if xml.startswith("<w:tcPr>", cell + 6):
            return xml[: cell + 14] + xml_in_tc_pr + xml[cell + 14 :]
        return xml[: cell + 6] + f"<w:tcPr>{xml_in_tc_pr}</w:tcPr>" + xml[cell + 6 :]

    return with_body(path, make)


def row_attribute(path: Path, xml_in_tr_pr: str) -> Path:
    """The question's row with ``xml_in_tr_pr`` as its row properties."""

    def make(xml: str) -> str:
        at = xml.rindex("<w:tr", 0, xml.index(QUESTION))
        end = xml.index(">", at) + 1
        return xml[:end] + f"<w:trPr>{xml_in_tr_pr}</w:trPr>" + xml[end:]

    return with_body(path, make)


def list_level(path: Path, level: str) -> Path:
    """The numbered question's list (numbering.xml) giving its first level the number ``level``."""
    word(path)
    numbering = zipfile.ZipFile(path).read("word/numbering.xml").decode()
    assert 'w:ilvl="0"' in numbering
    return _rewrite(path, {"word/numbering.xml": numbering.replace('w:ilvl="0"', f'w:ilvl="{level}"').encode()})


def form_dropdown(path: Path, result: str) -> Path:
    """A legacy FORMDROPDOWN answer field whose chosen item is ``result``."""
    doc = wf.new()
    field = (
        '<w:p><w:r><w:t xml:space="preserve">Do you encrypt backups? </w:t></w:r>'
        '<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="D1"/><w:enabled/>'
        f'<w:ddList><w:result w:val="{result}"/><w:listEntry w:val="Yes"/><w:listEntry w:val="No"/></w:ddList>'
        '</w:ffData></w:fldChar></w:r><w:r><w:instrText xml:space="preserve"> FORMDROPDOWN </w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Yes</w:t></w:r>'
        '<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>'
    )
    wf.add(doc, field)
    return wf.save(doc, path)


def empty_paragraphs(path: Path, count: int = 6_600_000) -> Path:
    """``count`` empty paragraphs after a real question (6.6 million: a 40 MB part in 90 kB)."""
    word(path)
    xml = _body(path).encode()
    at = xml.index(b"</w:body>")
    sect = xml.rfind(b"<w:sectPr", 0, at)
    at = sect if sect > 0 else at
    with zipfile.ZipFile(path) as zin:
        parts = [(i.filename, zin.read(i)) for i in zin.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
        for name, data in parts:
            if name != BODY:
                zout.writestr(name, data)
                continue
            with zout.open(name, "w") as part:
                part.write(xml[:at])
                block = b"<w:p/>" * 100_000
                for _ in range(count // 100_000):
                    part.write(block)
                part.write(xml[at:])
    return path


def renamed_main_part(path: Path, chars: int = 30_000_000, part: str = "word/main2.xml") -> Path:
    """The main part renamed ``word/main2.xml`` (its relationship says so) and holding ``chars``
    characters of text: over the character limit, in a part no fixed name finds."""
    word(path)
    xml = _body(path).encode()
    at = xml.index(b"</w:body>")
    sect = xml.rfind(b"<w:sectPr", 0, at)
    at = sect if sect > 0 else at
    with zipfile.ZipFile(path) as zin:
        parts = [(i.filename, zin.read(i)) for i in zin.infolist()]
    para = b"<w:p><w:r><w:t>" + b"Customer data is encrypted at rest. " * 100 + b"</w:t></w:r></w:p>"
    text_per = 3600
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as zout:
        for name, data in parts:
            base = part.rsplit("/", 1)[-1]
            if name == "_rels/.rels":
                data = data.replace(b"word/document.xml", part.encode())
            elif name == "[Content_Types].xml":
                data = data.replace(b"/word/document.xml", b"/" + part.encode())
            elif name == "word/_rels/document.xml.rels":
                name = f"word/_rels/{base}.rels"
            if name != BODY:
                zout.writestr(name, data)
                continue
            with zout.open(part, "w") as out:
                out.write(xml[:at])
                block = para * 100
                for _ in range(chars // (text_per * 100) + 1):
                    out.write(block)
                out.write(xml[at:])
    return path


def duplicate_body(path: Path) -> Path:
    """Two members named ``word/document.xml``: the first with the question, the second with another."""
    word(path)
    xml = _body(path)
    with zipfile.ZipFile(path, "a") as zf, _quiet():
        zf.writestr(BODY, xml.replace(QUESTION, "Describe your incident response process."))
    return path


class _quiet:
    def __enter__(self):
        import warnings

        self._w = warnings.catch_warnings()
        self._w.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        self._w.__exit__(*exc)


def _member_header(data: bytes, name: str) -> tuple[int, int]:
    """(local header offset, central directory entry offset) of member ``name``."""
    at = data.rfind(b"PK\x05\x06")
    entry = struct.unpack_from("<I", data, at + 16)[0]
    while data[entry : entry + 4] == b"PK\x01\x02":
        name_len, extra_len, comment_len = struct.unpack_from("<HHH", data, entry + 28)
        if data[entry + 46 : entry + 46 + name_len] == name.encode():
            return struct.unpack_from("<I", data, entry + 42)[0], entry
        entry += 46 + name_len + extra_len + comment_len
    raise KeyError(name)


def corrupt_deflate(path: Path) -> Path:
    """The document part's compressed data overwritten in its middle (``zlib.error: Error -3``)."""
    word(path)
    data = bytearray(path.read_bytes())
    local, _ = _member_header(bytes(data), BODY)
    name_len, extra_len = struct.unpack_from("<HH", data, local + 26)
    start = local + 30 + name_len + extra_len
    size = struct.unpack_from("<I", data, local + 18)[0]
    data[start + size // 3 : start + size // 3 + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    return path


def deflate64(path: Path) -> Path:
    """The document part marked as compressed with deflate64 (method 9: ``NotImplementedError``)."""
    word(path)
    data = bytearray(path.read_bytes())
    local, central = _member_header(bytes(data), BODY)
    struct.pack_into("<H", data, local + 8, 9)
    struct.pack_into("<H", data, central + 10, 9)
    path.write_bytes(bytes(data))
    return path


def lying_docx(path: Path, chars: int = 25_000_000) -> Path:
    """A document part of ``chars`` characters whose zip directory (central and local) says 10 kB."""
    renamed_main_part(path, chars, BODY)
    data = bytearray(path.read_bytes())
    local, central = _member_header(bytes(data), BODY)
    struct.pack_into("<I", data, central + 24, 10_000)
    struct.pack_into("<I", data, local + 22, 10_000)
    path.write_bytes(bytes(data))
    return path


# ---- PDF ---------------------------------------------------------------------------------------
def pdf_form(path: Path) -> tuple[pymupdf.Document, pymupdf.Page]:
    """A one-field form (not yet saved to ``path``)."""
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 50, 100, "Company name")
    add_field(page, TEXT, "company", (160, 88, 400, 104))
    return doc, page


def field_loop(path: Path) -> Path:
    """A form whose field's /Kids names its own /Parent (a /Kids–/Parent loop)."""
    doc, page = pdf_form(path)
    save(doc, path)
    with pymupdf.open(path) as d:
        widget = d[0].first_widget.xref
        parent = d.get_new_xref()
        d.update_object(parent, f"<</T(group)/Kids[{widget} 0 R]/Parent {widget} 0 R>>")
        d.xref_set_key(widget, "Parent", f"{parent} 0 R")
        d.xref_set_key(widget, "Kids", f"[{parent} 0 R]")
        d.xref_set_key(d.pdf_catalog(), "AcroForm/Fields", f"[{parent} 0 R]")
        d.saveIncr()
    return path


def claimed_pages(path: Path, claimed: int = 1_000_000_000) -> Path:
    """A one-page form whose page tree's /Count says ``claimed`` pages (an incremental update
    written by hand: MuPDF refuses to write such a tree itself)."""
    doc, _ = pdf_form(path)
    save(doc, path)
    with pymupdf.open(path) as d:
        pages = int(d.xref_get_key(d.pdf_catalog(), "Pages")[1].split()[0])
        body = d.xref_object(pages, compressed=True).replace("/Count 1", f"/Count {claimed}")
        root, size = d.pdf_catalog(), d.xref_length()
    data = path.read_bytes()
    prev = int(data[data.rindex(b"startxref") + 9 :].split()[0])
    at = len(data) + 1
    update = f"\n{pages} 0 obj\n{body}\nendobj\n".encode()
    xref = at + len(update) - 1
    update += (
        f"xref\n{pages} 1\n{at:010d} 00000 n \ntrailer\n<</Size {size}/Root {root} 0 R/Prev {prev}>>\n"
        f"startxref\n{xref}\n%%EOF\n"
    ).encode()
    path.write_bytes(data + update)
    return path


def colliding_boxes(path: Path) -> Path:
    """Two check boxes of one name, the second without an appearance (what it shows when ticked)."""
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 50, 100, "Do you encrypt backups?")
    add_field(page, CHECKBOX, "agree", (160, 88, 172, 100))
    label(page, 50, 140, "Do you rotate keys?")
    add_field(page, CHECKBOX, "agree", (160, 128, 172, 140))
    save(doc, path)
    with pymupdf.open(path) as d:
        last = list(d[0].widgets())[-1].xref
        d.xref_set_key(last, "AP", "null")
        d.xref_set_key(last, "AS", "null")
        d.saveIncr()
    return path


def tall_field(path: Path, height: float = 2e9) -> Path:
    """A text field whose /Rect is ``height`` points tall."""
    doc, _ = pdf_form(path)
    save(doc, path)
    with pymupdf.open(path) as d:
        w = d[0].first_widget.xref
        d.xref_set_key(w, "Rect", f"[160 -{height:.0f} 400 104]")
        d.saveIncr()
    return path


def crowded_page(path: Path, fields: int = 1_999, pages: int = 1) -> Path:
    """``pages`` pages each holding ``fields`` text fields stacked on one spot: one field made by
    PyMuPDF, the others copies of its object (PyMuPDF adds a field in ≈ 40 ms)."""
    doc = pymupdf.open()
    for _ in range(pages):
        page = doc.new_page()
        label(page, 50, 100, "Company name")
        add_field(page, TEXT, "f", (160, 88, 400, 104))
    save(doc, path)
    with pymupdf.open(path) as d:
        fields_list = []
        for number in range(pages):
            page = d[number]
            first = page.first_widget.xref
            body = d.xref_object(first, compressed=True)
            annots = []
            for i in range(fields):
                xref = d.get_new_xref()
                d.update_object(xref, body)
                d.xref_set_key(xref, "T", f"(f{number}_{i})")
                annots.append(f"{xref} 0 R")
            fields_list += annots
            d.xref_set_key(page.xref, "Annots", f"[{' '.join(annots)}]")
        d.xref_set_key(d.pdf_catalog(), "AcroForm/Fields", f"[{' '.join(fields_list)}]")
        d.save(path.with_suffix(".tmp"), garbage=1)
    path.with_suffix(".tmp").replace(path)
    return path


def ruled_grid(path: Path, pages: int = 300, n: int = 60) -> Path:
    """``pages`` pages each ruled into an ``n`` × ``n`` grid, a question in its first cell."""
    doc = pymupdf.open()
    for _ in range(pages):
        page = doc.new_page()
        x0, y0, step = 36, 36, (page.rect.width - 72) / n
        shape = page.new_shape()
        for i in range(n + 1):
            shape.draw_line((x0 + i * step, y0), (x0 + i * step, y0 + n * step))
            shape.draw_line((x0, y0 + i * step), (x0 + n * step, y0 + i * step))
        shape.finish(width=0.5)
        shape.commit()
        page.insert_text((x0 + 1, y0 + step - 2), "1. Is data encrypted?", fontsize=3)
    doc.save(path, deflate=True)
    return path


def inflating_stream(path: Path, inflated_mb: int = 1_000) -> Path:
    """A one-page PDF whose content stream inflates to ``inflated_mb`` of spaces (about 1 MB on disk)."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "1. Do you encrypt backups?")
    packer = zlib.compressobj(9)
    block = b" " * MB
    raw = b"".join(packer.compress(block) for _ in range(inflated_mb)) + packer.flush()
    doc.save(path)
    doc.close()
    with pymupdf.open(path) as d:
        xref = d.get_new_xref()
        d.update_object(xref, "<<>>")
        d.update_stream(xref, raw, compress=False)
        d.xref_set_key(xref, "Filter", "/FlateDecode")
        contents = d[0].get_contents()
        d.xref_set_key(d[0].xref, "Contents", f"[{contents[0]} 0 R {xref} 0 R]")
        d.saveIncr()
    return path
