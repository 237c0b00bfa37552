"""What docs/scale-out.md and docs/store.md tell an operator to run holds with the code:
the systemd units' ``cardlab web`` command parses, stops by draining for longer than the
drain may take, and waits on ``/readyz`` and ``/healthz``; nginx takes the largest body
the replayer takes and refuses the operator's paths; the install needs no ``sudo`` and
installs cardlab from its checkout; and store.md names the schema version the code
writes. (The nginx site itself runs in the cluster tests: tests/_cluster.py.)"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from _cluster import site_config
from cardlab.store import SCHEMA_VERSION
from cardlab.web.balance import DRAIN_GRACE

DOCS = Path(__file__).resolve().parents[2] / "docs"
SCALE = (DOCS / "scale-out.md").read_text(encoding="utf-8")
STORE = (DOCS / "store.md").read_text(encoding="utf-8")


def blocks(text: str, kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", text, flags=re.DOTALL)


def unit(first_line: str) -> dict[str, str]:
    """The doc's systemd unit starting ``first_line``: its settings (continued lines
    joined, comments dropped)."""
    (text,) = [b for b in blocks(SCALE, "ini") if b.startswith(first_line)]
    text = re.sub(r"\\\n\s*", " ", text)
    found: dict[str, str] = {}
    for line in text.splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            key, value = line.split("=", 1)
            found[key.strip()] = value.strip()
    return found


def test_the_web_unit_runs_a_valid_command_and_drains_on_stop() -> None:
    from cardlab.cli.web import web

    service = unit("# /etc/systemd/system/cardlab-web@.service")
    argv = shlex.split(service["ExecStart"].replace("%i", "8001"))
    assert argv[:2] == ["/opt/cardlab/.venv/bin/cardlab", "web"]
    context = web.make_context("web", argv[2:])  # click's own parsing: unknown options fail
    drain = float(context.params["drain_timeout"])
    assert context.params["redis_url"] and context.params["trust_proxy"]
    assert service["KillSignal"] == "SIGTERM"
    # the drain's bound, the grace for handovers under way, then the stop itself
    assert float(service["TimeoutStopSec"]) >= drain + DRAIN_GRACE + 10
    assert "/readyz" in service["ExecStartPost"]
    watchdog = unit("# /etc/systemd/system/cardlab-health@.service")
    assert "/healthz" in watchdog["ExecStart"] and "restart cardlab-web@%i" in watchdog["ExecStart"]
    timer = unit("# /etc/systemd/system/cardlab-health@.timer")
    assert timer["OnUnitActiveSec"] == "10"


def test_nginx_takes_the_replayers_largest_upload_and_refuses_the_operators_paths() -> None:
    from cardlab.web.replay import MAX_BODY

    site = site_config([8001], 8080)
    (size,) = re.findall(r"client_max_body_size (\d+)([km]?);", site)
    unit_bytes = {"": 1, "k": 1024, "m": 1024 * 1024}[size[1]]
    assert int(size[0]) * unit_bytes == MAX_BODY
    assert re.search(r"location ~ \^/\(metrics\|drain\)\$ \{\s*return 403;", site)


def test_the_install_is_from_the_checkout_as_root() -> None:
    commands = "\n".join(blocks(SCALE, "sh") + blocks(STORE, "sh"))
    assert "sudo" not in commands
    installs = re.findall(r"pip install (\S+)", commands)
    assert installs and all(i.strip("'").startswith("/opt/cardlab/src[") for i in installs)
    assert "rm -f /etc/nginx/sites-enabled/default" in commands


def test_store_md_names_the_schema_version_the_code_writes() -> None:
    named = re.findall(r"now \*\*(\d+)\*\*", STORE)
    assert [int(n) for n in named] == [SCHEMA_VERSION]
    assert f"-- version {SCHEMA_VERSION}:" in STORE  # its migration is shown
