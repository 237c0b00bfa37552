import warnings
from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette >= 1 would rather have httpx2
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from cardlab.web import create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # few equity samples: the tests check the flow, not the estimate's precision
    # no rate limits: one test client plays hundreds of games (the limits have their own
    # tests in test_web_guard.py and test_web_tables_security.py)
    with TestClient(create_app(max_games=50, equity_samples=40, limiter=None)) as c:
        yield c
