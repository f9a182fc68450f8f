"""How each requirement of the shared solicitations is outlined on its page in the Review card
(issue #57; engine/review/requirement_page.py): every requirement the shredder finds in the GSA
RFQ (``questionnaires/pdf``) and the PDFs of ``solicitations/`` cited on its page, and checked
against the page itself: whether it gets outline boxes, and whether the page's words whose centre
lies inside the boxes (PyMuPDF ``get_text("words")``, in reading order) are exactly the quote's
words (a quote that starts or ends inside a PDF word, "FORMS-Unless", "damaged,", is boxed on its
own characters and counts as not exact). Seconds per requirement, first opening (uncached).

    python -m tests.e2e.requirement_page_outline [--data DIR]

Prints one JSON object: per file and in all."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import pymupdf

from engine.questionnaire.solicitation import shred
from engine.review.requirement_page import requirement_citation

ROOT = Path(__file__).resolve().parents[2]


def exact(doc, req, rects) -> bool:
    boxes = [pymupdf.Rect(*r[1:]) for r in rects]
    words = doc[req.page - 1].get_text("words")
    inside = [
        w[4] for w in words if any(b.contains(pymupdf.Point((w[0] + w[2]) / 2, (w[1] + w[3]) / 2)) for b in boxes)
    ]
    return inside == req.quote.split()


def measure(path: Path) -> dict:
    result = shred([path])
    n = outlined = same = 0
    started = time.perf_counter()
    seconds = 0.0
    with pymupdf.open(path) as doc:
        for req in result.requirements:
            t = time.perf_counter()
            cited = requirement_citation(path, req)
            seconds += time.perf_counter() - t
            n += 1
            if cited is not None and cited.rects:
                outlined += 1
                same += exact(doc, req, cited.rects)
    return {
        "requirements": n,
        "outlined": outlined,
        "exact_words": same,
        "s_per_requirement": round(seconds / max(n, 1), 3),
        "s_total": round(time.perf_counter() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    args = parser.parse_args(argv)
    files = [args.data / "questionnaires/pdf/gsa_18f_ads_bpa_rfq_solicitation_flat.pdf"]
    files += sorted((args.data / "solicitations").glob("*.pdf"))
    files = [f for f in files if f.is_file()]
    if not files:
        print(json.dumps({"skipped": f"no solicitation PDF under {args.data}"}))
        return 0
    per = {f.name: measure(f) for f in files}
    total = {k: sum(p[k] for p in per.values()) for k in ("requirements", "outlined", "exact_words")}
    print(json.dumps({"files": per, "all": total}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
