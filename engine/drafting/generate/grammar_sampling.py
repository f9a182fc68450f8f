"""Greedy decoding under a grammar that checks the grammar for one token, not the whole vocabulary.

llama-cpp-python 0.3.36 samples a schema-constrained reply with the chain [grammar, greedy]:
every step the grammar tests all 49,152 tokens of SmolLM2's vocabulary, which costs more than
the model's own forward pass for a 135M model (≈ 14 ms a token on this CPU). llama.cpp's own
common sampler does it the other way round, and so does this one: take the best token and ask
the grammar about that token alone; when it is rejected (about a third of the steps with
SmolLM2), ask about the next ``CANDIDATES`` best, and mask the whole vocabulary only when none of
them passes. The reply is the same token for token (the best token the grammar accepts is the
best of the masked vocabulary; ties go to the lower id in all three paths), which
tests/integration/test_generate.py checks. One deliberate difference: a reply that repeats a
short block of tokens four times in a row ("Yes, Yes, Yes, Yes,") is ended there
(``loops_at_end``), where the stock chain would loop on to max_tokens.

Every step also records the probability of the token taken among the tokens the grammar allows
there (the softmax over the accepted ones of the ``CANDIDATES`` best, the taken token included):
where the grammar allows only one token that is 1, and where a reply chooses between "Yes", "No"
and null it is the model's probability of its choice against the others
(``prompt.choice_probability``). ``GreedyLlama.last_steps`` holds the last reply's
``(token, probability)`` pairs.

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
CANDIDATES = 32  # tokens asked about when the best one is rejected, before the whole vocabulary
LOOP_REPEATS = 4  # a block of tokens said this many times in a row ends the reply ...
LOOP_PERIOD = 6  # ... when the block is at most this many tokens ("Yes, Yes, Yes, Yes,")


def loops_at_end(tokens: list[int], repeats: int = LOOP_REPEATS, max_period: int = LOOP_PERIOD) -> bool:
    """Whether ``tokens`` end with one block of 1..``max_period`` tokens repeated ``repeats``
    times. A greedy small model that starts "Yes, Yes, Yes, …" never stops by itself; the
    sampler ends the reply there (end of generation), the reply is not valid JSON, and the
    question becomes insufficient context instead of spending max_tokens on the loop."""
    for period in range(1, max_period + 1):
        span = period * repeats
        if len(tokens) < span:
            break
        if tokens[-span:] == tokens[-period:] * repeats:
            return True
    return False


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
        self._some = (llama_cpp.llama_token_data * CANDIDATES)()
        self._some_np = np.frombuffer(self._some, dtype=_TOKEN_DATA)
        self._all = (llama_cpp.llama_token_data * self._n_vocab)()
        self._all_np = np.frombuffer(self._all, dtype=_TOKEN_DATA)
        self._eos = llm.token_eos()
        self._said: list[int] = []  # this reply's tokens (one sampler per completion)
        self.steps: list[tuple[int, float]] = []  # (token, its probability among the accepted tokens)

    def _apply(self, data: ctypes.Array, size: int) -> None:
        array = llama_cpp.llama_token_data_array(
            data=ctypes.cast(data, llama_cpp.llama_token_data_p), size=size, selected=-1, sorted=False
        )
        llama_cpp.llama_sampler_apply(self._sampler, ctypes.byref(array))

    def sample(self, ctx, idx: int = -1) -> int:
        logits = np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(ctx.ctx, idx), shape=(self._n_vocab,))
        accepted = self._accepted_candidates(logits)
        if len(accepted):
            best = float(accepted["logit"].max())
            token = int(accepted["id"][accepted["logit"] == best].min())
        if not len(accepted) or best <= self._floor:  # a token outside the candidates could beat them: mask them all
            self._all_np["id"] = np.arange(self._n_vocab, dtype=np.int32)
            self._all_np["logit"] = logits
            self._apply(self._all, self._n_vocab)
            token = int(np.argmax(self._all_np["logit"]))
        self.steps.append((token, _probability(token, logits, accepted)))
        self._said.append(token)
        if loops_at_end(self._said):
            return self._eos  # not accepted by the grammar: the reply ends here
        llama_cpp.llama_sampler_accept(self._sampler, token)
        return token

    def _accepted_candidates(self, logits: np.ndarray) -> np.ndarray:
        """The ``CANDIDATES`` highest-scoring tokens that the grammar accepts (ids, logits);
        ``_floor`` is the lowest candidate logit: a token left out scores at most that, so a
        best accepted candidate above it is the best accepted token of the whole vocabulary."""
        top = np.argpartition(logits, -CANDIDATES)[-CANDIDATES:].astype(np.int32)
        self._some_np["id"] = top
        self._some_np["logit"] = logits[top]
        self._floor = float(self._some_np["logit"].min())
        self._apply(self._some, CANDIDATES)
        return self._some_np[np.isfinite(self._some_np["logit"])].copy()

    def close(self) -> None:
        if self._sampler:
            llama_cpp.llama_sampler_free(self._sampler)
            self._sampler = None

    def __del__(self) -> None:
        self.close()


def _probability(token: int, logits: np.ndarray, accepted: np.ndarray) -> float:
    """The softmax probability of ``token`` over the accepted candidates (and itself)."""
    values = accepted["logit"].astype(np.float64)
    if token not in accepted["id"]:
        values = np.append(values, float(logits[token]))
    top = values.max()
    return float(math.exp(float(logits[token]) - top) / np.exp(values - top).sum())


class GreedyLlama(llama_cpp.Llama):
    """``llama_cpp.Llama`` whose greedy grammar-constrained calls use ``GrammarFirstGreedy``."""

    last_steps: list[tuple[int, float]] = []

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
            sampler = GrammarFirstGreedy(self, grammar)
            self.last_steps = sampler.steps
            return sampler
        return super()._init_sampler(**kwargs)
