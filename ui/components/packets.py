"""Expert packets in the app (engine/review/packet.py): on the Export screen, the rows a person
holds made into a workbook they fill in without the app (*Make packet*, which the review store
records, then *Download packet*); there and on My questions, a filled packet brought back. Its
answers become the decisions of whoever is signed in (the person the packet was made for; without
accounts, that person as the store recorded it), on the rows assigned to them now. A packet
refused shows one line per problem and changes nothing; a row changed since the packet was made is
listed as a conflict with both answers, and the importer takes the packet's or keeps the current
one. Nothing here shows a server path: the problems name the upload and its rows."""

from __future__ import annotations

import tempfile
from pathlib import Path

import streamlit as st

from engine.app.workspace import Workspace
from engine.core.accounts import NotAllowed
from engine.core.types import FileProblem, StoreDamaged, StoreReplaced
from engine.review.packet import (
    Conflict,
    PacketRefused,
    apply_packet,
    held_by,
    packet_bytes,
    packet_name,
    packet_project,
    read_packet,
    resolve,
)
from engine.review.review import Review, RowChanged
from ui.components import cached_questionnaire
from ui.components.messages import escape_md, problem_text, sentence
from ui.components.uploads import refusal_of, upload_name

MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
MADE = "packet_made"  # session_state: (project id, person, file name, bytes, rows) of the packet made last
CONFLICTS = "packet_conflicts"  # session_state: [(project id, Conflict)] left by the imports of this session
DONE = "packet_done"  # session_state: the file id of the upload imported last (imported once)
SAID = "packet_said"  # session_state: what that import did


def packets(ws: Workspace, review: Review) -> None:
    """The Export screen's section, for the questionnaire of ``review`` (whose ``by`` is the
    person here)."""
    st.subheader("Expert packets")
    holders = sorted({i.holder for i in review.items() if i.holder}, key=str.casefold)
    if not holders:
        st.caption(
            "Assign rows to an expert on the Review screen (or `python -m engine review assign`): "
            "their rows can then be sent to them as a workbook to fill in without the app."
        )
    else:
        _make(review, holders)
    packet_import(
        ws,
        review.project_id,
        "Import a filled packet",
        "Each filled row becomes a decision by the person the packet was made for, who imports it "
        "signed in (or, without accounts, by that person's name). Rows changed since the packet was "
        "made are shown here as conflicts, never overwritten.",
    )


def _make(review: Review, holders: list[str]) -> None:
    left, middle, right = st.columns([2, 1, 1], vertical_alignment="bottom")
    person = left.selectbox("Packet for", holders, key="packet_person")
    if middle.button("Make packet", icon=":material/note_add:", width="stretch"):
        try:  # recorded in the review store as it is made: what its import will be checked against
            data = packet_bytes(review, person)
        except Exception as exc:  # the engine's errors say what and how to fix it
            st.error(problem_text(exc))
        else:
            rows = len(held_by(review, person))
            st.session_state[MADE] = (review.project_id, person, packet_name(review, person), data, rows)
    made = st.session_state.get(MADE)
    if made is not None and made[:2] == (review.project_id, person):
        _, _, name, data, rows = made
        right.download_button(
            "Download packet", data, file_name=name, mime=MIME, icon=":material/outgoing_mail:", on_click="ignore",
            width="stretch",
        )  # fmt: skip
        st.caption(f"{escape_md(name)}: {rows} row{'s' if rows != 1 else ''} of {escape_md(person)}, made just now.")


def packet_import(ws: Workspace, project_id: int | None, label: str, help: str) -> None:
    """The uploader of a filled packet, its outcome and the conflicts it left: the packet of the
    questionnaire ``project_id``, or (None) of any questionnaire, as the store recorded it."""
    upload = st.file_uploader(label, type=["xlsx"], key=f"packet_upload_{project_id}", help=help)
    if (refused := refusal_of(upload)) is not None:  # a name or type Streamlit's uploader refused: words, no traceback
        st.error(refused.message(), icon=":material/block:")
        return
    if upload is not None and st.session_state.get(DONE) != upload.file_id:
        _import(ws, project_id, upload)
    said = st.session_state.get(SAID)
    if upload is not None and said:
        st.success(said, icon=":material/move_to_inbox:")
    _show_conflicts(ws)


def _import(ws: Workspace, project_id: int | None, upload) -> None:
    name = escape_md(upload_name(upload.name))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / (Path(upload_name(upload.name)).name or "packet.xlsx")
        path.write_bytes(upload.getvalue())
        try:
            ws.vet_packet(path)  # apart from the server, within a memory ceiling and a time limit (#56)
            pid = project_id if project_id is not None else packet_project(path, ws.review_store)
            review = cached_questionnaire.review(ws, pid)
            done = apply_packet(review, read_packet(path, review))
        except PacketRefused as exc:
            st.error(
                f"**{name}** was not imported (nothing changed):\n\n"
                + "\n".join(f"- {escape_md(p)}" for p in exc.problems)
                + f"\n\n{escape_md(sentence(exc.fix))}",
                icon=":material/block:",
            )
            return
        except (StoreDamaged, StoreReplaced):
            raise  # the app says these on every screen, in one line (ui/app.py)
        except Exception as exc:  # NotAllowed, a questionnaire that cannot be read…: its words, never a server path
            said = f"{exc.problem}; {exc.fix}" if isinstance(exc, FileProblem) else str(exc) or type(exc).__name__
            st.error(f"**{name}** was not imported (nothing changed): {escape_md(said)}", icon=":material/block:")
            return
    st.session_state[DONE] = upload.file_id
    st.session_state[CONFLICTS] = [(review.project_id, c) for c in done.conflicts]
    st.session_state[SAID] = (
        f"{name}: {len(done.decided)} answer{'s' if len(done.decided) != 1 else ''} "
        f"by {escape_md(done.person)}, {done.comments} comment{'s' if done.comments != 1 else ''}, "
        f"{done.empty} left empty, {len(done.conflicts)} conflict{'s' if len(done.conflicts) != 1 else ''}."
    )
    st.rerun()  # the counts and lists at the top of the screen are drawn before this section: again, with the import


def _show_conflicts(ws: Workspace) -> None:
    conflicts: list[tuple[int, Conflict]] = st.session_state.get(CONFLICTS) or []
    for n, (project_id, c) in enumerate(list(conflicts)):
        with st.container(border=True):
            st.markdown(
                f"**Conflict {escape_md(c.row.id)}**: decided by {escape_md(c.who or c.changed_by)} since the "
                "packet was made; nothing was overwritten."
            )
            a, b = st.columns(2)
            a.markdown(f"Packet: **{escape_md(c.row.choice or '—')}** {escape_md(c.row.answer or '')}")
            b.markdown(f"Now: **{escape_md(c.now_choice or '—')}** {escape_md(c.now_answer)}")
            take, keep = st.columns(2)
            if take.button(
                "Take the packet's answer", key=f"packet_take_{project_id}_{c.row.key}_{n}", width="stretch"
            ):
                try:
                    resolve(cached_questionnaire.review(ws, project_id), c, take_packet=True)
                except (RowChanged, NotAllowed, ValueError) as exc:
                    st.error(problem_text(exc) if not isinstance(exc, RowChanged) else escape_md(exc.problem))
                    return
                conflicts.remove((project_id, c))
                st.rerun()
            if keep.button("Keep the current answer", key=f"packet_keep_{project_id}_{c.row.key}_{n}", width="stretch"):
                conflicts.remove((project_id, c))
                st.rerun()
