"""``eval questionnaire`` and ``eval leave-one-out``: the target's own answers never reach the
store or a draft, even when a copy of the target sits among the knowledge-base documents and the
library files; the figures (reuse, disagreement, ceiling) and the HTML reports.

The LLM is ``QuotingGenerator`` or ``RefusingGenerator`` (fails if called), stated fakes: these
tests are about what the evaluation lets into the store and how it scores, not about generation."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import openpyxl
import pytest

from engine.bench.evaluate import evaluate_questionnaire
from tests.fixtures import QUESTIONS, QuotingGenerator, RefusingGenerator, topic_pages, write_pdf, write_questionnaire

pytestmark = pytest.mark.timeout(600)

PLANTED = "Zanzibar quartz ledger 7731"  # only the target holds it
TRUTH = {"ENC-01": "Yes", "BCK-01": "No", "INC-01": "Yes", "ACC-01": "No"}
PAST = {"ENC-01": "Yes", "BCK-01": "No", "INC-01": "Yes", "ACC-01": "Yes"}  # ACC-01 answered otherwise before


def filled(path: Path, choices: dict[str, str], comment: str) -> Path:
    """The fixture workbook with every question answered: a choice and a comment."""
    write_questionnaire(path)
    wb = openpyxl.load_workbook(path)
    ws = wb["Security"]
    for row in range(1, ws.max_row + 1):
        qid = ws.cell(row, 1).value
        if qid in choices:
            ws.cell(row, 3, choices[qid])
            ws.cell(row, 4, f"{comment} ({qid})")
    wb.save(path)
    return path


@pytest.fixture()
def setup(tmp_path: Path) -> dict:
    docs = tmp_path / "docs"
    docs.mkdir()
    write_pdf(docs / "handbook.pdf", topic_pages())
    target = filled(tmp_path / "target.xlsx", TRUTH, f"As recorded in the {PLANTED}")
    shutil.copy(target, docs / "old_copy_of_target.xlsx")  # a copy among the documents…
    past = filled(tmp_path / "past.xlsx", PAST, "Per the security handbook")
    renamed = shutil.copy(target, tmp_path / "renamed_target.xlsx")  # …and among the library files
    truth = tmp_path / "truth.jsonl"
    truth.write_text(
        "".join(json.dumps({"id": q, "question": t, "answer": TRUTH[q], "comment": ""}) + "\n" for q, t in QUESTIONS)
    )
    return dict(docs=docs, target=target, past=past, renamed=Path(renamed), truth=truth, tmp=tmp_path)


def test_the_targets_answers_never_reach_the_store_or_a_draft(setup):
    s = setup
    report = s["tmp"] / "report.html"
    store = s["tmp"] / "store"
    fake = QuotingGenerator()
    figures = evaluate_questionnaire(
        [str(s["docs"])],
        [str(s["past"]), str(s["renamed"])],
        str(s["target"]),
        str(s["truth"]),
        store=str(store),
        report=str(report),
        generator=fake,
    )
    assert sorted(Path(p).name for p in figures["left_out"]) == ["old_copy_of_target.xlsx", "renamed_target.xlsx"]
    assert figures["library_files"] == ["past.xlsx"] and figures["documents"] == 1
    page = report.read_text(encoding="utf-8")
    assert PLANTED not in page and "Per the security handbook" in page  # drafts come from the past answers
    for f in store.rglob("*"):  # nothing the store keeps holds the planted text
        if f.is_file():
            assert PLANTED.encode() not in f.read_bytes(), f


def test_figures_with_the_library_reuse_exact_past_questions(setup):
    s = setup
    fake = QuotingGenerator()
    figures = evaluate_questionnaire(
        [str(s["docs"])],
        [str(s["past"])],
        str(s["target"]),
        str(s["truth"]),
        report=str(s["tmp"] / "r.html"),
        generator=fake,
    )
    assert figures["questions"] == 4
    assert figures["reused_rate"] == 100.0 and fake.calls == 0  # every question was asked before
    assert figures["choice_accuracy"] == 75.0  # ACC-01 was answered Yes before; the truth is No
    assert figures["yes_recall"] == 100.0 and figures["no_recall"] == 50.0 and figures["balanced_accuracy"] == 75.0
    assert figures["no_context_rate"] == 0.0
    # one past answer per question: nothing disputed, and no other choice to pick for ACC-01
    assert figures["disputed_rate"] == 0.0 and figures["wrong_reused_disputed"] == 0.0
    assert figures["reuse_ceiling"] == 75.0
    page = (s["tmp"] / "r.html").read_text(encoding="utf-8")
    assert "truth No" in page and "drafted Yes" in page and "past answer: past.xlsx" in page


def test_disagreeing_past_answers_are_counted_and_bound_the_ceiling(setup):
    """Two past files answer ACC-01 Yes, a third No (the truth): the majority's Yes is reused
    and wrong, but the draft was flagged, and choosing among the past answers could reach 100."""
    s = setup
    # each its own file: a byte-identical copy of past.xlsx would be the same file to the library (#16)
    others = [
        filled(s["tmp"] / f"past_{k}.xlsx", {**PAST, "ACC-01": c}, f"Per the security handbook, copy {k}")
        for k, c in (("b", "Yes"), ("c", "No"))
    ]
    figures = evaluate_questionnaire(
        [str(s["docs"])],
        [str(s["past"]), *map(str, others)],
        str(s["target"]),
        str(s["truth"]),
        report=str(s["tmp"] / "r.html"),
        generator=RefusingGenerator(),
    )
    assert figures["reused_rate"] == 100.0 and figures["balanced_accuracy"] == 75.0
    assert figures["disputed_rate"] == 25.0 and figures["wrong_reused_disputed"] == 100.0
    assert figures["reuse_ceiling"] == 100.0
    assert "reused (Yes ×2, No ×1)" in (s["tmp"] / "r.html").read_text(encoding="utf-8")


def test_without_a_library_the_documents_alone_are_scored(setup):
    s = setup
    fake = QuotingGenerator()  # answers Yes with a quote from the first passage
    figures = evaluate_questionnaire([str(s["docs"])], [], str(s["target"]), str(s["truth"]), generator=fake)
    assert fake.calls == 4 and figures["reused_rate"] == 0.0 and figures["library_entries"] == 0
    assert figures["reuse_ceiling"] is None and figures["wrong_reused_disputed"] is None
    assert figures["yes_recall"] == 100.0 and figures["no_recall"] == 0.0 and figures["choice_accuracy"] == 50.0


def test_leave_one_out_drafts_each_questionnaire_from_the_others(setup):
    """Two filled questionnaires: each is drafted with the other as its library, and never with
    its own answers (the planted text stays out of its own report)."""
    from engine.bench.evaluate import leave_one_out

    s = setup
    truth_b = s["tmp"] / "truth_b.jsonl"
    truth_b.write_text("".join(json.dumps({"id": q, "answer": PAST[q]}) + "\n" for q, _ in QUESTIONS))
    pairs = [(str(s["target"]), str(s["truth"])), (str(s["past"]), str(truth_b))]
    reports = s["tmp"] / "reports"
    result = leave_one_out([str(s["docs"])], pairs, reports=str(reports), generator=RefusingGenerator())
    a, b = result["targets"]
    assert (a["target"], b["target"]) == ("target.xlsx", "past.xlsx") and a["library_files"] == b["library_files"] == 1
    assert a["reused_rate"] == b["reused_rate"] == 100.0  # every answer came from the other file
    assert a["balanced_accuracy"] == 75.0  # ACC-01: the other says Yes, the truth is No
    assert (b["yes_recall"], b["no_recall"]) == (66.7, 100.0)  # …and the other way round
    summary = result["summary"]
    assert (summary["targets"], summary["questions"], summary["balanced_accuracy_min"]) == (2, 8, 75.0)
    assert summary["balanced_accuracy_mean"] == pytest.approx((75.0 + b["balanced_accuracy"]) / 2, abs=0.05)
    assert summary["no_context_rate_max"] == 0.0
    own = (reports / "target.html").read_text(encoding="utf-8")
    assert PLANTED not in own and "Per the security handbook" in own
    assert PLANTED in (reports / "past.html").read_text(encoding="utf-8")  # the target is past.xlsx's library there

    fake = QuotingGenerator()
    alone = leave_one_out([str(s["docs"])], pairs, library=False, generator=fake)
    assert fake.calls == 8 and all(t["reused_rate"] == 0.0 and t["library_files"] == 0 for t in alone["targets"])
    assert alone["library"] is False


def test_leave_one_out_needs_two_questionnaires_that_exist(setup):
    from engine.bench.evaluate import leave_one_out

    s = setup
    with pytest.raises(ValueError, match="at least two filled questionnaires"):
        leave_one_out([str(s["docs"])], [(str(s["target"]), str(s["truth"]))], generator=RefusingGenerator())
    with pytest.raises(FileNotFoundError, match="nowhere.xlsx"):
        leave_one_out(
            [str(s["docs"])],
            [(str(s["target"]), str(s["truth"])), (str(s["tmp"] / "nowhere.xlsx"), str(s["truth"]))],
            generator=RefusingGenerator(),
        )


def test_the_leave_one_out_command_says_what_is_wrong(setup, capsys):
    from engine.cli.main import main

    s = setup
    assert main(["eval", "leave-one-out", "--kb", str(s["docs"]), "--pair", str(s["target"]), str(s["truth"])]) == 2
    assert "error: leave-one-out needs at least two filled questionnaires" in capsys.readouterr().err


def test_a_missing_target_or_document_is_a_clear_error(setup):
    s = setup
    with pytest.raises(FileNotFoundError, match="nowhere.xlsx"):
        evaluate_questionnaire(
            [str(s["docs"])], [], str(s["tmp"] / "nowhere.xlsx"), str(s["truth"]), generator=QuotingGenerator()
        )
    with pytest.raises(Exception, match="does not exist"):
        evaluate_questionnaire(
            [str(s["tmp"] / "no_docs")], [], str(s["target"]), str(s["truth"]), generator=QuotingGenerator()
        )


def test_a_missing_or_garbled_truth_file_is_named_with_the_fix(tmp_path):
    from engine.bench.evaluate import load_truth
    from engine.core.types import FileProblem

    with pytest.raises(FileProblem, match=r"missing\.jsonl: the truth file cannot be read .* JSON-lines"):
        load_truth(tmp_path / "missing.jsonl")
    bad = tmp_path / "truth.jsonl"
    bad.write_text('{"id": "ENC-01", "answer": "Yes"}\nnot json\n')
    with pytest.raises(FileProblem, match=r"truth\.jsonl: is not a JSON-lines truth file"):
        load_truth(bad)
    bad.write_text('{"id": "ENC-01", "answer": "Yes"}\n\n{"id": "BCK-01", "answer": "No"}\n')
    assert set(load_truth(bad)) == {"ENC-01", "BCK-01"}


def test_leave_one_out_drafts_in_the_summary_mode_when_asked(setup):
    """`eval leave-one-out --mode summary`: the mode reaches the Drafter (its prompts open with
    the documents' summaries) and is reported; the stated fake cannot write, so the summaries
    are extractive, and the figures say so."""
    from engine.bench.evaluate import leave_one_out
    from engine.cli.main import build_parser

    s = setup
    args = build_parser().parse_args(
        [
            "eval",
            "leave-one-out",
            "--kb",
            str(s["docs"]),
            "--mode",
            "summary",
            "--pair",
            str(s["target"]),
            str(s["truth"]),
            "--no-library",
        ]
    )
    assert args.mode == "summary"

    class Recording(QuotingGenerator):
        def __init__(self):
            super().__init__(longest=True)  # the summary's longest sentence: one of the handbook's own
            self.labels = []

        def generate(self, question, passages, choices):
            self.labels.append([p.label for p in passages])
            return super().generate(question, passages, choices)

    fake = Recording()
    result = leave_one_out(
        [str(s["docs"])],
        [(str(s["target"]), str(s["truth"]))],
        library=False,
        generator=fake,
        mode="summary",
        store=str(s["tmp"] / "store"),
    )
    (target,) = result["targets"]
    assert result["mode"] == target["mode"] == "summary" and fake.calls == 4
    assert all(labels[0] == "[1] handbook.pdf (summary of the document)" for labels in fake.labels)
    # the summary passage is the handbook's own central sentences: its quotes anchor in the source;
    # the fake quotes the summary's longest sentence whatever the question, so the support gate
    # (engine/drafting/confidence.py) leaves the questions that sentence is not about as no context
    assert target["verified_quote_rate"] == 100.0 and target["no_context_rate"] < 100.0
    figures = evaluate_questionnaire(
        [str(s["docs"])],
        [],
        str(s["target"]),
        str(s["truth"]),
        generator=QuotingGenerator(),
        mode="summary",
        store=str(s["tmp"] / "store"),
    )
    assert figures["summaries"] == {"extractive": 1} and figures["mode"] == "summary"
    default = evaluate_questionnaire(
        [str(s["docs"])],
        [],
        str(s["target"]),
        str(s["truth"]),
        generator=QuotingGenerator(),
        store=str(s["tmp"] / "store"),
    )
    assert default["mode"] == "weighted" and default["summaries"] is None


def test_no_model_drafts_from_the_library_and_the_documents_alone(setup, monkeypatch, capsys):
    """`eval leave-one-out --no-model`: no model is loaded or asked (``make_generator`` fails the
    test if called: this is about what the evaluation drafts without one); each target's rows come
    from the other file's answers as shipped, a row the other file left blank stays undrafted, and
    the drafts file feeds the risk calibration (python -m engine.bench.risk)."""
    import engine.bench.evaluate as evaluate
    from engine.bench.risk import main as risk_main
    from engine.cli.main import main

    def no_loading(*args, **kwargs):
        raise AssertionError("--no-model loaded a model")

    monkeypatch.setattr(evaluate, "make_generator", no_loading)
    s = setup
    partial = filled(s["tmp"] / "partial.xlsx", {q: c for q, c in PAST.items() if q != "BCK-01"}, "Per the handbook")
    truth_b = s["tmp"] / "truth_b.jsonl"
    truth_b.write_text("".join(json.dumps({"id": q, "answer": PAST[q]}) + "\n" for q, _ in QUESTIONS))
    drafts = s["tmp"] / "drafts.jsonl"
    argv = ["eval", "leave-one-out", "--no-model", "--kb", str(s["docs"]), "--store", str(s["tmp"] / "store")]
    argv += ["--pair", str(s["target"]), str(s["truth"]), "--pair", str(partial), str(truth_b)]
    assert main([*argv, "--all-rows", "--drafts", str(drafts), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["generator"] == "no model (--no-model)"  # the figures say so
    rows = {(r["target"], r["id"]): r for r in map(json.loads, drafts.read_text(encoding="utf-8").splitlines())}
    on_target = {i: r for (t, i), r in rows.items() if t == "target.xlsx"}
    assert on_target["ACC-01"]["choice"] == "Yes" and on_target["ACC-01"]["truth"] == "No"  # the other file's Yes
    assert on_target["ENC-01"]["draft"]["reused"] and on_target["ENC-01"]["from_product"] is None
    assert on_target["BCK-01"]["status"] == "no_context"  # only the model could have drafted it
    assert rows[("partial.xlsx", "BCK-01")]["choice"] == "No"  # the target's answer, as partial's library
    assert risk_main([str(drafts), "--calibration"]) == 0
    calibration = json.loads(capsys.readouterr().out)["calibration"]
    assert (
        sum(n for _, n in calibration.values()) == 7 and sum(w for w, _ in calibration.values()) == 2
    )  # ACC-01 both ways
