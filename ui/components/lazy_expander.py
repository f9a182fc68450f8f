"""An expander whose body is drawn only while it is open (Streamlit's stateful expander: opening
or closing it reruns the screen), for long lists with their actions: a closed list costs its
label only. It stays open when its label changes (a count in it: an entry approved, renewed or
retired inside it), which Streamlit would otherwise take for a new expander, closed."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import streamlit as st

OPENED = "lazy_expanders_open"  # the keys of the lazy expanders the reader opened


def _toggled(key: str) -> None:
    opened = st.session_state.setdefault(OPENED, set())
    if st.session_state.get(key):
        opened.add(key)
    else:
        opened.discard(key)


@contextmanager
def lazy_expander(label: str, key: str, *, icon: str | None = None) -> Iterator[bool]:
    """``with lazy_expander(label, key) as open:`` — draw the body only when ``open``."""
    box = st.expander(
        label,
        expanded=key in st.session_state.get(OPENED, ()),
        key=key,
        icon=icon,
        on_change=_toggled,
        args=(key,),
    )
    with box:
        yield bool(box.open)
