"""The Review screen on a real workspace: a generated handbook indexed with the real MiniLM in
Qdrant local mode, the 4-question workbook (ENC-01, BCK-01, INC-01, ACC-01, Yes/No/N/A dropdown)
and drafts made by the workspace's background drafting. The LLM is ``QuotingGenerator`` (a
stated fake: it quotes the longest sentence of the first passage) because these tests are about
the screen, not about generation.

What a reviewer does is checked where it is kept: a fresh ``ReviewStore`` on the workspace's
database (never ``st.session_state``), and a new AppTest session."""

from __future__ import annotations

import base64
import json
import re
from dataclasses import replace
from pathlib import Path

import pymupdf
import pytest

from engine.app.workspace import REVIEW_DB
from engine.core.types import DraftStatus, SourceKind, Unit
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.records import LOW_CONFIDENCE, Citation
from engine.drafting.risk import REVIEW_FIRST_RISK
from engine.review.review import Review, ReviewState
from storage.review_store import ReviewStore
from tests.fixtures import TOPICS, QuotingGenerator, write_questionnaire
from tests.ui.conftest import add_handbook, add_questionnaire, button, texts
from ui.components.messages import escape_md
from ui.components.pdf_pane import content_key, viewer_args
from ui.components.source_text import find_unit, marked_html

pytestmark = pytest.mark.timeout(300)

LIST, FILTER, SEARCH, LOW_FIRST = "review_list", "review_filter", "review_search", "review_low_first"
LOW, HIGH = LOW_CONFIDENCE / 2, (1 + LOW_CONFIDENCE) / 2  # under and over the calibrated threshold


class TwoQuotes(QuotingGenerator):
    """The stated fake, quoting the longest sentence of each of the first two passages."""

    def generate(self, question, passages, choices):
        first = super().generate(question, passages[:1], choices)
        second = super().generate(question, passages[1:2], choices) if len(passages) > 1 else first
        quotes = tuple(dict.fromkeys(first.quotes + second.quotes))
        return first.__class__(quotes, first.answer, first.choice, False, 10, 5, 0.0)


# ---- helpers -------------------------------------------------------------------------------------
def drafted_project(ws, tmp_path: Path, limit: int | None = None) -> int:
    add_handbook(ws, tmp_path)
    pid = add_questionnaire(ws, tmp_path)
    ws.jobs.start(pid, limit=limit)
    status = ws.jobs.wait(pid, 120)
    assert status is not None and not status.running and status.error is None
    return pid


def drafted_again(ws, pid: int, key: str, **changes) -> None:
    """Store the question's draft again with some values changed (a confidence, a third party):
    the newest draft is the one shown."""
    draft = ws.review(pid).item(key).draft
    ws.review_store.add_draft(pid, replace(draft, **changes).stored())


def stored(ws, pid: int) -> Review:
    """The review as a fresh connection to the workspace's database reads it."""
    return Review(ReviewStore(ws.folder / REVIEW_DB), pid, ws.questionnaire(pid))


def answer_box(at):
    (box,) = [t for t in at.text_area if t.label == "Answer"]
    return box


def choice_box(at):
    boxes = [s for s in at.selectbox if s.label == "Choice"]
    return boxes[0] if boxes else None


def listed(at) -> list[str]:
    """The ids of the questions in the list, in order."""
    radios = [r for r in at.sidebar.radio if r.key == LIST]
    if not radios:
        return []
    return [re.search(r"\*\*(.+?)\*\*", line).group(1).replace("\\", "") for line in radios[0].options]


def open_question(at, key: str):
    radio = at.sidebar.radio(key=LIST)
    radio.set_value(key)
    return at.run()


def on_screen(at) -> str:
    """The question id shown in the card's header caption."""
    return next(c.value for c in at.main.caption if "· row" in c.value).split(" · ")[0].replace("\\", "")


def shown(warning) -> str:
    """A draft's warning as the card writes it: its icon and its line."""
    return f":material/{warning.icon}: {escape_md(warning.line)}"


def warning_lines(at) -> list[str]:
    """The lines of the card's one box of warnings in doubt, each with its icon (the first line's
    is the box's); [] when there is no box."""
    boxes = list(at.main.warning)
    assert len(boxes) <= 1, [w.value for w in boxes]
    if not boxes:
        return []
    first, *rest = boxes[0].value.split("  \n")
    return [f"{boxes[0].proto.icon} {first}", *rest]


def details(at) -> str:
    """The text behind the card's "Details" expander ("" when there is none)."""
    found = [e for e in at.main.expander if e.label == "Details"]
    assert len(found) <= 1
    return texts(found[0].markdown) if found else ""


def viewer(at) -> dict:
    """The arguments the PDF viewer component was sent on the last run."""
    (component,) = at.get("component_instance")
    args = json.loads(component.proto.json_args)
    args["pdf"] = pymupdf.open(stream=base64.b64decode(args.pop("binary")), filetype="pdf")
    return args


# ---- tests ---------------------------------------------------------------------------------------
def test_without_a_questionnaire_it_points_to_the_questionnaire_screen(open_screen):
    at = open_screen("review")
    assert not at.exception
    assert "no questionnaire to review yet" in at.info[0].value
    (link,) = at.page_link
    assert link.value == "Go to the Questionnaire screen" and link.proto.page.endswith("questionnaire")
    assert not at.button


def test_lists_the_questions_with_states_and_shows_the_selected_draft(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path, limit=3)  # ACC-01 stays not drafted
    enc, bck, inc, acc = ws.review(pid).items()

    at = open_screen("review")
    assert not at.exception
    assert listed(at) == ["ENC-01", "BCK-01", "INC-01", "ACC-01"]
    labels = at.sidebar.radio(key=LIST).proto.options
    assert "ENC-01" in labels[0] and "edit_note" in labels[0]  # drafted icon
    assert "ACC-01" in labels[3] and "hourglass_empty" in labels[3]  # not drafted icon
    assert "0 of 4 approved" in at.main.markdown[1].value and "3 to review" in at.main.markdown[1].value

    # the first question to review opens: its id, sheet and row, state, answer, choice, citations
    assert on_screen(at) == "ENC-01"
    assert any(c.value == "ENC-01 · sheet Security · row 4" for c in at.main.caption)
    assert any("Drafted" in m.value and "badge" in m.value for m in at.main.markdown)
    assert answer_box(at).value == enc.draft.answer and enc.draft.answer.startswith("Yes. ")
    assert choice_box(at).value == "Yes" and choice_box(at).options == ["—", "Yes", "No", "N/A"]
    (cite,) = enc.citations
    assert cite.label is AnchorLabel.VERIFIED
    assert any(
        "Verified" in m.value and "handbook.pdf" in m.value and f"page {cite.page}" in m.value for m in at.main.markdown
    )

    at = open_question(at, bck.key)
    assert on_screen(at) == "BCK-01" and answer_box(at).value == bck.draft.answer
    assert "thirty-five days" in answer_box(at).value.lower()  # from the backups page

    at = open_question(at, acc.key)  # not drafted: an empty answer box and a hint
    assert on_screen(at) == "ACC-01" and answer_box(at).value == ""
    assert any("Not drafted yet" in i.value for i in at.main.info)
    assert not at.get("component_instance")


def test_the_pdf_pane_gets_only_the_cited_page_and_the_verified_boxes(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path, limit=2)
    enc, bck, *_ = ws.review(pid).items()

    at = open_screen("review")
    args = viewer(at)
    (cite,) = enc.citations
    assert args["pdf"].page_count == 1  # one page of the five, not the whole handbook
    source = pymupdf.open(ws.kb.source_path("handbook.pdf"))
    assert args["pdf"][0].get_text() == source[cite.page - 1].get_text()
    assert "encrypted at rest" in args["pdf"][0].get_text()
    boxes = [r for r in cite.rects if r[0] == cite.page]
    assert boxes and len(args["annotations"]) == len(boxes)
    assert {a["page"] for a in args["annotations"]} == {1}  # remapped onto the excerpt's page
    first = args["annotations"][0]  # on the excerpt's (cropped) page, the box holds the quote's first words
    inside = args["pdf"][0].get_textbox(
        pymupdf.Rect(first["x"], first["y"], first["x"] + first["width"], first["y"] + first["height"])
    )
    assert " ".join(inside.split()[:3]) == " ".join(cite.quote.split()[:3])
    assert args["scroll_to_annotation"] is None and args["height"] is None  # one page, shown whole

    at = open_question(at, bck.key)
    args = viewer(at)
    assert "kept for thirty-five days" in args["pdf"][0].get_text() and args["pdf"].page_count == 1


def test_an_unverified_quote_is_listed_with_a_warning_and_never_highlighted(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    ws.__dict__["generator"] = QuotingGenerator(invent=True)  # quotes text that is in no document
    pid = drafted_project(ws, tmp_path, limit=1)
    (enc, *_) = ws.review(pid).items()
    assert enc.state is ReviewState.NO_CONTEXT
    (cite,) = enc.citations
    assert cite.label is AnchorLabel.UNVERIFIED and cite.page

    at = open_screen("review")
    assert not at.exception and on_screen(at) == "ENC-01"
    assert any("No context" in m.value for m in at.main.markdown)
    assert any("Unverified" in m.value for m in at.main.markdown)
    assert any("not found in the source" in w.value for w in at.main.warning)
    assert any("nothing is highlighted" in w.value for w in at.main.warning)
    args = viewer(at)
    assert args["pdf"].page_count == 1 and args["annotations"] == []  # the page, plain


def test_accept_save_edit_needs_sme_and_reject_persist_at_once(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path)
    enc, bck, inc, acc = ws.review(pid).items()

    at = open_screen("review")
    assert on_screen(at) == "ENC-01"
    answer_box(at).set_value("Yes — AES-256 at rest, keys in an HSM.")
    at = button(at, "Accept").click().run()
    assert not at.exception
    now = stored(ws, pid).item(enc.key)
    assert (
        now.state is ReviewState.ACCEPTED
        and now.answer == "Yes — AES-256 at rest, keys in an HSM."
        and now.choice == "Yes"
    )
    assert on_screen(at) == "BCK-01"  # the next question that needs review opens
    assert any("ENC-01 accepted" in t.value for t in at.toast)

    answer_box(at).set_value("Nightly backups, kept 35 days.")
    choice_box(at).set_value("N/A")
    at = button(at, "Save edit").click().run()
    now = stored(ws, pid).item(bck.key)
    assert now.state is ReviewState.EDITED and now.answer == "Nightly backups, kept 35 days." and now.choice == "N/A"
    assert on_screen(at) == "INC-01"

    at.text_input(key=f"review_note:{pid}:{inc.key}").set_value("Ask the security lead")
    at = button(at, "Needs SME").click().run()
    now = stored(ws, pid).item(inc.key)
    assert now.state is ReviewState.NEEDS_SME and now.decision.note == "Ask the security lead"
    assert on_screen(at) == "ACC-01"

    at = button(at, "Reject").click().run()
    assert stored(ws, pid).item(acc.key).state is ReviewState.REJECTED
    assert any("Every drafted question has a decision" in t.value for t in at.toast)

    # a new session (a browser refresh, an app restart) shows what was decided
    at = open_screen("review")
    assert not at.exception
    assert on_screen(at) == "ENC-01"  # nothing left to review: the first question
    assert answer_box(at).value == "Yes — AES-256 at rest, keys in an HSM."
    assert any("Accepted" in m.value and "badge" in m.value for m in at.main.markdown)
    assert "2 of 4 approved" in at.main.markdown[1].value
    at = open_question(at, bck.key)
    assert answer_box(at).value == "Nightly backups, kept 35 days." and choice_box(at).value == "N/A"
    assert any("Edited" in m.value for m in at.main.markdown)
    at = open_question(at, inc.key)
    assert any("Ask the security lead" in c.value for c in at.main.caption)


def test_a_choice_outside_the_workbook_list_and_an_empty_answer_are_refused(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path, limit=1)
    (enc, *_) = ws.review(pid).items()
    at = open_screen("review")
    answer_box(at).set_value("   ")
    choice_box(at).set_value("")
    at = button(at, "Accept").click().run()
    assert any("no answer to save" in e.value for e in at.main.error)
    assert stored(ws, pid).item(enc.key).state is ReviewState.DRAFTED and on_screen(at) == "ENC-01"


def test_previous_and_next_walk_the_list(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path, limit=1)
    at = open_screen("review")
    assert on_screen(at) == "ENC-01"
    at = button(at, "Next").click().run()
    assert on_screen(at) == "BCK-01" and at.sidebar.radio(key=LIST).value == ws.review(pid).items()[1].key
    at = button(at, "Next").click().run()
    at = button(at, "Previous").click().run()
    assert on_screen(at) == "BCK-01"
    at = button(at, "Previous").click().run()
    at = button(at, "Previous").click().run()
    assert on_screen(at) == "ENC-01"


def test_the_status_filter_and_the_search_narrow_the_list(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path, limit=3)
    review = ws.review(pid)
    enc, bck, inc, acc = review.items()
    review.accept(enc.key)
    review.reject(inc.key, "wrong document")

    at = open_screen("review")
    assert listed(at) == ["ENC-01", "BCK-01", "INC-01", "ACC-01"]
    at = at.sidebar.multiselect(key=FILTER).set_value([ReviewState.ACCEPTED]).run()
    assert listed(at) == ["ENC-01"]
    at = at.sidebar.multiselect(key=FILTER).set_value([ReviewState.DRAFTED, ReviewState.PENDING]).run()
    assert listed(at) == ["BCK-01", "ACC-01"]
    assert any(c.value == "2 of 4 questions" for c in at.sidebar.caption)
    at = at.sidebar.multiselect(key=FILTER).set_value([]).run()
    at = at.sidebar.text_input(key=SEARCH).set_value("backups").run()
    assert listed(at) == ["BCK-01"]
    at = at.sidebar.text_input(key=SEARCH).set_value("inc-01").run()  # ids too, any case
    assert listed(at) == ["INC-01"]
    at = at.sidebar.text_input(key=SEARCH).set_value("moon base").run()
    assert listed(at) == [] and any("No question matches" in c.value for c in at.sidebar.caption)
    assert not at.exception


def test_regenerate_adds_a_new_draft(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path, limit=1)
    enc, bck, *_ = ws.review(pid).items()
    calls = ws.generator.calls

    at = open_screen("review")
    at = open_question(at, bck.key)  # not drafted yet
    at = button(at, "Regenerate").click().run()
    assert not at.exception and ws.generator.calls == calls + 1
    now = stored(ws, pid).item(bck.key)
    assert now.state is ReviewState.DRAFTED and "thirty-five days" in now.answer.lower()
    assert on_screen(at) == "BCK-01" and answer_box(at).value == now.answer
    assert at.get("component_instance")  # its source page is shown

    at = open_question(at, enc.key)
    at = button(at, "Regenerate").click().run()
    history = ReviewStore(ws.folder / REVIEW_DB).history(pid, enc.key)
    assert [h.status for h in history] == [DraftStatus.DRAFTED, DraftStatus.DRAFTED]  # the old one is kept


def test_several_citations_switch_the_source_pane(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    ws.__dict__["generator"] = TwoQuotes()
    pid = drafted_project(ws, tmp_path, limit=1)
    (enc, *_) = ws.review(pid).items()
    assert len(enc.citations) == 2 and all(c.rects for c in enc.citations)
    first, second = enc.citations

    at = open_screen("review")
    (switch,) = [r for r in at.main.radio if r.key == "review_source"]
    assert len(switch.options) == 2
    assert viewer(at)["pdf"][0].get_text().count(first.quote.split()[0]) >= 1
    at = switch.set_value(1).run()
    args = viewer(at)
    pages = sorted({r[0] for r in second.rects})
    assert args["pdf"].page_count == len(pages)
    assert len(args["annotations"]) == len(second.rects)
    assert " ".join(second.quote.split()[:3]) in " ".join(args["pdf"][0].get_text().split())


class MadeUpFirst(QuotingGenerator):
    """The stated fake, with a made-up quote before the real one."""

    def generate(self, question, passages, choices):
        real = super().generate(question, passages, choices)
        return real.__class__(
            ("Quarterly audits are run by the moon committee.",) + real.quotes,
            real.answer,
            real.choice,
            False,
            10,
            5,
            0.0,
        )


def test_a_question_opens_on_its_first_highlighted_citation(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    ws.__dict__["generator"] = MadeUpFirst()
    pid = drafted_project(ws, tmp_path, limit=1)
    (enc, *_) = ws.review(pid).items()
    assert [c.label for c in enc.citations][:2] == [AnchorLabel.UNVERIFIED, AnchorLabel.VERIFIED]

    at = open_screen("review")
    (switch,) = [r for r in at.main.radio if r.key == "review_source"]
    assert switch.value == 1  # not the made-up quote
    assert len(viewer(at)["annotations"]) == len(enc.citations[1].rects) > 0


def test_a_reused_past_answer_is_badged_and_shown_from_the_library(open_screen, ui_workspace, tmp_path):
    """A reused past answer: badged, its one past answer a quiet grey line (no box), shown from the
    library; its only source being a past answer, the source switch also offers the knowledge
    base's best page for the question (engine/review/best_page.py, the real MiniLM): the
    handbook's encryption page, its sentence outlined."""
    ws = ui_workspace
    past = write_questionnaire(
        tmp_path / "last_year.xlsx",
        answered={4: "Yes"},
        comments={4: "AES-256 at rest, keys in an HSM, rotated yearly."},
    )
    ws.library.import_file(past)
    pid = drafted_project(ws, tmp_path, limit=1)  # ENC-01 was answered last year: reused, no LLM call
    (enc, *_) = ws.review(pid).items()
    assert enc.draft.reused and enc.citations[0].kind is SourceKind.LIBRARY

    at = open_screen("review")
    assert any("Reused" in m.value for m in at.main.markdown)
    assert any("past answer: last\\_year.xlsx, sheet Security, row 4, ID ENC-01" in m.value for m in at.main.markdown)
    assert answer_box(at).value == "AES-256 at rest, keys in an HSM, rotated yearly." and choice_box(at).value == "Yes"
    (said,) = enc.draft.warnings
    assert said.quiet and shown(said) in [c.value for c in at.main.caption]
    assert not at.main.warning  # nothing in doubt: no box
    (past,) = [h for h in at.get("html") if "rfp-source" in h.proto.body]
    assert "<mark" in past.proto.body and "Is customer data encrypted at rest?" in past.proto.body

    (switch,) = [r for r in at.main.radio if r.key == "review_source"]
    assert switch.value == 0 and len(switch.options) == 2  # the past answer first, then the best page
    assert switch.options[0].startswith("[1] past answer") and re.fullmatch(
        r"Best document page: handbook\.pdf p\. \d", switch.options[1]
    ), switch.options
    at = switch.set_value(1).run()
    args = viewer(at)
    assert args["pdf"].page_count == 1 and "encrypted at rest" in args["pdf"][0].get_text()
    assert args["annotations"]  # the best sentence, outlined

    at = button(at, "Accept").click().run()  # an accepted answer goes back to the library, dated today
    assert not at.error, at.error
    assert any(e.origin.value == "review" and e.qid == "ENC-01" for e in ws.library.entries())


def test_a_reused_answer_warns_when_the_past_answers_disagree(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    for name, choice in (("a.xlsx", "Yes"), ("b.xlsx", "Yes"), ("c.xlsx", "No")):
        ws.library.import_file(
            write_questionnaire(tmp_path / name, answered={4: choice}, comments={4: f"Answered in {name}."})
        )
    pid = drafted_project(ws, tmp_path, limit=1)
    (enc, *_) = ws.review(pid).items()
    assert enc.draft.reused and enc.draft.past_choices == {"Yes": 2, "No": 1}

    at = open_screen("review")
    assert choice_box(at).value == "Yes"  # the most common past choice
    (said, *more) = enc.draft.warnings  # the disagreement first (2 of 3 agree: low confidence too)
    assert not said.quiet and "disagree" in said.line and "Yes ×2" in said.line and "No ×1" in said.line
    assert warning_lines(at) == [shown(w) for w in (said, *more)]  # one line each, in one box
    assert "the company-wide questionnaire: No" in details(at)  # which past answer said what: behind Details

    at = button(at, "Accept").click().run()  # decided: the disagreement stays visible, as a grey line
    assert not at.error, at.error
    at.switch_page("screens/review.py")
    at = at.run()
    assert warning_lines(at) == [] and shown(said) in [c.value for c in at.main.caption]


def test_a_markdown_source_is_shown_as_text_with_the_quote_marked(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    md = tmp_path / "policies.md"
    md.write_text(
        "# Security policies\n\n" + "".join(f"## {name.title()}\n\n{text}\n\n" for name, text in TOPICS.items())
    )
    assert not ws.kb.add_file(md, "policies.md").errors
    pid = add_questionnaire(ws, tmp_path)
    ws.jobs.start(pid, limit=1)
    ws.jobs.wait(pid, 120)
    (enc, *_) = ws.review(pid).items()
    (cite,) = enc.citations
    assert cite.kind is SourceKind.TEXT and cite.label is AnchorLabel.VERIFIED

    at = open_screen("review")
    assert not at.exception and not at.get("component_instance")
    assert any("policies.md" in c.value.replace("\\", "") and "Encryption" in c.value for c in at.main.caption)
    (shown,) = [h for h in at.get("html") if "rfp-source" in h.proto.body]
    marked = re.search(r"<mark[^>]*>(.*?)</mark>", shown.proto.body, re.S).group(1)
    assert cite.quote in marked


def test_source_text_helpers():
    rows = [
        Unit("Question: Do you encrypt?\nAnswer: Yes", sheet="Answers", row=4),
        Unit("Question: Backups?\nAnswer: Nightly", sheet="Answers", row=5),
    ]
    cite = Citation(
        "past.xlsx",
        SourceKind.SHEET,
        "Answer: Nightly",
        AnchorLabel.VERIFIED,
        100.0,
        0.5,
        sheet="Answers",
        row=5,
        start=19,
        end=34,
    )
    unit = find_unit(rows, cite)
    assert unit is rows[1] and unit.text[cite.start : cite.end] == "Answer: Nightly"
    assert marked_html(unit.text, cite.start, cite.end).count("<mark") == 1
    assert "<mark" not in marked_html("a <b> & c", None, None) and "&lt;b&gt; &amp; c" in marked_html(
        "a <b> & c", None, None
    )
    assert (
        find_unit(
            rows, Citation("past.xlsx", SourceKind.SHEET, "x", AnchorLabel.VERIFIED, 100.0, 0.5, sheet="Answers", row=9)
        )
        is None
    )


def test_viewer_arguments_for_one_and_two_pages(tmp_path):
    """A quote across a page break: both pages in a fixed-height box scrolled to the first box;
    the viewer's key changes with the boxes even when the pages are the same."""
    from engine.review.pdf_pages import citation_excerpt
    from tests.fixtures import write_pdf

    pdf = write_pdf(tmp_path / "h.pdf", [TOPICS["encryption"], TOPICS["backups"], TOPICS["incident"]])
    with pymupdf.open(pdf) as doc:
        end = [(2, *r) for r in doc[1].search_for("four hours.")]
        start = [(3, *r) for r in doc[2].search_for("Security incidents are triaged")]
        other = [(2, *r) for r in doc[1].search_for("Restores are tested each quarter")]

    def citation(rects):
        return Citation(
            "h.pdf", SourceKind.PDF, "q", AnchorLabel.VERIFIED, 100.0, 0.5, page=rects[0][0], rects=tuple(rects)
        )

    two = citation_excerpt(pdf, citation(end + start))
    args = viewer_args(two)
    assert pymupdf.open(stream=args["input"], filetype="pdf").page_count == 2
    assert args["scroll_to_annotation"] == 1 and args["height"] and args["show_page_separator"]
    assert [a["page"] for a in args["annotations"]] == [1] * len(end) + [2] * len(start)
    one, same_page = citation_excerpt(pdf, citation(end)), citation_excerpt(pdf, citation(other))
    assert (
        viewer_args(one)["scroll_to_annotation"] is None and viewer_args(one)["height"] is None
    )  # a question's page: no jump
    assert viewer_args(one, scroll=True)["scroll_to_annotation"] == 1  # an asked excerpt, shown from below the viewer
    assert one.pdf == same_page.pdf and content_key("h.pdf", one) != content_key("h.pdf", same_page)
    assert content_key("h.pdf", one) == content_key("h.pdf", citation_excerpt(pdf, citation(end)))


def test_drafting_progress_shows_while_drafting_runs(open_screen, ui_workspace, tmp_path):
    """Drafting in the background: the sidebar shows its progress (a fragment that refreshes
    itself, not the page); once it ends, the list shows the drafts."""
    import threading

    class Held(QuotingGenerator):  # the stated fake, held until the test lets it answer
        def __init__(self) -> None:
            super().__init__()
            self.go = threading.Event()

        def generate(self, question, passages, choices):
            self.go.wait(60)
            return super().generate(question, passages, choices)

    ws = ui_workspace
    ws.__dict__["generator"] = held = Held()
    add_handbook(ws, tmp_path)
    pid = add_questionnaire(ws, tmp_path)
    ws.jobs.start(pid)
    try:
        at = open_screen("review")
        assert not at.exception
        (bar,) = at.sidebar.get("progress")
        assert bar.proto.text == "Drafting: 0 of 4 questions"
        assert any(b.label == "Show new drafts" for b in at.sidebar.button)
        assert any("Not drafted yet" in i.value for i in at.main.info)
    finally:
        held.go.set()
    status = ws.jobs.wait(pid, 120)
    assert status is not None and not status.running
    at = at.run()
    assert not at.sidebar.get("progress")
    assert on_screen(at) == "ENC-01" and answer_box(at).value.startswith("Yes. ")
    assert all("edit_note" in line for line in at.sidebar.radio(key=LIST).proto.options)  # all drafted


def test_a_long_questionnaire_is_listed_a_page_at_a_time(open_screen, ui_workspace, tmp_path):
    """A browser draws a few dozen list entries quickly, not hundreds: the list shows 40 at a
    time, on the page of the open question."""
    import openpyxl

    wb = openpyxl.Workbook()
    sheet = wb.active
    sheet.title = "Security"
    sheet.append(["ID", "Question", "Answer"])
    for n in range(1, 46):
        sheet.append([f"Q-{n:02d}", f"Is control number {n} in place?", None])
    wb.save(tmp_path / "long.xlsx")
    project, questionnaire = ui_workspace.add_questionnaire("long.xlsx", (tmp_path / "long.xlsx").read_bytes())
    keys = [f"{q.sheet}!{q.question_cell}" for q in questionnaire.questions]

    at = open_screen("review")
    assert not at.exception and len(listed(at)) == 40 and listed(at)[0] == "Q-01"
    (page,) = [s for s in at.sidebar.selectbox if s.key == "review_page"]
    assert page.options == ["Questions 1–40 of 45", "Questions 41–45 of 45"]
    at.session_state["question_key"] = keys[42]  # Q-43 opened (as Next or an action would)
    at = at.run()
    assert listed(at) == ["Q-41", "Q-42", "Q-43", "Q-44", "Q-45"] and on_screen(at) == "Q-43"
    assert at.sidebar.radio(key=LIST).value == keys[42]
    at = at.sidebar.selectbox(key="review_page").set_value(0).run()
    assert len(listed(at)) == 40 and on_screen(at) == "Q-43"  # browsing the list keeps the question open
    at = button(at, "Previous").click().run()
    assert on_screen(at) == "Q-42"


def test_review_first_lists_the_risky_drafts_by_risk_and_a_decision_takes_one_out(open_screen, ui_workspace, tmp_path):
    """Review first: the undecided drafts whose estimated risk is at or above the threshold
    (``Draft.review_first``, engine/drafting/risk.py), highest risk first, then the rest in the
    questionnaire's order; a decided draft leaves it. The drafts are fakes written straight into
    the review store (a choice taken from other products whose past answers disagree, the
    model's narrative without a verified quote — one with is read apart, tests/ui/test_review_model_texts.py —
    this product's own past answer as text), so their risks are known apart."""
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path, limit=3)  # ACC-01 stays not drafted
    enc, bck, inc, acc = ws.review(pid).items()
    unverified = tuple(replace(c, label=AnchorLabel.UNVERIFIED) for c in enc.draft.citations)  # verified: read apart
    drafted_again(
        ws, pid, enc.key, choice=None, answer="All customer data is encrypted.", citations=unverified, confidence=None
    )
    drafted_again(ws, pid, bck.key, reused=True, choice=None, answer="Thirty-five days.", confidence=None)
    drafted_again(
        ws,
        pid,
        inc.key,
        reused=True,
        from_product="Parchment",
        past_choices={"Yes": 2, "No": 1},
        past_answers=("Parchment's HECVAT: Yes", "Canvas LMS's HECVAT: Yes", "Canvas Studio's HECVAT: No"),
        confidence=None,
    )
    enc, bck, inc, acc = ws.review(pid).items()
    assert inc.draft.risk > enc.draft.risk >= REVIEW_FIRST_RISK > bck.draft.risk  # disputed, the model's, own

    at = open_screen("review")
    assert not at.exception
    assert listed(at) == ["ENC-01", "BCK-01", "INC-01", "ACC-01"] and on_screen(at) == "ENC-01"
    toggle = at.sidebar.toggle(key=LOW_FIRST)
    assert toggle.label == "Review first (2)" and not toggle.value
    assert "risk of being wrong" in toggle.help and "other products disagree" in toggle.help

    at = toggle.set_value(True).run()
    assert listed(at) == ["INC-01", "ENC-01", "BCK-01", "ACC-01"]  # by risk, then the questionnaire's order
    lines = at.sidebar.radio(key=LIST).proto.options
    assert ":orange[:material/call_split:]" in lines[0] and ":orange[:material/edit_note:]" in lines[1]
    assert ":orange[" not in lines[2]  # nothing in doubt: no mark
    at = open_question(at, inc.key)
    at = button(at, "Next").click().run()  # Next follows the list on screen
    assert on_screen(at) == "ENC-01"
    at = open_question(at, bck.key)
    assert warning_lines(at) == [] and not at.main.warning  # its own past answer: nothing in doubt

    at = open_question(at, inc.key)
    at = button(at, "Accept").click().run()  # decided: no longer first
    assert not at.exception
    assert listed(at) == ["ENC-01", "BCK-01", "INC-01", "ACC-01"]
    assert at.sidebar.toggle(key=LOW_FIRST).label == "Review first (1)"


def test_the_card_shows_one_line_per_warning_and_the_details_on_demand(open_screen, ui_workspace, tmp_path):
    """One short line per warning (``Draft.warnings``) in one box while the draft is undecided,
    the lists behind them in a "Details" expander, grey lines once decided; products that all
    agree are one quiet grey line and no box. The drafts are fakes written straight into the
    review store (their warnings are the engine's, engine/drafting/warnings.py)."""
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path, limit=2)
    enc, bck, *_ = ws.review(pid).items()
    drafted_again(
        ws,
        pid,
        enc.key,
        reused=True,
        from_product="Parchment",
        past_choices={"Yes": 2, "No": 1},
        past_answers=("Parchment's HECVAT: Yes", "Canvas LMS's HECVAT: Yes", "Canvas Studio's HECVAT: No"),
        removed=("security@parchment.example",),
        confidence=LOW,
        choice_probability=0.6,
    )
    agreeing = ("Parchment's HECVAT: Yes", "Canvas LMS's HECVAT: Yes", "Canvas Studio's HECVAT: Yes")
    drafted_again(
        ws,
        pid,
        bck.key,
        reused=True,
        from_product="Parchment",
        choice="Yes",
        past_choices={"Yes": 3},
        past_answers=agreeing,
        confidence=None,
    )
    enc, bck, *_ = ws.review(pid).items()
    doubts = [w for w in enc.draft.warnings if not w.quiet]
    assert len(doubts) >= 3  # the disagreement, the removed address, the model unsure

    at = open_screen("review")
    assert on_screen(at) == "ENC-01"
    assert warning_lines(at) == [shown(w) for w in doubts]  # one box, a line each
    behind = details(at)
    assert all(a in behind for a in enc.draft.past_answers) and "security@parchment.example" in behind
    assert not any("security@parchment.example" in line for line in warning_lines(at))  # the lists wait

    at = open_question(at, bck.key)  # three products agree: one quiet grey line, no box
    (said,) = bck.draft.warnings
    assert said.quiet and "3" in said.line
    assert not at.main.warning and shown(said) in [c.value for c in at.main.caption]
    assert all(a in details(at) for a in agreeing)

    at = open_question(at, enc.key)
    at = button(at, "Accept").click().run()  # decided: the same lines, grey
    at = open_question(at, enc.key)
    assert warning_lines(at) == []
    captions = [c.value for c in at.main.caption]
    assert all(shown(w) in captions for w in doubts)


def test_a_draft_inherited_from_a_third_party_says_whose_evidence_it_is(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path, limit=1)
    (enc, *_) = ws.review(pid).items()
    draft = ws.review(pid).item(enc.key).draft
    assert draft.citations, "the fake generator quotes the handbook"
    # every citation is now a third party's document: the draft is inherited from it
    drafted_again(
        ws, pid, enc.key, citations=tuple(replace(c, third_party="Amazon Web Services") for c in draft.citations)
    )

    at = open_screen("review")
    (line,) = [w for w in warning_lines(at) if "third party" in w]
    assert line.startswith(":material/handshake:") and line.endswith("(Amazon Web Services)")
    at = button(at, "Accept").click().run()
    at = open_question(at, enc.key)
    assert warning_lines(at) == [] and line in [c.value for c in at.main.caption]


def test_a_qualifier_switches_its_section_off_and_on_in_review(open_screen, ui_workspace, tmp_path):
    """HECVAT-shaped rows: QUAL-01 drafted "No" → the HIPAA rows are not required (and not
    drafted); the reviewer saves QUAL-01 = Yes on the screen → they are to be drafted again.
    The drafter is a stated fake answering from a table (tests/unit/test_sections_drafting.py)."""
    from engine.review.draft_run import draft_questionnaire
    from tests.unit.test_qualifiers import hecvat_like
    from tests.unit.test_sections_drafting import TableDrafter

    ws = ui_workspace
    book = hecvat_like(tmp_path / "hecvat.xlsx")
    project, questionnaire = ws.add_questionnaire("hecvat.xlsx", book.read_bytes())
    path = ws.questionnaire_path(project)
    draft_questionnaire(
        ws.questionnaire(project.id),
        TableDrafter({"QUAL-01": "No", "QUAL-05": "No", "QUAL-07": "4) AWS"}),
        ws.review_store,
    )
    items = {i.question.id: i for i in ws.review(project.id).items()}
    assert path.is_file() and items["HIPA-01"].state is ReviewState.NOT_REQUIRED

    at = open_screen("review")
    assert not at.exception
    # Review first: the qualifiers nobody has answered lead the list (the rows are HECVAT-like: qualifiers last),
    # then the risky drafts, GNRL-01 among them: its text without a choice is the (fake) model's own wording
    risky = [
        i.question.id
        for i in items.values()
        if i.state is ReviewState.DRAFTED and i.draft.review_first and not i.unanswered_qualifier
    ]
    assert "GNRL-01" in risky
    at.sidebar.toggle(key=LOW_FIRST).set_value(True).run()
    assert listed(at)[:3] == ["QUAL-01", "QUAL-05", "QUAL-07"]
    assert sorted(listed(at)[3 : 3 + len(risky)]) == sorted(risky)
    assert at.sidebar.toggle(key=LOW_FIRST).label == f"Review first ({3 + len(risky)})"
    at = open_question(at, items["GNRL-01"].key)
    assert any(line.endswith("Written by the model") for line in warning_lines(at))
    (sections,) = [e for e in at.expander if e.label.startswith("Sections")]
    assert "not required" in sections.label
    shown = texts(at.markdown)
    assert "HIPAA" in shown and "not required (QUAL-01 = No)" in shown
    at = open_question(at, items["HIPA-01"].key)
    assert "not required (QUAL-01 = No)" in texts(at.info)

    at = open_question(at, items["QUAL-01"].key)
    choice_box(at).set_value("Yes")
    answer_box(at).set_value("We host PHI for clinical programs.")
    at = button(at, "Save edit").click().run()
    assert not at.exception
    now = stored(ws, project.id).item(items["HIPA-01"].key)
    assert now.state is ReviewState.PENDING and now.gate.reason == "required (QUAL-01 = Yes)"
    assert "required (QUAL-01 = Yes)" in texts(at.markdown)
    assert listed(at)[:2] == ["QUAL-05", "QUAL-07"]  # answered: no longer first


def test_a_choice_from_another_product_is_flagged_listed_first_and_names_each_products_answer(
    open_screen, ui_workspace, tmp_path
):
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path, limit=3)
    enc, bck, inc, acc = ws.review(pid).items()
    drafted_again(
        ws,
        pid,
        inc.key,
        from_product="Parchment",
        reused=True,
        confidence=0.918,
        past_choices={"No": 1, "Yes": 1},
        past_answers=("Parchment's HECVAT: No", "Canvas LMS's HECVAT: Yes"),
        answer="Security incidents are reported to customers within 72 hours.",
    )
    review = ws.review(pid)
    for done in (enc, bck):  # decided: only INC-01 is left to review first
        review.accept(done.key)
    at = open_screen("review")
    toggle = at.sidebar.toggle(key=LOW_FIRST)
    assert toggle.label == "Review first (1)"  # confident, but from another product and disputed
    at = toggle.set_value(True).run()
    assert listed(at)[0] == "INC-01"
    line = at.sidebar.radio(key=LIST).proto.options[0]
    assert ":orange[:material/call_split:]" in line and "priority_high" not in line  # its warning, in the list
    at = open_question(at, inc.key)
    assert any("Choice from Parchment" in m.value for m in at.main.markdown)
    assert not any(":material/history: Reused" in m.value for m in at.main.markdown)
    (said,) = [line for line in warning_lines(at) if "disagree" in line]
    assert said.startswith(":material/call_split: Other products disagree:") and "No ×1" in said and "Yes ×1" in said
    assert "Parchment's HECVAT: No" in details(at) and "Canvas LMS's HECVAT: Yes" in details(at)


def test_a_profile_fact_and_removed_contact_details_are_said_and_listed_first(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path, limit=2)
    enc, bck, *_ = ws.review(pid).items()
    drafted_again(ws, pid, enc.key, profile_fact="vendor_name", answer="Instructure", citations=())
    drafted_again(ws, pid, bck.key, removed=("feedback@parchment.com",))
    enc, bck, *_ = ws.review(pid).items()
    at = open_screen("review")
    assert not enc.draft.review_first and bck.draft.review_first  # a profile fact is the profile's: not in doubt
    assert at.sidebar.toggle(key=LOW_FIRST).label == "Review first (1)"
    (fact,) = enc.draft.warnings
    assert fact.quiet and shown(fact) in [c.value for c in at.main.caption] and not at.main.warning
    assert "vendor\\_name" in shown(fact)
    at = open_question(at, bck.key)
    (removed,) = [w for w in bck.draft.warnings if "taken out" in w.line]
    assert shown(removed) in warning_lines(at) and "feedback@parchment.com" in details(at)
    # a contact the profile lacks: not drafted, and the reviewer is told where to set it
    drafted_again(ws, pid, bck.key, profile_fact="contact_email", answer="", status=DraftStatus.NO_CONTEXT, removed=())
    at = open_question(open_screen("review"), bck.key)
    infos = [i.value for i in at.main.info]
    assert any(v.startswith("No profile fact answers this: contact\\_email comes from the company") for v in infos)
    assert not any(v.startswith("Profile fact (contact") for v in infos)


@pytest.mark.parametrize(
    "found, choice, answer",
    [
        (  # engine/drafting/regulated.py: no own document mentions card data
            "no document mentions card data (cardholder data, credit cards, PCI DSS)",
            "No",
            "",
        ),
        (  # engine/drafting/hosting.py, a workbook without the dropdown: the option leads the text
            "documents state it is hosted by Amazon Web Services",
            None,
            "4) AWS — Canvas Credentials is hosted by Amazon Web Services (AWS).",
        ),
    ],
)
def test_a_qualifier_answered_by_the_documents_says_on_what_it_rests(
    open_screen, ui_workspace, tmp_path, found, choice, answer
):
    """A qualifier answered by what the own documents state (card data: No because none mentions
    it; the hosting option from a product document's statement): marked in the list, and the
    card's line says on what it rests."""
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path, limit=1)
    enc, *_ = ws.review(pid).items()
    drafted_again(ws, pid, enc.key, stated=found, choice=choice, answer=answer, citations=(), confidence=None)
    at = open_screen("review")
    assert ":orange[:material/policy:]" in at.sidebar.radio(key=LIST).proto.options[0]
    (said,) = [line for line in warning_lines(at) if line.startswith(":material/policy:")]
    assert escape_md(found) in said


def test_the_row_type_filter_narrows_the_list_and_gated_follows_the_qualifier(open_screen, ui_workspace, tmp_path):
    """HECVAT-shaped rows plus a narrative row: the Row type filter (from ``ReviewItem.row_type``,
    worked out by the engine) keeps only the chosen types, combines with the status filter, and
    a row leaves "gated" when the reviewer switches its section back on. The drafter is a stated
    fake answering from a table (tests/unit/test_sections_drafting.py): this is about the screen."""
    import openpyxl

    from engine.questionnaire.row_types import RowType
    from engine.review.draft_run import draft_questionnaire
    from tests.unit.test_qualifiers import hecvat_like
    from tests.unit.test_sections_drafting import TableDrafter

    ws = ui_workspace
    book = hecvat_like(tmp_path / "hecvat.xlsx")
    wb = openpyxl.load_workbook(book)
    wb.active.append(["APPL-01", "Describe your application's architecture and its components.", None, None, ""])
    wb.save(book)
    project, _ = ws.add_questionnaire("hecvat.xlsx", book.read_bytes())
    draft_questionnaire(
        ws.questionnaire(project.id),
        TableDrafter({"QUAL-01": "No", "QUAL-05": "Yes", "QUAL-07": "4) AWS"}),
        ws.review_store,
    )
    items = {i.question.id: i for i in ws.review(project.id).items()}
    assert {k: i.row_type for k, i in items.items() if i.row_type is not RowType.YES_NO} == {
        "GNRL-01": RowType.PROFILE,
        "HIPA-01": RowType.GATED,
        "HIPA-02": RowType.GATED,
        "DCTR-01": RowType.GATED,
        "DCTR-03": RowType.GATED,
        "QUAL-07": RowType.DROPDOWN,
        "APPL-01": RowType.NARRATIVE,
    }

    at = open_screen("review")
    types = at.sidebar.multiselect(key="review_types")
    assert types.value == [] and types.placeholder == "All row types" and len(listed(at)) == 11
    assert list(types.options) == [
        "Yes/No (4)",
        "Dropdowns beyond Yes/No (1)",
        "Profile (general information) (1)",
        "Narratives (1)",
        "Gated (not required) (4)",
    ]
    at = types.set_value([RowType.YES_NO]).run()
    assert listed(at) == ["PCID-01", "DCTR-15", "QUAL-01", "QUAL-05"]
    assert any(c.value == "4 of 11 questions" for c in at.sidebar.caption)
    at = at.sidebar.multiselect(key="review_types").set_value([RowType.NARRATIVE, RowType.PROFILE]).run()
    assert listed(at) == ["GNRL-01", "APPL-01"]
    at = at.sidebar.multiselect(key="review_types").set_value([RowType.GATED]).run()
    assert listed(at) == ["HIPA-01", "HIPA-02", "DCTR-01", "DCTR-03"]
    at = at.sidebar.multiselect(key=FILTER).set_value([ReviewState.DRAFTED]).run()  # combined: none is drafted
    assert listed(at) == [] and any("No question matches" in c.value for c in at.sidebar.caption)
    at = at.sidebar.multiselect(key=FILTER).set_value([]).run()
    at = at.sidebar.multiselect(key="review_types").set_value([]).run()

    at = open_question(at, items["QUAL-01"].key)  # QUAL-01 = Yes: the HIPAA rows are required again
    choice_box(at).set_value("Yes")
    at = button(at, "Save edit").click().run()
    assert not at.exception
    at = at.sidebar.multiselect(key="review_types").set_value([RowType.GATED]).run()
    assert listed(at) == ["DCTR-01", "DCTR-03"]
    at = at.sidebar.multiselect(key="review_types").set_value([RowType.YES_NO, RowType.DROPDOWN]).run()
    assert listed(at) == ["HIPA-01", "HIPA-02", "PCID-01", "DCTR-15", "QUAL-01", "QUAL-05", "QUAL-07"]


def test_the_answer_box_grows_with_its_text_within_a_minimum_and_a_maximum():
    from ui.review.card import MAX_HEIGHT, MIN_HEIGHT, answer_height

    assert answer_height("") == answer_height("Yes.") == MIN_HEIGHT
    paragraph = "Backups of the production databases are taken every night and kept for 35 days. " * 3
    heights = [answer_height("\n\n".join([paragraph] * n)) for n in (1, 2, 3)]
    assert MIN_HEIGHT < heights[0] < heights[1] < heights[2] <= MAX_HEIGHT  # longer text, taller box
    assert answer_height("line\n" * 8) > answer_height("line " * 8)  # lines count, not only characters
    assert answer_height(paragraph * 40) == MAX_HEIGHT  # then it scrolls


def test_a_model_reply_set_aside_is_no_draft_and_says_why(open_screen, ui_workspace, tmp_path):
    """A reply the glitch guard set aside (engine/drafting/generate/glitches.py) is stored as
    no_context with its reason (the draft is re-stored so by hand: the fake generator never
    glitches; this test is about the card): the card says why and shows no answer to accept."""
    ws = ui_workspace
    pid = drafted_project(ws, tmp_path, limit=1)
    (enc, *_) = ws.review(pid).items()
    reason = "the model's reply was set aside: characters outside the questionnaire's script (的通知); write this answer by hand"
    drafted_again(ws, pid, enc.key, status=DraftStatus.NO_CONTEXT, answer="", choice=None, error=reason)

    at = open_screen("review")
    assert not at.exception
    shown_reasons = [w.value for w in at.main.warning if "set aside" in w.value]
    assert shown_reasons == [escape_md("The" + reason[3:]) + "."]
    assert answer_box(at).value == ""
