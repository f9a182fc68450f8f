"""``python -m engine bench shred --json [--data DIR]``: the solicitation shredder
(engine/questionnaire/solicitation/) against the hand-made truth lists of
``DIR/solicitations/*.requirements.jsonl`` (DIR: ``$RFP_SHARED_DATA``, else ../shared/data beside the
checkout), per file and in all, each figure beside the cue-word baseline computed in the same run.

**Matching.** A found requirement matches a truth one when they are on the same page and their
quotes overlap: the longest run of characters they share (case and whitespace as the page has them)
is at least half of the shorter quote. Pairs are made one to one, best overlap first.
Recall (matched truth / truth) is given by the truth's kind, precision (matched found / found) by
the found kind. On matched pairs: the kind right, the mandatory flag right.

**Verbatim.** Every found quote is looked for, independently of the shredder, in its page's text
as PyMuPDF gives it (``page.get_text()``, whitespace collapsed): must be 100 %.

**Key facts** against tests/questionnaire_truth/solicitation_key_facts.json (transcribed from the
data's README): a stated fact is right when one of its expected phrases is in the quote given, a
"not stated" one when the product says "not stated".

**Baseline**: every sentence (the shredder's own sentence splitter over the page text) containing
shall, must or will; its kind is the commonest kind (submission), always mandatory; its key facts
none. **Time and memory** per file: the wall time of one shred (best of ``repeat``), and the peak
of Python's heap during a second one (tracemalloc; MuPDF's own C allocations are not counted).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
import tracemalloc
from collections import Counter
from difflib import SequenceMatcher
from pathlib import Path

import pymupdf

from engine.questionnaire.solicitation import NOT_STATED, Kind, shred
from engine.questionnaire.solicitation.pages import collapse
from engine.questionnaire.solicitation.units import split_sentences

ROOT = Path(__file__).resolve().parents[2]
FACTS_TRUTH = ROOT / "tests" / "questionnaire_truth" / "solicitation_key_facts.json"
BASELINE_CUE = re.compile(r"\b(shall|must|will)\b", re.I)


def default_data() -> Path:
    return Path(os.environ.get("RFP_SHARED_DATA", ROOT.parent / "shared" / "data"))


def truth_files(data: Path) -> list[tuple[Path, Path]]:
    """(PDF, truth list) of every truth list under DATA/solicitations; a PDF not beside its list is
    looked for under DATA/questionnaires/pdf (the README says where each lives)."""
    out = []
    for truth in sorted((data / "solicitations").glob("*.requirements.jsonl")):
        name = truth.name[: -len(".requirements.jsonl")]
        pdf = truth.with_name(name)
        if not pdf.exists():
            pdf = data / "questionnaires" / "pdf" / name
        if pdf.exists():
            out.append((pdf, truth))
    return out


def _overlap(a: str, b: str) -> float:
    m = SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b))
    return m.size / max(1, min(len(a), len(b)))


def match(found: list[dict], truth: list[dict]) -> list[tuple[int, int]]:
    """One-to-one pairs (found index, truth index): same page, overlap ≥ 0.5, best first."""
    pairs = []
    for i, f in enumerate(found):
        for j, t in enumerate(truth):
            if f["page"] == t["page"]:
                score = _overlap(f["quote"], t["quote"])
                if score >= 0.5:
                    pairs.append((score, i, j))
    pairs.sort(reverse=True)
    used_f, used_t, out = set(), set(), []
    for _, i, j in pairs:
        if i not in used_f and j not in used_t:
            used_f.add(i)
            used_t.add(j)
            out.append((i, j))
    return out


def _ratio(n: int, d: int) -> float | None:
    return round(n / d, 3) if d else None


def score(found: list[dict], truth: list[dict], pages: list[str]) -> dict:
    """Recall and precision (all and by kind), kind and mandatory right, verbatim quotes."""
    pairs = match(found, truth)
    matched_t = Counter(truth[j]["kind"] for _, j in pairs)
    matched_f = Counter(found[i]["kind"] for i, _ in pairs)
    kinds_t, kinds_f = Counter(t["kind"] for t in truth), Counter(f["kind"] for f in found)
    verbatim = sum(f["quote"] in pages[f["page"] - 1] for f in found if 0 < f["page"] <= len(pages))
    return {
        "truth": len(truth),
        "found": len(found),
        "matched": len(pairs),
        "recall": _ratio(len(pairs), len(truth)),
        "precision": _ratio(len(pairs), len(found)),
        "recall_by_kind": {k.value: _ratio(matched_t[k.value], kinds_t[k.value]) for k in Kind},
        "precision_by_kind": {k.value: _ratio(matched_f[k.value], kinds_f[k.value]) for k in Kind},
        "kind_right": _ratio(sum(found[i]["kind"] == truth[j]["kind"] for i, j in pairs), len(pairs)),
        "mandatory_right": _ratio(sum(found[i]["mandatory"] == truth[j]["mandatory"] for i, j in pairs), len(pairs)),
        "verbatim": _ratio(verbatim, len(found)),
    }


def baseline(pages: list[str]) -> list[dict]:
    """Every sentence containing shall, must or will (see the module docstring)."""
    out = []
    for number, text in enumerate(pages, start=1):
        for a, b in split_sentences(text):
            sentence = text[a:b].strip()
            if BASELINE_CUE.search(sentence):
                out.append({"page": number, "quote": sentence, "kind": Kind.SUBMISSION.value, "mandatory": True})
    return out


def facts_right(facts: dict[str, tuple[str, int]], expected: dict[str, dict]) -> dict:
    """Key facts right against the transcribed truth: per fact, and the share right."""
    per = {}
    for name, want in expected.items():
        value, _page = facts.get(name, (NOT_STATED, 0))
        if want.get("not_stated"):
            per[name] = value == NOT_STATED
        else:
            low = collapse(value).lower()
            per[name] = any(collapse(e).lower() in low for e in want["expect"])
    return {"right": sum(per.values()), "of": len(per), "share": _ratio(sum(per.values()), len(per)), "per_fact": per}


def sixty_pages(pdfs: list[Path], pages: int = 60) -> dict:
    """The speed target: the shared solicitations' pages joined into one 60-page PDF (in a
    temporary folder, never kept), shredded once; the target is 30 s on 2 cores."""
    joined = pymupdf.open()
    for pdf in pdfs:
        with pymupdf.open(pdf) as doc:
            joined.insert_pdf(doc, to_page=min(doc.page_count, pages - joined.page_count) - 1)
        if joined.page_count >= pages:
            break
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sixty_pages.pdf"
        joined.save(path)
        count = joined.page_count
        joined.close()
        t0 = time.perf_counter()
        result = shred([path])
        seconds = time.perf_counter() - t0
    return {"pages": count, "seconds": round(seconds, 3), "requirements": len(result.requirements), "target_s": 30}


def bench_shred(data: str | Path | None = None, repeat: int = 2) -> dict:
    """The figures (see the module docstring) as a dict: per file and in all."""
    data = Path(data) if data else default_data()
    files = truth_files(data)
    if not files:
        return {"skipped": f"no solicitation truth lists under {data / 'solicitations'}"}
    expected_facts = json.loads(FACTS_TRUTH.read_text(encoding="utf-8"))["files"]
    per_file, all_found, all_base = {}, [], []
    totals = {"ours": Counter(), "baseline": Counter()}
    facts_total = {"ours": [0, 0], "baseline": [0, 0]}
    for pdf, truth_path in files:
        truth = [json.loads(line) for line in truth_path.read_text(encoding="utf-8").splitlines() if line.strip()]
        with pymupdf.open(pdf) as doc:
            pages = [collapse(p.get_text()) for p in doc]
        seconds = []
        for _ in range(max(1, repeat)):
            t0 = time.perf_counter()
            result = shred([pdf])
            seconds.append(time.perf_counter() - t0)
        tracemalloc.start()
        shred([pdf])
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        found = [
            {"page": r.page, "quote": r.quote, "kind": r.kind.value, "mandatory": r.mandatory}
            for r in result.requirements
        ]
        base = baseline(pages)
        facts = {f.fact.value: (f.value, f.page) for f in result.facts}
        want = expected_facts.get(pdf.name, {})
        ours_facts = facts_right(facts, want)
        base_facts = facts_right({}, want)
        for key, got in (("ours", ours_facts), ("baseline", base_facts)):
            facts_total[key][0] += got["right"]
            facts_total[key][1] += got["of"]
        per_file[pdf.name] = {
            "pages": len(pages),
            "shredder": score(found, truth, pages),
            "baseline": score(base, truth, pages),
            "key_facts": ours_facts,
            "key_facts_baseline": base_facts,
            "seconds": round(min(seconds), 3),
            "peak_python_heap_mb": round(peak / 2**20, 1),
            "counts": result.counts(),
        }
        all_found.extend((pdf.name, f) for f in found)
        all_base.extend((pdf.name, f) for f in base)
        for key, s in (("ours", per_file[pdf.name]["shredder"]), ("baseline", per_file[pdf.name]["baseline"])):
            totals[key].update({"truth": s["truth"], "found": s["found"], "matched": s["matched"]})
    overall = {
        key: {
            "truth": c["truth"],
            "found": c["found"],
            "matched": c["matched"],
            "recall": _ratio(c["matched"], c["truth"]),
            "precision": _ratio(c["matched"], c["found"]),
            "key_facts_right": _ratio(*facts_total[key]),
        }
        for key, c in totals.items()
    }
    for key, field in (("ours", "shredder"), ("baseline", "baseline")):
        for name in ("kind_right", "mandatory_right", "verbatim"):
            weights = [
                (per_file[f][field][name], per_file[f][field]["matched" if name != "verbatim" else "found"])
                for f in per_file
            ]
            total = sum(w for _, w in weights)
            overall[key][name] = round(sum((v or 0) * w for v, w in weights) / total, 3) if total else None
    return {
        "sixty_pages": sixty_pages([pdf for pdf, _ in files]),
        "matching": "same page, longest shared run of characters ≥ half the shorter quote, one to one, best first",
        "baseline": "every sentence containing shall, must or will (kind: submission, mandatory: true)",
        "files": per_file,
        "all": {"shredder": overall["ours"], "baseline": overall["baseline"]},
    }


__all__ = ["baseline", "bench_shred", "match", "score", "truth_files"]
