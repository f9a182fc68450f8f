"""The shipped Review-first calibration is what the code drafts today (engine/drafting/risk.py
``CALIBRATION``, #59): the 8 shared HECVATs drafted leave-one-out without the model (``eval
leave-one-out --no-model``, engine/bench/unasked.py: every choice from the other files' answers,
every text from the documents' sentences, as shipped), every row, the 40 PDFs by folder scope, and
the other products' strata counted as ``python -m engine.bench.risk D.jsonl --calibration`` counts
them, equal to the shipped counts.

A change to the drafting that moves rows between strata fails here with the counts it drafts now:
rebuild ``CALIBRATION`` from them (the command in its comment, in a commit of its own, as a pin
moves) — a row's risk must rest on the drafts the code makes, not on last week's. No language model
(that is the point of ``--no-model``); the real embedder, real Qdrant local mode. About 3.5 minutes on
2 cores, the store built in the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.bench.evaluate import leave_one_out
from engine.bench.risk import counts, read
from engine.bench.unasked import Unasked
from engine.core.scopes import FolderScopes
from engine.drafting.risk import CALIBRATION

pytestmark = pytest.mark.timeout(1800)


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
    shipped = {s: c for s, c in CALIBRATION.items() if not s.startswith("model")}
    assert measured == shipped, (
        "the drafts moved between the risk strata: set these counts in CALIBRATION (engine/drafting/risk.py) "
        f"and the figures in docs/confidence.md: {measured}"
    )
