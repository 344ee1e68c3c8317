r"""Exact polynomials shared by every Gröbner backend.

The in-memory form is python-flint's ``fmpq_mpoly`` in a context fixed by variable
names and a monomial ordering (:class:`PolyRing`). Backends exchange polynomials with
external programs as text (``2*x^2*y-1/3*z``) and with child processes as plain data
(:func:`dump_polys` / :func:`load_polys`), so nothing depends on pickling flint objects.

Examples
--------
>>> ring = PolyRing(("x", "y"), "lex")
>>> p = ring.parse("2*x^2*y - 1/3*y + 1")
>>> ring.text(p)
'2*x^2*y - 1/3*y + 1'
>>> ring.text(monic(p))
'x^2*y - 1/6*y + 1/2'
>>> ring.text(ring.primitive(p))
'6*x^2*y - y + 3'
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import flint
import sympy

from evalgebra.builder.generating import ORDERINGS
from evalgebra.builder.latex import LATEX_TERMS, flint_terms, latex_name, terms_latex
from evalgebra.errors import SpecError

__all__ = ["PolyRing", "monic", "dump_polys", "load_polys", "ORDERINGS", "canonical_basis", "normal_form"]

_TERM = re.compile(r"\s*([+-]?)\s*([^+-]+)")


class PolyRing:
    """Variable names plus a monomial ordering, with rational and integer flint contexts."""

    def __init__(self, names: Sequence[str], ordering: str = "lex") -> None:
        if ordering not in ORDERINGS:
            raise SpecError(f"ordering must be one of {ORDERINGS}, got {ordering!r}")
        self.names = tuple(str(n) for n in names)
        if len(set(self.names)) != len(self.names):
            raise SpecError("variable names must be distinct")
        self.ordering = ordering
        self.q = flint.fmpq_mpoly_ctx.get(self.names, ordering)
        self.z = flint.fmpz_mpoly_ctx.get(self.names, ordering)

    @property
    def nvars(self) -> int:
        return len(self.names)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PolyRing) and (self.names, self.ordering) == (other.names, other.ordering)

    def __hash__(self) -> int:
        return hash((self.names, self.ordering))

    def __repr__(self) -> str:
        return f"PolyRing({len(self.names)} variables, {self.ordering})"

    # -- conversions --------------------------------------------------------------
    def gens(self) -> tuple[Any, ...]:
        return tuple(self.q.gens())

    def from_terms(self, terms: dict[tuple[int, ...], Any]) -> Any:
        return self.q.from_dict({k: _fmpq(v) for k, v in terms.items() if v})

    def convert(self, poly: Any, source: PolyRing) -> Any:
        """Move a polynomial of ``source`` into this ring (variables matched by name)."""
        position = {n: k for k, n in enumerate(self.names)}
        index = [position.get(n, -1) for n in source.names]
        terms: dict[tuple[int, ...], Any] = {}
        for exps, coeff in zip(poly.monoms(), poly.coeffs()):
            if any(e and index[k] < 0 for k, e in enumerate(exps)):
                raise SpecError("polynomial uses a variable this ring lacks")
            target = [0] * self.nvars
            for k, e in enumerate(exps):
                if e:
                    target[index[k]] = e
            terms[tuple(target)] = coeff
        return self.q.from_dict(terms)

    def convert_by_position(self, poly: Any, source: PolyRing) -> Any:
        """Move a polynomial between rings of equally many variables, matched by position."""
        if source.nvars != self.nvars:
            raise SpecError("rings differ in their number of variables")
        return self.q.from_dict(dict(zip(poly.monoms(), poly.coeffs())))

    def primitive(self, poly: Any) -> Any:
        """Integer polynomial with coprime coefficients and positive leading coefficient."""
        coeffs = poly.coeffs()
        if not coeffs:
            return self.z.from_dict({})
        den = 1
        for c in coeffs:
            den = den * int(c.q) // math.gcd(den, int(c.q))
        ints = [int(c * den) for c in coeffs]
        g = 0
        for v in ints:
            g = math.gcd(g, v)
        sign = -1 if ints[0] < 0 else 1
        return self.z.from_dict({m: sign * v // g for m, v in zip(poly.monoms(), ints)})

    def rational(self, zpoly: Any) -> Any:
        """An integer polynomial of this ring as a rational one."""
        return self.q.from_dict({m: int(c) for m, c in zip(zpoly.monoms(), zpoly.coeffs())})

    def text(self, poly: Any) -> str:
        """``2*x^2*y - 1/3*z`` (the syntax Singular and msolve read)."""
        return str(poly) if poly.coeffs() else "0"

    def parse(self, text: str) -> Any:
        """Read a sum of terms ``c*x^a*y^b`` written with these variable names."""
        text = text.replace(" ", "").replace("**", "^")
        if text in ("", "0"):
            return self.q.from_dict({})
        index = {n: k for k, n in enumerate(self.names)}
        terms: dict[tuple[int, ...], Fraction] = {}
        pos = 0
        for match in _TERM.finditer(text):
            if match.start() != pos:
                raise SpecError(f"cannot parse polynomial near {text[pos : pos + 30]!r}")
            pos = match.end()
            sign, body = match.groups()
            coeff = Fraction(-1 if sign == "-" else 1)
            exps = [0] * self.nvars
            for factor in body.split("*"):
                if not factor:
                    raise SpecError(f"empty factor in {body!r}")
                if factor[0].isdigit():
                    coeff *= Fraction(factor)
                    continue
                name, _, power = factor.partition("^")
                if name not in index:
                    raise SpecError(f"unknown variable {name!r}")
                exps[index[name]] += int(power) if power else 1
            key = tuple(exps)
            terms[key] = terms.get(key, Fraction(0)) + coeff
        if pos != len(text):
            raise SpecError(f"cannot parse polynomial near {text[pos : pos + 30]!r}")
        return self.from_terms(terms)

    def to_sympy(self, poly: Any, symbols: Sequence[sympy.Symbol] | None = None) -> sympy.Expr:
        syms = symbols if symbols is not None else [sympy.Symbol(n) for n in self.names]
        return sympy.Add(
            *(
                sympy.Rational(int(c.p), int(c.q)) * sympy.Mul(*(s**e for s, e in zip(syms, m) if e))
                for m, c in zip(poly.monoms(), poly.coeffs())
            )
        )

    def latex(self, poly: Any, max_terms: int = LATEX_TERMS) -> str:
        r"""LaTeX of a polynomial, registry variables in mathematical names, long sums cut.

        >>> ring = PolyRing(("prev_a", "acc_0_a", "u_0_1"), "lex")
        >>> ring.latex(ring.parse("2*prev_a*acc_0_a - 1/3*u_0_1"))
        '2 P_{0,a} P_{a} - \\frac{u_{0 1}}{3}'
        """
        symbols = [sympy.Symbol(n) for n in self.names]
        head, more = flint_terms(poly, symbols, max_terms)
        return terms_latex(head, {s: latex_name(s) for s in symbols}, max_terms, more)

    def from_sympy(self, expr: Any) -> Any:
        gens = [sympy.Symbol(n) for n in self.names]
        p = sympy.Poly(sympy.sympify(expr), *gens, domain="QQ")
        return self.q.from_dict({m: _fmpq(Fraction(int(c.p), int(c.q))) for m, c in p.terms()})


def _fmpq(value: Any) -> Any:
    if isinstance(value, flint.fmpq):
        return value
    f = Fraction(value) if not hasattr(value, "p") else Fraction(int(value.p), int(value.q))
    return flint.fmpq(f.numerator, f.denominator)


def monic(poly: Any) -> Any:
    """The polynomial divided by its leading coefficient (zero stays zero)."""
    coeffs = poly.coeffs()
    return poly if not coeffs else poly / coeffs[0]


def canonical_basis(polys: Iterable[Any]) -> list[Any]:
    """Monic, duplicates and zeros dropped, sorted by leading monomial (largest first).

    Two reduced Gröbner bases of one ideal in one ordering are equal after this.
    """
    seen: dict[str, Any] = {}
    for p in polys:
        if not p.coeffs():
            continue
        m = monic(p)
        seen[str(m)] = m
    ordered = list(seen.values())
    # flint lists monomials in ordering order, so compare leading monomials by building
    # a polynomial of the two and reading which comes first.
    from functools import cmp_to_key

    def compare(a: Any, b: Any) -> int:
        ma, mb = a.monoms()[0], b.monoms()[0]
        if ma == mb:
            return (str(a) > str(b)) - (str(a) < str(b))
        ctx = a.context()
        probe = ctx.from_dict({ma: 1, mb: 1})
        return -1 if probe.monoms()[0] == ma else 1

    return sorted(ordered, key=cmp_to_key(compare))


def dump_polys(
    ring: PolyRing, polys: Iterable[Any]
) -> tuple[tuple[str, ...], str, list[list[tuple[tuple[int, ...], int, int]]]]:
    """Plain-data form (picklable) of polynomials of a ring."""
    return (
        ring.names,
        ring.ordering,
        [[(m, int(c.p), int(c.q)) for m, c in zip(p.monoms(), p.coeffs())] for p in polys],
    )


def load_polys(
    data: tuple[tuple[str, ...], str, list[list[tuple[tuple[int, ...], int, int]]]],
) -> tuple[PolyRing, list[Any]]:
    """Inverse of :func:`dump_polys`."""
    names, ordering, polys = data
    ring = PolyRing(names, ordering)
    return ring, [ring.q.from_dict({m: flint.fmpq(p, q) for m, p, q in terms}) for terms in polys]


def normal_form(poly: Any, basis: Sequence[Any]) -> Any:
    """Remainder of ``poly`` on division by ``basis`` (all in one ring and ordering).

    For a Gröbner basis the remainder is zero exactly when ``poly`` is in the ideal.

    Examples
    --------
    >>> ring = PolyRing(("x", "y"), "lex")
    >>> basis = [ring.parse("x - y"), ring.parse("y^2 - 1")]
    >>> ring.text(normal_form(ring.parse("x^2 + x"), basis))
    'y + 1'
    """
    leads = [(g.monoms()[0], g.coeffs()[0], g) for g in basis if g.coeffs()]
    ctx = poly.context()
    remainder = ctx.from_dict({})
    rest = poly
    while rest.coeffs():
        monomial, coeff = rest.monoms()[0], rest.coeffs()[0]
        for lead, lead_coeff, g in leads:
            if all(a >= b for a, b in zip(monomial, lead)):
                shift = tuple(a - b for a, b in zip(monomial, lead))
                rest = rest - ctx.from_dict({shift: coeff / lead_coeff}) * g
                break
        else:
            term = ctx.from_dict({monomial: coeff})
            remainder = remainder + term
            rest = rest - term
    return remainder
