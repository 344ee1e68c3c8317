"""The structure cache runs only the modules evalgebra wrote there: planted or changed files never run.

A planted file defines a valid evaluator and, when run, writes a marker file: the marker's
absence is the proof that it did not run. A genuine module is written by the project's writer
(:func:`evalgebra.codegen.cache.write_cached_module`, what ``--spec --out`` and ``evaluate
--derive`` call) from a real derivation; it must still load and evaluate an exact simulation
exactly, and a second lookup must not read the folder again.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

import evalgebra.evaluators.correlated.structure_lookup as structure_lookup
from evalgebra.codegen.cache import CACHE_PROTOCOL, write_cached_module
from evalgebra.codegen.structure_modules import MODULE_PROTOCOL, structure_source
from evalgebra.codegen.structures import derive_structure
from evalgebra.data.point import EvaluationPoint
from evalgebra.data.simulate import expected_sketch
from evalgebra.evaluators.correlated.structure_lookup import (
    LOADED_PROTOCOL,
    MissingStructureModule,
    available_structures,
    find_structure_module,
)
from evalgebra.evaluators.dispatch import evaluate
from evalgebra.fileio import RECORD_NAME, write_recorded
from evalgebra.generated import runtime
from evalgebra.spec import EnsembleSpec

TRIPLE = ((0, 1, 2),)  # identifiable on four classifiers, no packaged evaluator: only the cache can serve it


def _planted(marker: Path) -> str:
    """A module that would serve TRIPLE and, when run, leaves ``marker`` behind."""
    return (
        f"import pathlib\npathlib.Path({str(marker)!r}).write_text('ran')\n"
        "N_CLASSIFIERS = 4\nN_LABELS = 2\nSTRUCTURE = ((0, 1, 2),)\nDEGREE = 1\nUNKNOWNS = ('prev_a',)\n"
        "def eliminant(counts):\n    return (1, -2)\n"
        "def back_substitute(counts, prevalence):\n    return {}\n"
    )


@pytest.fixture(scope="module")
def triple_form():
    return derive_structure(4, list(TRIPLE))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    folder.mkdir()
    monkeypatch.setenv(structure_lookup.CACHE_VARIABLE, str(folder))
    return folder


def _truth():
    accuracy = {
        0: {"a": "3/4", "b": "2/3"},
        1: {"a": "5/6", "b": "3/4"},
        2: {"a": "2/3", "b": "5/6"},
        3: {"a": "3/4", "b": "3/4"},
    }
    return EvaluationPoint.from_values(
        EnsembleSpec(4, 2, list(TRIPLE)),
        {"a": "4/13"},
        accuracy=accuracy,
        correlation={TRIPLE[0]: {"a": "1/256", "b": "-1/384"}},
    )


def test_writer_and_loader_agree_on_the_protocol():
    assert CACHE_PROTOCOL == LOADED_PROTOCOL


@pytest.mark.parametrize("beside_a_genuine_one", [False, True])
def test_a_planted_module_is_never_run(cache, tmp_path, triple_form, beside_a_genuine_one):
    marker = tmp_path / "planted-ran"
    if beside_a_genuine_one:  # a manifest exists and records another file: the planted one is still refused
        write_recorded(cache / "n4_r2_other.py", "N_CLASSIFIERS = 4\n", protocol=LOADED_PROTOCOL)
    (cache / "n4_r2_012.py").write_text(_planted(marker), encoding="utf-8")
    (cache / "n4_r2_zz_planted.py").write_text(_planted(marker), encoding="utf-8")
    with pytest.raises(MissingStructureModule) as refused:
        find_structure_module(TRIPLE, 4, 2)
    message = str(refused.value)
    assert (
        "\n" not in message and "n4_r2_012.py is not recorded" in message and "evaluate --derive" in message
    )
    assert all(origin.startswith("evalgebra.generated") for *_, origin in available_structures())
    assert not marker.exists(), "a planted file ran"


def test_a_changed_module_is_refused_and_derive_writes_a_recorded_one_over_it(
    cache, tmp_path, triple_form, capsys
):
    from evalgebra.cli import main

    marker = tmp_path / "tampered-ran"
    target = write_cached_module(cache, triple_form)
    genuine = target.read_text(encoding="utf-8")
    target.write_text(
        genuine + f"\nimport pathlib\npathlib.Path({str(marker)!r}).write_text('ran')\n", encoding="utf-8"
    )
    with pytest.raises(MissingStructureModule, match="n4_r2_012.py changed since evalgebra wrote it"):
        find_structure_module(TRIPLE, 4, 2)
    path = tmp_path / "sketch.json"
    expected_sketch(_truth()).unlabelled().write_json(path)
    assert main(["evaluate", str(path), "--structure", "0-1-2", "--derive"]) == 0
    captured = capsys.readouterr()
    assert "deriving the evaluator of structure 0-1-2" in captured.err and "P_a = 4/13" in captured.out
    assert target.read_text(encoding="utf-8") == genuine and not marker.exists()
    assert find_structure_module(TRIPLE, 4, 2).origin == str(target)


def test_a_module_for_another_protocol_is_refused(cache, triple_form):
    write_recorded(cache / "n4_r2_012.py", structure_source(triple_form), protocol=LOADED_PROTOCOL + 1)
    with pytest.raises(MissingStructureModule, match=f"for protocol {LOADED_PROTOCOL + 1}; this evalgebra"):
        find_structure_module(TRIPLE, 4, 2)


def test_a_genuine_module_loads_evaluates_exactly_and_is_read_once(cache, triple_form, monkeypatch):
    target = write_cached_module(cache, triple_form)
    assert (cache / RECORD_NAME).is_file()
    reads = []
    recorded = structure_lookup.read_recorded
    monkeypatch.setattr(structure_lookup, "read_recorded", lambda path: reads.append(path) or recorded(path))
    structure_lookup._cached_modules.cache_clear()
    first = find_structure_module(((1, 2, 3),), 4, 2)  # an isomorphic structure: classifiers renamed
    assert first.origin == str(target) and reads == [target]
    again = find_structure_module(TRIPLE, 4, 2)
    assert again.module is first.module and reads == [target], "the second lookup read the folder again"
    truth = _truth()
    result = evaluate(expected_sketch(truth).unlabelled(), structure="0-1-2")
    assert result.point is not None and result.point.prevalence["a"] == truth.prevalence_of(0)["a"]
    assert result.point.correlation[("c0", "c1", "c2")] == {
        ell: truth.correlation_value(TRIPLE[0], ell, (ell,) * 3) for ell in "ab"
    }


def test_packaged_modules_never_touch_the_cache_folder(cache, tmp_path, monkeypatch):
    marker = tmp_path / "planted-ran"
    (cache / "n4_r2_01.py").write_text(_planted(marker), encoding="utf-8")
    monkeypatch.setattr(structure_lookup, "read_recorded", lambda path: pytest.fail(f"read {path}"))
    assert find_structure_module(((2, 3),), 4, 2).origin == "evalgebra.generated.structures.n4_r2_01"
    assert not marker.exists()


def test_the_generator_writes_the_protocol_the_loader_loads():
    from evalgebra.generated.structures import common

    assert MODULE_PROTOCOL == runtime.PROTOCOL == common.PROTOCOL
    for *_, origin in available_structures():
        assert importlib.import_module(origin).PROTOCOL == runtime.PROTOCOL, origin


@pytest.mark.parametrize("written", ["PROTOCOL = 1\n", ""])
def test_a_stale_cached_module_is_refused_and_derive_regenerates_it(
    cache, tmp_path, triple_form, capsys, written
):
    """A module of another interface (an older PROTOCOL, or none) is refused, never run as if current."""
    from evalgebra.cli import main

    current = structure_source(triple_form)
    line = f"PROTOCOL = {runtime.PROTOCOL}\n"
    assert line in current
    write_recorded(cache / "n4_r2_012.py", current.replace(line, written), protocol=LOADED_PROTOCOL)
    structure_lookup._cached_modules.cache_clear()
    reason = "for module protocol 1" if written else "before module protocols"
    with pytest.raises(
        MissingStructureModule, match=f"n4_r2_012.py was written {reason}; this evalgebra"
    ) as e:
        find_structure_module(TRIPLE, 4, 2)
    assert "--spec 'N=4,R=2,structure=0-1-2'" in str(e.value)
    path = tmp_path / "sketch.json"
    expected_sketch(_truth()).unlabelled().write_json(path)
    assert main(["evaluate", str(path), "--structure", "0-1-2", "--derive"]) == 0
    assert "P_a = 4/13" in capsys.readouterr().out
    assert find_structure_module(TRIPLE, 4, 2).module.PROTOCOL == runtime.PROTOCOL


def test_a_stale_packaged_module_is_refused_with_what_to_run(cache, monkeypatch):
    import evalgebra.generated.structures.n4_r2_01 as packaged

    monkeypatch.setattr(packaged, "PROTOCOL", runtime.PROTOCOL - 1)
    structure_lookup._packaged_or_stale.cache_clear()
    try:
        with pytest.raises(
            MissingStructureModule, match="stale checkout: run python -m evalgebra.codegen --write"
        ):
            find_structure_module(((0, 1),), 4, 2)
    finally:
        structure_lookup._packaged_or_stale.cache_clear()
