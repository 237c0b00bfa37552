"""Every page renders, the static files are served, ``cardlab web`` checks its extras."""

import importlib.util

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
    assert "/static/cardlab.js" in response.text


@pytest.mark.parametrize("name", ["cardlab.css", "cardlab.js"])
def test_static_files(client: TestClient, name: str) -> None:
    response = client.get(f"/static/{name}")
    assert response.status_code == 200
    assert len(response.text) > 1000


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
