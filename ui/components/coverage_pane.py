"""The coverage report on the Export screen (#51, engine/review/reports/coverage.py): what the
questionnaire's answers rest on (by source, by section, per row), its gaps grouped by topic and
ranked across every questionnaire of the workspace — each topic with *Open in Review* and *Write a
library answer* (the Knowledge base screen's entry form, prefilled with the topic's accepted
answers: ui/components/library_entry.py) — the trends across questionnaires as a chart, the
acceptance rate by source, and the report as XLSX and HTML. Every figure opens its rows in Review
(ui/components/review_focus.py)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from engine.app.workspace import Workspace
from engine.review.reports import CoverageReport, Topic
from ui.components import cached_questionnaire
from ui.components.library_entry import prefill
from ui.components.messages import count, escape_md
from ui.components.report_tables import downloads, figure_rows, figure_table
from ui.components.review_focus import open_rows

CHART = ("Accepted unchanged", "Edited", "Rejected", "Needs SME")


def coverage_section(ws: Workspace, pid: int) -> None:
    """The coverage report of questionnaire ``pid``, read now."""
    st.subheader("Coverage")
    report = ws.coverage_report(pid, read=lambda p: cached_questionnaire.questionnaire(ws, p))
    for why in report.skipped:
        st.caption(f":orange[:material/warning:] Left out of the topics and trends (cannot be read): {escape_md(why)}")
    names = {t.project.id: t.project.name for t in report.trends}
    tables = {t.name: t for t in report.tables()}
    gaps = report.gaps()
    sourced = sum(r.basis.sourced for r in report.rows)
    st.caption(
        f"{count(sourced, 'row')} of {len(report.rows)} rest on a source; {count(len(gaps), 'row')} "
        f"{'is a gap' if len(gaps) == 1 else 'are gaps'} (no source, rejected, rewritten or assigned to an expert). "
        "Select a figure to see its rows and open them in Review."
    )
    tabs = st.tabs(["Gaps by topic", "By source", "By section", "Trends", "Rows"])
    with tabs[0]:
        _topics(report, names)
    for tab, name in zip(tabs[1:3], ("By source", "By section")):
        with tab:
            _figures(tables[name], f"coverage_{name}", names, pid)
    with tabs[1]:  # the texts apart from the choices (#59)
        _figures(tables["Texts by source"], "coverage_texts", names, pid)
    with tabs[3]:
        _trends(report, tables, names, pid)
    with tabs[4]:
        _figures(tables["Rows"], "coverage_rows", names, pid, height=420)
    stem = f"{report.project.name} coverage"
    downloads(f"Coverage of {report.project.name}", list(tables.values()), stem, "coverage_download")


def _figures(table, key: str, names: dict[int, str], pid: int, height: int | str = "auto") -> None:
    figure = figure_table(table, key, height)
    if figure is not None:
        figure_rows(figure, f"{key}_open", names, pid)


def _topics(report: CoverageReport, names: dict[int, str]) -> None:
    if not report.topics:
        st.caption("No gap: every row rests on a source, and no reviewer rejected, rewrote or assigned one.")
        return
    st.caption(
        "The gap rows of every questionnaire of the workspace grouped by topic (their questions' key terms), "
        "ranked by how many fall in each: write one library answer and the next questionnaires reuse it."
    )
    pid = report.project.id
    for rank, topic in report.topics:
        with st.container(border=True):
            _topic(rank, topic, pid, names, report.project.product)


def _topic(rank: int, topic: Topic, pid: int, names: dict[int, str], product: str | None) -> None:
    here = topic.of(pid)
    reasons = " · ".join(f"{g.label} {n}" for g, n in topic.reasons().items())
    others = len(topic.questionnaires) - 1
    st.markdown(
        f"**#{rank} {escape_md(topic.name)}** — {count(len(here), 'row')} here, {len(topic.rows)} in "
        f"{count(len(topic.questionnaires), 'questionnaire')} · {reasons}"
    )
    st.caption(
        " · ".join(escape_md(f"{r.label}: {r.question[:90]}") for r in here[:3]) + (" …" if len(here) > 3 else "")
    )
    left, middle, right = st.columns([2, 2, 3])
    keys = [r.key for r in here]
    if left.button(f"Open {count(len(keys), 'row')} in Review", key=f"coverage_topic_open_{rank}",
                   icon=":material/open_in_new:", on_click=open_rows,
                   args=(pid, keys, f"gap topic {topic.name}")):  # fmt: skip
        st.switch_page("screens/review.py")
    if middle.button("Write a library answer", key=f"coverage_topic_write_{rank}", icon=":material/edit_note:",
                     on_click=prefill, args=(topic.entry(), product)):  # fmt: skip
        st.switch_page("screens/knowledge_base.py")
    if others:
        with right.popover(f"In {count(others, 'other questionnaire')}", icon=":material/list:"):
            for other in topic.questionnaires:
                rows = [r for r in topic.rows if r.questionnaire == other and r.project_id != pid]
                if rows and st.button(f"Open {count(len(rows), 'row')} of {other}", key=f"coverage_topic_{rank}_{other}",
                                      on_click=open_rows, args=(rows[0].project_id, [r.key for r in rows],
                                                                f"gap topic {topic.name}")):  # fmt: skip
                    st.switch_page("screens/review.py")


def _trends(report: CoverageReport, tables: dict, names: dict[int, str], pid: int) -> None:
    trends = tables["Trends"]
    chart = pd.DataFrame(
        {c: [f.value for f in trends.column(c)] for c in CHART}, index=[str(n) for n in trends.column("Questionnaire")]
    )
    st.caption("The drafts each questionnaire's reviewers decided, by what they did.")
    st.bar_chart(chart, horizontal=True, height=max(160, 60 * len(chart)), stack=True)
    _figures(trends, "coverage_trends", names, pid)
    st.markdown("**Acceptance by source**")
    _figures(tables["Acceptance by source"], "coverage_acceptance", names, pid)
