"""Batch runs: one pure function turns one document into its results (:func:`linkkit.batch.extract.extract`, and
the rewriters of :mod:`linkkit.batch.rewrite`); drivers map it over every document in input order, locally on a
pool of processes (:func:`run_local`) or on a Dask cluster (:func:`run_dask`), with the same output bytes whichever
runs it."""

from .drivers import default_jobs, run_dask, run_local
from .extract import ExtractOptions, Outcome, extract_all
from .formats import COLUMNS, FORMATS

__all__ = [
    "COLUMNS", "FORMATS", "ExtractOptions", "Outcome", "default_jobs", "extract_all", "run_dask",
    "run_local",
]
