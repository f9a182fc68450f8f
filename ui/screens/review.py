"""Review: every question of the questionnaire with its draft, the citations behind it and the
source page with the quoted lines outlined; the reviewer accepts, edits, regenerates, sends to
an SME or rejects. Every action is written to the review store at once (``Review`` methods), so
a refresh or an app restart loses nothing; after an action the next question to review opens.

Each drafted answer shows its confidence (a warning under the calibrated threshold, until the
reviewer decides) and its trust state (``Draft.trust``: low confidence, disputed, a choice from
another product, only a third party's evidence, a profile fact), marked in the question list;
*Review first* puts the qualifiers nobody has answered yet at the top of the list (answered
early, they decide their sections before drafting reaches them), then the undecided drafts with
any of those states (and so of Next and of the question opened after each decision).

The list filters by status, by row type (``ReviewItem.row_type``: Yes/No, dropdown, profile,
narrative, or gated while a qualifier switches the row off) and by words of the question or answer.

Layout: the sidebar holds the drafting progress, the filters and the question list; the main
area shows the question and its answer (left) beside the source (right). Under the source,
"Ask this document" asks the shown document a question (engine/drafting/ask.py); an excerpt it returns
is shown in the same viewer with its lines outlined and can be added to the draft's citations.

No lost update between two reviewers: the version of each row shown (``ReviewItem.version``) is
kept in the session (``seen_key``: a :class:`Shown`), and Accept, Save edit, Needs SME, Reject and
Regenerate pass it back. A row that changed since (another reviewer's decision, a new draft) is
refused (``RowChanged``, nothing written): the card says who or what changed it, when, and its
answer now, keeps the reviewer's text in the answer box, and offers to take the newer answer or
to apply theirs anyway (a new decision on the new version). A rerun that finds the row changed
under text the reviewer typed and did not save says the same at once and keeps the text (the
answer box would otherwise reload the newer answer over it)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, replace

import streamlit as st

from engine.app import AnchorLabel, Draft, ReviewStoreError, RowChanged, RowVersion
from engine.core.location import SHORT
from engine.core.types import DraftStatus, SourceKind, StoreReplaced
from engine.review.review import Review, ReviewItem, ReviewState, RowType
from ui.components import ask_pane, cached_questionnaire
from ui.components.messages import escape_md, problem_text
from ui.components.pdf_pane import show_pdf_citation
from ui.components.source_text import show_past_answer, show_text_citation
from ui.components.status import label_badge_md, state_badge_md, state_icon_md
from ui.resources import PROJECT, QUESTION, current_project, workspace

# widget / on-screen keys of this screen
LIST = "review_list"
FILTER = "review_filter"
TYPES = "review_types"  # the row-type filter
SEARCH = "review_search"
LOW_FIRST = "review_low_first"
NOTICE = "review_notice"
SOURCE = "review_source"
PAGE = "review_page"
PAGE_FOR = "review_page_for"
SOURCE_NEXT = "review_source_next"  # the source to open on the next run (set after the radio is drawn)
ASK = "review_ask"  # the ask pane's keys
ASK_DOC = "review_ask_doc"  # the document asked when the question cites none

TO_REVIEW = (ReviewState.DRAFTED, ReviewState.NO_CONTEXT, ReviewState.ERROR)
FILTER_ORDER = (
    ReviewState.DRAFTED,
    ReviewState.NO_CONTEXT,
    ReviewState.ACCEPTED,
    ReviewState.EDITED,
    ReviewState.NEEDS_SME,
    ReviewState.REJECTED,
    ReviewState.PENDING,
    ReviewState.ERROR,
    ReviewState.NOT_REQUIRED,
)
PROGRESS_EVERY_S = 2.0
STYLE = """<style>
[data-testid="stMainBlockContainer"] { padding: 3.6rem 1.5rem 2rem 1.5rem; }
[data-testid="stSidebar"] [data-testid="stRadio"] label p { font-size: 0.86rem; line-height: 1.3; }
</style>"""
LIST_HEIGHT = 400
PAGE_SIZE = 40  # questions drawn in the list at once


# ---- data -------------------------------------------------------------------------------------
def review_for(ws, project_id: int) -> Review:
    """``ws.review(project_id)`` with the questionnaire read once per file and options."""
    return cached_questionnaire.review(ws, project_id)


def matches(item: ReviewItem, states: set[ReviewState], search: str, types: set[RowType] = frozenset()) -> bool:
    """In the list under the status filter, the search and the row-type filter (empty: all)."""
    if states and item.state not in states:
        return False
    if types and item.row_type not in types:
        return False
    words = search.lower().split()
    if not words:
        return True
    hay = " ".join(
        [item.question.id or "", item.question.sheet, str(item.question.row), item.question.text, item.answer]
    ).lower()
    return all(w in hay for w in words)


def low_confidence(item: ReviewItem) -> bool:
    """A low-confidence draft nobody has decided on yet."""
    return item.state is ReviewState.DRAFTED and item.draft is not None and item.draft.low_confidence


def review_first(item: ReviewItem) -> bool:
    """A qualifier the reviewer has not answered yet (its answer decides whole sections, even
    while drafting runs), or a draft nobody has decided on yet with a trust state (``Draft.trust``:
    low confidence, disputed, from another product, only a third party's evidence, a profile fact,
    the model's own wording…)."""
    if item.unanswered_qualifier:
        return True
    return item.state is ReviewState.DRAFTED and item.draft is not None and bool(getattr(item.draft, "trust", ()))


def listed_order(items: list[ReviewItem], low_first: bool) -> list[ReviewItem]:
    """The questionnaire's order, or the ones to review first at the top: the unanswered
    qualifiers, then the undecided drafts with a trust state (each part in the questionnaire's order)."""
    if not low_first:
        return items
    return sorted(items, key=lambda i: 0 if i.unanswered_qualifier else 1 if review_first(i) else 2)


def next_to_review(items: list[ReviewItem], current: str, order: list[str]) -> str | None:
    """The next question after ``current`` that still needs a decision: first in the list on
    screen (wrapping round), then anywhere in the questionnaire."""
    by_key = {i.key: i for i in items}
    for keys in (order, [i.key for i in items]):
        if not keys:
            continue
        start = keys.index(current) + 1 if current in keys else 0
        for key in keys[start:] + keys[:start]:
            if key != current and key in by_key and by_key[key].state in TO_REVIEW:
                return key
    return None


def version(item: ReviewItem) -> str:
    """Changes when the stored answer changes, so the answer box reloads it."""
    d, dec = item.draft, item.decision
    raw = json.dumps(
        [
            d.answer if d else None,
            d.choice if d else None,
            len(d.citations) if d else 0,
            dec.created if dec else None,
            dec.action.value if dec else None,
            dec.answer if dec else None,
        ]
    )
    return hashlib.sha1(raw.encode()).hexdigest()[:10]


def answer_key(pid: int, item: ReviewItem) -> str:
    return f"review_answer:{pid}:{item.key}:{version(item)}"


def choice_key(pid: int, item: ReviewItem) -> str:
    return f"review_choice:{pid}:{item.key}:{version(item)}"


def note_key(pid: int, key: str) -> str:
    return f"review_note:{pid}:{key}"


def seen_key(pid: int, key: str) -> str:
    """The row as its card last showed it (a :class:`Shown`): its decisions are made on its version."""
    return f"review_seen:{pid}:{key}"


@dataclass(frozen=True)
class Shown:
    """A row as its card last showed it: the version decisions are made on, the answer box's
    keys, and the row's answer and choice then (text that differs from them is the reviewer's,
    not saved yet)."""

    version: RowVersion
    a_key: str
    c_key: str | None
    answer: str
    choice: str


def _seen(pid: int, key: str) -> RowVersion | None:
    shown = st.session_state.get(seen_key(pid, key))
    return shown.version if shown is not None else None


def conflict_key(pid: int, key: str) -> str:
    """A decision refused because the row changed since it was shown (a :class:`Conflict`)."""
    return f"review_conflict:{pid}:{key}"


@dataclass(frozen=True)
class Conflict:
    """What the reviewer tried on a row that had changed (``RowChanged``): the action, their
    text and choice (kept in the answer box), who or what changed the row and its answer now, and
    the newer version (applying theirs anyway decides on it)."""

    action: str
    answer: str
    choice: str | None
    by: str
    now: str
    newer: RowVersion


def _refused(pid: int, key: str, action: str, exc: RowChanged, answer: str, choice: str | None) -> None:
    """Keep the refused decision and the reviewer's text; the card shows the warning."""
    st.session_state[conflict_key(pid, key)] = Conflict(action, answer, choice, exc.by, exc.now, exc.current)


def _take_newer(pid: int, key: str, a_key: str, c_key: str | None) -> None:
    """Drop the reviewer's text: the answer box reloads the row as it is now."""
    st.session_state.pop(conflict_key(pid, key), None)
    for widget in (a_key, c_key):
        if widget:
            st.session_state.pop(widget, None)


# ---- actions (callbacks: they run before the page is drawn again) ---------------------------
def _notice(kind: str, text: str) -> None:
    st.session_state[NOTICE] = (kind, text)


def _pick() -> None:
    if st.session_state.get(LIST):
        st.session_state[QUESTION] = st.session_state[LIST]


def _step(order: list[str], current: str, delta: int) -> None:
    if not order:
        return
    if current in order:
        i = min(max(order.index(current) + delta, 0), len(order) - 1)
    else:
        i = 0 if delta > 0 else len(order) - 1
    st.session_state[QUESTION] = order[i]


def _act(action: str, pid: int, key: str, a_key: str, c_key: str | None, order: list[str]) -> None:
    ws = workspace()
    review = review_for(ws, pid)
    answer = st.session_state.get(a_key, "")
    choice = (st.session_state.get(c_key) or "") if c_key else None
    note = (st.session_state.get(note_key(pid, key)) or "").strip() or None
    label = escape_md(review.item(key).label)  # the question's ID or sheet and row: shown as text
    seen = _seen(pid, key)  # the version on screen (no lost update)
    try:
        if action in ("accept", "edit"):
            if not answer.strip() and not choice:
                _notice(
                    "error",
                    f"{label}: there is no answer to save. Write one or pick a choice first "
                    "(or mark the question Needs SME).",
                )
                return
            if action == "accept":
                review.accept(key, answer, choice, expected=seen)
                done = "accepted"
            else:
                review.edit(key, answer, choice, expected=seen)
                done = "edit saved"
        elif action == "needs_sme":
            review.needs_sme(key, note, expected=seen)
            done = "sent to an SME"
        elif action == "reject":
            review.reject(key, note, expected=seen)
            done = "rejected"
        else:
            raise ValueError(f"unknown action {action!r}")
    except RowChanged as exc:  # nothing written; the card shows the row now and keeps the text
        _refused(pid, key, action, exc, answer, choice)
        return
    except (ValueError, ReviewStoreError, StoreReplaced) as exc:
        _notice("error", f"{label}: not saved. {problem_text(exc)}")
        return
    for done_with in (note_key(pid, key), conflict_key(pid, key), seen_key(pid, key)):  # the row is shown anew
        st.session_state.pop(done_with, None)
    kind, text = "success", f"{label} {done}."
    if action in ("accept", "edit") and review.library_problem is not None:  # stored, but not in the library
        kind = "warning"
        text = f"{label} {done} — saved in the review store only: {problem_text(review.library_problem)}"
    following = next_to_review(review.items(), key, order)
    if following:
        st.session_state[QUESTION] = following
        _notice(kind, text)
    else:
        _notice(kind, f"{text} Every drafted question has a decision now.")


def _regenerate(pid: int, key: str, a_key: str | None = None, c_key: str | None = None) -> None:
    ws = workspace()
    review = review_for(ws, pid)
    before = review.item(key)
    label = escape_md(before.label)
    try:
        with st.spinner(f"Drafting {label} again…"):
            draft = ws.regenerate(pid, key, _seen(pid, key))
    except RowChanged as exc:  # nothing drafted or stored; the card shows the row now and keeps the text
        answer = st.session_state.get(a_key, "") if a_key else before.answer
        _refused(pid, key, "regenerate", exc, answer, (st.session_state.get(c_key) or "") if c_key else None)
        return
    except Exception as exc:  # the model or the knowledge base failed: say so, keep the old draft
        _notice("error", f"{label}: could not draft it again. {problem_text(exc)}")
        return
    st.session_state.pop(conflict_key(pid, key), None)
    st.session_state.pop(seen_key(pid, key), None)  # the new draft is shown anew, not as a change under the text
    after = review.item(key)
    if draft.error:  # the answer box keeps what it showed
        _notice("error", f"{label}: the new draft failed. {escape_md(draft.error)}")
        return
    st.session_state[answer_key(pid, after)] = draft.answer
    if after.question.choices:
        st.session_state[choice_key(pid, after)] = draft.choice if draft.choice in after.question.choices else ""
    st.session_state.pop(SOURCE, None)
    if after.decision is not None:
        _notice(
            "info",
            f"{label}: new draft loaded below. The question stays {after.state.label} "
            "until you Accept or Save edit again.",
        )
    else:
        _notice("success", f"{label}: new draft ({after.state.label.lower()}).")


# ---- pieces of the page -------------------------------------------------------------------------
def _progress(pid: int, was_running: bool) -> None:
    """Drafting progress; refreshes itself (not the page) every few seconds while drafting runs,
    and refreshes the page once when it ends."""
    ws = workspace()
    running = ws.jobs.running(pid)
    status = ws.jobs.status(pid)
    if was_running and not running:
        st.rerun()
    if running and status is not None:
        eta = f" · about {max(1, round(status.eta_s / 60))} min left" if status.eta_s else ""
        st.progress(status.fraction, text=f"Drafting {status.done} of {status.total}{eta}")
        if st.button("Show new drafts", icon=":material/refresh:", type="tertiary", key="review_refresh"):
            st.rerun()
    elif status is not None and status.error:
        st.caption(f":orange[:material/warning:] Drafting ended early: {escape_md(status.error)}")


def _item_line(item: ReviewItem) -> str:
    text = item.question.text.replace("\n", " ")
    short = text if len(text) <= 56 else text[:54].rstrip() + "…"
    flags = getattr(item.draft, "trust", ()) if review_first(item) else ()
    icons = "".join(f" :orange[:material/{icon}:]" for icon in dict.fromkeys(_trust_icon(f) for f in flags))
    icons += " :red[:material/rule:]" if item.conflict else ""  # a follow-up answered against its qualifier
    return f"{state_icon_md(item.state)}{icons} **{escape_md(item.label)}** {escape_md(short)}"


def _trust_icon(flag: str) -> str:
    """The list's mark for a trust state (``Draft.trust``)."""
    for start, icon in (
        ("from another product", "swap_horiz"),
        ("only ", "handshake"),
        ("profile fact", "badge"),
        ("contact details removed", "link_off"),
        ("disputed", "call_split"),
        ("no document mentions", "policy"),  # a qualifier answered by the own documents (Draft.stated)
        ("documents ", "policy"),  # "documents mention / say / state …"
        ("model's own wording", "edit_note"),
    ):
        if flag.startswith(start):
            return icon
    return "priority_high"  # low confidence


def _sidebar(ws, pid: int, items: list[ReviewItem], current: str) -> list[str]:
    """Progress, filters, search and the question list; returns the keys listed, in order."""
    with st.sidebar:
        projects = ws.projects()
        if len(projects) > 1:
            names = {p.id: p.name for p in projects}
            chosen = st.selectbox(
                "Questionnaire",
                list(names),
                index=list(names).index(pid),
                format_func=lambda i: names[i],
                key="review_project",
            )
            if chosen != pid:
                st.session_state[PROJECT] = chosen
                st.session_state.pop(QUESTION, None)
                st.rerun()
        running = ws.jobs.running(pid)
        st.fragment(_progress, run_every=PROGRESS_EVERY_S if running else None)(pid, running)

        states, types, search, low_first = _filters(items)
        visible = listed_order([i for i in items if matches(i, states, search, types)], low_first)
        order = [i.key for i in visible]
        st.caption(f"{len(visible)} of {len(items)} questions")
        shown = _page(order, current, (tuple(sorted(states)), tuple(sorted(types)), search, low_first))
        st.session_state[LIST] = current if current in shown else None
        on_page = set(shown)
        lines = {i.key: _item_line(i) for i in visible if i.key in on_page}
        with st.container(height=LIST_HEIGHT, border=False):
            if visible:
                st.radio(
                    "Questions",
                    shown,
                    key=LIST,
                    index=None,
                    format_func=lines.__getitem__,
                    on_change=_pick,
                    label_visibility="collapsed",
                )
            else:
                st.caption("No question matches the filter.")
    return order


def _filters(items: list[ReviewItem]) -> tuple[set[ReviewState], set[RowType], str, bool]:
    """The status and row-type filters (empty: all), the search words and *Review first*."""
    counts = {s: 0 for s in ReviewState}
    for item in items:
        counts[item.state] += 1
    states = st.multiselect(
        "Status", FILTER_ORDER, key=FILTER, placeholder="All states", format_func=lambda s: f"{s.label} ({counts[s]})"
    )
    kinds = Counter(i.row_type for i in items)  # the shapes are worked out once per questionnaire
    if any(not kinds[t] for t in st.session_state.get(TYPES) or ()):  # e.g. no row is gated any more
        st.session_state[TYPES] = [t for t in st.session_state[TYPES] if kinds[t]]
    types = st.multiselect(
        "Row type",
        [t for t in RowType if kinds[t]],
        key=TYPES,
        placeholder="All row types",
        format_func=lambda t: f"{t.label} ({kinds[t]})",
    )
    search = st.text_input(
        "Search", key=SEARCH, placeholder="ID or words in the question or answer", icon=":material/search:"
    )
    low = sum(review_first(i) for i in items)
    low_first = st.toggle(
        f"Review first ({low})",
        key=LOW_FIRST,
        help="Undecided drafts with low confidence, disputed past answers, a choice from "
        "another product, only a third party's evidence, or a profile fact, at the top "
        "of the list.",
    )
    return set(states or ()), set(types or ()), search, low_first


def _page(order: list[str], current: str, view: tuple) -> list[str]:
    """The part of the list drawn at once (a browser draws a few dozen radio labels quickly,
    not 800). The page follows the open question; a selectbox reaches the others."""
    pages = max(1, -(-len(order) // PAGE_SIZE))
    follow = (current, view)
    if st.session_state.get(PAGE_FOR) != follow:  # a new question or filter: show its page
        st.session_state[PAGE_FOR] = follow
        st.session_state[PAGE] = order.index(current) // PAGE_SIZE if current in order else 0
    if st.session_state.get(PAGE) not in range(pages):
        st.session_state[PAGE] = 0
    if pages > 1:
        st.selectbox(
            "Page",
            list(range(pages)),
            key=PAGE,
            label_visibility="collapsed",
            format_func=lambda p: (
                f"Questions {p * PAGE_SIZE + 1}–{min((p + 1) * PAGE_SIZE, len(order))} of {len(order)}"
            ),
        )
    page = st.session_state[PAGE]
    return order[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]


def _summary(review: Review, items: list[ReviewItem], pid: int) -> None:
    counts = {s: 0 for s in ReviewState}
    for item in items:
        counts[item.state] += 1
    approved = counts[ReviewState.ACCEPTED] + counts[ReviewState.EDITED]
    to_review = sum(counts[s] for s in TO_REVIEW)
    project = review.store.project(pid)
    head, stats = st.columns([1, 1], vertical_alignment="center")
    head.markdown(f"#### {escape_md(project.name)}")
    stats.markdown(
        " ".join(
            [
                f":green-badge[:material/task_alt: {approved} of {len(items)} approved]",
                f":blue-badge[:material/rate_review: {to_review} to review]",
                *(
                    [f":violet-badge[:material/support_agent: {counts[ReviewState.NEEDS_SME]} with an SME]"]
                    if counts[ReviewState.NEEDS_SME]
                    else []
                ),
                *(
                    [f":gray-badge[:material/hourglass_empty: {counts[ReviewState.PENDING]} not drafted]"]
                    if counts[ReviewState.PENDING]
                    else []
                ),
                *(
                    [f":gray-badge[:material/block: {counts[ReviewState.NOT_REQUIRED]} not required]"]
                    if counts[ReviewState.NOT_REQUIRED]
                    else []
                ),
            ]
        )
    )
    _sections(review, items)


def _sections(review: Review, items: list[ReviewItem]) -> None:
    """The sections qualifiers govern, with their state and why (engine/drafting/sections.py)."""
    sections = review.sections(items)
    if not sections:
        return
    off = sum(s.required is False for s in sections)
    with st.expander(f"Sections: {len(sections)} governed by qualifiers, {off} not required"):
        st.caption(
            "Drafting takes the qualifiers first and the sections they govern last: accept or edit a "
            "qualifier while drafting runs, and its section follows your answer before the model reaches it."
        )
        for s in sections:
            icon = (
                ":gray[:material/block:]"
                if s.required is False
                else (":green[:material/check:]" if s.required else ":orange[:material/help:]")
            )
            rows = f"{s.rows[0]} … {s.rows[-1]}" if len(s.rows) > 1 else (s.rows[0] if s.rows else "")
            st.markdown(
                f"{icon} **{escape_md(s.section)}** ({len(s.rows)} rows: {escape_md(rows)}): {escape_md(s.reason)}"
            )


def _citation_list(item: ReviewItem) -> None:
    if not item.citations:
        return
    st.markdown("**Citations**")
    for n, c in enumerate(item.citations, 1):
        where = c.location.label()
        with st.container(border=True):
            name = (
                escape_md(where)
                if c.kind is SourceKind.LIBRARY
                else escape_md(c.file) + (f" · {escape_md(where)}" if where else "")
            )
            party = f" · :orange-badge[third party: {escape_md(c.third_party)}]" if c.third_party else ""
            st.markdown(f"{label_badge_md(c.label)} **[{n}]** {name} · score {c.score:.0f}{party}")
            st.caption(f"“{escape_md(c.quote)}”")
            if c.label is AnchorLabel.UNVERIFIED:
                st.warning(
                    "This quote was not found in the source: it is not highlighted. "
                    "Check the claim by hand before accepting.",
                    icon=":material/warning:",
                )


def _past_choices(draft: Draft, state: ReviewState) -> None:
    """How the near-identical past answers chose: a warning when they disagree, until the
    reviewer has decided (then a caption)."""
    named = Counter(getattr(draft, "past_answers", ()))  # each past answer's product and choice
    votes = (
        " · ".join(f"{escape_md(a)} ×{n}" for a, n in named.most_common())
        if named
        else " · ".join(f"{escape_md(choice)} ×{n}" for choice, n in draft.past_choices.items())
    )
    if draft.disputed and state is ReviewState.DRAFTED:
        st.warning(
            f"Near-identical past answers disagree ({votes}). The draft takes the most common (the newest "
            "on a tie); check which one holds for this product before accepting.",
            icon=":material/call_split:",
        )
    elif draft.disputed:
        st.caption(f"Near-identical past answers disagreed ({votes}).")
    elif votes:
        total = sum(draft.past_choices.values())
        st.caption(f"Near-identical past answers: {votes}" + (" (all agree)" if total > 1 else ""))


def _confidence(draft: Draft, state: ReviewState) -> None:
    """How far the drafted choice can be trusted: a warning under the threshold until the
    reviewer has decided (then a caption); nothing when there is no confidence (no context, a
    reused answer)."""
    if draft.confidence is None or draft.status is not DraftStatus.DRAFTED:
        return
    shown = f"Confidence {draft.confidence:.2f}"
    if draft.low_confidence and state is ReviewState.DRAFTED:
        st.warning(f"{shown} — low: check the evidence before accepting.", icon=":material/priority_high:")
    else:
        st.caption(shown + (" (low)" if draft.low_confidence else ""))


def _other_product(draft: Draft, state: ReviewState) -> None:
    """A choice taken from another product's past answer: whose, and that the text is not it."""
    product = getattr(draft, "from_product", None)
    if not product:
        return
    text = (
        f"From another product: the choice is {escape_md(product)}'s past answer "
        f"({' · '.join(escape_md(a) for a in dict.fromkeys(draft.past_answers))}); "
        + (
            "the explanation is a sentence of your documents, quoted word for word (nothing checked that it "
            "agrees with the choice). "
            if draft.answer
            else "no sentence of your documents explains it. "
        )
        + "Check that the choice holds for this product."
    )
    _until_decided(text, state, "swap_horiz")


def _until_decided(text: str, state: ReviewState, icon: str) -> None:
    """A trust note: a warning while nobody has decided on the draft, a caption after."""
    if state is ReviewState.DRAFTED:
        st.warning(text, icon=f":material/{icon}:")
    else:
        st.caption(text)


def _profile_and_removed(draft: Draft, state: ReviewState) -> None:
    """A profile fact (answered word for word from the profile) and contact details taken out of
    a generated answer: said, so the reviewer checks them."""
    fact, removed = getattr(draft, "profile_fact", None), getattr(draft, "removed", ())
    if fact and draft.status is DraftStatus.DRAFTED:  # a fact the profile lacks is said with the state above
        source = next((c.file for c in draft.citations), None)
        st.info(
            f"Profile fact ({escape_md(fact)}), answered without the model"
            + (f" from {escape_md(source)}" if source else "")
            + ". Edit the profile on the Knowledge base "
            "screen to change it for every questionnaire.",
            icon=":material/badge:",
        )
    if removed:
        text = (
            f"Removed from the draft: {escape_md(', '.join(removed))} — in no cited source of yours and not in "
            "the profile (only another product's or a third party's document gives it)."
        )
        (st.warning if state is ReviewState.DRAFTED else st.caption)(text)


def _inherited(draft: Draft, state: ReviewState) -> None:
    """A draft supported only by a third party's document (a cloud provider's CAIQ): whose
    evidence it is (``getattr``: ``Draft.inherited_from`` comes with the third-party scopes)."""
    origin = getattr(draft, "inherited_from", None)
    if not origin:
        return
    text = (
        f"Inherited from {escape_md(origin)}: the evidence is that third party's document, not your own; "
        "check that it covers your product."
    )
    _until_decided(text, state, "handshake")


def _stated(draft: Draft, state: ReviewState) -> None:
    """A qualifier answered by what your own documents state, without the model (regulated data:
    engine/drafting/regulated.py; the hosting: engine/drafting/hosting.py): on what it rests, and
    that it decides a section."""
    found = getattr(draft, "stated", None)
    if not found or draft.status is not DraftStatus.DRAFTED:
        return
    basis = (
        "a statement of your own documents" + (", quoted below" if draft.citations else "")
        if found.startswith("documents")
        else "none of your own documents (company-wide or this product's) says the product handles it; "
        "third parties' documents were not read"
    )
    lead = (
        f"{escape_md(draft.choice)} because" if draft.choice else "Answered because"
    )  # no dropdown: the option leads the text
    text = (
        f"{lead} {escape_md(found[0].lower() + found[1:])}: {basis}. "
        "This answer decides whether a whole section is required: check it first."
    )
    _until_decided(text, state, "policy")


def _model_wording(draft: Draft, state: ReviewState) -> None:
    """A generated answer without a choice: the model's wording, which nothing measures."""
    if getattr(draft, "model_wording", False):
        _until_decided(
            "Written by the model from the passages cited below; no confidence measures free text: "
            "read it against the highlighted sources before accepting.",
            state,
            "edit_note",
        )


def _card(pid: int, item: ReviewItem, order: list[str]) -> None:
    """One question's card: its header, what its state asks of the reviewer, the answer editor
    and the actions, then its sources."""
    conflict = _kept(pid, item)
    _card_header(item)
    if conflict is not None:
        _changed(pid, item, conflict, order)
    _state_notes(item)
    a_key, c_key = _answer_editor(pid, item)
    st.session_state[seen_key(pid, item.key)] = Shown(  # what its decisions are made on
        conflict.newer if conflict else item.version, a_key, c_key, item.answer, _box_choice(item)
    )
    _actions(pid, item, order, a_key, c_key)
    _citation_list(item)


def _box_choice(item: ReviewItem) -> str:
    """The row's choice as the choice box shows it ("" for none)."""
    return item.choice if item.choice in item.question.choices else ""


def _kept(pid: int, item: ReviewItem) -> Conflict | None:
    """The refused decision of this row, if any; when the row changed since it was last shown
    and the answer box is reloaded (its key follows the row), text the reviewer typed and did not
    save is carried over (into the refused decision, or into a new one: the row changed under
    it, said at once; applying it saves it as an edit)."""
    conflict = st.session_state.get(conflict_key(pid, item.key))
    shown = st.session_state.get(seen_key(pid, item.key))
    if shown is None or shown.a_key == answer_key(pid, item):
        return conflict
    typed = st.session_state.get(shown.a_key, shown.answer)
    picked = (st.session_state.get(shown.c_key) or "") if shown.c_key else ""
    if typed == shown.answer and picked == shown.choice:
        return conflict  # nothing unsaved: the box shows the row as it is now
    if conflict is not None:
        conflict = replace(conflict, answer=typed, choice=picked)
    else:
        try:
            review_for(workspace(), pid).check(item.key, shown.version)
            return None
        except RowChanged as exc:
            conflict = Conflict("edit", typed, picked, exc.by, exc.now, exc.current)
    st.session_state[conflict_key(pid, item.key)] = conflict
    return conflict


def _changed(pid: int, item: ReviewItem, conflict: Conflict, order: list[str]) -> None:
    """A decision refused because the row changed since it was shown: who or what changed it,
    its answer now; take the newer answer, or apply the reviewer's anyway (on the new version)."""
    now = conflict.now if conflict.now.endswith((".", "…", "?", "!")) else conflict.now + "."
    st.warning(
        f"This row changed since you opened it: {escape_md(conflict.by)} — now: {escape_md(now)} "
        "Your text is kept below.",
        icon=":material/sync_problem:",
    )
    a_key = answer_key(pid, item)
    c_key = choice_key(pid, item) if item.question.choices else None
    b = st.columns(2)
    b[0].button(
        "Take the newer answer",
        icon=":material/refresh:",
        width="stretch",
        on_click=_take_newer,
        args=(pid, item.key, a_key, c_key),
    )
    again = (
        (_regenerate, (pid, item.key, a_key, c_key))
        if conflict.action == "regenerate"
        else (_act, (conflict.action, pid, item.key, a_key, c_key, order))
    )
    b[1].button(
        "Apply mine anyway",
        icon=":material/done_all:",
        width="stretch",
        help=f"{_ACTION_WORDS[conflict.action]} on the row as it is now",
        on_click=again[0],
        args=again[1],
    )


_ACTION_WORDS = {
    "accept": "Accept your text",
    "edit": "Save your edit",
    "needs_sme": "Send it to an SME",
    "reject": "Reject it",
    "regenerate": "Draft it again",
}


def _card_header(item: ReviewItem) -> None:
    """Where the question is, its state and reuse badges, its text and what the workbook holds."""
    q = item.question
    ident = f"{escape_md(q.id)} · " if q.id else ""
    top, badge = st.columns([5, 2], vertical_alignment="center")
    top.caption(f"{ident}sheet {escape_md(q.sheet)} · row {q.row}")
    reused = item.draft is not None and item.draft.reused
    crossed = getattr(item.draft, "from_product", None) if reused else None
    tag = (
        f" :orange-badge[:material/swap_horiz: Choice from {escape_md(crossed)}]"
        if crossed
        else " :violet-badge[:material/history: Reused]"
        if reused
        else ""
    )
    badge.markdown(state_badge_md(item.state) + tag)
    st.markdown(f"##### {escape_md(q.text)}")
    if q.existing_answer or q.existing_choice:
        st.caption(
            "Already in the workbook: " + escape_md(" · ".join(x for x in (q.existing_choice, q.existing_answer) if x))
        )


def _state_notes(item: ReviewItem) -> None:
    """The section's gate, a contradiction, what the state asks for, and the draft's trust notes."""
    state = item.state
    if item.gate is not None:
        text = f"{escape_md(item.gate.section)} section: {escape_md(item.gate.reason)}."
        if state is ReviewState.NOT_REQUIRED:
            st.info(
                f"{text} Left blank on export; answer {escape_md(item.gate.qualifier)} differently to "
                "switch it back on (then Start drafting drafts it).",
                icon=":material/block:",
            )
        else:
            st.caption(text)
    if item.conflict:
        st.warning(f"Contradiction: {escape_md(item.conflict)}.", icon=":material/rule:")
    if state is ReviewState.PENDING:
        st.info(
            "Not drafted yet. Start drafting on the Questionnaire screen, press Regenerate, "
            "or write the answer yourself and Save edit.",
            icon=":material/hourglass_empty:",
        )
    elif state is ReviewState.NO_CONTEXT and item.draft is not None and item.draft.profile_fact:
        st.info(
            f"No profile fact answers this: {escape_md(item.draft.profile_fact)} comes from the company or product "
            "profile only, never from the documents (they name other people's contacts and links). Set it under "
            "Company and product profiles on the Knowledge base screen, then Regenerate, or write the answer here.",
            icon=":material/badge:",
        )
    elif state is ReviewState.NO_CONTEXT:
        found = (
            "The passages found (cited below) do not support an answer."
            if item.citations
            else "The knowledge base has nothing that supports an answer."
        )
        st.info(
            f"{found} Write one, mark the question Needs SME, or add documents and Regenerate.",
            icon=":material/search_off:",
        )
    elif state is ReviewState.ERROR and item.draft is not None:
        st.error(
            f"Drafting failed: {escape_md(item.draft.error)}. Press Regenerate to try again.", icon=":material/error:"
        )
    if item.draft is not None:
        _confidence(item.draft, state)
        _other_product(item.draft, state)
        _profile_and_removed(item.draft, state)
        _inherited(item.draft, state)
        _stated(item.draft, state)
        _model_wording(item.draft, state)
        if item.draft.reused:
            _past_choices(item.draft, state)
    if item.decision is not None and item.decision.note:
        st.caption(f"Note: {escape_md(item.decision.note)}")


def _answer_editor(pid: int, item: ReviewItem) -> tuple[str, str | None]:
    """The choice (a dropdown's options), the answer and the note; the session keys of the
    answer and the choice (None without a dropdown)."""
    q = item.question
    a_key, c_key = answer_key(pid, item), choice_key(pid, item)
    kept = st.session_state.get(conflict_key(pid, item.key))  # a refused decision: the reviewer's text stays
    if q.choices:
        options = [""] + list(q.choices)
        if c_key not in st.session_state:
            choice = kept.choice if kept is not None else item.choice
            st.session_state[c_key] = choice if choice in q.choices else ""
        st.selectbox("Choice", options, key=c_key, format_func=lambda v: v or "—")
    else:
        c_key = None
    if a_key not in st.session_state:
        st.session_state[a_key] = kept.answer if kept is not None else item.answer
    st.text_area("Answer", key=a_key, height=150)
    st.text_input(
        "Note (for Needs SME or Reject)",
        key=note_key(pid, item.key),
        placeholder="Optional: who should answer, or why the draft is wrong",
    )
    return a_key, c_key


def _actions(pid: int, item: ReviewItem, order: list[str], a_key: str, c_key: str | None) -> None:
    """Accept, Save edit, Regenerate, Needs SME, Reject, and Previous / Next."""
    b = st.columns(3)
    b[0].button(
        "Accept",
        type="primary",
        icon=":material/check:",
        width="stretch",
        on_click=_act,
        args=("accept", pid, item.key, a_key, c_key, order),
    )
    b[1].button(
        "Save edit",
        icon=":material/save:",
        width="stretch",
        on_click=_act,
        args=("edit", pid, item.key, a_key, c_key, order),
    )
    b[2].button(
        "Regenerate",
        icon=":material/autorenew:",
        width="stretch",
        on_click=_regenerate,
        args=(pid, item.key, a_key, c_key),
    )
    b = st.columns(3)
    b[0].button(
        "Needs SME",
        icon=":material/support_agent:",
        width="stretch",
        on_click=_act,
        args=("needs_sme", pid, item.key, a_key, c_key, order),
    )
    b[1].button(
        "Reject",
        icon=":material/block:",
        width="stretch",
        on_click=_act,
        args=("reject", pid, item.key, a_key, c_key, order),
    )
    n = st.columns(2)
    n[0].button("Previous", icon=":material/arrow_back:", width="stretch", on_click=_step, args=(order, item.key, -1))
    n[1].button(
        "Next",
        icon=":material/arrow_forward:",
        icon_position="right",
        width="stretch",
        on_click=_step,
        args=(order, item.key, 1),
    )


def _citation_option(item: ReviewItem, n: int) -> str:
    c = item.citations[n]
    where = c.location.label(SHORT) or c.file
    mark = "" if c.label is not AnchorLabel.UNVERIFIED else " ⚠"
    if c.kind is SourceKind.LIBRARY:  # radio options are Markdown: the file name is shown as text
        return f"[{n + 1}] past answer · {escape_md(c.file)}{mark}"
    return f"[{n + 1}] {escape_md(c.file)} · {escape_md(where)}{mark}"


def _hide_excerpt() -> None:
    st.session_state.pop(ask_pane.shown_key(ASK), None)


def _add_excerpt(pid: int, key: str, excerpt) -> str:
    """Add an asked excerpt to the question's citations (written to the review store at once)
    and show it as the question's source."""
    review = review_for(workspace(), pid)
    added = review.add_citation(key, excerpt.citation())
    item = review.item(key)
    if not added:
        return f"{escape_md(item.label)} already cites excerpt [{excerpt.number}]."
    st.session_state[SOURCE_NEXT] = len(item.citations) - 1  # the source radio is drawn already in this run
    _hide_excerpt()
    return f"Excerpt [{excerpt.number}] added to the citations of {escape_md(item.label)}."


def _source(pid: int, item: ReviewItem) -> None:
    """The cited source (or an asked excerpt), then "Ask this document"; switching between
    citations or excerpts reruns only this pane."""
    ws = workspace()
    head = st.container()  # switcher and messages; the viewer keeps its place below them
    c = None
    added = SOURCE_NEXT in st.session_state  # an asked excerpt was just added: its citation is shown as the excerpt was
    if added:
        st.session_state[SOURCE] = st.session_state.pop(SOURCE_NEXT)
    if item.citations:
        n = 0
        if len(item.citations) > 1:
            if st.session_state.get(SOURCE) not in range(len(item.citations)):
                st.session_state[SOURCE] = 0
            n = head.radio(
                "Source",
                list(range(len(item.citations))),
                key=SOURCE,
                horizontal=True,
                on_change=_hide_excerpt,
                format_func=lambda i: _citation_option(item, i),
                label_visibility="collapsed",
            )
        c = item.citations[n]
    cited_doc = c.file if c is not None and c.kind is not SourceKind.LIBRARY else None
    doc = cited_doc or st.session_state.get(ASK_DOC)
    excerpt = ask_pane.shown_excerpt(ws, ASK, doc)
    if excerpt is not None:
        ask_pane.show_excerpt(ws, excerpt, key="review_pdf", head=head)
    elif c is None:
        words = (
            "The source appears here once the question is drafted."
            if item.draft is None
            else "No source to show: the draft cites nothing. Ask a document below."
        )
        head.info(words, icon=":material/menu_book:")
    elif c.kind is SourceKind.PDF:
        # just added: a new viewer (its own key) that scrolls the browser to the outlined lines, which the
        # click on "Add to citations", below the viewer, left off-screen
        show_pdf_citation(ws, c, key="review_pdf:added" if added else "review_pdf", head=head, scroll=added)
    elif c.kind is SourceKind.LIBRARY:
        show_past_answer(ws, c)
    else:
        show_text_citation(ws, c)
    _ask(ws, pid, item, cited_doc)


def _ask(ws, pid: int, item: ReviewItem, cited_doc: str | None) -> None:
    """Ask the shown document (or, when the question cites none, a document chosen here)."""
    names = [d.name for d in ws.documents()]
    if not names:
        return
    doc = cited_doc or st.session_state.get(ASK_DOC)
    open_now = ask_pane.current_run(ws, ASK, doc) is not None
    with st.expander(
        f"Ask {'this document' if cited_doc else 'a document'}",
        icon=":material/quick_reference_all:",
        expanded=open_now,
    ):
        if cited_doc is None:
            if st.session_state.get(ASK_DOC) not in names:
                st.session_state[ASK_DOC] = names[0]
            doc = st.selectbox("Document", names, key=ASK_DOC, on_change=_hide_excerpt)
        else:
            st.caption(
                f"The local model reads **{escape_md(doc)}** and quotes what answers your question; "
                "each excerpt can be shown on its page and added to the citations."
            )
        ask_pane.ask_form(
            ws, doc, key=ASK, on_add=lambda e: _add_excerpt(pid, item.key, e), added=lambda e: item.cites(e.citation())
        )


# ---- the page ---------------------------------------------------------------------------------
ws = workspace()
pid = current_project(ws)
if pid is None:
    st.markdown("### Review")
    st.info(
        "There is no questionnaire to review yet. Upload one on the Questionnaire screen and "
        "start drafting; the drafts appear here, each beside its source.",
        icon=":material/inbox:",
    )
    st.page_link("screens/questionnaire.py", label="Go to the Questionnaire screen", icon=":material/upload_file:")
    st.stop()

try:
    review = review_for(ws, pid)
    items = review.items()
except Exception as exc:  # QuestionnaireError, ReviewStoreError: plain words from the engine
    st.error(f"This questionnaire cannot be opened. {problem_text(exc)}", icon=":material/error:")
    st.page_link("screens/questionnaire.py", label="Go to the Questionnaire screen", icon=":material/upload_file:")
    st.stop()

if not items:
    st.info(
        "No questions were found in this questionnaire. Check the sheet and columns on the Questionnaire screen.",
        icon=":material/info:",
    )
    st.page_link("screens/questionnaire.py", label="Go to the Questionnaire screen", icon=":material/upload_file:")
    st.stop()

keys = [i.key for i in items]
current = st.session_state.get(QUESTION)
if current not in keys:
    current = next((i.key for i in items if i.state in TO_REVIEW), keys[0])
    st.session_state[QUESTION] = current
if st.session_state.get("review_source_for") != current:  # a new question opens on its first highlighted citation
    st.session_state["review_source_for"] = current
    st.session_state.pop(ask_pane.shown_key(ASK), None)  # the new question's own citation, not an asked excerpt
    cited = next(i for i in items if i.key == current).citations
    st.session_state[SOURCE] = next((n for n, c in enumerate(cited) if c.label is not AnchorLabel.UNVERIFIED), 0)

st.html(STYLE)
item = next(i for i in items if i.key == current)
top = st.container()
left, right = st.columns([5, 7], gap="medium")  # the source page gets the wider half
with right:  # drawn first: the browser starts the PDF viewer while the rest of the page arrives
    st.fragment(_source)(pid, item)
order = _sidebar(ws, pid, items, current)
with top:
    if review.library_problem is not None:  # decisions still go to the review store (engine/review/review.py)
        st.warning(
            "Accepted and edited answers are saved in the review store only, not in the answer library: "
            + problem_text(review.library_problem),
            icon=":material/error:",
        )
    _summary(review, items, pid)
    notice = st.session_state.pop(NOTICE, None)
    if notice:  # what the last action did: a toast (the page does not move), a box for a problem
        kind, text = notice
        if kind == "error":
            st.error(text, icon=":material/error:")
        elif kind == "warning":  # done, with a caveat to read (a damaged answer library)
            st.warning(text, icon=":material/warning:")
        else:
            st.toast(text, icon=":material/check_circle:" if kind == "success" else ":material/info:")
with left:
    with st.container(border=True):
        _card(pid, item, order)
