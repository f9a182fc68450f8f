"""Progress for the engine's long operations: a ``progress(stage, done, total)`` callback drawn
as a Streamlit progress bar, and durations in plain words."""

from __future__ import annotations

import streamlit as st

from ui.components.messages import escape_md

STAGE_WORDS = {  # the engine's stage names, as a reviewer reads them
    "reading": "Reading",
    "fitting TF-IDF": "Fitting the keyword model",
    "encoding": "Encoding passages",
    "indexing": "Writing the index",
    "summarising": "Summarising the documents",
    "encoding atoms": "Encoding sentences",
    "writing questions": "Writing questions per sentence",
}


class ProgressBar:
    """A ``progress(stage, done, total)`` callback that moves an ``st.progress`` bar in place.

    The bar shows the current stage and how far it is (the engine reports each stage from
    0 to its own total); ``prefix`` names what is being worked on (a file name), shown as text
    like the text given to :meth:`done`."""

    def __init__(self, prefix: str = "", container=None) -> None:
        self.prefix = prefix
        self.bar = (container or st).progress(0.0, text=self._text("Starting", 0, 0))

    def _text(self, stage: str, done: int, total: int) -> str:
        words = STAGE_WORDS.get(stage, stage[:1].upper() + stage[1:])
        count = f" {done}/{total}" if total > 1 else ""
        return f"{escape_md(self.prefix)}: {words}{count}" if self.prefix else f"{words}{count}"

    def __call__(self, stage: str, done: int, total: int) -> None:
        fraction = min(max(done / total, 0.0), 1.0) if total else 1.0
        self.bar.progress(fraction, text=self._text(stage, done, total))

    def done(self, text: str) -> None:
        self.bar.progress(1.0, text=escape_md(text))


def duration(seconds: float | None) -> str:
    """``42 s``, ``3 min``, ``1 h 05 min``; an empty string for an unknown duration."""
    if seconds is None:
        return ""
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"
