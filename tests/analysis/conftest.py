"""A real local Dask cluster for the analysis tests: two worker processes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardlab.tasks import dask_client

DECKS = Path(__file__).resolve().parents[1] / "data" / "decks"


@pytest.fixture(scope="module")
def client2() -> Iterator[Any]:
    with dask_client(workers=2) as client:
        yield client
