"""At app start the embedder and the LLM load in background threads (``Workspace.warm_up``,
started by ui/app.py): the first page is drawn while they load, the screens say what is still
loading, and the loaded objects are the workspace's own, so the first draft does not load them
again.

The slow model is a stated fake: the real MiniLM behind a gate that holds its first query until
the test opens it (a model that takes as long as the test needs to load); the LLM is the
stated fake ``QuotingGenerator`` of conftest.py."""

from __future__ import annotations

import threading

import pytest

from engine.app.workspace import WarmState
from engine.core.config import DEFAULT_EMBEDDER
from engine.index.kb import KnowledgeBase
from tests.ui.conftest import texts

pytestmark = pytest.mark.timeout(300)


class HeldEncoder:
    """The real encoder, whose queries wait until ``gate`` is set; counts them."""

    def __init__(self, real) -> None:
        self.real, self.gate, self.queries = real, threading.Event(), 0

    def __getattr__(self, name):
        return getattr(self.real, name)

    def encode_query(self, text: str):
        self.queries += 1
        assert self.gate.wait(120), "the test never opened the gate"
        return self.real.encode_query(text)


def test_the_first_page_is_drawn_while_the_models_load(open_screen, ui_workspace, encoder):
    ws = ui_workspace
    held = HeldEncoder(encoder)
    ws.__dict__["kb"] = KnowledgeBase(ws.folder, ws.settings.engine, held)
    try:
        at = open_screen("review", timeout=20)  # a page that waited for the embedder would time out here
        assert not at.exception
        assert "no questionnaire to review yet" in at.info[0].value
        warm = ws.warming
        assert warm is not None and warm.running and warm.steps["embedder"].state is WarmState.LOADING
        assert held.queries == 1  # the warm-up's own query, still held

        at.switch_page("screens/settings.py")
        at = at.run()
        assert not at.exception
        assert f"Loading the embedder {DEFAULT_EMBEDDER} in the background…" in texts(at.caption)
    finally:
        held.gate.set()
    assert warm.wait(60)
    assert {name: step.state for name, step in warm.steps.items()} == {
        "embedder": WarmState.READY,
        "model": WarmState.READY,
    }
    at = at.run()
    assert f"The embedder {DEFAULT_EMBEDDER} is loaded" in texts(at.caption)
    assert ws.warm_up() is warm and held.queries == 1  # once per process (and per settings), not per page
