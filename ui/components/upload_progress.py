"""An upload being read, on the Questionnaire screen (#57): a progress bar ("Reading page N of M
of FILE") and a Stop button while a solicitation is shredded in the background
(engine/app/upload_job.py); stopped, the requirements of the pages read are kept. A quick upload
ends within its own run (:data:`WAIT`), as before; a longer one leaves a fragment refreshing the
bar until it ends, then the page runs again with the result."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from engine.app.upload_job import UploadJob

JOB = "questionnaire_upload_job"  # the upload being read (one per session)
SHOWN = "questionnaire_upload_shown"  # its bar was shown once (the waiting is done)
WAIT = 5.0  # seconds the upload's own run waits, the bar moving, before the fragment takes over
EVERY = 0.5  # seconds between two refreshes of the bar


def reading() -> UploadJob | None:
    return st.session_state.get(JOB)


def begin(job: UploadJob) -> None:
    st.session_state[JOB] = job
    st.session_state[SHOWN] = False


def _stop(job: UploadJob) -> None:
    job.reading.stop.set()


def _bar(job: UploadJob, wait: float, finish: Callable[[UploadJob], None]) -> None:
    bar = st.progress(job.fraction(), text=job.line())
    step = min(EVERY, wait)
    while wait > 0 and not job.wait(step):
        wait -= step
        bar.progress(job.fraction(), text=job.line())
    if job.done:
        st.session_state.pop(JOB, None)
        finish(job)
        st.rerun()
    st.caption(
        "Stopped, the requirements of the pages read are kept, and the rest can be read later. The page stays "
        "usable meanwhile."
    )


@st.fragment(run_every=EVERY)
def _refreshed(finish: Callable[[UploadJob], None]) -> None:
    """The bar, refreshed every :data:`EVERY` seconds; in the upload's own run it first waits up
    to :data:`WAIT` seconds (the bar moving), so a quick upload ends there."""
    job = reading()
    if job is None:
        return
    first = not st.session_state.get(SHOWN)
    st.session_state[SHOWN] = True
    _bar(job, WAIT if first else 0.0, finish)


def follow(finish: Callable[[UploadJob], None]) -> None:
    """The upload being read, if any: its bar and Stop button; ``finish(job)`` once it ended (the
    page then runs again)."""
    job = reading()
    if job is None:
        return
    # outside the fragment: a click reruns the whole page, which interrupts the upload's own run while it
    # waits (a fragment's click would wait for that run's end); the reading goes on in its thread
    st.button("Stop reading", on_click=_stop, args=(job,), icon=":material/stop_circle:", key="upload_stop")
    _refreshed(finish)


__all__ = ["JOB", "WAIT", "begin", "follow", "reading"]
