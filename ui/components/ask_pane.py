"""Ask one document (engine/drafting/ask.py) from a screen: the question box; while the model reads the
document, its progress and a Cancel button; then the answer and its excerpts. The excerpt the
reviewer picks is shown in the screen's source viewer with its sentences outlined (the same
viewer and boxes as a citation: ``show_excerpt``) and, on the Review screen, can be added to the
draft's citations with one click.

The ask runs in a background thread of the workspace's ``AskService``; the session keeps only
the run's id and the excerpt on show (UI state). A finished ask is kept by the service for the
life of the app process; what a reviewer adds to a draft is written to the review store."""

from __future__ import annotations

from typing import Callable

import streamlit as st

from engine.core.types import SourceKind
from engine.drafting.ask import NOTHING, AskOptions, AskRun, Excerpt
from ui.components.messages import count, escape_md, problem_text
from ui.components.pdf_pane import show_pdf_citation
from ui.components.progress import duration
from ui.components.source_text import show_text_citation

POLL_S = 1.0  # how often a running ask refreshes its progress
EXCERPT_PREVIEW = 280  # characters of an excerpt shown in the list


def run_key(key: str) -> str:
    return f"{key}:ask_run"


def shown_key(key: str) -> str:
    return f"{key}:ask_shown"


def question_key(key: str, doc: str) -> str:
    return f"{key}:ask_question:{doc}"


def current_run(ws, key: str, doc: str | None) -> AskRun | None:
    """This session's last ask of ``doc`` under ``key`` (None: none, or of another document)."""
    run = ws.asks.run(st.session_state.get(run_key(key)))
    return run if run is not None and doc is not None and run.file == doc else None


def shown_excerpt(ws, key: str, doc: str | None) -> Excerpt | None:
    """The excerpt of the last ask of ``doc`` the reviewer chose to see, if any."""
    run = current_run(ws, key, doc)
    number = st.session_state.get(shown_key(key))
    if run is None or run.result is None or number is None:
        return None
    return next((e for e in run.result.excerpts if e.number == number), None)


def show_excerpt(ws, excerpt: Excerpt, *, key: str, head=None) -> None:
    """The excerpt in the source viewer: its page(s) with its lines outlined (PDF), or its
    section / row with the text marked."""
    head = head if head is not None else st.container()
    citation = excerpt.citation()
    head.caption(
        f":material/quick_reference_all: Asked excerpt **[{excerpt.number}]** of **{escape_md(excerpt.file)}**"
        + (f", {escape_md(excerpt.where())}" if excerpt.where() else "")
    )
    if citation.kind is SourceKind.PDF:
        show_pdf_citation(ws, citation, key=key, head=head, scroll=True)  # shown from a button below the viewer
    else:
        show_text_citation(ws, citation)


def _start(ws, key: str, doc: str) -> None:
    question = st.session_state.get(question_key(key, doc), "")
    try:
        run = ws.asks.start(doc, question, AskOptions())
    except Exception as exc:  # AskError, KnowledgeBaseError, GeneratorError: file, problem and fix
        st.session_state[f"{key}:ask_error"] = problem_text(exc)
        return
    st.session_state[run_key(key)] = run.id
    st.session_state.pop(shown_key(key), None)


def _progress(ws, key: str, doc: str) -> None:
    """A running ask: its progress and Cancel; the page is drawn again when it ends."""
    run = current_run(ws, key, doc)
    if run is None or not run.running:
        st.rerun()
    parts = f"part {min(run.done + 1, run.total)} of {run.total}" if run.total > 1 else "the document"
    st.progress(
        run.done / run.total if run.total else 0.0,
        text=f"Reading {parts} of {escape_md(doc)} for “{escape_md(run.question[:80])}”…",
    )
    if st.button("Cancel", icon=":material/stop_circle:", key=f"{key}:ask_cancel"):
        run.cancel()
        st.caption("Stopping after the part being read…")


def ask_form(
    ws,
    doc: str,
    *,
    key: str,
    on_add: Callable[[Excerpt], str] | None = None,
    added: Callable[[Excerpt], bool] = lambda e: False,
) -> None:
    """The question box for ``doc``, the running ask or its result. ``on_add(excerpt)`` adds an
    excerpt to the draft's citations and returns the message to show; ``added(excerpt)`` says
    whether the draft cites it already."""
    box = question_key(key, doc)
    st.text_area(
        f"Ask {escape_md(doc)}",
        key=box,
        height=68,
        placeholder="e.g. Does it say anything about encryption keys?",
        label_visibility="collapsed",
    )
    run = current_run(ws, key, doc)
    running = run is not None and run.running
    st.button(
        "Ask this document",
        icon=":material/quick_reference_all:",
        key=f"{key}:ask_go",
        disabled=running,
        on_click=_start,
        args=(ws, key, doc),
        help=f"The local model reads {escape_md(doc)} and quotes what answers the question.",
    )
    error = st.session_state.pop(f"{key}:ask_error", None)
    if error:
        st.error(error, icon=":material/error:")
    if run is None:
        return
    if running:
        st.fragment(_progress, run_every=POLL_S)(ws, key, doc)
        return
    _result(run, key, on_add, added)


def _result(run: AskRun, key: str, on_add, added) -> None:
    if run.cancelled:
        st.info(
            f"Stopped after reading {run.done} of {count(run.total, 'part')}. Ask again to start over.",
            icon=":material/stop_circle:",
        )
        return
    if run.error:
        st.error(f"The document could not be asked. {escape_md(run.error)}", icon=":material/error:")
        return
    result = run.result
    t = result.timing
    when = (
        f"first question of this document: read {count(t.parts, 'part')}" if t.first else "its parts were read before"
    )
    if not result.found:
        dropped = (
            f" The model quoted {count(len(result.dropped), 'passage')} that {'is' if len(result.dropped) == 1 else 'are'} "
            "not in the document; nothing is highlighted."
            if result.dropped
            else ""
        )
        st.info(f"{NOTHING}{dropped}", icon=":material/search_off:")
        st.caption(f"{duration(t.seconds)} · {when}")
        return
    st.markdown(f"**Answer:** {escape_md(result.answer)}" if result.answer else "**Excerpts**")
    st.caption(f"{count(len(result.excerpts), 'excerpt')} · {duration(t.seconds)} · {when}")
    shown = st.session_state.get(shown_key(key))
    for e in result.excerpts:
        with st.container(border=True):
            cited = " · cited" if e.number in result.cited else ""
            where = f" · {escape_md(e.where())}" if e.where() else ""
            st.markdown(f"**[{e.number}]**{where} · {e.label.value}{cited}")
            text = " ".join(e.text.split())
            st.caption(escape_md(text[:EXCERPT_PREVIEW] + ("…" if len(text) > EXCERPT_PREVIEW else "")))
            left, right = st.columns(2)
            if left.button(
                "Shown" if shown == e.number else "Show on the page",
                icon=":material/visibility:",
                key=f"{key}:ask_show:{run.id}:{e.number}",
                disabled=shown == e.number,
                width="stretch",
            ):
                st.session_state[shown_key(key)] = e.number
                st.rerun()
            if on_add is not None:
                done = added(e)
                if right.button(
                    "In the citations" if done else "Add to citations",
                    icon=":material/add_link:",
                    key=f"{key}:ask_add:{run.id}:{e.number}",
                    disabled=done,
                    width="stretch",
                ):
                    st.session_state[f"{key}:ask_added"] = on_add(e)
                    st.rerun()
    message = st.session_state.pop(f"{key}:ask_added", None)
    if message:
        st.success(message, icon=":material/add_link:")
    if result.dropped:
        one = len(result.dropped) == 1
        st.caption(
            f"{count(len(result.dropped), 'quote')} the model wrote {'is' if one else 'are'} not in the "
            f"document and {'was' if one else 'were'} dropped."
        )
