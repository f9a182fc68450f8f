"""The shipped Review-first calibration is what the code drafts today (engine/drafting/risk.py
``CALIBRATION``, #59): the 8 shared HECVATs drafted leave-one-out without the model (``eval
leave-one-out --no-model``, engine/bench/unasked.py: every choice from the other files' answers,
every text from the documents' sentences, as shipped), every row, the 40 PDFs by folder scope, and
the other products' strata counted as ``python -m engine.bench.risk D.jsonl --calibration`` counts
them: each stratum's count of choices and of wrong ones within the ``NOISE_…`` margins of the shipped counts (on
this machine they are the shipped counts exactly; the margin of a row or two leaves room for an int8
embedder that rounds otherwise on another CPU, whose cosine may fall on the other side of a bar for a
row, not for a drafting change).

A change to the drafting that moves rows between strata beyond that fails here with the counts it
drafts now: rebuild ``CALIBRATION`` from them (the command in its comment, in a commit of its own,
as a pin moves) — a row's risk must rest on the drafts the code makes, not on last week's. No language model
(that is the point of ``--no-model``); the real embedder, real Qdrant local mode. About 3.5 minutes on
2 cores, the store built in the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.bench.evaluate import leave_one_out
from engine.bench.risk import counts, read
from engine.bench.rows import hecvat_pairs
from engine.bench.unasked import Unasked
from engine.core.scopes import FolderScopes
from engine.drafting.risk import CALIBRATION

pytestmark = pytest.mark.timeout(1800)

# how far a stratum's counts may differ from the shipped ones: choices, wrong choices, or this share of either
NOISE_CHOICES, NOISE_WRONG, NOISE_SHARE = 2, 1, 0.05


def test_the_other_products_strata_are_the_drafts_of_today(shared_data: Path, tmp_path: Path):
    root = shared_data / "instructure"
    pairs = [(str(q), str(t)) for q, t in hecvat_pairs(root)]
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
    moved = {}
    for s in sorted(set(measured) | {s for s in CALIBRATION if not s.startswith("model")}):
        (wrong, total), (wrong_now, total_now) = CALIBRATION.get(s, (0, 0)), measured.get(s, (0, 0))
        choices_moved = abs(total_now - total) > max(NOISE_CHOICES, NOISE_SHARE * total)
        if choices_moved or abs(wrong_now - wrong) > max(NOISE_WRONG, NOISE_SHARE * wrong):
            moved[s] = ((wrong, total), (wrong_now, total_now))
    assert not moved, (
        f"the drafts moved the risk strata {moved} (shipped (wrong, choices), today's): set these counts in CALIBRATION "
        f"(engine/drafting/risk.py) and the figures in docs/confidence.md: {measured}"
    )
