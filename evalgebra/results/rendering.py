r"""How evaluations show themselves: a short repr, plain text, a compact HTML block, a table.

:class:`~evalgebra.results.evaluation.Evaluation` and
:class:`~evalgebra.results.estimates.Estimate` call these functions from ``__repr__``,
``summary()``, ``_repr_html_()`` and ``to_frame()``. They read the results' attributes
only (no import of the result types, so no import circle) and render through
:mod:`evalgebra.display`: exact numbers print exactly, with decimals beside them; labels and
names are escaped; long lists are cut short with a count of what was left out.

Examples
--------
>>> from fractions import Fraction
>>> value_text(Fraction(7, 8)), value_text(None), value_text(0.25)
('7/8 ≈ 0.8750', '—', '0.25')
>>> names_text(["c0", "c1", "c2", "c3", "c4"], limit=3)
'c0, c1, c2, ... 2 more'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from evalgebra.display import DIGITS, escape, html_block, html_table, number_text, shorten

__all__ = [
    "DIGITS",
    "value_text",
    "interval_text",
    "names_text",
    "estimate_repr",
    "estimate_lines",
    "estimate_html",
    "estimate_records",
    "evaluation_repr",
    "evaluation_summary",
    "evaluation_html",
    "evaluation_records",
    "float_or_none",
    "frame",
    "record_columns",
    "RECORD_COLUMNS",
]

#: Names a repr shows before it counts the rest.
REPR_NAMES = 3

#: The columns of a table of an estimate's statistics (``to_frame``), before the intervals.
RECORD_COLUMNS = ("statistic", "label", "classifier", "value", "exact")


def value_text(value: Any, digits: int = DIGITS) -> str:
    """An exact value with its decimals (``7/8 ≈ 0.8750``); floats as floats; ``None`` as a dash."""
    return number_text(value, digits=digits)


def names_text(names: Sequence[Any], limit: int = REPR_NAMES) -> str:
    """``a, b, c, ... 2 more``: the first ``limit`` names and a count of the rest."""
    shown, more = shorten([str(n) for n in names], limit)
    return ", ".join(shown) + (f", ... {more} more" if more else "")


def _short(name: str, value: Any) -> str:
    """``name=1/4`` when the exact text is short, else ``name≈0.08875`` (for a repr)."""
    text = number_text(value)
    number = float_or_none(value)
    if isinstance(value, float):  # an approximate value says so
        return f"{name}≈{value:.4g}"
    return f"{name}={text}" if len(text) <= 16 or number is None else f"{name}≈{number:.4g}"


def _exact_text(value: Any) -> str | None:
    """The exact text of a value (``3/4``, ``1/2 + sqrt(5)/4``), ``None`` for floats and undefined."""
    if value is None or isinstance(value, float):
        return None
    if hasattr(value, "to_sympy_text"):  # quadratic and algebraic numbers: text SymPy reads back
        return str(value.to_sympy_text())
    return str(value)


def float_or_none(value: Any) -> float | None:
    """``float(value)``; ``None`` for ``None`` and for a value that has no real float (complex).

    >>> from fractions import Fraction
    >>> float_or_none(Fraction(1, 4)), float_or_none(None), float_or_none(1j)
    (0.25, None, None)
    """
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError):  # complex
        return None


def interval_text(pair: Any, digits: int = DIGITS) -> str:
    """``[0.2100, 0.2900]`` for a ``(low, high)`` pair; ``[—]`` for an undefined one.

    >>> interval_text((0.21, 0.29)), interval_text(None)
    ('[0.2100, 0.2900]', '[—]')
    """
    if pair is None:
        return "[—]"
    return f"[{float(pair[0]):.{digits}f}, {float(pair[1]):.{digits}f}]"


def _interval(estimate: Any, *path: str) -> Any:
    """The ``(low, high)`` pair at ``path`` of the estimate's intervals; ``False`` when it has none."""
    tree = getattr(estimate, "interval", None) or {}
    if not tree:
        return False
    for key in path:
        tree = tree.get(key) if isinstance(tree, dict) or hasattr(tree, "get") else None
        if tree is None:
            return None
    return tree


def _with_interval(value: Any, estimate: Any, *path: str) -> str:
    """The value's text, followed by its interval when the estimate has intervals."""
    pair = _interval(estimate, *path)
    return value_text(value) if pair is False else f"{value_text(value)} {interval_text(pair)}"


# -- Estimate ---------------------------------------------------------------------------------
def estimate_repr(estimate: Any) -> str:
    """``Estimate(prevalence a=1/4, b=3/4; accuracy of 5 classifiers)``."""
    shown, more = shorten(list(estimate.prevalence.items()), REPR_NAMES)
    prevalence = ", ".join(_short(str(label), v) for label, v in shown) + (
        f", ... {more} more" if more else ""
    )
    return f"Estimate(prevalence {prevalence}; accuracy of {len(estimate.accuracy)} classifiers)"


def estimate_lines(estimate: Any, indent: str = "") -> list[str]:
    """Plain-text lines: the prevalences, then one line per classifier (cut short)."""
    lines = [
        indent
        + "prevalence: "
        + "   ".join(
            f"P_{label} = {_with_interval(v, estimate, 'prevalence', label)}"
            for label, v in estimate.prevalence.items()
        )
    ]
    for population, row in (getattr(estimate, "by_population", None) or {}).items():
        lines.append(
            f"{indent}  in {population}: "
            + "   ".join(
                f"P_{label} = {_with_interval(v, estimate, 'by_population', population, label)}"
                for label, v in row.items()
            )
        )
    rows, more = shorten(list(estimate.accuracy.items()))
    width = max((len(str(c)) for c, _ in rows), default=0)
    for c, row in rows:
        lines.append(
            f"{indent}{str(c):<{width}}  "
            + "   ".join(
                f"acc on {label} = {_with_interval(v, estimate, 'accuracy', c, label)}"
                for label, v in row.items()
            )
        )
    if more:
        lines.append(f"{indent}... and {more} more classifiers")
    subsets, more = shorten(list((getattr(estimate, "correlation", None) or {}).items()))
    for subset, row in subsets:  # a correlated structure's G^ell_T
        lines.append(
            f"{indent}G of {', '.join(map(str, subset))}  "
            + "   ".join(f"on {label} = {value_text(v)}" for label, v in row.items())
        )
    if more:
        lines.append(f"{indent}... and {more} more correlated subsets")
    return lines


def _estimate_tables(estimate: Any) -> list[str]:
    labels = list(estimate.prevalence)
    rows = [
        [
            "prevalence",
            *(_with_interval(v, estimate, "prevalence", label) for label, v in estimate.prevalence.items()),
        ]
    ]
    by_population = getattr(estimate, "by_population", None) or {}  # a Hui-Walter estimate's own rows
    rows.extend(
        [
            f"in {population}",
            *(
                _with_interval(shares.get(label), estimate, "by_population", population, label)
                for label in labels
            ),
        ]
        for population, shares in by_population.items()
    )
    prevalence = html_table(["", *labels], rows)
    classifiers, more = shorten(list(estimate.accuracy.items()))
    accuracy = html_table(
        ["classifier", *(f"accuracy on {label}" for label in labels)],
        [
            [c, *(_with_interval(row.get(label), estimate, "accuracy", c, label) for label in labels)]
            for c, row in classifiers
        ],
        more=more,
    )
    subsets, more = shorten(list((getattr(estimate, "correlation", None) or {}).items()))
    if not subsets:
        return [prevalence, accuracy]
    correlation = html_table(
        ["correlated subset", *(f"G on {label}" for label in labels)],
        [
            [", ".join(map(str, subset)), *(value_text(row.get(label)) for label in labels)]
            for subset, row in subsets
        ],
        more=more,
    )
    return [prevalence, accuracy, correlation]


def estimate_html(estimate: Any) -> str:
    """A compact HTML block: the prevalences, one row of accuracies per classifier."""
    return html_block("Estimate", *_estimate_tables(estimate))


def estimate_records(estimate: Any) -> list[dict[str, Any]]:
    """One record per statistic: ``statistic``, ``label``, ``classifier``, ``value``, ``exact``
    (and ``low``, ``high`` when the estimate has intervals)."""
    records = [
        {
            "statistic": "prevalence",
            "label": label,
            "classifier": None,
            "value": float_or_none(v),
            "exact": _exact_text(v),
            **_bounds(estimate, "prevalence", label),
        }
        for label, v in estimate.prevalence.items()
    ]
    for c, row in estimate.accuracy.items():
        records.extend(
            {
                "statistic": "accuracy",
                "label": label,
                "classifier": c,
                "value": float_or_none(v),
                "exact": _exact_text(v),
                **_bounds(estimate, "accuracy", c, label),
            }
            for label, v in row.items()
        )
    for subset, row in (
        getattr(estimate, "correlation", None) or {}
    ).items():  # classifier: the subset, "c0,c1"
        records.extend(
            {
                "statistic": "correlation",
                "label": label,
                "classifier": ",".join(map(str, subset)),
                "value": float_or_none(v),
                "exact": _exact_text(v),
            }
            for label, v in row.items()
        )
    return records


def _bounds(estimate: Any, *path: str) -> dict[str, Any]:
    pair = _interval(estimate, *path)
    if pair is False:
        return {}
    return {"low": None, "high": None} if pair is None else {"low": float(pair[0]), "high": float(pair[1])}


def record_columns(records: list[dict[str, Any]], columns: Sequence[str]) -> tuple[str, ...]:
    """The columns, with ``low`` and ``high`` appended when a record has intervals."""
    return (*columns, "low", "high") if any("low" in r for r in records) else tuple(columns)


# -- Evaluation -------------------------------------------------------------------------------
def _parts_name(evaluation: Any) -> str:
    return "trios" if evaluation.method == "algebraic" else "sub-evaluations"


def _correlated(evaluation: Any) -> str:
    """``", errors correlated on c0-c1"`` when the evaluation assumed a correlated structure, else ``""``."""
    structure = getattr(evaluation, "structure", None)
    return "" if structure in (None, "independent") else f", errors correlated on {structure}"


def evaluation_repr(evaluation: Any) -> str:
    """A few hundred characters at most: method, sizes, the chosen prevalences, alarm kinds, trios."""
    point = evaluation.point
    if point is None:
        choice = "no point chosen"
    else:
        shown, more = shorten(list(point.prevalence.items()), REPR_NAMES)
        choice = (
            "chosen "
            + ", ".join(_short(f"P_{label}", v) for label, v in shown)
            + (f", ... {more} more" if more else "")
        )
    kinds = sorted({a.kind for a in evaluation.alarms})
    alarms = f"alarms: {names_text(kinds)}" if kinds else "no alarms"
    parts = f"; {len(evaluation.trios)} {_parts_name(evaluation)}" if evaluation.trios else ""
    structure = f"; structure {evaluation.structure}" if _correlated(evaluation) else ""
    text = (
        f"Evaluation({evaluation.method}{structure}; classifiers {names_text(evaluation.classifiers)}; "
        f"labels {names_text(evaluation.labels)}; {choice}; {alarms}{parts})"
    )
    return text if len(text) <= 400 else text[:396] + "...)"


def _parts_summary(evaluation: Any) -> str | None:
    """``10 trios, 7 with a chosen point; P_a from 0.1 to 0.3 (spread 0.2); alarms: blind_spot 3``."""
    parts = evaluation.trios
    if not parts:
        return None
    first = evaluation.labels[0]
    chosen = [p.point for p in parts if p.point is not None]
    values = [x for x in (float_or_none(e.prevalence.get(first)) for e in chosen) if x is not None]
    text = f"{len(parts)} {_parts_name(evaluation)}, {len(chosen)} with a chosen point"
    if values:
        low, high = min(values), max(values)
        text += f"; P_{first} from {low:.4g} to {high:.4g} (spread {high - low:.3g})"
    kinds: dict[str, int] = {}
    for part in parts:
        for kind in {a.kind for a in part.alarms}:
            kinds[kind] = kinds.get(kind, 0) + 1
    if kinds:
        text += "; alarms in them: " + ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
    return text


def _alarm_rows(evaluation: Any) -> tuple[list[list[str]], int]:
    """The ensemble's own alarms one line each, then the trios' alarms one line per kind."""
    trios = {tuple(trio.classifiers) for trio in getattr(evaluation, "trios", ())}
    own = [[a.kind, a.detail] for a in evaluation.alarms if tuple(a.classifiers) not in trios]
    by_kind: dict[str, list[str]] = {}
    for alarm in evaluation.alarms:
        if tuple(alarm.classifiers) in trios:
            members = by_kind.setdefault(alarm.kind, [])
            trio = ", ".join(map(str, alarm.classifiers))
            if trio not in members:  # a trio may raise one kind several times (blind spots)
                members.append(trio)
    for kind, members in sorted(by_kind.items()):
        shown, more = shorten(members, 3)
        own.append(
            [
                kind,
                f"in {len(members)} of {len(trios)} trios ({'; '.join(shown)}"
                + (f"; and {more} more" if more else "")
                + ")",
            ]
        )
    return shorten(own)


def evaluation_summary(evaluation: Any) -> str:
    """Plain text: the chosen point (or the candidates), the alarms one line each, the trios in one line."""
    lines = [
        f"Evaluation by the {evaluation.method} method{_correlated(evaluation)}: "
        f"{len(evaluation.classifiers)} classifiers ({names_text(evaluation.classifiers)}), "
        f"labels {', '.join(map(str, evaluation.labels))}"
    ]
    fit = getattr(evaluation, "fit", None)
    if evaluation.point is not None:
        kind = (
            " (fitted by maximum likelihood)"
            if fit is not None and evaluation.chosen == fit.fitted_index
            else ""
        )
        lines.append(f"chosen point{kind}:")
        lines.extend(estimate_lines(evaluation.point, indent="  "))
    else:
        lines.append(f"no point chosen; {len(evaluation.points)} candidate(s):")
        for k, candidate in enumerate(evaluation.points):
            lines.append(
                f"  candidate {k}: "
                + "   ".join(f"P_{label} = {value_text(v)}" for label, v in candidate.prevalence.items())
            )
    if getattr(evaluation, "intervals", None) is not None and evaluation.point is not None:
        lines.append("  " + evaluation.intervals.text())
    if fit is not None:
        lines.append(fit.describe())
    evidence = getattr(evaluation, "structure_evidence", None)
    if evidence is not None:
        lines.extend(evidence.lines())
    rows, more = _alarm_rows(evaluation)
    lines.append("alarms:" + ("" if rows else " none"))
    lines.extend(f"  [{kind}] {detail}" for kind, detail in rows)
    if more:
        lines.append(f"  ... and {more} more")
    trios = _parts_summary(evaluation)
    if trios:
        lines.append(trios)
    return "\n".join(lines)


def evaluation_html(evaluation: Any) -> str:
    """A compact HTML block: the chosen point, the alarms one line each, the trios summarised."""
    title = (
        f"Evaluation ({evaluation.method}{_correlated(evaluation)}): "
        f"{len(evaluation.classifiers)} classifiers, "
        f"{len(evaluation.labels)} labels"
    )
    parts: list[str] = []
    if evaluation.point is not None:
        parts.append("<p>Chosen point:</p>")
        parts.extend(_estimate_tables(evaluation.point))
        if getattr(evaluation, "intervals", None) is not None:
            parts.append(f"<p>{escape(evaluation.intervals.text())}.</p>")
    else:
        labels = list(evaluation.labels)
        rows, more = shorten(
            [
                [f"candidate {k}", *(value_text(p.prevalence.get(label)) for label in labels)]
                for k, p in enumerate(evaluation.points)
            ]
        )
        parts.append("<p>No point chosen (see the alarms).</p>")
        parts.append(html_table(["", *(f"prevalence of {label}" for label in labels)], rows, more=more))
    rows, more = _alarm_rows(evaluation)
    if rows:
        parts.append(html_table(["alarm", "detail"], rows, more=more))
    else:
        parts.append("<p>No alarms.</p>")
    trios = _parts_summary(evaluation)
    if trios:
        parts.append(f"<p>{escape(trios)}.</p>")
    return html_block(title, *parts)


def evaluation_records(evaluation: Any) -> list[dict[str, Any]]:
    """One record per statistic of every candidate point, with ``point`` and ``chosen`` columns."""
    records = []
    for k, estimate in enumerate(evaluation.points):
        for record in estimate_records(estimate):
            records.append({"point": k, "chosen": k == evaluation.chosen, **record})
    return records


def frame(records: list[dict[str, Any]], columns: Sequence[str]) -> Any:
    """A :class:`pandas.DataFrame` of the records (pandas is optional: imported here)."""
    try:
        import pandas as pd
    except ImportError:
        raise ImportError(
            "to_frame() needs pandas, which is optional: pip install pandas (or use to_dict() / summary())"
        ) from None
    return pd.DataFrame.from_records(records, columns=list(columns))
