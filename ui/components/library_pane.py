"""Library health on the Knowledge base screen (#51, engine/review/reports/library_report.py):
per entry its owner, review-by date, freshness band and reuse, with filters for each; an owner's
queue, where *Reviewed* moves the entry's review-by date on by the review period (the recurring
review); the near-identical questions answered differently (what ``library check`` lists); the
duplicates to merge (keep one, retire the others); the entries of retired products (named here,
saved in the workspace's settings); the report as XLSX and HTML. A count of uses opens the rows
that cited the entry in Review."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st

from engine.app.workspace import Workspace
from engine.index.library import AnswerLibrary
from engine.review.reports import Band, LibraryReport, Table
from ui.components.messages import count, escape_md, flash, problem_text, show_flashed
from ui.components.report_tables import downloads, figure_rows, figure_table

FLASH = "library_health_messages"


def _act(act, said: str) -> None:
    try:
        act()
    except Exception as exc:  # a damaged library, a refused permission: the engine's words
        flash(FLASH, "error", problem_text(exc))
        return
    flash(FLASH, "success", said)


def _renew(library: AnswerLibrary, entry_id: int, by: str) -> None:
    _act(
        lambda: library.renew(entry_id, by),
        f"Entry #{entry_id} reviewed: due again in {library.policy.review_months} months.",
    )


def _retire(library: AnswerLibrary, ids: list[int], by: str, what: str) -> None:
    _act(lambda: [library.retire(i, by) for i in ids], f"Retired {count(len(ids), 'entry', 'entries')} ({what}).")


def _save_retired(ws: Workspace) -> None:
    _act(
        lambda: ws.set_retired_products(st.session_state.get("library_health_retired") or []),
        "Saved the retired products.",
    )


def health_section(ws: Workspace, library: AnswerLibrary, drafting: bool) -> None:
    st.subheader("Library health")
    show_flashed(FLASH)
    report = ws.library_report()
    if not report.entries:
        st.caption("The library is empty.")
        return
    tables = {t.name: t for t in report.tables()}
    columns = st.columns(6)
    for column, band in zip(columns, Band):
        column.metric(band.label.capitalize(), len(report.select(bands=[band])))
    columns[4].metric("Never used", len(report.select(never_used=True)))
    columns[5].metric("Disagreeing groups", len(report.conflicts))
    by = ws.reviewer
    tabs = st.tabs(["Entries", "Owner's queue", "Reuse", "Disagreeing", "Duplicates", "Retired products"])
    with tabs[0]:
        _entries(report, tables["Entries"])
    with tabs[1]:
        _queue(report, library, by, drafting)
    with tabs[2]:
        _figures(tables["Reuse"], "library_health_reuse")
    with tabs[3]:
        _figures(tables["Disagreeing answers"], "library_health_conflicts")
    with tabs[4]:
        _duplicates(report, library, by, drafting)
    with tabs[5]:
        _retired(ws, report, library, ws.products(), by, drafting)  # the documents' products and the library's
    downloads("Answer library health", list(tables.values()), "library health", "library_health_download")


def _figures(table: Table, key: str) -> None:
    figure = figure_table(table, key)
    if figure is not None:
        figure_rows(figure, f"{key}_open", {})


def _entries(report: LibraryReport, table: Table) -> None:
    left, middle, right = st.columns([3, 2, 3])
    bands = left.multiselect("Freshness", list(Band), format_func=lambda b: b.label, key="library_health_bands",
                             placeholder="Every band")  # fmt: skip
    owners = ["", *report.owners()]
    owner = middle.selectbox("Owner", owners, key="library_health_owner", format_func=lambda o: o or "Anyone")
    flags = right.pills(
        "Only",
        ["never used", "disagreeing", "duplicate", "retired product"],
        selection_mode="multi",
        key="library_health_flags",
    )
    flags = set(flags or ())
    chosen = report.select(
        bands,
        owner or None,
        "never used" in flags,
        "disagreeing" in flags,
        "duplicate" in flags,
        "retired product" in flags,
    )
    ids = {h.entry.id for h in chosen}
    shown = replace(table, rows=tuple(r for r in table.rows if r[0] in ids))
    st.caption(f"{count(len(chosen), 'entry', 'entries')} of {len(report.entries)}.")
    _figures(shown, "library_health_entries")


def _queue(report: LibraryReport, library: AnswerLibrary, by: str, drafting: bool) -> None:
    owners = report.owners()
    mine = next((o for o in owners if o.casefold() == by.casefold()), owners[0])
    owner = st.selectbox("Whose queue", owners, index=owners.index(mine), key="library_health_queue")
    queue = report.queue(owner)
    st.caption(
        f"{count(len(queue), 'entry', 'entries')} to review: pending, due within a month or past the review-by date, "
        "disagreeing, duplicate or of a retired product. Select the ones reviewed: *Reviewed* moves their review-by "
        f"date {library.policy.review_months} months on from today (the recurring review)."
    )
    if not queue:
        return
    rows = [
        {
            "Entry": h.entry.id,
            "Review by": h.entry.review_by,
            "Why": "; ".join([h.band.label, *h.flags]),
            "Product": h.entry.product or "company-wide",
            "Used": len(h.uses),
            "Question": h.entry.question,
            "Answer": " — ".join(x for x in (h.entry.choice, h.entry.answer) if x),
        }
        for h in queue
    ]
    event = st.dataframe(
        pd.DataFrame(rows),
        hide_index=True,
        on_select="rerun",
        selection_mode="multi-row",
        key="library_health_queue_rows",
    )
    chosen = [queue[i].entry.id for i in event.selection.get("rows", ())]
    st.button(
        f"Reviewed ({len(chosen)})",
        key="library_health_renew",
        icon=":material/event_available:",
        on_click=_renew,
        args=(library, chosen, by),
        disabled=drafting or not chosen,
    )


def _duplicates(report: LibraryReport, library: AnswerLibrary, by: str, drafting: bool) -> None:
    if not report.duplicates:
        st.caption("No two entries of one product say the same thing.")
        return
    st.caption(
        "Entries of one product answering near-identical questions the same way. Select groups and merge them: "
        "each keeps its newest entry and retires the others."
    )
    rows = [
        {
            "Group": n,
            "Keep": d.keep.id,
            "Retire": ", ".join(f"#{e.id}" for e in d.others),
            "Product": d.keep.product or "company-wide",
            "Question": d.keep.question,
            "Answer": " — ".join(x for x in (d.keep.choice, d.keep.answer) if x),
        }
        for n, d in enumerate(report.duplicates, 1)
    ]
    event = st.dataframe(
        pd.DataFrame(rows), hide_index=True, on_select="rerun", selection_mode="multi-row", key="library_health_dups"
    )
    ids = [e.id for i in event.selection.get("rows", ()) for e in report.duplicates[i].others]
    st.button(
        f"Merge ({count(len(ids), 'entry', 'entries')} retired)",
        key="library_health_merge",
        icon=":material/merge:",
        on_click=_retire,
        args=(library, ids, by, "duplicates merged"),
        disabled=drafting or not ids,
    )


def _retired(
    ws: Workspace, report: LibraryReport, library: AnswerLibrary, products: list[str], by: str, drafting: bool
) -> None:
    known = sorted(set(products) | set(report.retired_products), key=str.casefold)
    st.session_state.setdefault("library_health_retired", list(report.retired_products))
    st.multiselect("Products no longer sold", known, key="library_health_retired")
    st.button("Save", key="library_health_retired_save", on_click=_save_retired, args=(ws,), disabled=drafting)
    for product in report.retired_products:
        ids = [h.entry.id for h in report.entries if h.entry.product == product]
        st.markdown(f"**{escape_md(product)}**: {count(len(ids), 'entry', 'entries')} still in use")
        if ids:
            st.button(f"Retire the {count(len(ids), 'entry', 'entries')} of {product}", key=f"library_health_retire_{product}",
                      on_click=_retire, args=(library, ids, by, product), disabled=drafting)  # fmt: skip
