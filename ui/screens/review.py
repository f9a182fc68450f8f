"""Review: every question of the questionnaire with its draft, the citations behind it and the
source page with the quoted lines outlined; the reviewer accepts, edits, regenerates, sends to
an SME or rejects. This page holds the sidebar (drafting progress, filters, the question list)
and lays out the parts of ui/review/: the card of the open question (ui/review/card.py: header,
notes, answer editor, actions, a decision refused because the row changed) on the left, beside
its source (ui/review/source.py: the cited page, "Ask this document") on the right.

The list marks each undecided draft with the icons of its warnings in doubt (``Draft.warnings``,
ui/review/notes.py). *Review first* puts the qualifiers nobody has answered yet at the top of the
list (answered early, they decide their sections before drafting reaches them), then the
undecided drafts whose estimated risk of being wrong is at or above the calibrated threshold
(``Draft.review_first``, engine/drafting/risk.py), highest risk first, then the rest in the
questionnaire's order (and so of Next and of the question opened after each decision).

The list filters by status, by row type (``ReviewItem.row_type``: Yes/No, dropdown, profile,
narrative, or gated while a qualifier switches the row off), by who holds the row (its
assignment, ui/review/team.py, shown on its line) and by words of the question or answer; a
report's figure opened in Review lists only its rows (ui/components/review_focus.py); a search that
leaves one row opens it. The drafts that reuse library answers past their review-by date are one
line above the list, with a link to the Knowledge base and a filter to them (:func:`stale_line`),
not a warning on each of their cards (#50)."""

from __future__ import annotations

from collections import Counter

import streamlit as st

from engine.review.review import Review, ReviewItem, ReviewState, RowType
from ui.components import cached_questionnaire, review_focus
from ui.components.messages import escape_md, problem_text
from ui.components.sign_in import rows_for_me, screen_link
from ui.components.status import state_icon_md
from ui.resources import PROJECT, QUESTION, current_project, workspace
from ui.review import approval, notes, source, team
from ui.review.card import TO_REVIEW, card, show_notice
from ui.review.notes import stale, stale_line

# widget / on-screen keys of this screen
LIST = "review_list"
FILTER = "review_filter"
TYPES = "review_types"  # the row-type filter
SEARCH = "review_search"
LOW_FIRST = "review_low_first"
HOLDERS = "review_holders"  # the filter by who holds a row
STALE = "review_stale"  # the filter to the drafts reusing library answers past their review-by date
MODEL_TEXTS = "review_model_texts"  # the filter to the model's texts outside Review first (#59)
NOBODY = ""  # its value for the rows nobody holds
PAGE = "review_page"
PAGE_FOR = "review_page_for"

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
REVIEW_FIRST_HELP = (
    "At the top of the list: the qualifiers nobody has answered yet (their answers decide whole "
    "sections), then the undecided drafts whose estimated risk of being wrong is high — other "
    "products disagree, the model was unsure, only a third party's evidence, the model's own "
    "wording without a verified quote… — highest risk first. The model's other texts are under "
    "Read the model's texts."
)

MODEL_TEXTS_HELP = (
    "Only the drafts whose text the model wrote (a narrative from quotes of the documents, or its "
    "explanation of a choice) and that are not in Review first: no choice of theirs is in doubt, "
    "but someone must read what the model wrote before it goes out."
)


# ---- the list ---------------------------------------------------------------------------------
def matches(
    item: ReviewItem,
    states: set[ReviewState],
    search: str,
    types: set[RowType] = frozenset(),
    holders: set[str] = frozenset(),
) -> bool:
    """In the list under the status filter, the search, the row-type filter and the filter by
    who holds the row (``NOBODY``: nobody; empty: all)."""
    if states and item.state not in states:
        return False
    if holders and (item.holder or NOBODY).casefold() not in {h.casefold() for h in holders}:
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


def review_first(item: ReviewItem) -> bool:
    """A qualifier the reviewer has not answered yet (its answer decides whole sections, even
    while drafting runs), or a draft nobody has decided on yet whose estimated risk of being
    wrong is at or above the threshold (``ReviewItem.review_first``, engine/review/review.py)."""
    return item.review_first


def listed_order(items: list[ReviewItem], low_first: bool) -> list[ReviewItem]:
    """The questionnaire's order, or the ones to review first at the top: the unanswered
    qualifiers (in the questionnaire's order), then the undecided drafts at or above the risk
    threshold by risk, highest first, then the rest in the questionnaire's order."""
    if not low_first:
        return items

    def rank(item: ReviewItem) -> tuple[int, float]:
        if item.unanswered_qualifier:
            return 0, 0.0
        if review_first(item):
            return 1, -(item.draft.risk or 0.0)
        return 2, 0.0

    return sorted(items, key=rank)  # stable: ties keep the questionnaire's order


def _pick() -> None:
    if st.session_state.get(LIST):
        st.session_state[QUESTION] = st.session_state[LIST]


def _open_single(items: list[ReviewItem]) -> None:
    """A search that leaves one row in the list opens it (on the search's change, before the page is drawn)."""
    search = st.session_state.get(SEARCH) or ""
    if not search.split():
        return
    states = set(st.session_state.get(FILTER) or ())
    types = set(st.session_state.get(TYPES) or ())
    holders = set(st.session_state.get(HOLDERS) or ())
    only_stale = bool(st.session_state.get(STALE))
    left = [i for i in items if matches(i, states, search, types, holders) and (not only_stale or stale(i))]
    if len(left) == 1:
        st.session_state[QUESTION] = left[0].key


# ---- the sidebar ------------------------------------------------------------------------------
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
        st.progress(status.fraction, text=f"{status.doing}{eta}")
        if st.button("Show new drafts", icon=":material/refresh:", type="tertiary", key="review_refresh"):
            st.rerun()
    elif status is not None and status.error:
        st.caption(f":orange[:material/warning:] Drafting ended early: {escape_md(status.error)}")


def _item_line(item: ReviewItem) -> str:
    text = item.question.text.replace("\n", " ")
    short = text if len(text) <= 56 else text[:54].rstrip() + "…"
    icons = "".join(f" :orange[:material/{icon}:]" for icon in notes.marks(item))  # its warnings in doubt
    icons += " :red[:material/rule:]" if item.conflict else ""  # a follow-up answered against its qualifier
    held = f" :blue[:material/person: {escape_md(item.holder)}]" if item.holder else ""  # who holds it
    return f"{state_icon_md(item.state)}{icons} **{escape_md(item.label)}**{held} {escape_md(short)}"


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

        focus = review_focus.focus_bar(pid)  # a report's figure opened here (#51): only its rows
        states, types, search, low_first, holders = _filters(items)
        only_stale = _stale_filter(items)
        only_texts = _model_texts_filter(items)
        listed = [i for i in items if focus is None or i.key in focus]
        visible = listed_order(
            [
                i
                for i in listed
                if matches(i, states, search, types, holders)
                and (not only_stale or stale(i))
                and (not only_texts or i.reads_model_text)
            ],
            low_first,
        )
        order = [i.key for i in visible]
        st.caption(f"{len(visible)} of {len(items)} questions")
        view = (tuple(sorted(states)), tuple(sorted(types)), search, low_first, tuple(holders), only_stale, only_texts)
        shown = _page(order, current, view)
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


def _filters(items: list[ReviewItem]) -> tuple[set[ReviewState], set[RowType], str, bool, set[str]]:
    """The status and row-type filters (empty: all), the search words, *Review first* and the
    filter by who holds the row (empty: all)."""
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
        "Search",
        key=SEARCH,
        placeholder="ID or words in the question or answer",
        icon=":material/search:",
        on_change=_open_single,
        args=(items,),
    )
    low = sum(review_first(i) for i in items)
    low_first = st.toggle(
        f"Review first ({low})",
        key=LOW_FIRST,
        help=REVIEW_FIRST_HELP,
    )
    held = Counter(i.holder or NOBODY for i in items)
    if any(h not in held for h in st.session_state.get(HOLDERS) or ()):  # e.g. a row given to someone else
        st.session_state[HOLDERS] = [h for h in st.session_state[HOLDERS] if h in held]
    holders = st.multiselect(
        "Held by",
        sorted(held, key=lambda h: (h == NOBODY, h.casefold())),
        key=HOLDERS,
        placeholder="Anyone",
        format_func=lambda h: f"{h or 'Nobody'} ({held[h]})",
    )
    return set(states or ()), set(types or ()), search, low_first, set(holders or ())


def _model_texts_filter(items: list[ReviewItem]) -> bool:
    """*Read the model's texts* (#59): the undecided drafts whose text the model wrote and that are
    not in Review first (``ReviewItem.reads_model_text``) — its narratives with verified quotes,
    its explanations of a choice; whether the filter is on (False when there are none)."""
    count = sum(i.reads_model_text for i in items)
    if not count:
        st.session_state.pop(MODEL_TEXTS, None)
        return False
    return st.toggle(f"Read the model's texts ({count})", key=MODEL_TEXTS, help=MODEL_TEXTS_HELP)


def _stale_filter(items: list[ReviewItem]) -> bool:
    """The one line for the drafts reusing library answers past their review-by date, with the
    Knowledge base's link and a filter to them; whether the filter is on (False when there are none)."""
    count = sum(stale(i) for i in items)
    if not count:
        st.session_state.pop(STALE, None)
        return False
    st.caption(f":material/event_busy: {escape_md(stale_line(count))}")
    screen_link("screens/knowledge_base.py", label="Knowledge base", icon=":material/library_books:")
    return st.toggle(f"Only these ({count})", key=STALE)


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
    screen_link("screens/questionnaire.py", label="Go to the Questionnaire screen", icon=":material/upload_file:")
    st.stop()

try:
    review = cached_questionnaire.review(ws, pid)
    items = review.items()
    mine = rows_for_me(items)  # an expert: only the rows assigned to them (ui/components/sign_in.py)
except Exception as exc:  # QuestionnaireError, ReviewStoreError: plain words from the engine
    st.error(f"This questionnaire cannot be opened. {problem_text(exc)}", icon=":material/error:")
    screen_link("screens/questionnaire.py", label="Go to the Questionnaire screen", icon=":material/upload_file:")
    st.stop()

if not items:
    st.info(
        "No questions were found in this questionnaire. Check the sheet and columns on the Questionnaire screen.",
        icon=":material/info:",
    )
    screen_link("screens/questionnaire.py", label="Go to the Questionnaire screen", icon=":material/upload_file:")
    st.stop()

if not mine:
    st.info(
        "No row of this questionnaire is assigned to you: My questions lists what waits for you.",
        icon=":material/inbox:",
    )
    st.stop()
items = mine
keys = [i.key for i in items]
current = st.session_state.get(QUESTION)
if current not in keys:
    current = next((i.key for i in items if i.state in TO_REVIEW), keys[0])
    st.session_state[QUESTION] = current
source.follow(items, current)  # a new question opens on its first highlighted citation

st.html(STYLE)
item = next(i for i in items if i.key == current)
top = st.container()
left, right = st.columns([5, 7], gap="medium")  # the source page gets the wider half
with right:  # drawn first: the browser starts the PDF viewer while the rest of the page arrives
    st.fragment(source.source)(pid, item)
order = _sidebar(ws, pid, items, current)
with top:
    if review.library_problem is not None:  # decisions still go to the review store (engine/review/review.py)
        st.warning(
            "Accepted and edited answers are saved in the review store only, not in the answer library: "
            + problem_text(review.library_problem),
            icon=":material/error:",
        )
    _summary(review, items, pid)
    show_notice()  # what the last action did
with left:
    with st.container(border=True):
        card(pid, item, order)
        approval.line(pid, item, review.by)  # approved by whom, or Approve (ui/review/approval.py)
        team.panels(pid, item, review, items)  # who holds it, comments, history (ui/review/team.py)
        source.citation_list(item)
