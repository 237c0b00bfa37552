"""Every page renders, the static files are served, ``cardlab web`` checks its extras."""

import importlib.util
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cardlab.cli import main


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/", ["Open Seven", "Mixwell hands", "showdown"]),
        ("/openseven", ["os-new", "os-odds", "Show hints"]),
        ("/hands", ["h-deck", "FESCA78", "standard52", "Compare hands"]),
        ("/showdown", ["s-game", "s-opponents", "New deal"]),
    ],
)
def test_page_renders(client: TestClient, path: str, words: list[str]) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    for word in words:
        assert word in response.text
    assert "/static/cardlab.css" in response.text
    # the page's scripts are ES modules: the request counter (api.js) on every page
    scripts = re.findall(r"<script[^>]*>", response.text)
    assert any("/static/api.js" in tag for tag in scripts), scripts
    assert all('type="module"' in tag or 'type="application/json"' in tag for tag in scripts), (
        scripts
    )


@pytest.mark.parametrize("name", ["cardlab.css", "openseven.js", "table.js", "fair.js"])
def test_static_files(client: TestClient, name: str) -> None:
    response = client.get(f"/static/{name}")
    assert response.status_code == 200
    assert len(response.text) > 1000


STATIC = Path(__file__).parents[2] / "src" / "cardlab" / "web" / "static"
MODULES = sorted(p.name for p in STATIC.glob("*.js"))


@pytest.mark.parametrize("name", MODULES)
def test_every_module_is_served_as_javascript(client: TestClient, name: str) -> None:
    """A module script runs only if it is served with a JavaScript MIME type (the HTML
    standard refuses text/plain and the like), and the pages send no Content-Security-Policy
    that would block their own scripts."""
    response = client.get(f"/static/{name}")
    assert response.status_code == 200
    assert response.headers["content-type"].split(";")[0] in (
        "text/javascript",
        "application/javascript",
    )
    assert "content-security-policy" not in {k.lower() for k in client.get("/").headers}


def test_the_modules_import_only_modules_that_exist() -> None:
    """Every relative import of a module names a file that is served (a typo would only
    show as a blank page in the browser)."""
    for name in MODULES:
        text = (STATIC / name).read_text(encoding="utf-8")
        for target in re.findall(r'^import .*?from "\./([^"]+)";', text, flags=re.M | re.S):
            assert (STATIC / target).is_file(), (name, target)
        assert "document.createElement(" not in text or name == "dom.js", name


def test_unknown_page_is_404(client: TestClient) -> None:
    assert client.get("/nowhere").status_code == 404


def test_web_command_without_extras(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    real = importlib.util.find_spec

    def no_uvicorn(name: str, *args: object):
        return None if name == "uvicorn" else real(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(importlib.util, "find_spec", no_uvicorn)
    with pytest.raises(SystemExit) as exc:
        main(["web", "--port", "8765"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "pip install 'cardlab[web]'" in err
    assert "uvicorn" in err


def test_web_command_help(capsys) -> None:
    main(["web", "--help"])
    out = capsys.readouterr().out
    assert "--host" in out and "127.0.0.1" in out
    assert "--port" in out and "8000" in out


def test_the_start_up_warm_up_says_only_what_it_measured(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A warm-up that only loads the kernels from numba's cache (a cache that looked
    cold) says nothing and records nothing; a real compile that takes a while says so,
    with no guessed figure, and its time is what the next first run announces."""
    import time

    import cardlab.poker.equity as equity
    import cardlab.poker.plan as plan
    from cardlab._compile_times import compile_seconds
    from cardlab.cli import web as command

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(equity, "kernels_compiled", lambda exact: False)
    monkeypatch.setattr(command, "WARM_QUIET", 0.2)
    compiled = [0]
    monkeypatch.setattr(plan, "compiled_here", lambda kernels: compiled[0])
    monkeypatch.setattr(equity, "sample_equity", lambda *args, **options: None)
    command._warm_bots()
    assert capsys.readouterr().err == ""
    assert compile_seconds("web bots") is None

    def compiling(*args: object, **options: object) -> None:
        time.sleep(0.4)
        compiled[0] += 1

    monkeypatch.setattr(equity, "sample_equity", compiling)
    command._warm_bots()
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == (
        "cardlab web: preparing the bots' equity kernels (first run after install)..."
    )
    took = compile_seconds("web bots")
    assert took is not None and 0.7 <= took < 5
    assert lines[1] == f"cardlab web: the kernels are ready ({took:.0f} s)"
    command._warm_bots()
    assert f"about {took:.0f} s on this machine last time" in capsys.readouterr().err
