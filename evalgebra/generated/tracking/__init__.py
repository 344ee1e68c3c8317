"""Data for numerical path tracking, written by the derivations (not by the code generator)."""
