"""Plain-words messages: Markdown-safe text, the engine's file problems as sentences, and
"flash" messages that survive the rerun after an action (kept in ``st.session_state`` under a
screen's key, shown once)."""

from __future__ import annotations

import re

import streamlit as st

from engine.core.types import FileProblem

LEVELS = ("success", "info", "warning", "error")
# characters Markdown (CommonMark + GFM) or Streamlit's own Markdown read as markup anywhere in a line:
# emphasis, code, links and images, HTML and entities, tables, strikethrough, headings, LaTeX ($),
# and ":" before a letter (colour directives ":red[…]", icons ":material/…:", emoji ":smile:")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|$~#&]|:(?=[A-Za-z]))")
_MD_LINE_START = re.compile(r"^(?:([-+=])|(\d+)([.)]))")  # list items, setext underlines, numbered lists


def escape_md(text: object) -> str:
    """Text shown as Markdown exactly as written, on one line: no accidental bold, links, LaTeX,
    HTML, headings, lists, colour directives (``:red[…]``) or icons. The one helper for every
    message, toast, spinner, caption and label that holds text from a file or an upload (a
    question, an ID, a sheet, a file or document name, an error that quotes one)."""
    escaped = _MD_SPECIAL.sub(r"\\\1", " ".join(str(text or "").split()))
    return _MD_LINE_START.sub(lambda m: "\\" + m.group(1) if m.group(1) else m.group(2) + "\\" + m.group(3), escaped)


def sentence(text: str) -> str:
    """``text`` with a capital first letter and a final full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def problem_text(exc: BaseException) -> str:
    """An engine error as Markdown: **file**: problem. Fix. (other errors: their message)."""
    if isinstance(exc, FileProblem):
        return f"**{escape_md(exc.file)}**: {escape_md(sentence(exc.problem))} {escape_md(sentence(exc.fix))}"
    return escape_md(str(exc) or type(exc).__name__)


def flash(key: str, level: str, text: str) -> None:
    """Keep a message to show on the next run of the screen (after ``st.rerun``)."""
    assert level in LEVELS, level
    st.session_state.setdefault(key, []).append((level, text))


def show_flashed(key: str) -> None:
    """Show, then forget, the messages kept under ``key``."""
    for level, text in st.session_state.pop(key, []):
        getattr(st, level)(text)


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``1 question``, ``4 questions``."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
