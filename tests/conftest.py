"""Settings for the test processes themselves.

The suite runs in two worker processes on two cores (``pytest -n 2``), each with
numba's two OpenMP threads: four threads on two cores. cardlab's own default lets a
waiting OpenMP thread spin briefly (``GOMP_SPINCOUNT``, set when ``cardlab.poker._kernels``
is imported, docs/speed.md), right for one process that has the cores; here a spinning
thread would take its core from the other worker's working thread at the end of each of
the suite's many small parallel loops. So the tests' threads sleep at once, as the user
can choose with ``OMP_WAIT_POLICY`` (cardlab then leaves the spinning alone). Set before
any test module imports cardlab, and inherited by the processes the tests start.
"""

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
