"""Whether a text answers its question (engine/drafting/relevance.py, issue #50 item 1), with the
real default embedder: the issue's sentences beside the point are refused, a sentence that
answers is kept, and a text that only says the question back is known as such."""

from __future__ import annotations

from engine.drafting.relevance import QUESTION_MIN, RESTATES, Relevance, references, relevance


def judged(encoder, question: str, text: str, past=()) -> Relevance:
    return relevance(text, encoder.encode_query(question), references(past, encoder), encoder)


def test_the_issues_sentences_beside_the_point_do_not_answer(encoder):
    # ("Public data is data from publicly accessible sources." scores 0.51 under the third-parties
    # question: a definition, refused by the rules before, tests/unit/test_explanation_rules.py)
    network = "Will a consultant require access to the institution's network for support or administration?"
    assert not judged(encoder, network, "Data centers must be powered continuously and kept cool.").answers
    background = "Describe your organization's business background and ownership structure."
    board = "The board considers candidates' independence, diversity and experience when nominating directors."
    assert not judged(encoder, background, board).answers


def test_a_sentence_that_answers_is_kept_and_the_question_said_back_is_known(encoder):
    training = "Do employees complete security awareness training every year?"
    said = "Every employee completes security awareness training when hired and every year after."
    # one product's short wording is no yardstick: the question decides
    alone = judged(encoder, training, said, past=["Parchment staff train yearly with KnowBe4."])
    assert alone.reference is None and alone.question >= QUESTION_MIN and alone.answers
    # two products' explanations are the company's answer: a text on the same practice says what they say
    company = [
        "Security awareness training is completed by all staff upon hire and annually thereafter.",
        "All employees take security awareness training at hire and every year.",
    ]
    assert judged(encoder, training, said, past=company).answers
    off = judged(encoder, training, "Offices are open from 9 am to 6 pm on weekdays.", past=company)
    assert off.reference is not None and not off.answers
    tested = "Has the Disaster Recovery Plan been tested in the past year?"
    back = judged(encoder, tested, "Yes, the Disaster Recovery Plan has been tested in the past year.")
    assert back.question >= RESTATES and back.restates  # without the question's words, the cosine alone decides
    asked = "Do you have policy and procedure, currently implemented, guiding how security risks are mitigated until patches can be applied?"
    said = (
        "Yes, the company has policy and procedure currently implemented guiding how security risks are "
        "mitigated until patches can be applied."
    )
    back = relevance(said, encoder.encode_query(asked), None, encoder, asked)
    assert back.question >= RESTATES and back.adds <= 2 and back.restates and not back.model_answers
    # the model's words around a restated question add nothing ("the company", "as stated in the cited sources")
    itac = "Do you have a documented and implemented process for reporting and tracking accessibility issues?"
    cited = (
        "Yes, the company has documented and implemented processes for reporting and tracking accessibility "
        "issues, as stated in the cited sources."
    )
    assert relevance(cited, encoder.encode_query(itac), None, encoder, itac).restates
    encrypted = "Is customer data encrypted at rest?"
    quote = "Yes. All customer data is encrypted at rest with AES-256 using keys held in a hardware security module."
    answer = relevance(quote, encoder.encode_query(encrypted), None, encoder, encrypted)
    assert answer.question >= RESTATES and answer.adds >= 5 and not answer.restates and answer.model_answers


def test_relevance_survives_the_record():
    r = Relevance(0.61234567, 0.7, 3)
    assert Relevance.from_json(r.to_json()) == Relevance(0.6123, 0.7, 3)
    assert Relevance.from_json(None) is None
