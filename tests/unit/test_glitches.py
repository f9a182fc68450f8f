"""A model reply in another script, citing the prompt's labels or looping is set aside, never a
draft (engine/drafting/generate/glitches.py, applied in ``AnswerPrompt.parse``). The replies are
the ones Qwen2.5-Coder-1.5B wrote in the Instructure leave-one-out runs, parsed here as a backend
parses them (no model is loaded: the reply text is given)."""

from __future__ import annotations

import json

from engine.drafting.generate.glitches import foreign_text, glitch, loop_in, set_aside
from engine.drafting.generate.prompt import AnswerPrompt, Evidence, Passage

DRPL_01 = "Do you have a Disaster Recovery Plan (DRP)?"
# Qwen2.5's reply to DRPL-01 (Canvas Credentials and Parchment targets): Chinese at the end, and
# "sections S3 and S4" of a prompt whose sentences stop at S2
DRPL_01_ANSWER = (
    "The Disaster Recovery Plan (DRP) is outlined in Instructure Business Continuity & Disaster Recovery.pdf, "
    "specifically in sections S3 and S4. The Incident Commander is authorized to declare a disaster and begin "
    "activation of the Disaster Recovery Team (DRT), and once a disaster has been officially declared, the "
    "Incident Commander is responsible for directing the DRT recovery efforts and ongoing的通知."
)
BCDR = Passage(
    "[1] Instructure Business Continuity & Disaster Recovery.pdf p. 14",
    "Once confirmed, the Incident Commander is authorized to declare a disaster and begin activation of the "
    "Disaster Recovery Team (DRT). Once a disaster has been officially declared, the Incident Commander is "
    "responsible for directing the DRT recovery efforts.",
)
SECURITY = Passage(
    "[2] Instructure Security Overview (2024-12-20).pdf p. 17",
    "User-uploaded files are stored in Amazon S3 with unique names and folder paths.",
)


def reply(answer: str, choice: str | None = "Yes", sentences: list[str] | None = None) -> str:
    return json.dumps(
        {"sentences": sentences or ["S1"], "choice": choice, "answer": answer, "insufficient_context": False},
        ensure_ascii=False,
    )


def test_a_reply_in_another_script_is_set_aside_and_says_why():
    prompt = AnswerPrompt.build(DRPL_01, [BCDR], ["Yes", "No"], Evidence.SENTENCES)
    got = prompt.parse(reply(DRPL_01_ANSWER))
    assert got.glitch == "characters outside the questionnaire's script (的通知)"
    assert (got.answer, got.choice, got.insufficient_context) == ("", None, True)  # never a draft
    assert got.quotes  # the sentences it pointed at stay: the reviewer sees where to look
    assert set_aside(got.glitch) == (
        "the model's reply was set aside: characters outside the questionnaire's script (的通知); "
        "write this answer by hand"
    )
    # the same reply without its last words still cites labels no reader has
    without = DRPL_01_ANSWER.replace("ongoing的通知.", "ongoing communication.")
    assert prompt.parse(reply(without)).glitch == "it cites S3, S4, labels that mean nothing outside the prompt"


def test_a_reply_with_half_a_character_is_set_aside():
    """A reply whose JSON escapes half of an emoji's surrogate pair ("\\ud83d" alone): the string
    holds a character no text can (the embedder's tokenizer refuses it, UTF-8 cannot store it)."""
    prompt = AnswerPrompt.build(DRPL_01, [BCDR], ["Yes", "No"], Evidence.SENTENCES)
    raw = json.dumps({"sentences": ["S1"], "choice": "Yes", "answer": "A plan is tested yearly \ud83d."})
    got = prompt.parse(raw)
    assert got.glitch == "1 broken character (half of a character's code)" and got.answer == ""
    whole = json.dumps({"sentences": ["S1"], "choice": "Yes", "answer": "A plan is tested yearly \ud83d\ude00."})
    assert prompt.parse(whole).glitch is None  # a whole pair is one character, an emoji


def test_a_reply_citing_the_prompts_own_labels_is_set_aside_too():
    """PCID-09 of the Parchment target: "S1" is a label of the prompt, "S4" of none; both mean
    nothing to the institution reading the answer."""
    question = "Can the application be installed in a PCI DSS–compliant manner ?"
    answer = "The application can be installed in a PCI DSS-compliant manner as per the requirement in S1 and the overall compliance status in S4."
    prompt = AnswerPrompt.build(question, [BCDR], ["Yes", "No"], Evidence.SENTENCES)
    assert prompt.parse(reply(answer)).glitch == "it cites S1, S4, labels that mean nothing outside the prompt"
    quotes = AnswerPrompt.build(question, [BCDR, SECURITY], ["Yes", "No"])  # passages labelled [1], [2]
    cited = json.dumps(
        {
            "quotes": [],
            "choice": None,
            "answer": "Files are kept in the bucket named in section [3].",
            "insufficient_context": False,
        }
    )
    assert quotes.parse(cited).glitch == "it cites [3], labels that mean nothing outside the prompt"


def test_amazons_s3_and_a_passages_own_words_are_not_labels():
    question = "Where are user-uploaded files stored?"
    prompt = AnswerPrompt.build(question, [SECURITY], [], Evidence.SENTENCES)
    got = prompt.parse(reply("User-uploaded files are stored in Amazon S3 with unique names.", choice=None))
    assert got.glitch is None and got.answer.startswith("User-uploaded files")
    # the vendor's own comments (Parchment's HECVAT) say so without "Amazon" before it
    assert glitch("We use S3 buckets for long term log storage for more than 36 months.", question) is None
    assert glitch("All encrypted at rest with AWS S3, AES 256", question) is None
    # a passage that says "S3" makes the word the passage's, whatever stands around it
    assert glitch("Backups are copied to S3 nightly.", question, "[1] a.pdf p. 1\nBackups go to S3 nightly.") is None
    assert glitch("Backups are copied to S3 nightly.", question, "[1] a.pdf p. 1\nBackups go to tape.") is not None


def test_the_questionnaires_script_is_the_questions():
    assert foreign_text("Данные шифруются (AES-256).", "Do you encrypt data at rest?") == "Данные шифруются"
    japanese = "保存データは暗号化されていますか？"
    assert glitch("はい、AWS KMS で AES-256 により暗号化されています。", japanese) is None  # kana, kanji and Latin
    assert glitch("Да, AES-256.", japanese) == "characters outside the questionnaire's script (Да)"
    # symbols, digits and a PDF's private-use bullet are no script
    assert (
        glitch("●\u200b Checked: Data entered by the user is checked for input errors \uf8e7 ≥ 99.9 %.", "Input?")
        is None
    )


def test_a_reply_that_loops_is_set_aside():
    question = "Do you support SSO?"
    assert loop_in("Yes, Yes, Yes, Yes, Yes") == "yes"
    assert (
        loop_in("SAML 2.0 and OIDC are supported, SAML 2.0 and OIDC are supported, SAML 2.0 and OIDC are supported")
        is not None
    )
    twice = "Canvas supports SAML 2.0 single sign-on. It also supports OIDC. Canvas supports SAML 2.0 single sign-on."
    assert glitch(twice, question) == "it repeats itself ('Canvas supports SAML 2.0 single sign-on.')"
    # "Yes, Yes, Yes" said three times may be meant; a sentence repeated in part is not a loop
    assert loop_in("Yes, Yes, Yes.") is None
    assert loop_in("Canvas supports SAML 2.0. Canvas supports OIDC through its LTI 1.3 integration.") is None


def test_no_answer_or_comment_the_vendor_wrote_is_a_glitch(shared_data):
    """The 2,099 answers and comments of the nine filled Instructure questionnaires: the text a
    responder approved, in the questionnaire's script, citing no prompt label, not looping."""
    texts = []
    for path in sorted((shared_data / "instructure" / "_extracted").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            texts += [(t, row["question"]) for t in (row.get("answer") or "", row.get("comment") or "") if t.strip()]
    assert len(texts) > 2000
    assert [(t[:60], glitch(t, q)) for t, q in texts if glitch(t, q)] == []
