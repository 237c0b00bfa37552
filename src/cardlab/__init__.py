"""cardlab: play card games and answer their questions exactly.

Two families of games run on one engine:

* Open Seven, a one-player patience game with the cards 1..N (:mod:`cardlab.openseven`);
* FESCA decks and Mixwell Poker, with the ordinary 52-card deck and classic poker
  alongside (:mod:`cardlab.decks`, :mod:`cardlab.poker`).

Counts are integers and probabilities are :class:`fractions.Fraction` values; floats
appear only for display and for Monte Carlo estimates, which carry their standard error.
"""

from cardlab import _numba_cache, _shared_compile
from cardlab.errors import CardlabError

_numba_cache.configure()  # before any kernel is compiled or loaded
_shared_compile.share_compiles()  # processes that need a kernel at once compile it once

__all__ = ["CardlabError", "__version__"]
__version__ = "0.1.0"
