"""The parts the PDF family generators share (engine/bench/pdf_families.py, engine/bench/pdf_layouts.py):
the page's measures, the languages and their words, the axes' values, a variant, the drawing sheet and
writing text (Helvetica, a Japanese font for CJK runs, DejaVu Sans for ☐), wrapping it, drawing a box."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pymupdf

BOX_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")  # ☐ (Helvetica has none)
SIZE = 8.0
LINE = 10.0
MARGIN = 40.0
ROWS = 8  # requirement rows per table; two-page variants break after BREAK
BREAK = 5
SECTION_AT = 3  # the second section row comes before this row (the first before row 0)


@dataclass(frozen=True)
class Language:
    code: str
    title: str
    id_head: str
    question: str
    response: str
    notes: str
    answer: str
    options: tuple[tuple[str, ...], ...]
    statements: tuple[str, ...]
    questions: tuple[str, ...]
    bullets: tuple[str, ...]
    guidance: tuple[str, str]  # a guidance column's header and its text on every row ("Expected Testing")
    sections: tuple[str, str]  # two section rows' titles, each across the table ("Requirement 2: …")
    more: str  # a second sentence of the row broken across the page break (so that it wraps over lines)


LANGUAGES = (
    Language(
        "en",
        "Section 3: Access control requirements",
        "ID",
        "Requirement",
        "Response",
        "Comments",
        "Answer",
        (("In Place", "Not Applicable", "Not in Place"), ("Yes", "No", "N/A"), ("Compliant", "Non-Compliant")),
        (
            "The provider shall maintain an inventory of all system components.",
            "Restrict administrative access to named personnel only.",
            "The provider shall review user accounts at least every six months and remove accounts that "
            "are no longer required.",
            "Encrypt all cardholder data at rest with strong cryptography.",
            "The provider shall log every access to audit trails.",
            "Change vendor-supplied default passwords before a system is installed on the network.",
            "The provider shall test incident response procedures once a year.",
            "Document and approve every change to the production environment.",
        ),
        (
            "Does the provider keep an inventory of all system components?",
            "Is administrative access restricted to named personnel?",
            "Are user accounts reviewed at least every six months?",
            "Is cardholder data encrypted at rest?",
            "Is every access to audit trails logged?",
            "Are default passwords changed before installation?",
            "Are incident response procedures tested once a year?",
            "Is every change to production documented and approved?",
        ),
        (
            "Complete every row of the table below.",
            "Mark one response per requirement and explain any exception in Comments.",
        ),
        ("Expected Testing", "Examine documentation and interview personnel."),
        ("Requirement 2: Apply secure configurations to all system components", "Requirement 3: Protect stored data"),
        "Keep the records of this work for at least twelve months and show them to the assessor when asked to.",
    ),
    Language(
        "de",
        "Abschnitt 3: Anforderungen an die Zugriffskontrolle",
        "Nr.",
        "Anforderung",
        "Antwort",
        "Bemerkung",
        "Antwort",
        (("Ja", "Nein"),),
        (
            "Der Anbieter muss ein Verzeichnis aller Systemkomponenten führen.",
            "Administrative Zugriffe sind auf namentlich benannte Personen zu beschränken.",
            "Benutzerkonten sind mindestens halbjährlich zu überprüfen.",
            "Gespeicherte Kundendaten müssen verschlüsselt werden.",
            "Jeder Zugriff auf Protokolle muss aufgezeichnet werden.",
            "Standardpasswörter sind vor der Inbetriebnahme zu ändern.",
            "Notfallverfahren sind jährlich zu testen.",
            "Jede Änderung an der Produktion ist zu dokumentieren.",
        ),
        (
            "Führt der Anbieter ein Verzeichnis aller Systemkomponenten?",
            "Sind administrative Zugriffe auf benannte Personen beschränkt?",
            "Werden Benutzerkonten halbjährlich überprüft?",
            "Werden gespeicherte Kundendaten verschlüsselt?",
            "Wird jeder Zugriff auf Protokolle aufgezeichnet?",
            "Werden Standardpasswörter vor der Inbetriebnahme geändert?",
            "Werden Notfallverfahren jährlich getestet?",
            "Wird jede Änderung an der Produktion dokumentiert?",
        ),
        ("Bitte füllen Sie jede Zeile der Tabelle aus.", "Kreuzen Sie je Anforderung eine Antwort an."),
        ("Prüfhinweise", "Dokumentation prüfen und Personal befragen."),
        ("Abschnitt 2: Sichere Konfiguration aller Systeme", "Abschnitt 3: Schutz gespeicherter Daten"),
        "Die Nachweise sind mindestens zwölf Monate aufzubewahren und dem Prüfer auf Verlangen vorzulegen.",
    ),
    Language(
        "fr",
        "Section 3 : Exigences de contrôle d'accès",
        "N°",
        "Exigence",
        "Réponse",
        "Remarque",
        "Réponse",
        (("Oui", "Non"),),
        (
            "Le prestataire doit tenir un inventaire de tous les composants du système.",
            "Restreindre l'accès administrateur au personnel désigné.",
            "Le prestataire doit revoir les comptes utilisateurs tous les six mois.",
            "Chiffrer les données des clients stockées.",
            "Le prestataire doit journaliser chaque accès aux traces d'audit.",
            "Changer les mots de passe par défaut avant la mise en service.",
            "Le prestataire doit tester les procédures d'incident chaque année.",
            "Documenter chaque changement en production.",
        ),
        (
            "Le prestataire tient-il un inventaire des composants du système ?",
            "L'accès administrateur est-il restreint au personnel désigné ?",
            "Les comptes utilisateurs sont-ils revus tous les six mois ?",
            "Les données des clients sont-elles chiffrées ?",
            "Chaque accès aux traces d'audit est-il journalisé ?",
            "Les mots de passe par défaut sont-ils changés ?",
            "Les procédures d'incident sont-elles testées chaque année ?",
            "Chaque changement en production est-il documenté ?",
        ),
        ("Remplissez chaque ligne du tableau.", "Cochez une réponse par exigence."),
        ("Méthode de vérification", "Examiner la documentation et interroger le personnel."),
        ("Exigence 2 : Configuration sécurisée des systèmes", "Exigence 3 : Protection des données stockées"),
        "Les preuves sont conservées au moins douze mois et présentées à l'auditeur sur simple demande.",
    ),
    Language(
        "ja",
        "第3章 アクセス制御に関する要求事項",
        "番号",
        "要求事項",
        "回答",
        "備考",
        "回答",
        (("はい", "いいえ"),),
        (
            "システム構成要素の台帳を維持すること。",
            "管理者権限を指名された担当者に限定すること。",
            "利用者アカウントを少なくとも半年ごとに見直すこと。",
            "保存された顧客データを暗号化すること。",
            "監査証跡へのすべてのアクセスを記録すること。",
            "導入前に初期パスワードを変更すること。",
            "インシデント対応手順を年に一度試験すること。",
            "本番環境への変更をすべて文書化し承認すること。",
        ),
        (
            "システム構成要素の台帳を維持していますか？",
            "管理者権限は指名された担当者に限定されていますか？",
            "利用者アカウントを半年ごとに見直していますか？",
            "保存された顧客データを暗号化していますか？",
            "監査証跡へのアクセスを記録していますか？",
            "導入前に初期パスワードを変更していますか？",
            "インシデント対応手順を年に一度試験していますか？",
            "本番環境への変更を文書化していますか？",
        ),
        ("下表の各行に記入してください。", "要求事項ごとに回答を一つ選択してください。"),
        ("確認方法", "文書を確認し、担当者に聞き取りを行う。"),
        ("第2節 システムの安全な設定", "第3節 保存データの保護"),
        "その記録を少なくとも十二か月間保管し、審査員の求めに応じて提示すること。",
    ),
)
IDS = ("1.2.{n}", "A.{n}", "REQ-{n:03d}", "１．２．{wide}")
HEADERS = (1, 2)
MARKS = ("none", "glyph", "square")
WORDING = ("statement", "question")
PAGING = (
    "one page",
    "header repeated",
    "header not repeated",
    "row broken, header repeated",
    "row broken, header not repeated",
)
FORM_PAGING = PAGING[:3]  # a form's rows are not broken across pages
ORIENTATION = ("portrait", "landscape")
FORM_FIELDS = ("combo and comments", "text only", "combo only")
GUIDANCE = ("none", "guidance column")
SECTIONS = ("none", "section rows")
ID_PLACES = ("own column", "in the requirement")
# the numbered checklists: "1." / "1.2" / "a)" before each question, its options' marks beside it or below
NUMBERS = ("{n}.", "1.{n}", "{a})")
CHECK_MARKS = ("glyph", "square", "words")  # "☐ Yes ☐ No", drawn squares before the labels, "Yes / No" to circle
PLACES = ("beside", "below")
CHECK_PAGING = ("one page", "two pages")
CHECK_OPTIONS = {"en": (("Yes", "No"), ("Yes", "No", "N/A")), "de": (("Ja", "Nein"),), "fr": (("Oui", "Non"),)}


@dataclass(frozen=True)
class Variant:
    family: str
    language: Language
    options: tuple[str, ...]
    ids: str
    header: int
    marks: str
    wording: str
    paging: str
    orientation: str
    fields: str = ""
    guidance: str = "none"
    sections: str = "none"
    id_place: str = "own column"
    place: str = ""  # a checklist's marks beside its questions or below them
    layout: tuple[tuple[str, str], ...] = ()  # the axes of a family of engine/bench/pdf_layouts.py

    def axes(self) -> dict[str, str]:
        if self.layout:
            return {"language": self.language.code, **dict(self.layout)}
        out = {
            "language": self.language.code,
            "options": " / ".join(self.options) if self.options else "-",
            "ids": self.ids.split("{")[0] + "…" if self.family not in CHECKLISTS else self.ids.format(n=1, a="a"),
        }
        if self.family not in CHECKLISTS:
            out["header rows"] = str(self.header)
        out |= {"marks": self.marks, "wording": self.wording, "pages": self.paging, "orientation": self.orientation}
        if self.place:
            out["marks place"] = self.place
        if self.fields:
            out["fields"] = self.fields
        if self.family not in ("form over a table", *CHECKLISTS):
            out["guidance"] = self.guidance
        out["sections"] = self.sections
        if self.family not in CHECKLISTS:
            out["id place"] = self.id_place
        return out

    @property
    def name(self) -> str:
        return "_".join(v.replace(" ", "").replace("/", "").replace(",", "") for v in self.axes().values())[:120]


CHECKLISTS = ("numbered checklist", "numbered checklist, two columns")
# the families drawn by engine/bench/pdf_layouts.py (its docstring)
LAYOUTS = (
    "web form printout",
    "unnumbered questions, two columns",
    "questions in three columns",
    "Japanese checklist",
    "two-row header, row broken, ruled",
    "two-row header, row broken, aligned",
)
# the layouts of what the reader did not meet (engine/bench/pdf_layouts.py, #55): guidance panels without a
# label or labelled "Note", and three columns of unequal widths (where a two-column split also looks right)
MORE_LAYOUTS = ("web form printout, panels without a label", "questions in three unequal columns")
FAMILIES = (
    "option table, ruled",
    "option table, aligned",
    "text table, ruled",
    "text table, aligned",
    "form over a table",
    *CHECKLISTS,
    *LAYOUTS,
    *MORE_LAYOUTS,
)


def _axis(family: str, name: str, values: tuple | list, count: int) -> list:
    """``values`` repeated in turn up to ``count`` and shuffled by the family's and axis's seed."""
    drawn = [values[i % len(values)] for i in range(count)]
    random.Random(f"{family}/{name}").shuffle(drawn)
    return drawn


def _wide(n: int) -> str:
    return "".join(chr(ord(c) + 0xFEE0) for c in str(n))


def _ident(pattern: str, n: int) -> str:
    return pattern.format(n=n, wide=_wide(n), a=chr(96 + n))


def _cjk(text: str) -> bool:
    return any(ord(c) > 0x2FFF for c in text)


def _japanese(text: str) -> bool:
    """Japanese writing (kana, kanji), not only full-width digits ("１．２．１ Change …" is English)."""
    return any(0x3000 <= ord(c) <= 0x9FFF for c in text)


_JAPAN = pymupdf.Font("japan")


def _write(page: pymupdf.Page, x: float, y: float, text: str, size: float = SIZE) -> None:
    """``text`` with its baseline at ``y``: its runs of CJK or full-width characters in a Japanese
    font, the others in Helvetica (a full-width ID before English words), ☐ in DejaVu Sans."""
    if "\u2610" in text:
        page.insert_text((x, y), text, fontsize=size, fontname="dejavu", fontfile=str(BOX_FONT))
        return
    runs: list[str] = []
    for c in text:
        if runs and _cjk(runs[-1][-1]) == _cjk(c):
            runs[-1] += c
        else:
            runs.append(c)
    for run in runs:
        if _cjk(run):
            page.insert_text((x, y), run, fontsize=size, fontname="japan")
            x += _JAPAN.text_length(run, fontsize=size)
        else:
            page.insert_text((x, y), run, fontsize=size)
            x += pymupdf.get_text_length(run, fontname="helv", fontsize=size)


def _wrap(text: str, width: float) -> list[str]:
    """``text`` cut into lines that fit ``width`` points at SIZE (words, or characters for CJK)."""
    per = max(8, int(width / (SIZE * (1.0 if _japanese(text) else 0.5))))
    if _japanese(text):
        return [text[i : i + per] for i in range(0, len(text), per)]
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= per:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


@dataclass
class Sheet:
    """One drawing: the document, its current page and where the next row goes."""

    doc: pymupdf.Document
    variant: Variant
    page: pymupdf.Page | None = None
    y: float = 0.0
    sidebar_end: float = 0.0  # where a guidance panel beside a question ends (pdf_layouts)

    def new_page(self) -> pymupdf.Page:
        w, h = pymupdf.paper_size("a4")
        if self.variant.orientation == "landscape":
            w, h = h, w
        self.page = self.doc.new_page(width=w, height=h)
        _write(self.page, MARGIN, 25, f"Supplier self-assessment — page {self.doc.page_count}", size=7)
        self.y = 45.0
        return self.page


def _square(page: pymupdf.Page, x: float, y: float) -> None:
    page.draw_rect(pymupdf.Rect(x, y - 7, x + 7, y), color=(0, 0, 0), width=0.7)
