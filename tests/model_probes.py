"""What the model worker (engine/drafting/generate/worker.py) builds in its child process for the tests.

The tests that look inside llama.cpp (the sampler's steps, the kept KV states, the stock
sampler beside ours) used to load the model in pytest's own process, where a native crash ends
the whole suite. ``InProcessProbe`` is the same ``LlamaCppGenerator`` with a few methods that
return what those tests read, so the model runs in a worker and a crash fails one test with the
signal named. ``Segfaulting`` is a child that kills itself with SIGSEGV when asked to answer.
"""

from __future__ import annotations

import os
import signal

from engine.drafting.generate.backends import LlamaCppGenerator


class InProcessProbe(LlamaCppGenerator):
    def last_steps(self) -> list[tuple[bytes, float]]:
        """The last reply's tokens (as bytes) with their probabilities among the allowed ones."""
        return [(self.llm.detokenize([t]), p) for t, p in self.llm.last_steps]

    def prefix_stats(self) -> dict:
        return {"restored": self.prefix_states.restored}

    def holds_context(self, key: str) -> bool:
        return key in self.prefix_states

    def stock_and_ours(self, cases: list[tuple[list[dict], dict]]) -> list[tuple[tuple[str, int], tuple[str, int]]]:
        """Each case's reply from llama-cpp-python's own sampler chain and from ours, on the same
        model file with the same settings (the whole prompt evaluated in one batch by both)."""
        import llama_cpp

        params = self.llm.context_params
        stock = llama_cpp.Llama(
            model_path=self.llm.model_path,
            n_ctx=self.n_ctx,
            n_threads=params.n_threads,
            n_threads_batch=params.n_threads_batch,
            flash_attn=True,
            seed=0,
            verbose=False,
        )
        assert type(stock._init_sampler(temp=0.0, grammar=None)).__name__ == "LlamaSampler"
        out = []
        for messages, schema in cases:
            replies = []
            for llm in (stock, self.llm):
                llm.reset()
                got = llm.create_chat_completion(
                    messages=messages,
                    temperature=0.0,
                    max_tokens=256,
                    response_format={"type": "json_object", "schema": schema},
                )
                replies.append((got["choices"][0]["message"]["content"], got["usage"]["completion_tokens"]))
            out.append((replies[0], replies[1]))
        return out


class Segfaulting:
    """A model that loads and then dies by SIGSEGV on its first answer, as llama.cpp's AMX path did."""

    def __init__(self, model_path: str | None = None, **options) -> None:
        self.name, self.n_ctx = "segfaulting.gguf", 4096

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def chat_json(self, messages, schema, max_tokens=None, context=None):
        os.kill(os.getpid(), signal.SIGSEGV)
