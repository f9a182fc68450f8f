"""The company's own narratives (issue #59), without the model: how many of a questionnaire's
narratives (rows the vendor answered with a text and no choice) another product answered in
near-identical words, and how many the drafter now reuses as the company's answer
(engine/drafting/company_text.py), leave one out.

Every filled questionnaire in turn is the target, the others its library (products from their
folders, ``FolderScopes``; the library is built once with every file and each target's own entries
are left out of its matches, which is the same as a library of the other files). For each of the
target's narratives, as the drafter asks (engine/drafting/drafter.py ``SOURCES``): the
near-identical past answers (``REUSE_SCORE``) of the most preferred kind; a company-wide one is
reused as it is (``own_past``); else other products' go to ``company_text``. Reported per target
and for the HECVAT Fulls and Lites apart:

* ``narratives``: the rows (the general-information rows left out: the profile answers them
  first); ``answered_alike``: those with another product's past answer that holds
  at least half of the vendor's own sentences near-identically (``shared_share``);
* ``reused``: the rows the drafter now gives the company's text (or a company-wide past answer),
  and of the ``answered_alike`` ones how many (``reused_of_alike``); ``differing``: reused rows whose
  draft names products that answered otherwise (Review first); ``disputed``: rows two or more other
  products answered in different words, none shared (no company text, Review first);
* ``cosine``: the mean cosine (MiniLM) of the reused text with the vendor's own, over the reused
  rows, beside **always empty** (0 for every row: what the drafter gave these rows before, "no
  context", is not known without the model; the figure of a run with it is in docs/benchmarks.md)
  and beside the **best past answer** (the other products' near-identical answer closest to the
  vendor's own: the ceiling of any reuse).

    python -m engine eval company-narratives FILLED... [--store DIR] [--json]
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from engine.core.scopes import FolderScopes
from engine.drafting.company_text import company_text, shared_share
from engine.drafting.cross_product import is_other_product
from engine.index.library import REUSE_SCORE, AnswerLibrary, choice_key, near_hits, reused_hit
from engine.questionnaire import Question, read_questionnaire
from engine.questionnaire.row_types import is_profile

ALIKE = 0.5  # share of the vendor's sentences another product's answer holds: answered alike


def narratives(files: Sequence[str | Path], store: Path, encoder, folders: FolderScopes | None = None) -> dict:
    """The figures of the module docstring over ``files`` (the library in ``store``)."""
    folders = folders or FolderScopes()
    files = [Path(f) for f in files]
    library = AnswerLibrary(store, encoder)
    try:
        for f in files:
            library.import_file(f, product=folders.product_of(f))
        entries = library.entries()
        products = sorted({e.product for e in entries if e.product})
        targets = [_target(f, folders.product_of(f), library, entries, products, encoder) for f in files]
    finally:
        library.close()
    groups = {
        "fulls": [t for t in targets if "full" in t["target"].casefold()],
        "lites": [t for t in targets if "lite" in t["target"].casefold()],
    }
    return {
        "reuse_score": REUSE_SCORE,
        "alike": ALIKE,
        "targets": [{k: v for k, v in t.items() if k != "_rows"} for t in targets],
        "groups": {name: _pooled([r for t in ts for r in t["_rows"]]) for name, ts in groups.items() if ts},
        "overall": _pooled([r for t in targets for r in t["_rows"]]),
    }


def _target(f: Path, product: str | None, library: AnswerLibrary, entries, products, encoder) -> dict:
    rows = []
    dropdowns = {q.id for q in read_questionnaire(f).questions if q.choices}
    for e in (e for e in entries if e.file == f.name):
        if choice_key(e.choice) or not (e.answer or "").strip() or _profile_row(e) or e.qid in dropdowns:
            # a choice, an empty answer, a profile row (the profile answers it first) or a row with a
            # dropdown the vendor left empty (its comment explains a choice): not a narrative
            continue
        hits = [
            h
            for h in library.match(e.question, top_k=None, min_score=REUSE_SCORE, product=product)
            if h.entry.file != f.name
        ]
        own = e.answer.strip()
        others = [h for h in hits if is_other_product(h.entry, product) and (h.entry.answer or "").strip()]
        alike = [h for h in others if shared_share(own, h.entry.answer, products) >= ALIKE]
        near, reuse = near_hits(hits, product=product), reused_hit(hits, product=product)
        text, differing, disputed, source = "", (), False, None
        if reuse is not None and not is_other_product(reuse.entry, product):
            text, source = reuse.entry.answer or "", "own_past"
        elif reuse is not None and not choice_key(reuse.entry.choice):
            found = company_text(near, [*products, product or ""])
            if found is not None:
                text, differing, source = found.text, found.differing, "company_text"
            else:
                disputed = len({h.entry.product for h in near if (h.entry.answer or "").strip()}) >= 2
        best = max(others, key=lambda h: _cos(encoder, own, h.entry.answer), default=None)
        rows.append(
            {
                "id": e.qid,
                "alike": bool(alike),
                "reused": bool(text),
                "source": source,
                "differing": list(differing),
                "disputed": disputed,
                "cosine": round(_cos(encoder, own, text), 4) if text else None,
                "best_past_cosine": round(_cos(encoder, own, best.entry.answer), 4) if best else None,
            }
        )
    return {"target": f.name, "product": product, **_pooled(rows), "rows": rows, "_rows": rows}


def _profile_row(e) -> bool:
    """A general-information row (DATE, GNRL: the vendor's name, contacts, links), which the
    profile answers before any other source (engine/questionnaire/row_types.py ``is_profile``)."""
    return is_profile(Question(e.qid, e.sheet, e.row, e.question, "", None, None, (), None, None))


def _cos(encoder, a: str, b: str) -> float:
    v = encoder.encode_passages([a, b])
    return float(np.dot(v[0], v[1]))


def _pooled(rows: list[dict]) -> dict:
    reused = [r for r in rows if r["reused"]]
    alike = [r for r in rows if r["alike"]]
    best = [r["best_past_cosine"] for r in alike if r["best_past_cosine"] is not None]
    return {
        "narratives": len(rows),
        "answered_alike": len(alike),
        "reused": len(reused),
        "reused_of_alike": sum(r["reused"] for r in alike),
        "reused_of_alike_pct": round(100.0 * sum(r["reused"] for r in alike) / len(alike), 1) if alike else None,
        "reused_not_alike": sum(not r["alike"] for r in reused),
        "differing": sum(bool(r["differing"]) for r in reused),
        "disputed": sum(r["disputed"] for r in rows),
        "cosine_reused": round(float(np.mean([r["cosine"] for r in reused])), 4) if reused else None,
        "cosine_always_empty": 0.0,
        "cosine_best_past_of_alike": round(float(np.mean(best)), 4) if best else None,
        "cosine_alike_now": round(sum(r["cosine"] or 0.0 for r in alike) / len(alike), 4) if alike else None,
    }
