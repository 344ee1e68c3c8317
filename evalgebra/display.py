r"""Building blocks for how results show themselves: compact HTML tables and exact numbers as text.

Every result type (sketches, points, evaluations, alarm reports) renders through these few
functions, so notebooks show one visual language. Nothing here computes a statistic.

Examples
--------
>>> from fractions import Fraction
>>> print(html_table(["label", "prevalence"], [["a", Fraction(1, 10)], ["b", "<9/10>"]],
...                  caption="Prevalences"))
<table class="evalgebra">
<caption>Prevalences</caption>
<thead><tr><th>label</th><th>prevalence</th></tr></thead>
<tbody>
<tr><td>a</td><td>1/10</td></tr>
<tr><td>b</td><td>&lt;9/10&gt;</td></tr>
</tbody>
</table>
>>> number_text(Fraction(3, 4)), number_text(Fraction(3, 4), digits=3), number_text(Fraction(1), digits=3)
('3/4', '3/4 ≈ 0.750', '1')
>>> shorten(["x"] * 30, limit=3)
(['x', 'x', 'x'], 27)
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

__all__ = ["escape", "number_text", "html_table", "html_block", "shorten", "MAX_ROWS", "DIGITS"]

#: Decimal places shown beside an exact number (every display: points, estimates, tables).
DIGITS = 4

#: Rows a table shows before it summarises the rest as "... N more".
MAX_ROWS = 20


def escape(value: Any) -> str:
    """HTML-escaped ``str(value)`` (labels and names are user text)."""
    return html.escape(str(value), quote=True)


def number_text(value: Any, digits: int | None = None) -> str:
    r"""An exact number as text, with a decimal approximation when ``digits`` is given.

    Integers and fractions print exactly (``3/4``); other exact numbers use their own ``str``;
    ``None`` prints as an em dash.
    """
    if value is None:
        return "—"
    if isinstance(value, Fraction):
        text = str(value)
    elif isinstance(value, float):
        return f"{value:.{digits if digits is not None else 6}g}"
    else:
        text = str(value)
    if digits is None or isinstance(value, int) or isinstance(value, Fraction) and value.denominator == 1:
        return text  # integers are their own decimals
    try:
        approx = float(value)
    except (TypeError, ValueError, OverflowError):
        return text
    if str(approx) == text or text == f"{approx:.{digits}f}":
        return text
    return f"{text} ≈ {approx:.{digits}f}"


def shorten(rows: Sequence[Any], limit: int = MAX_ROWS) -> tuple[list[Any], int]:
    """The first ``limit`` rows and how many were left out."""
    rows = list(rows)
    return rows[:limit], max(0, len(rows) - limit)


def html_table(
    header: Sequence[Any],
    rows: Iterable[Sequence[Any]],
    caption: str | None = None,
    more: int = 0,
    digits: int | None = None,
) -> str:
    r"""A compact HTML table; every cell is escaped, numbers print exactly.

    Parameters
    ----------
    header : sequence
        Column titles.
    rows : iterable of sequences
        Cells; a ``Fraction`` prints as ``p/q``.
    caption : str, optional
    more : int
        Rows left out; shown as a last row ``... and N more``.
    digits : int, optional
        Show each ``Fraction`` with a decimal approximation to this many places too.
    """
    lines = ['<table class="evalgebra">']
    if caption:
        lines.append(f"<caption>{escape(caption)}</caption>")
    lines.append("<thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in header) + "</tr></thead>")
    lines.append("<tbody>")
    for row in rows:
        cells = (number_text(c, digits) if isinstance(c, Fraction) or c is None else c for c in row)
        lines.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
    if more:
        lines.append(f'<tr><td colspan="{len(header)}">… and {more} more</td></tr>')
    lines.append("</tbody>")
    lines.append("</table>")
    return "\n".join(lines)


def html_block(title: str, *parts: str) -> str:
    """A titled block holding already rendered HTML parts (tables, lists)."""
    body = "\n".join(part for part in parts if part)
    return f'<div class="evalgebra">\n<strong>{escape(title)}</strong>\n{body}\n</div>'
