"""What the generated Word families (engine/bench/families.py, paragraph_forms.py) draw alike: an
unticked box in each of the ways documents draw one, and numbers written full-width."""

from __future__ import annotations

from itertools import count

from docx.oxml import parse_xml

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W14_NS = "http://schemas.microsoft.com/office/word/2010/wordml"


def run_xml(inner: str) -> str:
    return f'<w:r xmlns:w="{W_NS}">{inner}</w:r>'


def add_box(paragraph, box: str, names: count) -> None:
    """One unticked box drawn as ``box`` in ``paragraph`` (nothing for "empty")."""
    p = paragraph._p
    if box == "glyph":
        paragraph.add_run("☐")
    elif box == "sym":
        p.append(parse_xml(run_xml('<w:sym w:font="Wingdings" w:char="F06F"/>')))
    elif box == "formcheckbox":
        name = f"Check{next(names)}"
        for inner in (
            f'<w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="{name}"/><w:enabled/>'
            '<w:calcOnExit w:val="0"/><w:checkBox><w:sizeAuto/><w:default w:val="0"/></w:checkBox></w:ffData></w:fldChar>',
            '<w:instrText xml:space="preserve"> FORMCHECKBOX </w:instrText>',
            '<w:fldChar w:fldCharType="separate"/>',
            '<w:fldChar w:fldCharType="end"/>',
        ):
            p.append(parse_xml(run_xml(inner)))
    elif box == "sdt":
        p.append(
            parse_xml(
                f'<w:sdt xmlns:w="{W_NS}" xmlns:w14="{W14_NS}"><w:sdtPr><w:id w:val="{next(names)}"/><w14:checkbox>'
                '<w14:checked w14:val="0"/><w14:checkedState w14:val="2612" w14:font="MS Gothic"/>'
                '<w14:uncheckedState w14:val="2610" w14:font="MS Gothic"/></w14:checkbox></w:sdtPr>'
                '<w:sdtContent><w:r><w:rPr><w:rFonts w:ascii="MS Gothic" w:eastAsia="MS Gothic" w:hAnsi="MS Gothic"/></w:rPr>'
                "<w:t>☐</w:t></w:r></w:sdtContent></w:sdt>"
            )
        )


def full_width(text: str) -> str:
    return text.translate(str.maketrans("0123456789.", "０１２３４５６７８９．"))


__all__ = ["W14_NS", "W_NS", "add_box", "full_width", "run_xml"]
