"""``python -m engine.bench.review_open`` (and ``python -m tests.e2e.review_open_apptest``, which adds the
whole screen) on a small generated workspace (a handbook PDF made with
PyMuPDF, the 4-question workbook made with openpyxl; real MiniLM, real Qdrant local mode): it
builds the workspace once, drafts it with its stated fake generator (the benchmark is about
opening a drafted question, not drafting), times the Review screen's steps and the whole screen
with AppTest, prints one JSON object, and a second run reuses what the first built."""

from __future__ import annotations

import json

import pytest

from engine.bench import review_open
from storage.vector_store import release
from tests.e2e import review_open_apptest
from tests.fixtures import topic_pages, write_pdf, write_questionnaire

pytestmark = pytest.mark.timeout(300)


def run(capsys, *args: str, apptest: bool = False) -> dict:
    assert (review_open_apptest.main if apptest else review_open.main)(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def test_review_open_prints_the_steps_and_reuses_the_workspace(tmp_path, capsys):
    pdf = write_pdf(tmp_path / "handbook.pdf", topic_pages())
    book = write_questionnaire(tmp_path / "vendor_questionnaire.xlsx")
    store = tmp_path / "ws"
    try:
        out = run(
            capsys,
            "--store",
            str(store),
            "--questionnaire",
            str(book),
            "--kb",
            str(pdf),
            "--questions",
            "2",
            apptest=True,
        )
        assert out["rows"] == 4 and out["documents"] == 1 and out["questions_opened"] == 2
        for part in ("engine_first", "engine_again"):
            steps = out[part]["steps_p50_s"]
            assert set(steps) == set(review_open.STEPS) and all(v >= 0 for v in steps.values())
            assert 0 < out[part]["p50_s"] <= out[part]["p90_s"] <= out[part]["max_s"]
            assert out[part]["p50_over_baseline"] > 0
        assert out["apptest_first"]["p50_s"] > 0 and out["apptest_again"]["p50_s"] > 0
        drafted = {k: d.created for k, d in review_open.Workspace(store).review_store.latest_drafts(1).items()}
        assert len(drafted) == 4

        again = run(capsys, "--store", str(store), "--questionnaire", str(book), "--questions", "1")
        assert again["documents"] == 1 and "apptest_first" not in again
        now = {k: d.created for k, d in review_open.Workspace(store).review_store.latest_drafts(1).items()}
        assert now == drafted  # nothing drafted again
    finally:
        release(str(store / "qdrant"))
