"""Asking one document from the Review screen's source pane and from the Knowledge base screen
(AppTest, real workspace: MiniLM, Qdrant local mode, review store, a generated handbook PDF).

The LLM is the stated fake of tests/ui/conftest.py (``QuotingGenerator``, whose ``chat_json``
"quotes" the sentence sharing the most words with the question): these tests are about the
screens — the question box, progress and Cancel, the excerpt outlined in the viewer, the
excerpt added to the draft's citations and kept in the review store — not about generation."""

from __future__ import annotations

import threading

import pytest

from engine.core.types import SourceKind
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.ask import NOTHING
from tests.fixtures import TOPICS, QuotingGenerator, write_pdf
from tests.ui.conftest import button, texts
from tests.ui.test_review import TwoQuotes, drafted_project, on_screen, stored, viewer

pytestmark = pytest.mark.timeout(300)

REVIEW_BOX = "review_ask:ask_question:handbook.pdf"
RESTORES = "How often are restores tested?"


def ask(at, ws, box: str, question: str, key: str = "review_ask"):
    """Type ``question``, press "Ask this document", let the background ask finish, redraw."""
    at.text_area(key=box).set_value(question)
    at = button(at, "Ask this document").click().run()
    assert not at.exception
    run = ws.asks.run(at.session_state[f"{key}:ask_run"])
    assert run is not None
    run.wait(60)
    assert not run.running
    return at.run()


def test_ask_the_shown_document_see_the_excerpt_outlined_and_add_it_to_the_citations(
    open_screen, ui_workspace, tmp_path
):
    ws = ui_workspace
    ws.__dict__["generator"] = TwoQuotes()  # drafts with two citations: the source pane has its switcher
    pid = drafted_project(ws, tmp_path, limit=2)
    enc = ws.review(pid).items()[0]
    assert len(enc.citations) == 2
    at = open_screen("review")
    assert on_screen(at) == "ENC-01" and not at.exception
    (expander,) = [e for e in at.main.expander if e.label == "Ask this document"]

    at = ask(at, ws, REVIEW_BOX, RESTORES)
    answer = [m.value.replace("\\", "") for m in at.main.markdown if m.value.startswith("**Answer:**")]
    assert answer and answer[0].endswith("[1]")  # the stand-in restates excerpt [1] and cites it
    assert any(m.value.startswith("**[1]** · p") and "verified · cited" in m.value for m in at.main.markdown)
    (excerpt,) = ws.asks.run(at.session_state["review_ask:ask_run"]).result.excerpts
    assert "Restores are tested each quarter" in " ".join(excerpt.text.split())  # the quoted sentence, ±5 sentences

    at = button(at, "Show on the page").click().run()
    args = viewer(at)  # the same viewer as the citations: the excerpt's page(s), its lines outlined
    shown = " ".join("".join(page.get_text() for page in args["pdf"]).split())
    assert "Restores are tested each quarter" in shown and args["annotations"]
    assert args["scroll_to_annotation"] == 1  # shown from below the viewer: its outlined lines are scrolled into view
    assert any("Asked excerpt **[1]** of **handbook.pdf**" in c.value for c in at.main.caption)

    at = button(at, "Add to citations").click().run()
    assert not at.exception
    assert any("Excerpt [1] added to the citations of ENC-01" in s.value for s in at.main.success)
    assert at.main.radio(key="review_source").value == len(enc.citations)  # the added citation is the source shown
    args = viewer(at)
    assert "Restores are tested each quarter" in " ".join("".join(p.get_text() for p in args["pdf"]).split())
    assert args["scroll_to_annotation"] == 1  # the same view as the excerpt's: its lines stay on screen
    item = stored(ws, pid).item(enc.key)  # kept in the review store, read by a fresh connection
    assert len(item.citations) == len(enc.citations) + 1
    added = item.added[0]
    assert added.file == "handbook.pdf" and added.kind is SourceKind.PDF and added.label is AnchorLabel.VERIFIED
    assert "Restores are tested each quarter" in " ".join(added.quote.split()) and added.rects
    assert item.answer == enc.answer and item.state is enc.state  # the answer and its state are untouched

    again = open_screen("review")  # a new session: the draft lists the added citation, the pane shows it first
    assert on_screen(again) == "ENC-01"
    assert any(f"**[{len(item.citations)}]** handbook.pdf" in m.value for m in again.main.markdown)
    radio = [r for r in again.main.radio if r.key == "review_source"]
    assert radio and len(radio[0].options) == len(item.citations)


def test_the_same_excerpt_cannot_be_added_twice(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path, limit=1)
    at = ask(open_screen("review"), ws, REVIEW_BOX, RESTORES)
    at = button(at, "Add to citations").click().run()
    done = [b for b in at.button if b.label == "In the citations"]
    assert done and done[0].disabled
    enc = ws.review(pid).items()[0]
    excerpt = ws.asks.run(at.session_state["review_ask:ask_run"]).result.excerpts[0]
    assert ws.review(pid).add_citation(enc.key, excerpt.citation()) is False
    assert len(stored(ws, pid).item(enc.key).added) == 1


def test_nothing_found_and_bad_questions_get_plain_messages(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    drafted_project(ws, tmp_path, limit=1)
    at = ask(open_screen("review"), ws, REVIEW_BOX, "Is there a lunar colony?")
    assert any(NOTHING in i.value for i in at.main.info)
    assert not at.get("component_instance") or "Asked excerpt" not in texts(at.main.caption)

    at.text_area(key=REVIEW_BOX).set_value("x" * 5000)
    at = button(at, "Ask this document").click().run()
    assert any("5,000 characters long" in e.value and "at most 1,000" in e.value for e in at.main.error)
    at.text_area(key=REVIEW_BOX).set_value("   ")
    at = button(at, "Ask this document").click().run()
    assert any("is empty" in e.value.lower() for e in at.main.error)


class GatedChat(QuotingGenerator):
    """The stated fake, held before each part until the test opens ``gate``."""

    def __init__(self) -> None:
        super().__init__()
        self.gate, self.waiting = threading.Event(), threading.Event()

    def chat_json(self, messages, schema, max_tokens=None, context=None):
        self.waiting.set()
        assert self.gate.wait(60), "the test never opened the gate"
        return super().chat_json(messages, schema, max_tokens, context)


def test_a_long_document_shows_progress_and_can_be_cancelled(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    ws.__dict__["generator"] = chat = GatedChat()
    long = write_pdf(tmp_path / "manual.pdf", [" ".join(TOPICS.values())] * 24)  # ≈ 4,800 words: 2 parts
    assert not ws.kb.add_file(long, "manual.pdf").errors
    at = open_screen("knowledge_base")
    at.selectbox(key="kb_ask_doc").set_value("manual.pdf")
    at = at.run()
    at.text_area(key="kb_ask:ask_question:manual.pdf").set_value(RESTORES)
    at = button(at, "Ask this document").click().run()
    try:
        assert chat.waiting.wait(30)
        (bar,) = at.get("progress")
        assert bar.proto.text.startswith("Reading part 1 of 2 of manual.pdf")
        at = button(at, "Cancel").click().run()
    finally:
        chat.gate.set()
    run = ws.asks.run(at.session_state["kb_ask:ask_run"]).wait(60)
    assert run.cancelled and run.result is None
    at = at.run()
    assert any("Stopped after reading 1 of 2 parts" in i.value for i in at.main.info)


def test_the_knowledge_base_screen_asks_any_document_and_shows_the_excerpt(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    for name, topics in (("handbook.pdf", list(TOPICS.values())), ("vendors.pdf", [TOPICS["vendors"]])):
        assert not ws.kb.add_file(write_pdf(tmp_path / name, topics), name).errors
    at = open_screen("knowledge_base")
    assert at.selectbox(key="kb_ask_doc").options == ["handbook.pdf", "vendors.pdf"]
    at.selectbox(key="kb_ask_doc").set_value("vendors.pdf")
    at = ask(at.run(), ws, "kb_ask:ask_question:vendors.pdf", "Are vendors reassessed every year?", key="kb_ask")
    assert any("**[1]** · p. 1" in m.value for m in at.main.markdown)
    assert not [b for b in at.button if b.label == "Add to citations"]  # no draft here
    at = button(at, "Show on the page").click().run()
    args = viewer(at)
    assert "reassessed every year" in " ".join(args["pdf"][0].get_text().split()) and args["annotations"]
