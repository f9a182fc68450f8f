"""The same flat PDF questionnaires printed by other hands (``python -m engine bench pdf-reprints
--json``, #55): each shared flat PDF questionnaire with a committed truth (read from
``$RFP_SHARED_DATA/questionnaires/pdf``, never copied) and the variants of the drawn families
(engine/bench/pdf_families.py, but the form: a reprint keeps no fields) re-printed with PyMuPDF as
another tool would, then read and scored like the originals.

**The reprints** (each page drawn into a new PDF with ``show_pdf_page``, as a printer driver or a
"print to PDF" does; text stays text):

- ``reprinted as is``: the page drawn at its size (the control: only the drawing is new);
- ``other paper size``: A4 to US Letter and anything else to A4, the page scaled to fit, 18 pt in
  from the edges and centred (scaled and offset);
- ``wide margins``: the page shrunk into the middle 76 % of its width (80 % of its height);
- ``narrow margins``: the page's outer 16 pt cut off and the rest enlarged to fill the page;
- ``header and footer``: the page shrunk between a running header ("CONFIDENTIAL" at the left, the
  buyer's name and reference at the right) and footer (a URL and a date at the left, "Page 3 of
  12" at the right), as an intranet's print does;
- ``watermark``: "CONFIDENTIAL DRAFT" in light grey rising across the page at 45°, over the page;
- ``two pages on one``: two pages side by side on a landscape sheet (two landscape pages one over
  the other on a portrait sheet), 2-up: the reading order is two columns;
- ``page cut in two``: each page printed on two pages of its size, the first holding its top half,
  the second its bottom half 40 pt down, the cut in the gap between text lines nearest the page's
  middle (so a table's row or a question's options may break across the pages);
- ``rotated``: each page's content drawn turned 90° on a page whose ``/Rotate`` 90 turns it
  upright again (as scanned-and-OCRed pages and landscape tables printed on portrait paper come).

**The truth, transferred by the reprint's own rule**: the same questions, their IDs, texts and
choices; the page of each item renumbered where the reprint moves pages: page ``p`` is page
``⌈p/2⌉`` two pages on one; cut in two, it is page ``2p-1`` when the item's first words (or its ID)
lie above the cut on the original page, else ``2p`` (located in the original page's words, in the
items' order, never by the reader). The truths scored without pages (pdf.json's "ids" and
"starts": engine/bench/pdf_intake.py's ``match``) need none.

**Scored** as the originals are: the drawn families by pdf_families' scorer (recall, precision,
usable: the whole text and the right answer place); the shared files by pdf_places.py's scorer
(tests/questionnaire_truth/pdf_places.json) or pdf_intake's ``match`` (pdf.json), and, beside it,
``same``: the share of the questions read from the original print that the reprint reads with the
same ID, text and choices (the reprint should change nothing).
"""

from __future__ import annotations

import json
import re
import tempfile
import time
import unicodedata
from collections import Counter
from pathlib import Path

import pymupdf

from engine.bench.document_places import ratio
from engine.bench.pdf_drawing import FAMILIES
from engine.bench.pdf_families import _flat_usable, _for_scorer, draw, variants
from engine.bench.pdf_intake import TRUTH as INTAKE_TRUTH
from engine.bench.pdf_intake import match, shared_data
from engine.bench.pdf_places import pdf_truth_places, score_pdf_places
from engine.questionnaire.pdf.reader import read_pdf_questionnaire
from engine.questionnaire.records import Questionnaire, QuestionnaireError

KINDS = (
    "reprinted as is",
    "other paper size",
    "wide margins",
    "narrow margins",
    "header and footer",
    "watermark",
    "two pages on one",
    "page cut in two",
    "rotated",
)
DRAWN = tuple(f for f in FAMILIES if f != "form over a table")  # a reprint keeps no form fields
A4, LETTER = pymupdf.paper_size("a4"), pymupdf.paper_size("letter")
WATERMARK = "CONFIDENTIAL DRAFT"


def _gray(page: pymupdf.Page, point: tuple[float, float], text: str, size: float = 7.0) -> None:
    page.insert_text(point, text, fontsize=size, color=(0.25, 0.25, 0.25))


def _cut_at(page: pymupdf.Page) -> float:
    """Where the page is cut in two: the gap between text lines nearest its middle (40–60 %)."""
    h = page.rect.height
    spans = [(w[1], w[3]) for w in page.get_text("words")]
    free = [y for y in range(int(0.4 * h), int(0.6 * h)) if not any(a - 0.5 <= y <= b + 0.5 for a, b in spans)]
    return float(min(free, key=lambda y: abs(y - h / 2))) if free else h / 2


def _fit(src: pymupdf.Page) -> tuple[float, float]:
    """The other paper: US Letter for A4, A4 for anything else, in the page's orientation."""
    w, h = sorted(src.rect[2:4])
    paper = LETTER if abs(w - A4[0]) < 3 and abs(h - A4[1]) < 3 else A4
    return (paper[1], paper[0]) if src.rect.width > src.rect.height else paper


def _one(doc: pymupdf.Document, src: pymupdf.Document, pno: int, kind: str, total: int) -> None:
    """Page ``pno`` of ``src`` re-printed as ``kind`` (all but the two-pages-on-one and the cut)."""
    sp = src[pno]
    w, h = sp.rect.width, sp.rect.height
    if kind == "other paper size":
        page = doc.new_page(width=_fit(sp)[0], height=_fit(sp)[1])
        page.show_pdf_page(page.rect + (18, 18, -18, -18), src, pno)
    elif kind == "rotated":
        page = doc.new_page(width=h, height=w)
        page.show_pdf_page(page.rect, src, pno, rotate=90)
        page.set_rotation(90)
    else:
        page = doc.new_page(width=w, height=h)
        if kind == "wide margins":
            page.show_pdf_page(page.rect + (0.12 * w, 0.1 * h, -0.12 * w, -0.1 * h), src, pno)
        elif kind == "narrow margins":
            page.show_pdf_page(page.rect, src, pno, clip=sp.rect + (16, 16, -16, -16), keep_proportion=False)
        elif kind == "header and footer":
            page.show_pdf_page(page.rect + (0, 30, 0, -30), src, pno)
            _gray(page, (36, 18), "CONFIDENTIAL")
            _gray(page, (w - 190, 18), "Northwind Health - RFP 2026-117")
            _gray(page, (36, h - 12), "https://procurement.northwind.example/rfp/2026-117   12 March 2026")
            _gray(page, (w - 80, h - 12), f"Page {pno + 1} of {total}")
        else:
            page.show_pdf_page(page.rect, src, pno)
            if kind == "watermark":
                at = pymupdf.Point(0.15 * w, 0.75 * h)  # rising across the page's middle
                page.insert_text(
                    at, WATERMARK, fontsize=56, color=(0.8, 0.8, 0.8), morph=(at, pymupdf.Matrix(45)), fill_opacity=0.5
                )


def reprint(src_path: Path, kind: str, out: Path) -> list[float]:
    """``src_path`` re-printed as ``kind`` at ``out``; for "page cut in two", where each page was cut."""
    cuts: list[float] = []
    with pymupdf.open(src_path) as src, pymupdf.open() as doc:
        if kind == "two pages on one":
            for pno in range(0, src.page_count, 2):
                wide = src[pno].rect.width <= src[pno].rect.height  # portrait: side by side; landscape: stacked
                page = doc.new_page(width=A4[1], height=A4[0]) if wide else doc.new_page(width=A4[0], height=A4[1])
                w, h = page.rect.width, page.rect.height
                halves = (
                    (pymupdf.Rect(0, 0, w / 2, h), pymupdf.Rect(w / 2, 0, w, h))
                    if wide
                    else (pymupdf.Rect(0, 0, w, h / 2), pymupdf.Rect(0, h / 2, w, h))
                )
                for k in range(min(2, src.page_count - pno)):
                    page.show_pdf_page(halves[k] + (8, 8, -8, -8), src, pno + k)
        elif kind == "page cut in two":
            for pno in range(src.page_count):
                sp = src[pno]
                w, h = sp.rect.width, sp.rect.height
                cut = _cut_at(sp)
                cuts.append(cut)
                top = doc.new_page(width=w, height=h)
                top.show_pdf_page(pymupdf.Rect(0, 0, w, cut), src, pno, clip=pymupdf.Rect(0, 0, w, cut))
                low = doc.new_page(width=w, height=h)
                low.show_pdf_page(pymupdf.Rect(0, 40, w, 40 + h - cut), src, pno, clip=pymupdf.Rect(0, cut, w, h))
        else:
            for pno in range(src.page_count):
                _one(doc, src, pno, kind, src.page_count)
        doc.save(out, garbage=1, deflate=True)
    return cuts


def _fold(text: str) -> str:
    return re.sub(r"[\s\-–—]+", "", unicodedata.normalize("NFKC", text)).casefold()


def _tops(path: Path, items: list[dict]) -> list[float | None]:
    """Where each item's first words (or its ID) start on its page of the original: the first place
    at or after the previous item's on the same page whose words, read in order without spaces and
    dashes, begin with them; None where they are not found."""
    out: list[float | None] = []
    with pymupdf.open(path) as doc:
        cache: dict[int, tuple[str, list[float]]] = {}
        at: dict[int, int] = {}
        for item in items:
            p = item["page"]
            if p not in cache:
                text, ys = "", []
                for w in doc[p - 1].get_text("words", sort=True):
                    piece = _fold(w[4])
                    text += piece
                    ys += [w[1]] * len(piece)
                cache[p] = (text, ys)
            text, ys = cache[p]
            key = _fold(item.get("id") or "") or _fold(item["text"])[:14]
            hit = text.find(key, at.get(p, 0))
            if hit < 0:
                out.append(None)
                continue
            at[p] = hit + len(key)
            out.append(ys[hit])
    return out


def transfer(items: list[dict], kind: str, original: Path, cuts: list[float]) -> list[dict]:
    """The truth items of the reprint (see the module docstring)."""
    if kind == "two pages on one":
        return [item | {"page": (item["page"] + 1) // 2} for item in items]
    if kind != "page cut in two":
        return [dict(item) for item in items]
    tops = _tops(original, items)
    return [
        item | {"page": 2 * item["page"] - (1 if top is None or top < cuts[item["page"] - 1] else 0)}
        for item, top in zip(items, tops)
    ]


def _read(path: Path) -> tuple[Questionnaire | None, str, float]:
    started = time.perf_counter()
    try:
        return read_pdf_questionnaire(path), "", time.perf_counter() - started
    except QuestionnaireError as exc:
        return None, str(exc)[:200], time.perf_counter() - started


def _keys(q: Questionnaire | None) -> Counter:
    if q is None:
        return Counter()
    return Counter((_fold(x.id or ""), _fold(x.text), tuple(_fold(c) for c in x.choices)) for x in q.questions)


def same(original: Counter, reprinted: Counter) -> tuple[int, int]:
    """Of the original print's questions, how many the reprint reads with the same ID, text and choices."""
    return sum((original & reprinted).values()), sum(original.values())


def _score_drawn(items: list[dict], q: Questionnaire | None, error: str) -> dict:
    if q is None:
        return {"truth": len(items), "found": 0, "matched": 0, "usable_n": 0, "error": error}
    scored = score_pdf_places(q, [_for_scorer(i) for i in items])
    return {
        "truth": len(items),
        "found": scored["found"],
        "matched": scored["matched"],
        "usable_n": round(_flat_usable(q, items) * len(items)),
        "missed": scored["missed"][:2],
        "extra": scored["extra"][:2],
    }


def _drawn_rows(count: int, kinds: tuple[str, ...], folder: Path) -> dict[str, list[dict]]:
    """Every variant of the drawn families, drawn, re-printed as each kind, read and scored."""
    rows: dict[str, list[dict]] = {k: [] for k in kinds}
    for family in DRAWN:
        for v in variants(family, count):
            original = folder / "original.pdf"
            items = draw(v, original)
            first = _keys(_read(original)[0])
            for kind in kinds:
                out = folder / "reprint.pdf"
                cuts = reprint(original, kind, out)
                q, error, seconds = _read(out)
                row = _score_drawn(transfer(items, kind, original, cuts), q, error)
                kept, of = same(first, _keys(q))
                rows[kind].append(row | {"family": family, "file": v.name, "same": kept, "of": of, "seconds": seconds})
    return rows


def _kind_summary(rows: list[dict]) -> dict:
    truth, found, matched = (sum(r[k] for r in rows) for k in ("truth", "found", "matched"))
    worst = sorted(
        (r for r in rows if r["matched"] < r["truth"] or r["found"] > r["matched"]),
        key=lambda r: r["matched"] / r["truth"],
    )
    by_family = Counter(
        r["family"]
        for r in rows
        if r["matched"] < r["truth"] or r["usable_n"] < r["truth"] or r["found"] > r["matched"]
    )
    return {
        "files": len(rows),
        "truth": truth,
        "recall": ratio(matched, truth),
        "precision": ratio(matched, found),
        "usable": ratio(sum(r["usable_n"] for r in rows), truth),
        "same": ratio(sum(r["same"] for r in rows), sum(r["of"] for r in rows)),
        "refused": sum(1 for r in rows if "error" in r),
        "files_wrong_by_family": dict(by_family.most_common()),
        "worst": [{k: r.get(k) for k in ("family", "file", "missed", "extra", "error")} for r in worst[:3]],
        "intake_seconds": round(sum(r["seconds"] for r in rows), 2),
    }


def shared_files(folder: Path | None = None) -> list[tuple[Path, str, dict]]:
    """The shared flat PDF questionnaires with a committed truth: (path, which truth, the file's truth)."""
    base = (folder or shared_data() / "questionnaires") / "pdf"
    out: list[tuple[Path, str, dict]] = []
    for name, truth in sorted(pdf_truth_places().items()):
        if "flat" in name or "printout" in name:  # not the forms: a reprint keeps no fields
            out.append((base / name, "pdf_places", truth))
    intake = json.loads(INTAKE_TRUTH.read_text(encoding="utf-8"))["files"]
    for name, truth in sorted(intake.items()):
        if truth.get("kind", "").startswith("flat") and truth["questions"]:
            out.append((base / name, "pdf", truth))
    return [x for x in out if x[0].is_file()]


def _score_shared(which: str, truth: dict, items: list[dict], q: Questionnaire | None) -> dict:
    if which == "pdf_places":
        if q is None:
            return {"truth": len(items), "found": 0, "matched": 0}
        scored = score_pdf_places(q, items)
        return {
            "truth": len(items),
            "found": scored["found"],
            "matched": scored["matched"],
            "missed": scored["missed"][:2],
            "extra": scored["extra"][:2],
        }
    m = match(q.questions if q is not None else (), truth)
    return {"truth": m.truth, "found": m.found, "matched": m.matched}


def _shared_rows(kinds: tuple[str, ...], folder: Path, data: Path | None) -> dict[str, dict]:
    """Each shared flat file re-printed as each kind, read and scored: per file, per kind."""
    out: dict[str, dict] = {}
    for path, which, truth in shared_files(data):
        items = truth.get("questions", []) if which == "pdf_places" else []
        first_q, _, _ = _read(path)
        first = _keys(first_q)
        per: dict[str, dict] = {"original": _score_shared(which, truth, items, first_q)}
        for kind in kinds:
            out_path = folder / f"reprint-{path.name}"
            cuts = reprint(path, kind, out_path)
            q, error, seconds = _read(out_path)
            row = _score_shared(which, truth, transfer(items, kind, path, cuts) if items else [], q)
            kept, of = same(first, _keys(q))
            per[kind] = (
                row | {"same": ratio(kept, of), "seconds": round(seconds, 2)} | ({"error": error} if error else {})
            )
        out[path.name] = {
            k: v | {"recall": ratio(v["matched"], v["truth"]), "precision": ratio(v["matched"], v["found"])}
            for k, v in per.items()
        }
    return out


def bench_pdf_reprints(
    count: int = 24, kinds: tuple[str, ...] = KINDS, keep: Path | None = None, data: Path | None = None
) -> dict:
    """The drawn families' ``count`` variants each and the shared flat PDFs, re-printed as each of
    ``kinds`` and scored (the module docstring); ``keep``: a folder to leave the last reprints in."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        drawn = _drawn_rows(count, kinds, folder)
        shared = _shared_rows(kinds, folder, data)
    return {
        "variants_per_family": count,
        "families": list(DRAWN),
        "drawn": {kind: _kind_summary(rows) for kind, rows in drawn.items()},
        "shared": shared,
        "shared_by_kind": {kind: _shared_summary(shared, kind) for kind in ("original", *kinds)},
    }


def _shared_summary(shared: dict[str, dict], kind: str) -> dict:
    rows = [per[kind] for per in shared.values()]
    truth, found, matched = (sum(r[k] for r in rows) for k in ("truth", "found", "matched"))
    return {"files": len(rows), "recall": ratio(matched, truth), "precision": ratio(matched, found)}


__all__ = ["DRAWN", "KINDS", "bench_pdf_reprints", "reprint", "same", "shared_files", "transfer"]
