"""Gröbner bases, elimination, axioms, varieties and identifiability of evaluation ideals."""
