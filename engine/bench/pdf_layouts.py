"""More PDF families of ``bench pdf-families`` (#55), drawn like engine/bench/pdf_families.py's: the
layouts that went unmeasured, each question recorded by the generator as it draws it.

- ``web form printout``: a web form printed by a browser (the CCS RM6264's kind): the date and the
  form's title at each page's top, its address and "page / pages" at its foot; eight questions, each
  a bold label (numbered "12." or not, some with "(required)" after it, which is no part of the
  question), then its options one a line (radios drawn round, "○" or "◯" or "( )" written before the
  label, "☐" or drawn squares) or an empty answer box; three of them have a guidance panel ("Guidance",
  "Help", "Hinweis") whose words are no part of the question: to its RIGHT, level with its label
  (the label and a rule over it, a stroked box or a shaded panel), or BELOW its options, shaded.
  Its options run onto the next page (the fourth question's cut after its second option) or the
  page breaks between questions. In English or German. Truth: a question per label, its text the
  label's words without "(required)", its ID its number (or none), its choices the option labels
  (none for an answer box).
- ``unnumbered questions, two columns`` / ``questions in three columns``: the eight questions set in
  two or three columns under the title and the instructions (across the page), each a label ending
  with "?" or ":" and an answer box or a line under it, or (three columns) "☐ Yes ☐ No" under it;
  unnumbered, or (three columns) numbered "1." or not; in English, German, French or Japanese
  ("？", "："). Truth: a question per label, its text without a closing ":" / "：".
- ``Japanese checklist``: a numbered checklist in Japanese: numbered with full-width digits ("１．",
  "（１）", "１．１"), statements ending with "。" or questions ending with "？", its marks "□はい　□いいえ",
  drawn squares before the labels, or "はい／いいえ" to circle, beside the question's first line or
  under it; one page or two. Truth: a question per number, its ID the number in ASCII digits.
- ``two-row header, row broken`` (ruled or aligned): an option table whose header is two rows deep
  ("Response" over the option labels), a row broken across the page break, under the header repeated
  or not: pdf_families' option table with those two axes fixed.
- ``web form printout, panels without a label`` (what the reader did not meet): the web form printout
  whose guidance panels have no label (their guidance lines alone, beside under a rule, boxed or shaded,
  or below, shaded), or are labelled "Note:" ("Anmerkung:") on a line of their own, or start "Note: …"
  with the guidance on the same line. Truth as the web form's.
- ``questions in three unequal columns``: the three-column page with columns of widths 2 : 1 : 1 or
  1 : 1 : 2 (so that parting it in two at the wide column's edge gives two sides of like width: a
  two-column split that looks right and is not). Truth as the three columns'.
"""

from __future__ import annotations

import unicodedata

import pymupdf

from engine.bench.pdf_drawing import (
    BOX_FONT,
    LANGUAGES,
    LAYOUTS,
    LINE,
    MARGIN,
    MORE_LAYOUTS,
    ROWS,
    SIZE,
    Sheet,
    Variant,
    _axis,
    _japanese,
    _square,
    _wrap,
    _write,
)

WEB, TWO, THREE, JAPANESE = LAYOUTS[:4]  # the two-row header tables: pdf_families' option table
PANELS, UNEQUAL = MORE_LAYOUTS

_EN, _DE, _FR, _JA = LANGUAGES

# the web form's eight questions: (text, options or () for an answer box), per language
WEB_QUESTIONS = {
    "en": (
        ("Does your organisation hold Cyber Essentials certification?", ("Yes", "No")),
        ("Please provide the registered name of your organisation.", ()),
        (
            "Please confirm the organisation type.",
            ("Public limited company", "Private limited company", "Partnership", "Sole trader"),
        ),
        (
            "Please select the region in which your organisation is able to deliver the services.",
            ("North East", "North West", "London", "South West"),
        ),
        ("Please provide the date of your last security audit.", ()),
        ("Has your organisation been convicted of an offence listed in the guidance?", ("Yes", "No")),
        ("Please describe your approach to quality management.", ()),
        ("Do you agree to the terms and conditions of this agreement?", ("Yes", "No", "Not Applicable")),
    ),
    "de": (
        ("Verfügt Ihr Unternehmen über eine Zertifizierung nach ISO 27001?", ("Ja", "Nein")),
        ("Bitte geben Sie den eingetragenen Namen Ihres Unternehmens an.", ()),
        ("Bitte bestätigen Sie die Rechtsform Ihres Unternehmens.", ("GmbH", "AG", "KG", "Einzelunternehmen")),
        (
            "Bitte wählen Sie die Region, in der Ihr Unternehmen die Leistungen erbringen kann.",
            ("Nord", "Süd", "Ost", "West"),
        ),
        ("Bitte geben Sie das Datum Ihres letzten Sicherheitsaudits an.", ()),
        ("Wurde Ihr Unternehmen wegen einer der genannten Straftaten verurteilt?", ("Ja", "Nein")),
        ("Beschreiben Sie Ihr Vorgehen beim Qualitätsmanagement.", ()),
        ("Stimmen Sie den Vertragsbedingungen dieser Vereinbarung zu?", ("Ja", "Nein", "Nicht zutreffend")),
    ),
}
WEB_TEXT = {
    "en": (
        "Registration questionnaire",
        "If you cannot provide evidence that is acceptable to the buyer, you will be excluded from further "
        "participation in this procurement.",
        "(required)",
    ),
    "de": (
        "Registrierungsfragebogen",
        "Wenn Sie keinen ausreichenden Nachweis erbringen können, werden Sie vom weiteren Verfahren ausgeschlossen.",
        "(Pflichtfeld)",
    ),
}
SIDEBAR_LABELS = {"en": ("Guidance", "Help"), "de": ("Hinweis",)}
GUIDED = (0, 2, 5)  # the questions with a guidance panel
WEB_NUMBERING = ("numbered", "unnumbered")
WEB_MARKS = ("drawn radios", "○", "◯", "( )", "☐", "drawn squares")
SIDEBARS = ("beside, label and rule", "beside, boxed", "beside, shaded", "below, shaded")
WEB_BREAKS = ("inside options", "between questions")
REQUIRED = ("none", "(required)")
PANEL_LABELS = ("none", "Note", "Note: inline")  # the panels of PANELS: no label, "Note:" alone, "Note: …"
NOTE = {"en": "Note:", "de": "Anmerkung:"}
WIDTHS = ("2:1:1", "1:1:2")  # the columns of UNEQUAL
# the columns families
LABELS = {
    "en": (
        "Name of the provider:",
        "Address of the registered office:",
        "Name of the contact person:",
        "Telephone number of the contact person:",
        "Number of employees:",
        "Annual turnover in the last financial year:",
        "Date of the last external audit:",
        "Name of the certification body:",
    ),
    "de": (
        "Name des Anbieters:",
        "Anschrift des eingetragenen Sitzes:",
        "Name der Kontaktperson:",
        "Telefonnummer der Kontaktperson:",
        "Anzahl der Beschäftigten:",
        "Jahresumsatz im letzten Geschäftsjahr:",
        "Datum des letzten externen Audits:",
        "Name der Zertifizierungsstelle:",
    ),
    "fr": (
        "Nom du prestataire :",
        "Adresse du siège social :",
        "Nom de la personne à contacter :",
        "Téléphone de la personne à contacter :",
        "Nombre de salariés :",
        "Chiffre d'affaires du dernier exercice :",
        "Date du dernier audit externe :",
        "Nom de l'organisme de certification :",
    ),
    "ja": (
        "事業者の名称：",
        "登記上の所在地：",
        "担当者の氏名：",
        "担当者の電話番号：",
        "従業員数：",
        "直近の事業年度の売上高：",
        "直近の外部監査の実施日：",
        "認証機関の名称：",
    ),
}
ENDINGS = ("?", ":")
COLUMN_ANSWERS = ("box", "line")
THREE_ANSWERS = ("box", "line", "yes / no")
COLUMN_NUMBERING = ("unnumbered", "numbered")
# the Japanese checklist
JA_NUMBERS = ("{wide}．", "（{wide}）", "１．{wide}")
JA_MARKS = ("□ glyph", "drawn squares", "words")
JA_YES_NO = ("はい", "いいえ")


def layout_variants(family: str, count: int) -> list[Variant]:
    """The first ``count`` variants of a family of this module (each axis by pdf_families' rule)."""

    def axis(name: str, values) -> list:
        return _axis(family, name, values, count)

    if family in (WEB, PANELS):
        lang = axis("language", (_EN, _DE))
        axes = {
            "numbering": axis("numbering", WEB_NUMBERING),
            "marks": axis("marks", WEB_MARKS),
            "sidebar": axis("sidebar", SIDEBARS),
            "break": axis("break", WEB_BREAKS),
            "required": axis("required", REQUIRED),
        }
        if family == PANELS:
            axes["panel label"] = axis("panel label", PANEL_LABELS)
    elif family == JAPANESE:
        lang = [_JA] * count
        axes = {
            "numbering": axis("numbering", JA_NUMBERS),
            "marks": axis("marks", JA_MARKS),
            "marks place": axis("place", ("beside", "below")),
            "wording": axis("wording", ("statement", "question")),
            "pages": axis("paging", ("one page", "two pages")),
        }
    else:
        lang = axis("language", LANGUAGES)
        axes = {
            "ending": axis("ending", ENDINGS),
            "answer": axis("answer", THREE_ANSWERS if family in (THREE, UNEQUAL) else COLUMN_ANSWERS),
            "numbering": axis("numbering", COLUMN_NUMBERING if family in (THREE, UNEQUAL) else ("unnumbered",)),
            "orientation": axis("orientation", ("portrait", "landscape")),
        }
        if family == UNEQUAL:
            axes["widths"] = axis("widths", WIDTHS)
    return [
        Variant(
            family,
            lang[i],
            (),
            "",
            1,
            "",
            "",
            "",
            axes.get("orientation", ["portrait"] * count)[i],
            layout=tuple((k, v[i]) for k, v in axes.items()),
        )
        for i in range(count)
    ]


def draw_layout(s: Sheet) -> list[dict]:
    """Draw ``s.variant`` (a family of this module but the broken tables) from ``s.y``; its truth."""
    family = s.variant.family
    if family in (WEB, PANELS):
        return _draw_web(s)
    if family == JAPANESE:
        return _draw_japanese(s)
    return _draw_columns(s, 3 if family in (THREE, UNEQUAL) else 2)


def _bold(page: pymupdf.Page, x: float, y: float, text: str, size: float = SIZE) -> None:
    if _japanese(text):
        _write(page, x, y, text, size)
    else:
        page.insert_text((x, y), text, fontsize=size, fontname="hebo")


def _glyph(page: pymupdf.Page, x: float, y: float, text: str, size: float = 9.0) -> None:
    page.insert_text((x, y), text, fontsize=size, fontname="dejavu", fontfile=str(BOX_FONT))


def _web_page(s: Sheet) -> pymupdf.Page:
    """A new page of a web form printed: the date and the form's title at its top (no question)."""
    w, h = pymupdf.paper_size("a4")
    s.page = s.doc.new_page(width=w, height=h)
    _write(s.page, 20, 18, "03/12/2026, 10:15", size=7)
    _write(s.page, w / 2 - 40, 18, WEB_TEXT[s.variant.language.code][0], size=7)
    s.y = 45.0
    return s.page


def _web_footers(doc: pymupdf.Document) -> None:
    for page in doc:
        h = page.rect.height
        _write(page, 20, h - 15, "https://www.contracts.example.gov.uk/dps/RM0000/questionnaire?id=4711", size=7)
        _write(page, page.rect.width - 45, h - 15, f"{page.number + 1}/{doc.page_count}", size=7)


def _draw_web(s: Sheet) -> list[dict]:
    """The web form's eight questions (see the module docstring) from ``s.y``; their truth."""
    v = s.variant
    lay = dict(v.layout)
    code = v.language.code
    _web_page(s)
    width = s.page.rect.width - 2 * MARGIN
    qwidth = 0.55 * width
    items: list[dict] = []
    for r, (text, options) in enumerate(WEB_QUESTIONS[code]):
        need = 30 + LINE * 2 + (len(options) * 20 if lay["break"] == "between questions" or r != 3 else 40)
        if s.y + need > s.page.rect.height - 60:
            _web_page(s)
        number = f"{r + 1}." if lay["numbering"] == "numbered" else ""
        label = text + (f" {WEB_TEXT[code][2]}" if lay["required"] != "none" and r % 2 == 0 else "")
        lines = _wrap(label, qwidth - 18)
        top = s.y
        if number:
            _bold(s.page, MARGIN, s.y + 9, number)
        for k, line in enumerate(lines):
            _bold(s.page, MARGIN + (18 if number else 0), s.y + 9 + k * LINE, line)
        item = {"page": s.page.number + 1, "id": number.rstrip("."), "text": text}
        if options:
            item["choices"] = list(options)
        items.append(item)
        s.y += LINE * len(lines) + 12
        beside = r in GUIDED and lay["sidebar"].startswith("beside")
        if beside:
            _sidebar(s, MARGIN + 0.62 * width, top, width * 0.38, lay["sidebar"], r)
        for k, option in enumerate(options):
            if r == 3 and k == 2 and lay["break"] == "inside options":
                _web_page(s)
            _option(s, lay["marks"], option)
        if not options:
            s.page.draw_rect(pymupdf.Rect(MARGIN, s.y, MARGIN + qwidth, s.y + 18), color=(0.4, 0.4, 0.4), width=0.8)
            s.y += 26
        if r in GUIDED and not beside:
            if s.y + 50 > s.page.rect.height - 60:
                _web_page(s)
            _sidebar(s, MARGIN, s.y, qwidth, lay["sidebar"], r)
        s.y = max(s.y, s.sidebar_end) + 20
    _web_footers(s.doc)
    return items


def _sidebar(s: Sheet, x: float, top: float, width: float, style: str, r: int) -> None:
    """A guidance panel at (``x``, ``top``): its label and two or three lines of guidance, under a
    rule (its label and a rule), in a stroked box or on a shaded panel; below the options it moves
    ``s.y`` on, beside the question ``s.sidebar_end`` (where it ends) only."""
    page, code = s.page, s.variant.language.code
    labels = SIDEBAR_LABELS[code]
    label = labels[r % len(labels)]
    labelled = dict(s.variant.layout).get("panel label", "label")  # PANELS: none, "Note:" alone, "Note: …"
    if labelled == "Note":
        label = NOTE[code]
    lines = _wrap(f"{NOTE[code]} {WEB_TEXT[code][1]}" if labelled == "Note: inline" else WEB_TEXT[code][1], width - 16)
    head = 0.0 if labelled in ("none", "Note: inline") else 13.0  # the label's line, where it has one
    height = 9 + head + LINE * len(lines) + 6
    panel = pymupdf.Rect(x, top, x + width, top + height)
    if style.endswith("shaded"):
        page.draw_rect(panel, color=None, fill=(0.92, 0.94, 0.97))
    elif style.endswith("boxed"):
        page.draw_rect(panel, color=(0.5, 0.5, 0.5), width=0.8)
    else:
        page.draw_line((x, top - 4), (x + width, top - 4), color=(0.1, 0.4, 0.7), width=3)
    if head:
        _bold(page, x + 6, top + 13, label, size=9)
    for k, line in enumerate(lines):
        _write(page, x + 6, top + 13 + head + k * LINE, line, size=7)
    if style.startswith("below"):
        s.y = top + height + 6
    else:
        s.sidebar_end = top + height


def _option(s: Sheet, marks: str, label: str) -> None:
    """One option on a line of its own: its mark, then its label."""
    page, x, y = s.page, MARGIN + 4, s.y + 9
    if marks == "drawn radios":
        page.draw_circle((x + 4, y - 3), 4.5, color=(0.3, 0.3, 0.3), width=0.8)
    elif marks == "drawn squares":
        _square(page, x, y)
    elif marks == "( )":
        _write(page, x, y, "( )")
    else:
        _glyph(page, x - 1, y, marks)
    _write(page, x + 16, y, label, size=9)
    s.y += 20


def _draw_columns(s: Sheet, n: int) -> list[dict]:
    """The title's instructions across the page, then the eight questions in ``n`` columns (three,
    three and two; four and four), each its label (numbered or not, "?" or ":"), an answer box or a
    line under it, or "☐ Yes ☐ No" (see the module docstring)."""
    v = s.variant
    lay = dict(v.layout)
    lang = v.language
    page = s.page
    width = page.rect.width - 2 * MARGIN
    gutter = 24.0
    shares = [int(k) for k in lay.get("widths", ":".join("1" * n)).split(":")]
    widths = [(width - gutter * (n - 1)) * k / sum(shares) for k in shares]
    lefts = [MARGIN + sum(widths[:k]) + gutter * k for k in range(n)]
    for b in lang.bullets:
        _write(page, MARGIN + 4, s.y + 8, "•")
        _write(page, MARGIN + 14, s.y + 8, b)
        s.y += 13
    s.y += 10
    top = s.y
    per = -(-ROWS // n)
    yes_no = lay["answer"] == "yes / no"
    items: list[dict] = []
    for r in range(ROWS):
        if r and r % per == 0:
            s.y = top
        x, cw = lefts[r // per], widths[r // per]
        if yes_no or lay["ending"] == "?":
            text = lang.questions[r]
        else:
            text = LABELS[lang.code][r]
        number = f"{r + 1}." if lay["numbering"] == "numbered" else ""
        indent = 16 if number else 0
        if number:
            _write(page, x, s.y + 9, number)
        lines = _wrap(text, cw - indent)
        for k, line in enumerate(lines):
            _write(page, x + indent, s.y + 9 + k * LINE, line)
        s.y += LINE * len(lines) + 4
        item: dict = {"page": 1, "id": number.rstrip("."), "text": text.rstrip(":：").rstrip()}
        if yes_no:
            options = {"de": ("Ja", "Nein"), "fr": ("Oui", "Non"), "ja": JA_YES_NO}.get(lang.code, ("Yes", "No"))
            _check_marks(page, x + indent, s.y + 9, options, "□ glyph" if lang.code == "ja" else "glyph")
            item["choices"] = list(options)
            s.y += LINE + 4
        elif lay["answer"] == "box":
            page.draw_rect(pymupdf.Rect(x + indent, s.y, x + cw, s.y + 16), color=(0.3, 0.3, 0.3), width=0.7)
            s.y += 20
        else:
            page.draw_line((x + indent, s.y + 12), (x + cw, s.y + 12), color=(0, 0, 0), width=0.5)
            s.y += 18
        s.y += 10
        items.append(item)
    return items


def _check_marks(page: pymupdf.Page, x: float, y: float, options: tuple[str, ...], marks: str) -> float:
    """The options' marks with their baseline at ``y`` from ``x``: "☐ Yes  ☐ No" ("□はい　□いいえ"),
    drawn squares before the labels, or the labels to circle ("はい／いいえ"); where they end."""
    if marks == "words":
        text = "／".join(options) if _japanese(options[0]) else " / ".join(options)
        _write(page, x, y, text)
        return x + _length(text)
    for o in options:
        if marks == "drawn squares":
            _square(page, x, y)
        else:
            _glyph(page, x, y, "□" if marks == "□ glyph" else "☐")
        _write(page, x + 11, y, o)
        x += _length(o) + 22
    return x


def _length(text: str) -> float:
    if _japanese(text) or any(ord(c) > 0x2FFF for c in text):
        return pymupdf.Font("japan").text_length(text, fontsize=SIZE)
    return pymupdf.get_text_length(text, fontname="helv", fontsize=SIZE)


def _draw_japanese(s: Sheet) -> list[dict]:
    """A numbered checklist in Japanese (see the module docstring) from ``s.y``; its truth."""
    v = s.variant
    lay = dict(v.layout)
    lang = v.language
    width = s.page.rect.width - 2 * MARGIN
    for b in lang.bullets:
        _write(s.page, MARGIN + 4, s.y + 8, "・" + b)
        s.y += 13
    s.y += 10
    texts = lang.statements if lay["wording"] == "statement" else lang.questions
    marks_w = sum(_length(o) + 22 for o in JA_YES_NO)
    items: list[dict] = []
    for r in range(ROWS):
        if r == 5 and lay["pages"] == "two pages":
            s.new_page()
        label = lay["numbering"].format(wide="".join(chr(ord(c) + 0xFEE0) for c in str(r + 1)))
        beside = lay["marks place"] == "beside"
        lines = _wrap(texts[r], width - 40 - (marks_w + 12 if beside else 0))
        _write(s.page, MARGIN, s.y + 9, label)
        for k, line in enumerate(lines):
            _write(s.page, MARGIN + 40, s.y + 9 + k * LINE, line)
        if beside:
            _check_marks(s.page, MARGIN + width - marks_w, s.y + 9, JA_YES_NO, lay["marks"])
            s.y += LINE * len(lines)
        else:
            s.y += LINE * len(lines) + 2
            _check_marks(s.page, MARGIN + 40, s.y + 9, JA_YES_NO, lay["marks"])
            s.y += LINE
        s.y += 8
        ident = unicodedata.normalize("NFKC", label).strip("(). ")
        items.append({"page": s.page.number + 1, "id": ident, "text": texts[r], "choices": list(JA_YES_NO)})
    return items


__all__ = ["LAYOUTS", "draw_layout", "layout_variants"]
