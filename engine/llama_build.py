"""How llama.cpp is compiled here: the one place that names its CPU instruction set.

llama-cpp-python has no portable wheel on PyPI, so set-up builds it from source. llama.cpp's
default is ``-march=native``: the library then uses whatever the CPU of the set-up machine has,
AMX included, and on a Sapphire-Rapids-class CPU its AMX path segfaults on the first token with
Q4_K_M weights (ggml-org/llama.cpp#20824). So the build names its instruction set:
``GGML_NATIVE=OFF``, never AMX, and one of the sets below (``DEFAULT_CPU``, chosen by
``bench llama-cpu``; docs/models.md).

The ``variants`` set builds ggml's CPU backend several times, once per ``CPU_VARIANTS`` entry
(``GGML_BACKEND_DL``: ``llama_cpp/lib/libggml-cpu-TAG.so`` each), and ggml loads at run time the
best one the CPU supports (its own score of each variant against CPUID). ggml's own list
(``GGML_CPU_ALL_VARIANTS``) ends with ``sapphirerapids``, which enables AMX, and takes no list, so
this build patches the llama-cpp-python sdist (its SHA-256 checked) in two stated places before
compiling: the x86 list of ``ggml/src/CMakeLists.txt`` becomes ``CPU_VARIANTS``, and
``llama_cpp/llama_cpp.py`` loads the variants from its own ``lib`` folder right after loading
``libllama`` (llama.cpp would otherwise search the Python executable's folder and the working
directory, find none, and load no CPU backend at all). The built wheel must hold exactly those
variants (checked).

``python -m engine.llama_build [--cpu NAME]`` (run by ``make setup``) builds the wheel once per
flag set into ``~/.cache/rfp-review/`` (pip's own wheel cache is keyed by the source, not by the
flags, so it could hand back a native build), installs it over whatever llama-cpp-python the
environment had, and records the flags (and the variants built) in ``<venv>/llama-build.json``
(``engine doctor`` prints them, and the variant the running process loaded). Standard library
only: it runs before the other packages are installed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

from engine.core.config import cache_home

VERSION = "0.3.36"
PACKAGE = f"llama-cpp-python=={VERSION}"
SDIST_SHA256 = "832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e"  # the one the variants patch

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
            "avx512vbmi",
            "avx512_vnni",
            "avx512_bf16",
        ),
    ),
    # ggml's CPU variants below, the best one the CPU supports loaded at run time; never AMX
    "variants": (
        (
            "-DGGML_NATIVE=OFF",
            "-DGGML_BACKEND_DL=ON",
            "-DGGML_CPU_ALL_VARIANTS=ON",
            "-DCMAKE_INSTALL_BINDIR=llama_cpp/lib",  # where ggml installs the variants: beside libggml
            "-DGGML_AMX_TILE=OFF",
            "-DGGML_AMX_INT8=OFF",
            "-DGGML_AMX_BF16=OFF",
        ),
        ("sse4_2",),
    ),
}
VARIANTS = "variants"

_V3 = ("SSE42", "AVX", "F16C", "FMA", "AVX2", "BMI2")
_V4 = _V3 + ("AVX512",)
# The variants of the "variants" set: ggml's tag → (ggml's feature switches, the portable
# instruction set it needs, the /proc/cpuinfo flags ggml's own run-time check asks for). None
# enables AMX; a CPU with AMX (Sapphire Rapids) loads zen4, the AVX-512 set without it.
CPU_VARIANTS: dict[str, tuple[tuple[str, ...], str, tuple[str, ...]]] = {
    "sse42": (("SSE42",), "x86-64-v2: SSE4.2 (every x86-64 CPU since 2009)", ("sse4_2",)),
    "haswell": (
        _V3,
        "x86-64-v3: AVX2, FMA, F16C, BMI2 (Intel since Haswell, AMD since Zen 1)",
        ("avx", "avx2", "fma", "f16c", "bmi2"),
    ),
    "skylakex": (
        _V4,
        "x86-64-v4: AVX-512 F/CD/VL/DQ/BW (Skylake-SP, Cascade Lake)",
        ("avx512f", "avx512cd", "avx512vl", "avx512dq", "avx512bw"),
    ),
    "icelake": (
        _V4 + ("AVX512_VBMI", "AVX512_VNNI"),
        "x86-64-v4 + AVX-512 VBMI, VNNI (Ice Lake)",
        ("avx512vbmi", "avx512_vnni"),
    ),
    "zen4": (
        _V4 + ("AVX512_VBMI", "AVX512_VNNI", "AVX512_BF16"),
        "x86-64-v4 + VBMI, VNNI, BF16 (Zen 4, Sapphire Rapids without AMX)",
        ("avx512_bf16",),
    ),
}  # each variant's cpuinfo flags add to those of the variants above it

# The two patches of the "variants" build (module docstring): ggml's x86 list, and the loader.
_GGML_X86_LIST = re.compile(
    r'(    if \(GGML_SYSTEM_ARCH STREQUAL "x86"\)\n)(        ggml_add_cpu_backend_variant\(x64\)\n.*?)(    elseif ?\(GGML_SYSTEM_ARCH STREQUAL "ARM"\))',
    re.S,
)
_LOADER_AFTER = "_lib = load_shared_library(_lib_base_name, _base_path)\n"
_LOADER = (
    "# rfp-review (engine/llama_build.py): ggml's CPU variants (GGML_BACKEND_DL) lie beside libllama; load the\n"
    "# best one this CPU supports from here (llama.cpp would search the executable's folder and the cwd).\n"
    "# Through _lib: the libggml libllama loaded (a CDLL of libggml.so would map a second copy of it)\n"
    "_lib.ggml_backend_load_all_from_path.argtypes = [ctypes.c_char_p]\n"
    "_lib.ggml_backend_load_all_from_path.restype = None\n"
    "_lib.ggml_backend_load_all_from_path(str(_base_path).encode())\n"
)
# the default: ggml's variants, the best one the CPU supports loaded at run time (never AMX). On a
# Zen 4 the zen4 variant doubles the prompt's tokens/s against avx2 (docs/models.md);
# on an AVX2-only CPU it loads haswell, the avx2 set. LLAMA_CPU=avx2 builds the one fixed set.
DEFAULT_CPU = VARIANTS


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


def variant_cmake() -> str:
    """ggml's x86 variant list for the ``variants`` build: one call per ``CPU_VARIANTS`` entry."""
    return "".join(
        f"        ggml_add_cpu_backend_variant({tag} {' '.join(feats)})\n"
        for tag, (feats, _, _) in CPU_VARIANTS.items()
    )


def variant_flags(tag: str) -> tuple[str, ...]:
    """The /proc/cpuinfo flags the ``tag`` variant needs (its own and those of the variants above it)."""
    tags = list(CPU_VARIANTS)
    return tuple(f for t in tags[: tags.index(tag) + 1] for f in CPU_VARIANTS[t][2])


def best_variant(flags: set[str] | None = None) -> str | None:
    """The variant ggml loads on this CPU: the last of ``CPU_VARIANTS`` whose flags it has (None: none)."""
    flags = cpu_flags() if flags is None else flags
    fits = [tag for tag in CPU_VARIANTS if all(f in flags for f in variant_flags(tag))]
    return fits[-1] if fits else None


def loaded_cpu_backend(maps: Path = Path("/proc/self/maps")) -> str | None:
    """The file name of the llama.cpp CPU backend this process has loaded (``libggml-cpu-haswell.so``,
    or ``libggml-cpu.so`` for a single-set build); None before llama_cpp is imported."""
    try:
        found = re.findall(r"/(libggml-cpu[^/\s]*\.so[.0-9]*)$", maps.read_text(), re.M)
    except OSError:
        return None
    return found[0] if found else None


def wheel_dir(cpu: str) -> Path:
    source = f"{PACKAGE} {cmake_args(cpu)}"
    if cpu == VARIANTS:  # the patches are part of what is built
        source += f" {SDIST_SHA256} {variant_cmake()} {_LOADER}"
    key = hashlib.sha256(source.encode()).hexdigest()[:12]
    return cache_home() / f"llama-cpp-python-{VERSION}-{cpu}-{key}"


def record_path(prefix: str | Path = sys.prefix) -> Path:
    return Path(prefix) / "llama-build.json"


def recorded(prefix: str | Path = sys.prefix) -> dict | None:
    """What set-up recorded of the installed build (None: not built by ``engine.llama_build``)."""
    try:
        return json.loads(record_path(prefix).read_text())
    except (OSError, ValueError):
        return None


def _refuse_missing(cpu: str, fix: str) -> None:
    """Stop, with ``fix``, where this CPU lacks instructions the ``cpu`` build needs."""
    missing = missing_features(cpu)
    if missing:
        raise SystemExit(
            f"set-up: this CPU lacks {', '.join(missing)}, which the {cpu!r} build of llama.cpp needs. Fix: {fix}"
        )


def _prefix(python: str) -> Path:
    """``python``'s environment (its ``sys.prefix``)."""
    out = subprocess.run([python, "-c", "import sys; print(sys.prefix)"], capture_output=True, text=True, check=True)
    return Path(out.stdout.strip())


def _copy_into_place(src: Path, dest: Path, mode: int | None = None) -> Path:
    """``src`` copied to ``dest`` under a temporary name, then renamed: a half-copied file never
    has the final name."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".partial")
    shutil.copyfile(src, partial)
    if mode is not None:
        partial.chmod(mode)
    os.replace(partial, dest)
    return dest


def build_wheel(cpu: str, python: str = sys.executable) -> Path:
    """The wheel for ``cpu``: from the cache, or built from source (≈ 6 min on 2 cores; ``variants``
    ≈ 11: 22 CPU-minutes, its CPU backend compiled five times)."""
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
        f"llama-cpp-python {VERSION}: building for {cpu} ({cmake_args(cpu)}); "
        f"about {11 if cpu == VARIANTS else 6} minutes on 2 cores",
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
        source = str(patched_source(Path(tmp), python)) if cpu == VARIANTS else PACKAGE
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
                source,
            ],
            env=env,
            check=True,
        )
        built = next(Path(tmp).glob("llama_cpp_python-*.whl"))
        if cpu == VARIANTS:
            check_variants(built)
        return _copy_into_place(built, target / built.name)


def unpacked_source(tmp: Path, python: str = sys.executable, fix: str = "make setup LLAMA_CPU=avx2") -> Path:
    """The llama-cpp-python sdist (pip download), checked by its SHA-256 and unpacked under ``tmp``;
    its root folder. Raises (with ``fix``) where the download is not the source this file knows."""
    subprocess.run(
        [python, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "-d", str(tmp / "sdist"), PACKAGE],
        check=True,
    )
    sdist = next((tmp / "sdist").glob("llama_cpp_python-*.tar.gz"))
    digest = hashlib.sha256(sdist.read_bytes()).hexdigest()
    if digest != SDIST_SHA256:
        raise SystemExit(f"set-up: {sdist} has SHA-256 {digest}, not {SDIST_SHA256}. Fix: {fix}")
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp / "src", filter="data")
    return next((tmp / "src").iterdir())


def patched_source(tmp: Path, python: str = sys.executable) -> Path:
    """The llama-cpp-python sdist, checked and unpacked under ``tmp`` and patched for the
    ``variants`` build (module docstring); raises where the source is not the one the patches fit."""
    root = unpacked_source(tmp, python)
    cmake = root / "vendor" / "llama.cpp" / "ggml" / "src" / "CMakeLists.txt"
    text, n = _GGML_X86_LIST.subn(lambda m: m[1] + variant_cmake() + m[3], cmake.read_text())
    loader = root / "llama_cpp" / "llama_cpp.py"
    code = loader.read_text()
    if n != 1 or code.count(_LOADER_AFTER) != 1:
        raise SystemExit(
            f"set-up: {root.name} no longer has the lines the variants build patches. Fix: make setup LLAMA_CPU=avx2"
        )
    cmake.write_text(text)
    loader.write_text(code.replace(_LOADER_AFTER, _LOADER_AFTER + _LOADER))
    return root


# llama.cpp's own HTTP server, for a team (docs/models.md): static, so the one file can be copied;
# no web UI download and no OpenSSL (plain HTTP on the team's network, as the app's own server)
SERVER_CMAKE = (
    "-DBUILD_SHARED_LIBS=OFF",
    "-DLLAMA_BUILD_SERVER=ON",
    "-DLLAMA_BUILD_TOOLS=ON",
    "-DLLAMA_BUILD_TESTS=OFF",
    "-DLLAMA_BUILD_EXAMPLES=OFF",
    "-DLLAMA_BUILD_UI=OFF",
    "-DLLAMA_USE_PREBUILT_UI=OFF",
    "-DLLAMA_OPENSSL=OFF",
    "-DLLAMA_CURL=OFF",
)


def server_dir(cpu: str) -> Path:
    key = hashlib.sha256(f"llama-server {SDIST_SHA256} {cmake_args(cpu)} {' '.join(SERVER_CMAKE)}".encode())
    return wheel_dir(cpu).parent / f"llama-server-{VERSION}-{cpu}-{key.hexdigest()[:12]}"


def build_server(cpu: str, python: str = sys.executable) -> Path:
    """llama.cpp's ``llama-server``, from the sdist the Python binding is built from (its vendored
    llama.cpp) and with the same instruction set: from the cache, or built (≈ 10 min on 2 cores)."""
    if cpu == VARIANTS:
        raise SystemExit(
            "set-up: llama-server is built for one instruction set, not the variants. "
            "Fix: make llama-server LLAMA_CPU=avx2 (or avx512)"
        )
    target = server_dir(cpu) / "llama-server"
    if target.is_file():
        print(f"llama-server ({cpu}): using the one built before, {target}", file=sys.stderr, flush=True)
        return target
    print(
        f"llama-server {VERSION}: building for {cpu} ({cmake_args(cpu)}); about 10 minutes on 2 cores",
        file=sys.stderr,
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="llama-server-") as tmp:
        src = unpacked_source(Path(tmp), python, fix="make llama-server LLAMA_CPU=avx2") / "vendor" / "llama.cpp"
        build = Path(tmp) / "build"
        flags = [*cmake_args(cpu).split(), *SERVER_CMAKE]
        subprocess.run(["cmake", "-S", str(src), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release", *flags], check=True)
        jobs = str(os.cpu_count() or 2)
        subprocess.run(["cmake", "--build", str(build), "--target", "llama-server", "-j", jobs], check=True)
        return _copy_into_place(build / "bin" / "llama-server", target, 0o755)


def one_set(cpu: str, flags: set[str] | None = None) -> str:
    """The one stated set ``llama-server`` is built for when ``cpu`` is the run-time ``variants``
    (the default): ``avx512`` where this CPU has every instruction of it, else ``avx2``."""
    if cpu != VARIANTS:
        return cpu
    return "avx512" if not missing_features("avx512", cpu_flags() if flags is None else flags) else "avx2"


def install_server(cpu: str, python: str = sys.executable) -> Path:
    """``llama-server`` for ``cpu`` in ``python``'s environment (``<venv>/bin/llama-server``), proved
    by running it (``--version``), with what it was built from in ``<venv>/llama-server.json``.
    The server is one static binary, built for one stated set: for ``variants``, :func:`one_set`."""
    if cpu == VARIANTS:
        cpu = one_set(cpu)
        print(f"llama-server is built for one instruction set: {cpu}, the best this CPU has", file=sys.stderr)
    _refuse_missing(cpu, "make llama-server LLAMA_CPU=avx2")
    built = build_server(cpu, python)
    prefix = _prefix(python)
    dest = _copy_into_place(built, prefix / "bin" / "llama-server", 0o755)
    version = subprocess.run([str(dest), "--version"], capture_output=True, text=True, timeout=60)
    if version.returncode != 0:
        raise SystemExit(f"set-up: {dest} does not run ({version.stderr.strip()[-300:]}). Fix: make llama-server")
    record = {"version": VERSION, "cpu": cpu, "cmake_args": cmake_args(cpu), "server_cmake": list(SERVER_CMAKE)}
    (prefix / "llama-server.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"llama-server: {dest} ({(version.stdout + version.stderr).strip().splitlines()[0]})", file=sys.stderr)
    return dest


def check_variants(wheel: Path) -> list[str]:
    """The CPU variants in ``wheel``; raises unless they are exactly ``CPU_VARIANTS`` beside libggml."""
    names = zipfile.ZipFile(wheel).namelist()
    anywhere = {n.rsplit("/", 1)[-1] for n in names if re.search(r"(^|/)libggml-cpu[^/]*\.so", n)}
    in_lib = sorted(n.rsplit("/", 1)[-1] for n in names if re.fullmatch(r"llama_cpp/lib/libggml-cpu[^/]*\.so", n))
    wanted = sorted(f"libggml-cpu-{tag}.so" for tag in CPU_VARIANTS)
    if in_lib != wanted or not anywhere <= set(wanted):
        raise SystemExit(
            f"set-up: the variants wheel holds {sorted(anywhere) or 'no CPU backend'}, not {wanted} in llama_cpp/lib"
        )
    return [name.removeprefix("libggml-cpu-").removesuffix(".so") for name in in_lib]


def install(cpu: str, python: str = sys.executable) -> None:
    """Build (or take from the cache) and install the wheel for ``cpu`` in ``python``'s environment,
    replacing any llama-cpp-python already there (a native build of an older set-up included)."""
    _refuse_missing(cpu, f"make setup LLAMA_CPU={DEFAULT_CPU if cpu != DEFAULT_CPU else 'avx2'}")
    wheel = build_wheel(cpu, python)
    subprocess.run([python, "-m", "pip", "install", "--force-reinstall", "--no-deps", str(wheel)], check=True)
    # its own dependencies, without touching the pins of requirements.txt that come next
    subprocess.run([python, "-m", "pip", "install", str(wheel)], check=True)
    prefix = _prefix(python)
    record = {"version": VERSION, "cpu": cpu, "cmake_args": cmake_args(cpu), "wheel": wheel.name}
    if cpu == VARIANTS:
        built = check_variants(wheel)
        record["variants"] = {tag: isa for tag, (_, isa, _) in CPU_VARIANTS.items() if tag in built}
    record_path(prefix).write_text(json.dumps(record, indent=1) + "\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m engine.llama_build", description=__doc__.split("\n\n")[0])
    parser.add_argument("--cpu", choices=sorted(CPU_SETS), default=os.environ.get("LLAMA_CPU") or DEFAULT_CPU)
    parser.add_argument("--wheel-only", action="store_true", help="build (or find) the wheel and print its path")
    parser.add_argument(
        "--server", action="store_true", help="build (or find) llama.cpp's llama-server and put it in <venv>/bin"
    )
    args = parser.parse_args(argv)
    if args.server:
        install_server(args.cpu)
    elif args.wheel_only:
        print(build_wheel(args.cpu))
    else:
        install(args.cpu)


if __name__ == "__main__":
    main()
