"""The shipped Review-first calibration is what the code drafts today (engine/drafting/risk.py
``CALIBRATION``, #59): the 8 shared HECVATs drafted leave-one-out without the model (``eval
leave-one-out --no-model``, engine/bench/unasked.py: every choice from the other files' answers,
every text from the documents' sentences, as shipped), every row, the 40 PDFs by folder scope, and
the other products' strata counted as ``python -m engine.bench.risk D.jsonl --calibration`` counts
them: each stratum's risk from today's counts is on the same side of the Review-first threshold as
the shipped one, and within ``MOVED`` of it (on this machine the counts are the shipped ones exactly;
the margin leaves room for an embedder that rounds otherwise on another CPU, not for a drafting change).

A change to the drafting that moves rows between strata that far fails here with the counts it
drafts now: rebuild ``CALIBRATION`` from them (the command in its comment, in a commit of its own,
as a pin moves) — a row's risk must rest on the drafts the code makes, not on last week's. No language model
(that is the point of ``--no-model``); the real embedder, real Qdrant local mode. About 3.5 minutes on
2 cores, the store built in the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.bench.evaluate import leave_one_out
from engine.bench.risk import counts, read
from engine.bench.unasked import Unasked
from engine.core.scopes import FolderScopes
from engine.drafting.risk import CALIBRATION, REVIEW_FIRST_RISK, stratum_risk

pytestmark = pytest.mark.timeout(1800)

MOVED = 0.03  # the most a stratum's risk may move before the calibration is rebuilt


def test_the_other_products_strata_are_the_drafts_of_today(shared_data: Path, tmp_path: Path):
    root = shared_data / "instructure"
    truths = sorted((root / "_extracted").glob("*HECVAT*.jsonl"))
    pairs = [(str(next(root.rglob(t.stem.replace("_", " ") + ".xlsx"))), str(t)) for t in truths]
    assert len(pairs) == 8, [Path(q).name for q, _ in pairs]
    kb = sorted(str(p) for p in root.glob("*/*.pdf"))
    drafts = tmp_path / "drafts.jsonl"
    leave_one_out(
        kb,
        pairs,
        store=str(tmp_path / "store"),
        generator=Unasked(),
        folders=FolderScopes(),
        all_rows=True,
        drafts=str(drafts),
    )
    measured = {s: c for s, c in counts(read(drafts)).items() if not s.startswith("model")}
    today = {**{s: c for s, c in CALIBRATION.items() if s.startswith("model")}, **measured}  # the model's: its own run
    moved = {}
    for s in sorted(set(measured) | {s for s in CALIBRATION if not s.startswith("model")}):
        now, shipped = stratum_risk(s, today), stratum_risk(s, CALIBRATION)
        if (now >= REVIEW_FIRST_RISK) != (shipped >= REVIEW_FIRST_RISK) or abs(now - shipped) > MOVED:
            moved[s] = (round(shipped, 4), round(now, 4))
    assert not moved, (
        f"the drafts moved the risk strata {moved} (shipped risk, today's): set these counts in CALIBRATION "
        f"(engine/drafting/risk.py) and the figures in docs/confidence.md: {measured}"
    )
