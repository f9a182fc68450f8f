"""A solicitation on the Questionnaire screen (docs/solicitations.md): the key facts card (a due
date past or within 3 days said first), the requirements' counts by kind and mandatory, every
requirement with its ID, page, kind and quote, and the reviewer's corrections: requirements left
out and kinds changed, a sentence added, a requirement split, adjacent ones merged, kept with the
project (``ReadOptions.exclude`` / ``kinds`` / ``added`` / ``splits`` / ``merges``, through
``Workspace.set_read_options`` like a questionnaire's corrections; the edits checked against the
file first: ``Workspace.set_solicitation_edits``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import streamlit as st

from engine.app.workspace import ReadOptions, Workspace
from engine.questionnaire.solicitation import Kind, Requirement, Shredded
from engine.questionnaire.solicitation.as_questionnaire import changed_kinds, kind_pairs
from ui.components.messages import count, escape_md, flash, problem_text, show_flashed

KINDS = tuple(k.value for k in Kind)
AMEND_FLASH = "solicitation_amend_messages"


def key_facts_card(shredded: Shredded) -> None:
    """The key facts, each as quoted with its page, or "not stated"; the due-date alert above them."""
    with st.container(border=True):
        if shredded.alert is not None:
            st.error(escape_md(shredded.alert.line), icon=":material/alarm:")
        st.markdown("**Key facts**")
        st.dataframe(
            [
                {"Fact": f.fact.label, "As stated": f.value, "Page": str(f.page) if f.stated else ""}
                for f in shredded.facts
            ],
            hide_index=True,
            width="stretch",
        )


def requirement_counts(shredded: Shredded) -> None:
    counts = shredded.counts()
    columns = st.columns(2 + len(KINDS))
    columns[0].metric("Requirements", counts["total"])
    columns[1].metric("Mandatory", counts["mandatory"])
    for column, kind in zip(columns[2:], KINDS):
        column.metric(kind.capitalize(), counts[kind])


def stopped(shredded: Shredded, rest: tuple[Callable, tuple, bool] | None) -> None:
    """One line when the file was read only up to a page (its upload's shred stopped), and the
    Read the rest button (``rest``: its callback, the callback's arguments, disabled)."""
    where = shredded.stopped.partition(":")[0].removeprefix("stopped after ")
    name = shredded.files[0] if shredded.files else "the file"
    st.warning(
        f"Read only up to {escape_md(where)}. The requirements of the pages read are shown; **Read the rest** "
        f"reads the whole file, or on the command line: `python -m engine shred {name}`.",
        icon=":material/pause_circle:",
    )
    if rest is not None:
        callback, args, disabled = rest
        st.button("Read the rest", on_click=callback, args=args, disabled=disabled, icon=":material/play_arrow:")


def mapping(shredded: Shredded, rest: tuple[Callable, tuple, bool] | None = None) -> None:
    """The card, the counts and every requirement (what ``python -m engine shred`` prints); a file
    read only in part says so first (:func:`stopped`)."""
    if shredded.stopped:
        stopped(shredded, rest)
    key_facts_card(shredded)
    requirement_counts(shredded)
    st.dataframe(
        [
            {
                "ID": r.id,
                "Page": r.page,
                "Kind": r.kind.value,
                "Mandatory": "yes" if r.mandatory else "no",
                "Requirement": " ".join(r.text.split()),
                "Section": r.section,
            }
            for r in shredded.requirements
        ],
        hide_index=True,
        width="stretch",
    )
    st.caption(
        "Work and evaluation requirements are drafted from the knowledge base, each with a compliance choice "
        "(Comply, Partially comply, Exception, Noted); submission and terms requirements are a checklist. "
        "The Export screen downloads the compliance matrix."
    )


def label(r: Requirement) -> str:
    return f"{r.id} · p.{r.page} · {r.kind.value} · {' '.join(r.text.split())[:90]}"


def _key(pid: int, name: str) -> str:
    """A correction field's key, new after each apply or reset (fresh, empty fields)."""
    return f"solicitation_{name}_{pid}_{st.session_state.get(f'solicitation_generation_{pid}', 0)}"


def _fresh(pid: int) -> None:
    generation = f"solicitation_generation_{pid}"
    st.session_state[generation] = st.session_state.get(generation, 0) + 1


def _edits(pid: int, ids: dict[str, str]) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The sentence added, the split ("ID=FRAGMENT") and the merge ("ID+ID") typed in the fields
    (each empty when not given)."""
    sentence = " ".join((st.session_state.get(_key(pid, "add")) or "").split())
    which = ids.get(st.session_state.get(_key(pid, "split")) or "")
    fragment = " ".join((st.session_state.get(_key(pid, "split_at")) or "").split())
    chosen = set(st.session_state.get(_key(pid, "merge"), []))
    merged = [rid for shown, rid in ids.items() if shown in chosen]  # in document order, as picked or not
    return (
        (sentence,) if sentence else (),
        (f"{which}={fragment}",) if which and fragment else (),
        ("+".join(merged),) if merged else (),
    )


def _edit_words(added: tuple, splits: tuple, merges: tuple) -> str:
    words = ["a sentence added as a requirement" for _ in added]
    words += [f"{pair.partition('=')[0]} split in two" for pair in splits]
    words += [f"{' + '.join(pair.split('+'))} merged" for pair in merges]
    return "".join(f", {w}" for w in words)


def apply(ws: Workspace, pid: int, shredded: Shredded, messages: str, problem: Callable[[Exception], str]) -> None:
    """Re-read the solicitation with the corrections (kept with it): a sentence added, a requirement
    split, adjacent ones merged (each checked against the file first), requirements left out, kinds changed."""
    ids = {label(r): r.id for r in shredded.requirements}
    left_out = [ids[x] for x in st.session_state.get(_key(pid, "exclude"), []) if x in ids]
    to_change = [ids[x] for x in st.session_state.get(_key(pid, "change"), []) if x in ids]
    kind = st.session_state.get(_key(pid, "kind"))
    added, splits, merges = _edits(pid, ids)
    current = ws.read_options(pid)
    kinds = changed_kinds(ws.questionnaire(pid).path, current.kinds)
    kinds.update({rid: Kind(kind) for rid in to_change if kind})
    options = replace(
        current,
        exclude=tuple(dict.fromkeys(current.exclude + tuple(left_out))),
        kinds=kind_pairs(kinds),
        added=current.added + added,
        splits=current.splits + splits,
        merges=current.merges + merges,
    )
    try:
        if added or splits or merges:  # refused in one line when it does not fit the file
            again = ws.set_solicitation_edits(pid, options)
        else:
            again = ws.set_read_options(pid, options)
    except Exception as exc:
        flash(messages, "error", "The corrections were not applied. " + problem(exc))
        return
    _fresh(pid)
    changed = f", {count(len(to_change), 'kind')} changed to {kind}" if to_change and kind else ""
    flash(
        messages,
        "success",
        f"Read again with the corrections: {count(len(again.questions), 'requirement')}{changed}"
        f"{escape_md(_edit_words(added, splits, merges))}.",
    )


def reset(ws: Workspace, pid: int, messages: str) -> None:
    # a file read only up to a page (its upload stopped) stays so: Read the rest reads it whole, apart
    ws.set_read_options(pid, ReadOptions(pages=ws.read_options(pid).pages))
    _fresh(pid)
    flash(messages, "success", "Detection restored: every requirement found, with the kind found.")


def _edit_fields(pid: int, labels: list[str], locked: bool) -> None:
    """Add a sentence the shredder missed; split a requirement in two; merge adjacent ones."""
    st.text_area(
        "Add a sentence as a requirement",
        key=_key(pid, "add"),
        disabled=locked,
        height=68,
        placeholder="paste it from the solicitation: it is found on its page (spacing aside)",
        help="Pasted as the solicitation prints it, on one page; it takes its page and section from where it is "
        "found, and an ID A-001, A-002 …",
    )
    which, where = st.columns([3, 2])
    which.selectbox(
        "Split this requirement",
        labels,
        index=None,
        placeholder="a requirement",
        key=_key(pid, "split"),
        disabled=locked,
    )
    where.text_input(
        "where its second part starts",
        key=_key(pid, "split_at"),
        disabled=locked,
        placeholder="the second part's first words",
        help="The first part keeps the ID, the second is ID/2; both keep the page and the lead-in.",
    )
    st.multiselect(
        "Merge these requirements (next to each other, on one page)",
        labels,
        key=_key(pid, "merge"),
        disabled=locked,
        help="They become one requirement quoted from the first's words to the last's, with the first's ID.",
    )


def corrections(
    ws: Workspace, pid: int, shredded: Shredded, locked: bool, messages: str, problem: Callable[[Exception], str]
) -> None:
    """Leave requirements out; change the kind of some (submission and terms are a checklist, work
    and evaluation are drafted); add a sentence, split one requirement, merge adjacent ones."""
    labels = [label(r) for r in shredded.requirements]
    st.multiselect("Not requirements: leave these out", labels, key=_key(pid, "exclude"), disabled=locked)
    which, kind = st.columns([3, 1])
    which.multiselect("Change the kind of these requirements", labels, key=_key(pid, "change"), disabled=locked)
    kind.selectbox("to", KINDS, index=None, placeholder="kind", key=_key(pid, "kind"), disabled=locked)
    _edit_fields(pid, labels, locked)
    current = ws.read_options(pid)
    if current.exclude or current.kinds or current.added or current.splits or current.merges:
        edits = [(current.added, "added"), (current.splits, "split"), (current.merges, "merged")]
        more = "".join(f", {len(done)} {what}" for done, what in edits if done)
        st.caption(
            f"Kept with this solicitation: {len(current.exclude)} left out, {len(current.kinds)} kinds changed{more}."
        )
    left, right, _ = st.columns([1, 1, 3])
    left.button("Apply corrections", on_click=apply, args=(ws, pid, shredded, messages, problem), disabled=locked)
    right.button("Reset to detection", on_click=reset, args=(ws, pid, messages), disabled=locked)
    if locked:
        st.caption("Stop drafting to change how the solicitation is read.")


def _amends_key(pid: int) -> str:
    return f"solicitation_amends_{pid}"


def keep(ws: Workspace, pid: int) -> None:
    previous = st.session_state.get(_amends_key(pid))
    if previous is None:
        return
    try:
        result = ws.keep_decisions(pid, previous)
    except Exception as exc:  # the other project is a questionnaire; a damaged store
        flash(AMEND_FLASH, "error", f"No decision was kept. {problem_text(exc)}")
        return
    flash(AMEND_FLASH, "success", escape_md(result.line(ws.project(previous).file_name)))


def amends(ws: Workspace, pid: int, locked: bool) -> None:
    """An amendment uploaded as a new solicitation: pick the version it amends, and the decisions
    made there on the requirements it leaves unchanged (by quote) are kept here."""
    others = [p for p in ws.projects() if p.id != pid]
    if not others:
        return
    names = {p.id: f"{p.file_name} (added {p.created[:10]})" for p in others}
    which, go = st.columns([3, 2], vertical_alignment="bottom")
    which.selectbox(
        "This solicitation amends",
        list(names),
        index=None,
        format_func=names.get,
        placeholder="the earlier version (an amendment only)",
        key=_amends_key(pid),
        disabled=locked,
        help="The requirements whose words are unchanged (wherever they moved) keep the decisions made on the "
        "earlier version, with its answers; changed, added and removed ones are reviewed again.",
    )
    go.button(
        "Keep the decisions of unchanged requirements",
        on_click=keep,
        args=(ws, pid),
        disabled=locked or st.session_state.get(_amends_key(pid)) is None,
    )
    show_flashed(AMEND_FLASH)


__all__ = ["amends", "corrections", "key_facts_card", "mapping", "requirement_counts"]
