"""The calibration of the relevance test (engine/drafting/relevance.py), and what the texts kept
are worth, on the shared filled questionnaires:

* **The documents' sentences, without the model** (``calibrate``). For every row of each filled
  questionnaire whose vendor wrote an explanation (a Yes/No row's comment, a narrative's answer),
  the sentence the drafter would pick from the documents of the target's scope with no relevance
  test (a quote's bar, ``SUPPORT_MIN``), its relevance (its cosine with the question, and with the
  other targets' explanations of the same question when two or more exist: the yardstick the
  drafter gets from the near-identical past answers), and whether it is **acceptable**: it says what
  the vendor said, its cosine with the vendor's own explanation at least ``AGREES``. (Read by a
  person, 28 of these picks: the rule agreed with the reading on 21.) The thresholds are chosen
  leave one target out: for each target, the smallest pair (``REFERENCE_MIN``, ``QUESTION_MIN``)
  whose kept picks on the *other* targets are ``ACCEPTABLE`` acceptable, or the most acceptable
  pair, applied to the target; reported with the shipped pair beside it.
* **The texts a run kept** (``kept``): the drafts of ``eval leave-one-out --all-rows --drafts
  D.jsonl``, every drafted text with the vendor's explanation beside it, by where the text came
  from (``text_source``), acceptable by the same rule.

    python -m engine.bench.relevance --store S --pair FILLED TRUTH … [--drafts D.jsonl]
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from engine.bench.truth import load_truth, yes_no
from engine.core.scopes import FolderScopes
from engine.drafting.confidence import SUPPORT_MIN
from engine.drafting.drafter import Drafter
from engine.drafting.explanation import best_sentence
from engine.drafting.relevance import QUESTION_MIN, REFERENCE_MIN, REFERENCE_WORDS, Relevance, references
from engine.index.kb import KnowledgeBase

AGREES = 0.35  # cosine with the vendor's own explanation at which a text says what the vendor said
ACCEPTABLE = 0.90  # the share of kept texts that must be acceptable
GRID = [round(x, 2) for x in np.arange(0.40, 0.81, 0.05)]


def explanation(row: dict) -> str:
    """The vendor's own explanation of a truth row: a Yes/No's comment, another answer's text."""
    text = (row.get("comment") or "") if yes_no(row.get("answer")) else (row.get("answer") or "")
    return text.strip()


def _key(question: str) -> str:
    return re.sub(r"\W+", " ", question.casefold()).strip()


def picks(kb: KnowledgeBase, pairs: Sequence[tuple[str, str]], folders: FolderScopes) -> list[dict]:
    """One line per row with a vendor's explanation whose documents give a sentence (module docstring)."""
    truths = {Path(f).stem: (folders.product_of(Path(f)), load_truth(t)) for f, t in pairs}
    said: dict[str, dict[str, str]] = defaultdict(dict)
    for target, (_, rows) in truths.items():
        for r in rows.values():
            if len(explanation(r).split()) >= REFERENCE_WORDS:
                said[_key(r["question"])][target] = explanation(r)
    encoder, out = kb.encoder, []
    for target, (product, rows) in truths.items():
        drafter = Drafter(kb, None, product=product)
        for r in rows.values():
            own = explanation(r)
            if len(own.split()) < REFERENCE_WORDS:
                continue
            question = encoder.encode_query(r["question"])
            others = [t for tg, t in said[_key(r["question"])].items() if tg != target]
            past = references(others, encoder)
            hits = list(drafter.retrieve(r["question"]).hits)
            choice = yes_no(r.get("answer"))
            found = best_sentence(
                question, hits, encoder, drafter.third_party, drafter.other_products(), None, SUPPORT_MIN,
                choice=choice, asked=r["question"], product=product,
            )  # fmt: skip
            if found is None:
                continue
            vector = encoder.encode_passages([found.text, own])
            judged = Relevance(found.support, None if past is None else float((past @ vector[0]).max()))
            out.append(
                {
                    "target": target,
                    "id": r["id"],
                    "question": judged.question,
                    "reference": judged.reference,
                    "agrees": float(vector[0] @ vector[1]),
                    "text": found.text,
                }
            )
    return out


def _kept(lines: Iterable[dict], reference_min: float, question_min: float) -> list[dict]:
    """The picks the relevance test keeps with these thresholds (the floor and the strong bar as shipped)."""
    from engine.drafting import relevance as r

    def answers(x: dict) -> bool:
        if x["reference"] is not None:
            return x["question"] >= r.QUESTION_STRONG or (
                x["question"] >= r.QUESTION_FLOOR and x["reference"] >= reference_min
            )
        return x["question"] >= question_min

    return [x for x in lines if answers(x)]


def _share(lines: Sequence[dict]) -> dict:
    good = sum(x["agrees"] >= AGREES for x in lines)
    return {"kept": len(lines), "acceptable": good, "share": round(good / len(lines), 3) if lines else None}


def calibrate(lines: Sequence[dict]) -> dict:
    """The shipped thresholds' figures and the leave-one-target-out choice (module docstring)."""
    out: dict = {"rows": len(lines), "shipped": _share(_kept(lines, REFERENCE_MIN, QUESTION_MIN))}
    out["no_test"] = _share(lines)
    held: dict[str, dict] = {}
    for target in sorted({x["target"] for x in lines}):
        rest = [x for x in lines if x["target"] != target]
        scored = [(_share(_kept(rest, rm, qm)), rm, qm) for rm in GRID for qm in GRID]
        good = [s for s in scored if s[0]["share"] is not None and s[0]["share"] >= ACCEPTABLE and s[0]["kept"] >= 20]
        best = max(good, key=lambda s: s[0]["kept"]) if good else max(scored, key=lambda s: s[0]["share"] or 0)
        mine = [x for x in lines if x["target"] == target]
        held[target] = {"reference_min": best[1], "question_min": best[2], **_share(_kept(mine, best[1], best[2]))}
    kept = sum(h["kept"] for h in held.values())
    good = sum(h["acceptable"] for h in held.values())
    out["leave_one_out"] = {
        "targets": held,
        "kept": kept,
        "acceptable": good,
        "share": round(good / kept, 3) if kept else None,
    }
    return out


def kept(drafts: Path, kb: KnowledgeBase) -> dict:
    """The texts a leave-one-out run kept, by source, acceptable by the same rule (module docstring)."""
    lines = [json.loads(x) for x in drafts.read_text(encoding="utf-8").splitlines() if x.strip()]
    rows = [
        x for x in lines
        if x.get("draft") and x["status"] == "drafted" and (x.get("answer") or "").strip()
        and len((x.get("truth_explanation") or "").split()) >= REFERENCE_WORDS
    ]  # fmt: skip
    if not rows:
        return {}
    encoder = kb.encoder
    a = encoder.encode_passages([x["answer"] for x in rows])
    b = encoder.encode_passages([x["truth_explanation"] for x in rows])
    by: dict[str, list[dict]] = defaultdict(list)
    for x, u, v in zip(rows, a, b):
        by[x["draft"].get("text_source") or "none"].append({"agrees": float(u @ v)})
    out = {s: _share(v) for s, v in sorted(by.items())}
    out["all"] = _share([y for v in by.values() for y in v])
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m engine.bench.relevance", description=__doc__.split("\n\n")[0])
    p.add_argument("--store", required=True, help="the knowledge base of the documents (kb add --scope-folders)")
    p.add_argument("--pair", nargs=2, action="append", default=[], metavar=("FILLED", "TRUTH"))
    p.add_argument("--drafts", help="also score the texts a run kept (eval leave-one-out --all-rows --drafts)")
    p.add_argument("--picks", help="write the picks to this JSONL file")
    args = p.parse_args(argv)
    kb = KnowledgeBase(Path(args.store))
    lines = picks(kb, [tuple(x) for x in args.pair], FolderScopes()) if args.pair else []
    if args.picks:
        Path(args.picks).write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    result = {"agrees": AGREES, "acceptable": ACCEPTABLE, "documents": calibrate(lines) if lines else None}
    if args.drafts:
        result["kept"] = kept(Path(args.drafts), kb)
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
