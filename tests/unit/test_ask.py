"""Asking one document (engine/drafting/ask.py): parts, anchoring, windows and their merging (Algorithm
2), offsets, the answer step, bad input, progress, cancelling and concurrent parts.

The model's replies are scripted (``Scripted``): these tests are about what the engine does with
a reply — where the excerpts land, what is dropped, what is refused — not about generation.
Real models are asked in tests/integration/test_ask_model.py."""

from __future__ import annotations

import json
import threading
import time

import pytest

from engine.core.types import IngestError, SourceKind, Unit
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.ask import (
    MAX_QUESTION_CHARS,
    NOTHING,
    AskCancelled,
    AskDocument,
    AskError,
    AskOptions,
    DocumentAsker,
    check_question,
    part_prompt,
)
from engine.drafting.generate import JsonReply
from engine.drafting.generate.prompt import Evidence
from engine.drafting.records import Citation
from tests.fixtures import TOPICS, topic_pages, write_pdf

SENTENCES = [f"Sentence number {i} says that control {i} is reviewed by team {i % 7}." for i in range(1, 61)]
TEXT = " ".join(SENTENCES)


def doc(text: str = TEXT, name: str = "policy.txt") -> AskDocument:
    return AskDocument(name, SourceKind.TEXT, [Unit(text, section="Policy")])


class Scripted:
    """Replies scripted per part: ``replies[i]`` is the JSON the "model" gives for part i (the
    answer step gets ``answer``). Records every call."""

    name = "scripted"

    def __init__(self, replies: dict[int, dict] | None = None, answer: dict | None = None, delay: float = 0.0) -> None:
        self.replies, self.answer_reply, self.delay = replies or {}, answer, delay
        self.calls: list[tuple[str | None, list[dict], dict]] = []
        self.active = self.most = 0
        self._lock = threading.Lock()

    def chat_json(self, messages, schema, max_tokens=None, context=None):
        with self._lock:
            self.calls.append((context, list(messages), schema))
            self.active += 1
            self.most = max(self.most, self.active)
        time.sleep(self.delay)
        with self._lock:
            self.active -= 1
        if "answer" in schema["properties"]:
            reply = self.answer_reply or {"answer": "Team 3 reviews it [1].", "cites": [1]}
        else:
            part = int(context.rsplit(":", 1)[1])
            reply = self.replies.get(part, {next(iter(schema["properties"])): []})
        return JsonReply(json.dumps(reply), 100, 10, 0.01)


# ---- parts ----------------------------------------------------------------------------------------
def test_parts_hold_whole_sentences_up_to_the_word_limit_and_cover_the_document():
    d = doc()
    parts = d.parts(100)
    assert len(parts) > 1
    assert parts[0].first == 0 and parts[-1].last == d.sentences - 1
    for a, b in zip(parts, parts[1:]):
        assert b.first == a.last + 1  # contiguous, nothing skipped or repeated
    assert all(p.words <= 100 for p in parts)
    assert sum(p.words for p in parts) == len(TEXT.split())
    assert d.part_text(parts[1]).startswith(SENTENCES[parts[1].first])  # a part starts on a sentence


def test_the_part_comes_before_the_question_and_names_the_kv_state_of_the_part():
    d = doc()
    options = AskOptions(subdoc_words=100)
    parts = d.parts(100)
    one = part_prompt(d, parts[0], len(parts), "Who reviews control 3?", options)
    two = part_prompt(d, parts[0], len(parts), "Who reviews control 4?", options)
    other = part_prompt(d, parts[1], len(parts), "Who reviews control 3?", options)
    numbered = part_prompt(
        d, parts[0], len(parts), "Who reviews control 3?", AskOptions(subdoc_words=100, evidence="sentences")
    )
    user = one.messages[-1]["content"]
    assert user.index(SENTENCES[0]) < user.index("Question: Who reviews control 3?")
    # the same part: the same prefix (up to the question) and the same state key; another part or form: another key
    assert (
        one.messages[0] == two.messages[0]
        and user.split("Question:")[0] == two.messages[-1]["content"].split("Question:")[0]
    )
    assert one.context == two.context and len({one.context, other.context, numbered.context}) == 3
    assert "S1. Sentence number 1 says" in numbered.messages[-1]["content"]
    assert numbered.schema["properties"]["sentences"]["items"]["enum"][:2] == ["S1", "S2"]


# ---- Algorithm 1 + 2 ---------------------------------------------------------------------------------
def test_quotes_become_windows_and_close_windows_merge():
    d = doc()
    chat = Scripted(
        {0: {"quotes": [SENTENCES[10], SENTENCES[13]]}},
    )
    result = DocumentAsker(d, chat, AskOptions(window=2)).ask("Who reviews control 11?")
    (e,) = result.excerpts  # 8–12 and 11–15 overlap: one excerpt, sentences 8..15
    assert e.sentences == (8, 15)
    (span,) = e.spans
    assert d.units[0].text[span.start : span.end] == e.text
    assert e.text.startswith(SENTENCES[8]) and e.text.endswith(SENTENCES[15])
    assert e.label is AnchorLabel.VERIFIED and e.section == "Policy"
    assert result.answer == "Team 3 reviews it [1]." and result.cited == (1,)

    far = DocumentAsker(d, Scripted({0: {"quotes": [SENTENCES[3], SENTENCES[40]]}}), AskOptions(window=2)).ask("q?")
    assert [x.sentences for x in far.excerpts] == [(1, 5), (38, 42)] and [x.number for x in far.excerpts] == [1, 2]
    touching = DocumentAsker(d, Scripted({0: {"quotes": [SENTENCES[10], SENTENCES[15]]}}), AskOptions(window=2)).ask(
        "q?"
    )
    assert [x.sentences for x in touching.excerpts] == [(8, 17)]  # 8–12 and 13–17 touch: merged


def test_a_repaired_quote_is_kept_and_an_invented_one_is_dropped_and_reported():
    d = doc()
    sloppy = SENTENCES[20].lower().replace("reviewed", "checked")  # case and one word changed
    chat = Scripted({0: {"quotes": [sloppy, "Our moon base is staffed by penguins every Tuesday."]}})
    result = DocumentAsker(d, chat, AskOptions(window=0)).ask("Who reviews control 21?")
    (e,) = result.excerpts
    assert e.label is AnchorLabel.REPAIRED and e.text == SENTENCES[20]
    assert result.dropped == ("Our moon base is staffed by penguins every Tuesday.",)


def test_no_quotes_means_nothing_answers_it_without_an_answer_call():
    chat = Scripted({})
    result = DocumentAsker(doc(), chat, AskOptions(subdoc_words=200)).ask("Is there a moon base?")
    assert not result.found and result.excerpts == () and result.answer == NOTHING and result.cited == ()
    assert len(chat.calls) == len(doc().parts(200))  # one call per part, none for an answer


def test_the_structured_variant_maps_sentence_numbers_of_each_part():
    d = doc()
    parts = d.parts(100)
    second = parts[1]
    chat = Scripted({1: {"sentences": ["S2", "S99"]}})  # S99 is not in the part: ignored
    result = DocumentAsker(d, chat, AskOptions(subdoc_words=100, evidence=Evidence.SENTENCES, window=0)).ask("q?")
    (e,) = result.excerpts
    assert e.sentences == (second.first + 1, second.first + 1) and e.text == SENTENCES[second.first + 1]


def test_answer_cites_only_excerpts_that_exist():
    chat = Scripted({0: {"quotes": [SENTENCES[5]]}}, answer={"answer": "It is team 6 [1][7].", "cites": [1, 7]})
    result = DocumentAsker(doc(), chat, AskOptions(window=0)).ask("q?")
    assert result.cited == (1,)
    answer_schema = chat.calls[-1][2]
    assert answer_schema["properties"]["cites"]["items"] == {"enum": [1]}


def test_a_later_question_is_not_the_first_of_the_document():
    asker = DocumentAsker(doc(), Scripted({0: {"quotes": [SENTENCES[5]]}}), AskOptions())
    assert asker.ask("first?").timing.first is True
    assert asker.ask("second?").timing.first is False


def test_pdf_excerpts_carry_pages_offsets_and_highlight_boxes(tmp_path):
    pdf = write_pdf(tmp_path / "handbook.pdf", topic_pages())
    d = AskDocument.from_file(pdf)
    quote = TOPICS["backups"].split(". ")[1] + "."  # "Restores are tested each quarter, …"
    result = DocumentAsker(d, Scripted({0: {"quotes": [quote]}}), AskOptions(window=0)).ask(
        "How often are restores tested?"
    )
    (e,) = result.excerpts
    assert e.page == 2 and e.pages == (2,)
    (span,) = e.spans
    assert d.units[span.unit].text[span.start : span.end] == e.text and "Restores are tested" in e.text
    assert e.rects and {r[0] for r in e.rects} == {2}
    c = e.citation()
    assert Citation.from_json(json.loads(json.dumps(c.to_json()))) == c  # persisted as a draft citation is
    assert c.kind is SourceKind.PDF and c.page == 2 and c.rects == e.rects


def test_a_window_over_several_pages_is_cited_on_the_page_of_its_quote(tmp_path):
    pdf = write_pdf(tmp_path / "handbook.pdf", topic_pages())
    d = AskDocument.from_file(pdf)
    quote = TOPICS["access"].split(". ")[1] + "."  # page 3
    (e,) = (
        DocumentAsker(d, Scripted({0: {"quotes": [quote]}}), AskOptions(window=5)).ask("Who reviews access?").excerpts
    )
    assert e.focus == (3,) and len(e.pages) > 1 and {r[0] for r in e.rects} == set(e.pages)
    c = e.citation()
    assert c.page == 3 and {r[0] for r in c.rects} == {3}  # the viewer opens on the quote's page


# ---- bad input ---------------------------------------------------------------------------------------
def test_empty_and_overlong_questions_are_refused_with_the_limit():
    with pytest.raises(AskError, match="is empty"):
        check_question("   ")
    with pytest.raises(AskError) as err:
        DocumentAsker(doc(), Scripted()).ask("x" * 5000)
    assert "5,000 characters" in str(err.value) and f"{MAX_QUESTION_CHARS:,}" in str(err.value)


def test_an_empty_or_scanned_document_is_refused(tmp_path):
    with pytest.raises(AskError, match="no text to read"):
        AskDocument("blank.txt", SourceKind.TEXT, [Unit("  \n ")])
    import fitz

    scanned = tmp_path / "scan.pdf"
    pdf = fitz.open()
    page = pdf.new_page()
    page.draw_rect(fitz.Rect(50, 50, 300, 300), fill=(0.2, 0.2, 0.2))  # an image-only page, no text layer
    pdf.save(scanned)
    with pytest.raises(IngestError, match="no text layer"):
        AskDocument.from_file(scanned)


def test_a_part_larger_than_the_model_context_names_a_smaller_part_size():
    class Small(Scripted):
        n_ctx = 512

        def count_tokens(self, text):
            return len(text.split())

    with pytest.raises(AskError) as err:
        DocumentAsker(doc(), Small(), AskOptions(subdoc_words=3000)).ask("q?")
    assert "--subdoc-words" in str(err.value) and "512" in str(err.value)


def test_a_500_page_document_reports_progress_per_part_and_stops_when_cancelled():
    pages = [Unit(" ".join(SENTENCES[(p + i) % 60] for i in range(12)), page=p + 1) for p in range(500)]
    d = AskDocument("manual.pdf", SourceKind.PDF, pages)  # no source file: no boxes
    seen: list[tuple[int, int]] = []
    cancel = threading.Event()

    def progress(stage, done, total):
        seen.append((done, total))
        if done == 3:
            cancel.set()

    chat = Scripted()
    asker = DocumentAsker(d, chat, AskOptions())
    assert len(asker.parts) >= 20
    with pytest.raises(AskCancelled, match=f"after reading 3 of {len(asker.parts)} parts"):
        asker.ask("Who reviews control 1?", progress=progress, cancel=cancel)
    assert seen[:4] == [(0, len(asker.parts)), (1, len(asker.parts)), (2, len(asker.parts)), (3, len(asker.parts))]
    assert len(chat.calls) == 3  # stopped between parts


def test_parts_are_read_concurrently_with_workers_and_kept_in_order():
    d = doc()
    n = len(d.parts(100))
    chat = Scripted({i: {"quotes": [SENTENCES[d.parts(100)[i].first]]} for i in range(n)}, delay=0.05)
    result = DocumentAsker(d, chat, AskOptions(subdoc_words=100, workers=4, window=0)).ask("q?")
    assert chat.most > 1  # several parts at once
    assert [e.sentences[0] for e in result.excerpts] == [p.first for p in d.parts(100)]
