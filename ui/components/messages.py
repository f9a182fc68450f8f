"""Plain-words messages: Markdown-safe text, the engine's file problems as sentences, and
"flash" messages that survive the rerun after an action (kept in ``st.session_state`` under a
screen's key, shown once)."""

from __future__ import annotations

import re

import streamlit as st

from engine.types import FileProblem

LEVELS = ("success", "info", "warning", "error")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|$~]|:(?=[A-Za-z]))")  # special mid-line; ":red[…]", ":material/…:", ":smile:"


def escape_md(text: str) -> str:
    """Text shown as Markdown exactly as written, on one line: no accidental bold, links, LaTeX,
    colour directives (``:red[…]``) or icons (file names hold ``_``, ``*``, ``$``, ``:``…)."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(text or "").split()))


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
