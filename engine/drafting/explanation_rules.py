"""The rules a sentence must pass to explain a draft on its own (issue #37, item 3), used by
engine/drafting/explanation.py when it chooses a documents' sentence, and open to any other source
of an explanation text (a past answer, the model's wording):

* :func:`standing_alone`: the sentence read without the one before it. An additive opener
  ("Additionally,", "In addition,", "Also,", "Furthermore,", "Moreover,") is cut and the rest kept
  ("In addition, customers can leverage AWS KMS …" → "Customers can leverage AWS KMS …"); a
  sentence that needs the one before it is refused: a connective that argues from it ("But
  whatever the perceived risk …", "However,", "Therefore,", "As a result,", "For example,"), a
  demonstrative or pronoun whose referent is there ("This is why Canvas … was born in the cloud",
  "These controls are audited twice annually", "It allows customers to …" — but "It is the
  customer's responsibility to …" refers to nothing before it), a fragment that opens in lower
  case (a sentence cut by a page break, a responsibility matrix's "x x 1.2.2 Secure and …"), and
  a list's lead-in ending in a colon. A demonstrative with its noun ("This policy applies to all
  employees") is refused too: which policy is in the sentence before, and a reader of the answer
  does not have it. An instruction is refused as well: a control catalogue's requirement (AWS's
  CAIQ: "Create data flow documentation …") or a form's ("Indicate whether …") says what someone
  should do, not what the company does. Since #59 item 6 also a connective set off by commas a
  few words in ("Secure coding and security testing are, therefore, integral …"; not after "and,":
  "… impenetrable and, accordingly, prepares plans …"), a list's item whose subject a gerund glosses
  with no verb after it ("Browser tests (testing how code works in the browser) on all the different
  environments …"), and a generic subject judged ("Disasters are in many ways, inevitable, …", "High
  Availability is about …"; :func:`is_definition`).
* :func:`contradicts`: the text says the opposite of the choice about the question's subject.
* :func:`asks_provider` / :func:`provider_says`: a third party's sentence (AWS's, Google's)
  answers only a question about what the provider does (hosting, data centres, physical security,
  infrastructure), and then says whose it is.

Measured on the 6,696 candidate sentences of the 37 Instructure PDFs with a text layer
(``sentences_of`` and ``is_statement``, page by page; tests/unit/test_explanation_rules.py holds
examples of each rule): ``standing_alone`` refuses 1,318 (19.7 %; 601 of the 3,158 of company and
product documents): 472 instructions (409 in AWS's and Google's CAIQs), 290 open with a
demonstrative or a pronoun, 212 are lower-case fragments (188 of them the PCI responsibility
matrix's "x x 1.3.2 …" rows), 142 are a list's lead-in, 127 point back a few words in ("As part of
this annual testing, …"), 75 open with a connective; it cuts the additive opener of 86. Of the 603
explanations the leave-one-out drafts of seven targets (980 rows) took from the documents for
another product's choice, 166 are refused by ``standing_alone`` ("But whatever the perceived risk …" on
four rows) and 207 are a third party's under a question not about the provider.
:func:`contradicts` on the vendor's own 842 Yes/No rows with a comment (nine filled
questionnaires): 1 of 89 "No" and 4 of 753 "Yes" comments flagged (one of those four,
"cryptographic implementations are not FIPS validated" under Yes, does contradict its choice);
the same comments under the opposite choice: 120 of 753 and 15 of 89 flagged. :func:`asks_provider`
holds for 58 of the 566 distinct questions of those questionnaires.

The #59 item 6 clauses, on the same 6,696 sentences rebuilt at 138e9a1 (the rule then kept 4,830):
they refuse 9 more, all read as needing the sentence before, a fragment or a general truth (none
wrongly; a first draft's broader clauses refused 41, 9 of them wrongly (read one by one) — "While some processes
are common …", "Personally Identifiable Information (PII) comes from …" — and were narrowed).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

from engine.index.sentences import is_heading

# an opener that only adds to the sentence before: cut, the rest may stand alone
_ADDITIVE = re.compile(r"^(?:Additionally|In addition|Also|Furthermore|Moreover|Further|Besides),\s+")
# an opener that argues from the sentence before, or points at it
_CONNECTIVE = re.compile(
    r"^(?:However|But|And|Or|Nor|So|Yet|Still|Thus|Hence|Therefore|Consequently|Accordingly|Otherwise|Instead|"
    r"Naturally|Of course|Obviously|Clearly|Ultimately|Importantly|Essentially|Notably|Specifically|Rather|"
    r"Unfortunately|Fortunately|Not only|In fact|After all|Simply put|Overall|In (?:summary|conclusion|sum)|"
    r"To (?:summari[sz]e|conclude)|"
    r"Nevertheless|Nonetheless|Conversely|Likewise|Similarly|Meanwhile|Then|Next|Finally|Lastly|Again|Indeed|"
    r"Here|Above|Below|As such|As a (?:result|consequence)|As (?:described|mentioned|noted|shown|stated|discussed|"
    r"outlined|explained|above|below|such)|In (?:turn|contrast|this case|that case|such cases|other words|doing so|"
    r"this way|that way|short|particular)|On the other hand|Even so|That said|To (?:that|this) end|"
    r"For (?:this|that|these|those) reasons?|For (?:example|instance)|Because of (?:this|that)|"
    r"Due to (?:this|that)|Despite (?:this|that)|With (?:this|that)|The (?:following|above|latter|former))(?![\w-])"
)
_ANAPHORIC = re.compile(r"^(?:This|That|These|Those|Such|They|Them|Their|Theirs|He|She|His|Her|Its|It)(?![\w-])")
# a demonstrative a few words in: "Because of these …", "In these situations, …", "All such access …",
# "During this process, …", "Each of these …" ("these"/"those" always point back; "this", "that" and
# "such" after a leading preposition or quantifier)
_POINTS_BACK = re.compile(
    r"^(?:\S+\s+){0,3}(?:these|those)\b|^(?:(?:Because|Instead|Ahead|As a result|As part|On top|Each|Some|All|Many|"
    r"Most|One|Both|None|Any|Several|Few) of|Due to|Based on|In addition to|In response to|Prior to|Despite|After|"
    r"Before|During|Following|Once|Using|With|Through|Under|Given|In|For|By|From|At|Within|Upon|All|Like|"
    r"Unlike)\s+(?:this|that|such)\b",
    re.I,
)
# an instruction, not what anyone does: a control catalogue's requirement (the CAIQ's "Create data
# flow documentation …", "Define, implement and evaluate processes …"), a form's "Indicate whether …";
# a word that is also a noun or an adjective ("Review", "Use", "Secure") only when a verb's object,
# "and" or a comma follows it
_INSTRUCTION = re.compile(
    r"^(?:(?:Define|Establish|Develop|Create|Retain|Implement|Maintain|Ensure|Provide|Apply|Conduct|Perform|"
    r"Protect|Restrict|Identify|Evaluate|Manage|Verify|Refer|See|Please|Visit|Assign|Deploy|Install|Configure|"
    r"Encrypt|Remove|Disable|Enable|Require|Communicate|Determine|Specify|Validate|Approve|Prohibit|Permit|Render|"
    r"Follow|Educate|Administer|Designate|Shred|Utilize|Employ|Adopt|Obtain|Submit|Describe|Indicate|Attach|"
    r"Explain|Keep|Design)\b(?![-’'])|(?:Review|Monitor|Test|Log|Plan|Change|Store|Limit|Train|Screen|Set|Secure|Control|Track|"
    r"Schedule|Report|Audit|Scan|Patch|Update|Use|Document|Complete|Select|List|Contact|Separate|Mask)"
    r"(?:,| and | or | (?:a|an|the|all|any|each|every|their|its|your|appropriate|security|data|access)\b))"
)
# a sentence that points at the document it is in ("… complete this form", "as described in this paper")
_THIS_DOCUMENT = re.compile(
    r"\b(?:this|the (?:above|following|attached))\s+(?:form|document|report|section|paper|table|figure|page|"
    r"chapter|appendix|whitepaper|white paper)\b",
    re.I,
)
# a text about the documents, not the practice: "No, the ESG Report FY2023 does not mention any professional
# services …", "the cited sources do not say …" (the model's, when the passages say nothing of it)
_ABOUT_THE_SOURCES = re.compile(
    r"\b(?:sources?|documents?|context|passages?|reports?(?:\s+FY\s?\d{2,4})?|papers?|overviews?|policies)\s+"
    r"(?:(?:do|does|did)\s+not|doesn[’']t|don[’']t|never)\s+(?:mention|say|state|describe|specify|indicate|"
    r"provide|include|discuss|address|cover)",
    re.I,
)


def about_the_sources(text: str) -> bool:
    """``text`` says what the documents do or do not mention, not what the company does."""
    return bool(_ABOUT_THE_SOURCES.search(text))


# a definition or a general truth, not what the company does: "Public data is data from publicly accessible
# sources.", "Personal information means …", "A Disaster Recovery Plan is only useful insofar as …",
# "Examples of Internal data are email correspondence, …"
_DEFINITION = re.compile(
    r"^(?:[A-Z][\w-]*)(?:\s+[\w-]+){0,4}\s+(?:means|refers to|(?:is|are) defined as|(?:is|are) (?:data|information|"
    r"any (?:data|information))\s+(?:from|that|which|about|of|in|collected|obtained|provided|used|related|relating))\b"
    r"|^(?:A|An)\s+(?:[\w-]+\s+){1,4}(?:is|are)\s+(?:a|an|any|one|only|defined|considered|useful|important|"
    r"essential|critical|necessary|the (?:process|practice|set|act))\b"
    r"|^Examples? (?:of|include)\b"
    # a generic subject judged, not a practice: "Disasters are in many ways, inevitable, …", "High
    # Availability is about ensuring …" (#59 item 6)
    r"|^(?!(?:Our|We|Its|Their|While|Although|Though|If|When|Whenever|Because|Since|As|Where|Unless|Once)\b)[A-Z][\w-]*(?:\s+[\w-]+){0,2}\s+(?:is|are)\s+(?:(?:in many ways|often|always|"
    r"usually|generally|simply|ultimately)\W+){0,2}(?:about|inevitable|unavoidable|important|essential|critical|vital|"
    r"crucial|necessary|common)\b"
)
# what makes a line a statement: an auxiliary or a modal, a subject pronoun, a past participle, a
# verb of the documents' usual kind ("supports", "encrypt"); a heading or a label has none
_AUXILIARY = re.compile(
    r"\b(?:is|are|was|were|be|been|being|am|has|have|had|do|does|did|can|cannot|could|will|would|shall|should|"
    r"may|might|must|isn't|aren't|doesn't|don't|won't|can't)\b|\b(?:we|they|it|he|she|i|you|who|which)\s+\w",
    re.I,
)
_VERB_STEMS = (
    "provide|use|utili[sz]e|maintain|support|include|require|perform|conduct|ensure|employ|encrypt|store|offer|"
    "allow|enable|protect|monitor|review|log|retain|follow|undergo|operate|host|leverage|manage|test|scan|restrict|"
    "limit|meet|hold|receive|cover|contain|describe|define|run|inspect|replicate|back|deploy|integrate|handle|"
    "process|track|alert|train|enforce|reside|occur|serve|audit|generate|assign|grant|revoke|remove|delete|"
    "destroy|dispose|patch|update|upgrade|respond|detect|prevent|block|filter|segment|isolate|separate|"
    "authenticate|authori[sz]e|validate|approve|document|publish|share|send|transmit|collect|access|own|commit|"
    "work|partner|target|aim|strive|continue|help|begin|began|focus|impact|fall|face|take|make|give|keep|get|"
    "see|know|become|remain|consist|build|deliver|create|develop|design|apply|comply|rely|verify|notify|specify|"
    "identify|classify|carry|deny"
)
_LEXICAL_VERB = re.compile(
    rf"\b(?:{_VERB_STEMS})(?:s|es|d|ed)?\b|\b(?:appl|compl|rel|verif|notif|specif|identif|classif|carr|den)"
    r"(?:ies|ied)\b|\b[a-z]{3,}ed\b",
    re.I,
)
_DETERMINER = r"(?:the|a|an|to|on|with|that|all|our|its|their|each|every|any|no|in|from|by|as|through|across|under)"
# a verb the list does not hold: a singular subject's "-s" before its object ("The quality … impacts the …"),
# or a plural subject's verb before a determiner ("Entities face a trade-off")
_VERB_BY_PLACE = re.compile(
    rf"\b[a-z]{{3,}}(?<!ss)(?<!us)(?<!is)s\s+{_DETERMINER}\b|\b[a-z]{{3,}}s\s+[a-z]{{3,}}(?<!s)\s+{_DETERMINER}\b"
)
# a connective set off by commas in the sentence's first words argues from the sentence before as an
# opening one does: "Secure coding and security testing are, therefore, integral components …",
# "High Availability, however, is about …" (#59 item 6)
_MID_CONNECTIVE = re.compile(
    r"^(?:[^\s,;:]+\s+){0,7}(?!(?:and|but|or|nor)\b)[^\s,;:]+,\s+(?:therefore|however|thus|hence|consequently|moreover|furthermore|"
    r"accordingly|nevertheless|nonetheless|in turn|as a result|in fact|indeed|instead|likewise|similarly|then|too|"
    r"also|in addition|of course|though|in this case|as such)\s*,",
    re.I,
)
# a subject glossed in brackets by a gerund opens a list's item, not a sentence ("Browser tests (testing how
# code works in the browser) on all the different environments …", "Unit tests (testing code with code)"):
# a fragment unless a verb follows the gloss (#59 item 6)
_GLOSSED = re.compile(r"^(?:[^\s(]+\s+){0,2}[^\s(]+\s*\([a-z]+ing\b[^()]*\)(.*)$")
# a sentence cut before its end: "… to manage and conduct the testing including."
_DANGLING = re.compile(r"\b(?:including|and|or|of|to|the|a|an|with|for|by|such as)\W*$", re.I)


# a title: no end punctuation and every word of four letters or more capitalised ("1 Accessibility
# Conformance Report Revised Section 508 Edition (Based on VPAT® Version 2.4)"): its participles are
# no verb
_LONG_WORD = re.compile(r"\b[^\W\d_]{4,}\b")


def _is_title(text: str) -> bool:
    words = _LONG_WORD.findall(text)
    return text[-1:] not in ".!?" and len(words) >= 3 and all(w[0].isupper() for w in words)


def _has_verb(text: str) -> bool:
    """``text`` holds a verb of the lists (:data:`_AUXILIARY`, :data:`_LEXICAL_VERB`), not one guessed
    by its place ("… environments and across …" is no verb)."""
    return bool(_AUXILIARY.search(text) or _LEXICAL_VERB.search(text))


def states_something(text: str) -> bool:
    """``text`` is a statement: it has a verb (:data:`_AUXILIARY`, :data:`_LEXICAL_VERB`) and does
    not stop in the middle ("… the testing including."). A heading ("Accessibility (WCAG 2.1
    Standards, screen readers, color contrast, etc.)"), a document's title or a label states nothing."""
    text = text.strip()
    if _DANGLING.search(text.rstrip(".!?")) or _is_title(text):
        return False
    return bool(_AUXILIARY.search(text) or _LEXICAL_VERB.search(text) or _VERB_BY_PLACE.search(text))


def is_definition(text: str) -> bool:
    """``text`` defines a term or states a general truth ("Public data is data from publicly
    accessible sources.", "A Disaster Recovery Plan is only useful insofar as it is tested
    regularly."): it says nothing of what the company does."""
    return bool(_DEFINITION.match(text.strip()))


# "It is the customer's responsibility to …", "It is important that …": an "it" that points forward
_IT_FORWARD = re.compile(
    r"^It(?:'s|’s| is| was| will be| remains)\s+(?:not\s+)?(?:\w+ly\s+)?(?:important|critical|necessary|"
    r"essential|required|mandatory|possible|recommended|expected|prohibited|forbidden|our\b|"
    r"the\s+(?:\w+(?:'s|’s)\s+)?(?:responsibility|policy|practice|goal|intent)|\w+(?:'s|’s)\s+"
    r"(?:responsibility|policy|practice|goal|intent))"
)


def standing_alone(text: str) -> str | None:
    """``text`` (one sentence, as a draft shows it) as it reads without the sentence before it:
    an additive opener cut (the next word capitalised); None when it needs that sentence."""
    text = text.strip()
    cut = _ADDITIVE.sub("", text)
    first = cut.split(" ", 1)[0]
    lower = first.islower() and first[:1].isalpha()  # "customers", "x"; not "iOS", "eDiscovery", "1.2"
    if cut != text and lower:  # "In addition, customers can …" → "Customers can …"
        cut, lower = cut[0].upper() + cut[1:], False
    if not cut or cut.endswith(":") or lower:
        return None  # a list's lead-in, or a fragment cut from a sentence
    if _CONNECTIVE.match(cut) or _POINTS_BACK.match(cut) or (_ANAPHORIC.match(cut) and not _IT_FORWARD.match(cut)):
        return None
    glossed = _GLOSSED.match(cut)
    if _MID_CONNECTIVE.match(cut) or (glossed and not _has_verb(glossed.group(1))):
        return None  # a connective a few words in, or a fragment whose only verb is a glossed noun
    if _INSTRUCTION.match(cut):
        return None  # a requirement or a form's instruction states nothing the company does
    if is_heading(cut) or not states_something(cut) or is_definition(cut) or _THIS_DOCUMENT.search(cut):
        return None  # a heading, a fragment, a definition, or a pointer at the document it stands in
    return cut


# -- contradiction -----------------------------------------------------------------------------

_NEGATION = re.compile(
    r"\b(?:not|no|never|none|nor|neither|cannot|without|n/a)\b|n[’']t\b",
    re.I,
)
_OPENS_NEGATED = re.compile(r"^\W*(?:no|not|never|none|n/a)\b", re.I)
# a bare Yes or No opening a text ("No.", "Yes —"), not a word of its sentence ("No customer data …")
_BARE_YES_NO = re.compile(r"^\W*(yes|no)\b(?=\s*(?:$|[.,;:!—–-]))", re.I)
# a text that says what is done instead, or later: a No can state it without denying anything
_OTHERWISE = re.compile(
    r"\b(?:instead|roadmap|plan(?:s|ned|ning)?|working (?:on|towards?)|future|intends?|anticipat\w*|scheduled|"
    r"undergoing|aim|yet|however|but|only|rather|although|though|while|whereas|except|unless)\b",
    re.I,
)
_CONTRAST = re.compile(r"\b(?:however|but|although|though|while|whereas|except|instead|rather|only|unless)\b", re.I)
_WORDS = re.compile(r"[\w’'/-]+")
AFFIRMS_OVERLAP = 0.5  # share of the question's content words a No's contradicting text repeats
NEGATED_WITHIN = 2  # words after a negation that may name the question's subject


@lru_cache(maxsize=1)
def _stems():
    from engine.index.embed.sparse import analyzer  # noqa: PLC0415 - deferred: scikit-learn, only when asked

    return analyzer()


def _subject(question: str) -> set[str]:
    """The question's content words, stemmed (no stop words: "do", "you", "your" …)."""
    return set(_stems()(question))


def opens_with_the_other(text: str, choice: str | None) -> bool:
    """``text`` opens with a bare Yes or No that is not the Yes/No ``choice`` ("No." under Yes).
    "No customer data leaves the EU" under Yes is not a bare No and is not flagged."""
    opening = _BARE_YES_NO.match(text)
    wanted = (choice or "").strip().casefold()
    return opening is not None and wanted in ("yes", "no") and opening.group(1).casefold() != wanted


def contradicts(choice: str | None, text: str, question: str) -> bool:
    """``text`` says the opposite of a Yes/No ``choice`` about ``question``'s subject.

    * **No**: the text opens with a bare "Yes" (``opens_with_the_other``), or affirms the subject: no negation, nothing said
      instead or later ("on our roadmap", "however", "only"), and at least ``AFFIRMS_OVERLAP`` of
      the question's content words ("Executive summaries of our third-party audits are available"
      under "Can you provide executive summaries of your third-party audits?").
    * **Yes**: the text opens with a negation ("No.", "Not applicable"), or negates one of the
      question's content words within ``NEGATED_WITHIN`` words ("does not support SSO") and does
      not turn it round ("however", "but", "only").

    Any other choice (a list's option, none) contradicts nothing."""
    wanted = (choice or "").strip().casefold()
    text = " ".join(text.split())
    if wanted not in ("yes", "no") or not text:
        return False
    subject = _subject(question)
    if wanted == "no":
        if opens_with_the_other(text, wanted):
            return True
        if _NEGATION.search(text) or _OTHERWISE.search(text) or not subject:
            return False
        return len(subject & set(_stems()(text))) / len(subject) >= AFFIRMS_OVERLAP
    if _OPENS_NEGATED.match(text):
        return True
    if _CONTRAST.search(text):
        return False
    words = _WORDS.findall(text)
    for i, word in enumerate(words):
        if _NEGATION.fullmatch(word) or re.search(r"n[’']t$", word, re.I):
            after = set(_stems()(" ".join(words[i + 1 : i + 1 + NEGATED_WITHIN])))
            if after & subject:
                return True
    return False


def names_any(sentence: str, names: Iterable[str], ignore_case: bool = False) -> bool:
    """``sentence`` names one of ``names`` (as written, or in any case with ``ignore_case``, as a
    whole word or phrase)."""
    flags = re.IGNORECASE if ignore_case else 0
    return any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", sentence, flags) for n in names if n)


# -- a third party's sentence ------------------------------------------------------------------

# what a question asks of the provider the company runs on (the CAIQ's "CSP" is the company itself)
PROVIDER_TOPICS = re.compile(
    r"\b(?:host(?:ed|ing)|data ?cent(?:er|re)s?|physical(?:ly)?(?!\s+or\s+(?:electronic|logical))|facilit(?:y|ies)|infrastructure|"
    r"cloud (?:provider|vendor|service provider)|(?:hosting|infrastructure|iaas|paas) provider|iaas|paas|"
    r"colocation|co-location|regions?|availability zones?|environmental|power|fire|flood|hvac|"
    r"sub-?processors?|subservice)\b",
    re.I,
)


def asks_provider(question: str) -> bool:
    """``question`` asks what the provider the company runs on does (hosting, data centres,
    physical and environmental security, infrastructure, regions): only then may a third party's
    sentence answer it."""
    return bool(PROVIDER_TOPICS.search(question))


# what a provider's document says its customers must do ("Customers are responsible for establishing
# documented policies … with third-party entities", GCP's SOC 3): the company's own duty under the
# provider's model, not what the provider does (issue #59, item 4)
_CUSTOMERS_DUTY = re.compile(
    r"^(?:the\s+)?(?:customers?|user entit(?:y|ies)|clients?|subscribers?|tenants?)"
    r"(?:\s+of\s+[\w ]{1,30}?)?(?:\s+(?:also|therefore|generally|ultimately))?"
    r"\s+(?:(?:are|is|remain|will be)\s+(?:solely\s+|also\s+|fully\s+)?(?:responsible|required|expected|accountable)"
    r"|should|must|shall|need to|needs to)\b|\bcustomer(?:s['’]|['’]s)?\s+responsibilit",
    re.I,
)


def customers_duty(sentence: str) -> bool:
    """``sentence`` (a provider's) states what the provider's customers must do, not what it does."""
    return bool(_CUSTOMERS_DUTY.search(sentence.strip()))


def provider_says(provider: str, sentence: str) -> str:
    """A third party's sentence as a draft shows it: never as the company's own practice."""
    return f"{provider}, the third-party provider, states: {sentence}"


def read_out_of_context(quotes: Iterable[str]) -> bool:
    """Every one of ``quotes`` (a model's text's quotes of the documents) needs the sentence before
    it (:func:`standing_alone`), so the text took their subject from the question (#59): Parchment's
    QUAL-02, "Yes, institutional data will be shared … under a fully executed non-disclosure
    agreement (NDA).", rests on "These data elements reside on Instructure systems and are only shared
    with external entities under a fully executed non-disclosure agreement", whose data elements are
    the company's own "insider information". False without quotes."""
    said = [" ".join(q.split()) for q in quotes if q.strip()]
    return bool(said) and all(standing_alone(q) is None for q in said)


__all__ = [
    "AFFIRMS_OVERLAP",
    "about_the_sources",
    "asks_provider",
    "contradicts",
    "customers_duty",
    "is_definition",
    "names_any",
    "opens_with_the_other",
    "provider_says",
    "read_out_of_context",
    "standing_alone",
    "states_something",
]
