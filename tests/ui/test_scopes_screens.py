"""Scopes in the app (AppTest, real MiniLM and Qdrant local mode): the Knowledge base screen shows
each document's scope, indexes uploads in a chosen scope and changes a document's scope; the
Questionnaire screen picks the product a questionnaire is drafted for, kept in the review store,
and the background run and Regenerate draft only from what that product may use; the Review
screen marks third-party citations and inherited drafts.

The LLM is ``QuotingGenerator`` (a stated fake: it quotes the longest sentence of the first
passage) because these tests are about the screens, not about generation."""

from __future__ import annotations

import pytest

from engine.app.workspace import REVIEW_DB
from engine.core.scopes import Scope
from engine.drafting.records import Draft
from storage.review_store import ReviewStore
from tests.fixtures import topic_pages, write_pdf
from tests.ui.conftest import add_handbook, add_questionnaire, button, texts

pytestmark = pytest.mark.timeout(300)

ALPHA = (
    "# Alpha\n\nAlpha encrypts customer data at rest. Alpha keeps database backups for a week. Alpha "
    "notifies customers of a breach. Alpha staff sign in with multi-factor authentication.\n"
)


def table_scopes(at) -> dict[str, str]:
    table = at.dataframe[0].value
    return dict(zip(table["Document"], table["Scope"]))


def test_knowledge_base_screen_indexes_in_a_scope_and_changes_scopes(open_screen, ui_workspace, tmp_path):
    kb = ui_workspace.kb
    pdf = write_pdf(tmp_path / "alpha.pdf", topic_pages()[:2]).read_bytes()
    at = open_screen("knowledge_base")
    at.radio(key="kb_add_scope_kind").set_value("Product")
    at.file_uploader[0].upload("alpha.pdf", pdf, "application/pdf")
    at.run()
    assert button(at, "Index files").disabled  # a product scope without a product
    at.text_input(key="kb_add_scope_new_product").input("Alpha")
    at.run()
    button(at, "Index files").click()
    at.run()
    assert not at.exception
    assert kb.document("alpha.pdf").scope == Scope(("Alpha",))
    assert table_scopes(at) == {"alpha.pdf": "Product: Alpha"}

    # the same bytes for another product: the product is added, nothing is re-indexed
    generation = kb.manifest.generation
    at.multiselect(key="kb_add_scope_products").select("Alpha")  # a known product, and a new one
    at.text_input(key="kb_add_scope_new_product").input("Beta")
    at.file_uploader[0].upload("alpha.pdf", pdf, "application/pdf")
    at.run()
    button(at, "Index files").click()
    at.run()
    assert kb.document("alpha.pdf").scope == Scope(("Alpha", "Beta")) and kb.manifest.generation == generation
    assert "**alpha.pdf** is now products: Alpha, Beta." in texts(at.success)
    # uploaded again with the default (company-wide): a file already held keeps its scope
    at.radio(key="kb_add_scope_kind").set_value("Company-wide")
    at.file_uploader[0].upload("alpha.pdf", pdf, "application/pdf")
    at.run()
    button(at, "Index files").click()
    at.run()
    assert kb.document("alpha.pdf").scope == Scope(("Alpha", "Beta"))

    # change a document's scope: a third party by a new name, then back to company-wide
    add_handbook(ui_workspace, tmp_path)
    at.run()
    assert table_scopes(at) == {"alpha.pdf": "Products: Alpha, Beta", "handbook.pdf": "Company-wide"}
    at.selectbox(key="kb_scope_choice").select("handbook.pdf")
    at.run()
    key = f"kb_scope_{kb.document('handbook.pdf').doc_hash}"
    assert button(at, "Save scope").disabled  # unchanged
    at.radio(key=f"{key}_kind").set_value("Third party")
    at.run()
    assert at.selectbox(key=f"{key}_third_party").value == "New third party…"
    assert button(at, "Save scope").disabled  # no name yet
    at.text_input(key=f"{key}_new_third_party").input("Amazon Web Services")
    at.run()
    button(at, "Save scope").click()
    at.run()
    assert kb.document("handbook.pdf").scope == Scope(third_party="Amazon Web Services")
    assert "**handbook.pdf** is now third party: Amazon Web Services." in texts(at.success)
    assert table_scopes(at)["handbook.pdf"] == "Third party: Amazon Web Services"
    at.radio(key=f"{key}_kind").set_value("Company-wide")
    at.run()
    button(at, "Save scope").click()
    at.run()
    assert kb.document("handbook.pdf").scope.company and not at.exception


def test_questionnaire_screen_drafts_for_the_chosen_product(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    add_handbook(ws, tmp_path)  # the best match for every question: Beta's
    (tmp_path / "alpha.md").write_text(ALPHA, encoding="utf-8")
    assert not ws.kb.add([tmp_path / "alpha.md"], scope=Scope(("Alpha",))).errors
    ws.kb.set_scopes({"handbook.pdf": Scope(("Beta",))})
    pid = add_questionnaire(ws, tmp_path)
    at = open_screen("questionnaire")
    picker = at.selectbox(key=f"questionnaire_product_{pid}")
    assert picker.options == ["None (company-wide)", "Alpha", "Beta"] and picker.value is None
    picker.select("Alpha")
    at.run()
    assert not at.exception and ReviewStore(ws.folder / REVIEW_DB).project(pid).product == "Alpha"
    button(at, "Start drafting").click()
    at.run()
    status = ws.jobs.wait(pid, 120)
    assert status is not None and status.error is None and status.done == 4
    drafts = [Draft.from_stored(k, d) for k, d in ws.review_store.latest_drafts(pid).items()]
    cited = {c.file for d in drafts for c in d.citations}
    assert cited == {"alpha.md"}  # Beta's handbook is never used for Alpha
    again = ws.regenerate(pid, drafts[0].key)  # the Review screen's Regenerate
    assert {c.file for c in again.citations} == {"alpha.md"}
    # no product: company-wide and third-party documents only (here: none)
    at.run()  # drafting has finished: the picker is enabled again
    at.selectbox(key=f"questionnaire_product_{pid}").select_index(0)  # "None (company-wide)"
    at.run()
    assert ws.review_store.project(pid).product is None
    assert ws.regenerate(pid, drafts[0].key).citations == ()


def test_review_screen_marks_an_inherited_draft(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    add_handbook(ws, tmp_path)
    ws.kb.set_scopes({"handbook.pdf": Scope(third_party="Amazon Web Services")})
    pid = add_questionnaire(ws, tmp_path)
    ws.jobs.start(pid, limit=1)
    assert ws.jobs.wait(pid, 120).error is None
    at = open_screen("review")
    assert not at.exception
    assert "Only a third party's document supports this (Amazon Web Services)" in texts(at.warning)
    assert "third party: Amazon Web Services" in texts(at.markdown)
