"""A question in another language drafted as its English translation (engine/drafting/translate.py,
issue #58): what the English drafting is asked, the choice in the dropdown's own words, the
answer's English source kept, the warnings, and a failed translation never silently left in
English. The model here is a stated stand-in (``Dictionary``) that answers from a fixed table:
these tests are about the bookkeeping around translation, not its quality, which
tests/integration/test_translated_questionnaires.py measures with the real model."""

from __future__ import annotations

import json
from dataclasses import replace

from engine.core.llm import JsonReply
from engine.core.types import DraftStatus, SourceKind
from engine.drafting.anchoring import AnchorLabel
from engine.drafting.records import Citation, Draft, TextSource
from engine.drafting.translate import Translations, _copied, draft_translated, in_words_of
from engine.questionnaire import Question
from engine.questionnaire.language import Language

QUESTION_DE = "Verschlüsseln Sie die Daten der Institution bei der Speicherung?"
QUESTION_EN = "Do you encrypt the institution's data at rest?"
QUOTE = "All customer data is encrypted at rest with AES-256."
ANSWER_DE = "Alle Kundendaten werden im Ruhezustand mit AES-256 verschlüsselt."


class Dictionary:
    """A stand-in for the model's ``chat_json``: the translation of each text from a fixed table
    (an unknown text comes back unchanged, as a model that failed to translate would)."""

    def __init__(self, table: dict[str, str], same: int = 0) -> None:
        self.table, self.same, self.calls = table, same, 0

    def chat_json(self, messages, schema, max_tokens=None, context=None, avoid=()) -> JsonReply:
        self.calls += 1
        if "same" in schema["properties"]:  # which past question is the same: the number set for the test
            return JsonReply(json.dumps({"same": self.same}), 10, 2, 0.01)
        text = messages[-1]["content"]
        return JsonReply(json.dumps({"translation": self.table.get(text, text)}), 10, 10, 0.01)


def _question(choices=("Ja", "Nein")) -> Question:
    return Question("ENC-01", "Fragen", 4, QUESTION_DE, "B4", "C4", "D4", choices, None, None)


def _english_draft(seen: list[Question]):
    def draft(q: Question) -> Draft:
        seen.append(q)
        cite = Citation("handbook.pdf", SourceKind.PDF, QUOTE, AnchorLabel.VERIFIED, 100.0, 0.9, page=1)
        return Draft.of(q, "Fragen!B4", QUOTE, "Yes", DraftStatus.DRAFTED, (cite,), confidence=0.9)

    return draft


def test_the_english_drafting_is_asked_in_english_and_the_draft_answers_in_german():
    chat = Dictionary({QUESTION_DE: QUESTION_EN, QUOTE: ANSWER_DE})
    seen: list[Question] = []
    d = draft_translated(_question(), Language.DE, Language.DE, Translations(chat), _english_draft(seen))
    assert seen[0].text == QUESTION_EN and seen[0].choices == ("Yes", "No")  # library, retrieval, model: English
    assert d.question == QUESTION_DE and d.asked_as == QUESTION_EN
    assert d.choice == "Ja"  # the dropdown's own option
    assert d.answer == ANSWER_DE and d.english == QUOTE and d.language == "de" and d.translated
    assert d.citations[0].quote == QUOTE  # the quote stays verbatim, in its source's words
    assert d.text_source == TextSource.OWN_DOCUMENT.value  # still the document's sentence, translated
    lines = [w.line for w in d.warnings]
    assert any(line.startswith("Translated into German by the model") for line in lines)
    assert any(QUOTE in w.details for w in d.warnings)  # the English source behind the warning
    stored = Draft.from_stored(d.key, d.stored())
    assert (stored.english, stored.language, stored.asked_as, stored.answer) == (QUOTE, "de", QUESTION_EN, ANSWER_DE)


def test_translations_are_cached_per_text():
    chat = Dictionary({QUESTION_DE: QUESTION_EN, QUOTE: ANSWER_DE})
    translations = Translations(chat)
    for _ in range(3):
        draft_translated(_question(), Language.DE, Language.DE, translations, _english_draft([]))
    assert chat.calls == 2  # the question once, the answer once


def test_the_cache_file_keeps_translations_across_runs(tmp_path):
    path = tmp_path / "translations.json"
    first = Dictionary({QUESTION_DE: QUESTION_EN})
    Translations(first, path).to_english(QUESTION_DE, Language.DE)
    again = Dictionary({})
    assert Translations(again, path).to_english(QUESTION_DE, Language.DE).text == QUESTION_EN
    assert again.calls == 0


def test_a_failed_translation_keeps_the_english_and_says_so():
    chat = Dictionary({QUESTION_DE: QUESTION_EN})  # the answer comes back in English: no translation
    d = draft_translated(_question(), Language.DE, Language.DE, Translations(chat), _english_draft([]))
    assert d.untranslated and not d.translated and d.answer == QUOTE
    assert any(w.line.startswith("Not translated into German") for w in d.warnings)
    assert "not translated" in d.trust


def test_a_translation_that_dropped_its_spaces_is_no_translation():
    """ITAC-08 of the German HECVAT came back from the real model as one run of words without
    spaces ("StandardkeyboardnavigationundEingabefunktionen…") and passed as German; a Latin-script
    translation whose words are twice as long as its source's is refused like one left in English."""
    source = "Standard keyboard navigation and input functions are supported across the whole product."
    collapsed = "StandardkeyboardnavigationundEingabefunktionen werdenimgesamtenProduktunterstützt."
    spaced = "Standard-Tastaturnavigation und Eingabefunktionen werden im gesamten Produkt unterstützt."
    assert Translations(Dictionary({source: collapsed})).translate(source, Language.EN, Language.DE) is None
    assert Translations(Dictionary({source: spaced})).translate(source, Language.EN, Language.DE).text == spaced
    japanese = "標準のキーボード操作と入力機能は製品全体でサポートされています。"  # no spaces in Japanese
    assert Translations(Dictionary({source: japanese})).translate(source, Language.EN, Language.JA).text == japanese


def test_a_translation_whose_numbers_differ_from_the_english_says_so_on_its_warning():
    """COMP-01's "tens of millions" came back from the real model as "100 Millionen": the card's
    translation warning names the numbers that differ, so the reviewer checks them first."""
    wrong = "Alle Kundendaten werden im Ruhezustand mit AES-512 verschlüsselt."
    chat = Dictionary({QUESTION_DE: QUESTION_EN, QUOTE: wrong})
    d = draft_translated(_question(), Language.DE, Language.DE, Translations(chat), _english_draft([]))
    (line,) = [w.line for w in d.warnings if w.line.startswith("Translated into German")]
    assert line.endswith("check the wording; its numbers differ from the English (512, 256)")
    right = Dictionary({QUESTION_DE: QUESTION_EN, QUOTE: ANSWER_DE})  # "1.000" for "1,000" is the same number
    d = draft_translated(_question(), Language.DE, Language.DE, Translations(right), _english_draft([]))
    assert [w.line for w in d.warnings if w.line.startswith("Translated into German")] == [
        "Translated into German by the model from the English text: check the wording"
    ]


def test_answers_kept_in_the_company_language_are_not_translated():
    chat = Dictionary({QUESTION_DE: QUESTION_EN, QUOTE: ANSWER_DE})
    d = draft_translated(_question(), Language.DE, Language.EN, Translations(chat), _english_draft([]))
    assert d.answer == QUOTE and d.english is None and d.choice == "Ja" and chat.calls == 1


def test_a_choice_without_a_dropdown_is_said_in_the_questionnaire_language():
    assert in_words_of("Yes", (), Language.JA) == "はい"
    assert in_words_of("No", (), Language.NL) == "Nee"
    assert in_words_of("4) AWS", (), Language.DE) == "4) AWS"
    assert in_words_of("No", ("Oui", "Non", "N/A"), Language.FR) == "Non"


def test_a_question_the_model_cannot_translate_is_still_drafted_as_it_is():
    chat = Dictionary({QUOTE: ANSWER_DE})  # the question comes back unchanged: no translation
    seen: list[Question] = []
    d = draft_translated(_question(), Language.DE, Language.DE, Translations(chat), _english_draft(seen))
    assert seen[0].text == QUESTION_DE and d.asked_as is None
    assert replace(d, seconds=0).choice == "Ja"


PAST = "Do you encrypt institutional data at rest?"


def test_the_past_question_the_model_finds_the_same_is_asked_instead_of_the_translation():
    chat = Dictionary({QUESTION_DE: QUESTION_EN, QUOTE: ANSWER_DE}, same=2)
    seen: list[Question] = []
    asked_for: list[str] = []

    def memory(text: str) -> list[str]:
        asked_for.append(text)
        return ["Do you encrypt backups?", PAST]

    d = draft_translated(_question(), Language.DE, Language.DE, Translations(chat), _english_draft(seen), memory)
    assert asked_for == [QUESTION_EN]  # the memory is searched with the model's translation
    assert seen[0].text == PAST and d.asked_as == PAST


def test_none_the_same_keeps_the_translation():
    chat = Dictionary({QUESTION_DE: QUESTION_EN, QUOTE: ANSWER_DE}, same=0)
    seen: list[Question] = []
    translations = Translations(chat)
    draft_translated(_question(), Language.DE, Language.DE, translations, _english_draft(seen), lambda t: [PAST])
    assert seen[0].text == QUESTION_EN
    draft_translated(_question(), Language.DE, Language.DE, translations, _english_draft([]), lambda t: [])
    assert chat.calls == 3  # the question, the pick, the answer; the pick is not asked without candidates


PARAGRAPHS_EN = [  # each over half of PIECE_CHARS: never two in one piece
    "Instructure runs an information security program based on ISO 27001. " * 6,
    "All code goes through a developer peer review before it is merged into the main branch. " * 5,
    "Security incidents are reported to the affected institutions within seventy-two hours. " * 5,
]
PARAGRAPHS_DE = [
    "Instructure betreibt ein Informationssicherheitsprogramm nach ISO 27001, das jährlich geprüft wird.",
    "Der gesamte Code wird vor der Zusammenführung von den Entwicklern gegenseitig überprüft.",
    "Sicherheitsvorfälle werden den betroffenen Institutionen innerhalb von 72 Stunden gemeldet.",
]
NAMES = "ISO 27001, SOC 2, SOC 3, TX-RAMP, UK Cyber Essentials Plus, PCI DSS SAQ D, HECVAT, VPAT, CAIQ, CSA STAR"


def test_a_long_text_is_translated_paragraph_by_paragraph():
    """A narrative over PIECE_CHARS (COMP-01's 1,742 characters came back untranslated whole) is
    asked in pieces, its paragraphs, each cached; one piece not translated: no translation."""
    text = "\n\n".join(p.strip() for p in PARAGRAPHS_EN)
    chat = Dictionary({en.strip(): de for en, de in zip(PARAGRAPHS_EN, PARAGRAPHS_DE)})
    translations = Translations(chat)
    done = translations.from_english(text, Language.DE)
    assert done is not None and done.text == "\n\n".join(PARAGRAPHS_DE)
    assert chat.calls == 3  # one call per piece
    translations.from_english(text, Language.DE)
    assert chat.calls == 3  # the pieces are cached
    missing = Dictionary({PARAGRAPHS_EN[0].strip(): PARAGRAPHS_DE[0]})  # the others come back in English
    assert Translations(missing).from_english(text, Language.DE) is None


def test_a_piece_with_nothing_to_translate_is_kept_as_it_is():
    """A piece of names and acronyms only (no language told) comes back as it was: kept."""
    long = (PARAGRAPHS_EN[0] + PARAGRAPHS_EN[0][:200]).strip()
    chat = Dictionary({long: PARAGRAPHS_DE[0]})
    done = Translations(chat).from_english(long + "\n" + NAMES, Language.DE)
    assert done is not None and done.text == PARAGRAPHS_DE[0] + "\n" + NAMES


class RawLineBreaks(Dictionary):
    """The stand-in writing its translation's line breaks inside the JSON string as they are, as
    the default model does (not "\\n"): JSON that strict parsing refuses."""

    def chat_json(self, messages, schema, max_tokens=None, context=None, avoid=()) -> JsonReply:
        reply = super().chat_json(messages, schema, max_tokens, context)
        return replace(reply, text=reply.text.replace("\\n", "\n"))


def test_a_translation_with_line_breaks_written_as_they_are_is_read():
    text = "All customer data is encrypted at rest.\nBackups are kept for 35 days."
    german = "Alle Kundendaten werden verschlüsselt gespeichert.\nSicherungen werden 35 Tage lang aufbewahrt."
    chat = RawLineBreaks({text: german})
    assert "\n" in chat.chat_json([{"role": "user", "content": text}], {"properties": {}}).text  # a raw break
    done = Translations(RawLineBreaks({text: german})).from_english(text, Language.DE)
    assert done is not None and done.text == german


LEAD = "Described in Instructure Business Continuity & Disaster Recovery, pp. 11–14:"
BODY = (
    "The primary assumption of our disaster recovery plan is that it only addresses events that affect a data center."
)
LEAD_DE = "Beschrieben in Instructure Business Continuity & Disaster Recovery, S. 11–14:"
BODY_DE = "Die wichtigste Annahme unseres Notfallwiederherstellungsplans ist, dass er nur Ereignisse behandelt."


def _reference_draft(q: Question) -> Draft:
    cite = Citation("bcdr.pdf", SourceKind.PDF, BODY, AnchorLabel.VERIFIED, 100.0, 0.9, page=11)
    return Draft.of(
        q, "Fragen!B4", f"{LEAD} {BODY}", None, DraftStatus.DRAFTED, (cite,), reference="bcdr.pdf pp. 11–14"
    )


def test_a_references_lead_is_translated_apart_from_its_sentences():
    """Asked as one text, the model left the lead out (DRPL-01 of the German HECVAT lost its document
    and pages); asked apart, each piece comes back and the two are joined."""
    chat = Dictionary({QUESTION_DE: QUESTION_EN, LEAD: LEAD_DE, BODY: BODY_DE, f"{LEAD} {BODY}": BODY_DE})
    d = draft_translated(_question(()), Language.DE, Language.DE, Translations(chat), _reference_draft)
    assert d.answer == f"{LEAD_DE} {BODY_DE}" and d.english == f"{LEAD} {BODY}" and d.translated


def test_a_references_lead_the_model_gives_back_unchanged_is_kept_as_written():
    chat = Dictionary({QUESTION_DE: QUESTION_EN, BODY: BODY_DE})  # the lead comes back in English
    d = draft_translated(_question(()), Language.DE, Language.DE, Translations(chat), _reference_draft)
    assert d.answer == f"{LEAD} {BODY_DE}" and d.translated  # the document and pages not lost


ITAC_03 = (
    "Instructure is committed to ensuring its products are inclusive and meet the diverse accessibility "
    "needs of our users. Across all of our products we have adopted the WCAG 2.1 AA standard."
)
COPIED = ITAC_03.replace("Instructure is", "Instructure ist")  # the real model's reply, told the name
ITAC_03_DE = (
    "Instructure ist committed zur Sicherung ihrer Produkte für Inklusivität und die Erfüllung der Diversen "
    "Zugänglichkeitsmöglichkeiten unserer Nutzer. Wir haben alle unsere Produkte die WCAG 2.1 AA-Standard adoptiert."
)  # the real model's reply asked again (docs/benchmarks.md)


class CopiesFirst(Dictionary):
    """A stand-in that copies the text back (as the real model did for ITAC-03) unless the system
    message names the words it copied; logs each system message and the words it was told to avoid."""

    def __init__(self, table: dict[str, str]) -> None:
        super().__init__(table)
        self.systems: list[str] = []
        self.avoided: list[tuple[str, ...]] = []

    def chat_json(self, messages, schema, max_tokens=None, context=None, avoid=()) -> JsonReply:
        self.systems.append(messages[0]["content"])
        self.avoided.append(tuple(avoid))
        if "never copy them" not in messages[0]["content"]:
            self.calls += 1
            return JsonReply(json.dumps({"translation": COPIED}), 10, 10, 0.01)
        return super().chat_json(messages, schema, max_tokens, context)


def test_a_text_copied_back_is_asked_again_naming_the_words_it_copied():
    """ITAC-03 of the German HECVAT: told to keep "Instructure" as a name, the real model copied the
    text back in English (refused: no translation); asked once more, told the English words it
    copied (never the names) and forbidden to write them, its German reply is taken and cached."""
    chat = CopiesFirst({ITAC_03: ITAC_03_DE})
    translations = Translations(chat)
    done = translations.from_english(ITAC_03, Language.DE, ("Instructure", "Canvas LMS"))
    assert done is not None and done.text == ITAC_03_DE and chat.calls == 2
    assert chat.systems[0].endswith("keep them exactly as written: Instructure.")
    assert chat.systems[1].endswith(
        "Translate these English words too, never copy them: "
        "committed, ensuring, products, inclusive, meet, diverse, accessibility, needs."
    )
    words = ("committed", "ensuring", "products", "inclusive", "meet", "diverse", "accessibility", "needs")
    assert chat.avoided == [(), words]  # the first asking forbids nothing
    assert translations.from_english(ITAC_03, Language.DE, ("Instructure",)).text == ITAC_03_DE
    assert chat.calls == 2  # cached


def test_a_text_copied_back_twice_is_no_translation():
    chat = CopiesFirst({})  # asked again, the text itself once more
    assert Translations(chat).from_english(ITAC_03, Language.DE, ("Instructure",)) is None and chat.calls == 2


def test_a_reply_that_copied_nothing_is_not_asked_again():
    """A reply in another language than asked for (French for German), no word of the source in it:
    nothing to name, one call, no translation, as before."""
    french = "Instructure s'engage à rendre ses produits inclusifs et accessibles à tous ses utilisateurs."
    chat = Dictionary({ITAC_03: french})
    assert Translations(chat).from_english(ITAC_03, Language.DE, ("Instructure",)) is None and chat.calls == 1


def test_a_translation_with_a_sentence_left_in_english_is_asked_again():
    """ITAC-03 as drafted on 2026-12-02 came back from the real model with its first sentence in
    English ("Instructure ist committed to delivering products that are accessible and inclusive.
    Wir entwickeln …"), read as German as a whole; a sentence of six words or more still in the
    source's language makes the reply none, and it is asked again naming the words it copied."""
    source = (
        "Instructure is committed to delivering products that are accessible and inclusive. We target WCAG 2.1 "
        "AA standards in our development."
    )
    mixed = (
        "Instructure ist committed to delivering products that are accessible and inclusive. Wir richten unsere "
        "Entwicklung an den WCAG 2.1 AA Standards aus."
    )
    german = (
        "Instructure hat sich verpflichtet, zugängliche und inklusive Produkte zu liefern. Wir richten unsere "
        "Entwicklung an den WCAG 2.1 AA Standards aus."
    )

    class MixedFirst(Dictionary):
        def chat_json(self, messages, schema, max_tokens=None, context=None, avoid=()) -> JsonReply:
            told = (
                "never copy them: committed, delivering, products, that, accessible, inclusive."
                in messages[0]["content"]
            )
            self.calls += 1
            return JsonReply(json.dumps({"translation": german if told else mixed}), 10, 10, 0.01)

    chat = MixedFirst({})
    assert Translations(chat).from_english(source, Language.DE, ("Instructure",)).text == german and chat.calls == 2
    assert (
        Translations(Dictionary({source: german})).from_english(source, Language.DE).text == german
    )  # all German: taken at once


ITAC_08 = (
    "Standard keyboard navigation and input functions (such as the Tab key to move between input fields, the "
    "arrow keys to move between list items, and the Space or Enter keys to make selections)."
)
# the real default model's German of ITAC-08 (2026-12-02), then its German asked again with the English
# words it ran together forbidden (docs/benchmarks.md #58 History)
ITAC_08_RUN = (
    "StandardkeyboardnavigationundEingabefunktionen(z.B. dieTab-Taste, umZwischenEingabefelderzumSchalten, "
    "diePfeiltasten, umZwischenListenitemszumSchalten und dieLeertaste oder dieEingabezustellen, umZuWählen)."
)
ITAC_08_DE = (
    "Standard-Tastenfunktionen und Eingabefunktionen (z.B. die Tab-Taste zum Wechsel zwischen Eingabefeldern, die "
    "Pfeiltasten zum Wechsel zwischen Listen-Elementen und die Taste Enter oder Enter zum Auswahl)."
)


def test_a_translation_that_ran_its_words_together_is_asked_again_forbidding_the_words_inside():
    """ITAC-08 of the German HECVAT: the real model ran its words together, no word of the reply
    the source's (so nothing was named and it stayed in English). The source's English words found
    inside the run (standard, keyboard, navigation, list, items, in the order they occur) are named
    and forbidden when it is asked once more. The model is a stated stand-in that runs the words
    together until it is forbidden "keyboard": this tests the plumbing, the real model's reply is
    tests/integration/test_translated_questionnaires.py's."""

    class RunsTogether(Dictionary):
        def __init__(self) -> None:
            super().__init__({})
            self.avoided: list[tuple[str, ...]] = []

        def chat_json(self, messages, schema, max_tokens=None, context=None, avoid=()) -> JsonReply:
            self.avoided.append(tuple(avoid))
            self.calls += 1
            said = ITAC_08_DE if "keyboard" in avoid else ITAC_08_RUN
            return JsonReply(json.dumps({"translation": said}), 10, 10, 0.01)

    chat = RunsTogether()
    done = Translations(chat).from_english(ITAC_08, Language.DE, ("Instructure",))
    assert done is not None and done.text == ITAC_08_DE and chat.calls == 2
    assert chat.avoided == [(), ("standard", "keyboard", "navigation", "list", "items")]
    # the same words run together in a language without spaces between words is not a run: Japanese
    # is refused for other reasons (Latin words), never asked to avoid words found inside a longer one
    assert _copied(ITAC_08_RUN, ITAC_08, (), Language.JA) == []
