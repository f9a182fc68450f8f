"""The integer-arithmetic graph of the int8 MiniLM, derived from the package's ONNX file and cached.

The package's graph keeps each weight as int8 plus a per-column fp32 scale and dequantises it
(``Cast``, then ``Mul`` by the scale) before its ``MatMul``; onnxruntime folds that into fp32
weights at load, so the arithmetic is fp32. :func:`derive` rewrites each such MatMul (36: Q, K, V,
output, and the two feed-forward ones of 6 layers) into onnxruntime's integer MatMul, with the
package's own int8 values (no second quantisation of the weights):

    s = max|x| / 127 over each token's row;  q = Round(x / s) + 128 (uint8)
    y = Cast(MatMulInteger(q, W + 128, 128, 128)) · w_scale · s

Each token's activations are quantised symmetrically with a scale of their own (one quantisation
per input tensor: Q, K and V share theirs), not per tensor as ``quantize_dynamic``'s
DynamicQuantizeLinear does: with one scale for the whole batch, a text's vector depended on the
texts batched with it (cosine 0.987 between a question alone and in a batch; per token: 1.0) and
sat further from fp32 (chunk cosine mean 0.991 against 0.997). Both operands are uint8 with zero
point 128 (u8·u8): onnxruntime's u8·s8 kernel on AVX2 without VNNI adds pairs of products in 16
bits (VPMADDUBSW) and saturates, which cost accuracy here (0.996) and would make vectors depend on
the CPU; u8·u8 is exact. The attention's two activation×activation MatMuls stay fp32.

It also drops the exporter's NaN guard after each attention Softmax (``Where(IsNaN(p), 0, p)``):
it only changes a row whose keys are all masked, and every row here attends at least to [CLS]
(the tokenizer always adds it, with mask 1); it cost ≈ 10 % of a batch.

The derived file is written once into ``~/.cache/rfp-review/onnx/`` (``$XDG_CACHE_HOME`` when
set) with the project's atomic write, under a name keyed by the source's SHA-256, the rewrite's
version (:data:`GRAPH_VERSION`) and the ``onnx`` package's, beside a ``.sha256`` file of its own
digest. A cached file whose digest no longer matches (damaged, truncated, half-copied) is derived
again, as is a missing one; a cache that cannot be written is skipped (the graph is then derived at
each load, ≈ 0.7 s). Deriving imports ``onnx`` (≈ 0.4 s) and rewrites the graph (≈ 0.3 s); a
cached load reads only the file and its digest.
"""

from __future__ import annotations

import hashlib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np

from engine.core.config import cache_home
from engine.core.files import write_atomic
from engine.index.errors import EmbedderError

GRAPH_VERSION = 1  # bump when derive() writes a different graph: old cache files are then ignored
ONNX_REQUIREMENT = "onnx==1.23.2"


def cache_dir() -> Path:
    """Where derived ONNX files are kept: ``rfp-review/onnx`` in the user's cache folder."""
    return cache_home() / "onnx"


def _onnx_version() -> str:
    try:
        return version("onnx")
    except PackageNotFoundError:
        raise EmbedderError(
            f"the int8-arithmetic embedder derives its graph with the package {ONNX_REQUIREMENT}: "
            f"pip install {ONNX_REQUIREMENT}"
        ) from None


def cached_file(name: str, source_sha256: str) -> Path:
    """The cache file of ``name``'s graph derived from the source file of that SHA-256."""
    return cache_dir() / f"{name}-{source_sha256[:16]}-g{GRAPH_VERSION}-onnx{_onnx_version()}.onnx"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def integer_model(source: Path, name: str, source_sha256: str) -> Path | bytes:
    """The derived graph of ``source`` (already checked to be the file of ``source_sha256``): the
    cache file when it is whole (its bytes match its ``.sha256``), else derived now and cached;
    the bytes themselves when the cache cannot be written."""
    target = cached_file(name, source_sha256)
    recorded = target.with_name(target.name + ".sha256")
    try:
        data = target.read_bytes()
        if _digest(data) == recorded.read_text(encoding="ascii").strip():
            return target
    except (OSError, UnicodeDecodeError):
        pass  # missing or unreadable: derived again below
    derived = derive(source.read_bytes(), source)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, derived)
        write_atomic(recorded, _digest(derived) + "\n")  # after the file: a file without it is derived again
    except OSError:
        return derived
    return target


def derive(model: bytes, source: Path) -> bytes:
    """The integer-arithmetic graph of ``model`` (module docstring), serialised. EmbedderError
    naming ``source`` when the graph is not the dequantise-then-MatMul export it expects."""
    try:
        import onnx
        from onnx import TensorProto, helper, numpy_helper
    except ImportError:
        raise EmbedderError(
            f"the int8-arithmetic embedder derives its graph with the package {ONNX_REQUIREMENT}: "
            f"pip install {ONNX_REQUIREMENT}"
        ) from None
    proto = onnx.load_from_string(model)
    graph = proto.graph
    initializers = {t.name: t for t in graph.initializer}
    producer = {out: node for node in graph.node for out in node.output}

    def dequantised(tensor: str) -> tuple[str, str] | None:
        """(int8 weight, per-column scale) when ``tensor`` is Mul(Cast(int8 initializer), scale)."""
        mul = producer.get(tensor)
        if mul is None or mul.op_type != "Mul" or mul.input[1] not in initializers:
            return None
        cast = producer.get(mul.input[0])
        if cast is None or cast.op_type != "Cast" or cast.input[0] not in initializers:
            return None
        weight, scale = initializers[cast.input[0]], initializers[mul.input[1]]
        if weight.data_type != TensorProto.INT8 or len(weight.dims) != 2:
            return None
        if numpy_helper.to_array(scale).size != weight.dims[1]:  # per column of [K, N]
            return None
        return cast.input[0], mul.input[1]

    constants = {"__q_127": np.float32(1 / 127), "__q_tiny": np.float32(1e-12), "__q_128": np.float32(128)}
    graph.initializer.extend(numpy_helper.from_array(np.array(v), k) for k, v in constants.items())
    graph.initializer.append(numpy_helper.from_array(np.array(128, dtype=np.uint8), "__q_zero"))
    nodes, quantised, unsigned = [], {}, {}
    for node in graph.node:
        found = dequantised(node.input[1]) if node.op_type == "MatMul" else None
        if found is None:
            nodes.append(node)
            continue
        weight, scale = found
        if weight not in unsigned:  # the same values, shifted into uint8 with zero point 128
            shifted = numpy_helper.to_array(initializers[weight]).astype(np.int16) + 128
            unsigned[weight] = f"{weight}__u8"
            graph.initializer.append(numpy_helper.from_array(shifted.astype(np.uint8), unsigned[weight]))
        x, y = node.input[0], node.output[0]
        if x not in quantised:
            q = quantised[x] = f"{x}__q"
            nodes += [
                helper.make_node("Abs", [x], [f"{q}_abs"], name=f"{q}_abs"),
                helper.make_node("ReduceMax", [f"{q}_abs"], [f"{q}_max"], axes=[-1], keepdims=1, name=f"{q}_max"),
                helper.make_node("Mul", [f"{q}_max", "__q_127"], [f"{q}_s0"], name=f"{q}_s0"),
                helper.make_node("Max", [f"{q}_s0", "__q_tiny"], [f"{q}_scale"], name=f"{q}_scale"),
                helper.make_node("Div", [x, f"{q}_scale"], [f"{q}_div"], name=f"{q}_div"),
                helper.make_node("Round", [f"{q}_div"], [f"{q}_round"], name=f"{q}_round"),
                helper.make_node("Add", [f"{q}_round", "__q_128"], [f"{q}_shift"], name=f"{q}_shift"),
                helper.make_node("Cast", [f"{q}_shift"], [q], to=TensorProto.UINT8, name=q),
            ]
        q, p = quantised[x], f"{y}__int"
        nodes += [
            helper.make_node("MatMulInteger", [q, unsigned[weight], "__q_zero", "__q_zero"], [p], name=p),
            helper.make_node("Cast", [p], [f"{p}_f"], to=TensorProto.FLOAT, name=f"{p}_f"),
            helper.make_node("Mul", [f"{p}_f", scale], [f"{p}_w"], name=f"{p}_w"),
            helper.make_node("Mul", [f"{p}_w", f"{q}_scale"], [y], name=y),
        ]
    if not unsigned:
        raise EmbedderError(
            f"{source}: no MatMul of a dequantised int8 weight in this ONNX graph (not the export the "
            "int8-arithmetic embedder rewrites); use the embedder all-MiniLM-L6-v2-int8 instead"
        )
    nodes = _unread_removed(_without_nan_guards(nodes), {o.name for o in graph.output})
    del graph.node[:]
    graph.node.extend(nodes)
    read = {name for node in nodes for name in node.input}
    kept = [t for t in graph.initializer if t.name in read]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    return proto.SerializeToString()


def _unread_removed(nodes: list, outputs: set[str]) -> list:
    """``nodes`` without those whose outputs nothing reads (the replaced dequantisations), repeated
    until none is left."""
    while True:
        read = outputs | {name for node in nodes for name in node.input}
        kept = [n for n in nodes if any(o in read for o in n.output)]
        if len(kept) == len(nodes):
            return kept
        nodes = kept


def _without_nan_guards(nodes: list) -> list:
    """``nodes`` with each ``Where(IsNaN(s), 0, s)`` after a Softmax ``s`` removed, its readers
    reading ``s`` (module docstring: no row here is all masked)."""
    producer = {out: node for node in nodes for out in node.output}
    readers: dict[str, int] = {}
    for node in nodes:
        for name in node.input:
            readers[name] = readers.get(name, 0) + 1
    renamed: dict[str, str] = {}
    guards: set[str] = set()
    for node in nodes:
        test = producer.get(node.input[0]) if node.op_type == "Where" else None
        if test is None or test.op_type != "IsNaN" or node.input[2] != test.input[0] or readers[node.input[0]] != 1:
            continue
        softmax = producer.get(test.input[0])
        if softmax is not None and softmax.op_type == "Softmax":
            renamed[node.output[0]] = softmax.output[0]
            guards.update((node.output[0], test.output[0]))
    kept = [n for n in nodes if n.output[0] not in guards]
    for node in kept:
        for i, name in enumerate(node.input):
            if name in renamed:
                node.input[i] = renamed[name]
    return kept
