"""A report as one self-contained HTML page: no script, no style sheet, font or image from
anywhere else, so it opens offline in any browser. Each table is a section with how it is
computed; a figure is a link to the list of its rows further down the page ("Figure rows"); a
table of counts per questionnaire (the trends) is drawn as bars too, in inline SVG. Every text is
escaped."""

from __future__ import annotations

from html import escape
from typing import Sequence

from engine.review.reports.tables import Figure, Table

_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2rem;color:#1f2328}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2.2rem}h3{font-size:1rem;margin:1.2rem 0 .3rem}
table{border-collapse:collapse;font-size:.85rem;margin:.4rem 0}
th,td{border:1px solid #d0d7de;padding:.25rem .5rem;vertical-align:top;text-align:left}
th{background:#f6f8fa;position:sticky;top:0}td.n{text-align:right}
p.about{color:#57606a;margin:.2rem 0}nav a{margin-right:1rem}
.clip{max-width:38rem}
"""
_CHART = ("Accepted unchanged", "Edited", "Rejected", "Needs SME")
_COLOURS = ("#2da44e", "#bf8700", "#cf222e", "#8250df")


def html_text(title: str, made: str, tables: Sequence[Table]) -> str:
    """The page of ``tables`` (see the module docstring); ``made``: when the report was made."""
    ids: dict[int, str] = {}
    figures = [f for t in tables for f in t.figures() if f.value]
    for n, f in enumerate(figures, 1):
        ids[id(f)] = f"f{n}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1><p class=about>Made {escape(made)}. Each figure links to its rows.</p>",
        "<nav>" + "".join(f'<a href="#t{i}">{escape(t.name)}</a>' for i, t in enumerate(tables, 1)) + "</nav>",
    ]
    for i, table in enumerate(tables, 1):
        parts.append(f'<h2 id="t{i}">{escape(table.name)}</h2><p class=about>{escape(table.about)}</p>')
        if table.name == "Trends" and table.rows:
            parts.append(_bars(table))
        parts.append(_table(table, ids) if table.rows else "<p>None.</p>")
    parts.append('<h2 id="rows">Figure rows</h2><p class=about>The rows each figure counts.</p>')
    for f in figures:
        lines = "".join(
            f"<tr><td>{escape(r.label)}</td><td class=clip>{escape(r.question)}</td><td>{escape(r.where)}</td></tr>"
            for r in f.refs
        )
        parts.append(
            f'<h3 id="{ids[id(f)]}">{escape(f.name)} ({f.value})</h3>'
            f"<table><tr><th>Row</th><th>Question</th><th>Where</th></tr>{lines}</table>"
        )
    parts.append("</body></html>")
    return "\n".join(parts)


def _table(table: Table, ids: dict[int, str]) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in table.columns)
    body = []
    for row in table.rows:
        cells = []
        for value in row:
            if isinstance(value, Figure):
                shown = f'<a href="#{ids[id(value)]}">{value.value}</a>' if id(value) in ids else "0"
                cells.append(f"<td class=n>{shown}</td>")
            elif isinstance(value, (int, float)):
                cells.append(f"<td class=n>{value}</td>")
            else:
                cells.append(f"<td class=clip>{escape('' if value is None else str(value))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def _bars(table: Table) -> str:
    """The trends' decided drafts per questionnaire as stacked horizontal bars (inline SVG)."""
    cols = [table.columns.index(c) for c in _CHART]
    values = [[_count(row[c]) for c in cols] for row in table.rows]
    top = max((sum(v) for v in values), default=0) or 1
    width, bar, label = 720, 18, 260
    height = len(values) * (bar + 8) + 30
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">']
    for i, (row, counts) in enumerate(zip(table.rows, values)):
        y, x = 4 + i * (bar + 8), label
        parts.append(f'<text x="0" y="{y + 13}" font-size="12">{escape(str(row[0])[:40])}</text>')
        for n, colour in zip(counts, _COLOURS):
            w = (width - label - 10) * n / top
            if w:
                parts.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar}" fill="{colour}"/>')
            x += w
    y = height - 8
    for k, (name, colour) in enumerate(zip(_CHART, _COLOURS)):
        parts.append(f'<rect x="{label + k * 120}" y="{y - 10}" width="10" height="10" fill="{colour}"/>')
        parts.append(f'<text x="{label + k * 120 + 14}" y="{y}" font-size="11">{escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _count(value) -> int:
    return value.value if isinstance(value, Figure) else int(value or 0)
