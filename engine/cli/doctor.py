"""``python -m engine doctor``: what a user reporting a problem sends, and set-up's last check.

It prints the CPU's instruction sets, how llama.cpp was built (the flags set-up recorded,
engine/llama_build.py, llama.cpp's own system info: the instruction sets compiled in, and the CPU
backend the process loaded: with the ``variants`` build, the variant chosen for this CPU), the
model file with its checksum, and the model's speed: prompt and generation tokens per second
under the answer grammar. Everything that runs llama.cpp runs in a worker process
(engine/drafting/generate/worker.py), so a crash is reported as a line, not suffered.

``--smoke`` (run by ``make setup``) only encodes a sentence with the default embedder (which
derives its integer graph into the cache the first time) and loads the model and generates a few
tokens under the answer grammar; a crash or an error prints one line (what failed and the command that fixes it)
and exits 1, which stops set-up. ``--json`` prints the report as JSON (``bench llama-cpu`` reads
it). ``SpeedProbe`` is the object the worker builds for these checks.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import sys
import time
from pathlib import Path

from engine import llama_build
from engine.core.config import DEFAULT_EMBEDDER
from engine.core.llm import GeneratorError
from engine.drafting.generate.backends import LlamaCppGenerator
from engine.drafting.generate.models import resolve_model
from engine.drafting.generate.prompt import AnswerPrompt, Passage
from engine.drafting.generate.worker import ModelWorker
from engine.index.embed.dense import DenseEncoder, EmbedderError

WATCHED = (
    "sse4_2",
    "avx",
    "avx2",
    "fma",
    "f16c",
    "bmi2",
    "avx512f",
    "avx512bw",
    "avx512vl",
    "avx512vbmi",
    "avx512_vnni",
    "avx512_bf16",
    "avx_vnni",
    "amx_tile",
    "amx_int8",
    "amx_bf16",
)
PROBE = "engine.cli.doctor:SpeedProbe"
SMOKE_TOKENS = 8
PASSAGE = (
    "Customer data is encrypted at rest with AES-256 and in transit with TLS 1.2 or later. Encryption keys are "
    "managed in a hardware-backed key management service and rotated every year. Access to production "
    "systems requires single sign-on with multi-factor authentication, and access is reviewed quarterly. "
)


class SpeedProbe:
    """Built in the worker process: the generator, llama.cpp's system info, and timed calls."""

    def __init__(self, model_path: str | None, **options) -> None:
        self.generator = LlamaCppGenerator(model_path, **options)
        self.name, self.n_ctx = self.generator.name, self.generator.n_ctx

    def system_info(self) -> str:
        import llama_cpp

        return llama_cpp.llama_print_system_info().decode("utf-8", "replace").strip()

    def cpu_backend(self) -> str | None:
        """The CPU backend file llama.cpp loaded in this process (``libggml-cpu-haswell.so``)."""
        return llama_build.loaded_cpu_backend()

    def answer(self, max_tokens: int) -> dict:
        """One answer prompt under the answer grammar; the prompt and generation timed apart
        with llama.cpp's own counters."""
        import llama_cpp

        passages = [Passage(f"S{i}", PASSAGE * 2) for i in range(1, 4)]
        prompt = AnswerPrompt.build(
            "Is customer data encrypted at rest?", passages, ("Yes", "No"), self.generator.evidence
        )
        llm = self.generator.llm
        llm.reset()  # no cached prefix: the whole prompt is evaluated
        ctx = llm._ctx.ctx
        llama_cpp.llama_perf_context_reset(ctx)
        reply = self.generator.chat_json(prompt.messages, prompt.schema, max_tokens=max_tokens)
        perf = llama_cpp.llama_perf_context(ctx)
        return {
            "prompt_tokens": int(perf.n_p_eval),
            "prompt_ms": float(perf.t_p_eval_ms),
            "generated_tokens": int(perf.n_eval),
            "generation_ms": float(perf.t_eval_ms),
            "seconds": reply.seconds,
            "reply": reply.text[:200],
        }


def compiled_features(system_info: str) -> dict[str, bool]:
    """``"CPU : SSE3 = 1 | AVX = 1 | AMX_INT8 = 0 | …"`` → ``{"SSE3": True, "AVX": True, "AMX_INT8": False}``."""
    return {k: v == "1" for k, v in re.findall(r"([A-Z0-9_]+) = ([01])\b", system_info)}


# llama.cpp's name of a compiled-in feature → the flag Linux prints for it in /proc/cpuinfo (the
# kernel's x86 cpufeatures names: "avx512vbmi" has no underscore, "avx512_vnni" has one)
CPU_FLAG_OF = {
    "AVX": "avx",
    "AVX2": "avx2",
    "FMA": "fma",
    "F16C": "f16c",
    "AVX512": "avx512f",
    "AVX512_VNNI": "avx512_vnni",
    "AVX512_BF16": "avx512_bf16",
    "AVX512_VBMI": "avx512vbmi",
    "AVX_VNNI": "avx_vnni",
}


def build_problems(features: dict[str, bool], cpu: set[str]) -> list[str]:
    """What is wrong with a llama.cpp build on this CPU: AMX compiled in (segfaults with Q4_K_M,
    ggml-org/llama.cpp#20824), or an instruction set the CPU lacks (an illegal instruction)."""
    problems = [
        f"{name} is compiled in (llama.cpp's AMX path crashes with Q4_K_M weights)"
        for name in ("AMX_INT8", "AMX_BF16")
        if features.get(name)
    ]
    if cpu:
        problems += [
            f"{name} is compiled in but this CPU has no {flag}"
            for name, flag in CPU_FLAG_OF.items()
            if features.get(name) and flag not in cpu
        ]
    return problems


def _fix() -> str:
    return f"rebuild it for a portable CPU set: rm {Path(sys.prefix) / '.installed'} && make setup"


def report(model: str | None, max_tokens: int = 48) -> dict:
    """The whole report (see the module docstring); a model that crashes is a line in it."""
    cpu = llama_build.cpu_flags()
    out: dict = {
        "cpu": {"model": _cpu_model(), "machine": platform.machine(), "features": [f for f in WATCHED if f in cpu]},
        "llama_cpp": {"recorded_build": llama_build.recorded()},
        "python": sys.version.split()[0],
    }
    path = resolve_model(model)  # size and SHA-256 checked (a wrong file is refused with its fix)
    out["model"] = {"file": str(path), "bytes": path.stat().st_size, "checksum": "ok"}
    try:
        probe = ModelWorker(str(path), factory=PROBE)
        info = probe.call("system_info")
        out["llama_cpp"]["system_info"] = info
        out["llama_cpp"]["cpu_backend"] = probe.call("cpu_backend")
        features = compiled_features(info)
        out["llama_cpp"]["problems"] = build_problems(features, cpu)
        started = time.perf_counter()
        first = probe.call("answer", max_tokens)
        second = probe.call("answer", max_tokens)  # the first pays for cold caches
        best = min((first, second), key=lambda r: r["prompt_ms"] + r["generation_ms"])
        out["speed"] = {
            "prompt_tokens": best["prompt_tokens"],
            "generated_tokens": best["generated_tokens"],
            "prompt_tokens_per_s": round(best["prompt_tokens"] / best["prompt_ms"] * 1000, 1)
            if best["prompt_ms"]
            else None,
            "generation_tokens_per_s": (
                round(best["generated_tokens"] / best["generation_ms"] * 1000, 1) if best["generation_ms"] else None
            ),
            "seconds_per_answer": round(best["seconds"], 2),
            "seconds_both": round(time.perf_counter() - started, 2),
        }
        probe.close()
    except Exception as exc:  # noqa: BLE001 - the report says what failed; it is what the user sends
        out["error"] = str(exc)
    return out


def smoke(model: str | None) -> str | None:
    """Encode a sentence with the default embedder, then load the model in a worker and generate
    a few tokens under the answer grammar; None when both work, else one line: what failed and
    the command that fixes it."""
    try:
        DenseEncoder(DEFAULT_EMBEDDER).encode_query("Is customer data encrypted at rest?")
    except EmbedderError as exc:
        return f"the embedder {DEFAULT_EMBEDDER} failed: {exc}"
    try:
        probe = ModelWorker(model, factory=PROBE)
        features = compiled_features(probe.call("system_info"))
        problems = build_problems(features, llama_build.cpu_flags())
        if problems:
            return f"llama.cpp's build is unsafe on this CPU: {'; '.join(problems)}. Fix: {_fix()}"
        result = probe.call("answer", SMOKE_TOKENS)
        probe.close()
    except GeneratorError as exc:
        return f"the model {model or 'default'} failed its first answer: {exc}. Fix: {_fix()}"
    if result["generated_tokens"] < 1:
        return f"the model {model or 'default'} generated nothing. Fix: {_fix()}"
    return None


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", help="a registered model name or a GGUF path (default: the default model)")
    p.add_argument(
        "--smoke", action="store_true", help="only load the model and generate a few tokens (set-up's check)"
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_doctor)


def cmd_doctor(args: argparse.Namespace) -> int:
    if args.smoke:
        problem = smoke(args.model)
        if problem:
            print(f"set-up check failed: {problem}", file=sys.stderr)
            return 1
        print(
            f"set-up check: the embedder {DEFAULT_EMBEDDER} encodes; "
            f"the model {args.model or 'default'} loads and answers under the grammar"
        )
        return 0
    result = report(args.model)
    if args.json:
        print(json.dumps(result))
    else:
        _print(result)
    return 1 if result.get("error") or result.get("llama_cpp", {}).get("problems") else 0


def _print(result: dict) -> None:
    cpu, llama = result["cpu"], result["llama_cpp"]
    print(f"CPU: {cpu['model']} ({cpu['machine']}); {' '.join(cpu['features']) or 'no x86 features read'}")
    build = llama.get("recorded_build")
    print(
        "llama.cpp build: "
        + (
            f"{build['cpu']} set, llama-cpp-python {build['version']}, CMAKE_ARGS {build['cmake_args']}"
            if build
            else "not recorded by set-up (built elsewhere: its flags are unknown)"
        )
    )
    if build and build.get("variants"):
        print(f"llama.cpp CPU variants built: {', '.join(build['variants'])}")
    if llama.get("cpu_backend"):
        tag = llama["cpu_backend"].removeprefix("libggml-cpu-").removesuffix(".so")
        isa = llama_build.CPU_VARIANTS.get(tag, (None, None))[1]
        print(f"llama.cpp CPU backend loaded: {llama['cpu_backend']}" + (f" ({isa})" if isa else ""))
    if "system_info" in llama:
        print(f"llama.cpp system info: {llama['system_info']}")
    for problem in llama.get("problems", ()):
        print(f"problem: {problem}. Fix: {_fix()}")
    model = result["model"]
    print(f"model: {model['file']} ({model['bytes']:,} bytes, checksum {model['checksum']})")
    if "speed" in result:
        s = result["speed"]
        print(
            f"speed: prompt {s['prompt_tokens_per_s']} tokens/s ({s['prompt_tokens']} tokens), generation "
            f"{s['generation_tokens_per_s']} tokens/s ({s['generated_tokens']} tokens), {s['seconds_per_answer']} s an answer"
        )
    if "error" in result:
        print(f"error: {result['error']}")
