"""Compiled batch evaluation (private; the public API is :mod:`cardlab.poker.batch`).

- :mod:`.tables` turns a rule set into the small integer arrays the kernels read.
- :mod:`.five` evaluates five cards and takes the best of every five-card subset: the
  plain, checked path (any hand size, Omaha's 2 + 3 choice).
- :mod:`.direct` finds the best five of six or seven directly from rank and suit masks.
- :mod:`.classic` is the path for rule sets where suits never break ties and Mixwell is
  off (standard52): a perfect hash of the rank multiset plus a flush table.

numba is imported only here, so ``import cardlab`` stays fast.
"""
