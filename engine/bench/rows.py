"""The evaluation over every row of a filled questionnaire, per row type
(engine/questionnaire/row_types.py), beside the Yes/No figures of engine/bench/evaluate.py.

Per row type, against the vendor's own answers (the truth):

- **Yes/No**: evaluate.py's figures, unchanged (drafted precision, coverage, balanced accuracy).
- **profile** (DATE-01, GNRL-xx, vendor/product/contact/link rows): the share whose draft equals
  the truth exactly or after normalising (case, spaces, ``https://``/``www.``, a trailing
  ``/`` or ``.``). DATE-01 is left out: the date a questionnaire is filled is not a fact to recall.
- **gated**: of the rows the truth leaves blank (or "N/A") in a section its qualifier answer
  switches off, the share left not required; and the rows switched off although the truth
  answers them (must be 0).
- **dropdowns beyond Yes/No**: accuracy (the same option, by its words or its number).
- **narratives and Additional Information** (the explanation beside a Yes/No or dropdown
  answer): the cosine of the draft's text and the vendor's own text, both embedded with the
  knowledge base's sentence encoder (all-MiniLM-L6-v2 by default). Why this score: the drafts
  are written from the documents in other words than the vendor's, so word-overlap scores
  (BLEU/ROUGE) punish correct paraphrases, while the embedding compares meaning; it is the same
  encoder the product retrieves with, so no second model is loaded. Alone a cosine has no
  scale, so two baselines go beside it, each scored the same way: **the question itself**
  (what a draft that only restates the question gets: the floor) and **the best past answer**
  (the library's answer to the most similar past question of another questionnaire: what
  copying gives). An empty draft scores 0.
- **minutes**: the drafting time of the whole questionnaire.
- **other products' strings** (engine/bench/leaks.py), over every drafted row:
  ``other_product_mentions`` (rows naming another product, its people or its contacts) and
  ``foreign_contacts`` (rows with a link, e-mail or phone only another product or a third party
  gives), and ``from_other_product`` (rows whose choice is another product's past answer, and how
  many of them say so).

``python -m engine.bench.rows`` measures, without the model, what can be measured so: the gated
rows with the truth's qualifier answers, and the two baselines (and the best past answer as a
draft for profile rows and dropdowns), leave-one-out over the filled questionnaires (each
target's library is the other files); and how many rows of the best-past-answer drafts, and of
the vendor's own answers, hold other products' strings (``leaks``; products from the folders).
"""

from __future__ import annotations

import html
import json
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence

import numpy as np

from engine.bench.leaks import build, document_sources, questionnaire_sources
from engine.bench.truth import load_truth
from engine.core.config import DEFAULT_EMBEDDER
from engine.core.scopes import FolderScopes
from engine.core.types import Action, DraftStatus
from engine.drafting.sections import SectionGate
from engine.index.embed.dense import DenseEncoder
from engine.index.library import AnswerLibrary
from engine.index.profile import row_ids
from engine.ingest.paths import select_files
from engine.questionnaire import Questionnaire, read_questionnaire
from engine.questionnaire.qualifiers import gates, qualifiers_of, question_key
from engine.questionnaire.row_types import RowType, classify
from engine.review.draft_run import drafts_in_order, explained_later, first_pass
from storage.review_store import Decision

Encode = Callable[[Sequence[str]], np.ndarray]  # texts → unit-norm rows


def blank(text: str | None) -> bool:
    return not text or not text.strip() or " ".join(text.lower().split()) in {"n/a", "na", "not applicable"}


@dataclass(frozen=True)
class RowTruth:
    """One row with the truth's answer: ``value`` (the choice, or the text of a free-text row)
    and ``explanation`` (the Additional Information beside a choice)."""

    id: str
    key: str
    row_type: RowType
    question: str
    value: str
    explanation: str
    gate: str | None = None  # "not required (QUAL-01 = No)" when the truth's qualifier switches it off


def truth_rows(questionnaire: Questionnaire, truth: Mapping[str, dict]) -> list[RowTruth]:
    """Every row of the questionnaire that the truth file has, typed; "gated" when the truth's
    own qualifier answer switches it off (so the truth leaves it blank)."""
    questions = [q for q in questionnaire.questions if q.id in truth]
    quals = qualifiers_of(questionnaire)
    answers = {}
    for q in questions:
        t = truth[q.id]
        answers[question_key(q)] = (t.get("answer"), t.get("comment"))  # (value, explanation)
    state = gates(quals, answers, {question_key(q): q.choices for q in questions})
    rows = []
    for q in questions:
        t, gate = truth[q.id], state.get(question_key(q))
        off = gate is not None and not gate.required
        rows.append(
            RowTruth(
                q.id,
                question_key(q),
                classify(q, off, t.get("answer")),
                q.text,
                (t.get("answer") or "").strip(),
                (t.get("comment") or "").strip(),
                gate.reason if off else None,
            )
        )
    return rows


@dataclass(frozen=True)
class Drafted:
    """What a drafter produced for one row (or a baseline stands in for it)."""

    choice: str | None
    text: str
    status: str  # a DraftStatus value
    seconds: float = 0.0
    source: str | None = None  # where the text came from (engine/drafting/records.py TextSource)


def normalised(text: str) -> str:
    t = " ".join(text.lower().split())
    t = re.sub(r"^https?://", "", t)
    t = re.sub(r"^www\.", "", t)
    return t.strip(" ./")


def same_option(a: str | None, b: str | None) -> bool:
    """The same dropdown option: equal words, or the same leading option number ("4) AWS" / "4")."""
    if not a or not b:
        return False
    if normalised(a) == normalised(b):
        return True
    na, nb = (re.match(r"\s*(\d+)\s*(?:\)|$)", x) for x in (a, b))
    return bool(na and nb and na.group(1) == nb.group(1))


@dataclass
class RowScores:
    """Per-row-type figures of one target."""

    rows: list[tuple[RowTruth, Drafted | None]] = field(default_factory=list)
    seconds: float = 0.0
    first_pass_s: float | None = None  # until every row had its draft, the explanations pass after (draft_run.py)

    def figures(self, encode: Encode | None = None, baselines: Mapping[str, Mapping[str, str]] | None = None) -> dict:
        """The figures per row type; ``encode`` scores the texts (None: no text score);
        ``baselines``: name → (row key → text) scored the same way as the drafts."""
        by = {t: [(r, d) for r, d in self.rows if r.row_type is t] for t in RowType}
        profile = [(r, d) for r, d in by[RowType.PROFILE] if not r.id.upper().startswith("DATE") and r.value]
        gated = [(r, d) for r, d in self.rows if r.gate is not None]
        gated_blank = [(r, d) for r, d in gated if blank(r.value) and blank(r.explanation)]
        off = [(r, d) for r, d in self.rows if d is not None and d.status == DraftStatus.NOT_REQUIRED.value]
        wrongly = [(r, d) for r, d in off if not (blank(r.value) and blank(r.explanation))]
        dropdown = [(r, d) for r, d in by[RowType.DROPDOWN] if r.value]
        out = {
            "rows": len(self.rows),
            "row_types": {t.value: len(v) for t, v in by.items()},
            "profile": {
                "rows": len(profile),
                "right": sum(_profile_right(r, d) for r, d in profile),
                "accuracy": _pct(sum(_profile_right(r, d) for r, d in profile), len(profile)),
            },
            "gated": {
                "blank_in_truth": len(gated_blank),
                "left_not_required": sum(
                    d is not None and d.status == DraftStatus.NOT_REQUIRED.value for _, d in gated_blank
                ),
                "rate": _pct(
                    sum(d is not None and d.status == DraftStatus.NOT_REQUIRED.value for _, d in gated_blank),
                    len(gated_blank),
                ),
                "wrongly_off": len(wrongly),
                "wrongly_off_ids": [r.id for r, _ in wrongly],
            },
            "dropdown": {
                "rows": len(dropdown),
                "right": sum(d is not None and same_option(d.choice or d.text, r.value) for r, d in dropdown),
                "accuracy": _pct(
                    sum(d is not None and same_option(d.choice or d.text, r.value) for r, d in dropdown), len(dropdown)
                ),
            },
            "minutes": round(self.seconds / 60, 2),
            "minutes_every_row": round(self.first_pass_s / 60, 2) if self.first_pass_s is not None else None,
        }
        if encode is not None:
            out["text"] = self.text_scores(encode, baselines or {})
        return out

    def texts(self) -> list[tuple[str, str, str, str | None, str | None]]:
        """(kind, key, truth text, drafted text, its source) of the narratives and the Additional
        Information."""
        out = []
        for r, d in self.rows:
            if r.row_type is RowType.NARRATIVE and not blank(r.value):
                out.append(("narrative", r.key, r.value, d.text if d else None, d.source if d else None))
            elif r.row_type in (RowType.YES_NO, RowType.DROPDOWN) and not blank(r.explanation):
                out.append(
                    ("additional_information", r.key, r.explanation, d.text if d else None, d.source if d else None)
                )
        return out

    def text_scores(self, encode: Encode, baselines: Mapping[str, Mapping[str, str]]) -> dict:
        items = self.texts()
        questions = {r.key: r.question for r, _ in self.rows}
        result = {}
        for kind in ("narrative", "additional_information"):
            mine = [x for x in items if x[0] == kind]
            if not mine:
                result[kind] = {"rows": 0}
                continue
            entry = _text_entry(encode, mine, questions, baselines)
            # per source of the drafted text (no text: "none"), each against the same baselines
            entry["by_source"] = {
                source: _text_entry(encode, [x for x in mine if (x[4] or "none") == source], questions, baselines)
                for source in sorted({x[4] or "none" for x in mine})
            }
            result[kind] = entry
        return result


def _text_entry(encode: Encode, mine: Sequence[tuple], questions: Mapping[str, str], baselines: Mapping) -> dict:
    """The mean text score of the drafts of ``mine`` (``RowScores.texts`` items) and of the baselines."""
    truth_vectors = encode([x[2] for x in mine])
    entry = {
        "rows": len(mine),
        "draft": _mean_cos(encode, truth_vectors, [x[3] for x in mine]),
        "drafted": sum(bool(x[3] and x[3].strip()) for x in mine),
        "question_baseline": _mean_cos(encode, truth_vectors, [questions[x[1]] for x in mine]),
    }
    for name, texts in baselines.items():
        entry[f"{name}_baseline"] = _mean_cos(encode, truth_vectors, [texts.get(x[1]) for x in mine])
    return entry


def _profile_right(r: RowTruth, d: Drafted | None) -> bool:
    return d is not None and bool(d.text or d.choice) and normalised(d.text or d.choice or "") == normalised(r.value)


def _mean_cos(encode: Encode, truth_vectors: np.ndarray, texts: Sequence[str | None]) -> float | None:
    """Mean cosine of each text with its truth (an empty text scores 0)."""
    present = [i for i, t in enumerate(texts) if t and t.strip()]
    scores = np.zeros(len(texts))
    if present:
        vectors = encode([texts[i] for i in present])
        scores[present] = np.sum(vectors * truth_vectors[present], axis=1)
    return round(float(scores.mean()), 3) if len(texts) else None


def _pct(part: int, total: int) -> float | None:
    return round(100.0 * part / total, 1) if total else None


# ---------------------------------------------------------------- drafting every row


def draft_rows(
    drafter, questionnaire: Questionnaire, ids: set[str], progress=None, qualifiers_reviewed: bool = False
) -> tuple[dict, float]:
    """Draft every row whose ID is in ``ids`` as if blank, with the pipeline's own loop
    (``engine.review.draft_run.drafts_in_order``): qualifiers first, the rows they govern last; a
    row its drafted qualifier switches off is not drafted (status not_required). The target's own
    answers are never read: the qualifiers' answers are the drafts' — unless
    ``qualifiers_reviewed``: then a reviewer answers each qualifier as soon as it is drafted, with
    the vendor's own answer (an edit, as in the app while the run goes on), and the sections
    follow that. ``progress`` is called after each row of the first pass. Then the explanations
    pass, as the app's run makes it (``draft_run.explained_later``: no reviewer decides meanwhile).
    Returns (row key → pipeline Draft, RunSeconds)."""
    sections = SectionGate(questionnaire, {}, {}, file_answers=False)
    reviewer: dict[str, Decision] = {}
    out: dict = {}
    started = time.perf_counter()
    order = sections.order([q for q in questionnaire.questions if q.id in ids])
    for q, d in drafts_in_order(order, first_pass(drafter), sections, questionnaire.path, lambda: reviewer):
        key = question_key(q)
        out[key] = d
        if qualifiers_reviewed and sections.is_qualifier(q):
            reviewer[key] = Decision(key, Action.EDIT, q.existing_answer, q.existing_choice, None, "")
        if progress:
            progress(q)
    first = time.perf_counter() - started
    rows = row_ids(questionnaire.questions)
    for q in [q for q in order if explained_later(out.get(question_key(q)))]:
        out[question_key(q)] = drafter.draft(q, rows, questionnaire.path, sections.qualifier(q))
    return out, RunSeconds(first, time.perf_counter() - started)


@dataclass(frozen=True)
class RunSeconds:
    """A whole run's time: until every row had its draft (the first pass), and in all."""

    first_pass: float
    whole: float


def drafted(d) -> Drafted:
    """A pipeline Draft as the row scores read it."""
    return Drafted(d.choice, d.answer, d.status.value, d.seconds, d.text_source)


def row_record(target: str, product: str | None, r: RowTruth, d) -> dict:
    """One drafted row (a pipeline Draft) as a line of ``eval … --all-rows --drafts FILE``: what
    ``python -m engine.bench.leaks`` checks again after the run."""
    return {
        "target": target,
        "product": product,
        "id": r.id,
        "key": r.key,
        "row_type": r.row_type.value,
        "question": r.question,
        "status": d.status.value,
        "choice": d.choice,
        "answer": d.answer,
        "confidence": d.confidence,
        "trust": list(d.trust),
        "from_product": d.from_product,
        "past_answers": list(d.past_answers),
        "profile_fact": d.profile_fact,
        "removed": list(d.removed),
        "citations": list(dict.fromkeys(c.file for c in d.citations)),
        "truth": r.value,
        "truth_explanation": r.explanation,
        "gate_truth": r.gate,
        "draft": d.to_json(),  # every signal, for the risk calibration (engine/bench/risk.py)
    }


def leaks_html(figures: dict) -> str:
    """The report's section on other products' names, people and contacts (engine/bench/leaks.py)."""
    esc = html.escape
    if "other_product_mentions" not in figures:
        return ""
    parts = [
        "<h3>Other products' names, people and contacts</h3><table><tr><th></th><th>rows</th>"
        "<th>by kind</th><th>IDs</th><th>examples</th></tr>"
    ]
    for key, label in (
        ("other_product_mentions", "another product's name, person or contact"),
        ("foreign_contacts", "a link, e-mail or phone only another product or a third party gives"),
    ):
        f = figures[key]
        kinds = ", ".join(f"{k} {n}" for k, n in f.get("by_kind", {}).items() if n)
        parts.append(
            f"<tr><th>{esc(label)}</th><td>{f['rows']}</td><td>{esc(kinds) or '—'}</td>"
            f"<td>{esc(', '.join(f['ids'])) or '—'}</td><td>{'<br>'.join(esc(x) for x in f['examples']) or '—'}"
            "</td></tr>"
        )
    parts.append("</table>")
    crossed = figures.get("from_other_product")
    if crossed:
        parts.append(
            f"<p>{crossed['rows']} rows took their choice from another product's past answer; "
            f"{crossed['labelled']} of them name it (past answers, confidence, the trust flag).</p>"
        )
    return "\n".join(parts)


def rows_html(figures: dict) -> str:
    """The report's sections per row type (HTML, no script)."""
    esc = html.escape
    parts = ["<h2>Rows by type</h2>", "<table><tr><th>type</th><th>rows</th></tr>"]
    parts += [f"<tr><td>{esc(RowType(t).label)}</td><td>{n}</td></tr>" for t, n in figures.get("row_types", {}).items()]
    parts.append("</table>")
    p, g, d = figures.get("profile", {}), figures.get("gated", {}), figures.get("dropdown", {})
    parts.append(
        f"<h3>Profile rows</h3><p>{p.get('right')} of {p.get('rows')} exact or normalised match "
        f"({p.get('accuracy')} %); DATE-01 left out.</p>"
    )
    parts.append(
        f"<h3>Gated rows</h3><p>{g.get('left_not_required')} of {g.get('blank_in_truth')} rows the vendor "
        f"left blank because of a qualifier were left not required ({g.get('rate')} %); "
        f"{g.get('wrongly_off')} switched off although the vendor answered them "
        f"{esc(', '.join(g.get('wrongly_off_ids', [])))}.</p>"
    )
    parts.append(
        f"<h3>Dropdowns beyond Yes/No</h3><p>{d.get('right')} of {d.get('rows')} right ({d.get('accuracy')} %).</p>"
    )
    text = figures.get("text")
    if text:
        parts.append(
            "<h3>Narratives and Additional Information</h3><p>Mean cosine with the vendor's own text "
            "(sentence embeddings); an empty draft scores 0.</p><table><tr><th></th><th>rows</th>"
            "<th>drafted</th><th>draft</th><th>best past answer</th><th>the question</th></tr>"
        )
        for kind, e in text.items():
            parts.append(
                f"<tr><th>{esc(kind.replace('_', ' '))}</th><td>{e.get('rows')}</td><td>{e.get('drafted', '—')}"
                f"</td><td>{e.get('draft', '—')}</td><td>{e.get('past_answer_baseline', '—')}</td>"
                f"<td>{e.get('question_baseline', '—')}</td></tr>"
            )
        parts.append("</table>")
    parts.append(leaks_html(figures))
    parts.append(f"<h3>Time</h3><p>{figures.get('minutes')} minutes for the whole questionnaire.</p>")
    return "\n".join(parts)


# ---------------------------------------------------------------- model-free measure (CLI)


def past_answer_drafts(library, rows: Sequence[RowTruth], target_file: str) -> dict[str, Drafted]:
    """The best past answer of another file for each row, as a draft (the library baseline)."""
    out = {}
    for r in rows:
        hits = [h for h in library.match(r.question, top_k=None) if h.entry.file != target_file]
        if hits:  # the best-scoring one, whatever its product (match lists the preferred kind first)
            e = max(hits, key=lambda h: h.score).entry
            out[r.key] = Drafted(e.choice, e.answer or "", DraftStatus.DRAFTED.value)
    return out


def measure(
    pairs: Sequence[tuple[Path, Path]],
    library_files: Sequence[Path],
    encoder,
    documents: Sequence[Path] = (),
    folders=None,
) -> list[dict]:
    """Per target: the gated rows with the truth's qualifier answers, and the text scores of the
    two baselines (no model). With ``folders`` (engine/core/scopes.py FolderScopes) also ``leaks``:
    the rows of the best-past-answer drafts and of the vendor's own answers that hold another
    product's name, people or contacts (engine/bench/leaks.py), the sources being the library
    files and ``documents``, scoped by their folders."""
    encode = encoder.encode_passages
    sources = (questionnaire_sources(library_files, folders) + document_sources(documents, folders)) if folders else []
    results = []
    for target, truth_path in pairs:
        with tempfile.TemporaryDirectory(prefix="rfp-rows-") as tmp:  # the target's library: the other files
            lib = AnswerLibrary(Path(tmp) / "library", encoder)
            for f in library_files:
                if Path(f).resolve() != Path(target).resolve():
                    lib.import_file(f)
            questionnaire = read_questionnaire(target)
            rows = truth_rows(questionnaire, load_truth(truth_path))
            past = past_answer_drafts(lib, rows, Path(target).name)
            gated = {r.key: Drafted(None, "", DraftStatus.NOT_REQUIRED.value) for r in rows if r.gate is not None}
            scores = RowScores([(r, gated.get(r.key) or past.get(r.key)) for r in rows])
            figures = scores.figures(encode, {"past_answer": {k: d.text for k, d in past.items()}})
            figures["target"] = Path(target).name
            figures["note"] = "drafts: the best past answer of another file (gated rows: the truth's qualifiers)"
            if folders is not None:
                product = folders.product_of(Path(target))
                check = build(product, [x for x in sources if x.file != Path(target).name], folders.company)
                figures["product"] = product
                figures["leaks"] = {
                    "past_answer": check.figures(
                        (r.id, " ".join(x for x in (past[r.key].choice, past[r.key].text) if x))
                        for r in rows
                        if r.key in past
                    ),
                    "truth": check.figures((r.id, " ".join(x for x in (r.value, r.explanation) if x)) for r in rows),
                }
            results.append(figures)
            print(json.dumps(figures), flush=True)
            lib.close()
    return results


def hecvat_pairs(root: Path) -> list[tuple[Path, Path]]:
    """The filled HECVATs of ``root`` (../shared/data/instructure) with their truth files
    (``_extracted/<name>.jsonl``), in the truth files' order; a truth whose workbook is absent is left out."""
    pairs = []
    for truth in sorted((root / "_extracted").glob("*HECVAT*.jsonl")):
        stem = truth.stem.replace("_-_", " - ").replace("_", " ")
        found = sorted(root.glob(f"*/{stem}.xlsx"))
        if found:
            pairs.append((found[0], truth))
    return pairs


def main(argv: list[str]) -> int:
    import argparse
    import os

    parser = argparse.ArgumentParser(prog="python -m engine.bench.rows", description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=os.environ.get("RFP_SHARED_DATA", "/work/shared/data"))
    parser.add_argument("--embedder", default=DEFAULT_EMBEDDER)
    args = parser.parse_args(argv)
    root = Path(args.data) / "instructure"
    pairs = hecvat_pairs(root)
    if not pairs:
        print(f"no filled HECVAT with its truth under {root}", file=sys.stderr)
        return 2
    library = [p for p, _ in pairs] + sorted(root.glob("Instructure/Instructure CAIQ.xlsx"))
    folders = FolderScopes()
    selected = select_files(sorted(d for d in root.iterdir() if d.is_dir() and not d.name.startswith("_")))
    documents = [f for f, _ in selected.files if f not in library and f not in {p for p, _ in pairs}]
    results = measure(pairs, library, DenseEncoder(args.embedder), documents, folders)
    leaks = {
        name: {t["target"]: t["leaks"][name][k]["rows"] for t in results}
        for name in ("past_answer", "truth")
        for k in ("other_product_mentions",)
    }
    contacts = {t["target"]: t["leaks"]["past_answer"]["foreign_contacts"]["rows"] for t in results}
    print(json.dumps({"other_product_mentions": leaks, "foreign_contacts_past_answer": contacts}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))


__all__ = [
    "Drafted",
    "RowScores",
    "drafted",
    "leaks_html",
    "past_answer_drafts",
    "RowTruth",
    "draft_rows",
    "hecvat_pairs",
    "measure",
    "row_record",
    "rows_html",
    "truth_rows",
]
