"""The Word scorer's "written after" places (engine/bench/document_places.py, ``after``): a request whose
truth says the response is written after its paragraph is answered usably in an empty paragraph after the
request's lines or in a new paragraph inserted after its last line, never in the guidance that follows
nor inside the request's own lines; an item without ``after`` keeps its exact address."""

from __future__ import annotations

import pytest

from engine.bench.document_places import Addresses, Placed, usable
from tests import word_fixtures as wf


@pytest.fixture
def where(tmp_path) -> Addresses:
    doc = wf.new()
    for line in ("Please provide details of two contracts", "that your organisation has held.", "", "", "Label it B.1"):
        wf.add(doc, wf.para(wf.text(line)) if line else wf.para())
    path = wf.save(doc, tmp_path / "after.docx")
    where = Addresses(path)
    assert [where.body_text(n) for n in range(1, 6)] == [
        "Please provide details of two contracts",
        "that your organisation has held.",
        "",
        "",
        "Label it B.1",
    ]
    return where


def _at(n: int, inserted: bool = False) -> Placed:
    return Placed(frozenset(), ("p", n), ("p", 1), inserted)


AFTER = {"text": "Please provide details of two contracts", "answer": ["p", 1], "after": True}


@pytest.mark.parametrize(
    ("place", "ok"), [(_at(3), True), (_at(4), True), (_at(2, inserted=True), True), (_at(1), True)]
)
def test_a_response_written_after_the_request_is_usable(where, place, ok):
    assert usable(AFTER, place, where) is ok


@pytest.mark.parametrize("place", [_at(5), _at(2), _at(5, inserted=True)])
def test_the_guidance_after_or_the_requests_own_line_is_not_the_response_place(where, place):
    assert not usable(AFTER, place, where)


def test_an_item_without_after_keeps_its_exact_address(where):
    exact = {k: v for k, v in AFTER.items() if k != "after"}
    assert usable(exact, _at(1), where)
    assert not usable(exact, _at(3), where)
