"""``eval questionnaire``: answer quality on a real filled questionnaire.

A store is built from the knowledge-base documents and an answer library from past filled
questionnaires; the target is then drafted with its answers hidden (every question drafted as
if blank) and its Yes/No choices are scored against the truth file. The target's own answers
never reach the store: a knowledge-base file or a library file with the target's content (same
SHA-256, whatever its name) is left out and reported, and the target is only ever read for its
questions. ``--report`` writes an HTML page with the confusion table and one row per question.

``eval leave-one-out`` runs that for each of several filled questionnaires in turn, the others
being its library (or none, ``--no-library``), with one knowledge base and one model.

Scopes (engine/core/scopes.py): the target is drafted for ``product`` (None: company-wide). With
``folders`` (``--scope-folders``) each document's scope comes from its folder's name, a library
file's entries are for its folder's product, and the target is for its folder's product unless
``product`` is given. Two figures follow the scopes: ``other_product_citation_rate`` (drafted
questions citing a knowledge-base document of a product other than the target's, which the
scoped retrieval must never let through) and ``third_party_only_rate`` (drafted questions whose
highlightable citations are all a third party's: inherited answers).
"""

from __future__ import annotations

import hashlib
import html
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from tqdm import tqdm

from engine.bench.leaks import (
    build,
    draft_text,
    from_other_product,
    kb_sources,
    library_sources,
    out_of_script,
    third_party_unnamed,
)
from engine.bench.risk import review_first_figures
from engine.bench.rows import RowScores, draft_rows, drafted, past_answer_drafts, row_record, rows_html, truth_rows
from engine.bench.truth import load_truth, yes_no
from engine.core.config import ATOM_MODES, EngineConfig, Strategy, SummaryWriter
from engine.core.scopes import FolderScopes
from engine.core.types import DraftStatus, Progress, SourceKind, no_progress
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.confidence import SUPPORT_MIN, risk_coverage
from engine.drafting.drafter import PROMPT_BUDGET, Drafter
from engine.drafting.generate import make_generator
from engine.drafting.records import LOW_CONFIDENCE, Draft
from engine.index.kb import AddReport, KnowledgeBase
from engine.index.library import AnswerLibrary
from engine.index.profile import row_ids
from engine.ingest.paths import select_files
from engine.questionnaire import Question, read_questionnaire
from engine.questionnaire.qualifiers import question_key
from engine.retrieval.summary_rag import SUMMARY_STRATEGIES
from engine.review.draft_run import to_draft
from storage.vector_store import release

CLASSES = ("Yes", "No")


def scored_questions(questionnaire: str | Path, truth: dict[str, dict], limit: int | None) -> list[Question]:
    """The truth's Yes/No questions the reader found (with a choice cell), in file order."""
    q = read_questionnaire(Path(questionnaire))
    found = [
        x
        for x in to_draft(q, redo_answered=True, limit=None)[0]
        if x.id in truth and yes_no(truth[x.id]["answer"]) and x.choices
    ]
    found = found[:limit] if limit else found
    if not found:
        raise ValueError(
            f"no Yes/No question of the truth file was found in {questionnaire}; "
            "check the ids with `python -m engine inspect`"
        )
    return found


@dataclass
class Row:
    """One scored question, for the report."""

    id: str
    question: str
    truth: str
    choice: str | None
    answer: str
    status: str
    reused: bool
    citations: list[str]
    seconds: float
    past_choices: dict[str, int] = field(default_factory=dict)  # of the near-identical past answers
    confidence: float | None = None
    low_confidence: bool = False
    support: float | None = None  # best question–quote cosine of a drafted (not reused) answer
    other_product: bool = False  # cites a document of a product other than the target's
    inherited_from: str | None = None  # every highlightable citation is this third party's
    from_product: str | None = None  # the choice is this other product's past answer (engine/drafting/cross_product.py)
    past_answers: tuple[str, ...] = ()  # the near-identical past answers, named with their products

    @property
    def drafted(self) -> bool:
        return self.status == DraftStatus.DRAFTED.value

    @property
    def right(self) -> bool:
        return yes_no(self.choice) == self.truth

    @property
    def chose(self) -> bool:
        """A Yes/No choice was drafted (reused or generated)."""
        return yes_no(self.choice) is not None

    @property
    def disputed(self) -> bool:
        return self.reused and len(self.past_choices) > 1

    @property
    def reachable(self) -> bool:
        """Right, or reused and one of the near-identical past answers had the truth's choice
        (choosing among the past answers could have got it right)."""
        return self.right or (self.reused and self.truth in {yes_no(c) for c in self.past_choices})


@dataclass
class Scores:
    rows: list[Row] = field(default_factory=list)
    quotes: int = 0
    supported: int = 0
    tokens: int = 0
    seconds: float = 0.0

    def add(self, question: Question, truth: str, draft: Draft, other_product: bool = False) -> None:
        self.rows.append(
            Row(
                question.id or "",
                question.text,
                truth,
                draft.choice,
                draft.answer,
                draft.status.value,
                draft.reused,
                [cite_line(c) for c in draft.citations],
                draft.seconds,
                dict(draft.past_choices),
                draft.confidence,
                draft.low_confidence,
                draft.support,
                other_product,
                draft.inherited_from,
                draft.from_product,
                tuple(draft.past_answers),
            )
        )
        self.quotes += len(draft.citations)
        self.supported += sum(c.label is not AnchorLabel.UNVERIFIED for c in draft.citations)
        self.tokens += draft.prompt_tokens

    def recall(self, right: Callable[[Row], bool]) -> dict[str, float | None]:
        """Per truth class, the % of its questions ``right`` holds for."""
        return {
            c: _pct(sum(right(r) for r in self.rows if r.truth == c), sum(r.truth == c for r in self.rows))
            for c in CLASSES
        }

    def summary(self) -> dict:
        n = len(self.rows)
        recall = self.recall(lambda r: r.right)
        reused = [r for r in self.rows if r.reused]
        wrong_reused = [r for r in reused if not r.right]
        drafted = [r for r in self.rows if r.drafted]
        return {
            "questions": n,
            "choice_accuracy": _pct(sum(r.right for r in self.rows), n),
            "balanced_accuracy": _balanced(recall),
            "yes_recall": recall["Yes"],
            "no_recall": recall["No"],
            "no_context_rate": _pct(sum(r.status == DraftStatus.NO_CONTEXT.value for r in self.rows), n),
            "verified_quote_rate": _pct(self.supported, self.quotes),
            "reused_rate": _pct(len(reused), n),
            # reused, but the near-identical past answers disagree (the Review screen warns)
            "disputed_rate": _pct(sum(r.disputed for r in reused), n),
            # of the wrong reused choices, the share that came with that warning
            "wrong_reused_disputed": _pct(sum(r.disputed for r in wrong_reused), len(wrong_reused)),
            # balanced accuracy if every reused question had taken the right one of its
            # near-identical past answers' choices, the others as drafted: the most choosing
            # among past answers can reach with this library (None: nothing was reused)
            "reuse_ceiling": _balanced(self.recall(lambda r: r.reachable)) if reused else None,
            **self.trust(),
            "s_per_question": round(self.seconds / n, 2) if n else None,
            "prompt_tokens_per_question": round(self.tokens / n, 1) if n else None,
            # of the drafted questions: citing another product's document; inherited from a third party
            "other_product_citation_rate": _pct(sum(r.other_product for r in drafted), len(drafted)),
            "third_party_only_rate": _pct(sum(r.inherited_from is not None for r in drafted), len(drafted)),
            # of the drafted questions: the choice taken from another product's past answer (labelled)
            "from_other_product_rate": _pct(sum(r.from_product is not None for r in drafted), len(drafted)),
        }

    def trust(self) -> dict:
        """Drafted precision at a coverage: of the Yes/No choices drafted, the share right
        (``drafted_precision``), and the share of questions with one (``coverage``); the same
        for the drafts at or above the low-confidence threshold (``confident_*``: what a reviewer
        can take at face value; the others are flagged). ``unsupported_draft_rate``: generated
        (not reused) drafts whose best quote does not speak to the question (support under
        SUPPORT_MIN, or no highlightable quote): 0 by construction of the drafter's rule, kept as a
        guard."""
        n = len(self.rows)
        drafted = [r for r in self.rows if r.chose]
        confident = [r for r in drafted if not r.low_confidence]
        generated = [r for r in drafted if not r.reused]
        return {
            "drafted": len(drafted),
            "drafted_right": sum(r.right for r in drafted),
            "drafted_precision": _ratio(sum(r.right for r in drafted), len(drafted)),
            "coverage": _ratio(len(drafted), n),
            "wrong_draft_rate": _pct(sum(not r.right for r in drafted), n),
            "low_confidence_rate": _pct(len(drafted) - len(confident), n),
            "confident_precision": _ratio(sum(r.right for r in confident), len(confident)),
            "confident_coverage": _ratio(len(confident), n),
            "unsupported_draft_rate": _pct(sum(r.support is None or r.support < SUPPORT_MIN for r in generated), n),
        }

    def risk_coverage(self) -> list[tuple[float, float, float]]:
        """(threshold, coverage of all questions, precision) as the confidence threshold moves."""
        points = [(r.confidence if r.confidence is not None else 0.0, r.right) for r in self.rows if r.chose]
        share = len(points) / len(self.rows) if self.rows else 0.0
        return [(t, c * share, p) for t, c, p in risk_coverage(points)]

    def confusion(self) -> dict[str, dict[str, int]]:
        """truth → drafted choice (Yes / No / N/A / none) → count."""
        table: dict[str, dict[str, int]] = {c: {} for c in CLASSES}
        for r in self.rows:
            got = yes_no(r.choice) or (r.choice or "none")
            table[r.truth][got] = table[r.truth].get(got, 0) + 1
        return table


def score(
    drafter: Drafter, questions: Sequence[Question], truth: dict[str, dict], drafts: dict[str, Draft] | None = None
) -> Scores:
    """Draft every question (its answer hidden: the drafter only sees the question) and score
    its choice against the truth. ``seconds`` is drafting time, models already loaded.
    ``drafts``: the questions already drafted (by key, with every row: engine/bench/rows.py)."""
    scores = Scores()
    rows = row_ids(questions)  # for a profile fact pointing to another row
    drafter.kb.encoder  # the embedder is loaded before the clock starts (≈ 11 s, once per process)
    scopes = {d.name: d.scope for d in drafter.kb.documents()}
    started = time.perf_counter()
    for question in tqdm(questions, desc="drafting", file=sys.stderr, disable=drafts is not None):
        draft = drafts[question_key(question)] if drafts is not None else drafter.draft(question, rows)
        other = any(
            c.kind is not SourceKind.LIBRARY and c.file in scopes and not drafter.scope.allows(scopes[c.file])
            for c in draft.citations
        )
        scores.add(question, yes_no(truth[question.id]["answer"]), draft, other)
    scores.seconds = time.perf_counter() - started if drafts is None else sum(r.seconds for r in scores.rows)
    return scores


def score_rows(
    drafter: Drafter,
    target: Path,
    truth: dict[str, dict],
    questions: Sequence[Question],
    library,
    limit: int | None,
    company: str | None = None,
    drafts_file: Path | None = None,
    drafts_mode: str = "w",
    qualifiers_reviewed: bool = False,
) -> tuple[Scores, dict]:
    """Every row of the target drafted (qualifiers first, switched-off sections not drafted) and
    scored per row type (engine/bench/rows.py); the Yes/No questions scored from the same drafts.
    Every drafted row is checked for other products' identifying strings (engine/bench/leaks.py:
    ``other_product_mentions``, ``foreign_contacts``; ``company``: the company's name) and its
    choices taken from another product counted (``from_other_product``); ``drafts_file``: every
    drafted row also written there as a JSON line (``drafts_mode`` "a" appends);
    ``qualifiers_reviewed``: a reviewer answers each qualifier with the vendor's own answer as soon
    as it is drafted (``draft_rows``)."""
    rows = truth_rows(read_questionnaire(target), truth)
    rows = rows[:limit] if limit else rows
    drafter.kb.encoder  # loaded before the clock starts
    with tqdm(total=len(rows), desc="drafting every row", file=sys.stderr) as bar:
        drafts, took = draft_rows(
            drafter, read_questionnaire(target), {r.id for r in rows}, lambda q: bar.update(), qualifiers_reviewed
        )
    scores = score(drafter, [q for q in questions if any(r.id == q.id for r in rows)], truth, drafts)
    past = past_answer_drafts(library, rows, target.name) if library is not None else {}
    baselines = {"past_answer": {k: d.text for k, d in past.items()}} if library is not None else {}
    figures = RowScores(
        [(r, drafted(drafts[r.key]) if r.key in drafts else None) for r in rows], took.whole, took.first_pass
    ).figures(drafter.kb.encoder.encode_passages, baselines)
    records = [row_record(target.name, drafter.product, r, drafts[r.key]) for r in rows if r.key in drafts]
    check = build(
        drafter.product,
        (library_sources(library.entries()) if library is not None else []) + kb_sources(drafter.kb),
        company,
    )
    figures.update(check.figures((x["id"], draft_text(x)) for x in records))
    figures["from_other_product"] = from_other_product(records)
    figures["review_first"] = review_first_figures(records)  # engine/bench/risk.py
    figures["third_party_unnamed"] = third_party_unnamed(records)
    figures["out_of_script"] = out_of_script(records)
    if drafts_file is not None:
        drafts_file.parent.mkdir(parents=True, exist_ok=True)
        with drafts_file.open(drafts_mode, encoding="utf-8") as f:
            f.writelines(json.dumps(x, ensure_ascii=False) + "\n" for x in records)
    return scores, figures


def cite_line(c) -> str:
    """A citation in one line: ``file · p. 3 [verified]``, ``past answer: … [verified]``."""
    where = c.location.label()
    text = where if c.kind is SourceKind.LIBRARY else c.file + (f" · {where}" if where else "")
    return f"{text} [{c.label.value}]"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def without_target(paths: Sequence[Path], target: Path) -> tuple[list[Path], list[str]]:
    """``paths`` (folders expanded) minus any file with the target's content: (kept, left out)."""
    selected = select_files(paths)
    if selected.errors:
        raise selected.errors[0]
    secret = sha256(target)
    kept, dropped = [], []
    for f, _ in selected.files:
        (dropped if sha256(f) == secret else kept).append(f)
    return kept, [str(f) for f in dropped]


def evaluate_questionnaire(
    kb: Sequence[str],
    library: Sequence[str],
    target: str,
    truth: str,
    *,
    store: str | None = None,
    limit: int | None = None,
    model: str | None = None,
    llm_url: str | None = None,
    evidence: str | None = None,
    report: str | None = None,
    embedder: str | None = None,
    generator=None,
    progress: Progress = no_progress,
    product: str | None = None,
    folders: FolderScopes | None = None,
    mode: str | None = None,
    all_rows: bool = False,
    drafts: str | None = None,
    drafts_mode: str = "w",
    qualifiers_reviewed: bool = False,
) -> dict:
    """The figures of one evaluation (see the module's docstring). ``store``: a folder for the
    knowledge base, kept between runs (unchanged documents are not indexed again); the library
    is always built afresh for the target, in a temporary folder. ``generator`` replaces the
    local LLM (tests that are about something else). ``product``: the target's (default: its
    folder's with ``folders``, else none); ``folders``: scopes from folder names. ``mode``: the
    drafts' retrieval mode or strategy (engine.core.config; ``summary`` summarises the documents with
    the generator when it can write, else extractively; ``atoms``/``atom-questions`` build that
    index). ``all_rows``: draft every row, not only the Yes/No ones, and add the figures per row
    type (``rows``; engine/bench/rows.py); the Yes/No figures come from the same drafts, and
    ``drafts`` (a path) receives every drafted row as a JSON line (``drafts_mode`` "a": appended)
    for ``python -m engine.bench.leaks``; ``qualifiers_reviewed`` (with ``all_rows``): a reviewer
    answers each qualifier with the vendor's own answer as soon as it is drafted, and the sections
    follow it (the minutes when the qualifiers are answered first)."""
    target_path = Path(target)
    if not target_path.is_file():
        raise FileNotFoundError(f"{target}: the target questionnaire does not exist")
    expected = load_truth(truth)
    questions = scored_questions(target_path, expected, limit)
    kb_files, kb_dropped = without_target([Path(p) for p in kb], target_path)
    lib_files, lib_dropped = without_target([Path(p) for p in library], target_path)
    if product is None and folders is not None:
        product = folders.product_of(target_path)
    config = EngineConfig.from_env(embedder=embedder)
    generator = generator or make_generator(model, llm_url, evidence=evidence)
    with tempfile.TemporaryDirectory(prefix="rfp-eval-") as tmp:
        folder = Path(store) if store else Path(tmp) / "store"
        base, added = _knowledge_base(folder, config, generator, kb_files, mode, folders, progress)
        lib = _library(Path(tmp) / "library", base.encoder, lib_files, folders) if lib_files else None
        drafter = Drafter(base, generator, budget_tokens=PROMPT_BUDGET, library=lib, product=product, mode=mode)
        every_row = dict(drafts=drafts, drafts_mode=drafts_mode, qualifiers_reviewed=qualifiers_reviewed)
        scores, row_figures = _scored(
            drafter, target_path, expected, questions, lib, limit, folders, every_row if all_rows else None
        )
        release(str(folder / "qdrant"))
    figures = scores.summary()
    figures.update(
        {
            "target": target_path.name,
            "generator": generator_name(generator),
            "product": drafter.product,
            "documents": len(base.documents()),
            "library_files": [f.name for f in lib_files],
            "library_entries": len(lib.entries()) if lib else 0,
            "left_out": kb_dropped + lib_dropped,
            "skipped": [str(e) for e in added.errors],
            "mode": mode or config.mode.value,
            "summaries": base.indexes.methods() if Strategy.of(mode) in SUMMARY_STRATEGIES else None,
        }
    )
    if row_figures is not None:
        figures["rows"] = row_figures
        figures["qualifiers_reviewed"] = qualifiers_reviewed
    if report:
        write_report(Path(report), figures, scores)
        figures["report"] = str(report)
    return figures


def _scored(
    drafter: Drafter,
    target: Path,
    expected: dict[str, dict],
    questions: Sequence[Question],
    lib: AnswerLibrary | None,
    limit: int | None,
    folders: FolderScopes | None,
    every_row: dict | None,
) -> tuple[Scores, dict | None]:
    """The Yes/No scores of the drafted target, and with ``every_row`` (``drafts``, ``drafts_mode``,
    ``qualifiers_reviewed``: see ``evaluate_questionnaire``) the figures per row type (every row
    drafted, written to ``drafts`` when given); else None for those."""
    if every_row is None:
        return score(drafter, questions, expected), None
    drafts = every_row["drafts"]
    return score_rows(
        drafter,
        target,
        expected,
        questions,
        lib,
        limit,
        company=folders.company if folders is not None else None,
        drafts_file=Path(drafts) if drafts else None,
        drafts_mode=every_row["drafts_mode"],
        qualifiers_reviewed=every_row["qualifiers_reviewed"],
    )


def _writes_with_the_llm(mode: str | None, generator, config: EngineConfig) -> bool:
    """Whether building the store asks the generator to write: the summary strategies and the
    atom-questions index do when it can write (a stated fake cannot: extractive summaries); the
    other modes need no summaries by the LLM."""
    return (
        Strategy.of(mode) in (*SUMMARY_STRATEGIES, Strategy.ATOM_QUESTIONS)
        and hasattr(generator, "chat_json")
        and (config.summaries is SummaryWriter.LLM or Strategy.of(mode) is Strategy.ATOM_QUESTIONS)
    )


def _knowledge_base(
    folder: Path,
    config: EngineConfig,
    generator,
    kb_files: list[Path],
    mode: str | None,
    folders: FolderScopes | None,
    progress: Progress,
) -> tuple[KnowledgeBase, AddReport]:
    """The knowledge base in ``folder`` with ``kb_files`` added (and the index ``mode`` needs),
    scoped by ``folders``, with the LLM's summaries when the mode wants them; and what adding did."""
    writes = _writes_with_the_llm(mode, generator, config)
    base = KnowledgeBase(folder, config, llm=generator if writes else None)
    added = base.add(kb_files, progress=progress, index_modes=[mode] if mode in ATOM_MODES else ())
    if folders is not None:  # exactly the folders' scopes, whatever an earlier run left in the store
        names = {d.name for d in base.documents()}
        base.set_scopes({f.name: s for f, s in folders.of_files(kb_files).items() if f.name in names})
    if writes and Strategy.of(mode) in SUMMARY_STRATEGIES:  # a kept store's extractive summaries are rewritten
        base.indexes.write_summaries(base.doc_texts(base.documents()), progress, rewrite=True)
    return base, added


def _library(folder: Path, encoder, lib_files: list[Path], folders: FolderScopes | None) -> AnswerLibrary:
    """A new answer library in ``folder`` with ``lib_files`` imported (each for its folder's product
    with ``folders``, else company-wide)."""
    lib = AnswerLibrary(folder, encoder)
    for f in lib_files:
        lib.import_file(f, product=folders.product_of(f) if folders is not None else None)
    return lib


LOO_FIGURES = (
    "questions",
    "drafted",
    "drafted_right",
    "balanced_accuracy",
    "choice_accuracy",
    "yes_recall",
    "no_recall",
    "no_context_rate",
    "drafted_precision",
    "coverage",
    "wrong_draft_rate",
    "low_confidence_rate",
    "confident_precision",
    "confident_coverage",
    "unsupported_draft_rate",
    "reused_rate",
    "disputed_rate",
    "wrong_reused_disputed",
    "reuse_ceiling",
    "verified_quote_rate",
    "s_per_question",
    "other_product_citation_rate",
    "third_party_only_rate",
    "from_other_product_rate",
)


def leave_one_out(
    kb: Sequence[str],
    pairs: Sequence[tuple[str, str]],
    *,
    library: bool = True,
    store: str | None = None,
    limit: int | None = None,
    model: str | None = None,
    llm_url: str | None = None,
    evidence: str | None = None,
    reports: str | None = None,
    embedder: str | None = None,
    generator=None,
    progress: Progress = no_progress,
    product: str | None = None,
    folders: FolderScopes | None = None,
    mode: str | None = None,
    all_rows: bool = False,
    drafts: str | None = None,
) -> dict:
    """Each filled questionnaire of ``pairs`` ((questionnaire, truth) paths) in turn as the
    target of :func:`evaluate_questionnaire`, with the others as its answer library (none with
    ``library=False``: the documents alone). One knowledge base (``store``, else a temporary
    folder) and one generator serve every target. ``reports``: a folder for one HTML report
    per target; ``product``, ``folders`` and ``drafts`` (every target's drafted rows, in one file)
    as for :func:`evaluate_questionnaire`. Returns each target's figures and a summary over the
    targets."""
    if len(pairs) < 2 and library:
        raise ValueError("leave-one-out needs at least two filled questionnaires (each one's library is the others)")
    for questionnaire, _ in pairs:
        if not Path(questionnaire).is_file():
            raise FileNotFoundError(f"{questionnaire}: the filled questionnaire does not exist")
    generator = generator or make_generator(model, llm_url, evidence=evidence)
    targets = []
    with tempfile.TemporaryDirectory(prefix="rfp-loo-") as tmp:
        folder = store or str(Path(tmp) / "store")
        for i, (target, truth) in enumerate(pairs, 1):
            others = [q for q, _ in pairs if q != target] if library else []
            report = str(Path(reports) / f"{Path(target).stem}.html") if reports else None
            figures = evaluate_questionnaire(
                kb,
                others,
                target,
                truth,
                store=folder,
                limit=limit,
                report=report,
                embedder=embedder,
                generator=generator,
                progress=progress,
                product=product,
                folders=folders,
                mode=mode,
                all_rows=all_rows,
                drafts=drafts,
                drafts_mode="w" if i == 1 else "a",
            )
            targets.append(_loo_target(figures, report))
            _say_done(i, len(pairs), figures)
    return {
        "targets": targets,
        "summary": _loo_summary(targets),
        "library": library,
        "generator": generator_name(generator),
        "mode": targets[0]["mode"] if targets else mode,
    }


def generator_name(generator) -> str:
    """What wrote the drafts, as the figures name it: the model file, the server's model and address,
    "no model (--no-model)", or a test's stated fake by its class."""
    return str(getattr(generator, "name", None) or type(generator).__name__)


def _loo_target(figures: dict, report: str | None) -> dict:
    """What leave-one-out keeps of one target's figures."""
    return {
        "target": figures["target"],
        "product": figures["product"],
        "mode": figures["mode"],
        **{k: figures[k] for k in LOO_FIGURES},
        "library_files": len(figures["library_files"]),
        "left_out": figures["left_out"],
        **({"report": report} if report else {}),
        **({"rows": figures["rows"]} if "rows" in figures else {}),
    }


def _say_done(i: int, n: int, figures: dict) -> None:
    """One line on stderr once the i-th of n targets is scored."""
    leaks = (
        f", rows naming another product {figures['rows']['other_product_mentions']['rows']}"
        if "other_product_mentions" in figures.get("rows", {})
        else ""
    )
    print(
        f"[{i}/{n}] {figures['target']}: balanced {figures['balanced_accuracy']}, "
        f"no context {figures['no_context_rate']} %{leaks}",
        file=sys.stderr,
    )


def _loo_summary(targets: Sequence[dict]) -> dict:
    """Mean and worst over the targets (a target without a Yes/No score counts as 0)."""
    balanced = [t["balanced_accuracy"] or 0.0 for t in targets]
    questions = sum(t["questions"] for t in targets)
    seconds = sum((t["s_per_question"] or 0.0) * t["questions"] for t in targets)
    drafted = sum(t["drafted"] for t in targets)
    leaks = {
        k: {t["target"]: t["rows"][k]["rows"] for t in targets if k in t.get("rows", {})}
        for k in ("other_product_mentions", "foreign_contacts")
    }
    crossed = [t["rows"]["from_other_product"] for t in targets if "from_other_product" in t.get("rows", {})]
    return {
        "targets": len(targets),
        "questions": questions,
        # all rows (--all-rows): per target, the rows naming another product or holding a foreign contact
        **{k: {"rows": sum(v.values()), "targets": v} for k, v in leaks.items() if v},
        # all rows: choices taken from another product's past answer, and how many of them say so
        **({"from_other_product": {k: sum(c[k] for c in crossed) for k in ("rows", "labelled")}} if crossed else {}),
        # pooled over every target's questions: of all drafted Yes/No choices, the share right
        "drafted_precision": _ratio(sum(t["drafted_right"] for t in targets), drafted),
        "coverage": _ratio(drafted, questions),
        "balanced_accuracy_mean": round(sum(balanced) / len(balanced), 1) if balanced else None,
        "balanced_accuracy_min": min(balanced) if balanced else None,
        "no_context_rate_max": max((t["no_context_rate"] or 0.0 for t in targets), default=None),
        "s_per_question": round(seconds / questions, 2) if questions else None,
    }


def write_report(path: Path, figures: dict, scores: Scores) -> Path:
    """A self-contained HTML page: the figures, the confusion table, one row per question."""
    esc = html.escape
    confusion = scores.confusion()
    drafted = sorted({k for row in confusion.values() for k in row}, key=lambda k: (k not in CLASSES, k))
    head = "".join(f"<th>drafted {esc(k)}</th>" for k in drafted)
    table = "".join(
        f"<tr><th>truth {esc(t)}</th>" + "".join(f"<td>{confusion[t].get(k, 0)}</td>" for k in drafted) + "</tr>"
        for t in CLASSES
    )
    facts = "".join(
        f"<tr><th>{esc(k)}</th><td>{esc(json.dumps(v) if isinstance(v, (list, dict)) else str(v))}</td></tr>"
        for k, v in figures.items()
        if k != "rows"
    )

    by_type = rows_html(figures["rows"]) if "rows" in figures else ""
    rows = "".join(
        f"<tr class='{'ok' if r.right else 'bad'}'><td>{esc(r.id)}</td><td>{esc(r.question)}</td><td>{esc(r.truth)}</td>"
        f"<td>{esc(r.choice or '—')}</td><td>{'—' if r.confidence is None else f'{r.confidence:.2f}'}"
        f"{' (low)' if r.low_confidence else ''}</td><td>{esc(r.answer)}</td><td>{esc(r.status)}{' · reused' if r.reused else ''}"
        f"{esc(' · inherited from ' + r.inherited_from) if r.inherited_from else ''}"
        f"{esc(' · choice from another product: ' + '; '.join(dict.fromkeys(r.past_answers))) if r.from_product else ''}"
        f"{esc(' (' + ', '.join(f'{c} ×{k}' for c, k in r.past_choices.items()) + ')') if r.past_choices else ''}</td>"
        f"<td>{'<br>'.join(esc(c) for c in r.citations) or '—'}</td><td>{r.seconds:.1f}</td></tr>"
        for r in scores.rows
    )
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Evaluation: {esc(str(figures.get("target")))}</title>
<style>
body {{ font: 14px/1.4 system-ui, sans-serif; margin: 2rem; color: #1c2430; }}
table {{ border-collapse: collapse; margin: 1rem 0; }}
th, td {{ border: 1px solid #d0d6de; padding: .3rem .5rem; text-align: left; vertical-align: top; }}
tr.bad td {{ background: #fdecea; }}
td:nth-child(2), td:nth-child(5) {{ max-width: 28rem; }}
</style></head><body>
<h1>Evaluation: {esc(str(figures.get("target")))}</h1>
<table>{facts}</table>
<h2>Confusion (Yes/No questions)</h2>
<table><tr><th></th>{head}</tr>{table}</table>
<h2>Risk–coverage</h2>
<p>Precision of the drafted Yes/No choices against the share of questions drafted, as the confidence
threshold moves (each point: the drafts at or above one threshold; the marked point is the
low-confidence threshold in use).</p>
{risk_coverage_svg(scores.risk_coverage(), LOW_CONFIDENCE)}
{by_type}
<h2>Questions</h2>
<table><tr><th>ID</th><th>question</th><th>truth</th><th>drafted</th><th>confidence</th><th>answer</th><th>status</th><th>citations</th><th>s</th></tr>
{rows}</table>
</body></html>
"""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    return path


def risk_coverage_svg(
    curve: Sequence[tuple[float, float, float]], threshold: float, width: int = 420, height: int = 260
) -> str:
    """An inline SVG (no script, no network): precision (y, 0.5–1) against coverage (x, 0–1)
    for ``curve`` = (threshold, coverage, precision) points, the point at ``threshold`` marked."""
    if not curve:
        return "<p>(no drafted Yes/No choice)</p>"
    left, bottom, top, right = 44, 34, 10, 12
    w, h = width - left - right, height - top - bottom

    def xy(coverage: float, precision: float) -> tuple[float, float]:
        return left + coverage * w, top + (1.0 - max(0.5, precision)) / 0.5 * h

    path = " ".join(
        f"{'M' if i == 0 else 'L'}{x:.1f},{y:.1f}"
        for i, (x, y) in enumerate(xy(c, p) for _, c, p in sorted(curve, key=lambda t: t[1]))
    )
    grid = "".join(
        f"<line x1='{left}' x2='{left + w}' y1='{xy(0, v)[1]:.1f}' y2='{xy(0, v)[1]:.1f}' stroke='#e3e7ec'/>"
        f"<text x='{left - 6}' y='{xy(0, v)[1] + 4:.1f}' text-anchor='end' font-size='11'>{v:.1f}</text>"
        for v in (0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
    )
    ticks = "".join(
        f"<text x='{xy(v, 1)[0]:.1f}' y='{top + h + 16}' text-anchor='middle' font-size='11'>{v:.1f}</text>"
        for v in (0.0, 0.25, 0.5, 0.75, 1.0)
    )
    kept = [t for t in curve if t[0] >= threshold]
    mark = ""
    if kept:
        _, c, p = min(kept, key=lambda t: t[0])
        x, y = xy(c, p)
        mark = (
            f"<circle cx='{x:.1f}' cy='{y:.1f}' r='4' fill='#c0392b'/>"
            f"<text x='{x + 6:.1f}' y='{y - 6:.1f}' font-size='11'>≥ {threshold:.2f}: {p:.2f} at {c:.2f}</text>"
        )
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' role='img' "
        f"aria-label='precision against coverage'>{grid}{ticks}"
        f"<path d='{path}' fill='none' stroke='#2c6fbb' stroke-width='2'/>{mark}"
        f"<text x='{left + w / 2:.1f}' y='{height - 4}' text-anchor='middle' font-size='12'>coverage</text>"
        f"<text x='12' y='{top + h / 2:.1f}' font-size='12' transform='rotate(-90 12 {top + h / 2:.1f})' "
        f"text-anchor='middle'>precision</text></svg>"
    )


def _balanced(recall: dict[str, float | None]) -> float | None:
    """The mean of the classes' recalls (the classes the truth has)."""
    present = [v for v in recall.values() if v is not None]
    return round(sum(present) / len(present), 1) if present else None


def _pct(right: int, total: int) -> float | None:
    return round(100.0 * right / total, 1) if total else None


def _ratio(part: int, total: int) -> float | None:
    return round(part / total, 3) if total else None
