"""Greedy decoding under a grammar that checks the grammar for one token, not the whole vocabulary.

llama-cpp-python 0.3.36 samples a schema-constrained reply with the chain [grammar, greedy]:
every step the grammar tests all 49,152 tokens of SmolLM2's vocabulary, which costs more than
the model's own forward pass for a 135M model (≈ 14 ms a token on this CPU). llama.cpp's own
common sampler does it the other way round, and so does this one: take the best token, ask the
grammar about that token alone, and mask the whole vocabulary only when it is rejected. The
reply is the same token for token (the best token the grammar accepts is the best of the masked
vocabulary; ties go to the lower id in both), which tests/integration/test_generate.py checks.

``GreedyLlama`` is ``llama_cpp.Llama`` with that sampler whenever a call is greedy (temperature
0), constrained by a grammar and has no penalties, logit processors or mirostat; every other
call gets the stock sampler chain. This module imports llama_cpp: import it only when building a
llama.cpp generator.
"""

from __future__ import annotations

import ctypes
import math

import llama_cpp
import numpy as np

_TOKEN_DATA = np.dtype([("id", np.int32), ("logit", np.float32), ("p", np.float32)])


class GrammarFirstGreedy:
    """A sampler with the interface ``Llama.sample`` uses: ``sample(ctx, idx) -> token``
    (the token is accepted into the grammar's state, as the stock chain does)."""

    def __init__(self, llm: llama_cpp.Llama, grammar: llama_cpp.LlamaGrammar) -> None:
        self._sampler = llama_cpp.llama_sampler_init_grammar(
            llm._model.vocab, grammar._grammar.encode("utf-8"), grammar._root.encode("utf-8")
        )
        if not self._sampler:
            raise ValueError("llama.cpp rejected the grammar built from the JSON schema")
        self._n_vocab = llm.n_vocab()
        self._one = (llama_cpp.llama_token_data * 1)()
        self._all = (llama_cpp.llama_token_data * self._n_vocab)()
        self._all_np = np.frombuffer(self._all, dtype=_TOKEN_DATA)

    def _apply(self, data: ctypes.Array, size: int) -> None:
        array = llama_cpp.llama_token_data_array(
            data=ctypes.cast(data, llama_cpp.llama_token_data_p), size=size, selected=-1, sorted=False
        )
        llama_cpp.llama_sampler_apply(self._sampler, ctypes.byref(array))

    def sample(self, ctx, idx: int = -1) -> int:
        logits = np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(ctx.ctx, idx), shape=(self._n_vocab,))
        token = int(np.argmax(logits))
        self._one[0] = llama_cpp.llama_token_data(token, float(logits[token]), 0.0)
        self._apply(self._one, 1)
        if math.isinf(self._one[0].logit):  # the grammar rejects the best token: mask them all
            self._all_np["id"] = np.arange(self._n_vocab, dtype=np.int32)
            self._all_np["logit"] = logits
            self._apply(self._all, self._n_vocab)
            token = int(np.argmax(self._all_np["logit"]))
        llama_cpp.llama_sampler_accept(self._sampler, token)
        return token

    def close(self) -> None:
        if self._sampler:
            llama_cpp.llama_sampler_free(self._sampler)
            self._sampler = None

    def __del__(self) -> None:
        self.close()


class GreedyLlama(llama_cpp.Llama):
    """``llama_cpp.Llama`` whose greedy grammar-constrained calls use ``GrammarFirstGreedy``."""

    def _init_sampler(self, **kwargs):
        grammar = kwargs.get("grammar")
        plain = (
            kwargs.get("temp") == 0.0
            and not kwargs.get("logits_processor")
            and not kwargs.get("mirostat_mode")
            and kwargs.get("repeat_penalty", 1.0) == 1.0
            and not kwargs.get("frequency_penalty")
            and not kwargs.get("presence_penalty")
        )
        if grammar is not None and plain:
            return GrammarFirstGreedy(self, grammar)
        return super()._init_sampler(**kwargs)
