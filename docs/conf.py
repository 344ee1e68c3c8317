"""Sphinx configuration of the evalgebra documentation.

The source folder is the repository root, so that the teaching notebooks in ``notebooks/``
are rendered where they live; ``include_patterns`` keeps the build to ``docs/`` and the
notebooks. Build from the repository root::

    sphinx-build -W --keep-going -b html -c docs . docs/_build/html

and open ``docs/_build/html/docs/index.html``. The notebooks are committed without outputs
and are not executed here (the test suite runs them); the pages show their code and prose.
"""

from __future__ import annotations

project = "evalgebra"
author = "the evalgebra developers"
copyright = "2026, the evalgebra developers"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_nb",  # markdown pages (myst-parser) and notebooks
]

root_doc = "docs/index"
include_patterns = ["docs/**", "notebooks/*.ipynb"]
exclude_patterns = [
    ".venv",
    "**/.venv",
    "**/.ipynb_checkpoints",
    "docs/_build",
    "docs/figures",
    "build",
    "dist",
    "benchmarks",
    "derivations",
    "experiments",
    "tests",
    "evalgebra",
]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb", ".rst": "restructuredtext"}

# -- markdown ------------------------------------------------------------------------------
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
# anchors for headings down to level 3, slugged as GitHub does: the links in docstrings and
# the README (``docs/theory.md#the-logical-alarm``) work on GitHub and here
myst_heading_anchors = 3

# -- notebooks -----------------------------------------------------------------------------
nb_execution_mode = "off"
nb_merge_streams = True

# -- API reference -------------------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": True}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# Every warning fails the build (the test runs with -W). Types from outside the project
# cannot resolve without intersphinx, which would need the network: they are ignored here,
# by name, and nothing of evalgebra's own is.
nitpicky = True
nitpick_ignore_regex = [
    (
        r"py:.*",
        r"(fractions|numbers|collections|collections\.abc|typing|pathlib|os|io|enum"
        r"|dataclasses|decimal|types|itertools|functools|concurrent\.futures|subprocess|random)\..*",
    ),
    (
        r"py:.*",
        r"(numpy|np|numpy\.typing|pandas|pd|sympy|flint|matplotlib|networkx|nx"
        r"|dask|pyarrow|ipykernel|hypothesis|st|argparse|numbers|scipy|highspy|tqdm)(\..*)?",
    ),
    (
        r"py:class",
        r"(Fraction|Path|Mapping|Sequence|Iterable|Iterator|Callable|Any|Hashable"
        r"|ndarray|ArrayLike|DataFrame|Figure|Axes|Expr|Symbol|Poly)",
    ),
]

# numpydoc turns each References section into citations; the house style lists the papers a
# function follows there even when the text does not cite them by number
suppress_warnings = ["ref.citation"]


# -- math, rendered offline ----------------------------------------------------------------
def _mathjax_folder() -> str:
    """The folder that holds ``mathjax/`` (MathJax 3.2.2: the script, its TeX extensions and its
    fonts), from the pinned ``sphinx-mathjax-offline`` wheel of the docs extra.

    Only its files are used, not its extension: the folder's ``mathjax/`` is copied into the
    site's ``_static/`` like any static file, so the pages load MathJax from the site itself and
    no script from the network (a test checks both).
    """
    from importlib import metadata
    from pathlib import PurePosixPath

    try:
        dist = metadata.distribution("sphinx-mathjax-offline")
    except metadata.PackageNotFoundError as exc:
        raise RuntimeError(
            "the offline MathJax is missing: pip install -e '.[docs]' (it holds sphinx-mathjax-offline)"
        ) from exc
    for file in dist.files or ():
        path = PurePosixPath(str(file))
        if path.name == "tex-chtml.js" and path.parent.name == "mathjax":
            return str(dist.locate_file(path.parent.parent))
    raise RuntimeError("sphinx-mathjax-offline holds no mathjax/tex-chtml.js")


# relative to _static/: the copy the site serves, never a CDN
mathjax_path = "mathjax/tex-chtml.js"

# -- HTML ----------------------------------------------------------------------------------
html_theme = "alabaster"
html_title = "evalgebra"
html_static_path: list[str] = [_mathjax_folder()]
html_show_sourcelink = False


# -- one directive for a package's modules -------------------------------------------------
def _module_names(package: str) -> list[tuple[str, bool]]:
    """``(name, is_package)`` of the package and every module under it (``__main__`` left out)."""
    import importlib
    import pkgutil

    root = importlib.import_module(package)
    names = [(package, hasattr(root, "__path__"))]
    if hasattr(root, "__path__"):
        names += sorted(
            (info.name, info.ispkg)
            for info in pkgutil.walk_packages(root.__path__, package + ".")
            if not info.name.endswith("__main__")
        )
    return names


def _defined_as(full_name: str) -> bool:
    """Whether the object documented as ``full_name`` is defined under that name."""
    import importlib

    parts = full_name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        where = f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', '')}"
        return where == full_name
    return False


def _is_type_variable(full_name: str) -> bool:
    import importlib
    import typing

    module, _, name = full_name.rpartition(".")
    if not module.startswith("evalgebra"):
        return False
    try:
        return isinstance(getattr(importlib.import_module(module), name, None), typing.TypeVar)
    except ImportError:
        return False


def _skip_foreign_methods(app, what, name, obj, skip, options):
    """Leave out methods a class gets from a third-party base (matplotlib generates a ``set``
    for every subclass of ``Artist``, with a docstring in matplotlib's own markup)."""
    if what == "class" and callable(obj) and not isinstance(obj, type):
        module = getattr(obj, "__module__", None) or ""
        if module and not module.startswith("evalgebra"):
            return True
    return None


def _resolve_short_name(app, env, node, contnode):
    """Resolve a shortened reference (``SpecError``, ``Sketch.from_decisions``) to the one
    documented evalgebra object whose full name ends with it.

    Docstrings name objects of other modules the way their readers know them; Sphinx only
    looks in the current module. Ambiguous names prefer the referring module's package and
    otherwise stay unresolved (a warning, so the build fails).
    """
    from sphinx.util.nodes import make_refnode

    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip("~.")
    if _is_type_variable(target):
        return contnode  # a TypeVar of a signature has no page: its name, unlinked
    domain = env.get_domain("py")
    kinds = set(domain.objtypes_for_role(node.get("reftype", "obj")) or ()) or None
    objects = domain.objects
    hits = [
        name
        for name, entry in objects.items()
        if name.startswith("evalgebra.")
        and (name == target or name.endswith("." + target))
        and (kinds is None or entry.objtype in kinds)
    ]
    if len(hits) > 1:  # a name a module re-exports in its __all__: where it is defined
        hits = [name for name in hits if _defined_as(name)] or hits
    if len(hits) > 1:
        module = node.get("py:module") or ""
        package = module.rsplit(".", 1)[0] if "." in module else module
        hits = (
            [name for name in hits if name.startswith(module + ".")]
            or [name for name in hits if name.startswith(package + ".")]
            or hits
        )
    if len(hits) != 1:
        return None
    entry = objects[hits[0]]
    return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, hits[0])


def _keep_alias_signature(app, what, name, obj, options, signature, return_annotation):
    """Leave type aliases (``Interval = tuple[int, int]``) without a signature.

    numpydoc answers ``("", "")`` for them (it takes ``tuple[...]`` for a class without an
    ``__init__`` of its own), and Sphinx 9 then writes into an empty signature list. Answering
    first, with a value Sphinx ignores, keeps numpydoc out of it.
    """
    import types

    if signature is None and isinstance(obj, types.GenericAlias):
        return (None, None)
    return None


def setup(app):  # noqa: D103 - the Sphinx hook
    from docutils import nodes
    from docutils.statemachine import StringList
    from sphinx.util.docutils import SphinxDirective
    from sphinx.util.nodes import nested_parse_with_titles

    class AutoModules(SphinxDirective):
        """``automodules:: evalgebra.data``: a section and ``automodule`` per module.

        New modules appear in the reference without editing the pages.
        """

        required_arguments = 1

        def run(self) -> list[nodes.Node]:
            lines: list[str] = []
            for name, is_package in _module_names(self.arguments[0]):
                lines += [f"``{name}``", "-" * (len(name) + 4), "", f".. automodule:: {name}"]
                # a package's __all__ re-exports its modules' names, documented there: from
                # the package itself only what it defines
                lines += ["   :ignore-module-all:", ""] if is_package else [""]
            node = nodes.section()
            node.document = self.state.document
            nested_parse_with_titles(self.state, StringList(lines, source="automodules"), node)
            return node.children

    app.add_directive("automodules", AutoModules)
    app.connect("missing-reference", _resolve_short_name)
    app.connect("autodoc-process-signature", _keep_alias_signature, priority=400)
    app.connect("autodoc-skip-member", _skip_foreign_methods)
    return {"parallel_read_safe": True}
