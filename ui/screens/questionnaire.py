"""Questionnaire screen: upload the customer's questionnaire (or use the bundled sample), check
what was detected (per sheet: questions, columns, dropdown values, the first questions) and
correct it with overrides, choose the product it is for (its documents, the company-wide and
third parties' ones are drafted from; none: company-wide), then draft the answers in the
background.

Drafting runs in the engine's background thread (``ws.jobs``): the rest of the app stays usable,
the progress panel refreshes itself every second only while a run is going, drafts appear as
they finish, and an unfinished run resumes by itself when the app restarts."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import streamlit as st

from engine.app import Project, Run, upload_job
from engine.app.upload_job import UploadJob
from engine.app.workspace import STOPPED, ReadOptions, Workspace
from engine.core.types import IngestError
from engine.index.proposed_product import ProductProposal, proposed_product
from engine.ingest.upload_names import UploadName, plain_upload_name
from engine.questionnaire import Questionnaire, QuestionnaireError
from engine.questionnaire.corrections import (
    ColumnRole,
    QuestionCorrection,
    QuestionKind,
    TableColumn,
    TableCorrection,
    TableMap,
    merged,
    merged_questions,
)
from engine.questionnaire.formats import SHEET_SUFFIXES, SUFFIXES, format_of
from engine.questionnaire.language import COMPANY_LANGUAGE, AnswerIn, Language, LanguageSetting, language_of
from engine.questionnaire.mapping import Mapped, kind_counts, mapping
from engine.questionnaire.places import response_only
from engine.questionnaire.qualifiers import label as question_label_of
from engine.questionnaire.qualifiers import question_key
from engine.questionnaire.sheet.reader import OVERRIDE_FIX
from engine.questionnaire.solicitation.as_questionnaire import is_solicitation
from engine.review.review import Review, ReviewState
from ui.components import cached_questionnaire, solicitation_mapping, upload_progress
from ui.components.messages import count, escape_md, flash, problem_text, show_flashed
from ui.components.progress import duration
from ui.components.sign_in import screen_link
from ui.components.uploads import refusal_of, upload_name
from ui.components.warm_up import warm_up_status
from ui.resources import PROJECT, current_project, workspace

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "assets" / "sample" / "questionnaire" / "Sample_Security_Questionnaire.xlsx"
FLASH = "questionnaire_messages"  # after adding a questionnaire (shown by the uploader)
OVERRIDE_FLASH = "questionnaire_override_messages"  # shown in the overrides expander
DRAFT_FLASH = "questionnaire_draft_messages"  # shown by the Start drafting button
UPLOADER_GENERATION = "questionnaire_uploader_generation"
REFUSED = "questionnaire_refused_upload"  # (file_id, why, overrides can help) of the refused upload on screen
PROJECT_CHOICE = "questionnaire_project_choice"
FIRST = 5  # questions shown per sheet
LAST = 5  # latest drafts shown while drafting
OVERRIDES = ("sheet", "header_row", "question_col", "answer_col", "comment_col")


def override_key(scope: int | str, name: str) -> str:
    """Widget key of one override field; ``scope`` is a project id, or "upload"."""
    return f"questionnaire_override_{scope}_{name}"


FIELD_NAMES = {  # the reader's messages name its CLI flags; the screen names its fields
    "--sheet": "Sheet",
    "--header-row": "Header row",
    "--question-col": "Question column",
    "--answer-col": "Answer column",
    "--comment-col": "Comment column",
}
UI_OVERRIDE_FIX = (
    "Say where the questions are: fill in the sheet, the header row and the question column "
    "(and the answer and comment columns)"
)


def reader_problem(exc: BaseException) -> str:
    """A questionnaire error in the screen's words (field names, not command-line flags)."""
    if isinstance(exc, QuestionnaireError):
        fix = UI_OVERRIDE_FIX if exc.fix == OVERRIDE_FIX else exc.fix
        problem = exc.problem
        for flag, field in FIELD_NAMES.items():
            problem, fix = (
                text.replace(f"pass {flag}", f"fill in {field}").replace(flag, field) for text in (problem, fix)
            )
        exc = QuestionnaireError(exc.file, problem, fix)
    return problem_text(exc)


def typed_options(scope: int | str) -> ReadOptions:
    """The overrides typed in the fields of ``scope`` (empty / 0 = detect)."""
    values = {name: st.session_state.get(override_key(scope, name)) for name in OVERRIDES}
    text = {name: str(values[name] or "").strip() for name in OVERRIDES if name != "header_row"}
    return ReadOptions(
        sheet=text["sheet"] or None,
        header_row=int(values["header_row"] or 0) or None,
        question_col=text["question_col"].upper() or None,
        answer_col=text["answer_col"].upper() or None,
        comment_col=text["comment_col"].upper() or None,
    )


def override_fields(scope: int | str, current: ReadOptions, locked: bool = False) -> None:
    for name in OVERRIDES:
        value = getattr(current, name)
        st.session_state.setdefault(override_key(scope, name), (value or 0) if name == "header_row" else (value or ""))
    st.caption("Leave a field empty (header row 0) to let the detection decide. Columns are letters (A, B, …).")
    sheet, header, question, answer, comment = st.columns([2, 1, 1, 1, 1])
    sheet.text_input("Sheet", key=override_key(scope, "sheet"), placeholder="detect", disabled=locked)
    header.number_input(
        "Header row",
        min_value=0,
        step=1,
        key=override_key(scope, "header_row"),
        disabled=locked,
        help="The row of the column labels; questions are below it. 0 = detect.",
    )
    for column, name, label in (
        (question, "question_col", "Question column"),
        (answer, "answer_col", "Answer column"),
        (comment, "comment_col", "Comment column"),
    ):
        column.text_input(label, key=override_key(scope, name), placeholder="detect", max_chars=3, disabled=locked)


# ---- adding a questionnaire -------------------------------------------------------------------------
def add_questionnaire(ws: Workspace, name: str, data: bytes, options: ReadOptions | None = None) -> Exception | None:
    """Keep the file as a project and put it on screen; None, or the error that refused it. The
    same file again is the same project and keeps the overrides it was given. A file over a size
    limit is refused before it is parsed, and no copy of it is kept."""
    try:  # a plain file name (no folders, control characters; capped), or a refusal in one line
        plain = plain_upload_name(name)
    except IngestError as exc:
        return exc
    known = known_project(ws, data)
    if options is None:
        options = ws.read_options(known.id) if known else ReadOptions()
    try:
        project, questionnaire = ws.add_questionnaire(plain.name, data, options)
    except Exception as exc:  # QuestionnaireError / LimitError name the file, the problem and the fix
        return exc
    added(ws, project, questionnaire, known is not None, plain)
    return None


def known_project(ws: Workspace, data: bytes) -> Project | None:
    digest = hashlib.sha256(data).hexdigest()
    return next((p for p in ws.projects() if p.file_sha256 == digest), None)


def added(ws: Workspace, project: Project, questionnaire: Questionnaire, known: bool, plain: UploadName) -> None:
    """A questionnaire just added put on screen, with what was found."""
    st.session_state[PROJECT] = project.id
    if not known:
        propose_product(ws, project.id, project.file_name, questionnaire)
    again = " (already here: the same file is the same questionnaire)" if known else ""
    flash(
        FLASH,
        "success",
        f"**{escape_md(project.file_name)}**{again}: {count(len(questionnaire.questions), row_noun(questionnaire))} found.",
    )
    if plain.changed:
        flash(FLASH, "warning", escape_md(plain.note()))


def start_upload(ws: Workspace, name: str, data: bytes, file_id: str) -> Exception | None:
    """Read the uploaded file in the background (a solicitation's shred shows its progress and can
    be stopped: ui/components/upload_progress.py); None, or the error that refused it at once. The
    same file again is read whole, with the other overrides it was given."""
    try:
        plain = plain_upload_name(name)
        known = known_project(ws, data)
        options = replace(ws.read_options(known.id), pages=None) if known else ReadOptions()
        upload_progress.begin(upload_job.upload(ws, plain.name, data, options, tag=(file_id, known is not None, plain)))
    except Exception as exc:  # a bad name, a role that may not add one
        return exc
    return None


def finish_upload(ws: Workspace, job: UploadJob) -> None:
    """An upload (or a solicitation's rest) read: put on screen, with a line when a stop cut it short."""
    if isinstance(job.tag, int):  # the rest of a stopped solicitation (its project's ID)
        if job.error is not None:
            flash(FLASH, "error", f"The rest was not read. {reader_problem(job.error)}")
        elif job.result is not None:
            project, questionnaire = job.result
            noun = row_noun(questionnaire)
            flash(
                FLASH,
                "success",
                f"**{escape_md(project.file_name)}**: {count(len(questionnaire.questions), noun)} found.",
            )
    else:
        file_id, known, plain = job.tag
        if job.error is not None:  # the file stays in the uploader, refused: a size limit or a bad name is final
            st.session_state[REFUSED] = (file_id, refusal(job.error), not isinstance(job.error, IngestError))
            return
        st.session_state.pop(REFUSED, None)
        st.session_state[UPLOADER_GENERATION] = st.session_state.get(UPLOADER_GENERATION, 0) + 1  # empty uploader
        if job.result is not None:
            added(ws, *job.result, known, plain)
    if (line := job.stopped_line()) is not None:
        flash(FLASH, "warning", escape_md(line))


def read_rest(ws: Workspace, pid: int) -> None:
    try:
        upload_progress.begin(upload_job.read_rest(ws, pid))
    except Exception as exc:  # a role that may not
        flash(FLASH, "error", f"The rest was not read. {problem_text(exc)}")


def row_noun(questionnaire: Questionnaire) -> str:
    """What a row is: a solicitation's are its requirements."""
    return "requirement" if is_solicitation(questionnaire) else "question"


def known_products(ws: Workspace) -> list[str]:
    """The products of the documents' scopes and of the answer library; none while the knowledge
    base cannot be opened (the screen says why below)."""
    try:
        return ws.products()
    except Exception:
        return []


def propose_product(ws: Workspace, pid: int, file_name: str, questionnaire: Questionnaire) -> None:
    """A questionnaire just added is drafted for the product it names (its file name, else its
    general-information rows), when it names one the workspace knows; the picker shows why."""
    proposal = proposed_product(file_name, questionnaire, known_products(ws))
    if proposal is not None:
        ws.set_product(pid, proposal.product)


def refusal(exc: Exception) -> str:
    return f"The questionnaire was not added. {reader_problem(exc)}"


def choose_project() -> None:
    st.session_state[PROJECT] = st.session_state[PROJECT_CHOICE]


# ---- detection and overrides ------------------------------------------------------------------------
def document_detection(questionnaire: Questionnaire) -> None:
    """What the reader found in a Word or PDF questionnaire: every question with where it is (its
    paragraph, or its page of a PDF), its ID (the document's own numbering), kind, choices and
    where its answer goes, and the counts by kind."""
    rows = mapping(questionnaire)
    kinds = kind_counts(rows)
    columns = st.columns(2 + len(kinds))
    columns[0].metric("Questions", len(rows))
    for column, (kind, n) in zip(columns[1:], kinds.items()):
        column.metric(kind.capitalize(), n)
    columns[-1].metric("Already answered in the file", sum(m.answered for m in rows))
    st.dataframe(
        [
            {
                "Where": m.location,
                "ID": m.id or "",
                "Kind": f"{m.kind} (several)" if m.several else m.kind,  # "tick all that apply"
                "Question": " ".join(m.text.split()),
                "Choices": " / ".join(m.choices),
                "Answer goes in": m.place,
                "Already answered": (m.choice_place and questionnaire_answer(questionnaire, m.key, "choice"))
                or (questionnaire_answer(questionnaire, m.key, "text") or ""),
            }
            for m in rows
        ],
        hide_index=True,
        width="stretch",
    )
    if questionnaire.tables:  # each table read by its columns: what each column holds (corrected below)
        st.caption(
            f"{count(len(questionnaire.tables), 'table')} read by columns; what each column holds "
            "(change it under *Correct the detection*: every row of the table follows):"
        )
        st.dataframe(
            [
                {
                    "Table": table_name(t),
                    "Columns": " · ".join(
                        f"{c.header or '(no header)'}: {c.role.value if c.role else '—'}" for c in t.columns
                    ),  # fmt: skip
                }
                for t in questionnaire.tables
            ],
            hide_index=True,
            width="stretch",
        )
    for note in questionnaire.notes:
        st.info(escape_md(note[:1].upper() + note[1:]), icon=":material/info:")


def questionnaire_answer(questionnaire: Questionnaire, key: str, which: str) -> str:
    q = next((x for x in questionnaire.questions if f"{x.sheet}!{x.question_cell}" == key), None)
    if q is None:
        return ""
    return (q.existing_choice if which == "choice" else q.existing_answer) or ""


def detection(questionnaire: Questionnaire) -> None:
    """What the reader found, sheet by sheet (what ``python -m engine inspect`` prints)."""
    if questionnaire.places:
        document_detection(questionnaire)
        return
    questions = questionnaire.questions
    answered = sum(q.answered for q in questions)
    total, sheets, already = st.columns(3)
    total.metric("Questions", len(questions))
    sheets.metric("Sheets with questions", len(questionnaire.sheets))
    already.metric("Already answered in the file", answered)
    for s in questionnaire.sheets:
        with_choice = sum(1 for q in s.questions if q.choice_cell)
        with st.container(border=True):
            st.markdown(
                f"**Sheet {escape_md(s.sheet)}** · {count(len(s.questions), 'question')}"
                f" ({with_choice} with a dropdown)"
            )
            st.caption(
                f"Header row {s.header_row or '—'} · columns: question **{s.question_col}**, "
                f"ID {s.id_col or '—'}, answer **{s.answer_col}**, comment {s.comment_col or '—'} · "
                f"choices: {escape_md(' / '.join(s.choices)) if s.choices else 'free text'}"
            )
            st.dataframe(
                [
                    {
                        "Cell": q.question_cell,
                        "ID": q.id or "",
                        "Question": " ".join(q.text.split()),
                        "Answer goes in": ", ".join(c for c in (q.choice_cell, q.text_cell) if c),
                        "Already answered": q.existing_choice or q.existing_answer or "",
                    }
                    for q in s.questions[:FIRST]
                ],
                hide_index=True,
                width="stretch",
            )
            if len(s.questions) > FIRST:
                st.caption(f"… and {len(s.questions) - FIRST} more.")
    for note in questionnaire.notes:
        st.info(escape_md(note[:1].upper() + note[1:]), icon=":material/info:")


def apply_overrides(ws: Workspace, pid: int) -> None:
    """Re-read the questionnaire with the overrides typed in; a bad one changes nothing."""
    options = typed_options(pid)
    try:
        questionnaire = ws.set_read_options(pid, options)
    except Exception as exc:
        flash(
            OVERRIDE_FLASH,
            "error",
            "These overrides were not applied; the questionnaire is still read as before. " + reader_problem(exc),
        )
        return
    flash(
        OVERRIDE_FLASH,
        "success",
        f"Read again with the overrides: {count(len(questionnaire.questions), 'question')} found.",
    )


def reset_overrides(ws: Workspace, pid: int) -> None:
    ws.set_read_options(pid, ReadOptions())
    for name in OVERRIDES:
        st.session_state.pop(override_key(pid, name), None)
    fresh_corrections(pid)
    flash(OVERRIDE_FLASH, "success", "Detection restored: the questionnaire is read without overrides.")


def question_label(m: Mapped) -> str:
    """A document question as the corrections list it: its paragraph number (what "add these
    paragraphs" lists) or its page of a PDF, its ID and its text."""
    text = " ".join(m.text.split())
    return f"{m.location.removeprefix('paragraph ')} · {m.id + ' · ' if m.id else ''}{text[:90]}"


def correction_key(pid: int, name: str) -> str:
    """Widget key of a correction field; a new one after each apply or reset (fresh, empty fields)."""
    return override_key(pid, f"{name}_{st.session_state.get(f'questionnaire_corrections_{pid}', 0)}")


def fresh_corrections(pid: int) -> None:
    generation = f"questionnaire_corrections_{pid}"
    st.session_state[generation] = st.session_state.get(generation, 0) + 1


def apply_corrections(ws: Workspace, pid: int, questionnaire: Questionnaire) -> None:
    """Re-read a document questionnaire with the reviewer's corrections (kept with the project)."""
    current = ws.read_options(pid)
    keys = {question_label(m): m.key for m in mapping(questionnaire)}
    excluded = [keys[label] for label in st.session_state.get(correction_key(pid, "exclude"), []) if label in keys]
    added = st.session_state.get(correction_key(pid, "include"), [])
    like = st.session_state.get(correction_key(pid, "like"))
    rows = mapping(questionnaire)
    labels = [question_label(m) for m in rows]
    options = replace(
        current,
        exclude=tuple(dict.fromkeys(current.exclude + tuple(excluded))),
        include=tuple(dict.fromkeys(current.include + tuple(str(n) for n, _ in added))),
        like=tuple(dict.fromkeys(current.like + ((keys[like],) if like in keys else ()))),
        tables=merged(current.tables, table_roles_chosen(pid, questionnaire)),
        questions=merged_questions(current.questions, question_edit_chosen(pid, rows, labels)),
    )
    try:
        again = ws.set_read_options(pid, options)
    except Exception as exc:
        flash(OVERRIDE_FLASH, "error", "The corrections were not applied. " + reader_problem(exc))
        return
    fresh_corrections(pid)
    flash(OVERRIDE_FLASH, "success", f"Read again with the corrections: {count(len(again.questions), 'question')}.")


def corrections(ws: Workspace, pid: int, questionnaire: Questionnaire, locked: bool) -> None:
    """A document questionnaire's corrections: leave out false questions; in a Word document also add
    a missed paragraph and the ones like an example (same style and list, or the same table column).
    A PDF's questions can only be left out (its format reads no paragraphs to add)."""
    rows = mapping(questionnaire)
    labels = [question_label(m) for m in rows]
    st.multiselect("Not questions: leave these out", labels, key=correction_key(pid, "exclude"), disabled=locked)
    questionnaire_format = format_of(questionnaire.path)
    if questionnaire_format is not None and questionnaire_format.paragraphs is None:
        st.caption("A PDF's questions can be left out; missed ones cannot be added by hand (a Word document's can).")
        correction_buttons(ws, pid, questionnaire, locked)
        return
    known = {int(m.key.split("!", 1)[1].lstrip("A")) for m in rows}
    paragraphs = [(n, text) for n, text in ws.document_paragraphs(pid) if n not in known]
    st.multiselect(
        "Missed questions: add these paragraphs",
        paragraphs,
        format_func=lambda p: f"{p[0]} · {p[1][:100]}",
        key=correction_key(pid, "include"),
        disabled=locked,
    )
    st.selectbox(
        "Find the others like this question (same style and list, or the same table column)",
        [None, *labels],
        format_func=lambda label: "—" if label is None else label,
        key=correction_key(pid, "like"),
        disabled=locked,
    )
    table_roles(pid, questionnaire, locked)
    question_edit(pid, questionnaire, rows, labels, locked)
    correction_buttons(ws, pid, questionnaire, locked)


ROLES: list[ColumnRole | None] = [None, *ColumnRole]
KINDS: list[QuestionKind | None] = [None, *QuestionKind]


def table_name(t: TableMap) -> str:
    return f"Table {t.table + 1}: {t.title or '(no caption)'} · {count(len(t.keys), 'question')}"


def column_name(c: TableColumn) -> str:
    return f"Column {c.column + 1}: {c.header[:40] or '(no header)'}"


def table_roles(pid: int, questionnaire: Questionnaire, locked: bool) -> None:
    """A table's columns, each with its role: the responder changes a column's role once and every
    row of that table follows (several columns made "option": the options of one choice per row)."""
    if not questionnaire.tables:
        return
    st.markdown("**What each column of a table holds** — every row of the table follows")
    tables = {t.table: t for t in questionnaire.tables}
    chosen = st.selectbox(
        "Table", list(tables), format_func=lambda i: table_name(tables[i]), key=correction_key(pid, "table"),
        disabled=locked,
    )  # fmt: skip
    table = tables[chosen]
    slots = st.columns(min(len(table.columns), 4) or 1)
    for i, c in enumerate(table.columns):
        slots[i % len(slots)].selectbox(
            column_name(c),
            ROLES,
            index=ROLES.index(c.role),
            format_func=lambda r: "—" if r is None else r.value,
            key=correction_key(pid, f"role_{table.table}_{c.column}"),
            disabled=locked,
            help="Options: the column's cells are boxes or marks under the option its header names; several "
            "option columns are one choice per row. Answer text and notes: where the written answer goes.",
        )


def table_roles_chosen(pid: int, questionnaire: Questionnaire) -> list[TableCorrection]:
    """The column roles changed on screen (against what the table shows now)."""
    out = []
    for t in questionnaire.tables:
        for c in t.columns:
            role = st.session_state.get(correction_key(pid, f"role_{t.table}_{c.column}"))
            if role is not None and role != c.role:
                out.append(TableCorrection(t.table, c.column, ColumnRole(role)))
    return out


def question_edit(pid: int, questionnaire: Questionnaire, rows: list[Mapped], labels: list[str], locked: bool) -> None:
    """One question's text, kind and answer place (for a question of a table read by columns: the
    column of its row the answer goes in)."""
    st.markdown("**Correct one question** — its text, its kind or where its answer goes")
    label = st.selectbox(
        "Question to correct", [None, *labels], format_func=lambda x: "—" if x is None else x,
        key=correction_key(pid, "edit"), disabled=locked,
    )  # fmt: skip
    if label is None:
        return
    m = rows[labels.index(label)]
    st.text_input("Its text", value=m.text, key=correction_key(pid, "edit_text"), disabled=locked)
    kind, place = st.columns(2)
    kind.selectbox(
        "Its kind", KINDS, format_func=lambda k: f"as read ({m.kind})" if k is None else k.value,
        key=correction_key(pid, "edit_kind"), disabled=locked,
    )  # fmt: skip
    table = next((t for t in questionnaire.tables if m.key in t.keys), None)
    if table is not None and not response_only(questionnaire.places):  # a flat PDF's answers: in a response document
        columns = {c.column: c for c in table.columns}
        place.selectbox(
            "Its answer goes in", [None, *columns], format_func=lambda c: f"as read ({m.place[:40]})" if c is None
            else column_name(columns[c]), key=correction_key(pid, "edit_column"), disabled=locked,
        )  # fmt: skip


def question_edit_chosen(pid: int, rows: list[Mapped], labels: list[str]) -> list[QuestionCorrection]:
    label = st.session_state.get(correction_key(pid, "edit"))
    if label not in labels:
        return []
    m = rows[labels.index(label)]
    text = " ".join(str(st.session_state.get(correction_key(pid, "edit_text")) or "").split())
    kind = st.session_state.get(correction_key(pid, "edit_kind"))
    column = st.session_state.get(correction_key(pid, "edit_column"))
    fix = QuestionCorrection(
        m.key,
        text if text and text != " ".join(m.text.split()) else None,
        QuestionKind(kind) if kind is not None else None,
        int(column) if column is not None else None,
    )
    return [fix] if (fix.text, fix.kind, fix.column) != (None, None, None) else []


def correction_buttons(ws: Workspace, pid: int, questionnaire: Questionnaire, locked: bool) -> None:
    """What the corrections kept with the questionnaire are, and the buttons that apply or reset them."""
    current = ws.read_options(pid)
    if current.exclude or current.include or current.like or current.tables or current.questions:
        st.caption(
            f"Kept with this questionnaire: {len(current.exclude)} left out, {len(current.include)} added, "
            f"{len(current.like)} examples whose like are added, {len(current.tables)} table columns given a "
            f"role, {len(current.questions)} questions corrected."
        )
    apply, reset, _ = st.columns([1, 1, 3])
    apply.button("Apply corrections", on_click=apply_corrections, args=(ws, pid, questionnaire), disabled=locked)
    reset.button("Reset to detection", on_click=reset_overrides, args=(ws, pid), disabled=locked)
    if locked:
        st.caption("Stop drafting to change how the questionnaire is read.")


def overrides(ws: Workspace, pid: int, locked: bool) -> None:
    override_fields(pid, ws.read_options(pid), locked)
    apply, reset, _ = st.columns([1, 1, 3])
    apply.button("Apply overrides", on_click=apply_overrides, args=(ws, pid), disabled=locked)
    reset.button("Reset to detection", on_click=reset_overrides, args=(ws, pid), disabled=locked)
    if locked:
        st.caption("Stop drafting to change how the questionnaire is read.")


# ---- drafting ---------------------------------------------------------------------------------------
def resumed(ws: Workspace, run_id: int, started: float) -> bool:
    """The run was started by an earlier process and resumed by this one."""
    try:
        recorded = datetime.fromisoformat(ws.run(run_id).started).timestamp()
    except Exception:
        return False
    return recorded < started - 5


def last_run(ws: Workspace, pid: int) -> Run | None:
    runs = ws.runs(pid)
    return runs[-1] if runs else None


def ended_message(error: str | None, done: int | None = None, total: int | None = None, not_required: int = 0) -> None:
    """How the last run ended; a finished one counts apart the rows a qualifier switched off,
    which are not drafted ("204 questions drafted, 51 not required")."""
    counted = f" after {done} of {count(total, 'question')}" if total else ""
    if error is None:
        drafted = f": {count(total - not_required, 'question')} drafted" if total else ""
        apart = (
            f", {not_required} not required (switched off by a qualifier's answer)" if total and not_required else ""
        )
        st.success(f"Drafting finished{drafted}{apart}.", icon=":material/task_alt:")
    elif error == STOPPED:
        st.info(
            f"Drafting was stopped{counted}. The drafts written so far are kept; "
            "*Start drafting* continues where it stopped.",
            icon=":material/pause_circle:",
        )
    else:
        st.error(
            f"Drafting stopped with an error{counted}: {escape_md(error)}. The drafts written so far are "
            "kept; *Start drafting* retries the rest.",
            icon=":material/error:",
        )


def state_counts(review: Review) -> None:
    counts = review.counts()
    shown = [s for s in ReviewState if counts[s] or s in (ReviewState.PENDING, ReviewState.DRAFTED)]
    for column, state in zip(st.columns(len(shown)), shown):
        column.metric(state.label, counts[state])


def latest_drafts(ws: Workspace, pid: int, questionnaire: Questionnaire) -> None:
    drafts = sorted(ws.latest_drafts(pid).values(), key=lambda d: d.created, reverse=True)[:LAST]
    if not drafts:
        return
    questions = {question_key(q): q for q in questionnaire.questions}
    rows = []
    for d in drafts:
        q = questions.get(d.key)
        rows.append(
            {
                "Question": question_label_of(q) if q else d.key,
                "Text": " ".join(q.text.split()) if q else "",
                "State": ReviewState(d.status.value).label,
                "Draft": (d.choice + " · " if d.choice else "") + " ".join(d.answer.split()),
            }
        )
    st.caption("Latest drafts")
    st.dataframe(rows, hide_index=True, width="stretch")


def drafting_panel(pid: int, questionnaire: Questionnaire, refreshing: bool) -> None:
    """Progress, counts and the latest drafts; refreshed every second while drafting runs."""
    ws = workspace()
    status = ws.jobs.status(pid)
    running = status is not None and status.running
    if refreshing and not running:
        st.rerun()  # the run ended: redraw the whole screen once (buttons, no more refreshing)
    if running:
        left = duration(status.eta_s)
        text = status.doing + (f" · about {left} left" if left else "")
        st.progress(status.fraction, text=text)
        if resumed(ws, status.run_id, status.started):
            st.caption("Resumed after the app restarted; the questions drafted before were kept.")
        if st.button("Stop drafting", icon=":material/stop_circle:"):
            ws.jobs.cancel(pid)
            st.caption("Stopping after the question being drafted…")
    elif status is not None:
        ended_message(status.error, status.done, status.total, status.not_required)
    else:
        run = last_run(ws, pid)
        if run is not None and run.finished and run.error:
            ended_message(run.error)
    state_counts(ws.review(pid, questionnaire))
    latest_drafts(ws, pid, questionnaire)


def product_key(pid: int) -> str:
    return f"questionnaire_product_{pid}"


def choose_product(ws: Workspace, pid: int) -> None:
    try:
        ws.set_product(pid, st.session_state[product_key(pid)])
    except Exception as exc:  # drafting started meanwhile, or a bad name
        st.session_state.pop(product_key(pid), None)
        flash(DRAFT_FLASH, "error", f"The product was not changed. {problem_text(exc)}")


def approval_key(pid: int) -> str:
    return f"questionnaire_approval_{pid}"


def require_approval(ws: Workspace, pid: int) -> None:
    """The questionnaire's approval step on or off (``Review.require_approval``: a lead's call)."""
    try:
        cached_questionnaire.review(ws, pid).require_approval(bool(st.session_state[approval_key(pid)]))
    except Exception as exc:  # NotAllowed (not a lead), a damaged or replaced review store
        st.session_state.pop(approval_key(pid), None)
        flash(DRAFT_FLASH, "error", f"The approval step was not changed. {problem_text(exc)}")


def product_picker(
    ws: Workspace, pid: int, product: str | None, products: list[str], proposal: ProductProposal | None, locked: bool
) -> None:
    """The product the questionnaire is drafted for, among the products the workspace knows
    (documents' scopes, the answer library); the one proposed when it was added says why."""
    options = [None] + sorted(set(products) | ({product} if product else set()))
    st.selectbox(
        "Product",
        options,
        index=options.index(product),
        key=product_key(pid),
        disabled=locked,
        format_func=lambda p: p or "None (company-wide)",
        on_change=choose_product,
        args=(ws, pid),
        help="Drafts use the company-wide documents, this product's and third parties' (labelled as "
        "theirs); another product's documents are never used. None: company-wide and "
        "third-party documents only. Past answers of this product are reused first.",
    )
    if proposal is not None and proposal.product == product:
        st.caption(f"Proposed: {proposal.reason}. Pick another product if the questionnaire is for another one.")


def language_key(pid: int, what: str) -> str:
    return f"questionnaire_language_{what}_{pid}"


def choose_language(ws: Workspace, pid: int) -> None:
    """Keep the responder's language and answers' language (``Workspace.set_language``)."""
    chosen = st.session_state[language_key(pid, "language")]
    keep = bool(st.session_state.get(language_key(pid, "company")))
    try:
        ws.set_language(
            pid, LanguageSetting(Language.parse(chosen), AnswerIn.COMPANY if keep else AnswerIn.QUESTIONNAIRE)
        )
    except Exception as exc:  # NotAllowed, a damaged store
        flash(DRAFT_FLASH, "error", f"The language was not changed. {problem_text(exc)}")


def language_picker(ws: Workspace, pid: int, questionnaire: Questionnaire, locked: bool) -> None:
    """The questionnaire's language (issue #58): detected from its questions, correctable, and
    whether the answers are written in it or kept in the company's language (English)."""
    found = language_of(questionnaire)
    setting = ws.language(pid)
    current = setting.language or found.language
    told = sum(found.counts.values())
    col_lang, col_keep = st.columns([1, 2], vertical_alignment="bottom")
    options = [lang.value for lang in Language]
    col_lang.selectbox(
        "Questionnaire language",
        options,
        index=options.index(current.value),
        key=language_key(pid, "language"),
        format_func=lambda code: Language(code).label,
        disabled=locked,
        on_change=choose_language,
        args=(ws, pid),
        help=f"Detected: {found.language.label} ({found.counts.get(found.language.value, 0)} of {told} questions). "
        "A question in another language is translated into English by the model before the documents and "
        "past answers are searched.",
    )
    col_keep.checkbox(
        "Keep the answers in English (the company's language)",
        value=setting.answer_in is AnswerIn.COMPANY,
        key=language_key(pid, "company"),
        disabled=locked or current is COMPANY_LANGUAGE,
        on_change=choose_language,
        args=(ws, pid),
        help="Off: the answers are translated into the questionnaire's language by the model (quotes stay in "
        "their source's words, and each translated answer says so). A Yes/No dropdown is always answered "
        "with its own options (Ja/Nein, Oui/Non, はい/いいえ).",
    )
    if current is not COMPANY_LANGUAGE:
        mixed = f"; {len(found.others)} questions in another language" if found.others else ""
        st.caption(f"Detected language: {found.language.label}{mixed}.")


def start_drafting(ws: Workspace, pid: int) -> None:
    limit = int(st.session_state.get("questionnaire_limit") or 0)
    redo = bool(st.session_state.get("questionnaire_redo"))
    try:
        ws.jobs.start(pid, limit=limit or None, redo_answered=redo)
    except Exception as exc:
        flash(DRAFT_FLASH, "error", f"Drafting could not start. {problem_text(exc)}")


# ---- the screen -------------------------------------------------------------------------------------
st.title("Questionnaire")
ws = workspace()

with st.container(border=True):
    generation = st.session_state.setdefault(UPLOADER_GENERATION, 0)
    uploaded = st.file_uploader(
        "Upload questionnaire",
        type=[s.lstrip(".") for s in SUFFIXES],
        key=f"questionnaire_uploader_{generation}",
        help="The customer's questionnaire as an Excel workbook (.xlsx/.xlsm), CSV, Word document "
        "(.docx/.docm) or PDF (a form's fields are filled; a flat PDF's answers go into a Word response "
        "document). It is kept unchanged; the export fills in only the answer cells or places.",
    )
    if (
        bad_upload := refusal_of(uploaded)
    ) is not None:  # a name Streamlit's uploader refused (a NUL): words, no traceback
        flash(FLASH, "error", bad_upload.message())
        st.session_state[UPLOADER_GENERATION] = generation + 1  # a new key empties the uploader
        st.rerun()
    refused, overridable = None, False
    if uploaded is not None:
        # a refused file stays in the uploader; it is tried once, not again on every rerun
        tried, refused, overridable = st.session_state.get(REFUSED, (None, None, False))
        if tried != uploaded.file_id and upload_progress.reading() is None:  # read in the background
            error = start_upload(ws, upload_name(uploaded.name), uploaded.getvalue(), uploaded.file_id)
            if error is not None:
                refused, overridable = (
                    refusal(error),
                    not isinstance(error, IngestError),
                )  # a size limit (LimitError) or a bad name: overrides cannot help
                st.session_state[REFUSED] = (uploaded.file_id, refused, overridable)
    upload_progress.follow(lambda job: finish_upload(ws, job))  # the bar and Stop, while it is read
    if st.button("Use the sample questionnaire", icon=":material/description:"):
        if (error := add_questionnaire(ws, SAMPLE.name, SAMPLE.read_bytes())) is not None:
            flash(FLASH, "error", refusal(error))
        st.rerun()
    show_flashed(FLASH)
    if refused is not None:
        # the file stays in the uploader: say where its questions are, and add it with that
        st.error(refused, icon=":material/error:")
        if uploaded.size and Path(uploaded.name).suffix.lower() in SHEET_SUFFIXES and overridable:  # columns: a sheet's
            st.markdown("**Say where the questions are**, then add the file with these overrides:")
            override_fields("upload", ReadOptions())
            if st.button("Add with these overrides"):
                error = add_questionnaire(ws, upload_name(uploaded.name), uploaded.getvalue(), typed_options("upload"))
                if error is None:
                    st.session_state.pop(REFUSED, None)
                    st.session_state[UPLOADER_GENERATION] = generation + 1
                    st.rerun()
                st.error(refusal(error), icon=":material/error:")

pid = current_project(ws)
if pid is None:
    st.info(
        "Upload the questionnaire you received (Excel, CSV, Word or PDF), or try the app with the sample "
        "questionnaire. The questions and where their answers go are found automatically; you can "
        "correct them before drafting.",
        icon=":material/lightbulb:",
    )
    st.stop()

projects = ws.projects()
if len(projects) > 1:
    ids = [p.id for p in projects]
    names = {p.id: f"{p.file_name} (added {p.created[:10]})" for p in projects}
    st.session_state[PROJECT_CHOICE] = pid
    st.selectbox(
        "Questionnaire",
        ids,
        format_func=names.get,
        key=PROJECT_CHOICE,
        on_change=choose_project,
        help="The questionnaire the Review and Export screens work on.",
    )
project = ws.project(pid)

try:
    review = cached_questionnaire.review(ws, pid)  # ws.review(pid), without re-reading the file each rerun
except Exception as exc:
    st.error(f"The questionnaire **{escape_md(project.file_name)}** cannot be read. {problem_text(exc)}")
    st.stop()
questionnaire = review.questionnaire
running = ws.jobs.running(pid)

st.subheader(f"Detected in {escape_md(project.file_name)}")
try:
    solicitation = ws.solicitation(pid, questionnaire)  # None: a questionnaire (shredded once per file)
except Exception as exc:  # a kind correction that names no kind: the file, the problem and the fix
    st.error(problem_text(exc))
    solicitation = None
if solicitation is not None:
    solicitation_mapping.mapping(
        solicitation, rest=(read_rest, (ws, pid), running or upload_progress.reading() is not None)
    )
else:
    detection(questionnaire)
with st.expander("Correct the detection", key=f"questionnaire_overrides_open_{pid}", on_change="rerun"):
    show_flashed(OVERRIDE_FLASH)
    if solicitation is not None:  # requirements left out, kinds changed
        solicitation_mapping.corrections(ws, pid, solicitation, running, OVERRIDE_FLASH, reader_problem)
    elif questionnaire.places:  # a Word or PDF questionnaire: questions, not columns
        corrections(ws, pid, questionnaire, locked=running)
    else:
        overrides(ws, pid, locked=running)

if solicitation is not None:  # an amendment: the decisions on its unchanged requirements kept
    solicitation_mapping.amends(ws, pid, locked=running)

st.subheader("Draft the answers")
try:
    docs = ws.documents()
except Exception as exc:  # a damaged or locked store
    st.error(f"The knowledge base cannot be opened. {problem_text(exc)}")
    docs = []
if not docs:
    st.warning(
        "The knowledge base is empty: there is nothing to draft the answers from. Add your documents first.",
        icon=":material/warning:",
    )
    screen_link("screens/knowledge_base.py", label="Go to the Knowledge base screen", icon=":material/library_books:")
products = known_products(ws)
product_picker(
    ws, pid, project.product, products, proposed_product(project.file_name, questionnaire, products), locked=running
)
language_picker(ws, pid, questionnaire, locked=running)
st.toggle(
    "Require a second reviewer's approval",
    value=review.approval_required,
    key=approval_key(pid),
    on_change=require_approval,
    args=(ws, pid),
    help="On: an accepted or edited answer is final once someone other than its reviewer approves it on the "
    "Review screen; the Export screen counts them and can write only those.",
)
warm_up_status(ws, show_ready=False)  # the models loading since the app started, or why one cannot load
if ws.warming is not None and ws.warming.failed():
    screen_link("screens/settings.py", label="Go to the Settings screen", icon=":material/settings:")
limit_col, redo_col = st.columns([1, 2], vertical_alignment="bottom")
limit_col.number_input(
    "Questions to draft (0 = all)", min_value=0, value=0, step=1, key="questionnaire_limit", disabled=running
)
redo_col.checkbox(
    "Redo questions already answered in the file",
    key="questionnaire_redo",
    disabled=running,
    help="Off: questions the file already answers are left as they are.",
)
st.button(
    "Start drafting",
    type="primary",
    icon=":material/play_arrow:",
    disabled=running or not docs,
    on_click=start_drafting,
    args=(ws, pid),
)
show_flashed(DRAFT_FLASH)
st.caption(
    "Drafting runs in the background: you can review the drafts that are ready while the rest "
    "are written, and it continues where it stopped if the app is restarted."
)

st.fragment(drafting_panel, run_every=1.0 if running else None)(pid, questionnaire, running)
st.page_link("screens/review.py", label="Review the drafts", icon=":material/fact_check:")
