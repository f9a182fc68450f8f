"""Export screen: where the review stands (counts by state, the questions not accepted yet, the
ones a qualifier switched off counted apart: they stay blank, as the questionnaire expects) and
the three downloads — the customer's workbook (or Word document, or PDF form) with the approved
answers filled in and nothing else changed (a flat PDF's: a Word response document, each question
with its answer), a CSV of the answers, and a citations report; the expert packets; and the coverage
report (ui/components/coverage_pane.py, #51). Every file is built by the engine
(``engine.review.review.Review``, engine/review/reports/) from what the review store holds."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from engine.questionnaire.export import completed_suffix
from engine.questionnaire.formats import format_of
from engine.review.review import ReviewItem, ReviewState
from ui.components import cached_questionnaire
from ui.components.coverage_pane import coverage_section
from ui.components.messages import count, escape_md, problem_text
from ui.components.packets import packets
from ui.resources import current_project, workspace

MIME = {
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ".xlsm": "application/vnd.ms-excel.sheet.macroEnabled.12",
    ".csv": "text/csv",
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".docm": "application/vnd.ms-word.document.macroEnabled.12",
    ".pdf": "application/pdf",
}
WRITTEN = {  # what the completed file is, by the suffix of the questionnaire and of its export
    "workbook": "The completed workbook is your original file with only the answer cells filled in: sheets, dropdowns, "
    "formats and formulas are kept as they were.",
    "document": "The completed document is your original Word file with only the answer places filled in (boxes "
    "ticked the way it draws them, content controls filled): it is checked to differ from the original nowhere "
    "else before it is offered.",
    "form": "The completed form is your original PDF with only its fields filled in (boxes ticked with the form's own "
    "marks, no script run): it is checked to differ from the original nowhere else before it is offered.",
    "response document": "The PDF has no form fields to fill: its answers come as a Word response document, each "
    "question with its number, page and answer in the PDF's order (the CSV beside it has them too).",
}
SHOWN_ALWAYS = (ReviewState.ACCEPTED, ReviewState.EDITED, ReviewState.DRAFTED)
ORDER = (
    ReviewState.ACCEPTED,
    ReviewState.EDITED,
    ReviewState.DRAFTED,
    ReviewState.NO_CONTEXT,
    ReviewState.NEEDS_SME,
    ReviewState.REJECTED,
    ReviewState.ERROR,
    ReviewState.PENDING,
    ReviewState.NOT_REQUIRED,
)  # ready to export first
LONG_LIST = 8  # more questions than this go into an expander


def unapproved_line(item: ReviewItem) -> str:
    return f"- **{escape_md(item.label)}** · {item.state.label} · {escape_md(item.question.text)}"


st.title("Export")
ws = workspace()
pid = current_project(ws)
if pid is None:
    st.info(
        "There is no questionnaire to export yet. Upload one on the Questionnaire screen, "
        "draft the answers, review them, then come back here to download the completed workbook."
    )
    st.page_link("screens/questionnaire.py", label="Go to the Questionnaire screen", icon=":material/upload_file:")
    st.stop()

project = ws.project(pid)
try:
    review = cached_questionnaire.review(ws, pid)
except Exception as exc:  # the engine's errors name the file, the problem and the fix
    st.error(f"The questionnaire **{escape_md(project.file_name)}** cannot be read: {problem_text(exc)}")
    st.stop()

st.caption(f"Questionnaire: **{escape_md(project.file_name)}**")
status = ws.jobs.status(pid)
if status is not None and status.running:
    st.info(
        f"Drafting is still running ({status.doing}). The files below hold what has been drafted and reviewed so far.",
        icon=":material/hourglass_top:",
    )

# ---- where the review stands ---------------------------------------------------------------------
items = review.items()  # read once: every count below is of the same rows
counts = {state: sum(1 for i in items if i.state is state) for state in ReviewState}
total = sum(counts.values())
shown = [s for s in ORDER if s in SHOWN_ALWAYS or counts[s]]
columns = st.columns(len(shown) + 1)
columns[0].metric("Questions", total)
for column, state in zip(columns[1:], shown):
    column.metric(state.label, counts[state])

# rows a qualifier switches off are counted apart: left blank, as the questionnaire expects, never "not accepted"
not_required = counts[ReviewState.NOT_REQUIRED]
required = total - not_required
approved = sum(n for s, n in counts.items() if s.approved)
final = sum(1 for i in items if i.final)  # with approval required: accepted and approved
apart = f" · {not_required} not required (left blank: a qualifier's answer switches them off)" if not_required else ""
st.progress(
    (final if review.approval_required else approved) / required if required else 0.0,
    text=(
        f"{final} of {required} answers accepted and approved, ready to export{apart}"
        if review.approval_required
        else f"{approved} of {required} answers accepted and ready to export{apart}"
    ),
)
# a second person's approval (engine/review/review.py ``approve``): counted when the questionnaire requires it
accepted = [i for i in items if i.state.approved]
signed = sum(i.approval is not None for i in accepted)
if review.approval_required:
    st.caption(
        f":material/verified: {signed} of {len(accepted)} accepted answers approved: this questionnaire counts an "
        "answer final once a second reviewer approves it (the Approve button on the Review screen)."
    )

unapproved = [i for i in items if not i.state.approved and i.state is not ReviewState.NOT_REQUIRED]
unreviewed = counts[ReviewState.DRAFTED]  # drafts the checkbox below would add
if unapproved:
    n = len(unapproved)
    head = f"{n} question{'s are' if n > 1 else ' is'} not accepted yet: their answer cells stay blank in the completed workbook"
    if unreviewed:
        head += (
            f". Ticking *Also fill drafts not yet accepted* below writes the {unreviewed} unreviewed "
            f"draft{'s' if unreviewed > 1 else ''} too; the others stay blank either way."
        )
    else:
        head += "."
    if n <= LONG_LIST:
        st.warning(head + "\n\n" + "\n".join(unapproved_line(i) for i in unapproved), icon=":material/warning:")
    else:
        st.warning(head, icon=":material/warning:")
        with st.expander(f"Show the {n} questions not accepted yet"):
            st.markdown("\n".join(unapproved_line(i) for i in unapproved))
    st.page_link("screens/review.py", label="Review them on the Review screen", icon=":material/fact_check:")
elif required:
    st.success(
        "Every answer is accepted: the completed workbook is ready."
        + (f" The {not_required} not required stay blank." if not_required else ""),
        icon=":material/task_alt:",
    )

# ---- downloads -----------------------------------------------------------------------------------
st.subheader("Downloads")
stem, suffix = Path(project.file_name).stem, Path(project.file_name).suffix.lower()
written = completed_suffix(review.questionnaire)  # a flat PDF's answers: a Word response document
questionnaire_format = format_of(project.file_name)  # "workbook", "document", "form": its noun
noun = "response document" if written != suffix else questionnaire_format.noun if questionnaire_format else "workbook"
only_approved = (review.approval_required or signed > 0) and st.checkbox(
    "Only approved answers",
    value=review.approval_required,
    key="export_approved_only",
    help=f"On: only the {signed} answers a second reviewer approved are written; every other answer cell stays "
    "as it is in the original. Off: every accepted answer is written.",
)
include = st.checkbox(
    "Also fill drafts not yet accepted",
    value=False,
    key="export_include_unreviewed",
    disabled=only_approved,
    help="Off: only the answers a reviewer accepted or edited are written. On: drafts nobody has "
    "reviewed yet are written too. Questions with no context, marked Needs SME or rejected "
    "always stay blank.",
)
st.caption(
    WRITTEN[noun]
    + (
        f" {unreviewed} unreviewed draft{'s are' if unreviewed != 1 else ' is'} included: check them before "
        "sending the file."
        if include and not only_approved
        else f" Only the {signed} approved answer{'s are' if signed != 1 else ' is'} written."
        if only_approved
        else ""
    )
)

left, middle, right = st.columns(3)
unwritten = ()
try:
    completed = review.completed(include_unreviewed=include, approved_only=only_approved)
    workbook, unwritten = completed.data, completed.unwritten
except Exception as exc:
    left.error(f"The completed {noun} could not be written: {problem_text(exc)}")
else:
    left.download_button(
        "Download the answers as a Word document" if noun == "response document" else f"Download completed {noun}",
        workbook,
        file_name=f"{stem}_{'answers' if noun == 'response document' else 'completed'}{written}",
        mime=MIME.get(written, "application/octet-stream"),
        type="primary",
        icon=":material/download:",
        on_click="ignore",
        width="stretch",
    )
if unwritten:  # one answer its place refuses never refuses the others: those rows, each with why
    st.warning(
        f"{len(unwritten)} answer{'s' if len(unwritten) != 1 else ''} could not be written into the {noun}; "
        "the others are in it:\n\n"
        + "\n".join(f"- **{escape_md(u.label)}**: {escape_md(u.problem)}. {escape_md(u.fix)}" for u in unwritten),
        icon=":material/warning:",
    )
middle.download_button(
    "Download answers (CSV)",
    review.answers_csv(),
    file_name=f"{stem}_answers.csv",
    mime="text/csv",
    icon=":material/table:",
    on_click="ignore",
    width="stretch",
)
right.download_button(
    "Download citations report",
    review.citations_report(),
    file_name=f"{stem}_citations.csv",
    mime="text/csv",
    icon=":material/format_quote:",
    on_click="ignore",
    width="stretch",
)
left.caption(
    "Approved answers, question by question, in a Word document." if noun == "response document"
    else f"Approved answers in the original {noun}."
)  # fmt: skip
middle.caption("One row per question: ID, sheet, row, question, state, choice, answer.")
right.caption("One row per citation: the source file, page or row, and the quoted text.")

# ---- a solicitation's compliance matrix (#57) -----------------------------------------------------
try:
    solicitation = ws.solicitation(pid, review.questionnaire)  # None: a questionnaire
except Exception as exc:  # a stored correction that names no kind: the file, the problem and the fix
    st.error(f"The compliance matrix could not be made: {problem_text(exc)}")
    solicitation = None
if solicitation is not None:
    st.subheader("Compliance matrix and response outline")
    matrix_col, outline_col = st.columns(2)
    for column, what, make, name, suffix, icon in (
        (matrix_col, "compliance matrix", ws.compliance_matrix, "compliance_matrix", ".xlsx", ":material/checklist:"),
        (outline_col, "response outline", ws.response_outline, "response_outline", ".docx", ":material/toc:"),
    ):
        try:
            data = make(pid, review, include_unreviewed=include and not only_approved)
        except Exception as exc:
            column.error(f"The {what} could not be written: {problem_text(exc)}")
        else:
            column.download_button(
                f"Download the {what}",
                data,
                file_name=f"{stem}_{name}{suffix}",
                mime=MIME[suffix],
                icon=icon,
                on_click="ignore",
                width="stretch",
            )
    st.caption(
        f"{count(len(solicitation.requirements), 'requirement')} as corrected on the Questionnaire screen, one row "
        "each: ID, file, section, page, kind, mandatory, the requirement as quoted, owner (its assignee), the "
        "proposal section that answers it, compliance, response and verified citations (of the accepted answers"
        + (" and the unreviewed drafts" if include and not only_approved else "")
        + "), status; the key facts on a first sheet. The response outline (Word) is the proposal's skeleton: the "
        "volumes and sections the instructions ask for, with their limits, each with the requirements it answers "
        "and their responses; the submission and terms requirements as a checklist."
    )

# ---- expert packets ------------------------------------------------------------------------------
packets(ws, review)

# ---- coverage: what the answers rest on, the gaps by topic, the trends (#51) ----------------------
coverage_section(ws, pid)
