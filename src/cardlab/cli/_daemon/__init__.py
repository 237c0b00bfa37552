"""The kernel daemon: a warm process that answers the command line at once.

A new Python process pays before its first poker answer: numba's start (its code
generator and registries, about half a second here), the compiled kernels loaded from
numba's disk cache, the command modules imported. Every ``cardlab`` run paid it again.
``cardlab daemon start`` starts one process that pays it once (:mod:`.server`); from
then on, the ``cardlab`` command (:mod:`.client`) hands each run to it and the daemon
*forks* a child that already has everything loaded, runs the command there with the
caller's arguments, directory, environment and terminal (its standard input, output
and error are passed as file descriptors over a Unix socket), and reports the exit
code back. Ctrl-C and the other signals the caller receives are passed on to that
child, and the child's process group ends when its caller goes away or the daemon
stops (no run outlives either). The pattern is a "zygote" (as in Android or
Chromium), or ``dmypy`` for mypy.

What keeps the answers the ones a fresh process would give:

- one daemon per installation: the socket's name is derived from the interpreter and
  the package's directory (:func:`.wire.socket_path`), so another virtual environment
  or checkout never reaches it;
- the environment that shapes a run at import time (``CARDLAB_*``, ``NUMBA_*``,
  ``PYTHON*``) must be the daemon's, else the run is refused and the caller runs the
  command itself;
- every run first checks that no source file of the package changed since the daemon
  started (sizes and modification times); if one did, the run is refused and the
  daemon ends (the next ``cardlab daemon start`` loads the new code);
- the daemon stays single-threaded and runs no kernel itself (it only loads them), so
  forking it is safe; numba's worker threads start in each child that needs them.

Only the owner reaches the socket: it lives in a directory only the user may open
(``$XDG_RUNTIME_DIR/cardlab`` or ``<tmp>/cardlab-<uid>``) and the daemon checks each
caller's user id (``SO_PEERCRED``). ``CARDLAB_DAEMON=off`` makes the command line run
everything in its own process; ``CARDLAB_DAEMON_DIR`` chooses the socket's directory.
POSIX only (file descriptors over Unix sockets); elsewhere the command line runs as
before.
"""
