"""How the analysis tasks run, now :mod:`cardlab.tasks` (below ``solve``, which runs
tasks too). Kept while ``analysis/deck_postflop.py`` imports from here."""

from cardlab.tasks import run_tasks

__all__ = ["run_tasks"]
