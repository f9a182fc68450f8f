"""The expert's packet (issue #39, item 3): the rows a person holds, exported as a workbook an
expert fills in without the app, and imported back as that person's decisions. Rows are matched
by ID and question text (never by position), a row someone decided in the meantime is a conflict
(never overwritten) that the reviewer resolves, and a bad packet — another questionnaire's, an
answer outside the dropdown, a formula, an edited question, a huge or broken file — is refused
with one line per problem and changes nothing.

Real SQLite and real workbooks (openpyxl writes the questionnaire and fills the packet as an
expert's Excel would). The drafts come from ``TableDrafter`` (tests/unit/test_sections_drafting.py),
a stated fake drafter: these tests are about the packet, not about generation; no model loads."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.core.types import Action
from engine.review import team
from engine.review.draft_run import draft_questionnaire
from engine.review.history import history
from engine.review.packet import PacketRefused, apply_packet, packet_bytes, read_packet, resolve
from engine.review.review import Review
from storage.review_store import ReviewStore
from tests.fixtures import write_questionnaire
from tests.unit.test_sections_drafting import TableDrafter

QUESTIONS = [
    ("ENC-01", "Is customer data encrypted at rest?"),
    ("BCK-01", "Are backups tested at least once a year?"),
    ("INC-01", "Are customers notified of a breach within 72 hours?"),
    ("ACC-01", "Do employees use MFA?"),
]


@pytest.fixture()
def folder(tmp_path) -> Path:
    """Two questionnaires drafted for "lead" by the stated fake (Yes everywhere); in the first,
    ENC-01, BCK-01 and INC-01 are assigned to the expert "Ana"."""
    folder = tmp_path / "workspace"
    ws = Workspace(folder, Settings(reviewer="lead"))
    for name, prefix in (("vendor.xlsx", ""), ("other.xlsx", "Other: ")):
        book = write_questionnaire(tmp_path / name, questions=[(i, prefix + t) for i, t in QUESTIONS])
        project, _ = ws.add_questionnaire(name, book.read_bytes())
        draft_questionnaire(ws.questionnaire(project.id), TableDrafter({}), ws.review_store, by="lead")
    lead = Review(ws.review_store, 1, ws.questionnaire(1), by="lead")
    team.assign(lead, team.targets(lead, lead.items(), rows=["ENC-01", "BCK-01", "INC-01"]), "Ana")
    ws.review_store.close()
    return folder


def review_as(folder: Path, name: str, project_id: int = 1) -> Review:
    return Review(
        ReviewStore(folder / "review.sqlite"),
        project_id,
        Workspace(folder, Settings()).questionnaire(project_id),
        by=name,
    )


def by_id(review: Review, qid: str):
    return next(i for i in review.items() if i.question.id == qid)


def export(folder: Path, tmp_path: Path, person: str = "Ana", project_id: int = 1) -> Path:
    path = tmp_path / f"packet-{project_id}.xlsx"
    path.write_bytes(packet_bytes(review_as(folder, "lead", project_id), person))
    return path


def fill(path: Path, answers: dict[str, tuple], reverse: bool = False) -> Path:
    """Fill the packet as the expert would in Excel: (choice, answer, comment) by ID; with
    ``reverse``, the rows are re-sorted bottom to top first."""
    wb = openpyxl.load_workbook(path)
    ws = wb["Packet"]
    rows = [[c.value for c in r] for r in ws.iter_rows(min_row=2)]
    if reverse:
        rows.reverse()
        for n, values in enumerate(rows, start=2):
            for col, v in enumerate(values, start=1):
                ws.cell(n, col, v)
    for n in range(2, ws.max_row + 1):
        qid = ws.cell(n, 1).value
        if qid in answers:
            for col, value in zip((7, 8, 9), answers[qid]):
                ws.cell(n, col, value)
    wb.save(path)
    return path


def test_the_packet_holds_the_persons_rows_with_the_draft_the_allowed_values_and_a_dropdown(folder, tmp_path):
    path = export(folder, tmp_path)
    wb = openpyxl.load_workbook(path)
    ws = wb["Packet"]
    header = [c.value for c in ws[1]]
    assert header[:2] == ["ID", "Question"] and header[-3:] == ["Your choice", "Your answer", "Your comment"]
    rows = [[c.value for c in r] for r in ws.iter_rows(min_row=2)]
    assert [r[0] for r in rows] == ["ENC-01", "BCK-01", "INC-01"]  # Ana's rows only, in order
    assert rows[0][2:5] == ["Yes", "Drafted for ENC-01.", "Yes, No, N/A"]
    rules = ws.data_validations.dataValidation
    assert len(rules) == 3 and all(r.type == "list" for r in rules)
    assert {str(r.sqref) for r in rules} == {"G2", "G3", "G4"}
    assert wb["_packet"].sheet_state == "hidden"
    with pytest.raises(ValueError, match="holds no row"):
        packet_bytes(review_as(folder, "lead"), "Bob")


def test_a_filled_packet_becomes_the_experts_decisions_matched_by_id_not_position(folder, tmp_path):
    path = fill(
        export(folder, tmp_path),
        {
            "ENC-01": ("Yes", None, None),  # the draft as it stood: an accept
            "BCK-01": ("No", "Backups are restored monthly, not yearly.", "Checked with infra"),
            "INC-01": (None, None, None),  # left empty
        },
        reverse=True,  # the expert sorted the sheet
    )
    lead = review_as(folder, "lead")
    packet = read_packet(path, lead)
    assert packet.person == "Ana"
    done = apply_packet(lead, packet)
    assert (len(done.decided), done.comments, done.conflicts, done.empty) == (2, 1, (), 1)
    enc, bck, inc = (by_id(lead, q) for q in ("ENC-01", "BCK-01", "INC-01"))
    assert (enc.decision.action, enc.decision.by) == (Action.ACCEPT, "Ana")
    assert (bck.decision.action, bck.choice, bck.answer, bck.decision.by) == (
        Action.EDIT,
        "No",
        "Backups are restored monthly, not yearly.",
        "Ana",
    )
    assert inc.decision is None
    assert [c.text for c in team.comments(lead, bck.key)] == ["Checked with infra"]
    assert [c.by for c in team.comments(lead, bck.key)] == ["Ana"]
    assert any(h.by == "Ana" for h in history(lead, bck.key))


def test_a_row_decided_in_the_meantime_is_a_conflict_never_overwritten_and_is_resolved(folder, tmp_path):
    path = fill(
        export(folder, tmp_path), {"ENC-01": ("No", "Only backups are encrypted.", None), "BCK-01": ("Yes", None, None)}
    )
    bob = review_as(folder, "Bob")
    enc = by_id(bob, "ENC-01")
    bob.edit(enc.key, "Encrypted with AES-256.", "Yes", expected=enc.version)  # Bob decided meanwhile

    lead = review_as(folder, "lead")
    done = apply_packet(lead, read_packet(path, lead))
    assert len(done.decided) == 1 and len(done.conflicts) == 1
    conflict = done.conflicts[0]
    assert conflict.row.id == "ENC-01" and conflict.now_choice == "Yes" and conflict.who == "Bob"
    enc = by_id(lead, "ENC-01")
    assert (enc.choice, enc.answer, enc.decision.by) == ("Yes", "Encrypted with AES-256.", "Bob")  # kept

    assert resolve(lead, conflict, take_packet=False) is None
    assert by_id(lead, "ENC-01").decision.by == "Bob"
    resolve(lead, conflict, take_packet=True)
    enc = by_id(lead, "ENC-01")
    assert (enc.choice, enc.answer, enc.decision.by) == ("No", "Only backups are encrypted.", "Ana")
    assert enc.decision.note == "Ana's packet, over Bob's answer, taken by lead"  # whose it replaced, who took it


def _refused(path: Path, review: Review) -> PacketRefused:
    before = {i.key: (i.version, i.answer) for i in review.items()}
    with pytest.raises(PacketRefused) as caught:
        apply_packet(review, read_packet(path, review))
    assert {i.key: (i.version, i.answer) for i in review.items()} == before  # nothing changed
    assert "\n" not in str(caught.value) and "nothing was imported" in str(caught.value)
    return caught.value


def test_bad_packets_get_one_line_each_and_change_nothing(folder, tmp_path):
    lead = review_as(folder, "lead")
    good = export(folder, tmp_path)

    lead2 = review_as(folder, "lead", 2)
    team.assign(lead2, team.targets(lead2, lead2.items(), rows=["ENC-01"]), "Ana")
    other = export(folder, tmp_path, "Ana", 2)
    assert "another questionnaire (other.xlsx)" in str(_refused(fill(other, {"ENC-01": ("No", None, None)}), lead))

    outside = fill(shutil.copy(good, tmp_path / "outside.xlsx"), {"BCK-01": ("Maybe", None, None)})
    assert "'Maybe' is not one of the allowed values (Yes, No, N/A)" in str(_refused(outside, lead))

    formula = fill(shutil.copy(good, tmp_path / "formula.xlsx"), {"ENC-01": (None, '=HYPERLINK("http://x")', None)})
    assert "holds a formula" in str(_refused(formula, lead))

    edited = openpyxl.load_workbook(good)
    edited["Packet"]["B2"] = "Is any data encrypted?"
    edited["Packet"]["G2"] = "No"
    edited.save(tmp_path / "edited.xlsx")
    assert "its question was changed" in str(_refused(tmp_path / "edited.xlsx", lead))

    two = fill(
        shutil.copy(good, tmp_path / "two.xlsx"), {"BCK-01": ("Maybe", None, None), "INC-01": ("Never", None, None)}
    )
    assert "2 problems" in str(_refused(two, lead))

    unrecorded = openpyxl.load_workbook(good)  # as a packet made before packets were recorded (#47)
    unrecorded["_packet"]["B2"] = None
    unrecorded["Packet"]["G2"] = "No"
    unrecorded.save(tmp_path / "unrecorded.xlsx")
    assert "was made by an earlier version of the app" in str(_refused(tmp_path / "unrecorded.xlsx", lead))
    unrecorded["_packet"]["B2"] = "0" * 32  # an id no packet made here has
    unrecorded.save(tmp_path / "unknown.xlsx")
    assert "no packet made here has its id" in str(_refused(tmp_path / "unknown.xlsx", lead))

    plain = tmp_path / "plain.xlsx"
    openpyxl.Workbook().save(plain)
    assert "is not an expert packet" in str(_refused(plain, lead))

    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(b"PK\x03\x04 not really a workbook")
    assert "is not a readable .xlsx workbook" in str(_refused(broken, lead))

    huge = tmp_path / "huge.xlsx"
    with huge.open("wb") as f:
        f.truncate(50 * 1024 * 1024)  # 50 MB, sparse
    assert "is 52 MB; a packet is at most 10 MB" in str(_refused(huge, lead))


def test_the_command_line_exports_imports_lists_conflicts_and_settles_them(folder, tmp_path):
    """The real CLI in child processes: ``review packet-export`` / ``packet-import``."""
    from tests.adversarial.conftest import measured

    store = ("--store", str(folder))
    out = tmp_path / "ana.xlsx"
    made = measured("review", "packet-export", "1", "--to", "Ana", "--out", str(out), *store)
    assert made.rc == 0 and "the packet of Ana, 3 rows of vendor.xlsx" in made.stdout, made.stderr
    fill(out, {"ENC-01": ("No", "Only backups are encrypted.", None), "BCK-01": ("Yes", None, "fine")})
    bob = review_as(folder, "Bob")
    enc = by_id(bob, "ENC-01")
    bob.edit(enc.key, "Encrypted with AES-256.", "Yes", expected=enc.version)
    bob.store.close()

    bad = fill(shutil.copy(out, tmp_path / "bad.xlsx"), {"INC-01": ("Maybe", None, None)})
    refused = measured("review", "packet-import", "1", str(bad), *store)
    assert refused.rc != 0 and "'Maybe' is not one of the allowed values" in refused.error_line(str(bad))

    done = measured("review", "packet-import", "1", str(out), *store)
    assert done.rc == 0, done.stderr
    assert "1 decision by Ana, 1 comment, 1 row left empty, 1 conflict" in done.stdout
    assert "conflict ENC-01" in done.stdout and "(Bob)" in done.stdout and "--take-packet ENC-01" in done.stdout
    assert by_id(review_as(folder, "x"), "ENC-01").decision.by == "Bob"
    again = measured("review", "packet-import", "1", str(out), "--take-packet", "ENC-01", *store)
    assert again.rc == 0 and "settled with the packet's answer" in again.stdout, again.stdout + again.stderr
    enc = by_id(review_as(folder, "x"), "ENC-01")
    assert (enc.choice, enc.decision.by) == ("No", "Ana")
