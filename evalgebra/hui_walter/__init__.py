r"""Hui-Walter beyond the closed form: the Gibbs sampler on counts and the online evaluator.

The closed-form evaluator itself is :mod:`evalgebra.evaluators.hui_walter`.
"""
