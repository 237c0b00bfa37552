"""matplotlib set up for drawing to files: shared by the charts of ``analysis`` and the
strategy grids of ``solve``."""

from __future__ import annotations

from typing import Any


def pyplot() -> Any:
    """matplotlib's pyplot without a screen, with a CJK font as fallback for the suits
    (陰陽, 木...) where one is installed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    names = {f.name for f in font_manager.fontManager.ttflist}
    cjk = [n for n in ("Noto Sans CJK JP", "Noto Serif CJK JP", "IPAGothic") if n in names]
    plt.rcParams["font.family"] = ["DejaVu Sans", *cjk]
    return plt
