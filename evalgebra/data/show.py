r"""How sketches and evaluation points show themselves: terminal summaries, HTML, DataFrames.

:meth:`Sketch.summary <evalgebra.data.sketch_io.SketchIO.summary>`, ``Sketch._repr_html_`` and
``Sketch.to_frame`` (and the same three of
:class:`~evalgebra.data.point.EvaluationPoint`) call the functions here. They read the
objects' public attributes only, so this module imports neither class; HTML goes through
:mod:`evalgebra.display`, whose tables escape every cell and print fractions exactly.
Long lists stop after :data:`~evalgebra.display.MAX_ROWS` rows with "... and N more".

Examples
--------
>>> short_names(["c0", "c1", "c2"])
"['c0', 'c1', 'c2']"
>>> short_names([f"c{k}" for k in range(100)])
"['c0', 'c1', 'c2', 'c3', 'c4', ... (100 in all)]"
>>> pattern_text(("yes", "no"))
'yes no'
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from evalgebra.data.patterns import decode
from evalgebra.display import DIGITS, html_block, html_table, number_text, shorten

__all__ = [
    "short_names",
    "pattern_text",
    "text_table",
    "sketch_summary",
    "sketch_html",
    "sketch_frame",
    "point_summary",
    "point_html",
    "point_frame",
]

#: Characters of one name shown by ``__repr__`` before it is cut with "…".
NAME_WIDTH = 24


def short_names(names: Sequence[Any], limit: int = 6) -> str:
    """A list of names as ``repr`` text, at most ``limit`` shown and each cut to a few characters."""
    shown = [str(n) if len(str(n)) <= NAME_WIDTH else str(n)[: NAME_WIDTH - 1] + "…" for n in names]
    if len(shown) <= limit:
        return repr(shown)
    return "[" + ", ".join(repr(n) for n in shown[: limit - 1]) + f", ... ({len(shown)} in all)]"


def pattern_text(pattern: Sequence[str]) -> str:
    """A decision pattern as its labels separated by spaces."""
    return " ".join(str(label) for label in pattern)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _name_list(names: Sequence[Any]) -> str:
    shown, more = shorten(names)
    text = ", ".join(str(n) for n in shown)
    return f"{text}, ... and {more} more" if more else text


def text_table(
    header: Sequence[str], rows: Sequence[Sequence[Any]], more: int = 0, indent: str = "  "
) -> str:
    """Aligned plain-text columns (first left, the rest right), numbers printed exactly."""
    cells = [
        [number_text(c) if isinstance(c, Fraction) or c is None else str(c) for c in row] for row in rows
    ]
    widths = [max(len(str(h)), *(len(row[k]) for row in cells)) for k, h in enumerate(header)]

    def line(row: Sequence[str]) -> str:
        first = row[0].ljust(widths[0])
        return (indent + "  ".join([first] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])])).rstrip()

    lines = [line([str(h) for h in header])] + [line(row) for row in cells]
    if more:
        lines.append(f"{indent}... and {more} more")
    return "\n".join(lines)


# -- sketches ------------------------------------------------------------------------------
def _sketch_title(sketch: Any) -> str:
    kind = "labelled" if sketch.is_labelled else "unlabelled"
    abstain = getattr(sketch, "abstain", ())
    return (
        f"Sketch: {sketch.Q} items, {kind}, {sketch.n_classifiers} classifiers, "
        f"{sketch.n_labels} labels" + (f", {_plural(len(abstain), 'abstention')}" if abstain else "")
    )


def _top_patterns(sketch: Any) -> tuple[list[list[Any]], list[str], int]:
    """Rows ``pattern, count, frequency[, count per true label]``, most frequent first."""
    counts = sketch.counts()
    total = sketch.Q
    ranked = sorted(counts.items(), key=lambda item: -item[1])  # stable: ties in pattern order
    shown, more = shorten(ranked)
    header = ["pattern", "count", "frequency"]
    split = sketch.by_true_label() if sketch.is_labelled else None
    if split is not None:
        header += [f"true {label}" for label in sketch.labels]
    rows = []
    for pattern, count in shown:
        row: list[Any] = [pattern_text(pattern), count, Fraction(count, total)]
        if split is not None:
            row += [split[label].get(pattern, 0) for label in sketch.labels]
        rows.append(row)
    return rows, header, more


def _population_rows(sketch: Any) -> list[list[Any]]:
    return [[name, sketch.size(name)] for name in sketch.populations]


def sketch_summary(sketch: Any) -> str:
    """Plain text for the terminal (see ``Sketch.summary``)."""
    lines = [
        _sketch_title(sketch),
        f"  classifiers: {_name_list(sketch.classifiers)}",
        f"  labels: {_name_list(sketch.labels)}",
    ]
    if getattr(sketch, "abstain", ()):
        lines.append(f"  abstentions: {_name_list(sketch.abstain)}")
    report = getattr(sketch, "missing_report", None)
    if report is not None and report.cells:
        lines.append(f"  {report.text()}")
    if tuple(sketch.populations) != ("all",):
        shown, more = shorten(_population_rows(sketch))
        lines.append(
            "  populations: "
            + ", ".join(f"{n} ({q})" for n, q in shown)
            + (f", ... and {more} more" if more else "")
        )
    if sketch.is_labelled:
        lines.append(
            "  items per true label: "
            + ", ".join(f"{label} {q}" for label, q in sketch.label_counts().items())
        )
    rows, header, more = _top_patterns(sketch)
    lines.append(text_table(header, rows, more))
    return "\n".join(lines)


def sketch_html(sketch: Any) -> str:
    """A compact HTML block: names, sizes and the most frequent patterns with their counts."""
    facts: dict[str, Any] = {
        "classifiers": _name_list(sketch.classifiers),
        "labels": _name_list(sketch.labels),
        "items": sketch.Q,
    }
    if tuple(sketch.populations) != ("all",):
        shown, more = shorten(_population_rows(sketch))
        facts["populations"] = ", ".join(f"{n} ({q})" for n, q in shown) + (
            f", ... and {more} more" if more else ""
        )
    if sketch.is_labelled:
        facts["items per true label"] = ", ".join(
            f"{label} {q}" for label, q in sketch.label_counts().items()
        )
    rows, header, more = _top_patterns(sketch)
    return html_block(
        _sketch_title(sketch),
        html_table(list(facts), [list(facts.values())]),
        html_table(header, rows, caption="Most frequent decision patterns", more=more),
    )


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:  # pragma: no cover - pandas is a test dependency
        raise ImportError("to_frame() needs pandas: pip install pandas") from None
    return pandas


def sketch_frame(sketch: Any) -> Any:
    """A DataFrame with one row per stored cell (see ``Sketch.to_frame``)."""
    pd = _pandas()
    pop, truth, code, count = sketch.table()
    responses = tuple(sketch.labels) + tuple(getattr(sketch, "abstain", ()))
    digits = decode(code, sketch.n_classifiers, len(responses))
    columns: dict[str, Any] = {}
    if tuple(sketch.populations) != ("all",):
        columns["population"] = [sketch.populations[s] for s in pop.tolist()]
    if sketch.is_labelled:
        columns["true_label"] = [sketch.labels[t] for t in truth.tolist()]
    for i, name in enumerate(sketch.classifiers):
        columns[name] = [responses[d] for d in digits[:, i].tolist()]
    columns["count"] = count
    return pd.DataFrame(columns)


# -- evaluation points ---------------------------------------------------------------------------
def _point_title(point: Any) -> str:
    spec = point.spec
    size = "" if point.Q is None else f", Q={point.Q}"
    return f"EvaluationPoint: {spec.n_classifiers} classifiers, {spec.n_labels} labels{size}"


def _prevalence_rows(point: Any) -> tuple[list[str], list[list[Any]]]:
    header = ["population", *point.spec.labels]
    rows = [[pop, *point.prevalence[s]] for s, pop in enumerate(point.spec.populations)]
    if point.sizes is not None:
        header.append("items")
        for row, size in zip(rows, point.sizes):
            row.append(size)
    return header, rows


def _accuracy_rows(point: Any) -> tuple[list[str], list[list[Any]]]:
    spec = point.spec
    header = ["classifier", *(f"accuracy on {label}" for label in spec.labels)]
    rows = [
        [name, *(None if row is None else row[ell] for ell, row in enumerate(point.response[i]))]
        for i, name in enumerate(spec.classifiers)
    ]
    return header, rows


def _response_rows(point: Any) -> tuple[list[str], list[list[Any]]]:
    spec = point.spec
    header = ["classifier", "true label", *(f"answers {r}" for r in spec.responses)]
    rows = [
        [name, spec.labels[ell], *(row if row is not None else (None,) * spec.n_responses)]
        for i, name in enumerate(spec.classifiers)
        for ell, row in enumerate(point.response[i])
    ]
    return header, rows


def _correlation_rows(point: Any) -> tuple[list[str], list[list[Any]], str]:
    """Per subset, ``G^ell_T`` at the all-correct responses, and a one-line summary."""
    spec = point.spec
    header = ["classifiers", *(f"G on {label}" for label in spec.labels)]
    rows = []
    largest: tuple[Fraction, str] | None = None
    nonzero = 0
    for subset, tables in point.correlation.items():
        names = ", ".join(spec.classifiers[i] for i in subset)
        row: list[Any] = [names]
        for ell, table in enumerate(tables):
            row.append(None if table is None else table[(ell,) * len(subset)])
            if table is not None and any(table.values()):
                nonzero += 1
                top = max(abs(v) for v in table.values())
                if largest is None or top > largest[0]:
                    largest = (top, f"{{{names}}} on {spec.labels[ell]}")
        rows.append(row)
    tables = sum(1 for row in rows for value in row[1:] if value is not None)
    note = f"{_plural(len(rows), 'subset')}, {nonzero} of {_plural(tables, 'table')} nonzero"
    if largest is not None:
        note += f", largest |G| = {number_text(largest[0])} for {largest[1]}"
    return header, rows, note


def point_summary(point: Any) -> str:
    """Plain text for the terminal (see ``EvaluationPoint.summary``)."""
    lines = [_point_title(point), "  prevalence:"]
    header, rows = _prevalence_rows(point)
    lines.append(text_table(header, rows, indent="    "))
    header, rows = _accuracy_rows(point)
    shown, more = shorten(rows)
    lines += ["  accuracy:", text_table(header, shown, more, indent="    ")]
    if point.spec.n_responses > 2:
        header, rows = _response_rows(point)
        shown, more = shorten(rows)
        lines += ["  response rates:", text_table(header, shown, more, indent="    ")]
    header, rows, note = _correlation_rows(point)
    if rows:
        shown, more = shorten(rows)
        lines += [
            f"  error correlations at all-correct responses ({note}):",
            text_table(header, shown, more, indent="    "),
        ]
    else:
        lines.append("  error correlations: none (independent structure)")
    return "\n".join(lines)


def point_html(point: Any) -> str:
    """A compact HTML block: prevalences, accuracies (or response rows), correlations summarised."""
    parts = []
    header, rows = _prevalence_rows(point)
    parts.append(html_table(header, rows, caption="Prevalences", digits=DIGITS))
    header, rows = _accuracy_rows(point)
    shown, more = shorten(rows)
    parts.append(
        html_table(header, shown, caption="Accuracies P(answer = truth | truth)", more=more, digits=DIGITS)
    )
    if point.spec.n_responses > 2:
        header, rows = _response_rows(point)
        shown, more = shorten(rows)
        parts.append(
            html_table(header, shown, caption="Response rates P(answer | truth)", more=more, digits=DIGITS)
        )
    header, rows, note = _correlation_rows(point)
    if rows:
        shown, more = shorten(rows)
        parts.append(
            html_table(
                header, shown, more=more, caption=f"Error correlations at all-correct responses: {note}"
            )
        )
    else:
        parts.append(html_table(["error correlations"], [["none (independent structure)"]]))
    return html_block(_point_title(point), *parts)


def point_frame(point: Any) -> Any:
    """A long DataFrame of response rates (see ``EvaluationPoint.to_frame``)."""
    pd = _pandas()
    spec = point.spec
    records = [
        (name, spec.labels[ell], spec.responses[r], None if row is None else row[r])
        for i, name in enumerate(spec.classifiers)
        for ell, row in enumerate(point.response[i])
        for r in range(spec.n_responses)
    ]
    return pd.DataFrame(records, columns=["classifier", "true_label", "response", "rate"])
