"""Long analyses split into independent tasks: starting-hand charts, Omaha tables, the
designer's report; run in this process or on a Dask cluster (:mod:`.runner`)."""
