"""engine/llama_build.py's ``variants`` set: which of ggml's CPU variants a CPU loads (read from
real /proc/cpuinfo flag lists), that none of them enables AMX, and the check of a built wheel
(real zip files written here: exactly the variants, beside libggml, nothing else)."""

from __future__ import annotations

import zipfile

import pytest

from engine import llama_build
from engine.cli import doctor

# Whole "flags" lines of /proc/cpuinfo, as Linux prints them (the kernel's x86 cpufeatures names:
# "avx512vbmi" without an underscore beside "avx512_vbmi2", "avx512_vnni", "avx512_bf16").
ZEN4 = (  # recorded on this project's AMD EPYC (Zen 4, family 25 model 17; 2026-11-28)
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx "
    "mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology nonstop_tsc cpuid extd_apicid "
    "tsc_known_freq pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave "
    "avx f16c rdrand hypervisor lahf_lm cmp_legacy cr8_legacy abm sse4a misalignsse 3dnowprefetch osvw topoext "
    "vmmcall fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid avx512f avx512dq rdseed adx smap avx512ifma "
    "clflushopt clwb avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves avx512_bf16 clzero xsaveerptr "
    "arat avx512vbmi umip avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq rdpid fsrm"
)
ZEN3 = (  # an AMD EPYC Zen 3 line (AVX2, no AVX-512), in the kernel's names
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx "
    "mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology nonstop_tsc cpuid extd_apicid "
    "tsc_known_freq pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt aes xsave avx f16c rdrand "
    "hypervisor lahf_lm cmp_legacy cr8_legacy abm sse4a misalignsse 3dnowprefetch osvw topoext invpcid_single ssbd "
    "ibrs ibpb stibp vmmcall fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid rdseed adx smap clflushopt clwb "
    "sha_ni xsaveopt xsavec xgetbv1 xsaves clzero xsaveerptr wbnoinvd arat npt nrip_save umip pku ospke vaes "
    "vpclmulqdq rdpid fsrm"
)
SAPPHIRE_RAPIDS = (  # an Intel Xeon 4th generation line (AMX), in the kernel's names
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx fxsr sse sse2 ss ht "
    "tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc art arch_perfmon pebs bts rep_good nopl xtopology nonstop_tsc "
    "cpuid aperfmperf tsc_known_freq pni pclmulqdq dtes64 monitor ds_cpl vmx smx est tm2 ssse3 sdbg fma cx16 xtpr "
    "pdcm pcid dca sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand lahf_lm abm "
    "3dnowprefetch cpuid_fault epb cat_l3 cat_l2 cdp_l3 invpcid_single intel_ppin cdp_l2 ssbd mba ibrs ibpb stibp "
    "ibrs_enhanced fsgsbase tsc_adjust bmi1 hle avx2 smep bmi2 erms invpcid rtm cqm rdt_a avx512f avx512dq rdseed "
    "adx smap avx512ifma clflushopt clwb intel_pt avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves "
    "cqm_llc cqm_occup_llc cqm_mbm_total cqm_mbm_local split_lock_detect avx_vnni avx512_bf16 wbnoinvd dtherm ida "
    "arat pln pts hfi avx512vbmi umip pku ospke waitpkg avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg "
    "tme avx512_vpopcntdq la57 rdpid bus_lock_detect cldemote movdiri movdir64b enqcmd fsrm md_clear serialize "
    "tsxldtrk pconfig arch_lbr ibt amx_bf16 avx512_fp16 amx_tile amx_int8 flush_l1d arch_capabilities"
)
ICE_LAKE = (  # an Intel Xeon 3rd generation (Ice Lake-SP) line, in the kernel's names
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ss ht syscall "
    "nx pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology nonstop_tsc cpuid tsc_known_freq pni pclmulqdq ssse3 "
    "fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand hypervisor lahf_lm "
    "abm 3dnowprefetch invpcid_single ssbd ibrs ibpb stibp ibrs_enhanced fsgsbase tsc_adjust bmi1 avx2 smep bmi2 "
    "erms invpcid avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl "
    "xsaveopt xsavec xgetbv1 xsaves wbnoinvd arat avx512vbmi umip pku ospke avx512_vbmi2 gfni vaes vpclmulqdq "
    "avx512_vnni avx512_bitalg avx512_vpopcntdq la57 rdpid fsrm md_clear arch_capabilities"
)
CASCADE_LAKE = (  # an Intel Xeon 2nd generation line, in the kernel's names
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ss ht syscall "
    "nx pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology nonstop_tsc cpuid tsc_known_freq pni pclmulqdq ssse3 "
    "fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand hypervisor lahf_lm "
    "abm 3dnowprefetch invpcid_single pti ssbd ibrs ibpb stibp fsgsbase tsc_adjust bmi1 hle avx2 smep bmi2 erms "
    "invpcid rtm mpx avx512f avx512dq rdseed adx smap clflushopt clwb avx512cd avx512bw avx512vl xsaveopt xsavec "
    "xgetbv1 xsaves arat pku ospke avx512_vnni md_clear arch_capabilities"
)
NEHALEM = (  # x86-64-v2 only
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx fxsr sse sse2 ss ht "
    "tm pbe syscall nx rdtscp lm constant_tsc arch_perfmon pebs bts rep_good nopl xtopology nonstop_tsc cpuid "
    "aperfmperf pni dtes64 monitor ds_cpl vmx est tm2 ssse3 cx16 xtpr pdcm sse4_1 sse4_2 popcnt lahf_lm"
)
CPUS = {
    "Nehalem (x86-64-v2)": (NEHALEM, "sse42"),
    "AMD EPYC Zen 3 (AVX2, no AVX-512)": (ZEN3, "haswell"),
    "Cascade Lake": (CASCADE_LAKE, "skylakex"),
    "Ice Lake": (ICE_LAKE, "icelake"),
    "Zen 4": (ZEN4, "zen4"),
    "Sapphire Rapids (AMX)": (SAPPHIRE_RAPIDS, "zen4"),
}
# every flag name the builds, the variants and doctor's check look for, and a real line that has it
NAMED_FLAGS = sorted(
    {f for _, needs in llama_build.CPU_SETS.values() for f in needs}
    | {f for _, _, needs in llama_build.CPU_VARIANTS.values() for f in needs}
    | set(doctor.CPU_FLAG_OF.values())
    | set(doctor.WATCHED)
)


@pytest.mark.parametrize("flag", NAMED_FLAGS)
def test_each_flag_the_code_names_is_one_linux_prints(flag):
    """A name /proc/cpuinfo never prints ("avx512_vbmi") refuses every CPU that has the feature:
    each name must appear in a real line of a CPU that has it (the AVX-512 ones: Zen 4's, recorded)."""
    lines = [ZEN4, ZEN3, SAPPHIRE_RAPIDS, ICE_LAKE]
    assert any(flag in line.split() for line in lines), f"no CPU's /proc/cpuinfo prints {flag!r}"


def test_the_avx512_set_fits_a_zen_4_and_doctor_finds_nothing_wrong_with_it():
    zen4 = set(ZEN4.split())
    assert llama_build.missing_features("avx512", zen4) == []
    assert llama_build.missing_features(llama_build.VARIANTS, zen4) == []
    assert llama_build.missing_features("avx2", set(ZEN3.split())) == []
    assert llama_build.missing_features("avx512", set(ZEN3.split())) == [
        "avx512f", "avx512bw", "avx512vl", "avx512vbmi", "avx512_vnni", "avx512_bf16"
    ]  # fmt: skip
    compiled = {name: True for name in doctor.CPU_FLAG_OF if name != "AVX_VNNI"}  # a zen4 variant's set
    assert doctor.build_problems(compiled, zen4) == []
    assert doctor.build_problems({"AVX512_VBMI": True}, set(ZEN3.split())) == [
        "AVX512_VBMI is compiled in but this CPU has no avx512vbmi"
    ]


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
    # `make llama-server` with the default set (variants) builds the best one set the CPU has
    assert llama_build.one_set(llama_build.VARIANTS, set(ZEN4.split())) == "avx512"
    assert llama_build.one_set(llama_build.VARIANTS, set(ZEN3.split())) == "avx2"
    assert llama_build.one_set(llama_build.VARIANTS, set(SAPPHIRE_RAPIDS.split())) == "avx512"
    assert llama_build.one_set("avx2", set(ZEN4.split())) == "avx2"
