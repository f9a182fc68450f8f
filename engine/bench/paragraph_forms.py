"""The sixth family of engine/bench/families.py: **paragraph forms** (issue #55), questionnaires
that ask in paragraphs, not tables, as tenders do (an ITT's "C-1 Please provide …" over the lines to
write on, a form's "Do you hold ISO 9001? ☐ Yes ☐ No").

Each variant (:func:`paragraph_variant`) draws, from a generator seeded by its number: the language
(English, German, French, Dutch, Spanish, Japanese: its own cues, "？" and full-width digits), two to
four sections under a heading (a Heading style or a bold line) of three to six questions; the numbering
("1.", "1.1", "A-1", "Q3", Word's own via ``w:numPr``, or none); per question, its wording (a question
with its mark, "Please provide / describe …" or an imperative with no mark, in the language's words)
and its kind: **text**, answered in one of the answer places the variant uses (the empty paragraph(s)
after it, an "Answer:" label line, a one-cell table below, a text box anchored in the next paragraph,
a content control showing "Click or tap here to enter text." (a placeholder, not an answer), an
underscore line), or a **choice** of Yes / No drawn as a "Yes/No" line, "☐" glyphs, Wingdings
``w:sym`` boxes (F0A8) or FORMCHECKBOX fields, beside the question or on the line below. A second round
draws a text question's length limit on the line between it and its place ("(maximum 500 words)", in
italics): the question's text is then both lines, as a cell's guidance is read. Instructions
that are not questions stand between them: an introduction, a "Note: …" under a heading, "Bidders who
answer No …" before a section's Yes / No questions. The form is empty: no answer is written.

The truth is what the generator drew, in the addresses of engine/bench/document_places.py: a text
question's ``answer`` is the first empty place after it (the first empty paragraph, the label's
paragraph, the box's cell, the text box's paragraph, the control's paragraph, the underscore line); a
choice's ``choice`` is the paragraph holding its boxes or its "Yes/No" line (the question's own when
beside it), its ``options`` the language's Yes / No; ``prefix`` the number typed before the text.
"""

from __future__ import annotations

import random
from itertools import count

from docx.oxml import parse_xml

from engine.bench.docx_drawing import W_NS, add_box, full_width

PARAGRAPH_NUMBERINGS = ("none", "dot", "decimal", "dash", "q", "word")
ANSWER_PLACES = ("empty", "label", "box", "textbox", "sdt", "underscore")
CHOICE_FORMS = ("line", "glyph", "sym", "formcheckbox")
WORDINGS = ("question", "please", "imperative")

# per language: text topics and Yes / No topics, each (as a question, "please …", imperative)
TEXT_TOPICS: dict[str, list[tuple[str, str, str]]] = {
    "en": [
        ("How will you ensure the quality of the service throughout the contract?", "Please describe how you will ensure the quality of the service throughout the contract.", "Describe how you will ensure the quality of the service throughout the contract."),
        ("What experience do you have of delivering similar services?", "Please provide details of your experience of delivering similar services.", "Provide details of your experience of delivering similar services."),
        ("How will you manage risks to the delivery of the service?", "Please explain how you will manage risks to the delivery of the service.", "Explain how you will manage risks to the delivery of the service."),
        ("Which accreditations does your organisation hold?", "Please list the accreditations your organisation holds.", "List the accreditations your organisation holds."),
        ("How will you protect personal data processed under the contract?", "Please describe how you will protect personal data processed under the contract.", "Describe how you will protect personal data processed under the contract."),
        ("What social value will you deliver through this contract?", "Please set out the social value you will deliver through this contract.", "Set out the social value you will deliver through this contract."),
    ],
    "de": [
        ("Wie stellen Sie die Qualität der Leistung während der Vertragslaufzeit sicher?", "Bitte beschreiben Sie, wie Sie die Qualität der Leistung während der Vertragslaufzeit sicherstellen.", "Beschreiben Sie, wie Sie die Qualität der Leistung während der Vertragslaufzeit sicherstellen."),
        ("Welche Erfahrung haben Sie mit vergleichbaren Leistungen?", "Bitte geben Sie Ihre Erfahrung mit vergleichbaren Leistungen an.", "Geben Sie Ihre Erfahrung mit vergleichbaren Leistungen an."),
        ("Wie steuern Sie Risiken bei der Leistungserbringung?", "Bitte erläutern Sie, wie Sie Risiken bei der Leistungserbringung steuern.", "Erläutern Sie, wie Sie Risiken bei der Leistungserbringung steuern."),
        ("Welche Zertifizierungen besitzt Ihr Unternehmen?", "Bitte nennen Sie die Zertifizierungen Ihres Unternehmens.", "Nennen Sie die Zertifizierungen Ihres Unternehmens."),
        ("Wie schützen Sie personenbezogene Daten im Rahmen des Auftrags?", "Bitte beschreiben Sie, wie Sie personenbezogene Daten im Rahmen des Auftrags schützen.", "Beschreiben Sie, wie Sie personenbezogene Daten im Rahmen des Auftrags schützen."),
        ("Welchen gesellschaftlichen Mehrwert bietet Ihr Angebot?", "Bitte stellen Sie den gesellschaftlichen Mehrwert Ihres Angebots dar.", "Stellen Sie den gesellschaftlichen Mehrwert Ihres Angebots dar."),
    ],
    "fr": [
        ("Comment garantirez-vous la qualité du service pendant toute la durée du contrat ?", "Veuillez décrire comment vous garantirez la qualité du service pendant toute la durée du contrat.", "Décrivez comment vous garantirez la qualité du service pendant toute la durée du contrat."),
        ("Quelle expérience avez-vous de prestations similaires ?", "Veuillez indiquer votre expérience de prestations similaires.", "Indiquez votre expérience de prestations similaires."),
        ("Comment gérerez-vous les risques liés à l'exécution du service ?", "Veuillez expliquer comment vous gérerez les risques liés à l'exécution du service.", "Expliquez comment vous gérerez les risques liés à l'exécution du service."),
        ("Quelles certifications votre entreprise détient-elle ?", "Veuillez énumérer les certifications de votre entreprise.", "Énumérez les certifications de votre entreprise."),
        ("Comment protégerez-vous les données personnelles traitées dans le cadre du marché ?", "Veuillez décrire comment vous protégerez les données personnelles traitées dans le cadre du marché.", "Décrivez comment vous protégerez les données personnelles traitées dans le cadre du marché."),
        ("Quelle valeur sociale apporterez-vous dans le cadre de ce marché ?", "Veuillez présenter la valeur sociale que vous apporterez dans le cadre de ce marché.", "Présentez la valeur sociale que vous apporterez dans le cadre de ce marché."),
    ],
    "nl": [
        ("Hoe waarborgt u de kwaliteit van de dienstverlening tijdens de looptijd van het contract?", "Gelieve te beschrijven hoe u de kwaliteit van de dienstverlening tijdens de looptijd van het contract waarborgt.", "Beschrijf hoe u de kwaliteit van de dienstverlening tijdens de looptijd van het contract waarborgt."),
        ("Welke ervaring heeft u met vergelijkbare diensten?", "Gelieve uw ervaring met vergelijkbare diensten te vermelden.", "Vermeld uw ervaring met vergelijkbare diensten."),
        ("Hoe beheerst u de risico's bij de uitvoering van de dienst?", "Gelieve toe te lichten hoe u de risico's bij de uitvoering van de dienst beheerst.", "Licht toe hoe u de risico's bij de uitvoering van de dienst beheerst."),
        ("Over welke certificeringen beschikt uw organisatie?", "Gelieve de certificeringen van uw organisatie op te sommen.", "Som de certificeringen van uw organisatie op."),
        ("Hoe beschermt u persoonsgegevens die onder het contract worden verwerkt?", "Gelieve te beschrijven hoe u persoonsgegevens beschermt die onder het contract worden verwerkt.", "Beschrijf hoe u persoonsgegevens beschermt die onder het contract worden verwerkt."),
        ("Welke maatschappelijke meerwaarde levert u met dit contract?", "Gelieve de maatschappelijke meerwaarde van dit contract toe te lichten.", "Licht de maatschappelijke meerwaarde van dit contract toe."),
    ],
    "es": [
        ("¿Cómo garantizará la calidad del servicio durante todo el contrato?", "Por favor, describa cómo garantizará la calidad del servicio durante todo el contrato.", "Describa cómo garantizará la calidad del servicio durante todo el contrato."),
        ("¿Qué experiencia tiene en la prestación de servicios similares?", "Por favor, indique su experiencia en la prestación de servicios similares.", "Indique su experiencia en la prestación de servicios similares."),
        ("¿Cómo gestionará los riesgos de la prestación del servicio?", "Por favor, explique cómo gestionará los riesgos de la prestación del servicio.", "Explique cómo gestionará los riesgos de la prestación del servicio."),
        ("¿Qué certificaciones tiene su organización?", "Por favor, enumere las certificaciones de su organización.", "Enumere las certificaciones de su organización."),
        ("¿Cómo protegerá los datos personales tratados en el marco del contrato?", "Por favor, describa cómo protegerá los datos personales tratados en el marco del contrato.", "Describa cómo protegerá los datos personales tratados en el marco del contrato."),
        ("¿Qué valor social aportará con este contrato?", "Por favor, exponga el valor social que aportará con este contrato.", "Exponga el valor social que aportará con este contrato."),
    ],
    "ja": [
        ("契約期間中、サービスの品質をどのように確保しますか？", "契約期間中のサービス品質の確保方法をご記入ください。", "契約期間中のサービス品質の確保方法を記載すること。"),
        ("類似業務ではどのような実績がありますか？", "類似業務の実績を記入してください。", "類似業務の実績を記載すること。"),
        ("業務遂行上のリスクをどのように管理しますか？", "業務遂行上のリスク管理の方法を説明してください。", "業務遂行上のリスク管理の方法を説明すること。"),
        ("貴社はどのような認証を取得していますか。", "貴社が取得している認証を記入してください。", "貴社が取得している認証を列挙すること。"),
        ("契約で取り扱う個人情報をどのように保護しますか？", "契約で取り扱う個人情報の保護方法を記述してください。", "契約で取り扱う個人情報の保護方法を記述すること。"),
        ("本契約を通じてどのような社会的価値を提供しますか。", "本契約を通じて提供する社会的価値を記入してください。", "本契約を通じて提供する社会的価値を記載すること。"),
    ],
}  # fmt: skip
CHOICE_TOPICS: dict[str, list[tuple[str, str, str]]] = {
    "en": [
        ("Does your organisation hold ISO 9001 certification?", "Please confirm whether your organisation holds ISO 9001 certification.", "Confirm whether your organisation holds ISO 9001 certification."),
        ("Do you have a business continuity plan?", "Please confirm whether you have a business continuity plan.", "Confirm whether you have a business continuity plan."),
        ("Has your organisation been convicted of any offence in the last five years?", "Please state whether your organisation has been convicted of any offence in the last five years.", "State whether your organisation has been convicted of any offence in the last five years."),
        ("Will you comply with the contract's terms and conditions?", "Please confirm that you will comply with the contract's terms and conditions.", "Confirm that you will comply with the contract's terms and conditions."),
    ],
    "de": [
        ("Ist Ihr Unternehmen nach ISO 9001 zertifiziert?", "Bitte bestätigen Sie, ob Ihr Unternehmen nach ISO 9001 zertifiziert ist.", "Bestätigen Sie, ob Ihr Unternehmen nach ISO 9001 zertifiziert ist."),
        ("Verfügen Sie über einen Notfallplan?", "Bitte bestätigen Sie, ob Sie über einen Notfallplan verfügen.", "Bestätigen Sie, ob Sie über einen Notfallplan verfügen."),
        ("Wurde Ihr Unternehmen in den letzten fünf Jahren verurteilt?", "Bitte geben Sie an, ob Ihr Unternehmen in den letzten fünf Jahren verurteilt wurde.", "Geben Sie an, ob Ihr Unternehmen in den letzten fünf Jahren verurteilt wurde."),
        ("Akzeptieren Sie die Vertragsbedingungen?", "Bitte bestätigen Sie, dass Sie die Vertragsbedingungen akzeptieren.", "Bestätigen Sie, dass Sie die Vertragsbedingungen akzeptieren."),
    ],
    "fr": [
        ("Votre entreprise est-elle certifiée ISO 9001 ?", "Veuillez confirmer si votre entreprise est certifiée ISO 9001.", "Confirmez si votre entreprise est certifiée ISO 9001."),
        ("Disposez-vous d'un plan de continuité d'activité ?", "Veuillez confirmer si vous disposez d'un plan de continuité d'activité.", "Confirmez si vous disposez d'un plan de continuité d'activité."),
        ("Votre entreprise a-t-elle été condamnée au cours des cinq dernières années ?", "Veuillez indiquer si votre entreprise a été condamnée au cours des cinq dernières années.", "Indiquez si votre entreprise a été condamnée au cours des cinq dernières années."),
        ("Acceptez-vous les conditions du contrat ?", "Veuillez confirmer que vous acceptez les conditions du contrat.", "Confirmez que vous acceptez les conditions du contrat."),
    ],
    "nl": [
        ("Is uw organisatie ISO 9001 gecertificeerd?", "Gelieve te bevestigen of uw organisatie ISO 9001 gecertificeerd is.", "Bevestig of uw organisatie ISO 9001 gecertificeerd is."),
        ("Beschikt u over een bedrijfscontinuïteitsplan?", "Gelieve te bevestigen of u over een bedrijfscontinuïteitsplan beschikt.", "Bevestig of u over een bedrijfscontinuïteitsplan beschikt."),
        ("Is uw organisatie in de afgelopen vijf jaar veroordeeld?", "Gelieve aan te geven of uw organisatie in de afgelopen vijf jaar veroordeeld is.", "Geef aan of uw organisatie in de afgelopen vijf jaar veroordeeld is."),
        ("Aanvaardt u de contractvoorwaarden?", "Gelieve te bevestigen dat u de contractvoorwaarden aanvaardt.", "Bevestig dat u de contractvoorwaarden aanvaardt."),
    ],
    "es": [
        ("¿Tiene su organización la certificación ISO 9001?", "Por favor, confirme si su organización tiene la certificación ISO 9001.", "Confirme si su organización tiene la certificación ISO 9001."),
        ("¿Dispone de un plan de continuidad de negocio?", "Por favor, confirme si dispone de un plan de continuidad de negocio.", "Confirme si dispone de un plan de continuidad de negocio."),
        ("¿Ha sido condenada su organización en los últimos cinco años?", "Por favor, indique si su organización ha sido condenada en los últimos cinco años.", "Indique si su organización ha sido condenada en los últimos cinco años."),
        ("¿Acepta las condiciones del contrato?", "Por favor, confirme que acepta las condiciones del contrato.", "Confirme que acepta las condiciones del contrato."),
    ],
    "ja": [
        ("貴社はISO 9001の認証を取得していますか？", "ISO 9001認証の取得の有無をご回答ください。", "ISO 9001認証の取得の有無を回答すること。"),
        ("事業継続計画を策定していますか？", "事業継続計画の有無をご回答ください。", "事業継続計画の有無を回答すること。"),
        ("過去5年間に有罪判決を受けたことがありますか。", "過去5年間の有罪判決の有無をご回答ください。", "過去5年間の有罪判決の有無を回答すること。"),
        ("契約条件に同意しますか？", "契約条件への同意の有無をご回答ください。", "契約条件への同意の有無を回答すること。"),
    ],
}  # fmt: skip
# per language: the introduction, the note under a heading, the warning before Yes / No questions,
# the answer label, a content control's placeholder as Word writes it in that language
WORDS: dict[str, dict[str, str]] = {
    "en": {"limit": "(maximum 500 words)", "intro": "All bidders must complete this questionnaire and return it with their tender.",
           "note": "Note: answers should not exceed 500 words per question.",
           "warn": "Bidders who answer No to any question in this section will not be considered further.",
           "label": "Answer:", "placeholder": "Click or tap here to enter text.", "title": "Tender questionnaire",
           "section": "Section"},
    "de": {"limit": "(maximal 500 Wörter)", "intro": "Alle Bieter müssen diesen Fragebogen ausfüllen und mit ihrem Angebot einreichen.",
           "note": "Hinweis: Antworten sollten 500 Wörter je Frage nicht überschreiten.",
           "warn": "Bieter, die eine Frage dieses Abschnitts mit Nein beantworten, werden nicht weiter berücksichtigt.",
           "label": "Antwort:", "placeholder": "Klicken oder tippen Sie hier, um Text einzugeben.",
           "title": "Fragebogen zur Ausschreibung", "section": "Abschnitt"},
    "fr": {"limit": "(500 mots maximum)", "intro": "Tous les soumissionnaires doivent remplir ce questionnaire et le joindre à leur offre.",
           "note": "Remarque : les réponses ne doivent pas dépasser 500 mots par question.",
           "warn": "Les soumissionnaires qui répondent Non à une question de cette section ne seront pas retenus.",
           "label": "Réponse :", "placeholder": "Cliquez ou appuyez ici pour entrer du texte.",
           "title": "Questionnaire de l'appel d'offres", "section": "Section"},
    "nl": {"limit": "(maximaal 500 woorden)", "intro": "Alle inschrijvers moeten deze vragenlijst invullen en bij hun inschrijving voegen.",
           "note": "Opmerking: antwoorden mogen niet langer zijn dan 500 woorden per vraag.",
           "warn": "Inschrijvers die een vraag in dit deel met Nee beantwoorden, worden niet verder beoordeeld.",
           "label": "Antwoord:", "placeholder": "Klik of tik om tekst in te voeren.",
           "title": "Vragenlijst aanbesteding", "section": "Deel"},
    "es": {"limit": "(máximo 500 palabras)", "intro": "Todos los licitadores deben cumplimentar este cuestionario y adjuntarlo a su oferta.",
           "note": "Nota: las respuestas no deben superar las 500 palabras por pregunta.",
           "warn": "Los licitadores que respondan No a alguna pregunta de esta sección no serán considerados.",
           "label": "Respuesta:", "placeholder": "Haga clic o pulse aquí para escribir texto.",
           "title": "Cuestionario de licitación", "section": "Sección"},
    "ja": {"limit": "（500字以内）", "intro": "入札者は本質問票に記入し、入札書類とともに提出してください。",
           "note": "注：各設問の回答は500字以内としてください。",
           "warn": "本項のいずれかの設問に「いいえ」と回答した入札者は、以降の審査の対象外とします。",
           "label": "回答：", "placeholder": "ここをクリックまたはタップしてテキストを入力してください。",
           "title": "入札質問票", "section": "第"},
}  # fmt: skip


YES_NO = {"en": ("Yes", "No"), "de": ("Ja", "Nein"), "fr": ("Oui", "Non"), "nl": ("Ja", "Nee"), "es": ("Sí", "No"),
          "ja": ("はい", "いいえ")}  # fmt: skip
SECTIONS = {
    "en": ("Quality", "Experience", "Compliance", "Data protection"),
    "de": ("Qualität", "Erfahrung", "Eignung", "Datenschutz"),
    "fr": ("Qualité", "Expérience", "Conformité", "Protection des données"),
    "nl": ("Kwaliteit", "Ervaring", "Geschiktheid", "Gegevensbescherming"),
    "es": ("Calidad", "Experiencia", "Cumplimiento", "Protección de datos"),
    "ja": ("品質", "実績", "適格性", "個人情報保護"),
}


def paragraph_variant(n: int) -> dict:
    """The ``n``-th variant of the paragraph forms family (the fields of families.Variant), drawn from a
    generator seeded by ``n``: each question's plan ("text/<wording>/<place>" or "choice/<wording>") in
    ``paragraph_plan``."""
    rng = random.Random(f"paragraph forms:{n}")
    language = rng.choice(("en", "en", "de", "fr", "nl", "es", "ja"))
    sections = tuple(rng.randint(3, 6) for _ in range(rng.randint(2, 4)))
    places = tuple(rng.sample(ANSWER_PLACES, rng.choice((1, 1, 2, 3))))
    share = rng.choice((0.0, 0.25, 0.4))
    plan = []
    for _ in range(sum(sections)):
        wording = rng.choice(WORDINGS)
        plan.append(f"choice/{wording}" if rng.random() < share else f"text/{wording}/{rng.choice(places)}")
    return dict(
        family="paragraph forms",
        n=n,
        language=language,
        box=rng.choice(CHOICE_FORMS),
        rows_per_section=sections,
        paragraph_numbering=rng.choice(PARAGRAPH_NUMBERINGS),
        paragraph_plan=tuple(plan),
        choice_beside=rng.random() < 0.4,
        heading_style=rng.choice(("heading", "heading", "bold")),
        notes=rng.random() < 0.6,
        spacer=rng.random() < 0.5,
        empty_lines=rng.choice((1, 2, 3)),
        placeholder_flag=rng.random() < 0.7,
        guidance_line=rng.random() < 0.35,  # (the second round: drawn last, the first round's draws as they were)
    )


def _number(v, s: int, i: int, k: int) -> str:
    """The number typed before the ``i``-th question (from 1) of section ``s`` (from 1), the ``k``-th of
    the form (from 1); "" for none or Word's own."""
    text = {
        "dot": f"{k}.",
        "decimal": f"{s}.{i}",
        "dash": f"{'ABCDEFGH'[s - 1]}-{i}",
        "q": f"Q{k}",
    }.get(v.paragraph_numbering, "")
    return full_width(text) if v.language == "ja" else text


def _heading(doc, v, s: int) -> None:
    title = SECTIONS[v.language][(s - 1) % len(SECTIONS[v.language])]
    if v.paragraph_numbering == "decimal":
        title = f"{full_width(str(s)) if v.language == 'ja' else s}. {title}"
    elif v.paragraph_numbering == "dash":
        title = f"{WORDS[v.language]['section']} {'ABCDEFGH'[s - 1]}: {title}"
    if v.heading_style == "heading":
        doc.add_heading(title, level=2)
    else:
        doc.add_paragraph().add_run(title).bold = True


def _yes_no(paragraph, v, options: tuple[str, ...], names: count) -> None:
    """The options written into ``paragraph``: "Yes/No", or each label after its box."""
    if v.box == "line":
        paragraph.add_run(("  " if paragraph.text else "") + "/".join(options))
        return
    for k, label in enumerate(options):
        if k or paragraph.text:
            paragraph.add_run("   ")
        if v.box == "sym":
            paragraph._p.append(parse_xml(f'<w:r xmlns:w="{W_NS}"><w:sym w:font="Wingdings" w:char="F0A8"/></w:r>'))
        else:
            add_box(paragraph, v.box, names)
        paragraph.add_run(f" {label}")


_CONTROL = (
    '<w:sdt xmlns:w="{w}"><w:sdtPr><w:id w:val="{id}"/>{flag}<w:text/></w:sdtPr><w:sdtContent>'
    '<w:r><w:rPr><w:rStyle w:val="PlaceholderText"/></w:rPr><w:t>{text}</w:t></w:r></w:sdtContent></w:sdt>'
)
_TEXT_BOX = (
    '<w:r xmlns:w="{w}"><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="width:400pt;height:60pt">'
    "<v:textbox><w:txbxContent><w:p/></w:txbxContent></v:textbox></v:shape></w:pict></w:r>"
)


def _answer_place(doc, v, place: str, names: count):
    """Draw ``place`` after a question; return the element where its answer goes."""
    words = WORDS[v.language]
    if place == "empty":
        first = doc.add_paragraph()
        for _ in range(v.empty_lines - 1):
            doc.add_paragraph()
        return first._p
    if place == "label":
        return doc.add_paragraph(words["label"])._p
    if place == "box":
        table = doc.add_table(rows=1, cols=1)
        table.style = "Table Grid"
        return table.cell(0, 0)._tc
    if place == "textbox":
        p = doc.add_paragraph()._p
        p.append(parse_xml(_TEXT_BOX.format(w=W_NS)))
        return p.find(f".//{{{W_NS}}}txbxContent/{{{W_NS}}}p")
    if place == "sdt":
        p = doc.add_paragraph()._p
        flag = "<w:showingPlcHdr/>" if v.placeholder_flag else ""
        p.append(parse_xml(_CONTROL.format(w=W_NS, id=next(names), flag=flag, text=words["placeholder"])))
        return p
    return doc.add_paragraph("_" * 60)._p


def draw_paragraph_form(doc, v, names: count) -> list[dict]:
    """The form ``v`` (a families.Variant) draws: each section's heading (and note), its questions each
    followed by its answer place (or its Yes / No); returns each question's truth in order (the fields
    of families._Item, elements for its places)."""
    items: list[dict] = []
    words = WORDS[v.language]
    options = YES_NO[v.language]
    doc.add_paragraph(words["intro"])
    plan = iter(v.paragraph_plan)
    k = 0
    counters = {"text": 0, "choice": 0}
    for s, many in enumerate(v.rows_per_section, 1):
        _heading(doc, v, s)
        if v.notes and s == 1:
            doc.add_paragraph(words["note"])
        steps = [next(plan) for _ in range(many)]
        if v.notes and any(x.startswith("choice") for x in steps):
            doc.add_paragraph(words["warn"])
        for i, step in enumerate(steps, 1):
            k += 1
            kind, wording, *place = step.split("/")
            topics = (TEXT_TOPICS if kind == "text" else CHOICE_TOPICS)[v.language]
            text = topics[counters[kind] % len(topics)][WORDINGS.index(wording)]
            counters[kind] += 1
            number = _number(v, s, i, k)
            shown = f"{number} {text}" if number else text
            question = doc.add_paragraph(shown, style="List Number" if v.paragraph_numbering == "word" else None)
            item: dict = {"text": text, "prefix": number, "at": question._p}
            if kind == "text" and v.guidance_line:  # its length limit on a line of its own, in italics
                doc.add_paragraph().add_run(words["limit"]).italic = True
                item["text"] = f"{text} {words['limit']}"  # (read as part of the question, as a cell's guidance is)
            if kind == "choice":
                line = question if v.choice_beside else doc.add_paragraph()
                _yes_no(line, v, options, names)
                item.update(choice=(line._p,), options=options)
            else:
                item["answer"] = _answer_place(doc, v, place[0], names)
            if v.spacer and not (kind == "text" and place[0] == "empty"):
                doc.add_paragraph()
            items.append(item)
    return items


__all__ = ["ANSWER_PLACES", "CHOICE_FORMS", "PARAGRAPH_NUMBERINGS", "draw_paragraph_form", "paragraph_variant"]
