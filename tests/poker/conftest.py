"""The compiled equity loops answer every exact question in these tests, however small:
they are compared with the plain reference, which small questions would otherwise use
too (tests/poker/test_equity_plain.py checks that shortcut on its own)."""

from __future__ import annotations

from typing import Any

import pytest

from cardlab.poker import equity


@pytest.fixture(autouse=True)
def compiled_loops_only(monkeypatch: Any) -> None:
    monkeypatch.setattr(equity, "PLAIN_SHOWDOWNS", 0)
    monkeypatch.setattr(equity, "PLAIN_SHOWDOWNS_COLD", 0)
