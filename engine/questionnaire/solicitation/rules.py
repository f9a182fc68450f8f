"""Which units are requirements, of which kind, mandatory or not: rules only, no model.

A unit is a requirement when it obliges the offeror or the contractor (shall, must, required,
is/are to, expected to, agrees to, is responsible for; "will" with the offeror's or the
contractor's side as its subject), tells the offeror what the response holds or how to submit it
(an imperative in the instructions: "Provide …", "Describe …"; "Quotes will only be accepted …"),
or names an evaluation factor or criterion (in an evaluation section: points, weights, "will be
evaluated", basis for award). A list item under a lead-in that obliges is one too, carrying the
lead-in's cue. Not requirements: sentences that oblige or empower only the buyer ("The County
reserves the right …", "The Government will provide …"), framework statements with no party
obliged ("shall be deemed", "shall prevail", "shall be governed by"), definitions, background.

The kind comes from the words of the sentence where they are plain (insurance, invoices,
licences, indemnity → terms; points, evaluated → evaluation; what the proposal holds →
submission; what the contractor does during performance → work), else from the kind of the
section it sits in (its heading path: "Instructions", "Evaluation", "Scope of Work", "Terms").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.questionnaire.solicitation.records import Kind, Unit

_I = re.I
MUST = re.compile(
    r"\b(shall|must|required|is (?:not )?to|are (?:not )?to|expected to|is expected|are expected|mandatory|"
    r"agrees? to|agree that|responsible for|(?<=^no )(?:\w+\s+){1,4}?may be|responsibility of|responsibility to|obligated to|prohibited|may not(?! be (?:a|an|the)\b)|"
    r"needs? to be|(?:assumes|bears) all risk|relieves? (?:the )?contractor|(?:is|are) subject to|acknowledges|"
    r"guarantees that|warrants that|"
    r"(?:is|are) liable|(?:is|are) not (?:permitted|allowed|acceptable)|(?:is|are) as fully responsible)\b",
    _I,
)
DESIRE = re.compile(
    r"\b(should|encouraged|encourages|preferred|prefers|desirable|recommended|is optional|are optional|is not desired|"
    r"(?:is|are) (?:advised|cautioned) to)\b",
    _I,
)
PARTY = (
    r"(?:offerors?|quoters?|contractors?|sub-?contractors?|vendors?|bidders?|proposers?|respondents?|consultants?|"
    r"applicants?|suppliers?|firms?|providers?|you|your (?:firm|company|proposal|response)|staff|personnel|"
    r"successful \w+|selected \w+|awardees?|(?:the )?companies?)"
)
PARTY_WILL = re.compile(
    rf"\b{PARTY}(?:['’]s)?\b(?:\s+\w+){{0,5}}?\s+will\s+(?!be\s+(?:placed|contacted|selected|notified|evaluated|ranked|invited|informed|considered for)\b)"
    r"(?!not receive|have an opportunity|have primary|receive\b|face\b)",
    _I,
)
WILL = re.compile(r"\bwill\s+", _I)
PARTY_WILL_AFTER = re.compile(  # what follows "will" in a sentence that obliges (not the buyer's acts on it)
    r"(?!(?:not\s+|also\s+|only\s+)?be\b)(?!not receive|have an opportunity|have primary|receive\b|face\b|result\b|"
    r"include\b|consist\b|govern\b|apply\b|prevail\b|control\b|decide\b|(?:still\s+)?proceed\b)",
    _I,
)
HANDED_OVER = re.compile(  # "These certified copies will be sent to the County …", "… will not be made by a Contractor …"
    r"\bwill\s+(?:not\s+)?be\s+(?:sent|routed|delivered|forwarded|submitted|furnished|mailed|made)\s+(?:\w+\s+){0,2}?"
    rf"(?:to\s+the\s+(?:county|government|state|city|agency|owner|procurement agent|purchasing agent|contracting officer|"
    rf"project manager)|by\s+(?:a|an|the|any)\s+{PARTY})\b",
    _I,
)
PARTY_MAY = re.compile(
    rf"\b{PARTY}\b(?:\s+\w+){{0,2}}?\s+(?:may|can)\s+(?:also\s+)?(?:submit|provide|include|propose|attach|"
    r"comment|take exception|request|offer|use|subcontract|register|upload|contact|elect|bid|protest)",
    _I,
)
PURPOSE = re.compile(r"\b(?:goals?|purpose|objectives?|intent|mission|aim|scope|intention|function|role)\b", _I)
NO_LONGER = re.compile(r"\b(?:is|are)\s+(?:not|no longer)\s+(?:required|needed|necessary)\b", _I)
NEGATED = re.compile(  # "Applicants need not be proficient nor are they expected to …": nobody is obliged
    r"\bneed not\b|\bnor (?:are|is) (?:they|it|\w+) (?:expected|required)\b|\b(?:is|are) not expected\b", _I
)
NOT_REQUIRED = re.compile(
    r"\b(?:is|are)\s+(?:not|no longer)\s+required\b|\b(?:if|when|as|where|which|that|whenever)\s+(?:\w+\s+){0,3}"
    r"(?:is|are|be)\s+required\b|\bas required by\b|(?<!\bis )(?<!\bare )(?<!\bbe )(?<!\bbeing )\brequired by\b",
    _I,
)
RESPONSE_WILL = re.compile(
    r"\b(?:proposals?|quotes?|quotations?|bids?|applications?|submissions?|offers?|responses?)\b[^.]{0,40}?\bwill\s+"
    r"(?:only\s+)?(?:not\s+)?be\s+(?:accepted|considered|rejected|disqualified|deemed|eliminated|returned)",
    _I,
)
ONLY_ACCEPTED = re.compile(  # a rule, not a consequence: "HTDC will only evaluate one application per company"
    r"\bwill only be (?:accepted|considered)\b|\bwill only (?:accept|consider|evaluate|review)\b", _I
)
CONSEQUENCE = re.compile(
    r"\b(?:will|shall|may)\s+(?:not\s+)?(?:be\s+)?(?:immediately\s+|automatically\s+)?(?:accepted|considered|rejected|disqualified|"
    r"eliminated|deemed non-?responsive|returned unopened)\b",
    _I,
)
REJECTS = re.compile(
    r"\bwill\s+(?:reject|disqualify|not\s+(?:accept|consider))\s+(?:any|all|the|such|an?)\s+(?:\w+\s+){0,2}?"
    r"(?:applications?|proposals?|bids?|quotes?|offers?|submissions?|responses?)\b",
    _I,
)
AWARD_TO = re.compile(
    r"\b(?:awards?|contracts?)\s+(?:will|shall|may)\s+be\s+(?:made|awarded)\s+to\b|\baward\w*\b[^.]{0,40}\bto the "
    r"(?:lowest|highest|responsible|responsive|qualified)\b|\b(?:will|shall) be evaluated (?:on|based|against|for|using)\b",
    _I,
)
DEADLINE_ROW = re.compile(
    r"\b(?:deadline|due date|closing date|date for submission|submittal deadline|proposals? due|questions? due)\b", _I
)
SCHEDULE_ROW_WORDS = 20
BUYERS_ROW = re.compile(  # "State's Response to Written Questions … August 19, 2025": the buyer's own date
    r"^(?:the\s+)?(?:state|county|government|city|agency|department|owner)['’]s\b", _I
)
RUN_ON_WORDS = 50
TITLE_WORDS = 12  # a title block this long or longer (a shorter run of capitals is a heading)
CONSEQUENCE_CUE = (
    "consequence"  # "… will not be accepted": a requirement only where no sentence beside it says the rule
)
MAY_SUBMIT = re.compile(r"\bmay (?:also )?(?:be )?(?:submit|provid|includ|attach|comment|propos|upload)\w*", _I)
BUYER = re.compile(
    r"^(?:the\s+|this\s+)?(?:government|county|state|city|gsa|agency|purchasing agent|contracting officer|co\b|owner|"
    r"district|solicitation|rfp|rfq|"
    r"htdc|department|board|fcg|fcps|evaluation (?:committee|panel|team)|committee|procurement officer|buyer|"
    r"university|authority|commission|ordering activit\w+|ordering officials?|contracting officers?|(?-i:[A-Z]{2,6})\b)"
    r"(?:\s+\w+){0,3}?\s+(?:will|may|reserves|intends|shall|expects|anticipates|is not|does not|has|can|estimates|"
    r"realizes|recognizes|understands|believes|seeks|is seeking|is posting|cannot)\b"
    r"|^(?:the\s+)?(?:contracting|ordering)\s+(?:officers?|officials?|activit\w+)\s+(?:is|are)\s+encouraged\b",
    _I,
)
FRAMEWORK = re.compile(
    r"\bshall (?:be deemed|be construed|prevail|be governed|be interpreted|be of no effect|mean|have the meaning|"
    r"not be construed|survive|be void|take precedence|control)\b|\breserves? the right\b|\bin its sole discretion\b|"
    r"\b(?:is|are|be) (?:to be |meant to be )?understood\b|\bit is the \w+['’]s intent\b|"
    r"\bshall (?:not )?be (?:valid|binding)\b(?! for)|\bshall (?:not )?be (?:open to|a term of|determined)\b|"
    r"\bshall render\b|\bshall terminate\b|\bshall be final\b|\bsole relief\b|\bupon appeal\b|\bshall lie\b|"
    r"\bshall not (?:be affected|impose liability|preclude)\b|\bnothing (?:herein|in this \w+) shall\b|"
    r"\bmay not institute legal action until all statutory requirements\b|"  # a pointer to the statute's remedies
    r"^(?:reference|see|refer to)\s+(?:paragraph|section|special|attachment|appendix|exhibit|article)\b",
    _I,
)
IMPERATIVES = frozenset(
    "provide describe list submit include indicate identify explain demonstrate complete write ensure attach propose "
    "reference specify state detail discuss outline furnish allow save notify become address upload sign return "
    "enter place publish deliver prepare maintain comply submitted document present insert select confirm certify "
    "acknowledge obtain agree send register review develop handle recommend conduct perform assist support "
    "coordinate conform follow use establish report summarize summarise show supply check".split()
)
WORK_VERBS = frozenset("review develop handle recommend conduct perform assist support coordinate establish".split())
EVAL_WORDS = re.compile(
    r"\b(evaluat\w*|points?|scored?|scoring|rated|rating|weight\w*|factors?|sub-?factors?|criteri\w*|basis for award|"
    r"best value|trade-?off|pass/fail|relative importance|more important|most advantageous|award\w*|"
    r"price reasonableness|lowest (?:responsive|price))\b|\[\s*\d+\s*\]|\(\d+\s*points?\)",
    _I,
)
TERMS_WORDS = re.compile(
    r"\b(insurance|insure\w*|insurer\w*|indemnif\w*|hold harmless|harmless|invoic\w*|payments?|paid|warrant\w*|"
    r"licen[cs]\w*|terminat\w*|confidential\w*|liabilit\w*|liable|certif(?:y|ies|ication)\w*|laws?|statutes?|"
    r"ordinances?|regulations|tax\w*|audit\w*|copyright\w*|intellectual property|data rights|by submitting|"
    r"by executing|agrees?|assign\w*|sub-?contract\w*|subrogation|endorsement|deductible\w*|clauses?|"
    r"price (?:increase|reduction)|prices?|fees?|discount\w*|rates?|deliver(?:y|ies)|shipments?|packing|"
    r"employment|discriminat\w*|news releases?|ada|records|retention|business associate|hipaa|disclos\w*|"
    r"(?:sole )?property of)\b",
    _I,
)
STRONG_TERMS = re.compile(  # the words of a legal undertaking or remedy: terms, whoever's subject
    r"\b(certif(?:y|ies)|represents|warrants|guarantees|protests?|appeals?|legal action|claims?|disputes|indemnif\w*|"
    r"enter into (?:a |an |the )?(?:[\w-]+ ){0,3}(?:contract|agreement)s?)\b",
    _I,
)
SUBMIT_WORDS = re.compile(
    r"\b(proposals?|quotes?|quotations?|bids?|applications?|submi\w*|responses?|offers?|resumes?|bios?|"
    r"attachments?|forms?|page limit\w*|pages?|words?|deadline|due|questions?|portal|e-?mail|envelope|"
    r"copies|volume|tab|signed|signature|references?|register\w*|addend\w*|pre-?qualifications?|qualifications?|"
    r"experience|readme|repository|prototype|url)\b",
    _I,
)
WORK_WORDS = re.compile(
    r"\b(perform\w*|services?|tasks?|deliverables?|staff\w*|personnel|on-?site|work\w*|project\w*|"
    r"support|maintain\w*|security|background checks?|replacement|key personnel|reports?)\b",
    _I,
)
BACKGROUND = re.compile(  # a heading of background: what is under it has no kind from it (nor from the part above)
    r"^(?:\W*(?:section\s+\w+\W+)?)(?:purpose|background|introduction|overview|definitions|glossary)\b", _I
)
SECTION_KINDS = (  # a heading's words → the kind of what is under it (first match, innermost heading first)
    (re.compile(r"evaluat|basis (?:for|of) award|^award\b|selection|criteria|scoring", _I), Kind.EVALUATION),
    (
        re.compile(
            r"instruction|submission|submittal|proposal (?:format|content|preparation|requirement)|application format|"
            r"format and content|compliance review|pre-?qualification|questions|cost proposal|technical proposal|"
            r"proposal(?<!request for proposal)|quote|supplemental information|experience|qualifications|references",
            _I,
        ),
        Kind.SUBMISSION,
    ),
    (
        re.compile(
            r"terms and conditions|clauses|insurance|invoic|payment|warrant|data rights|licen[cs]|indemn|ownership|pricing|"
            r"general conditions|special provisions|legal|certifications?",
            _I,
        ),
        Kind.TERMS,
    ),
    (
        re.compile(
            r"scope|statement of (?:work|objectives)|\bsow\b|\bpws\b|\bsoo\b|tasks?|deliverables|services|"
            r"technical requirements|staff|personnel|security|objective|performance|reporting",
            _I,
        ),
        Kind.WORK,
    ),
    (
        re.compile(
            r"terms|conditions|clauses|provisions|insurance|invoic|payment|warrant|data rights|license|contract|"
            r"indemn|legal|general|certification|compliance|ownership|teaming",
            _I,
        ),
        Kind.TERMS,
    ),
)


LAW_CITED = re.compile(r"^(?:chapter|title|§|section|hrs|code of|article)\s*[\d§]", _I)
CLAUSE_REF = re.compile(r"^(?:FAR|DFARS|GSAM|GSAR|HSAR|AFARS|DOSAR|AIDAR)\s+\d{2,3}\.\d")
PASS_FAIL = re.compile(r"\bpass/fail\b|\bpass or fail\b", _I)
EVAL_FACTOR = re.compile(
    r"\b(evaluat\w*|points?|weight\w*|factors?|sub-?factors?|criteri\w*|basis for award|best value|trade-?off|"
    r"pass/fail|relative importance|important|most advantageous|awards?|price reasonableness)\b",
    _I,
)
EVAL_CONTENT = re.compile(
    r"\b(factors?|sub-?factors?|criteri\w*|points?|weight\w*|importan\w*|best value|trade-?off|basis|lowest|highest|"
    r"price reasonableness|pass/fail|most advantageous|evaluated (?:on|based|against|for|using))\b",
    _I,
)
EVAL_PROCESS = re.compile(
    r"\b(conduct\w*|recommend\w*|negotiat\w*|cancel\w*|notif\w*|discussions|clarif\w*|review and evaluate|"
    r"will then|preliminary|protest\w*|arbitrary|capricious|relief)\b",
    _I,
)
EVAL_STATEMENT = re.compile(r"\b(?:will|shall|must|is|are)\b", _I)
RATING = re.compile(
    r"^(?:exceptional|outstanding|good|acceptable|marginal|unacceptable|non acceptable|satisfactory)\b", _I
)
LABEL = re.compile(r"^[A-Z][\w /&-]{0,40}:\s+")  # "Description: Write …"


MODALS = frozenset({"shall", "must", "will", "should", "required", "may"})  # cues whose subject is checked
PARTY_CUES = frozenset({"is subject to", "are subject to", "prohibited"})  # cues that oblige only a party named before
MODAL = re.compile(r"\b(?:shall|must|will|should|may|is required|are required)\b", _I)
LONG_LEAD = 110  # a longer lead-in holds an obligation of its own beside introducing its items
LIST_REF = re.compile(r"\b(?:the following|as follows|listed below|set forth below|stated below|below)\b", _I)
LIST_END = re.compile(  # a sentence whose object is the list after it: "… shall consist of the following:"
    r"\b(?:the following(?:\s+[\w-]+)?(?:\s+(?:information|[\w-]+s))?|as follows|"
    r"(?:is|are) (?:listed|set forth|shown|described) below)\s*[:.]$",
    _I,
)
JOINED_VERB = re.compile(
    r"\band\s+(?:must\s+|shall\s+|should\s+)?(?:also\s+)?(?:address|respond to|provide|include|describe|submit|"
    r"contain|complete|list|discuss)\s+(?:\w+\s+){0,2}?(?:the following|as follows|below)\b",
    _I,
)
NOT_A_VERB = frozenset("at within in by either also as on for with under from".split())
DELIVERABLE = re.compile(
    r"\b(proposals?|quotes?|quotations?|bids?|responses?|submissions?|applications?|attachments?|invoices?|"
    r"resumes?|bios?|repositor\w+|prototypes?|rates?|prices?|pricing|fees?|deliverables?|reports?|staff|"
    r"personnel|employees?|work|services?|insurance|certificates?|licen[cs]es?|forms?|documents?|cop(?:y|ies)|"
    r"questions?|offers?|descriptions?|readme|contents?|materials?|shipments?|deliveries|precautions?|"
    r"guarantees?|warranties|policies|records)\b",
    _I,
)
BUYER_WORDS = re.compile(
    r"\b(county|government|state|city|purchasing agent|contracting officer|public bod\w+|decision|payment|"
    r"award|notice|agency|procurement agent|board|department|management|adjustment|sac|committee|"
    r"panel|evaluators?|"
    r"inspection|acceptance|selection|negotiations?|evaluation|purchase (?:order|requisition)s?|proceedings|orders?|"
    r"ordering|officials?|officers?|designee|contracting officers?|cancellation|terms and conditions|delivery terms|"
    r"BPAs?)(?:['’]s)?"
    r"(?:\s+(?:also|then|either|not|only|further|reasonably|at its discretion))?[\s,]*$",
    _I,
)  # the subject ends with the buyer ("For staff augmentation the County will …"), not "County users shall …"
BUYER_NAME = re.compile(
    r"\b(?:county|government|state|city|purchasing agent|contracting officers?|procurement (?:agent|officer)|agency|"
    r"department|board|committee|panel|evaluators?|ordering (?:activit\w+|officials?))\b",
    _I,
)
BENEFIT = re.compile(
    r"\b(?:shall|will|may)\s+(?:not\s+)?be\s+(?:notified|afforded|compensated|paid|reimbursed|released|"
    r"informed|liable in damages)\b|\b(?:shall|will|may)\s+be\s+entitled\b|\bin no event shall\b",
    _I,
)
BY_BUYER = re.compile(
    r"\b(?:shall|will)\s+(?:\w+\s+){0,3}?(?:be\s+)?(?:made|decided|determined|issued|given|conducted|provided|furnished)\s+"
    r"by\s+the\s+(?:county|government|state|city|purchasing agent|contracting officer|procurement officer|agency|"
    r"owner|department|board)\b",
    _I,
)
MUST_ACTIVE = re.compile(rf"\b{PARTY}\s+(?:shall|must)\s+(?!not\s+be\b|be\b)", _I)
DEFINITION = re.compile(
    r"^[A-Z][\w /()’'-]{1,50}:\s+(?:relates to|means|refers to|is defined as)\b|[\"“][^\"”]{2,40}[\"”]\s+means\b"
)
BUYER_REQUIRES = re.compile(  # what the buyer requires of the contractor is the contractor's obligation
    r"\b(?:county|government|state|city|agency|owner|department)\s+(?:requires|may (?:\w+ly\s+)?require|may need)\b"
    r"(?!\s+(?:that the county|the county))"  # not the buyer's process: "… may require Applicant to submit answers"
    r"(?!\s+(?:the\s+)?\w+\s+to\s+(?:submit|answer|provide|clarify|furnish)\b)",
    _I,
)
STATUS_NOTE = re.compile(  # a status and a pointer only: a note on the item above, not a requirement of its own
    r"^(?:required|optional|mandatory|n/?a)\b[,:]?\s+(?:see\s+)?(?:section|attachment|appendix|exhibit|§)\s*[\w.()]+\.?$",
    _I,
)
EVERY = re.compile(
    r"^\W*(?:all|any|each|every)\s+((?:[\w-]+\s+){0,1}[\w-]+)\s+(?:developed|created|produced|written|made)\b", _I
)
FINAL = re.compile(r"\s+(?:be|remain)\s+(?:final|conclusive|binding upon the county)", _I)


SUBJECT_END = re.compile(
    r"\b(?:shall|must|will|should|may|can|is required|are required|agrees?|is responsible|are responsible|is expected|"
    r"are expected|is to|are to)\b",
    _I,
)
OFFEROR = re.compile(r"\b(?:offerors?|quoters?|bidders?|applicants?|proposers?|respondents?)\b", _I)
RESPONSE_SUBJECT = re.compile(
    r"\b(?:proposals?|quotes?|quotations?|bids?|applications?|submissions?|responses?|offers?|resumes?|bios?)\b", _I
)
RESPONSE_VERB = re.compile(r"\b(?:describe|demonstrate|submit|include|indicate|explain|address|detail|propos)\w*", _I)
CONTRACTOR = re.compile(r"\b(?:contractors?|sub-?contractors?|vendors?|consultants?|suppliers?|providers?)\b", _I)


@dataclass(frozen=True)
class Verdict:
    requirement: bool
    mandatory: bool = True
    why: str = ""


def _row_words(text: str) -> int:
    """A schedule row's words, its parenthetical asides left out ("(applications will be open …)")."""
    return len(re.sub(r"\([^()]*\)", " ", text).split())


def _first_word(text: str) -> str:
    m = re.match(r"^[\W\d]*([A-Za-z]+)", text)
    return m.group(1).lower() if m else ""


def _buyers_lead(lead_in: str, cue: Verdict) -> bool:
    """A lead-in that obliges nobody on the offeror's side ("The Purchasing Agent shall have the
    authority to suspend … for the causes stated below:"): its items do not inherit its cue."""
    return bool(BUYER.match(lead_in)) or cue.why in MODALS and not _obliges_a_party(lead_in)


def _own_obligation(text: str) -> bool:
    """Whether a lead-in obliges beside introducing its items: two cues ("… must send an invoice,
    which must include the following:"), a verb of its own joined to the one that takes the list
    ("… should speak to procedures … and address the following:"), or, with no word pointing at
    the list, a long sentence whose cue governs a verb ("… are expected to perform their duties
    during … :"; not "Contractor must at its expense and within a reasonable time:")."""
    if len(MUST.findall(text)) + len(DESIRE.findall(text)) >= 2 or JOINED_VERB.search(text):
        return True
    if LIST_REF.search(text):
        return False
    cue = MUST.search(text) or DESIRE.search(text)
    after = text[cue.end() :].split()[:1] if cue else []
    return len(text) > LONG_LEAD and not (after and after[0].lower() in NOT_A_VERB)


def _title_block(unit: Unit) -> bool:
    """A cover's lines run together: no sentence end, lines of capitals and lines in ordinary case
    (a third to four fifths of its words in capitals: a legal advertisement's title block)."""
    words = unit.text.split()
    if unit.item or len(words) < TITLE_WORDS or unit.text.rstrip(')”"').endswith((".", ";", ":", "?", "!")):
        return False
    caps = sum(len(w.strip(".,:;()")) >= 2 and w.strip(".,:;()").isupper() for w in words)
    return len(words) / 3 <= caps <= 0.8 * len(words)  # wholly in capitals: a notice sentence, judged as one


def _conditional(text: str, cue: re.Match[str]) -> bool:
    """A cue that obliges nobody: "if travel is required", "is not required", "the purpose … is to"."""
    if cue.group(1).lower() in ("is to", "are to", "is not to", "are not to"):  # "The purpose … is to solicit …"
        return bool(PURPOSE.search(text[: cue.start()]))
    if cue.group(1).lower() != "required":
        return False
    return any(m.start() <= cue.start() < m.end() for m in NOT_REQUIRED.finditer(text))


def _side_will(text: str) -> bool:
    """An active "will" whose subject (its clause before "will": after an opening phrase's comma,
    before an aside's) names the offeror's side or what it delivers and not the buyer ("The price
    will never increase …", "The Contractor, in all … advertisements …, will state …"); a passive
    one ("Bids … will be opened …") is the buyer's act on what is delivered."""
    m = WILL.search(text)
    if m is None or PARTY_WILL_AFTER.match(text, m.end()) is None:
        return False
    clauses = [c for c in text[: m.start()].split(",") if c.strip()]
    clause = clauses[-1] if text[: m.start()].rstrip()[-1:] != "," or len(clauses) < 2 else clauses[0]
    named = re.search(rf"\b{PARTY}\b", clause, _I) or DELIVERABLE.search(clause)
    return bool(named) and not BUYER_NAME.search(clause) and not re.search(r"\b(?:we|our|us)\b", clause, _I)


def _cue(text: str) -> Verdict | None:
    """The obligation cue of one sentence: mandatory, desirable, or None."""
    if CONSEQUENCE.search(text) and not ONLY_ACCEPTED.search(text) and not PARTY_WILL.search(text):
        return Verdict(True, True, CONSEQUENCE_CUE)
    desire = DESIRE.search(text)
    must = next((m for m in MUST.finditer(text) if not _conditional(text, m)), None)
    if must and (not desire or must.start() < desire.start()):
        return Verdict(True, True, must.group(1).lower())
    if PARTY_WILL.search(text) or ONLY_ACCEPTED.search(text) or _side_will(text) or HANDED_OVER.search(text):
        return Verdict(True, True, "will")
    if RESPONSE_WILL.search(text) or CONSEQUENCE.search(text):
        return Verdict(True, True, CONSEQUENCE_CUE)
    if desire:
        return Verdict(True, False, desire.group(1).lower())
    if PARTY_MAY.search(text) or MAY_SUBMIT.search(text):
        return Verdict(True, False, "may")
    return None


def _obliges_a_party(text: str) -> bool:
    """Whether a shall / must / will sentence lands on the offeror's side: its subject (the words
    before the modal) names that side or what it submits or delivers, or it is active with no
    buyer in its subject ("Precaution shall be exercised …" has no subject party but obliges)."""
    m = MODAL.search(text)
    if m is None:
        return True
    subject = text[: m.start()]
    if MUST_ACTIVE.search(text):
        return True  # the party's own sentence, or a clause of it: "… a template that the contractor shall utilize"
    head = _subject_head(subject)
    if head is True:
        return True
    if head is False:
        return False
    every = EVERY.match(subject)
    if every and m.group(0).lower() in ("shall", "must") and not BUYER_WORDS.search(every.group(1) + " "):
        return True  # "All source code developed under a given task order must remain …": its head is the code
    if BUYER_WORDS.search(subject):
        return False
    after = text[m.end() :]
    if FINAL.match(after):
        return False
    return True


DISCOURSE = re.compile(
    r"^\W*(?:for example|for instance|in addition|in general|in short|however|therefore|further(?:more)?|also|"
    r"additionally|moreover|accordingly),\s*",
    _I,
)
LEADING = re.compile(  # a subject that opens with a phrase before its head noun: "For staff augmentation the County …"
    r"^\W*(?:for|in|after|upon|under|if|when|unless|during|with|at|once|where|whether|prior to|before|following)\b", _I
)


def _subject_head(subject: str) -> bool | None:
    """Whose sentence it is, by the head of its subject: True for the offeror's side (its party or
    what it delivers), False for the buyer, None when it cannot tell. After an opening phrase the
    head is the first one named after its comma, else the last one named ("After negotiations with
    each offeror, the County shall …", "For staff augmentation the County will …"); otherwise the
    offeror's side named anywhere in it. A label before a colon and a discourse marker ("For
    example,") are not part of it."""
    subject = DISCOURSE.sub("", LABEL.sub("", subject, count=1), count=1)

    def named(text: str) -> list[tuple[int, bool]]:
        return sorted(
            [(x.start(), True) for x in re.finditer(rf"\b{PARTY}\b", text, _I)]
            + [(x.start(), True) for x in DELIVERABLE.finditer(text)]
            + [(x.start(), False) for x in BUYER_NAME.finditer(text)]
        )

    if LEADING.match(subject):
        comma = subject.find(",")
        after = named(subject[comma + 1 :]) if comma >= 0 else []
        heads = after or named(subject)
        return (after[0] if after else heads[-1])[1] if heads else None
    return True if any(party for _, party in named(subject)) else None


def section_kind(headings: tuple[str, ...]) -> Kind | None:
    """The kind of the section a unit sits in, from its innermost heading that names one."""
    for heading in reversed(headings):
        if BACKGROUND.search(heading):
            return None
        for pattern, kind in SECTION_KINDS:
            if pattern.search(heading):
                return kind
    return None


def judge(unit: Unit, section: Kind | None) -> Verdict:
    """Whether ``unit`` is a requirement, and mandatory (see the module docstring)."""
    text = unit.text
    words = text.split()
    if len(text) < 4 or (len(words) < 4 or len(text) < 8) and not unit.lead_in and _first_word(text) not in IMPERATIVES:
        return Verdict(
            False
        )  # a few words alone ("Responsibility of Applicant.") only as a list item under its lead-in
    if len(words) > RUN_ON_WORDS and not unit.item and not text.rstrip(')”"').endswith((".", ";", ":", "?", "!")):
        return Verdict(False, why="a layout run, not a sentence")  # a cover page's lines run together
    if NEGATED.search(text):
        return Verdict(False, why="negated")
    if STATUS_NOTE.match(text):
        return Verdict(False, why="a status note")  # "i. Required, Section 3.03(a)" under its item
    if _title_block(unit):
        return Verdict(False, why="a title block")  # "… SEALED PROPOSALS FOR … WILL BE RECEIVED …" on a cover
    if FRAMEWORK.search(text) and not MUST_ACTIVE.search(text):  # "… submitted by a bidder shall be final": framework
        return Verdict(False, why="framework")
    if REJECTS.search(text):
        return Verdict(True, True, CONSEQUENCE_CUE)
    if AWARD_TO.search(text):
        return Verdict(True, True, "basis for award")
    if (
        DEADLINE_ROW.search(text)
        and _row_words(text) <= SCHEDULE_ROW_WORDS
        and not (BUYER.match(text) or BUYERS_ROW.match(text))
    ):
        return Verdict(True, True, "deadline")
    asks = BUYER_REQUIRES.search(text)
    if asks and not LIST_END.search(text):  # "… the County requires 24/7 access to all data …"
        return Verdict(True, " may " not in f" {asks.group(0).lower()} ", "the buyer requires")
    cue = _cue(text)
    if (unit.leads or LIST_END.search(text)) and not _own_obligation(text):
        return Verdict(False, why="lead-in")  # its items are the requirements
    if cue is not None and cue.why in MODALS and not _obliges_a_party(text) and not ONLY_ACCEPTED.search(text):
        return Verdict(False, why="no party")
    if cue is not None and cue.why in PARTY_CUES and _subject_head(text[: MUST.search(text).start()]) is not True:
        return Verdict(False, why="no party")  # "Automatic contract renewals are prohibited", "Budget is subject to …"
    if cue is not None and (BENEFIT.search(text) or BY_BUYER.search(text)) and not MUST_ACTIVE.search(text):
        return Verdict(False, why="the party receives")  # "… shall be notified", "… shall be decided by the County"
    if DEFINITION.search(text):
        return Verdict(False, why="definition")
    buyer = BUYER.match(text)
    if (
        buyer
        and not ONLY_ACCEPTED.search(text)
        and not re.search(rf"\b{PARTY}\b[^.]{{0,40}}\b(?:shall|must|is required|are required)\b", text, _I)
    ):
        if section is Kind.EVALUATION and EVAL_CONTENT.search(text) and not EVAL_PROCESS.search(text):
            return Verdict(True, True, "evaluation")  # what the buyer evaluates, not who does it or how it proceeds
        return Verdict(False, why="buyer")
    if cue is not None:
        return cue
    if CLAUSE_REF.match(text):
        return Verdict(True, True, "clause")
    if PASS_FAIL.search(text):
        return Verdict(True, True, "pass/fail")
    if section is Kind.EVALUATION and EVAL_FACTOR.search(text) and EVAL_STATEMENT.search(text):
        if not RATING.match(text) and not EVAL_PROCESS.search(text):
            return Verdict(True, True, "evaluation")
    bare = re.sub(
        r"^(?:if (?:none|not|so|applicable|yes|no),\s*(?:so\s+)?)", "", LABEL.sub("", text, count=1), flags=_I
    )
    first = _first_word(re.sub(r"^(?:\w+ly|please)\s+", "", bare, flags=_I))  # "If none, so state."
    possessive = re.match(r"^[\W\d]*[A-Za-z]+['’]s\b", bare)  # "State's Response to …" is no imperative
    if first in IMPERATIVES and not possessive and not text.endswith("?") and len(words) >= 3:
        if unit.item or section in (Kind.SUBMISSION, Kind.WORK) or first not in WORK_VERBS:
            return Verdict(True, True, "imperative")
    if unit.lead_in and not NO_LONGER.search(text):  # "… Status 294 is no longer required." under "… complete:"
        lead = _cue(unit.lead_in)
        if lead is not None and not _buyers_lead(unit.lead_in, lead):
            return Verdict(True, lead.mandatory, "lead-in")
        if section is Kind.EVALUATION or EVAL_WORDS.search(unit.lead_in):
            return Verdict(True, True, "criterion")
        if section is Kind.SUBMISSION and unit.item:
            return Verdict(True, True, "listed content")
    if section is Kind.EVALUATION and re.search(r"\[\s*\d+\s*\]|\(\d+\s*points?\)|\b\d+\s*points\b", text, _I):
        return Verdict(True, True, "criterion")
    return Verdict(False)


PRICE = re.compile(r"\b(?:costs?|rates?|prices?|pricing)\b", _I)
CONTACT_RULE = re.compile(
    r"\b(?:contact|communications?)\b[^.]{0,80}?\b(?:members?|officials?|committee|sac|evaluators?|procurement)\b", _I
)
SOLICITING = re.compile(r"\b(?:solicitation|rfp|rfq|ifb|review|request\w*|discrepanc\w*|name)\b", _I)


def _kind_by_subject(text: str, section: Kind | None) -> Kind | None:
    """The kind the subject of an obliging sentence tells: the offeror or its proposal → what to
    submit (unless the sentence is about legal or commercial terms); the contractor → terms when
    the sentence names them, else work."""
    m = SUBJECT_END.search(text)
    if m is None:
        return None
    subject = text[: m.start()]
    terms = len(TERMS_WORDS.findall(text))
    if OFFEROR.search(subject) or RESPONSE_SUBJECT.search(subject):
        if section is Kind.WORK and not RESPONSE_SUBJECT.search(subject) and not RESPONSE_VERB.search(text):
            return Kind.WORK  # "The selected applicants will provide …" in the scope of work
        if section is Kind.TERMS and not (
            SUBMIT_WORDS.search(text) or SOLICITING.search(text) or RESPONSE_VERB.search(text)
        ):
            return (
                Kind.TERMS
            )  # a condition of the contract on the bidder ("The bidder must abide by … the specifications")
        return Kind.TERMS if terms >= 2 else Kind.SUBMISSION
    if CONTRACTOR.search(subject):
        if not terms and re.search(r"\breports\b|\b(?:a|an|the)\s+(?:[\w-]+\s+){0,4}?report\b", text, _I):
            return Kind.WORK  # "The Contractor(s) must submit to the Project Manager, monthly statistical reports …"
        if terms:
            return Kind.TERMS
        if section is Kind.TERMS:
            return Kind.TERMS  # a clause of the contract about the work is still a clause
        return Kind.WORK if section in (Kind.WORK, None) or WORK_WORDS.search(text) else section
    return None


DATA_RIGHTS = re.compile(
    r"\b(?:become|becomes|remain|remains|is|are) (?:the )?(?:sole )?property of\b|\bdata rights\b|"
    r"\b(?:full |direct )?access to (?:that|the|its|all|county|government) data\b",
    _I,
)
STAFF = re.compile(r"\b(?:personnel|staff|professionals?|employees?)\b", _I)
STAFF_PRACTICE = re.compile(r"\b(?:criminal history|background (?:check|investigation)s?|security clearances?)\b", _I)
PROVIDE_STAFF = re.compile(
    r"^\s*(?:provide|furnish|supply|assign)\s+(?:\w+\s+){0,2}?(?:staff|personnel|professionals)\b", _I
)
NAMED_IN_RESPONSE = re.compile(r"\b(?:identif\w*|listed|list|describ\w*|indicat\w*|includ\w*|submit\w*|show\w*)\b", _I)


def _staffing(text: str) -> bool:
    """A personnel practice during performance (work), not what the response says of them: the
    staff's background checks, or an obligation on the staff (its subject) or to provide staff,
    whose predicate does not ask the response to name or describe them."""
    if STAFF_PRACTICE.search(text):
        return True
    if len(TERMS_WORDS.findall(text)) >= 2:
        return False  # "… Liability insurance … to protect the Contractor …": terms
    m = SUBJECT_END.search(text)
    if (
        m is None
        or re.search(r"\b(?:that|propos\w*)\b", text[: m.start()], _I)
        or RESPONSE_SUBJECT.search(text[: m.start()])
    ):
        return False  # "Assurance that the selected staff …", "Support personnel proposed …", "The … resumes …"
    predicate = re.sub(r"^\s*(?:be\s+|have\s+)?", "", text[m.end() :])
    if NAMED_IN_RESPONSE.search(text[m.end() :]):
        return False
    return bool(STAFF.search(text[: m.start()]) and not LABEL.match(text)) or bool(PROVIDE_STAFF.match(predicate))


def kind_of(unit: Unit, section: Kind | None) -> Kind:
    """The kind of a requirement (see the module docstring)."""
    text = unit.text if not unit.lead_in else f"{unit.lead_in} {unit.text}"
    evaluates = any(not m.group(0).lower().startswith("award") for m in EVAL_WORDS.finditer(text))
    if section is Kind.EVALUATION and (evaluates or unit.item) or AWARD_TO.search(unit.text):
        return Kind.EVALUATION
    if unit.lead_in and re.search(r"\b(?:criteria|factors|points)\b", unit.lead_in, _I):
        return Kind.EVALUATION
    if (
        DEADLINE_ROW.search(unit.text)
        and _row_words(unit.text) <= SCHEDULE_ROW_WORDS
        or ONLY_ACCEPTED.search(unit.text)
    ):
        return Kind.SUBMISSION  # a schedule's deadline row; what the buyer will only accept
    if unit.item and LAW_CITED.match(unit.text):
        return Kind.TERMS  # "Chapter 393, prepaid health care;" under "… shall comply with …": a law to comply with
    if re.search(r"\bby (?:submitting|executing|signing)\b", text, _I):
        return Kind.TERMS
    if unit.lead_in and re.search(r"\bagrees?\b", unit.lead_in, _I):
        return Kind.TERMS  # "Contractor agrees to: a) …"
    if CONTACT_RULE.search(unit.text):
        return Kind.SUBMISSION  # whom the offeror may contact while the solicitation is open
    if section is not Kind.WORK and STRONG_TERMS.search(unit.text):
        return Kind.TERMS  # "Each bidder … shall certify …", "A protest shall be submitted …"
    if DATA_RIGHTS.search(unit.text):
        return Kind.TERMS  # who owns or may reach the data and work products: data rights
    if _staffing(unit.text):
        return Kind.WORK  # personnel and security practices during performance, wherever they are asked
    cue = MUST.search(unit.text) or SUBJECT_END.search(unit.text)
    if section is Kind.SUBMISSION and cue and PRICE.search(unit.text[: cue.start()]):
        return Kind.SUBMISSION  # "Fully loaded rates shall include …" in the cost proposal's instructions
    by_subject = _kind_by_subject(unit.text, section)
    if by_subject is None and unit.lead_in:
        by_subject = _kind_by_subject(unit.lead_in + " " + unit.text, section)
    if by_subject is not None:
        return by_subject
    scores = {
        Kind.EVALUATION: 2 * len(EVAL_WORDS.findall(unit.text)),
        Kind.TERMS: 2 * len(TERMS_WORDS.findall(unit.text)),
        Kind.SUBMISSION: 2 * len(SUBMIT_WORDS.findall(unit.text)),
        Kind.WORK: 2 * len(WORK_WORDS.findall(unit.text)),
    }
    if re.search(r"\b(?:offerors?|quoters?|bidders?|applicants?|proposers?|respondents?)\b", text, _I):
        scores[Kind.SUBMISSION] += 2
    if re.search(r"\bcontractors?\b", text, _I):
        scores[Kind.TERMS] += 1
        scores[Kind.WORK] += 1
    if section is not None:
        scores[section] += 3
    if not any(scores.values()):
        return Kind.WORK  # nothing telling: an obligation on the thing delivered ("Any solution must fail over …")
    return max(scores, key=lambda k: (scores[k], k is section))


__all__ = ["Verdict", "judge", "kind_of", "section_kind"]
