"""The company and product profiles on the Knowledge base screen (engine/index/profile.py): every
fact drafting uses, with whose it is, where it comes from (a past questionnaire, a product's own
document, or set by hand) and its source, and a form to set a fact (an empty value removes one
set by hand). Facts set here win over learned ones and are used by the next drafts."""

from __future__ import annotations

import streamlit as st

from engine.index.library import AnswerLibrary
from engine.index.profile import Fact, Profile, ProfileError, set_fact
from ui.components.messages import escape_md

COMPANY = "Company"
WHOSE = "profile_whose"
KEY = "profile_key"
VALUE = "profile_value"
NOTICE = "profile_notice"


def profile_rows(profile: Profile) -> list[dict]:
    """The facts as table rows: whose, fact, value, where from, source. A product's document fact
    that its own questionnaire or a responder overrides is not listed."""
    rows = [_row(COMPANY, f) for _, f in sorted(profile.company.items())]
    for product in sorted(set(profile.products) | set(profile.documented)):
        own = profile.products.get(product, {})
        documented = {k: f for k, f in profile.documented.get(product, {}).items() if k not in own}
        rows += [_row(product, f) for _, f in sorted({**documented, **own}.items())]
    return rows


def _row(whose: str, f: Fact) -> dict:
    return {"Whose": whose, "Fact": f.key, "Value": f.value, "From": f.origin, "Source": f.cited}


def _save(library: AnswerLibrary) -> None:
    whose, key, value = st.session_state.get(WHOSE), st.session_state.get(KEY, ""), st.session_state.get(VALUE, "")
    try:
        fact = set_fact(library.folder, key, value, None if whose in (None, COMPANY) else whose)
    except ProfileError as exc:
        st.session_state[NOTICE] = ("error", str(exc))
        return
    st.session_state[NOTICE] = (
        "success",
        f"{'Removed' if not fact.value else 'Set'} {fact.key} for {whose or COMPANY}.",
    )
    st.session_state[KEY] = st.session_state[VALUE] = ""


def profile_section(library: AnswerLibrary, profile: Profile, products: list[str], drafting: bool) -> None:
    st.subheader("Company and product profiles")
    st.caption(
        "Facts answered word for word, without the model: the vendor's name, links, contacts, hosting "
        "regions… Learned from the answer library (a fact the company's past questionnaires agree on; a "
        "product's own questionnaire for its product) and from a product's own documents where they state "
        "it in a form that can be read (an attestation's contact, a certificate's service description). "
        "Facts you set here win over learned ones."
    )
    rows = profile_rows(profile)
    if rows:
        st.dataframe(rows, hide_index=True, width="stretch")
    else:
        st.caption("No facts yet: import past questionnaires above, or set one below.")
    notice = st.session_state.pop(NOTICE, None)
    if notice:
        (st.error if notice[0] == "error" else st.success)(escape_md(notice[1]))
    whose = [COMPANY] + sorted({r["Whose"] for r in rows if r["Whose"] != COMPANY} | set(products))
    a, b, c = st.columns([2, 2, 4], vertical_alignment="bottom")
    a.selectbox("Whose", whose, key=WHOSE)
    b.text_input("Fact", key=KEY, placeholder="e.g. vendor_name")
    c.text_input("Value", key=VALUE, placeholder="empty: remove the fact you set")
    st.button(
        "Set fact",
        icon=":material/badge:",
        on_click=_save,
        args=(library,),
        disabled=drafting or not st.session_state.get(KEY),
    )
