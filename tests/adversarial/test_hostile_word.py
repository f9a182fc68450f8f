"""Hostile and awkward Word questionnaires (issue #48 item 6): a password-protected file, a zip
bomb and too much text named .docx, a damaged package, external relationships (never fetched),
tracked changes (read as accepted, with a note), comments (kept), XML entities (a "billion laughs"
in UTF-8 and UTF-16, an external entity: refused, never expanded). Each is one line naming the
file, the problem and the fix, or a note; nothing is written when the export cannot be done."""

from __future__ import annotations

import time
import zipfile

import psutil
import pytest

from engine.core.limits import LimitError, Limits
from engine.questionnaire import QuestionnaireError, read_questionnaire
from engine.questionnaire.export import export
from engine.questionnaire.writes import CellWrite, ExportError
from tests import word_fixtures as wf


def simple(tmp_path, name="q.docx"):
    doc = wf.new()
    wf.add(doc, wf.table([["Question", "Response"], ["Describe your backup process.", ""]]))
    return doc, tmp_path / name


def test_a_password_protected_docx_is_refused_in_one_line(tmp_path):
    path = tmp_path / "locked.docx"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 4096)  # an OLE container: how Word saves encryption
    with pytest.raises(QuestionnaireError) as exc:
        read_questionnaire(path)
    assert "locked.docx" in str(exc.value) and "password-protected" in exc.value.problem
    assert "remove the password" in exc.value.fix and "\n" not in str(exc.value)


def test_a_zip_bomb_named_docx_is_refused_before_it_is_unpacked(tmp_path):
    path = tmp_path / "bomb.docx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("word/document.xml", b"<w:document>" + b" " * 3_000_000 + b"</w:document>")
    with pytest.raises(LimitError) as exc:
        read_questionnaire(path, limits=Limits(unzipped_mb=2))
    assert "bomb.docx" in str(exc.value) and "--max-unzipped-mb" in exc.value.fix


def test_too_much_text_is_refused_before_parsing(tmp_path):
    doc, path = simple(tmp_path)
    for _ in range(60):
        doc.add_paragraph("Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 3)
    wf.save(doc, path)
    with pytest.raises(LimitError, match="characters"):
        read_questionnaire(path, limits=Limits(chars=2_000))


def test_a_damaged_package_is_one_line(tmp_path):
    doc, path = simple(tmp_path)
    data = wf.save(doc, path).read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(QuestionnaireError) as exc:
        read_questionnaire(path)
    assert "q.docx" in str(exc.value) and "save it again as .docx" in exc.value.fix


def test_external_relationships_are_never_fetched_and_kept(tmp_path):
    doc, path = simple(tmp_path)
    doc.part.relate_to("http://attacker.invalid/track.png", wf_rel("image"), is_external=True)
    doc.part.relate_to("file:///etc/passwd", wf_rel("hyperlink"), is_external=True)
    q = read_questionnaire(wf.save(doc, path))  # no network: nothing is resolved
    assert any("2 external targets" in n and "none is fetched" in n for n in q.notes)
    x = q.questions[0]
    out = export(q.path, tmp_path / "a.docx", [CellWrite(x.sheet, x.text_cell, "Nightly.")], q)
    rels = "word/_rels/document.xml.rels"
    assert zipfile.ZipFile(out).read(rels) == zipfile.ZipFile(path).read(rels)


def wf_rel(kind: str) -> str:
    return f"http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}"


def test_tracked_changes_are_read_as_accepted_with_a_note(tmp_path):
    doc = wf.new()
    wf.add(
        doc,
        '<w:p><w:pPr><w:pStyle w:val="ListNumber"/></w:pPr><w:r><w:t xml:space="preserve">Do you </w:t></w:r>'
        '<w:del w:id="1" w:author="A" w:date="2024-01-01T00:00:00Z"><w:r><w:delText>never </w:delText></w:r></w:del>'
        '<w:ins w:id="2" w:author="A" w:date="2024-01-01T00:00:00Z"><w:r><w:t xml:space="preserve">always </w:t>'
        "</w:r></w:ins><w:r><w:t>encrypt backups?</w:t></w:r></w:p>",
    )
    q = read_questionnaire(wf.save(doc, tmp_path / "tracked.docx"))
    assert q.questions[0].text == "Do you always encrypt backups?"
    assert any("tracked changes" in n and "accepted" in n for n in q.notes)
    x = q.questions[0]
    out = export(q.path, tmp_path / "a.docx", [CellWrite(x.sheet, x.text_cell, "Yes.")], q)
    assert b"w:del " in zipfile.ZipFile(out).read("word/document.xml")  # the changes kept, for the reviewer


def test_comments_are_kept_and_never_read_as_answers(tmp_path):
    doc, path = simple(tmp_path)
    paragraph = doc.add_paragraph("Is MFA enforced for administrators?", style="List Number")
    doc.add_comment(paragraph.runs, text="Legal: check this one", author="Customer")
    q = read_questionnaire(wf.save(doc, path))
    assert any("1 comments" in n for n in q.notes)
    assert all("Legal" not in (x.existing_answer or "") for x in q.questions)
    writes = [CellWrite(x.sheet, x.text_cell, "Yes.") for x in q.questions]
    out = export(q.path, tmp_path / "a.docx", writes, q)
    original = zipfile.ZipFile(path)
    comments = next(n for n in original.namelist() if "comments" in n)
    assert zipfile.ZipFile(out).read(comments) == original.read(comments)


def test_the_export_of_a_protected_file_writes_nothing(tmp_path):
    doc, path = simple(tmp_path)
    q = read_questionnaire(wf.save(doc, path))
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 512)  # replaced by an encrypted copy meanwhile
    target = tmp_path / "a.docx"
    with pytest.raises(ExportError, match="password-protected"):
        export(q.path, target, [CellWrite("Document", q.questions[0].text_cell, "x")], q)
    assert not target.exists()


def _laughs(levels: int = 9) -> str:
    """A document type whose entities nest tenfold per level: &lol9; is 10**9 "lol"s (≈ 3 GB)."""
    entities = ['<!ENTITY lol0 "lol">'] + [f'<!ENTITY lol{n} "{f"&lol{n - 1};" * 10}">' for n in range(1, levels + 1)]
    return f"<!DOCTYPE w:document [{''.join(entities)}]>"


def _with_part(path, part: str, edit) -> None:
    """Rewrite one part of the package at ``path`` (the others copied as they are)."""
    data = {i.filename: zipfile.ZipFile(path).read(i) for i in zipfile.ZipFile(path).infolist()}
    data[part] = edit(data[part])
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in data.items():
            zf.writestr(name, content)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_a_billion_laughs_docx_is_refused_and_never_expanded(tmp_path, encoding):
    """The document part declares nested entities and a question uses the largest: refused in one
    line before lxml parses it (defusedxml's rule, engine/core/ooxml.py declares_entities), whatever
    the part's encoding; nothing expanded (the process stays small and the refusal is immediate)."""
    doc, path = simple(tmp_path, "laughs.docx")
    wf.save(doc, path)

    def bomb(xml: bytes) -> bytes:
        head, body = xml.decode("utf-8").split("?>", 1)
        body = body.replace("Describe your backup process.", "Describe your backup process &lol9;.")
        text = f'<?xml version="1.0" encoding="{encoding.upper()}" standalone="yes"?>{_laughs()}{body}'
        return text.encode(encoding)  # utf-16: with its byte order mark

    _with_part(path, "word/document.xml", bomb)
    before = psutil.Process().memory_info().rss
    started = time.perf_counter()
    with pytest.raises(QuestionnaireError) as exc:
        read_questionnaire(path)
    assert time.perf_counter() - started < 5 and psutil.Process().memory_info().rss - before < 200 << 20
    assert exc.value.file == "laughs.docx" and "declares XML entities" in exc.value.problem
    assert "never expanded" in exc.value.problem and "save it again" in exc.value.fix and "\n" not in str(exc.value)


def test_an_external_entity_in_a_relationships_part_is_refused(tmp_path):
    """An entity naming a file of the machine, declared in the document's relationships part: refused,
    the file never read into the questionnaire."""
    doc, path = simple(tmp_path, "xxe.docx")
    wf.save(doc, path)
    rels = "word/_rels/document.xml.rels"

    def external(xml: bytes) -> bytes:
        head, body = xml.decode("utf-8").split("?>", 1)
        return f'{head}?><!DOCTYPE Relationships [<!ENTITY x SYSTEM "file:///etc/passwd">]>{body}'.encode()

    _with_part(path, rels, external)
    with pytest.raises(QuestionnaireError, match="xxe.docx: has a part that declares XML entities"):
        read_questionnaire(path)
