"""The risk ranking's calibration and its figures (engine/drafting/risk.py), without the model:
read the rows that ``python -m engine eval leave-one-out … --all-rows --drafts D.jsonl`` drafted
(each with its truth and its whole draft), and report what a reviewer's time is spent on.

For each target the strata's risks are measured on the **other** targets only (leave one
target out, as the drafts were), so no row's risk has seen its own truth; the threshold is the
one the issue's rule picks over all targets pooled. Per target and pooled, by row type:

* ``drafted`` rows, ``choices`` (a Yes/No or dropdown choice the truth also gives), ``wrong``;
* ``review_first``: how many drafted rows the list holds (and their share), the wrong choices
  inside it and outside it, and the precision of the choices outside it;
* the same for two trivial lists: **disputed only** (the rows whose near-identical past answers
  disagree) and **every row** (what a reviewer who trusts nothing reads), and the precision of
  **always Yes** over the Yes/No rows; the disputed rows whose risk is 0 (none should be: #50);
* ``read_model_texts``: the drafted rows whose text is the model's wording outside the list, which
  *Read the model's texts* holds (#59: a model's narrative with verified quotes is there, not in
  Review first);
* the same per group of targets (``groups``: the HECVAT Full and Lite targets apart, #50);
* the risk–coverage curve: for each threshold, the share of drafted rows left outside the list
  and the precision of the choices there.

``--calibration`` prints the strata's counts over every target, as ``CALIBRATION`` in
engine/drafting/risk.py holds them.

    python -m engine.bench.risk D.jsonl [--threshold T] [--calibration]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from engine.bench.rows import blank, same_option
from engine.bench.truth import yes_no
from engine.core.types import DraftStatus
from engine.drafting.records import Draft
from engine.drafting.risk import REVIEW_FIRST_RISK, led_choice, stratum, stratum_risk
from storage.review_store import StoredDraft

# the bar (#37): the list holds at most this share of the drafted rows, at least this share
# of the wrong choices, and the choices outside it are at least this precise
LIST_SHARE, WRONG_INSIDE, PRECISION_OUTSIDE = 0.30, 0.90, 0.97


@dataclass(frozen=True)
class Scored:
    """One drafted row of the leave-one-out: its target, row type, stratum, and whether its
    choice is right (None: no choice the truth can judge)."""

    target: str
    row_type: str
    stratum: str
    right: bool | None
    disputed: bool
    draft: Draft
    truth: str | None  # the truth's Yes/No (None: not a Yes/No truth)


def scored(record: dict) -> Scored | None:
    """A drafts-file line as a scored row; None when it was not drafted (or carries no draft)."""
    data = record.get("draft")
    if data is None or record["status"] != DraftStatus.DRAFTED.value:
        return None
    draft = Draft.from_stored(
        record["key"], StoredDraft(record["key"], DraftStatus.DRAFTED, data["answer"], data["choice"], data)
    )
    truth, choice = (
        record.get("truth") or "",
        led_choice(draft),
    )  # a row without a dropdown: the choice leading its text
    right: bool | None = None
    if choice and not blank(truth):
        if record["row_type"] == "yes_no" or yes_no(truth) is not None:
            right = yes_no(choice) == yes_no(truth) if yes_no(truth) is not None else None
        else:
            right = same_option(choice, truth)
    return Scored(
        record["target"], record["row_type"], stratum(draft) or "", right, draft.disputed, draft, yes_no(truth)
    )


def group(target: str) -> str:
    """A target's kind, reported apart: "Full" or "Lite" (HECVAT), else "other"."""
    return next((k for k in ("Full", "Lite") if k.casefold() in target.casefold()), "other")


def read(path: Path) -> list[Scored]:
    rows = [scored(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if r is not None]


def counts(rows: Iterable[Scored]) -> dict[str, tuple[int, int]]:
    """stratum → (wrong choices, choices)."""
    wrong, total = Counter(), Counter()
    for r in rows:
        if r.right is not None:
            total[r.stratum] += 1
            wrong[r.stratum] += not r.right
    return {s: (wrong[s], total[s]) for s in sorted(total)}


def risks(rows: Sequence[Scored]) -> list[float]:
    """Each row's risk, the strata measured on the other targets only."""
    tables = {t: counts(r for r in rows if r.target != t) for t in {r.target for r in rows}}
    return [stratum_risk(r.stratum, tables[r.target]) for r in rows]


def listed(rows: Sequence[Scored], inside: Sequence[bool]) -> dict:
    """A list's figures: its size and share of the drafted rows, the wrong choices inside and
    outside, the precision outside."""
    choices = [(r, i) for r, i in zip(rows, inside) if r.right is not None]
    wrong = [(r, i) for r, i in choices if not r.right]
    out = [(r, i) for r, i in choices if not i]
    n = len(rows)
    return {
        "rows": sum(inside),
        "share": round(sum(inside) / n, 3) if n else None,
        "wrong_inside": sum(i for _, i in wrong),
        "wrong_outside": sum(not i for _, i in wrong),
        "wrong_inside_share": round(sum(i for _, i in wrong) / len(wrong), 3) if wrong else None,
        "precision_outside": round(sum(r.right for r, _ in out) / len(out), 3) if out else None,
        "choices_outside": len(out),
    }


def figures(rows: Sequence[Scored], risk: Sequence[float], threshold: float) -> dict:
    choices = [r for r in rows if r.right is not None]
    yes = [r for r in choices if r.row_type == "yes_no" and r.truth is not None]
    return {
        "drafted": len(rows),
        "choices": len(choices),
        "wrong": sum(not r.right for r in choices),
        "precision": round(sum(r.right for r in choices) / len(choices), 3) if choices else None,
        "always_yes": round(sum(r.truth == "Yes" for r in yes) / len(yes), 3) if yes else None,
        "review_first": listed(rows, [x >= threshold for x in risk]),
        # the model's texts outside Review first: listed apart, to read (#59, ``Draft.reads_model_text``)
        "read_model_texts": sum(r.draft.text_source == "model" and x < threshold for r, x in zip(rows, risk)),
        "disputed_only": listed(rows, [r.disputed for r in rows]),
        "disputed_at_risk_0": sum(r.disputed and x <= 0.0 for r, x in zip(rows, risk)),
        "by_row_type": {
            t: listed(
                [r for r in rows if r.row_type == t], [x >= threshold for r, x in zip(rows, risk) if r.row_type == t]
            )
            for t in sorted({r.row_type for r in rows})
        },
    }


def review_first_figures(records: Iterable[dict]) -> dict:
    """The Review-first figures of drafted rows (``eval … --all-rows`` records) with the shipped
    risk (engine/drafting/risk.py): what a reviewer of this questionnaire gets. The shipped
    strata were measured on every shared target, this one included: ``main``'s leave-one-target-out
    figures are the unbiased ones."""
    rows = [r for r in map(scored, records) if r is not None]
    return figures(rows, [r.draft.risk or 0.0 for r in rows], REVIEW_FIRST_RISK)


def curve(rows: Sequence[Scored], risk: Sequence[float]) -> list[dict]:
    """For each distinct risk, as the threshold: the share of drafted rows outside the list and
    the precision of the choices there, and the share of the wrong choices inside."""
    out = []
    for t in sorted(set(risk)) + [1.01]:
        inside = [x >= t for x in risk]
        f = listed(rows, inside)
        out.append(
            {
                "threshold": round(t, 4),
                "outside": round(1 - f["share"], 3) if f["share"] is not None else None,
                "precision_outside": f["precision_outside"],
                "wrong_inside_share": f["wrong_inside_share"],
            }
        )
    return out


def choose(rows: Sequence[Scored], risk: Sequence[float]) -> float:
    """The highest threshold whose list holds ``WRONG_INSIDE`` of the wrong choices (pooled); the
    shipped one when none does."""
    for t in sorted(set(risk), reverse=True):
        f = listed(rows, [x >= t for x in risk])
        if (f["wrong_inside_share"] or 0) >= WRONG_INSIDE:
            return t
    return REVIEW_FIRST_RISK


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m engine.bench.risk", description=__doc__.split("\n\n")[0])
    p.add_argument("drafts", help="the --drafts file of eval leave-one-out --all-rows")
    p.add_argument("--threshold", type=float, help="the Review-first threshold (default: the shipped one)")
    p.add_argument("--choose", action="store_true", help="report the threshold the calibration would choose too")
    p.add_argument("--calibration", action="store_true", help="print the strata's counts over every target")
    p.add_argument("--curve", action="store_true", help="include the risk–coverage curve")
    args = p.parse_args(argv)
    rows = read(Path(args.drafts))
    if not rows:
        print(
            f"error: {args.drafts}: no drafted row with its draft; fix: run eval leave-one-out --all-rows --drafts",
            file=sys.stderr,
        )
        return 2
    risk = risks(rows)
    threshold = args.threshold if args.threshold is not None else REVIEW_FIRST_RISK
    by_target: dict[str, list[int]] = defaultdict(list)
    by_group: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        by_target[r.target].append(i)
        by_group[group(r.target)].append(i)
    result = {
        "threshold": threshold,
        "bar": {
            "list_share_max": LIST_SHARE,
            "wrong_inside_min": WRONG_INSIDE,
            "precision_outside_min": PRECISION_OUTSIDE,
        },
        "all": figures(rows, risk, threshold),
        "targets": {t: figures([rows[i] for i in ix], [risk[i] for i in ix], threshold) for t, ix in by_target.items()},
        "groups": {g: figures([rows[i] for i in ix], [risk[i] for i in ix], threshold) for g, ix in by_group.items()},
    }
    if args.choose:
        result["chosen_threshold"] = choose(rows, risk)
    if args.curve:
        result["curve"] = curve(rows, risk)
        result["curves"] = {t: curve([rows[i] for i in ix], [risk[i] for i in ix]) for t, ix in by_target.items()}
    if args.calibration:
        result["calibration"] = {s: list(c) for s, c in counts(rows).items()}
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
