"""Several long prompts kept warm in one llama.cpp context: the KV state of each, by key.

llama-cpp-python already reuses the longest common token prefix between one completion and the
next (``Llama.generate`` trims the KV cache to it), so a second question about the *same*
document costs only the question's tokens and the reply, as long as the document comes
before the question in the prompt. When one context reads several documents (the
subdocuments of ``engine.drafting.ask``) in turn, each overwrites the last. ``PrefixStates`` keeps the
KV cache of sequence 0 (``llama_state_seq_get_data``: the keys and values only, not the
logits or the ``scores`` buffer that ``Llama.save_state`` copies) for each key the first time
the context switches away from it, and puts it back when that key is used again; the prefix
match then applies as if the context had never left it.

Measured with Qwen2.5-Coder-1.5B on this 2-core CPU (a 2,560-token PolicyQA document): a
state is 74 MB (28 KB a token), saved in 0.24 s and restored in 0.03 s, against 60–140 s to
read the document again; the question after a restore took 8.1 s, as the same question asked
without leaving the document. States are kept up to ``capacity_bytes`` (least recently used
dropped first): a dropped key is simply read again.

This module imports llama_cpp: import it only with a llama.cpp generator.
"""

from __future__ import annotations

import ctypes
from collections import OrderedDict
from dataclasses import dataclass

import llama_cpp
import numpy as np

DEFAULT_CAPACITY = 2 << 30  # bytes of KV states kept (≈ 16 subdocuments of 3,000 words with Qwen2.5-1.5B)


@dataclass(frozen=True)
class _State:
    tokens: np.ndarray  # the token ids the KV cache holds
    data: bytes  # llama_state_seq_get_data of sequence 0


class PrefixStates:
    """KV states of one ``llama_cpp.Llama`` by key; ``use(key)`` before each completion, under
    the generator's lock (the context is not thread-safe)."""

    def __init__(self, llm: llama_cpp.Llama, capacity_bytes: int = DEFAULT_CAPACITY) -> None:
        if capacity_bytes < 0:
            raise ValueError(f"capacity_bytes {capacity_bytes} is negative; use 0 (keep nothing) or more")
        self.llm, self.capacity = llm, capacity_bytes
        self.current: str | None = None  # the key whose prompt the context holds now
        self._states: OrderedDict[str, _State] = OrderedDict()
        self.restored = 0  # how many times a kept state was put back (for tests and logs)

    def __contains__(self, key: str) -> bool:
        return key in self._states

    @property
    def size(self) -> int:
        return sum(len(s.data) for s in self._states.values())

    def use(self, key: str | None) -> None:
        """Make the context hold ``key``'s prompt when it was kept; ``None``: a prompt of no key
        (the context's previous key is kept first, so it is not lost)."""
        if key == self.current:
            return
        self._keep_current()
        self.current = key
        state = self._states.get(key) if key is not None else None
        if state is not None:
            self._states.move_to_end(key)
            self._restore(state)

    def forget(self, key: str) -> None:
        """Drop ``key``'s kept state; when the context holds ``key``'s prompt now, it is not kept
        when the context switches away (a prompt asked for the last time, #59 item 6)."""
        self._states.pop(key, None)
        if self.current == key:
            self.current = None

    def _keep_current(self) -> None:
        key, llm = self.current, self.llm
        if key is None or key in self._states or llm.n_tokens == 0 or self.capacity == 0:
            return
        ctx = llm._ctx.ctx
        size = llama_cpp.llama_state_seq_get_size(ctx, 0)
        buffer = (ctypes.c_uint8 * size)()
        written = llama_cpp.llama_state_seq_get_data(ctx, buffer, size, 0)
        if written == 0 or written > size:
            return  # this context cannot copy its state: the key is read again next time
        self._states[key] = _State(np.array(llm.input_ids[: llm.n_tokens], copy=True), bytes(buffer)[:written])
        while self.size > self.capacity and self._states:
            self._states.popitem(last=False)

    def _restore(self, state: _State) -> None:
        llm = self.llm
        llm._ctx.kv_cache_seq_rm(-1, 0, -1)  # the whole cache: the state replaces it
        buffer = (ctypes.c_uint8 * len(state.data)).from_buffer_copy(state.data)
        if llama_cpp.llama_state_seq_set_data(llm._ctx.ctx, buffer, len(state.data), 0) == 0:
            llm.n_tokens = 0  # refused: the prompt is read from the start
            return
        n = len(state.tokens)
        llm.input_ids[:n] = state.tokens
        llm.n_tokens = n
        llm._requires_eval = True  # the next completion decodes at least one token before sampling
        self.restored += 1
