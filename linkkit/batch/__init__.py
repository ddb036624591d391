"""Batch runs: one pure function turns one document into its results (:func:`linkkit.batch.extract.extract`, and
the rewriters of :mod:`linkkit.batch.rewrite`); drivers map it over every document in input order, locally on a
pool of processes (:func:`run_local`) or on a Dask cluster (:func:`run_dask`), with the same output bytes whichever
runs it."""

from typing import TYPE_CHECKING

from ..lazy import names_on_first_use

if TYPE_CHECKING:
    from .drivers import default_jobs, run_dask, run_local
    from .extract import ExtractOptions, Outcome, extract_all
    from .formats import COLUMNS, FORMATS

# Each name loaded with its module on first use (PEP 562): the command line's parser needs the formats only, and
# `linkkit --version` none of the drivers, the extractors or the sources they load.
__getattr__ = names_on_first_use(__name__, {
    **dict.fromkeys(("default_jobs", "run_dask", "run_local"), ".drivers"),
    **dict.fromkeys(("ExtractOptions", "Outcome", "extract_all"), ".extract"),
    **dict.fromkeys(("COLUMNS", "FORMATS"), ".formats"),
})

__all__ = [
    "COLUMNS", "FORMATS", "ExtractOptions", "Outcome", "default_jobs", "extract_all", "run_dask",
    "run_local",
]
