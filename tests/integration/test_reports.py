"""The coverage and library reports (#51) on the shared company's workspace (tests/report_workspace.py:
its 40 PDFs by folder scope, its 10 past questionnaires in the library, two of its HECVATs drafted
again for Impact with some rows decided). The drafts are made by the library and the documents
with a stated fake LLM that answers "no context" to every call: these tests are about the reports,
not the model. The workspace is built once for the module (≈ 2–4 minutes on 2 cores).

* The coverage report's counts equal those computed here from each questionnaire's results.jsonl
  (what each draft rests on, read off its own fields) and the review store (the decisions, the
  assignments), row by row and as the tables' figures.
* The gap topics group the no-source rows of both questionnaires, some topics holding rows of
  both, ranked by their size across the workspace.
* The library report lists exactly the disagreeing near-identical answers `library check` prints,
  with their products and dates, and counts the drafts that cited each entry.
* ``report coverage`` and ``report library`` write XLSX (a sheet per table, frozen header,
  autofilter, each figure linked to its rows) and self-contained HTML; another suffix is refused."""

from __future__ import annotations

import json
import re
from collections import Counter

import openpyxl
import pytest

from engine.cli.main import main
from engine.core.scopes import FolderScopes
from engine.drafting.drafter import EXPLAINED_LATER
from engine.questionnaire.qualifiers import question_key
from tests.report_workspace import COMPANY, DATA, PROVIDERS, build

pytestmark = [
    pytest.mark.timeout(1200),
    pytest.mark.skipif(
        not DATA.is_dir(), reason=f"{DATA} is absent: the shared company's files are not beside this checkout"
    ),
]


@pytest.fixture(scope="module")
def company(tmp_path_factory):
    """The built workspace's folder and its two questionnaires' project ids."""
    folder = tmp_path_factory.mktemp("company")
    built = build(folder)
    return folder, built["projects"]


@pytest.fixture(scope="module")
def ws(company):
    from engine.app.settings import Settings
    from engine.app.workspace import Workspace

    folder, _ = company
    workspace = Workspace(folder, Settings.load(folder))
    yield workspace
    workspace.review_store.close()
    workspace.library.close()


def product_of_file() -> dict[str, str | None]:
    """Each past questionnaire's file name → the product its folder names (None: company-wide)."""
    folders = FolderScopes(COMPANY, PROVIDERS)
    return {book.name: folders.product_of(book) for book in DATA.glob("*/*.xlsx")}


def expected_basis(d: dict, product: str | None, products: dict[str, str | None]) -> str:
    """What a draft of results.jsonl rests on, read off its own fields."""
    if d["status"] == "not_required":
        return "not_required"
    if d["status"] in ("no_context", "error"):
        return "nothing"
    if d["profile_fact"]:
        return "profile"
    if d["from_product"]:
        return "other_product"
    if d["reused"]:
        first = next(c for c in d["citations"] if c["kind"] == "library")
        return "company_past" if products.get(first["file"]) is None else "own_past"
    if d["stated"] or d["text_source"] in ("own_document", "reference", "third_party"):
        return "document"
    assert d["text_source"] == "model", d
    return "model"


def expected_outcome(decision, d: dict) -> str:
    if decision is None:
        return "undecided"
    if decision.action.value in ("rejected", "needs_sme"):
        return decision.action.value
    same = " ".join((decision.answer or "").split()) == " ".join(d["answer"].split()) and (
        (decision.choice or "") == (d["choice"] or "")
    )
    return "accepted" if decision.action.value == "accepted" and same and d["answer"] else "edited"


def test_the_coverage_counts_equal_those_of_results_jsonl_and_the_review_store(company, ws):
    folder, projects = company
    products = product_of_file()
    for pid in projects:
        project = ws.project(pid)
        report = ws.coverage_report(pid)
        drafts = [json.loads(line) for line in (folder / f"results-{pid}.jsonl").read_text().splitlines()]
        by_place = {(d["sheet"], d["row"]): d for d in drafts}  # a row's newest line last
        assert len(by_place) == len(report.rows)  # every row drafted (redo_answered)
        # a row has a second line only when the explanations pass drafted it again (#59 item 6)
        assert len(drafts) - len(by_place) == sum(d["no_text"] == EXPLAINED_LATER for d in drafts)
        keys = {question_key(q): (q.sheet, q.row) for q in ws.questionnaire(pid).questions}
        decisions = ws.review_store.latest_decisions(pid)
        held = {k for (p, k), a in ws.review_store.assignments(pid).items() if a.to}
        expected = {}
        for row in report.rows:
            d = by_place[keys[row.key]]
            basis = expected_basis(d, project.product, products)
            outcome = expected_outcome(decisions.get(row.key), d)
            gap = basis == "nothing" or outcome in ("rejected", "edited", "needs_sme") or row.key in held
            expected[row.key] = (basis, outcome, gap)
        found = {r.key: (r.basis.value, r.outcome.value, bool(r.gaps)) for r in report.rows}
        assert found == expected, {k: (found[k], expected[k]) for k in found if found[k] != expected[k]}
        # the tables' figures are those counts
        tables = {t.name: t for t in report.tables()}
        by_source = {row[0]: row[1].value for row in tables["By source"].rows}
        labels = {r.basis.value: r.basis.label for r in report.rows}
        assert by_source == {labels[b]: n for b, n in Counter(b for b, _, _ in expected.values()).items()}
        sections = tables["By section"]
        assert sum(f.value for f in sections.column("Rows")) == len(report.rows)
        assert sum(f.value for f in sections.column("Gaps")) == sum(g for *_, g in expected.values())
        trend = next(t for t in report.trends if t.project.id == pid)
        drafted = [v for v in expected.values() if v[0] not in ("nothing", "not_required", "not_drafted")]
        assert len(trend.drafted) == len(drafted)
        for outcome in ("accepted", "edited", "rejected", "needs_sme"):
            assert len([r for r in trend.drafted if r.outcome.value == outcome]) == sum(
                o == outcome for _, o, _ in drafted
            )
        assert Counter(b for b, *_ in expected.values())["nothing"] > 0  # both questionnaires have rows with no source
        assert {o for _, o, _ in expected.values()} >= {"accepted", "edited", "rejected"}


def test_the_gap_topics_group_the_no_source_rows_of_both_questionnaires(company, ws):
    folder, projects = company
    corpus = ws.corpus()
    no_source = {(r.project_id, r.key) for r in corpus.every_row if r.basis.value == "nothing"}
    assert {pid for pid, _ in no_source} == set(projects)
    reports = [ws.coverage_report(pid) for pid in projects]
    topics = {tuple((r.project_id, r.key) for r in t.rows): t for report in reports for _, t in report.topics}
    grouped = [row for rows in topics for row in rows]
    assert len(grouped) == len(set(grouped))  # each gap row in one topic, the same in both reports
    assert no_source <= set(grouped)
    topics = list(topics.values())
    shared = [t for t in topics if len(t.questionnaires) == 2]
    assert shared, [t.name for t in topics]
    assert any(r.basis.value == "nothing" for t in shared for r in t.rows)  # a no-source topic in both
    ranks = reports[0].topics
    sizes = [len(t.rows) for _, t in ranks]
    assert sizes == sorted(sizes, reverse=True) and [n for n, _ in ranks] == sorted(n for n, _ in ranks)
    assert all(t.name and len(t.name.split(" · ")) <= 3 for _, t in ranks)
    written = next(t for t in topics if any(r.answer.startswith("Written by hand") for r in t.rows))
    assert "Written by hand by the reviewer" in written.entry().answer  # the form is prefilled with it


def test_the_library_report_lists_the_disagreeing_answers_library_check_finds(company, ws, capsys):
    folder, _ = company
    assert main(["library", "check", "--json", "--store", str(folder)]) == 0
    checked = json.loads(capsys.readouterr().out)
    report = ws.library_report()
    assert checked and len(report.conflicts) == len(checked)
    assert {frozenset(e["id"] for e in c["entries"]) for c in checked} == {
        frozenset(e.id for e in c.entries) for c in report.conflicts
    }
    table = next(t for t in report.tables() if t.name == "Disagreeing answers")
    listed = {row[table.columns.index("Entry")]: row for row in table.rows}
    for c in checked:
        for e in c["entries"]:
            row = listed[e["id"]]
            assert row[table.columns.index("Product")] == (e["product"] or "company-wide")
            assert row[table.columns.index("Dated")] == e["dated"] and row[table.columns.index("Choice")] == e["choice"]
    flagged = {h.entry.id for h in report.entries if h.conflict}
    assert flagged == {e["id"] for c in checked for e in c["entries"]}
    # the drafts that took another product's choice used its entry, on the day they were drafted
    used = {h.entry.id: h for h in report.entries if h.uses}
    assert used and all(h.used(30, report.today) for h in used.values())
    assert len(report.select(never_used=True)) + len(used) == len(report.entries)


def test_both_reports_write_xlsx_and_self_contained_html(company, tmp_path, capsys):
    folder, projects = company
    store = ["--store", str(folder)]
    for name, args in (("coverage", ["coverage", str(projects[0])]), ("library", ["library"])):
        for suffix in (".xlsx", ".html"):
            out = tmp_path / f"{name}{suffix}"
            assert main(["report", *args, *store, "--out", str(out)]) == 0, capsys.readouterr().err
            assert out.is_file()
        book = openpyxl.load_workbook(tmp_path / f"{name}.xlsx")
        assert book.sheetnames[0] == "About" and book.sheetnames[-1] == "Figure rows"
        lines = list(book["Figure rows"].iter_rows(min_row=2, values_only=True))
        linked = 0
        for sheet in book.sheetnames[1:-1]:
            ws = book[sheet]
            assert ws.freeze_panes == "A2" and ws.auto_filter.ref, sheet
            for row in ws.iter_rows(min_row=2):
                for cell in row:
                    if cell.hyperlink is None:
                        continue
                    first = int(re.fullmatch(r"'Figure rows'!A(\d+)", cell.hyperlink.location).group(1))
                    figure = lines[first - 2][0]
                    assert [line[0] for line in lines[first - 2 : first - 2 + cell.value]] == [figure] * cell.value
                    linked += 1
        assert linked > 3, name
        page = (tmp_path / f"{name}.html").read_text(encoding="utf-8")
        assert "<script" not in page.lower() and not re.search(r"""(src|href)=["']?(https?:)?//""", page)
        targets = set(re.findall(r'href="#([^"]+)"', page))
        assert targets and targets <= set(re.findall(r'id="([^"]+)"', page))
    assert main(["report", "library", *store, "--out", str(tmp_path / "library.pdf")]) == 2
    err = capsys.readouterr().err
    assert "library.pdf" in err and ".xlsx or .html" in err and not (tmp_path / "library.pdf").exists()
