"""The Review card of one question: where it is, its state and text (the header), what its state
asks and why to look at the draft (ui/review/notes.py), the answer editor, and the actions —
Accept, Save edit, Regenerate, Needs SME, Reject, Previous / Next. Every action is written to
the review store at once (``Review`` methods), so a refresh or an app restart loses nothing;
after an action the next question to review opens (:func:`next_to_review`), and what it did is
said once on the next run (:func:`show_notice`). The answer box grows with its text, within a
minimum and a maximum height (:func:`answer_height`).

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
from dataclasses import dataclass, replace

import streamlit as st

from engine.app import ReviewStoreError, RowChanged, RowVersion
from engine.core.types import StoreReplaced
from engine.questionnaire.mapping import location
from engine.questionnaire.records import Question, joined_choices, picked_choices
from engine.questionnaire.solicitation.as_questionnaire import is_solicitation
from engine.review.review import ReviewItem, ReviewState
from ui import resources
from ui.components import cached_questionnaire
from ui.components.messages import escape_md, problem_text
from ui.components.status import state_badge_md
from ui.resources import QUESTION
from ui.review import source
from ui.review.notes import state_notes
from ui.review.requirement import requirement_page

NOTICE = "review_notice"  # what the last action did, said on the next run
TO_REVIEW = (ReviewState.DRAFTED, ReviewState.NO_CONTEXT, ReviewState.ERROR)
# the answer box's height in pixels: its text's lines (wrapped at about CHARS_PER_LINE characters
# in the card's column), within MIN_HEIGHT and MAX_HEIGHT (a longer text scrolls)
CHARS_PER_LINE = 60
LINE_PX = 24
MIN_HEIGHT = 110
MAX_HEIGHT = 480


# ---- data -------------------------------------------------------------------------------------
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


def answer_height(text: str) -> int:
    """The answer box's height for ``text`` (pixels): a line per line of text, long lines wrapped."""
    lines = sum(max(1, -(-len(line) // CHARS_PER_LINE)) for line in text.split("\n"))
    return min(max(LINE_PX * lines + 2 * LINE_PX, MIN_HEIGHT), MAX_HEIGHT)


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


def show_notice() -> None:
    """What the last action did: a toast (the page does not move), a box for a problem."""
    notice = st.session_state.pop(NOTICE, None)
    if not notice:
        return
    kind, text = notice
    if kind == "error":
        st.error(text, icon=":material/error:")
    elif kind == "warning":  # done, with a caveat to read (a damaged answer library)
        st.warning(text, icon=":material/warning:")
    else:
        st.toast(text, icon=":material/check_circle:" if kind == "success" else ":material/info:")


def _step(order: list[str], current: str, delta: int) -> None:
    if not order:
        return
    if current in order:
        i = min(max(order.index(current) + delta, 0), len(order) - 1)
    else:
        i = 0 if delta > 0 else len(order) - 1
    st.session_state[QUESTION] = order[i]


def _act(action: str, pid: int, key: str, a_key: str, c_key: str | None, order: list[str]) -> None:
    ws = resources.workspace()
    review = cached_questionnaire.review(ws, pid)
    answer = st.session_state.get(a_key, "")
    choice = _picked(c_key) if c_key else None
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
    ws = resources.workspace()
    review = cached_questionnaire.review(ws, pid)
    before = review.item(key)
    label = escape_md(before.label)
    try:
        with st.spinner(f"Drafting {label} again…"):
            draft = ws.regenerate(pid, key, _seen(pid, key))
    except RowChanged as exc:  # nothing drafted or stored; the card shows the row now and keeps the text
        answer = st.session_state.get(a_key, "") if a_key else before.answer
        _refused(pid, key, "regenerate", exc, answer, _picked(c_key) if c_key else None)
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
        st.session_state[choice_key(pid, after)] = _choice_shown(after.question, draft.choice)
    source.reset()
    if after.decision is not None:
        _notice(
            "info",
            f"{label}: new draft loaded below. The question stays {after.state.label} "
            "until you Accept or Save edit again.",
        )
    else:
        _notice("success", f"{label}: new draft ({after.state.label.lower()}).")


# ---- pieces of the card -----------------------------------------------------------------------
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


def _header(pid: int, item: ReviewItem) -> None:
    """Where the question is (a sheet's row, a Word document's paragraph, a PDF's page), its state
    and reuse badges, its text and what the file holds."""
    q = item.question
    questionnaire = cached_questionnaire.review(resources.workspace(), pid).questionnaire
    where = location(questionnaire, q)
    ident = f"{escape_md(q.id)} · " if q.id else ""
    top, badge = st.columns([5, 2], vertical_alignment="center")
    top.caption(f"{ident}{escape_md(where)}")  # a document's question: its paragraph, or its page of a PDF
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
    if q.existing_answer or q.existing_choice:  # a solicitation's checklist row says what it is itself
        held = " · ".join(x for x in (q.existing_choice, q.existing_answer) if x)
        st.caption(escape_md(held) if is_solicitation(questionnaire) else "Already in the workbook: " + escape_md(held))


def _answer_editor(pid: int, item: ReviewItem) -> tuple[str, str | None]:
    """The choice (a dropdown's options), the answer (its box as tall as its text) and the note;
    the session keys of the answer and the choice (None without a dropdown)."""
    q = item.question
    a_key, c_key = answer_key(pid, item), choice_key(pid, item)
    kept = st.session_state.get(conflict_key(pid, item.key))  # a refused decision: the reviewer's text stays
    if q.choices:
        if c_key not in st.session_state:
            st.session_state[c_key] = _choice_shown(q, kept.choice if kept is not None else item.choice)
        if q.several:  # "tick all that apply": every option the reviewer picks is ticked on export
            st.multiselect("Choices (all that apply)", list(q.choices), key=c_key, placeholder="—")
        else:
            st.selectbox("Choice", [""] + list(q.choices), key=c_key, format_func=lambda v: v or "—")
    else:
        c_key = None
    if a_key not in st.session_state:
        st.session_state[a_key] = kept.answer if kept is not None else item.answer
    st.text_area("Answer", key=a_key, height=answer_height(st.session_state[a_key] or ""))
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


def _box_choice(item: ReviewItem) -> str:
    """The row's choice as the choice box shows it ("" for none; a choice of several's options joined)."""
    shown = _choice_shown(item.question, item.choice)
    return joined_choices(shown) if isinstance(shown, list) else shown


def _choice_shown(q: Question, choice: str | None) -> str | list[str]:
    """What the choice box of ``q`` holds for ``choice``: the option ("" for none), or for a choice
    of several the list of its options (records.picked_choices; what is no option left out)."""
    if q.several:
        return [c for c in picked_choices(choice, q.choices) if c in q.choices]
    return choice if choice in q.choices else ""


def _picked(c_key: str) -> str:
    """The choice the box of ``c_key`` holds, as stored: one option, or several joined ("" for none)."""
    value = st.session_state.get(c_key) or ""
    return joined_choices(value) if isinstance(value, list) else value


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
    picked = _picked(shown.c_key) if shown.c_key else ""
    if typed == shown.answer and picked == shown.choice:
        return conflict  # nothing unsaved: the box shows the row as it is now
    if conflict is not None:
        conflict = replace(conflict, answer=typed, choice=picked)
    else:
        try:
            cached_questionnaire.review(resources.workspace(), pid).check(item.key, shown.version)
            return None
        except RowChanged as exc:
            conflict = Conflict("edit", typed, picked, exc.by, exc.now, exc.current)
    st.session_state[conflict_key(pid, item.key)] = conflict
    return conflict


def card(pid: int, item: ReviewItem, order: list[str]) -> None:
    """One question's card: its header (a solicitation's requirement on its own page under it:
    ui/review/requirement.py), what its state asks of the reviewer and why to look at the draft,
    the answer editor and the actions (its citations follow: ui/review/source.py)."""
    conflict = _kept(pid, item)
    _header(pid, item)
    requirement_page(pid, item)  # a solicitation's requirement outlined on its own page
    if conflict is not None:
        _changed(pid, item, conflict, order)
    state_notes(item)
    a_key, c_key = _answer_editor(pid, item)
    st.session_state[seen_key(pid, item.key)] = Shown(  # what its decisions are made on
        conflict.newer if conflict else item.version, a_key, c_key, item.answer, _box_choice(item)
    )
    _actions(pid, item, order, a_key, c_key)
