"""Datasets and harnesses. Run as modules: `python -m evals.accuracy`, `python -m evals.speed`, ..."""
