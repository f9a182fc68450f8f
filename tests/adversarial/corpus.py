"""The hostile files, written by the tests themselves (nothing binary is kept in git).

Each function writes one file and returns its path. The workbooks are hand-built OOXML
packages (a zip of a few XML parts), so that their sizes, compression and XML are whatever an
attacker chooses; openpyxl reads them like any workbook when they are within the limits.
"""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path

import docx
import fitz
import openpyxl

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
MB = 1_000_000

_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
)
_ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
    'Target="xl/workbook.xml"/></Relationships>'
)
_WORKBOOK = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="{MAIN_NS}" xmlns:r="{REL_NS}">'
    '<sheets><sheet name="{sheet}" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
    'Target="worksheets/sheet1.xml"/></Relationships>'
)
SHEET_HEAD = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="{MAIN_NS}"><sheetData>'
SHEET_TAIL = "</sheetData></worksheet>"
SHEET_PART = "xl/worksheets/sheet1.xml"


def _inline(text: str) -> str:
    return f'<c t="inlineStr"><is><t>{text}</t></is></c>'


def question_rows(n: int = 3, first: int = 1) -> str:
    """A header row and ``n`` questions (ID, question, empty answer) as sheet XML rows."""
    rows = [f'<row r="{first}">{_inline("ID")}{_inline("Question")}{_inline("Answer")}</row>']
    for i in range(1, n + 1):
        rows.append(
            f'<row r="{first + i}">{_inline(f"Q-{i:02d}")}'
            f"{_inline(f'Is customer data number {i} encrypted at rest?')}</row>"
        )
    return "".join(rows)


def workbook(
    path: Path, sheet_xml: str | None = None, *, head: str = "", stream: tuple[bytes, bytes, bytes, int] | None = None
) -> Path:
    """A minimal .xlsx package with one sheet, "Security". ``sheet_xml``: the whole worksheet part
    (default: three questions); ``stream`` = (head, block, tail, repeats), written ~4 MB at a time
    (a part of gigabytes never sits in memory); ``head`` goes before the sheet XML (a DOCTYPE)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("[Content_Types].xml", _CONTENT_TYPES)
        z.writestr("_rels/.rels", _ROOT_RELS)
        z.writestr("xl/workbook.xml", _WORKBOOK.format(sheet="Security"))
        z.writestr("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS)
        if stream is None:
            xml = sheet_xml if sheet_xml is not None else SHEET_HEAD + question_rows() + SHEET_TAIL
            if head:
                xml = xml.replace("<worksheet", head + "<worksheet", 1)
            z.writestr(SHEET_PART, xml)
            return path
        first, block, tail, repeats = stream
        with z.open(SHEET_PART, "w") as part:
            part.write(first)
            big = block * max(1, (4 * MB) // len(block))
            per = len(big) // len(block)
            for _ in range(repeats // per):
                part.write(big)
            part.write(block * (repeats % per))
            part.write(tail)
    return path


def _rows_stream(block: bytes, unpacked: int) -> tuple[bytes, bytes, bytes, int]:
    return (SHEET_HEAD + question_rows()).encode(), block, SHEET_TAIL.encode(), unpacked // len(block)


def cells_bomb(path: Path, unpacked_mb: int = 1150) -> Path:
    """The issue's zip bomb: about 3 MB that unpack to ``unpacked_mb`` of dense numeric cells
    (100 to a row, 76 million at the default), after three real questions."""
    return workbook(path, stream=_rows_stream(b"<row>" + b"<c><v>1</v></c>" * 100 + b"</row>", unpacked_mb * MB))


def whitespace_bomb(path: Path, unpacked_mb: int = 1000) -> Path:
    """Three real questions, then ``unpacked_mb`` of spaces before ``</sheetData>``: no cell at
    all, but every XML parser must scan them."""
    return workbook(path, stream=_rows_stream(b" " * 1000, unpacked_mb * MB))


def many_cells(path: Path, cells: int, per_row: int = 10) -> Path:
    """A sheet of ``cells`` small numeric cells, ``per_row`` to a row (16 bytes of XML each)."""
    return workbook(
        path,
        stream=_rows_stream(
            b"<row>" + b"<c><v>7</v></c>" * per_row + b"</row>", cells // per_row * (15 * per_row + 11)
        ),
    )


def lying_directory(path: Path, unpacked_mb: int = 300) -> Path:
    """A cells bomb whose zip headers (central directory and local header) say the sheet part
    unpacks to 10 kB: only what is counted while unpacking tells the truth."""
    cells_bomb(path, unpacked_mb)
    data = bytearray(path.read_bytes())
    name = SHEET_PART.encode()
    at = data.rfind(b"PK\x05\x06")  # end of central directory: where the directory starts
    entry = struct.unpack_from("<I", data, at + 16)[0]
    while data[entry : entry + 4] == b"PK\x01\x02":
        name_len, extra_len, comment_len = struct.unpack_from("<HHH", data, entry + 28)
        if data[entry + 46 : entry + 46 + name_len] == name:
            struct.pack_into("<I", data, entry + 24, 10_000)  # uncompressed size, central directory
            local = struct.unpack_from("<I", data, entry + 42)[0]
            struct.pack_into("<I", data, local + 22, 10_000)  # and local header
        entry += 46 + name_len + extra_len + comment_len
    path.write_bytes(bytes(data))
    return path


def docx_bomb(path: Path, unpacked_mb: int = 1000) -> Path:
    """A Word document whose body unpacks to ``unpacked_mb`` of one repeated paragraph."""
    base = path.with_suffix(".base.docx")
    document = docx.Document()
    document.add_paragraph("Backups are kept for thirty-five days.")
    document.save(base)
    para = b"<w:p><w:r><w:t>" + b"All customer data is encrypted at rest. " * 25 + b"</w:t></w:r></w:p>"
    with zipfile.ZipFile(base) as zin, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename != "word/document.xml":
                zout.writestr(info, data)
                continue
            at = data.index(b"<w:body>") + len(b"<w:body>")
            with zout.open(info.filename, "w") as part:
                part.write(data[:at])
                big = para * (4 * MB // len(para))
                for _ in range(unpacked_mb * MB // len(big)):
                    part.write(big)
                part.write(data[at:])
    base.unlink()
    return path


def many_rows(path: Path, rows: int) -> Path:
    """``rows`` rows of one numeric cell each."""
    return workbook(path, stream=_rows_stream(b"<row><c><v>1</v></c></row>", rows * 26))


def billion_laughs(path: Path) -> Path:
    """A workbook whose sheet declares nested entities that expand to 10⁹ characters."""
    entities = '<!ENTITY a "aaaaaaaaaa">' + "".join(
        f'<!ENTITY {b} "{("&" + a + ";") * 10}">' for a, b in zip("abcdefgh", "bcdefghi")
    )
    xml = SHEET_HEAD + question_rows() + f'<row r="9">{_inline("&i;")}</row>' + SHEET_TAIL
    return workbook(path, xml, head=f"<!DOCTYPE worksheet [{entities}]>")


def xxe(path: Path, target: str = "/etc/passwd") -> Path:
    """A workbook whose sheet pulls an external entity (a local file) into a question cell."""
    xml = SHEET_HEAD + question_rows() + f'<row r="9">{_inline("Q-09")}{_inline("&xxe;")}</row>' + SHEET_TAIL
    return workbook(path, xml, head=f'<!DOCTYPE worksheet [<!ENTITY xxe SYSTEM "file://{target}">]>')


def encrypted_xlsx(path: Path) -> Path:
    """What Excel writes for a password-protected workbook: an OLE compound file."""
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 4096)
    return path


def encrypted_pdf(path: Path) -> Path:
    doc = fitz.open()
    doc.new_page().insert_text((72, 72), "secret text")
    doc.save(path, encryption=fitz.PDF_ENCRYPT_AES_256, owner_pw="owner", user_pw="user")
    return path


def truncated(source: Path, path: Path) -> Path:
    """The first 60 % of a real file."""
    data = source.read_bytes()
    path.write_bytes(data[: len(data) * 6 // 10])
    return path


def renamed(path: Path) -> Path:
    """A PNG-like binary under a document extension."""
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40)
    return path


def formulas_and_merges(path: Path) -> Path:
    """A real questionnaire (openpyxl) with merged section titles, a question computed by a
    formula whose value Excel saved, and one whose value was never saved."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Security"
    ws.append(["ID", "Question", "Answer"])
    ws.append(["Data protection"])
    ws.merge_cells("A2:C2")
    ws.append(["ENC-01", "Is customer data encrypted at rest?", None])
    ws.append(["ENC-02", '="Is data encrypted "&"in transit?"', None])  # never calculated: no cached value
    ws.append(["ENC-03", "Are encryption keys rotated every year?", None])
    ws.append(["ENC-04", '=CONCAT("Are backups ","encrypted?")', None])
    wb.save(path)
    return path
