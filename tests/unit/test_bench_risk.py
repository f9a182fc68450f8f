"""The calibration table and the Review-first figures (engine/bench/risk.py, ``python -m
engine.bench.risk D.jsonl``) on a small drafts file written here, every figure worked out by hand
below (the smoothing: 2 choices' worth of the parent stratum, the root's parent one half;
engine/drafting/risk.py).

Two targets, seven drafted rows (and one not drafted, left out):

====  =====================  ======  =====  ==============================================
row   stratum                choice  truth  leave-one-target-out risk
====  =====================  ======  =====  ==============================================
A1    model:low:yes          Yes     Yes    B has model 1 wrong of 2, model:low:yes 1 of 1:
A2    model:low:yes          Yes     No     (1 + 1)/4 = 1/2, 1/2, then (1 + 2 × 1/2)/3 = 2/3
A3    profile                Yes     Yes    0 (a profile fact's text: TEXT_RISK)
B1    model:low:yes          Yes     No     A has model 1 wrong of 2, model:low:yes 1 of 2:
                                            (1 + 1)/4 = 1/2, 1/2, (1 + 1)/4 = 1/2
B2    model:low:no           No      No     1/2, 1/2, then model:low:no unseen: (0 + 1)/2 = 1/2
B3    model:text             (none)  text   0.05 (the model's narrative: the threshold itself)
B4    profile                Yes     No     0
====  =====================  ======  =====  ==============================================
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.bench.risk import main

ROWS = [  # (target, id, row type, status, choice, truth, what the draft rests on)
    ("A", "A1", "yes_no", "drafted", "Yes", "Yes", {}),
    ("A", "A2", "yes_no", "drafted", "Yes", "No", {}),
    ("A", "A3", "yes_no", "drafted", "Yes", "Yes", {"profile_fact": "encryption_at_rest"}),
    ("A", "A9", "yes_no", "no_context", None, "Yes", {}),  # not drafted: not a row of the figures
    ("B", "B1", "yes_no", "drafted", "Yes", "No", {}),
    ("B", "B2", "yes_no", "drafted", "No", "No", {}),
    ("B", "B3", "text", "drafted", None, "Keys are rotated yearly.", {}),
    ("B", "B4", "yes_no", "drafted", "Yes", "No", {"profile_fact": "soc2_report"}),
]


def drafts_file(path: Path) -> Path:
    """The rows as ``eval leave-one-out --all-rows --drafts`` writes them."""
    lines = []
    for n, (target, qid, row_type, status, choice, truth, rests_on) in enumerate(ROWS, start=2):
        draft = {"id": qid, "sheet": "S", "row": n, "question": f"Question {qid}?", "answer": f"Answer {qid}."}
        record = {"target": target, "key": f"S!B{n}", "status": status, "row_type": row_type, "truth": truth}
        record["draft"] = {**draft, "choice": choice, **rests_on}
        lines.append(json.dumps(record))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture()
def report(tmp_path, capsys) -> dict:
    assert main([str(drafts_file(tmp_path / "d.jsonl")), "--calibration", "--choose", "--curve"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_calibration_counts_the_wrong_choices_of_each_stratum(report):
    assert report["calibration"] == {"model:low:no": [0, 1], "model:low:yes": [2, 3], "profile": [1, 2]}


def test_the_pooled_figures_use_each_targets_risk_measured_on_the_other(report):
    pooled = report["all"]
    assert report["threshold"] == 0.05
    assert (pooled["drafted"], pooled["choices"], pooled["wrong"], pooled["precision"]) == (7, 6, 3, 0.5)
    assert pooled["always_yes"] == 0.333  # A1 and A3 of the six Yes/No truths
    # in the list (risk ≥ 0.05): A1, A2, B1, B2, B3; outside: A3 (right), B4 (wrong)
    assert pooled["review_first"] == {
        "rows": 5,
        "share": 0.714,
        "wrong_inside": 2,
        "wrong_outside": 1,
        "wrong_inside_share": 0.667,
        "precision_outside": 0.5,
        "choices_outside": 2,
    }
    assert pooled["disputed_only"] == {
        "rows": 0,
        "share": 0.0,
        "wrong_inside": 0,
        "wrong_outside": 3,
        "wrong_inside_share": 0.0,
        "precision_outside": 0.5,
        "choices_outside": 6,
    }
    assert pooled["by_row_type"]["text"] == {
        "rows": 1,
        "share": 1.0,
        "wrong_inside": 0,
        "wrong_outside": 0,
        "wrong_inside_share": None,
        "precision_outside": None,
        "choices_outside": 0,
    }
    assert (pooled["by_row_type"]["yes_no"]["rows"], pooled["by_row_type"]["yes_no"]["share"]) == (4, 0.667)


def test_each_target_has_its_own_figures(report):
    a, b = report["targets"]["A"], report["targets"]["B"]
    assert (a["drafted"], a["choices"], a["wrong"], a["precision"], a["always_yes"]) == (3, 3, 1, 0.667, 0.667)
    assert a["review_first"] == {
        "rows": 2,
        "share": 0.667,
        "wrong_inside": 1,
        "wrong_outside": 0,
        "wrong_inside_share": 1.0,
        "precision_outside": 1.0,
        "choices_outside": 1,
    }
    assert (b["drafted"], b["choices"], b["wrong"], b["precision"], b["always_yes"]) == (4, 3, 2, 0.333, 0.0)
    assert b["review_first"] == {
        "rows": 3,
        "share": 0.75,
        "wrong_inside": 1,
        "wrong_outside": 1,
        "wrong_inside_share": 0.5,
        "precision_outside": 0.0,
        "choices_outside": 1,
    }


def test_the_curve_and_the_chosen_threshold(report):
    # thresholds: the distinct risks 0, 0.05, 1/2, 2/3, then past every risk
    assert report["curve"] == [
        {"threshold": 0.0, "outside": 0.0, "precision_outside": None, "wrong_inside_share": 1.0},
        {"threshold": 0.05, "outside": 0.286, "precision_outside": 0.5, "wrong_inside_share": 0.667},
        {"threshold": 0.5, "outside": 0.429, "precision_outside": 0.5, "wrong_inside_share": 0.667},
        {"threshold": 0.6667, "outside": 0.714, "precision_outside": 0.5, "wrong_inside_share": 0.333},
        {"threshold": 1.01, "outside": 1.0, "precision_outside": 0.5, "wrong_inside_share": 0.0},
    ]
    # the highest threshold whose list holds 90 % of the wrong choices: only everything (B4's risk is 0)
    assert report["chosen_threshold"] == 0.0


def test_a_file_without_a_drafted_row_is_one_error_line(tmp_path, capsys):
    empty = tmp_path / "empty.jsonl"
    empty.write_text(json.dumps({"target": "A", "key": "k", "status": "no_context", "row_type": "yes_no"}) + "\n")
    assert main([str(empty)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"error: {empty}: no drafted row with its draft; fix: run eval leave-one-out --all-rows --drafts"
    )
