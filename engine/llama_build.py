"""How llama.cpp is compiled here: the one place that names its CPU instruction set.

llama-cpp-python has no portable wheel on PyPI, so set-up builds it from source. llama.cpp's
default is ``-march=native``: the library then uses whatever the CPU of the set-up machine has,
AMX included, and on a Sapphire-Rapids-class CPU its AMX path segfaults on the first token with
Q4_K_M weights (ggml-org/llama.cpp#20824). So the build names its instruction set:
``GGML_NATIVE=OFF``, never AMX, and one of the sets below (``DEFAULT_CPU``, chosen by
``bench llama-cpu``; docs/models.md).

``python -m engine.llama_build [--cpu NAME]`` (run by ``make setup``) builds the wheel once per
flag set into ``~/.cache/rfp-review/`` (pip's own wheel cache is keyed by the source, not by the
flags, so it could hand back a native build), installs it over whatever llama-cpp-python the
environment had, and records the flags in ``<venv>/llama-build.json`` (``engine doctor`` prints
them). Standard library only: it runs before the other packages are installed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

VERSION = "0.3.36"
PACKAGE = f"llama-cpp-python=={VERSION}"

_NEVER = (
    "-DGGML_NATIVE=OFF",
    "-DGGML_AMX_TILE=OFF",
    "-DGGML_AMX_INT8=OFF",
    "-DGGML_AMX_BF16=OFF",
    "-DGGML_AVX_VNNI=OFF",
    "-DGGML_CPU_ALL_VARIANTS=OFF",
    "-DGGML_BACKEND_DL=OFF",
)
_AVX2 = ("-DGGML_SSE42=ON", "-DGGML_AVX=ON", "-DGGML_AVX2=ON", "-DGGML_BMI2=ON", "-DGGML_FMA=ON", "-DGGML_F16C=ON")
_NO_AVX512 = ("-DGGML_AVX512=OFF", "-DGGML_AVX512_VBMI=OFF", "-DGGML_AVX512_VNNI=OFF", "-DGGML_AVX512_BF16=OFF")
_AVX512 = ("-DGGML_AVX512=ON", "-DGGML_AVX512_VBMI=ON", "-DGGML_AVX512_VNNI=ON", "-DGGML_AVX512_BF16=ON")

# The instruction sets, each with the /proc/cpuinfo flags a CPU needs to run it.
CPU_SETS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # x86-64-v3: every x86-64 CPU since Haswell (2013) and Zen 1 (2017)
    "avx2": (_NEVER + _AVX2 + _NO_AVX512, ("avx", "avx2", "fma", "f16c", "bmi2")),
    # AVX-512 without AMX: Skylake-X and later Xeons, Zen 4 and later
    "avx512": (
        _NEVER + _AVX2 + _AVX512,
        (
            "avx",
            "avx2",
            "fma",
            "f16c",
            "bmi2",
            "avx512f",
            "avx512bw",
            "avx512vl",
            "avx512_vbmi",
            "avx512_vnni",
            "avx512_bf16",
        ),
    ),
}
DEFAULT_CPU = "avx2"  # portable to every x86-64-v3 machine, and as fast here (docs/models.md)


def cmake_args(cpu: str = DEFAULT_CPU) -> str:
    return " ".join(CPU_SETS[cpu][0])


def cpu_flags() -> set[str]:
    """The flags /proc/cpuinfo gives this CPU (empty where there is no such file)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def missing_features(cpu: str, flags: set[str] | None = None) -> list[str]:
    """The instructions ``cpu`` needs that this machine's CPU lacks (none where it cannot tell)."""
    flags = cpu_flags() if flags is None else flags
    return [f for f in CPU_SETS[cpu][1] if flags and f not in flags]


def wheel_dir(cpu: str) -> Path:
    key = hashlib.sha256(f"{PACKAGE} {cmake_args(cpu)}".encode()).hexdigest()[:12]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "rfp-review" / f"llama-cpp-python-{VERSION}-{cpu}-{key}"


def record_path(prefix: str | Path = sys.prefix) -> Path:
    return Path(prefix) / "llama-build.json"


def recorded(prefix: str | Path = sys.prefix) -> dict | None:
    """What set-up recorded of the installed build (None: not built by ``engine.llama_build``)."""
    try:
        return json.loads(record_path(prefix).read_text())
    except (OSError, ValueError):
        return None


def build_wheel(cpu: str, python: str = sys.executable) -> Path:
    """The wheel for ``cpu``: from the cache, or built from source (≈ 6 min on 2 cores)."""
    target = wheel_dir(cpu)
    found = sorted(target.glob("llama_cpp_python-*.whl")) if target.is_dir() else []
    if found:
        print(
            f"llama-cpp-python {VERSION} ({cpu}): using the wheel built before, {found[-1]}",
            file=sys.stderr,
            flush=True,
        )
        return found[-1]
    print(
        f"llama-cpp-python {VERSION}: building for {cpu} ({cmake_args(cpu)}); about 6 minutes on 2 cores",
        file=sys.stderr,
        flush=True,
    )
    env = {
        **os.environ,
        "CMAKE_ARGS": cmake_args(cpu),
        "FORCE_CMAKE": "1",
        "CMAKE_BUILD_PARALLEL_LEVEL": str(os.cpu_count() or 2),
    }
    with tempfile.TemporaryDirectory(prefix="llama-wheel-") as tmp:
        # --no-cache-dir: pip's wheel cache is keyed by the source only and may hold a native build
        subprocess.run(
            [
                python,
                "-m",
                "pip",
                "wheel",
                "--no-deps",
                "--no-cache-dir",
                "--no-binary",
                "llama-cpp-python",
                "-w",
                tmp,
                PACKAGE,
            ],
            env=env,
            check=True,
        )
        built = next(Path(tmp).glob("llama_cpp_python-*.whl"))
        target.mkdir(parents=True, exist_ok=True)
        partial = target / (built.name + ".partial")
        shutil.copyfile(built, partial)
        final = target / built.name
        os.replace(partial, final)  # a half-copied wheel never has the final name
    return final


def install(cpu: str, python: str = sys.executable) -> None:
    """Build (or take from the cache) and install the wheel for ``cpu`` in ``python``'s environment,
    replacing any llama-cpp-python already there (a native build of an older set-up included)."""
    missing = missing_features(cpu)
    if missing:
        raise SystemExit(
            f"set-up: this CPU lacks {', '.join(missing)}, which the {cpu!r} build of llama.cpp needs. "
            f"Fix: make setup LLAMA_CPU={DEFAULT_CPU if cpu != DEFAULT_CPU else 'avx2'}"
        )
    wheel = build_wheel(cpu, python)
    subprocess.run([python, "-m", "pip", "install", "--force-reinstall", "--no-deps", str(wheel)], check=True)
    # its own dependencies, without touching the pins of requirements.txt that come next
    subprocess.run([python, "-m", "pip", "install", str(wheel)], check=True)
    prefix = subprocess.run(
        [python, "-c", "import sys; print(sys.prefix)"], capture_output=True, text=True, check=True
    ).stdout.strip()
    record_path(prefix).write_text(
        json.dumps({"version": VERSION, "cpu": cpu, "cmake_args": cmake_args(cpu), "wheel": wheel.name}, indent=1)
        + "\n"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m engine.llama_build", description=__doc__.split("\n\n")[0])
    parser.add_argument("--cpu", choices=sorted(CPU_SETS), default=os.environ.get("LLAMA_CPU") or DEFAULT_CPU)
    parser.add_argument("--wheel-only", action="store_true", help="build (or find) the wheel and print its path")
    args = parser.parse_args(argv)
    if args.wheel_only:
        print(build_wheel(args.cpu))
    else:
        install(args.cpu)


if __name__ == "__main__":
    main()
