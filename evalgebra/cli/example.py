r"""``evalgebra example``: the main job on bundled data.

Sketch the ACS employment items, print their exact evaluation point and the complete generating
set, check that the set reproduces the sketch exactly, evaluate from the counts alone and run the
logical alarm on three LLM graders; then evaluate generated LLM judges, two of which abstain.
"""

from __future__ import annotations

import argparse
from typing import Any

from evalgebra import datasets
from evalgebra.cli.alarm import format_alarm
from evalgebra.cli.point import format_point
from evalgebra.data.point import evaluation_point
from evalgebra.data.sketch import Sketch
from evalgebra.evaluators.dispatch import evaluate

__all__ = ["register", "run"]


def run(args: argparse.Namespace) -> int:
    """Run the main job on bundled data; the exit status (1: the check failed)."""
    from evalgebra.alarm.logical import logical_alarm  # SciPy: only when the alarm runs
    from evalgebra.builder import GeneratingSet  # SymPy: only when polynomials are built

    csv_path = datasets.items_csv("acs_employment")
    sketch = Sketch.from_csv(csv_path, truth="truth")
    print(
        f"# sketch of {csv_path.name} ('Algebraic Evaluation Theorems', Table 1: ACS employment, "
        "three classifiers)"
    )
    print(sketch.to_json(), end="")
    point = evaluation_point(sketch, structure="complete")
    print("\n# exact evaluation point")
    print(format_point(point))
    gs = GeneratingSet(point.spec)
    print(f"\n# complete generating set: {gs!r}")
    print(f"# symbols: {gs.legend()}")
    print(gs.to_text())
    residuals = gs.residuals(point.free_values(), gs.observed_values(sketch))
    exact = all(r == 0 for r in residuals)
    print(
        "\n# check: the generating set at the evaluation point reproduces every pattern "
        f"frequency exactly: {exact}"
    )
    unlabelled = sketch.unlabelled()
    algebraic, majority = evaluate(unlabelled, "algebraic"), evaluate(unlabelled, "majority")
    print("\n# evaluation from the counts alone (answer key dropped): algebraic vs majority vote vs truth")
    print(f"{'statistic':<14}{'algebraic':>12}{'majority':>12}{'truth':>12}")
    first = sketch.labels[0]
    rows: list[tuple[str, Any, Any]] = [(f"P_{first}", ("prevalence", first), point.prevalence_of()[first])]
    for c in sketch.classifiers:
        for label in sketch.labels:
            rows.append((f"{c} acc {label}", ("accuracy", c, label), point.accuracy(c, label)))

    def pick(estimate: Any, where: tuple[str, ...]) -> float:
        table = getattr(estimate, where[0])
        return float(table[where[1]] if len(where) == 2 else table[where[1]][where[2]])

    for name, where, truth in rows:
        print(
            f"{name:<14}{pick(algebraic.point, where):>12.4f}{pick(majority.point, where):>12.4f}"
            f"{float(truth):>12.4f}"
        )
    print("alarms (algebraic): " + "; ".join(f"[{a.kind}] {a.detail}" for a in algebraic.alarms))
    graders = datasets.load("bigbench_mistake")
    print(
        "\n# logical alarm: three LLM graders on BIG-Bench-Mistake "
        "('A logical alarm for misaligned binary classifiers', "
        "Table 2), counts alone"
    )
    print(format_alarm(logical_alarm(graders.unlabelled())))
    _judges()
    return 0 if exact else 1


def _judges() -> None:
    """Generated judges that abstain: every response row from the counts alone, against the truth."""
    from evalgebra.datasets.judges import llm_judges

    data = llm_judges(n_items=10_000, seed=0)
    sketch = data.sketch(missing="abstain")
    truth, point = data.truth_point(), evaluate(sketch).point
    if point is None or sketch.missing_report is None:  # pragma: no cover - the seeded data decides
        return
    print(
        "\n# judges that abstain (generated, evalgebra.datasets.judges, seed 0): "
        + sketch.missing_report.text()
    )
    print(f"{'rate':<34}{'algebraic':>12}{'truth':>12}")
    print(
        f"{'P_pass':<34}{float(point.prevalence['pass']):>12.4f}{float(truth.prevalence_of()['pass']):>12.4f}"
    )
    for judge in data.judges[3:]:
        for label in data.labels:
            for answer in sketch.responses:
                name = f"{judge} says {answer} | {label}"
                print(
                    f"{name:<34}{float(point.response[judge][label][answer]):>12.4f}"
                    f"{float(truth.response_rate(judge, answer, label)):>12.4f}"
                )


def register(sub: Any) -> argparse.ArgumentParser:
    """Add the ``example`` command to the subcommands ``sub``; its parser."""
    example = sub.add_parser("example", help="sketch, evaluation point and generating set of bundled data")
    example.set_defaults(run=run)
    return example
