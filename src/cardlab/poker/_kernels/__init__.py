"""Compiled batch evaluation (private; the public API is :mod:`cardlab.poker.batch`).

- :mod:`.rule_arrays` turns a rule set into the small integer arrays the kernels read;
  :mod:`.bundle` gathers them with the hash look-ups into the two values every key kernel
  takes: a named tuple of arrays (:class:`~.bundle.KernelArrays`) and one of numbers
  (:class:`~.bundle.KernelScalars`). The poker layer gets them, and which method
  applies, from :class:`cardlab.poker.plan.KernelPlan` (see ``docs/kernels.md``).
- :mod:`.tally` holds what the exact and sampled loops share: the showdown tally and
  the steps of the combination and multiset walks.
- :mod:`.five` evaluates five cards and takes the best of every five-card subset: the
  plain, checked path (any hand size, Omaha's 2 + 3 choice).
- :mod:`.direct` finds the best five of six or seven directly from rank and suit masks.
- :mod:`.hashed` is the fast path: a perfect hash of the rank multiset into a look-up of
  best keys, then suits, flushes and Mixwells on top; :mod:`.hashed_batch` runs it over
  a batch (about 185 M seven-card standard52 hands a second per core, 55 M FESCA78);
  :mod:`.omaha` scores Omaha's 2 + 3 with it and the best-per-pair look-up of
  :mod:`.omaha_lookup`.
- :mod:`.showdowns` walks every board and settles showdowns for
  :mod:`cardlab.poker.equity` and :mod:`cardlab.poker.draw`; :mod:`.sampling` deals
  random ones (Monte Carlo); :mod:`.by_rank` (with :mod:`.special_boards`) and
  :mod:`.vs_random` count exact showdowns by rank classes.

numba is imported only here, so ``import cardlab`` stays fast.
"""

import os

# GNU OpenMP (numba's default threading layer here) lets a thread that waits spin
# 300,000 times before it sleeps: on a busy machine the spinning threads took the cores
# from the working ones (Monte Carlo on two threads ran 7-40 times slower than on one).
# Sleeping at once (OMP_WAIT_POLICY=PASSIVE) costs a wake-up of the other thread at each
# end of a parallel loop instead, a millisecond on this project's 2-core virtual
# machine: more than a small exact walk takes. So a wait spins briefly (well under a
# millisecond), then sleeps; unless the user chose either setting.
if "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
    os.environ["GOMP_SPINCOUNT"] = "20000"
