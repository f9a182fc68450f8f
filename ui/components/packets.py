"""The Export screen's "Expert packets": the rows a person holds as a workbook they fill in
without the app, and the filled packet brought back (engine/review/packet.py). A packet refused
shows one line per problem and changes nothing; a row someone decided since the packet was made
is listed as a conflict with both answers, and the reviewer takes the packet's or keeps the
current one."""

from __future__ import annotations

import tempfile
from pathlib import Path

import streamlit as st

from engine.review.packet import Conflict, PacketRefused, apply_packet, packet_bytes, packet_name, read_packet, resolve
from engine.review.review import Review
from ui.components.messages import escape_md, problem_text

MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _conflicts_key(project_id: int) -> str:
    return f"packet_conflicts_{project_id}"


def packets(review: Review) -> None:
    """The section, for the questionnaire of ``review`` (whose ``by`` is the reviewer here)."""
    st.subheader("Expert packets")
    holders = sorted({i.holder for i in review.items() if i.holder}, key=str.casefold)
    if not holders:
        st.caption(
            "Assign rows to an expert on the Review screen (or `python -m engine review assign`): "
            "their rows can then be sent to them as a workbook to fill in without the app."
        )
    else:
        left, right = st.columns([2, 1], vertical_alignment="bottom")
        person = left.selectbox("Packet for", holders, key="packet_person")
        try:
            data = packet_bytes(review, person)
        except Exception as exc:  # the engine's errors say what and how to fix it
            right.error(problem_text(exc))
        else:
            right.download_button(
                "Download packet",
                data,
                file_name=packet_name(review, person),
                mime=MIME,
                icon=":material/outgoing_mail:",
                on_click="ignore",
                width="stretch",
            )
    upload = st.file_uploader(
        "Import a filled packet",
        type=["xlsx"],
        key="packet_upload",
        help="Each filled row becomes a decision by the packet's expert. Rows decided by someone "
        "else since the packet was made are shown here as conflicts, never overwritten.",
    )
    if upload is not None and st.session_state.get("packet_done") != upload.file_id:
        _import(review, upload)
    said = st.session_state.get("packet_said")
    if upload is not None and said:
        st.success(said, icon=":material/move_to_inbox:")
    _show_conflicts(review)


def _import(review: Review, upload) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / Path(upload.name).name
        path.write_bytes(upload.getvalue())
        try:
            packet = read_packet(path, review)
        except PacketRefused as exc:
            st.error(
                f"**{escape_md(upload.name)}** was not imported (nothing changed):\n\n"
                + "\n".join(f"- {escape_md(p)}" for p in exc.problems),
                icon=":material/block:",
            )
            return
        done = apply_packet(review, packet)
    st.session_state["packet_done"] = upload.file_id
    st.session_state[_conflicts_key(review.project_id)] = list(done.conflicts)
    st.session_state["packet_said"] = (
        f"{escape_md(upload.name)}: {len(done.decided)} answer{'s' if len(done.decided) != 1 else ''} "
        f"by {escape_md(packet.person)}, {done.comments} comment{'s' if done.comments != 1 else ''}, "
        f"{done.empty} left empty, {len(done.conflicts)} conflict{'s' if len(done.conflicts) != 1 else ''}."
    )
    st.rerun()  # the counts and lists at the top of the screen are drawn before this section: again, with the import


def _show_conflicts(review: Review) -> None:
    key = _conflicts_key(review.project_id)
    conflicts: list[Conflict] = st.session_state.get(key) or []
    for n, c in enumerate(list(conflicts)):
        with st.container(border=True):
            st.markdown(
                f"**Conflict {escape_md(c.row.id)}**: decided by {escape_md(c.who or c.changed_by)} since the "
                "packet was made; nothing was overwritten."
            )
            a, b = st.columns(2)
            a.markdown(f"Packet: **{escape_md(c.row.choice or '—')}** {escape_md(c.row.answer or '')}")
            b.markdown(f"Now: **{escape_md(c.now_choice or '—')}** {escape_md(c.now_answer)}")
            take, keep = st.columns(2)
            if take.button("Take the packet's answer", key=f"packet_take_{c.row.key}_{n}", width="stretch"):
                try:
                    resolve(review, c, take_packet=True)
                except Exception as exc:
                    st.error(problem_text(exc))
                    return
                conflicts.remove(c)
                st.rerun()
            if keep.button("Keep the current answer", key=f"packet_keep_{c.row.key}_{n}", width="stretch"):
                conflicts.remove(c)
                st.rerun()
