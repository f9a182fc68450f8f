"""The answer schema, the prompt, the post-rules, parsing of model replies (literal JSON
strings: this is parsing, no model involved) and prompt compaction."""

import hashlib
import json
from pathlib import Path

import pytest

from engine.drafting.generate.prompt import (
    ANSWER_CHARS,
    MAX_QUOTES,
    QUOTE_CHARS,
    SENTENCES_SYSTEM_PROMPT,
    SYSTEM_PROMPT,
    AnswerPrompt,
    Evidence,
    GeneratedAnswer,
    Passage,
    answer_schema,
    approx_tokens,
    build_messages,
    choice_probability,
    compact_passages,
    parse_answer,
    steps_from_logprobs,
    tidy_answer,
)
from engine.index.chunking import Chunker
from engine.ingest import load_document

YES_NO = ["Yes", "No", "N/A"]


def reply(**fields) -> str:
    base = {"quotes": [], "answer": "", "choice": None, "insufficient_context": False}
    return json.dumps({**base, **fields})


def test_schema_fields_in_generation_order_all_required():
    schema = answer_schema(YES_NO)
    # the choice before the answer: its probability is the decision, not an echo of "Yes, …"
    assert list(schema["properties"]) == ["quotes", "choice", "answer", "insufficient_context"]
    assert schema["required"] == ["quotes", "choice", "answer", "insufficient_context"]
    assert schema["additionalProperties"] is False
    assert schema["properties"]["quotes"] == {
        "type": "array",
        "items": {"type": "string", "maxLength": QUOTE_CHARS},
        "maxItems": MAX_QUOTES,
    }
    assert schema["properties"]["answer"] == {"type": "string", "maxLength": ANSWER_CHARS}
    assert schema["properties"]["choice"] == {"enum": ["Yes", "No", "N/A", None]}


def test_schema_choice_is_null_without_allowed_values_and_deduplicated():
    assert answer_schema([])["properties"]["choice"] == {"type": "null"}
    assert answer_schema(["", "  "])["properties"]["choice"] == {"type": "null"}
    assert answer_schema([" Yes", "Yes", "No "])["properties"]["choice"] == {"enum": ["Yes", "No", None]}


def test_messages_hold_the_labelled_passages_question_and_choices():
    passages = [
        Passage("[1] Security_Overview.pdf p. 4", "Data is encrypted at rest."),
        Passage("[2] Past_Answers.xlsx Q&A row 7", "MFA: Yes"),
    ]
    system, user = build_messages("Do you encrypt data at rest?", passages, YES_NO)
    assert system == {"role": "system", "content": SYSTEM_PROMPT}
    assert "ONLY" in SYSTEM_PROMPT and "insufficient_context" in SYSTEM_PROMPT
    text = user["content"]
    assert user["role"] == "user"
    assert text.index("[1] Security_Overview.pdf p. 4\nData is encrypted at rest.") < text.index(
        "[2] Past_Answers.xlsx Q&A row 7\nMFA: Yes"
    )
    assert "Question: Do you encrypt data at rest?" in text
    assert "Allowed choices: Yes, No, N/A" in text
    assert "choice must be null" in build_messages("Describe your SDLC.", passages, [])[1]["content"]


def test_sentences_form_numbers_the_sentences_and_reads_labels_back_as_exact_quotes():
    passages = [
        Passage("[1] Security_Overview.pdf p. 4", "Data is encrypted at rest. Keys rotate yearly. … MFA is enforced."),
        Passage("[2] AWS_CAIQ.pdf p. 9 — THIRD PARTY: Amazon Web Services", "AWS encrypts its disks."),
    ]
    prompt = AnswerPrompt.build("Do you encrypt data at rest?", passages, YES_NO, Evidence.SENTENCES)
    assert prompt.sentences == (
        "Data is encrypted at rest.",
        "Keys rotate yearly.",
        "MFA is enforced.",
        "AWS encrypts its disks.",
    )
    system, user = prompt.messages
    assert system["content"] == SENTENCES_SYSTEM_PROMPT and "THIRD PARTY" in SENTENCES_SYSTEM_PROMPT
    assert (
        "[1] Security_Overview.pdf p. 4\nS1. Data is encrypted at rest.\nS2. Keys rotate yearly.\nS3. MFA is enforced."
        in user["content"]
    )
    assert "— THIRD PARTY: Amazon Web Services\nS4. AWS encrypts its disks." in user["content"]
    assert prompt.schema["properties"]["sentences"] == {
        "type": "array",
        "items": {"enum": ["S1", "S2", "S3", "S4"]},
        "maxItems": MAX_QUOTES,
    }
    assert list(prompt.schema["properties"]) == ["sentences", "choice", "answer", "insufficient_context"]
    raw = json.dumps(
        {"sentences": ["S1", "S9", "s3", 1], "choice": "Yes", "answer": "Yes, AES-256.", "insufficient_context": False}
    )
    got = prompt.parse(raw)
    assert (
        got.quotes == ("Data is encrypted at rest.", "MFA is enforced.") and got.choice == "Yes"
    )  # S9: no such sentence
    assert (
        prompt.parse(
            json.dumps({"sentences": [], "choice": "Yes", "answer": "Yes.", "insufficient_context": False})
        ).choice
        is None
    )


def test_the_pdf_heading_opening_a_sentence_is_not_numbered_with_it():
    """The span of a PDF's sentence holds the page number and heading above it (a heading has no
    end punctuation): the model saw "Third-Party Security Instructure utilizes …" as one sentence
    and wrote it so (Canvas Credentials THRD-02); numbered as a line of its own, a page header
    became the answer's subject ("the ESG Report FY2023 does not provide …", QUAL-06). The
    sentences are exact slices of the text without those lines."""
    text = (
        "6 \nThird-Party Security \nInstructure utilizes several third-party organizations to host its "
        "products for customers. The security team vets them."
    )
    prompt = AnswerPrompt.build(
        "Why do third parties have access?", [Passage("[1] p.pdf p. 6", text)], (), Evidence.SENTENCES
    )
    assert prompt.sentences == (
        "Instructure utilizes several third-party organizations to host its products for customers.",
        "The security team vets them.",
    )
    assert all(s in text for s in prompt.sentences) and "Third-Party Security" not in prompt.messages[1]["content"]


def test_quotes_form_is_the_plain_prompt():
    prompt = AnswerPrompt.build("Q?", [Passage("[1] a.pdf p. 1", "Text.")], YES_NO, Evidence.QUOTES)
    assert list(prompt.messages) == build_messages("Q?", [Passage("[1] a.pdf p. 1", "Text.")], YES_NO)
    assert prompt.schema == answer_schema(YES_NO) and prompt.sentences is None
    with pytest.raises(ValueError, match="unknown evidence form 'words'; use one of: quotes, sentences"):
        Evidence.parse("words")


def test_choice_probability_multiplies_the_steps_that_wrote_the_choice_value():
    steps = [
        (b'{"sentences": [', 1.0),
        (b'"S1"', 0.9),
        (b'], "choice": ', 1.0),
        (b' "', 0.8),
        (b"Yes", 0.75),
        (b'", "answer": "', 1.0),
        (b"Yes", 0.99),
        (b'."}', 1.0),
    ]
    assert choice_probability(steps) == pytest.approx(0.8 * 0.75)  # not the answer's "Yes", not the label's 0.9
    assert choice_probability([(b'{"choice": null', 1.0)]) == 1.0
    assert choice_probability([(b'{"choice":', 1.0), (b" null", 0.3), (b"}", 1.0)]) == pytest.approx(0.3)
    assert choice_probability([(b'{"answer": "x"}', 1.0)]) is None  # cut off before the choice
    prompt = AnswerPrompt.build("Q?", [Passage("[1] a.pdf p. 1", "Text.")], YES_NO, Evidence.QUOTES)
    raw = b"".join(p for p, _ in steps).decode().replace('"sentences": ["S1"]', '"quotes": ["Text."]')
    assert prompt.parse(raw, steps=steps).choice_probability == pytest.approx(0.6)


def test_a_servers_logprobs_give_the_probability_of_the_choice_among_the_allowed_values():
    """The logprobs llama-cpp-python's server sent for ``{ "choice": "Yes"}`` (top 6, before its
    grammar): "yes", "True", "no" are not allowed values and do not count; "Y" starts "Yes";
    the closing quote, with or without a comma, closes the same value."""
    from math import exp

    tokens = [
        (b"{", -6.49, [(b"Yes", -1.21), (b"{", -6.49)]),
        (b' "', -3.7, [(b"\n ", -0.78), (b' "', -3.7)]),
        (b"choice", -4.93, [(b"type", -2.1), (b"choice", -4.93)]),
        (b'":', -0.02, [(b'":', -0.02), (b'"', -5.76)]),
        (b' "', -0.02, [(b' "', -0.02), (b" [", -5.44), (b" ", -5.75), (b" Yes", -6.13)]),
        (
            b"Yes",
            -0.49,
            [(b"Yes", -0.49), (b"No", -1.82), (b"yes", -1.89), (b"True", -3.92), (b"no", -4.43), (b"Y", -4.79)],
        ),
        (b'"', -1.48, [(b'",', -0.32), (b'"', -1.48), (b',"', -3.43), (b'"}', -5.55)]),
        (b"}", -7.67, [(b" }", -0.02), (b"}", -7.67)]),
    ]
    steps = steps_from_logprobs(tokens, ["Yes", "No", None])
    assert b"".join(t for t, _ in steps) == b'{ "choice": "Yes"}'
    yes = (exp(-0.49) + exp(-4.79)) / (exp(-0.49) + exp(-1.82) + exp(-4.79))
    assert choice_probability(steps) == pytest.approx(yes)  # the opening quote (only " opens a value) and the close: 1
    # null against the values: the step that writes "null" is weighed against the opening quote
    tokens = [
        (b'{"choice":', -0.1, []),
        (b" null", -1.2, [(b" null", -1.2), (b' "', -0.4), (b" [", -2.0)]),
        (b"}", -0.01, []),
    ]
    assert choice_probability(steps_from_logprobs(tokens, ["Yes", "No", None])) == pytest.approx(
        exp(-1.2) / (exp(-1.2) + exp(-0.4))
    )
    assert steps_from_logprobs([(b'{"answer": "x"}', -0.1, [])], ["Yes", None]) == ((b'{"answer": "x"}', 1.0),)


def test_parse_a_supported_choice():
    raw = reply(quotes=["Data is encrypted at rest."], answer="Yes, with AES-256.", choice="Yes")
    got = parse_answer(raw, YES_NO, prompt_tokens=120, completion_tokens=30, seconds=1.5)
    assert got == GeneratedAnswer(
        ("Data is encrypted at rest.",), "Yes, with AES-256.", "Yes", False, 120, 30, 1.5, raw
    )


def test_choice_without_a_quote_is_dropped():
    got = parse_answer(reply(answer="Yes.", choice="Yes"), YES_NO)
    assert got.choice is None and got.answer == "Yes." and not got.insufficient_context


def test_choice_with_insufficient_context_is_dropped():
    got = parse_answer(
        reply(quotes=["Backups run daily."], answer="Unknown.", choice="No", insufficient_context=True), YES_NO
    )
    assert got.insufficient_context and got.choice is None


@pytest.mark.parametrize(
    "answer, choice", [("Yes", "No"), ("No.", "Yes"), ("  yes, we do.", "No"), ("NO — never.", "Yes")]
)
def test_an_answer_that_opens_with_the_opposite_of_its_choice_is_insufficient(answer, choice):
    got = parse_answer(reply(quotes=["Diagrams are provided on request."], answer=answer, choice=choice), YES_NO)
    assert got.insufficient_context and got.choice is None


@pytest.mark.parametrize(
    "answer, choice",
    [
        ("Yes.", "Yes"),
        ("No customer data leaves the EU.", "Yes"),
        ("Nothing is stored in plain text.", "No"),
        ("Yes", "N/A"),
    ],
)
def test_an_answer_that_agrees_or_is_not_a_bare_yes_no_keeps_its_choice(answer, choice):
    got = parse_answer(reply(quotes=["Diagrams are provided on request."], answer=answer, choice=choice), YES_NO)
    assert not got.insufficient_context and got.choice == choice


# what ITAC-06's reply listed (no loop: each item once), longer than the bound
ITEMS = ", ".join(
    f"{w} {i}"
    for i, w in enumerate(
        "FERPA issues, accessibility, checking features from different roles, monitoring permission issues, "
        "internationalization, XSS, SQL injection, documentation, pagination, mobile browsers, old data, sharding, "
        "API, course copy, browser dimensions, performance".split(", ")
        * 2
    )
)


def test_an_answer_the_bound_cut_keeps_its_whole_sentences_only():
    """A model's text stopped by the schema's maxLength ends mid-word (the leave-one-out's ITAC-06:
    "… to all users, disreg."): the sentence it cut goes; one cut in its first sentence leaves
    the choice without a text (#50: an empty text beats a wrong one)."""
    prompt = AnswerPrompt.build("Q?", [Passage("[1] a.pdf p. 1", "Issues are filed in Jira.")], YES_NO, Evidence.QUOTES)
    parse = lambda answer: prompt.parse(reply(quotes=["Issues are filed in Jira."], answer=answer, choice="Yes"))  # noqa: E731
    first = "Yes, accessibility issues are filed in Jira and triaged by the accessibility team. "
    cut = (first + "The company also considers " + ITEMS)[: ANSWER_CHARS - 7]
    got = parse(cut + "disreg.")
    assert got.at_bound and got.answer == first.strip() and got.choice == "Yes"
    got = parse(("Yes, the company considers " + ITEMS)[:ANSWER_CHARS])
    assert got.answer == "" and got.choice == "Yes" and not got.insufficient_context
    whole = "Yes. Issues are filed in Jira. They are triaged weekly."  # under the bound: as written
    assert parse(whole).answer == whole
    longer = " ".join(
        f"Issue class {i} ({item}) is filed in Jira and triaged weekly."
        for i, item in enumerate(ITEMS.split(", ")[:12])
    )  # a server's, whole
    assert len(longer) > ANSWER_CHARS and parse(longer).answer == longer.strip()


def test_choice_matched_case_insensitively_and_unknown_values_dropped():
    assert parse_answer(reply(quotes=["q"], answer="a", choice=" no "), YES_NO).choice == "No"
    assert parse_answer(reply(quotes=["q"], answer="a", choice="Maybe"), YES_NO).choice is None
    assert parse_answer(reply(quotes=["q"], answer="a", choice="Yes"), []).choice is None
    assert parse_answer(reply(quotes=["q"], answer="a", choice=True), YES_NO).choice is None


def test_quotes_are_stripped_strings_only():
    got = parse_answer(reply(quotes=[" Keys rotate yearly. ", "", 3, None, ["x"]], answer="a"), YES_NO)
    assert got.quotes == ("Keys rotate yearly.",)
    assert parse_answer(reply(quotes="not a list", answer="a"), YES_NO).quotes == ()


def test_an_empty_reply_is_insufficient_context():
    assert parse_answer(reply(), YES_NO).insufficient_context


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   ",
        "Sorry, I cannot help.",
        '{"quotes": ["unterminated',
        "[1, 2]",
        "null",
        '{"quotes": [] "answer"}',
        "{" * 5000,
    ],
)
def test_unparsable_replies_become_insufficient_context_and_keep_the_raw_text(raw):
    got = parse_answer(raw, YES_NO, prompt_tokens=9, completion_tokens=256, seconds=2.0)
    assert got.insufficient_context and got.choice is None and got.quotes == () and got.answer == ""
    assert (got.raw, got.prompt_tokens, got.completion_tokens, got.seconds) == (raw, 9, 256, 2.0)


def test_json_inside_a_fence_or_chatter_is_found():
    raw = "Here you go:\n```json\n" + reply(quotes=["MFA is enforced."], answer="Yes.", choice="Yes") + "\n```"
    assert parse_answer(raw, YES_NO).choice == "Yes"


def test_raw_newlines_inside_strings_are_read():
    # llama-cpp-python's JSON grammar lets a raw newline into a string (seen from llama_cpp.server)
    raw = '{"quotes": ["MFA is enforced."], "answer": "Yes.\n\nMFA is enforced.", "choice": "Yes", "insufficient_context": false}'
    got = parse_answer(raw, YES_NO)
    assert (got.choice, got.answer) == ("Yes", "Yes.\n\nMFA is enforced.")


@pytest.mark.parametrize(
    "written, shown",
    [  # the model's own words, from the Instructure leave-one-out reports
        (
            "Yes, a dedicated Information Security staff is mentioned in S1.",
            "Yes, a dedicated Information Security staff is mentioned in the cited source.",
        ),
        (
            "Yes Cloud data is periodically backed up. This is mentioned in S2 and S8 of the provided context.",
            "Yes Cloud data is periodically backed up. This is mentioned in the cited sources.",
        ),
        (
            "Yes, the policies and procedures are reviewed and updated at least annually according to the provided context.",
            "Yes, the policies and procedures are reviewed and updated at least annually.",
        ),
        (
            "Yes, the system validates input. S8 states that all user-inputted content is sanitized.",
            "Yes, the system validates input. The cited source states that all user-inputted content is sanitized.",
        ),
        (
            "Yes, data is encrypted. This is evident from S1 and S2, which state that GCP encrypts traffic.",
            "Yes, data is encrypted. This is evident from the cited sources, which state that GCP encrypts traffic.",
        ),
        ("Yes, the context provides architecture diagrams.", "Yes, the documentation provides architecture diagrams."),
        (
            "Yes, keys are rotated yearly (S1, S2), as shown in [1] and [2].",
            "Yes, keys are rotated yearly, as shown in the cited sources.",
        ),
    ],
)
def test_the_prompts_labels_and_context_are_taken_out_of_the_answer(written, shown):
    assert tidy_answer(written) == shown
    got = parse_answer(reply(quotes=["Keys rotate yearly."], answer=written, choice="Yes"), YES_NO)
    assert (got.answer, got.choice) == (shown, "Yes")


@pytest.mark.parametrize(
    "answer",
    [
        "Yes, backups are stored in S3 (Amazon Simple Storage Service (S3)) with AES256, per section S3 of RFC 7525.",
        "Yes, in the context of backups, data is encrypted.",
        "No. S3 buckets are private by default.",
    ],
)
def test_names_that_look_like_labels_stay(answer):
    assert tidy_answer(answer) == answer


DOC_A = (
    "Acme was founded in 2012. Our offices are in Lyon. "
    "All customer data is encrypted at rest with AES-256. Encryption keys are rotated every year. "
    "Staff complete security training when hired."
)
DOC_B = "Backups run every night. Backups are kept for 35 days. Restores are tested each quarter."


def test_compaction_keeps_a_window_around_the_best_sentence():
    passages = [Passage("[1] a.pdf p. 1", DOC_A), Passage("[2] b.pdf p. 2", DOC_B)]
    got = compact_passages(
        "Is customer data encrypted at rest?",
        passages,
        budget_tokens=20,
        window=1,
        count_tokens=lambda t: len(t.split()),
    )
    assert got == [
        Passage(
            "[1] a.pdf p. 1",
            "Our offices are in Lyon. All customer data is encrypted at rest with AES-256. Encryption keys are rotated every year.",
        )
    ]


def test_compaction_pieces_are_exact_source_text_and_within_budget():
    passages = [Passage("[1] a.pdf p. 1", DOC_A), Passage("[2] b.pdf p. 2", DOC_B)]
    words = lambda t: len(t.split())  # noqa: E731
    for budget in (5, 15, 30, 60, 1000):
        got = compact_passages(
            "How long are backups kept and is data encrypted?", passages, budget, window=0, count_tokens=words
        )
        assert got, budget
        sources = {p.label: p.text for p in passages}
        for p in got:
            for piece in p.text.split(" … "):
                assert piece in sources[p.label]
        total = sum(words(piece) for p in got for piece in p.text.split(" … "))
        assert total <= max(budget, 9)  # the best sentence alone is kept even over a tiny budget
    everything = compact_passages("backups data encrypted", passages, 1000, window=10, count_tokens=words)
    assert [p.text for p in everything] == [DOC_A, DOC_B]


def test_compaction_weighs_the_retrievers_order():
    first = "Backups are kept for 35 days in two regions."
    second = "Backups are kept for 35 days."  # the closer sentence, but from the lower-ranked chunk
    passages = [Passage("[1] a", "Offices are in Lyon. " + first), Passage("[2] b", second + " Offices are in Lyon.")]
    words = lambda t: len(t.split())  # noqa: E731
    flat = compact_passages("How long are backups kept?", passages, budget_tokens=9, rank_decay=0.0, count_tokens=words)
    assert flat == [Passage("[2] b", second)]
    ranked = compact_passages("How long are backups kept?", passages, budget_tokens=9, count_tokens=words)
    assert ranked == [Passage("[1] a", first)]


def test_compaction_merges_overlapping_windows_and_marks_gaps():
    text = "S0 alpha. S1 beta. S2 gamma. S3 delta. S4 epsilon. S5 zeta. S6 eta."
    got = compact_passages("alpha delta", [Passage("p", text)], budget_tokens=1000, window=0)
    assert got == [Passage("p", "S0 alpha. … S3 delta.")]
    got = compact_passages("beta delta", [Passage("p", text)], budget_tokens=1000, window=1)
    assert got == [Passage("p", "S0 alpha. S1 beta. S2 gamma. S3 delta. S4 epsilon.")]


def test_compaction_without_shared_words_keeps_the_start_of_the_first_passage():
    passages = [Passage("[1] a", DOC_A), Passage("[2] b", DOC_B)]
    got = compact_passages("zebra giraffe?", passages, budget_tokens=12, count_tokens=lambda t: len(t.split()))
    assert got == [Passage("[1] a", "Acme was founded in 2012. Our offices are in Lyon.")]
    assert compact_passages("anything", [], 100) == []


SAMPLE_KB = Path(__file__).resolve().parents[2] / "assets" / "sample" / "kb"
# sha256 of the JSON of every output below, measured when compact_passages was split into functions
# (#25); compaction shapes what the LLM sees, so a change here changes drafts and benchmark figures
SAMPLE_COMPACTION_SHA256 = "855b2672855310bbe8c981a6347832442815be6637a5622ab6d8f3762420e6a4"


def test_compaction_of_the_sample_chunks_is_unchanged():
    """Over the bundled sample's chunks (cut at 120 words), each sample question's five chunks
    sharing most words with it, under five budget / window / decay / counter settings."""
    chunker = Chunker(lambda t: t.split(), 120, 20)
    chunks = [
        s.text for f in sorted(SAMPLE_KB.iterdir()) for u in load_document(f).units for s in chunker.spans(u.text)
    ]
    assert len(chunks) > 50, f"the sample knowledge base in {SAMPLE_KB} gave only {len(chunks)} chunks"
    questions = [q for q in (SAMPLE_KB.parent / "questions.txt").read_text(encoding="utf-8").splitlines() if q.strip()]
    settings = ((250, 0, 1.0, approx_tokens), (80, 1, 0.0, None), (20, 2, 0.5, approx_tokens), (5, 0, 2.0, None))
    out = []
    for i, question in enumerate(questions + ["zebra giraffe?", "backups backups backups"]):
        q_words = set(question.lower().split())
        best = sorted(range(len(chunks)), key=lambda c: -len(q_words & set(chunks[c].lower().split())))[
            i % 3 : i % 3 + 5
        ]
        passages = [Passage(f"[{n}] chunk {c}", chunks[c]) for n, c in enumerate(best, 1)]
        for budget, window, decay, counter in settings:
            got = compact_passages(
                question,
                passages,
                budget,
                window=window,
                rank_decay=decay,
                count_tokens=counter or (lambda t: len(t.split())),
            )
            out.append([question, budget, window, decay, [[p.label, p.text] for p in got]])
    digest = hashlib.sha256(json.dumps(out, ensure_ascii=False).encode("utf-8")).hexdigest()
    assert digest == SAMPLE_COMPACTION_SHA256, "compact_passages now cuts the sample's chunks differently"
