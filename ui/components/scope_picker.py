"""Choosing a document scope (engine/core/scopes.py): company-wide, one or more products (known ones
or a new name), or a third party (a known one or a new name)."""

from __future__ import annotations

import streamlit as st

from engine.core.scopes import Scope, ScopeError
from ui.components.messages import escape_md

COMPANY, PRODUCT, THIRD_PARTY = "Company-wide", "Product", "Third party"
KINDS = (COMPANY, PRODUCT, THIRD_PARTY)
NEW = "New third party…"


def scope_text(scope: Scope) -> str:
    """A scope as the screens show it: "Company-wide", "Product: Canvas LMS", "Third party: AWS"."""
    return scope.label[:1].upper() + scope.label[1:]


def scope_picker(
    key: str, products: list[str], third_parties: list[str], current: Scope = Scope(), disabled: bool = False
) -> Scope | None:
    """The widgets (keys starting with ``key``) and the scope they say; None, with the reason
    shown, while it is incomplete or a name is not allowed."""
    kind = COMPANY if current.company else PRODUCT if current.products else THIRD_PARTY
    kind = st.radio(
        "Scope",
        KINDS,
        index=KINDS.index(kind),
        key=f"{key}_kind",
        horizontal=True,
        disabled=disabled,
        help="Company-wide documents serve every questionnaire; a product's only that product's "
        "questionnaires (and never another product's); a third party's (a cloud provider's "
        "certificate) serve every questionnaire, labelled as the third party's.",
    )
    if kind == COMPANY:
        return Scope()
    if kind == PRODUCT:
        known = sorted(set(products) | set(current.products))
        chosen = st.multiselect(
            "Products",
            known,
            default=list(current.products),
            key=f"{key}_products",
            disabled=disabled,
            placeholder="Choose products" if known else "No products yet",
        )
        new = st.text_input(
            "New product",
            key=f"{key}_new_product",
            disabled=disabled,
            placeholder="e.g. Canvas LMS",
            help="A product not in the list",
        )
        names = list(chosen) + ([new] if new.strip() else [])
        if not names:
            st.caption("Choose a product or type a new one.")
            return None
        return _checked(lambda: Scope(tuple(names)))
    known = sorted(set(third_parties) | ({current.third_party} if current.third_party else set()))
    options = known + [NEW]
    index = known.index(current.third_party) if current.third_party in known else len(known)
    name = st.selectbox("Third party", options, index=index, key=f"{key}_third_party", disabled=disabled)
    if name == NEW:
        name = st.text_input(
            "New third party", key=f"{key}_new_third_party", disabled=disabled, placeholder="e.g. Amazon Web Services"
        )
        if not name.strip():
            st.caption("Type the third party's name.")
            return None
    return _checked(lambda: Scope(third_party=name))


def _checked(make) -> Scope | None:
    try:
        return make()
    except ScopeError as exc:
        st.error(escape_md(str(exc)[:1].upper() + str(exc)[1:]) + ".", icon=":material/error:")
        return None
