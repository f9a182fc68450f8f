"""engine/llama_build.py's ``variants`` set: which of ggml's CPU variants a CPU loads (read from
real /proc/cpuinfo flag lists), that none of them enables AMX, and the check of a built wheel
(real zip files written here: exactly the variants, beside libggml, nothing else)."""

from __future__ import annotations

import zipfile

import pytest

from engine import llama_build

V3 = "sse sse2 ssse3 sse4_1 sse4_2 popcnt avx f16c fma bmi1 bmi2 avx2"
SKX = V3 + " avx512f avx512dq avx512cd avx512bw avx512vl"
CPUS = {
    # the flags that matter of each CPU's /proc/cpuinfo
    "Nehalem (x86-64-v2)": ("sse sse2 ssse3 sse4_1 sse4_2 popcnt", "sse42"),
    "this machine's AMD EPYC (Zen 3, no AVX-512)": (V3 + " sha_ni vaes vpclmulqdq", "haswell"),
    "Cascade Lake": (SKX + " avx512_vnni", "skylakex"),
    "Ice Lake": (SKX + " avx512ifma avx512_vbmi avx512_vbmi2 avx512_vnni avx512_bitalg", "icelake"),
    "Zen 4": (SKX + " avx512ifma avx512_vbmi avx512_vnni avx512_bf16", "zen4"),
    "Sapphire Rapids (AMX)": (
        SKX + " avx512_vbmi avx512_vnni avx512_bf16 avx_vnni avx512_fp16 amx_bf16 amx_tile amx_int8",
        "zen4",
    ),
}


@pytest.mark.parametrize("cpu", sorted(CPUS))
def test_each_cpu_loads_the_best_variant_it_supports_and_an_amx_cpu_loads_the_one_without_amx(cpu):
    flags, expected = CPUS[cpu]
    assert llama_build.best_variant(set(flags.split())) == expected


def test_no_variant_enables_amx_and_the_set_is_refused_only_below_x86_64_v2():
    assert list(llama_build.CPU_VARIANTS)[:2] == ["sse42", "haswell"]
    assert {"skylakex", "zen4"} <= set(llama_build.CPU_VARIANTS)  # the AVX-512 ones
    lines = llama_build.variant_cmake().splitlines()
    assert len(lines) == len(llama_build.CPU_VARIANTS) and "AMX" not in llama_build.variant_cmake()
    assert all(line.strip().startswith("ggml_add_cpu_backend_variant(") for line in lines)
    args = llama_build.cmake_args(llama_build.VARIANTS)
    assert "-DGGML_NATIVE=OFF" in args and "-DGGML_BACKEND_DL=ON" in args
    assert llama_build.best_variant({"sse", "sse2"}) is None
    assert llama_build.missing_features(llama_build.VARIANTS, {"sse", "sse2"}) == ["sse4_2"]
    assert llama_build.wheel_dir(llama_build.VARIANTS) != llama_build.wheel_dir("avx2")


def _wheel(tmp_path, names: list[str]):
    path = tmp_path / "llama_cpp_python-0.3.36-py3-none-linux_x86_64.whl"
    with zipfile.ZipFile(path, "w") as z:
        for name in ["llama_cpp/lib/libllama.so", "llama_cpp/lib/libggml.so", *names]:
            z.writestr(name, b"\x7fELF")
    return path


def test_a_wheel_with_exactly_the_variants_beside_libggml_passes(tmp_path):
    names = [f"llama_cpp/lib/libggml-cpu-{tag}.so" for tag in llama_build.CPU_VARIANTS]
    assert llama_build.check_variants(_wheel(tmp_path, names)) == sorted(llama_build.CPU_VARIANTS)


@pytest.mark.parametrize(
    "extra",
    [
        "llama_cpp/lib/libggml-cpu-sapphirerapids.so",  # ggml's own list: AMX
        "bin/libggml-cpu-sapphirerapids.so",  # anywhere in the wheel
        "llama_cpp/lib/libggml-cpu.so",  # a single-set build mixed in
    ],
)
def test_a_wheel_with_any_other_cpu_backend_is_refused(tmp_path, extra):
    names = [f"llama_cpp/lib/libggml-cpu-{tag}.so" for tag in llama_build.CPU_VARIANTS] + [extra]
    with pytest.raises(SystemExit, match="not .*in llama_cpp/lib"):
        llama_build.check_variants(_wheel(tmp_path, names))


def test_a_wheel_whose_variants_are_not_beside_libggml_is_refused(tmp_path):
    names = [f"bin/libggml-cpu-{tag}.so" for tag in llama_build.CPU_VARIANTS]
    with pytest.raises(SystemExit, match="llama_cpp/lib"):
        llama_build.check_variants(_wheel(tmp_path, names))


def test_the_loaded_cpu_backend_is_read_from_the_process_memory_map(tmp_path):
    maps = tmp_path / "maps"
    lib = "/x/site-packages/llama_cpp/lib"
    maps.write_text(
        f"7f00-7f01 r--p 00000000 00:2b 11 {lib}/libggml-base.so.0.25.3\n"
        f"7f02-7f03 r-xp 00010000 00:2b 12 {lib}/libggml-cpu-haswell.so\n"
        "7f04-7f05 rw-p 00000000 00:00 0 [heap]\n"
    )
    assert llama_build.loaded_cpu_backend(maps) == "libggml-cpu-haswell.so"
    maps.write_text(f"7f00-7f01 r--p 00000000 00:2b 11 {lib}/libggml-cpu.so.0.25.3\n")
    assert llama_build.loaded_cpu_backend(maps) == "libggml-cpu.so.0.25.3"
    maps.write_text("7f04-7f05 rw-p 00000000 00:00 0 [heap]\n")
    assert llama_build.loaded_cpu_backend(maps) is None


def test_the_team_server_is_built_for_one_stated_set_without_native_amx_or_downloads():
    """``make llama-server`` (engine/llama_build.py ``build_server``): one stated instruction set,
    keyed apart from the wheels, static, no web UI download; never the run-time variants."""
    for cpu in ("avx2", "avx512"):
        flags = llama_build.cmake_args(cpu).split()
        assert "-DGGML_NATIVE=OFF" in flags and "-DGGML_AMX_TILE=OFF" in flags
        assert llama_build.server_dir(cpu) != llama_build.wheel_dir(cpu)
    assert llama_build.server_dir("avx2") != llama_build.server_dir("avx512")
    assert {"-DBUILD_SHARED_LIBS=OFF", "-DLLAMA_USE_PREBUILT_UI=OFF"} <= set(llama_build.SERVER_CMAKE)
    with pytest.raises(SystemExit, match="Fix: make llama-server LLAMA_CPU=avx2"):
        llama_build.build_server(llama_build.VARIANTS)
