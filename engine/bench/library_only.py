"""Evaluations of the answer library that need no language model (they print JSON):

* ``python -m engine eval cross-product FILLED...`` — how often another product's past choice is
  this product's: every filled questionnaire in turn is the target, the others its library
  (products from their folders, ``FolderScopes``); for each of the target's Yes/No questions, the
  near-identical (≥ ``REUSE_SCORE``) past answers of *other products only* (the target's own
  product and company-wide answers set aside) give their most common choice, as the drafter
  does (engine/drafting/cross_product.py), and it is compared with the target's own. Reported: how many
  such choices there are, their precision (all, when the past answers agree, when they
  disagree) and balanced accuracy. These calibrate ``CROSS_PRODUCT_PRECISION``.

* ``python -m engine eval profile FILLED... --truth-dir DIR`` — profile rows answered from a
  profile learned leave-one-out: each filled questionnaire in turn is the target; the profile is
  learned from the other files' entries (engine/index/profile.py) and the target's general-information
  rows (those ``fact_key`` names) are answered as the drafter answers them
  (engine/drafting/profile_answers.py), with the facts the product's own PDFs (those in its folder)
  state; an answer is right when it equals the target's own (``normalised``: case, spaces,
  scheme, trailing slash, commas). The truth is ``--truth-dir``'s JSONL for the file, else the
  target workbook's own answers (``truth: "workbook"``). Date rows get the drafting date: counted
  apart (``dated``), since the truth is the day the vendor filled it. Reported per target and per
  fact: rows, answered, right, precision (right / answered), coverage (answered / rows), every
  miss (truth, answer, where the fact came from), a trivial baseline (the most common past
  answer to the same row: id and wording), and ``foreign_contacts``: links, e-mails and phone
  numbers in the answers whose fact came from another product's questionnaire (must be 0).

The library is built once with every file (real MiniLM), and each target's own entries are
left out of its matches, which is the same as a library of the other files.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Sequence

from engine.core.scopes import FolderScopes
from engine.core.types import Progress, no_progress
from engine.drafting.cross_product import contact_tokens, is_other_product
from engine.index.library import REUSE_SCORE, AnswerLibrary, choice_key, reused_hit
from engine.index.profile import DATE_KEY, fact_key, learn, normalised, row_ids
from engine.index.profile_documents import facts_of_folder
from storage.library_store import LibraryEntry


def yes_no(choice: str | None) -> str | None:
    """``Yes`` / ``No`` for a choice spelled any way ("1) Yes", "no"), else None."""
    return {"yes": "Yes", "no": "No"}.get(choice_key(choice))


def _pct(a: int, b: int) -> float | None:
    return None if not b else round(100.0 * a / b, 1)


def cross_product(
    files: Sequence[str | Path],
    store: Path,
    encoder,
    folders: FolderScopes | None = None,
    progress: Progress = no_progress,
) -> dict:
    """The cross-product choice figures (module docstring), over ``files``, using ``store`` for
    the library."""
    folders = folders or FolderScopes()
    files = [Path(f) for f in files]
    library = AnswerLibrary(store, encoder)
    try:
        for f in files:
            library.import_file(f, product=folders.product_of(f))
        per_target, points = [], []
        for f in files:
            product = folders.product_of(f)
            own = [e for e in library.entries() if e.file == f.name]
            rows = []
            for i, e in enumerate(own):
                progress(f"matching {f.name}", i, len(own))
                truth = yes_no(e.choice)
                if truth is None:
                    continue
                hits = [
                    h
                    for h in library.match(e.question, top_k=None, min_score=REUSE_SCORE, product=product)
                    if h.entry.file != f.name and is_other_product(h.entry, product)
                ]
                hit = reused_hit(hits, product=product)
                if hit is None or yes_no(hit.entry.choice) is None:
                    continue
                voters = [h.entry for h in hits if choice_key(h.entry.choice)]
                agree = all(choice_key(v.choice) == choice_key(hit.entry.choice) for v in voters)
                rows.append((yes_no(hit.entry.choice), truth, agree))
            points += rows
            per_target.append({"target": f.name, "product": product, **_figures(rows)})
        return {"reuse_score": REUSE_SCORE, "targets": per_target, "overall": _figures(points)}
    finally:
        library.close()


def profile_rows(
    files: Sequence[str | Path],
    truth_dir: Path,
    store: Path,
    encoder,
    folders: FolderScopes | None = None,
    documents: bool = True,
) -> dict:
    """The profile figures (module docstring): truth from ``truth_dir/<file stem with _ for
    spaces>.jsonl`` ({id, question, answer}), else the target workbook's own answers.
    ``documents``: the product's own PDFs (beside its questionnaire) give document facts."""
    folders = folders or FolderScopes()
    files = [Path(f) for f in files]
    entries = _library_entries(files, store, encoder, folders)
    documented = _documented_facts(files, folders) if documents else {}
    targets, by_key, foreign = [], {}, 0
    totals = {"rows": 0, "answered": 0, "right": 0, "dated": 0, "baseline_answered": 0, "baseline_right": 0}
    for f in files:
        product = folders.product_of(f)
        truth_rows, truth_from = _truth_rows(f, truth_dir, entries)
        others = [e for e in entries if e.file != f.name]
        profile = learn(others).with_documents(documented)
        counts = {k: 0 for k in totals}
        rows, ids = [], row_ids(truth_rows)
        for row in truth_rows:
            foreign += _score_row(row, product, others, profile, ids, counts, by_key, rows)
        for name in totals:
            totals[name] += counts[name]
        targets.append(
            {
                "target": f.name,
                "product": product,
                "truth": truth_from,
                **counts,
                "right_rate": _pct(counts["right"], counts["rows"]),
                "precision": _pct(counts["right"], counts["answered"]),
                "coverage": _pct(counts["answered"], counts["rows"]),
                "baseline_right_rate": _pct(counts["baseline_right"], counts["rows"]),
                "misses": [r for r in rows if not r["right"]],
            }
        )
    return {
        "targets": targets,
        "by_fact": by_key,
        "overall": {
            **totals,
            "right_rate": _pct(totals["right"], totals["rows"]),
            "precision": _pct(totals["right"], totals["answered"]),
            "coverage": _pct(totals["answered"], totals["rows"]),
            "baseline_right_rate": _pct(totals["baseline_right"], totals["rows"]),
            "baseline_precision": _pct(totals["baseline_right"], totals["baseline_answered"]),
            "foreign_contacts": foreign,
        },
    }


def _library_entries(files: list[Path], store: Path, encoder, folders: FolderScopes) -> list[LibraryEntry]:
    """Every entry of a library built in ``store`` from all ``files`` (each under its product)."""
    library = AnswerLibrary(store, encoder)
    try:
        for f in files:
            library.import_file(f, product=folders.product_of(f))
        return library.entries()
    finally:
        library.close()


def _documented_facts(files: list[Path], folders: FolderScopes) -> dict:
    """Each product's own documents' facts: the PDFs in its folder (never a third party's)."""
    documented = {}
    for f in files:
        product = folders.product_of(f)
        if product and product not in documented:
            documented[product] = facts_of_folder(f.parent, product)
    return documented


def _truth_rows(f: Path, truth_dir: Path, entries: list[LibraryEntry]) -> tuple[list[dict], str]:
    """The target's rows ({id, question, answer}) and where they came from: ``truth_dir``'s JSONL
    for the file ("jsonl"), else the workbook's own answers as the library read them ("workbook")."""
    truth_file = truth_dir / (f.stem.replace(" ", "_") + ".jsonl")
    if truth_file.exists():
        return [json.loads(x) for x in truth_file.read_text(encoding="utf-8").splitlines()], "jsonl"
    return [
        {"id": e.qid, "question": e.question, "answer": " — ".join(x for x in (e.choice, e.answer) if x)}
        for e in entries
        if e.file == f.name
    ], "workbook"


def _score_row(
    row: dict,
    product: str | None,
    others: list[LibraryEntry],
    profile,
    ids,
    counts: dict[str, int],
    by_key: dict[str, dict[str, int]],
    rows: list[dict],
) -> int:
    """One truth row answered from ``profile``: adds to the target's ``counts``, the fact's
    ``by_key`` figures and the target's ``rows``; returns the contact tokens of an answer whose
    fact came from another product (0 when none)."""
    key = fact_key(row.get("question") or "")
    truth = str(row.get("answer") or "").strip()
    if key is None or not truth:
        return 0
    if key == DATE_KEY:
        counts["dated"] += 1
        return 0
    counts["rows"] += 1
    k = by_key.setdefault(key, {"rows": 0, "answered": 0, "right": 0})
    k["rows"] += 1
    # the trivial baseline: the most common past answer to the same row (id and wording)
    past = Counter(
        normalised(" — ".join(x for x in (e.choice, e.answer) if x))
        for e in others
        if e.qid == row.get("id") and fact_key(e.question) == key
    )
    if past:
        counts["baseline_answered"] += 1
        counts["baseline_right"] += past.most_common(1)[0][0] == normalised(truth)
    fact = profile.fact(key, product)
    value = fact.value_for(ids) if fact is not None else None
    record = {"id": row.get("id"), "fact": key, "truth": truth[:80]}
    if value is None:
        rows.append({**record, "answer": None, "from": None, "right": False})
        return 0
    counts["answered"] += 1
    k["answered"] += 1
    right = normalised(value) == normalised(truth)
    counts["right"] += right
    k["right"] += right
    rows.append({**record, "answer": value[:80], "from": fact.origin, "right": right})
    return len(contact_tokens(value)) if fact.product not in (None, product) else 0


def _figures(rows: Sequence[tuple[str, str, bool]]) -> dict:
    right = [c == t for c, t, _ in rows]
    agree = [c == t for c, t, a in rows if a]
    disagree = [c == t for c, t, a in rows if not a]
    recalls = []
    for label in ("Yes", "No"):
        of = [c == t for c, t, _ in rows if t == label]
        if of:
            recalls.append(sum(of) / len(of))
    return {
        "choices": len(rows),
        "precision": _pct(sum(right), len(right)),
        "agree": len(agree),
        "precision_agree": _pct(sum(agree), len(agree)),
        "disagree": len(disagree),
        "precision_disagree": _pct(sum(disagree), len(disagree)),
        "balanced_accuracy": round(100.0 * sum(recalls) / len(recalls), 1) if recalls else None,
    }


__all__ = ["cross_product", "profile_rows"]
