"""Knowledge base screen: the company's documents the drafts are written from.

Add files (PDF, Word, Excel/CSV, Markdown/text) through the uploader — each upload is written
to a temporary folder and indexed by ``Workspace.add_document`` with its own progress bar and its own
result (indexed, replaced, unchanged, or the problem in plain words), with the scope chosen for
them (company-wide, products', a third party's); or add a folder of this computer, each file in the
scope its sub-folder's name gives (a preview per sub-folder first; ``kb add --scope-folders``);
list the documents with their scopes; change a
document's scope; remove one (after a confirmation); re-index everything after the embedder or α
changed; ask any one document a question (engine/drafting/ask.py: the local model reads it and quotes
what answers, and each excerpt is shown on its page with its lines outlined); see and correct
each document's summary (an edited summary is re-embedded at once).
The answer library: import past filled questionnaires (each with its own result), its entry
count, and what its owners act on (engine/index/library.py, governance): the answers pending
approval (Approve), those past their review-by date (Renew), the near-identical questions
answered differently, each list drawn only while it is open (ui/components/lazy_expander.py);
each answer with Retire and a new owner, every action made under the workspace's reviewer name;
the review period and how accepted answers enter (a popover); an
answer written by hand (ui/components/library_entry.py, opened prefilled by the coverage report)
and the library's health (ui/components/library_pane.py, #51).
Every change is made by the engine at once; the screen keeps only what is on it."""

from __future__ import annotations

import re
import tempfile
from collections import Counter
from datetime import datetime
from pathlib import Path

import streamlit as st

from engine.app import AddReport, Summary, SummaryMethod
from engine.app.read_apart import read_apart
from engine.app.workspace import Workspace
from engine.core.scopes import FolderScopes, Scope, ScopeError, products_of, third_parties_of
from engine.core.types import DocumentInfo, IngestError, StoreDamaged
from engine.index.library import AnswerLibrary, ImportReport, language_counts
from engine.ingest import SUPPORTED_EXTENSIONS
from engine.ingest.paths import select_files
from engine.ingest.upload_names import plain_upload_name
from engine.questionnaire.formats import SUFFIXES as QUESTIONNAIRE_SUFFIXES
from ui.components import ask_pane, library_entry, library_pane
from ui.components.kb_status import embedder_changed, needs_reindex
from ui.components.lazy_expander import lazy_expander
from ui.components.messages import count, escape_md, flash, problem_text, show_flashed
from ui.components.profile_pane import profile_section
from ui.components.progress import ProgressBar
from ui.components.scope_picker import scope_picker, scope_text
from ui.components.uploads import refusal_of, upload_name
from ui.resources import workspace

# results of the last action, kept over the rerun and shown beside the button that did it
ADD_FLASH, DOCS_FLASH, REINDEX_FLASH = "kb_add_messages", "kb_docs_messages", "kb_reindex_messages"
FOLDER_FLASH = "kb_folder_messages"
NO_COMPANY_FOLDER = "(none)"
SUMMARY_FLASH = "kb_summary_messages"
LIBRARY_FLASH = "kb_library_messages"
UPLOADER_GENERATION = "kb_uploader_generation"  # a new uploader key clears the uploaded files
LIBRARY_UPLOADER_GENERATION = "kb_library_uploader_generation"
REMOVE_PENDING = "kb_remove_pending"  # the document waiting for "Yes, remove"
ASK, ASK_DOC = "kb_ask", "kb_ask_doc"  # the ask pane's keys, the document asked
FILE_TYPES = [ext.lstrip(".") for ext in SUPPORTED_EXTENSIONS]
LISTED = 20  # pending, stale and conflicting answers listed with their actions (the rest: Library health)
KIND_LABELS = {"pdf": "PDF", "docx": "Word", "sheet": "Spreadsheet", "text": "Text"}


def added_on(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso


def document_rows(docs: list[DocumentInfo]) -> list[dict]:
    return [
        {
            "Document": d.name,
            "Type": KIND_LABELS.get(d.kind.value, d.kind.value),
            "Pages": d.pages,
            "Chunks": d.chunks,
            "Added": added_on(d.added),
            "Scope": scope_text(d.scope),
        }
        for d in docs
    ]


def summary_origin(summary: Summary) -> str:
    """Who wrote a summary, in words."""
    words = count(len(summary.text.split()), "word")
    if summary.method is SummaryMethod.EDITED:
        return f"Edited by a reviewer on {added_on(summary.written)} · {words}."
    if summary.method is SummaryMethod.LLM:
        return f"Written by the language model ({escape_md(summary.model or 'local model')}) · {words}."
    return f"The document's most central sentences (no language model was used) · {words}."


def report_messages(name: str, report: AddReport) -> list[tuple[str, str]]:
    """What happened to one uploaded file, as (level, Markdown) messages."""
    shown = f"**{escape_md(name)}**"
    messages = [("error", f"Not indexed — {problem_text(e)}") for e in report.errors]
    for doc in report.added:
        size = f"{count(doc.pages, 'page')}, " if doc.pages else ""
        what = "Replaced the older version of" if doc.name in report.replaced else "Indexed"
        messages.append(("success", f"{what} **{escape_md(doc.name)}**: {size}{count(doc.chunks, 'chunk')}."))
        messages += [("warning", f"**{escape_md(doc.name)}**: {escape_md(note)}") for note in doc.notes]
    for line in report.unchanged:
        twin = re.match(r".* \(same content as (.*)\)$", line)
        where = f"the same content as **{escape_md(twin.group(1))}**" if twin else "this exact file"
        messages.append(("info", f"{shown} is unchanged: the knowledge base already holds {where}."))
    for doc in report.rescoped:
        messages.append(("success", f"**{escape_md(doc.name)}** is now {escape_md(doc.scope.label)}."))
    return messages


def index_uploads(ws: Workspace, files, scope: Scope | None = None) -> list[tuple[str, str]]:
    """Index each uploaded file (written to a temporary folder first) with its own progress bar,
    in ``scope`` (None: company-wide, and files already held keep theirs); one file's problem never
    stops the others."""
    messages: list[tuple[str, str]] = []
    with (
        st.status(f"Indexing {count(len(files), 'file')}…", expanded=True) as box,
        tempfile.TemporaryDirectory(prefix="rfp-upload-") as tmp,
    ):
        failed = 0
        for i, upload in enumerate(files):
            try:  # a plain file name (no folders, control characters; capped), or a refusal in one line
                plain = plain_upload_name(upload_name(upload.name))
            except IngestError as exc:
                failed += 1
                messages.append(("error", f"Not indexed — {problem_text(exc)}"))
                continue
            name = plain.name
            if plain.changed:
                messages.append(("warning", escape_md(plain.note())))
            bar = ProgressBar(name)
            try:
                path = Path(tmp) / str(i) / name
                path.parent.mkdir()
                path.write_bytes(upload.getvalue())
                report = ws.add_document(path, name, bar, scope=scope)
            except Exception as exc:  # a store-wide problem (e.g. built with another embedder), a full disk
                report = AddReport(
                    errors=[IngestError(name, str(exc).rstrip("."), "fix that and index the file again")]
                )
            failed += bool(report.errors)
            bar.done(f"{name}: {'not indexed' if report.errors else 'done'}")
            messages += report_messages(name, report)
        box.update(
            label=f"Indexed {len(files) - failed} of {len(files)} files",
            expanded=False,
            state="error" if failed else "complete",
        )
    return messages


def folder_files(root: Path) -> tuple[list[Path], Counter]:
    """The files under ``root`` the knowledge base reads (engine/ingest/paths.py: no links, no
    hidden files), and how many files of each other type are left out."""
    found = [f for f, _ in select_files([root]).files]
    files = [f for f in found if f.suffix.lower() in SUPPORTED_EXTENSIONS]
    return files, Counter(f.suffix.lower() or "no extension" for f in found if f not in files)


def folder_messages(root: Path, report: AddReport) -> list[tuple[str, str]]:
    """What adding a folder did, as (level, Markdown) messages: one line for what was indexed,
    one per refused file, and the count of the refused ones."""
    chunks = sum(d.chunks for d in report.added)
    done = [f"indexed {count(len(report.added), 'document')} ({count(chunks, 'chunk')})"]
    if report.unchanged:
        done.append(f"{count(len(report.unchanged), 'file')} unchanged or a copy of another")
    if report.rescoped:
        done.append(f"{count(len(report.rescoped), 'scope')} changed")
    messages = [("success", f"**{escape_md(root)}**: " + ", ".join(done) + ".")]
    messages += [("error", f"Not indexed — {problem_text(e)}") for e in report.errors]
    if report.errors:
        names = ", ".join(escape_md(e.file) for e in report.errors)
        messages.append(("warning", f"{count(len(report.errors), 'file')} refused: {names}."))
    return messages


def folder_section(ws: Workspace, blocked: bool) -> None:
    """Add a folder of this computer, each file in its sub-folder's scope (``FolderScopes``):
    the folder's path, which sub-folder is company-wide and which are third parties', a preview
    of the scope per sub-folder, then one ``Workspace.add_files`` for them all."""
    with st.expander(
        "Add a folder from this computer, a scope per sub-folder", expanded=FOLDER_FLASH in st.session_state
    ):
        st.caption(
            "Each file's scope is the name of the folder that holds it: the company-wide folder's files "
            "are company-wide, a third party's folder's files that third party's, and every other folder's "
            "files that product's (a file in two product folders belongs to both). The same as "
            "`python -m engine kb add FOLDER --scope-folders`."
        )
        show_flashed(FOLDER_FLASH)
        typed = st.text_input("Folder", key="kb_folder_path", placeholder="/home/me/Security package")
        if not typed.strip():
            return
        root = Path(typed.strip()).expanduser()
        if not root.is_dir():
            st.error(f"**{escape_md(root)}** is not a folder on this computer.", icon=":material/folder_off:")
            return
        files, others = folder_files(root)
        if not files:
            st.info(f"**{escape_md(root)}** holds no file the knowledge base reads.")
            return
        names = sorted({f.parent.name for f in files})
        company = st.selectbox("Company-wide folder", [NO_COMPANY_FOLDER, *names], key="kb_folder_company")
        third = st.multiselect(
            "Third parties' folders", [n for n in names if n != company], key="kb_folder_third_parties"
        )
        try:
            folders = FolderScopes(None if company == NO_COMPANY_FOLDER else company, tuple(third))
            plan = folders.folders(files)
        except ScopeError as exc:  # a folder name no scope can have (too long, control characters)
            st.error(escape_md(exc))
            return
        st.dataframe(
            [{"Folder": name, "Scope": scope_text(scope), "Files": n} for name, scope, n in plan],
            hide_index=True,
            width="stretch",
        )
        if others:
            kinds = ", ".join(f"{escape_md(ext)} ×{n}" for ext, n in sorted(others.items()))
            st.caption(
                f"Left out: {count(sum(others.values()), 'file')} of types the knowledge base does not read ({kinds})."
            )
        if st.button(f"Add {count(len(files), 'file')}", icon=":material/create_new_folder:", disabled=blocked):
            bar = ProgressBar(root.name)
            try:
                report = ws.add_files(files, bar, folders=folders)
            except Exception as exc:  # a store-wide problem (built with another embedder), a full disk
                flash(FOLDER_FLASH, "error", f"Nothing was added from **{escape_md(root)}**. {problem_text(exc)}")
            else:
                bar.done(f"{root.name}: done")
                for level, text in folder_messages(root, report):
                    flash(FOLDER_FLASH, level, text)
            st.rerun()


def import_report_message(report: ImportReport) -> tuple[str, str]:
    skipped = f", {count(report.skipped, 'unanswered question')} skipped" if report.skipped else ""
    verb = "Replaced the earlier import of" if report.replaced else "Imported"
    return "success", f"{verb} **{escape_md(report.file)}**: {count(report.entries, 'answer')}{skipped}."


def import_past_answers(library: AnswerLibrary, files) -> list[tuple[str, str]]:
    """Import each uploaded questionnaire (under its own name, from a temporary folder) with its
    own progress bar; one file's problem never stops the others."""
    messages: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory(prefix="rfp-library-") as tmp:
        for i, upload in enumerate(files):
            try:  # a plain file name (no folders, control characters; capped), or a refusal in one line
                plain = plain_upload_name(upload_name(upload.name))
            except IngestError as exc:
                messages.append(("error", f"Not imported — {problem_text(exc)}"))
                continue
            name = plain.name
            if plain.changed:
                messages.append(("warning", escape_md(plain.note())))
            bar = ProgressBar(name)
            try:  # an upload has no path: the same name (or the same bytes) replaces an earlier import
                path = Path(tmp) / str(i) / name
                path.parent.mkdir()
                path.write_bytes(upload.getvalue())
                # read apart from the server first, within a memory ceiling and a time limit (#56)
                read_apart(name, "engine.questionnaire.formats:read_questionnaire", path)
                messages.append(import_report_message(library.import_file(path, bar, source=f"upload:{name}")))
            except Exception as exc:  # FileProblem: the file, the problem and the fix
                messages.append(("error", f"Not imported — {problem_text(exc)}"))
            bar.done(f"{name}: done")
    return messages


def library_action(act, said) -> None:
    """``act()`` (a library change) and its success line ``said(entry)``, or its problem in one
    line (a bad name or date, an entry gone, a role that may not: nothing was changed)."""
    try:
        e = act()
    except Exception as exc:  # ValueError, NotAllowed, LibraryStoreError: the message says why
        flash(LIBRARY_FLASH, "error", problem_text(exc))
        return
    flash(LIBRARY_FLASH, "success", said(e))


def retire(library: AnswerLibrary, entry_id: int, by: str | None = None) -> None:
    library_action(
        lambda: library.retire(entry_id, by),
        lambda e: f"Retired the answer of **{escape_md(e.file)}**, row {e.row}: it is no longer reused.",
    )


def approve(library: AnswerLibrary, entry_id: int, by: str) -> None:
    library_action(
        lambda: library.approve(entry_id, by),
        lambda e: f"Approved the answer of **{escape_md(e.file)}**, row {e.row}: it is reused now.",
    )


def renew(library: AnswerLibrary, entry_id: int, by: str) -> None:
    library_action(
        lambda: library.renew(entry_id, by),
        lambda e: f"Renewed the answer of **{escape_md(e.file)}**, row {e.row}: due on {e.review_by}.",
    )


def set_owner(library: AnswerLibrary, entry_id: int, by: str, field: str) -> None:
    """The owner typed in the entry's ``field`` (an empty or bad name: its one line, nothing changed)."""
    library_action(
        lambda: library.set_owner(entry_id, st.session_state.get(field, ""), by),
        lambda e: f"**{escape_md(e.owner)}** owns the answer of **{escape_md(e.file)}**, row {e.row}.",
    )


def entry_text(e) -> str:
    """One library answer as listed: choice, where from, owner, review-by date, the text."""
    where = f"{escape_md(e.file)}, sheet {escape_md(e.sheet)}, row {e.row}" + (f", {escape_md(e.qid)}" if e.qid else "")
    head = f"**{escape_md(e.choice)}** · " if e.choice else ""
    owner = escape_md(e.owner) if e.owner else "no owner"
    return (
        f"{head}{where} · {owner} · review by {e.review_by}"
        + (f"  \n{escape_md(e.question[:160])}" if e.question else "")
        + (f"  \n_{escape_md(e.answer[:200])}_" if e.answer else "")
    )


def entry_actions(library: AnswerLibrary, e, by: str, drafting: bool, main: str | None = None) -> None:
    """An answer with its actions: ``main`` (Approve or Renew) when given, Retire, a new owner.
    An answer may be listed twice (stale and conflicting): the keys name the list (``main``)."""
    text, *acts = st.columns([6, 1, 1, 1] if main else [6, 1, 1], vertical_alignment="center")
    text.markdown(entry_text(e))
    part = f"{main.lower()}_" if main else ""
    if main == "Approve":
        acts.pop(0).button("Approve", key=f"library_approve_{e.id}", on_click=approve, args=(library, e.id, by))
    elif main == "Renew":
        acts.pop(0).button("Renew", key=f"library_renew_{e.id}", on_click=renew, args=(library, e.id, by))
    acts[0].button(
        "Retire", key=f"library_{part}retire_{e.id}", on_click=retire, args=(library, e.id, by), disabled=drafting
    )
    field = f"library_{part}owner_{e.id}"
    with acts[1].popover("Owner"):
        st.text_input("New owner", value=e.owner or "", key=field)
        st.button(
            "Set owner", key=f"library_{part}set_owner_{e.id}", on_click=set_owner, args=(library, e.id, by, field)
        )


def save_policy(ws: Workspace) -> None:
    """The review period and admission from the popover, saved to the workspace's settings."""
    try:
        settings = ws.settings.changed(
            review_months=int(st.session_state["library_review_months"]),
            admission=st.session_state["library_admission"],
        )
        ws.apply_settings(settings)
    except (ValueError, RuntimeError) as exc:  # SettingsError, or drafting running
        flash(LIBRARY_FLASH, "error", escape_md(str(exc)))
        return
    flash(LIBRARY_FLASH, "success", "Saved the library's review period and approval.")


def policy_popover(ws: Workspace, drafting: bool) -> None:
    policy = ws.settings.library
    with st.popover("Review period and approval", icon=":material/event_repeat:"):
        st.number_input(
            "Months before an answer is due for review",
            min_value=1,
            max_value=120,
            value=policy.review_months,
            key="library_review_months",
            help="Counted from its questionnaire's date (or from when it was last renewed).",
        )
        st.radio(
            "Answers accepted on the Review screen",
            ["immediate", "approval"],
            index=1 if policy.approval else 0,
            key="library_admission",
            format_func=lambda a: (
                "reused at once" if a == "immediate" else "pending until their owner or a lead approves"
            ),
        )
        st.button("Save", key="library_policy_save", on_click=save_policy, args=(ws,), disabled=drafting)


def _hide_excerpt() -> None:
    st.session_state.pop(ask_pane.shown_key(ASK), None)


def ask_section(ws, names: list[str]) -> None:
    """Ask any one document; the chosen excerpt is shown on its page below the answer."""
    st.subheader("Ask a document")
    st.caption(
        "The local model reads the whole document (no search index) and quotes the sentences that "
        "answer; each quote is found in the document and shown with the sentences around it."
    )
    if st.session_state.get(ASK_DOC) not in names:
        st.session_state[ASK_DOC] = names[0]
    doc = st.selectbox("Document to ask", names, key=ASK_DOC, on_change=_hide_excerpt)
    ask_pane.ask_form(ws, doc, key=ASK)
    excerpt = ask_pane.shown_excerpt(ws, ASK, doc)
    if excerpt is not None:
        ask_pane.show_excerpt(ws, excerpt, key="kb_ask_pdf")


def answer_library_section(ws: Workspace, library: AnswerLibrary, drafting: bool) -> None:
    st.subheader("Answer library")
    admitted = (
        "are added as pending: none is reused until its owner or a lead approves it."
        if library.policy.approval
        else "are added automatically."
    )
    st.caption(
        "Past filled questionnaires. A question that matches a past one closely gets its past answer "
        "(marked reused); related past answers are shown to the model as context. Answers you accept "
        f"or edit on the Review screen {admitted} Each answer is due for review "
        f"{count(library.policy.review_months, 'month')} after its questionnaire's date."
    )
    policy_popover(ws, drafting)
    generation = st.session_state.setdefault(LIBRARY_UPLOADER_GENERATION, 0)
    files = st.file_uploader(
        "Import past questionnaires",
        type=[s.lstrip(".") for s in QUESTIONNAIRE_SUFFIXES],
        accept_multiple_files=True,
        key=f"library_uploader_{generation}",
        help="Filled questionnaires (.xlsx, .xlsm, .csv, Word .docx/.docm or PDF: a filled form, or a flat PDF whose "
        "tables hold the answers, such as a CAIQ). Importing a file with the same name again replaces its answers.",
    )
    if (
        bad_upload := refusal_of(files)
    ) is not None:  # a name Streamlit's uploader refused (a NUL): words, no traceback
        flash(LIBRARY_FLASH, "error", bad_upload.message())
        st.session_state[LIBRARY_UPLOADER_GENERATION] = generation + 1  # a new key empties the uploader
        st.rerun()
    if st.button("Import", icon=":material/history_edu:", disabled=not files or drafting):
        for level, text in import_past_answers(library, files):
            flash(LIBRARY_FLASH, level, text)
        ws.back_up()  # a snapshot of the library after an import (a failure is the app's warning line)
        st.session_state[LIBRARY_UPLOADER_GENERATION] = generation + 1
        st.rerun()
    show_flashed(LIBRARY_FLASH)
    entries = library.entries()
    pending = library.pending()
    if not entries and not pending:
        st.caption("The library is empty.")
        return
    sources = {e.file for e in entries}
    st.caption(f"{count(len(entries), 'answer')} from {count(len(sources), 'questionnaire')}.{written_in(entries)}")
    by = ws.reviewer
    # each list is drawn only while open (ui/components/lazy_expander.py): 20 answers with their
    # actions are ≈ 200 widgets, and most openings of this screen want something else
    if pending:
        label = f"Pending approval — {count(len(pending), 'answer')}"
        with lazy_expander(label, "library_pending_open", icon=":material/pending_actions:") as shown:
            if shown:
                for e in pending[:LISTED]:
                    entry_actions(library, e, by, drafting, "Approve")
                more_below(len(pending))
    stale = library.stale()
    if stale:
        label = f"Past their review-by date — {count(len(stale), 'answer')}"
        with lazy_expander(label, "library_stale_open", icon=":material/event_busy:") as shown:
            st.caption("Still reused, and each draft that reuses one says so. Renew an answer once it is checked.")
            if shown:
                for e in stale[:LISTED]:  # the most overdue first
                    entry_actions(library, e, by, drafting, "Renew")
                more_below(len(stale))
    conflicts = library.conflicts()
    if not conflicts:
        return
    st.warning(
        f"{count(len(conflicts), 'question')} answered differently in near-identical past questions. "
        "Retire the answers that should not be reused.",
        icon=":material/rule:",
    )
    for c in conflicts[:LISTED]:
        tally = " · ".join(f"{escape_md(choice)} ×{n}" for choice, n in c.choices.items())
        label = f"{escape_md(c.question[:110])} — {tally}"
        with lazy_expander(label, f"library_conflict_open_{c.entries[0].id}") as shown:
            if shown:
                for e in c.entries:
                    entry_actions(library, e, by, drafting)
    more_below(len(conflicts), "questions")


def written_in(entries) -> str:
    """The languages the library's answers are written in, with their counts (issue #58), when one
    of them is another than English: " Written in English (1,212), German (3)."; else nothing."""
    languages = language_counts(entries)
    if not set(languages) - {"English", "unknown"}:
        return ""
    return " Written in " + ", ".join(f"{escape_md(name)} ({n:,})" for name, n in languages.items()) + "."


def more_below(n: int, what: str = "answers") -> None:
    """Past the first :data:`LISTED` (each with its actions: a thousand would take the screen a
    minute to draw), where the rest are: the library's health, filtered, below."""
    if n > LISTED:
        st.caption(
            f"The first {LISTED} of {n} {what}. *Library health* below lists every one, with filters, and its "
            "*Owner's queue* marks several reviewed at once."
        )


def library_sections(ws: Workspace, products: list[str], drafting: bool) -> None:
    """The answer library and the profiles learned from it; a damaged library is its one line
    (file, problem, ``restore``), never a traceback, and never shown as an empty library."""
    try:
        library = ws.library
    except StoreDamaged as exc:  # LibraryStoreDamaged: nothing was written to it
        st.subheader("Answer library")
        st.error(f"The answer library cannot be opened: {problem_text(exc)}", icon=":material/error:")
        return
    answer_library_section(ws, library, drafting)
    if not library_entry.opened():  # else drawn at the top of the screen, where the coverage report sent the reader
        library_entry.entry_form(library, ws.products(), ws.reviewer, LIBRARY_FLASH, drafting)
    library_pane.health_section(ws, library, drafting)  # #51: freshness, reuse, owners' queues
    profile_section(library, ws.profile(), products, drafting)


st.title("Knowledge base")
st.caption(
    "The documents every answer is drafted from: security policies, product documentation, "
    "certifications, past answered questionnaires. They stay on this computer."
)
ws = workspace()
try:
    docs = ws.documents()
except Exception as exc:  # a damaged or locked store: the engine's message says what to do
    st.error(f"The knowledge base cannot be opened: {problem_text(exc)}")
    st.stop()

drafting = [p.name for p in ws.projects() if ws.jobs.running(p.id)]
if drafting:
    st.warning(
        f"Drafting is running for {escape_md(', '.join(drafting))}. The knowledge base can be changed "
        "once it has finished or been stopped (on the Questionnaire screen).",
        icon=":material/hourglass_top:",
    )
    st.page_link("screens/questionnaire.py", label="Go to the Questionnaire screen", icon=":material/upload_file:")

if library_entry.opened():  # "Write a library answer" of the coverage report (#51): its form first
    library_entry.entry_form(ws.library, ws.products(), ws.reviewer, LIBRARY_FLASH, bool(drafting))
    show_flashed(LIBRARY_FLASH)

reason = needs_reindex(ws.index_manifest(), ws.settings)
if reason:
    st.warning(
        f"Re-index the knowledge base (button at the bottom): {escape_md(reason)}.", icon=":material/sync_problem:"
    )

# ---- add documents ---------------------------------------------------------------------------------
st.subheader("Add documents")
generation = st.session_state.setdefault(UPLOADER_GENERATION, 0)
files = st.file_uploader(
    "Files to add",
    type=FILE_TYPES,
    accept_multiple_files=True,
    key=f"kb_uploader_{generation}",
    help="PDF, Word (.docx), Excel (.xlsx/.xlsm) or CSV, Markdown or text files. A file with the "
    "same name as a document already here replaces it.",
)
if (bad_upload := refusal_of(files)) is not None:  # a name Streamlit's uploader refused (a NUL): words, no traceback
    flash(ADD_FLASH, "error", bad_upload.message())
    st.session_state[UPLOADER_GENERATION] = generation + 1  # a new key empties the uploader
    st.rerun()
add_scope = scope_picker("kb_add_scope", products_of(docs), third_parties_of(docs))
st.caption(
    "The scope: whose evidence these files are. A file the knowledge base already holds gets a product "
    "or third-party scope chosen here (a product is added to its products); with Company-wide it keeps "
    "its scope (change it below)."
)
if st.button(
    "Index files",
    type="primary",
    icon=":material/upload:",
    disabled=not files or bool(drafting) or embedder_changed(ws.index_manifest(), ws.settings) or add_scope is None,
):
    for level, text in index_uploads(ws, files, None if add_scope.company else add_scope):
        flash(ADD_FLASH, level, text)
    st.session_state[UPLOADER_GENERATION] = generation + 1
    st.rerun()
show_flashed(ADD_FLASH)
folder_section(ws, bool(drafting) or embedder_changed(ws.index_manifest(), ws.settings))

# ---- the documents -------------------------------------------------------------------------------
st.subheader("Documents")
docs = ws.documents()
show_flashed(DOCS_FLASH)
if not docs:
    st.info(
        "The knowledge base is empty. Add your security policies, product and architecture "
        "documents, certifications and past answered questionnaires above: drafts are written only "
        "from these documents, and every answer cites the page it came from.",
        icon=":material/lightbulb:",
    )
    library_sections(ws, [], bool(drafting))
    st.stop()

total_chunks = sum(d.chunks for d in docs)
st.caption(f"{count(len(docs), 'document')}, {count(total_chunks, 'chunk')} indexed.")
st.dataframe(
    document_rows(docs),
    hide_index=True,
    width="stretch",
    column_config={
        "Pages": st.column_config.NumberColumn(format="%d"),
        "Chunks": st.column_config.NumberColumn(format="%d"),
    },
)

with st.container(border=True):
    by_name = {d.name: d for d in docs}
    chosen = by_name[st.selectbox("Change the scope of a document", list(by_name), key="kb_scope_choice")]
    scope = scope_picker(
        f"kb_scope_{chosen.doc_hash}", products_of(docs), third_parties_of(docs), chosen.scope, disabled=bool(drafting)
    )
    if st.button("Save scope", icon=":material/label:", disabled=bool(drafting) or scope in (None, chosen.scope)):
        ws.set_scopes({chosen.name: scope})
        flash(DOCS_FLASH, "success", f"**{escape_md(chosen.name)}** is now {escape_md(scope.label)}.")
        st.rerun()

with st.container(border=True):
    names = [d.name for d in docs]
    pending = st.session_state.get(REMOVE_PENDING)
    if pending in names:
        st.warning(
            f"Remove **{escape_md(pending)}** from the knowledge base? Answers already drafted keep "
            "their citations; new drafts will not use it.",
            icon=":material/delete:",
        )
        yes, no, _ = st.columns([1, 1, 4])
        if yes.button("Yes, remove", type="primary", disabled=bool(drafting)):
            bar = ProgressBar(f"Removing {pending}")
            try:
                ws.remove_document(pending, bar)
            except Exception as exc:
                flash(DOCS_FLASH, "error", f"**{escape_md(pending)}** was not removed. {problem_text(exc)}")
            else:
                flash(DOCS_FLASH, "success", f"Removed **{escape_md(pending)}**.")
            st.session_state.pop(REMOVE_PENDING, None)
            st.rerun()
        if no.button("Cancel"):
            st.session_state.pop(REMOVE_PENDING, None)
            st.rerun()
    else:
        choice, button = st.columns([4, 1], vertical_alignment="bottom")
        target = choice.selectbox("Remove a document", names, key="kb_remove_choice")
        if button.button("Remove…", icon=":material/delete:", disabled=bool(drafting)):
            st.session_state[REMOVE_PENDING] = target
            st.rerun()

# ---- summaries -------------------------------------------------------------------------------------
st.subheader("Summaries")
st.caption(
    "One summary per document. The summary retrieval mode picks the documents whose summaries match a "
    "question best, then reads their best passages with the summaries as context. Correct a summary "
    "here: it is used (re-embedded) from the next question on, and never rewritten by the model."
)
show_flashed(SUMMARY_FLASH)
summary_doc = st.selectbox("Document", names, key="kb_summary_choice")
try:
    summary = ws.summary(summary_doc)
except Exception as exc:
    st.error(f"The summary cannot be read: {problem_text(exc)}")
else:
    st.caption(summary_origin(summary))
    doc_hash = ws.document_hash(summary_doc)
    new_text = st.text_area("Summary", summary.text, height=180, key=f"kb_summary_{doc_hash}_{summary.text_sha[:12]}")
    if st.button(
        "Save summary", icon=":material/save:", disabled=bool(drafting) or " ".join(new_text.split()) == summary.text
    ):
        try:
            ws.edit_summary(summary_doc, new_text)
        except Exception as exc:
            flash(
                SUMMARY_FLASH,
                "error",
                f"The summary of **{escape_md(summary_doc)}** was not saved. {problem_text(exc)}",
            )
        else:
            flash(
                SUMMARY_FLASH,
                "success",
                f"Saved the summary of **{escape_md(summary_doc)}**; it is used from the next question on.",
            )
        st.rerun()

# ---- ask a document ----------------------------------------------------------------------------------
st.fragment(ask_section)(ws, [d.name for d in docs])

# ---- re-index --------------------------------------------------------------------------------------
st.subheader("Re-index")
st.caption(
    "Rebuilds the index from the stored copies of the documents with the current settings "
    "(needed after changing the embedder or α on the Settings screen)."
)
if st.button("Re-index", icon=":material/sync:", type="primary" if reason else "secondary", disabled=bool(drafting)):
    bar = ProgressBar("Re-indexing")
    try:
        ws.reindex(bar)
    except Exception as exc:
        flash(REINDEX_FLASH, "error", f"Re-indexing failed; the previous index is kept. {problem_text(exc)}")
    else:
        flash(REINDEX_FLASH, "success", f"Re-indexed {count(len(docs), 'document')}.")
    st.rerun()
show_flashed(REINDEX_FLASH)

# ---- the answer library ------------------------------------------------------------------------------
library_sections(ws, sorted({p for d in docs for p in d.scope.products}), bool(drafting))
