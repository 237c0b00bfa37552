"""The study page's API: solves in worker processes, compared with the library's own
``solve``; every kind of bad input refused in one line; the queue, per-client and rate
limits; cancelling; the guard's refusals."""

from __future__ import annotations

import itertools
import json
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import Executor, Future
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.solve.postflop import Spot, solve
from cardlab.web import create_app
from cardlab.web.guard import Limit, RateLimiter
from cardlab.web.study import StudyLimits

with warnings.catch_warnings():  # starlette >= 1 would rather have httpx2
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

RIVER = {
    "game": "standard52-holdem",
    "board": "Ks Td 7c 4h 2s",
    "oop": "AA, KK, 98s, QJs",
    "ip": "KQ, QQ, JTs",
    "pot": 100,
    "stack": 100,
    "bets": "50%, a",
    "raises": "a",
    "iterations": 200,
    "target": None,
}
FESCA_RIVER = {
    "game": "fesca78-holdem",
    "board": "M7 K7 G12 Y3 S9",
    "oop": "M12 K12, D9 D10, M1 M2, M3 K3:0.5",
    "ip": "D7 D12, K9 K10, M3 D3, S10 S11, D1 G2:0.6",
    "pot": 100,
    "stack": 200,
    "bets": "50%, a",
    "raises": "a",
    "iterations": 150,
    "target": None,
}
SLOW = {  # a turn spot run to the end: long enough to be cancelled
    "game": "standard52-holdem",
    "board": "Td 9d 6h Qc",
    "oop": "AA,KK,QQ,AK,98s,87s,T9s",
    "ip": "JJ,TT,AQs,KQ,J8s,QTs",
    "pot": 100,
    "stack": 200,
    "bets": "50%",
    "raises": "a",
    "iterations": 2000,
    "target": None,
}
OWN = "http://testserver"
_addresses = (f"10.0.{i // 250}.{i % 250 + 1}" for i in itertools.count())


def who() -> dict[str, str]:
    """Headers of a new client (its own address; call ``c.cookies.clear()`` too)."""
    return {"x-forwarded-for": next(_addresses)}


class Never(Executor):
    """A solve pool that never starts anything: the queue's bounds without timing."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        return Future()


def make_client(**options: Any) -> TestClient:
    return TestClient(create_app(trust_forwarded=True, **options))


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with make_client(limiter=None, study=StudyLimits(max_running=1, max_waiting=3)) as c:
        yield c


def post(c: TestClient, body: Any, **headers: str) -> Any:
    """POST ``body`` as JSON text (NaN and Infinity written as Python writes them: a
    client need not keep to the standard)."""
    c.cookies.clear()
    kind = {"content-type": "application/json"}
    return c.post("/api/study/solves", content=json.dumps(body), headers=who() | kind | headers)


def finished(c: TestClient, job_id: str, timeout: float = 180.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state: dict[str, Any] = c.get(f"/api/study/solves/{job_id}").json()
        if state["state"] in ("done", "cancelled", "failed"):
            return state
        time.sleep(0.1)
    raise AssertionError(f"the solve {job_id} did not finish: {state}")


def node(c: TestClient, job_id: str, line: str) -> dict[str, Any]:
    answer = c.get(f"/api/study/solves/{job_id}/node", params={"line": line})
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def library_spot(body: dict[str, Any]) -> Spot:
    fields = {k: v for k, v in body.items() if k not in ("iterations", "target")}
    return Spot(**fields)


@pytest.mark.parametrize("body", [RIVER, FESCA_RIVER], ids=["standard52", "fesca78"])
def test_a_solve_gives_the_library_s_own_answer(client: TestClient, body: dict[str, Any]) -> None:
    answer = post(client, body)
    assert answer.status_code == 202, answer.text
    state = finished(client, answer.json()["id"])
    assert state["state"] == "done" and state["result"]["iterations"] == body["iterations"]
    expected = solve(library_spot(body), body["iterations"], target=None, threads=1)
    for line in ("", "k", expected.root().actions[-1]):
        web = node(client, state["id"], line)
        lib = expected.node(line).as_dict(hands=True)
        assert web["kind"] == lib["kind"] and web["player"] == lib["player"]
        for p in ("oop", "ip"):
            assert web["ev"][p] == pytest.approx(lib["ev"][p], abs=1e-6)
            assert web["equity"][p] == pytest.approx(lib["equity"][p], abs=1e-6)
        assert [a["action"] for a in web["actions"]] == [a["action"] for a in lib["actions"]]
        for a, b in zip(web["actions"], lib["actions"], strict=True):
            assert a["frequency"] == pytest.approx(b["frequency"], abs=1e-6)
        assert sum(a["frequency"] for a in web["actions"]) == pytest.approx(1.0)
        assert len(web["hands"]) == len(lib["hands"]) > 0
        for a, b in zip(web["hands"], lib["hands"], strict=True):
            assert a["hand"] == b["hand"]
            assert a["ev"] == pytest.approx(b["ev"], abs=1e-6)
            assert a["equity"] == pytest.approx(b["equity"], abs=1e-6)
            assert a["strategy"] == pytest.approx(b["strategy"], abs=1e-6)
    root = node(client, state["id"], "")
    # no rake: the two EVs share the pot; a strategy per class adds up to 1
    assert root["ev"]["oop"] + root["ev"]["ip"] == pytest.approx(body["pot"], abs=1e-6)
    graded = [c for c in root["grid"]["cells"] if c["strategy"] is not None]
    assert graded and all(sum(c["strategy"]) == pytest.approx(1.0) for c in graded)
    assert len(root["colours"]) == len(root["actions"])
    places = [(c["row"], c["col"]) for c in root["grid"]["cells"] if c["row"] is not None]
    assert len(places) == len(set(places)) == 13 * 13  # one class per place
    # every class a hand of the range belongs to is shown, on the grid or apart
    assert sum(c["weight"] > 0 for c in graded) == len(graded)


def test_the_grid_places_classes_as_the_chart_does(client: TestClient) -> None:
    answer = post(client, RIVER)
    state = finished(client, answer.json()["id"])
    grid = node(client, state["id"], "")["grid"]
    where = {c["name"]: (c["row"], c["col"]) for c in grid["cells"]}
    assert grid["size"] == 13 and len(where) == 169
    assert where["AA"] == (0, 0) and where["22"] == (12, 12)
    assert where["AKs"] == (0, 1) and where["AKo"] == (1, 0)  # suited above, offsuit below
    played = {c["name"] for c in grid["cells"] if c["strategy"] is not None}
    assert played == {"AA", "KK", "98s", "QJs"}


def test_a_chance_node_offers_the_cards_that_can_come(client: TestClient) -> None:
    body = {**SLOW, "iterations": 20, "target": None, "oop": "AA,98s", "ip": "KQ,JJ"}
    state = finished(client, post(client, body).json()["id"])
    chance = node(client, state["id"], "k k")
    assert chance["kind"] == "chance"
    cards = {c["text"] for c in chance["cards"]}
    assert len(cards) == 48 and not cards & {"Td", "9d", "6h", "Qc"}
    river = node(client, state["id"], "k k 2c")
    assert river["kind"] == "decision" and river["board"].endswith("2c")
    bad = client.get(f"/api/study/solves/{state['id']}/node", params={"line": "k k Td"})
    assert bad.status_code == 400 and "board" in bad.json()["error"]


BAD = {
    "bad board": ({"board": "Ks Td"}, "3, 4 or 5 cards"),
    "card not in deck": ({"board": "Ks Td 7c 4h M7"}, "not in the standard52 deck"),
    "duplicate card": ({"board": "Ks Ks 7c"}, "twice"),
    "bad range": ({"oop": "AA, XYZ"}, "malformed range item 'XYZ'"),
    "bad sizes": ({"bets": "50%%"}, "not a bet size: '50%%'"),
    "bad raise sizes": ({"raises": "-5x"}, "not a raise size"),
    "too much memory": (
        {"board": "Ks Td 7c", "oop": "any", "ip": "any", "bets": "33%, 75%, a"},
        "more than the 256.0 MiB allowed",
    ),
    "too many iterations": ({"iterations": 5000}, "1 to 2,000 iterations"),
    "unknown game": ({"game": "nope-holdem"}, "unknown game 'nope-holdem'"),
    "not hold'em": ({"game": "fesca60-omaha"}, "plays Hold'em games"),
    "pot not a number": ({"pot": "lots"}, "field 'pot' must be a whole number"),
    "no stack": ({"stack": None}, "missing field 'stack'"),
    "unknown field": ({"rake": 0.05}, "unknown field 'rake'"),
    "bad target": ({"target": -1}, "field 'target'"),
    "bad street": ({"streets": {"turn": {"bets": 50}}}, "field 'streets'"),
    "unknown street": ({"streets": {"preflop": {"bets": "50%"}}}, "unknown street"),
}


@pytest.mark.parametrize("change", list(BAD.values()), ids=list(BAD))
def test_bad_input_is_one_clear_line(
    client: TestClient, change: tuple[dict[str, Any], str]
) -> None:
    fields, words = change
    answer = post(client, {**RIVER, **fields})
    assert answer.status_code == 400, answer.text
    message = answer.json()["error"]
    assert words in message and "\n" not in message and "Traceback" not in message


def test_the_memory_refusal_gives_the_estimate(client: TestClient) -> None:
    body = {**RIVER, "board": "Ks Td 7c", "oop": "any", "ip": "any", "bets": "33%, 75%, a"}
    message = post(client, body).json()["error"]
    assert "this spot needs about" in message and "GiB" in message


VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**40), 10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["", "a", "50%", "AA", "any", "Ks Td 7c", "M7 K7", "e", "2.5x", "1e9"]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=8), st.text(max_size=8), max_size=2),
)


@pytest.fixture(scope="module")
def fuzz() -> Iterator[TestClient]:
    """Solves are queued, never run; the spot is still checked for real."""
    with make_client(limiter=None, study=StudyLimits(max_running=1, max_waiting=1000)) as c:
        c.app.state.study._solve_pool = Never()  # type: ignore[attr-defined]
        yield c


@settings(max_examples=80, deadline=None)
@given(
    changes=st.dictionaries(st.sampled_from([*RIVER, "streets", "junk"]), VALUES, max_size=4),
    drop=st.sets(st.sampled_from(list(RIVER)), max_size=2),
)
def test_no_body_makes_the_server_fail(
    fuzz: TestClient, changes: dict[str, Any], drop: set[str]
) -> None:
    body = {k: v for k, v in {**RIVER, **changes}.items() if k not in drop}
    answer = post(fuzz, body)
    assert answer.status_code in (202, 400), answer.text
    assert "error" in answer.json() or answer.status_code == 202
    if answer.status_code == 202:
        assert fuzz.post(f"/api/study/solves/{answer.json()['id']}/cancel").status_code == 200


def test_the_queue_is_bounded_and_each_client_has_one_solve() -> None:
    with make_client(limiter=None, study=StudyLimits(max_running=1, max_waiting=1)) as c:
        c.app.state.study._solve_pool = Never()  # type: ignore[attr-defined]
        first = post(c, RIVER)
        assert first.status_code == 202
        again = c.post("/api/study/solves", json=RIVER, headers=who())  # same cookie
        assert again.status_code == 429 and "already have a solve" in again.json()["error"]
        same_address = {"x-forwarded-for": "10.9.9.9"}
        assert post(c, RIVER, **same_address).status_code == 202
        assert post(c, RIVER, **same_address).status_code == 429  # a new cookie, same address
        full = post(c, RIVER)
        assert full.status_code == 503 and int(full.headers["retry-after"]) > 0
        assert "queue is full" in full.json()["error"]
        # a cancel frees the slot
        waiting = c.get(f"/api/study/solves/{first.json()['id']}").json()
        assert waiting["state"] == "waiting"
        cancelled = c.post(f"/api/study/solves/{first.json()['id']}/cancel").json()
        assert cancelled["state"] == "cancelled"
        assert post(c, RIVER).status_code == 202


def test_a_running_solve_is_cancelled_and_what_it_did_is_kept(client: TestClient) -> None:
    job = post(client, SLOW).json()
    deadline = time.monotonic() + 120
    while True:
        state = client.get(f"/api/study/solves/{job['id']}").json()
        if state["state"] == "running" and state["progress"]["done"] >= 2:
            break
        assert state["state"] in ("waiting", "running") and time.monotonic() < deadline, state
        time.sleep(0.05)
    assert 0 < state["progress"]["done"] <= state["progress"]["total"] == 2000
    assert client.post(f"/api/study/solves/{job['id']}/cancel").status_code == 200
    done = finished(client, job["id"], 60)
    assert done["state"] == "cancelled" and done["result"]["stopped"] is True
    assert done["result"]["iterations"] < 2000
    assert node(client, job["id"], "")["kind"] == "decision"


def test_unknown_ids_are_404(client: TestClient) -> None:
    for path in ("/api/study/solves/nope", "/api/study/solves/nope/node?line="):
        assert client.get(path).status_code == 404
    assert client.post("/api/study/solves/nope/cancel").status_code == 404


def test_ids_are_unguessable_and_a_finished_solve_stays_done(client: TestClient) -> None:
    job = post(client, {**RIVER, "iterations": 10}).json()
    assert len(job["id"]) >= 24
    assert finished(client, job["id"])["state"] == "done"
    after = client.post(f"/api/study/solves/{job['id']}/cancel").json()
    assert after["state"] == "done" and after["result"]["stopped"] is False


def test_the_guard_refuses_foreign_pages_and_non_json(client: TestClient) -> None:
    foreign = post(client, RIVER, origin="https://evil.example")
    assert foreign.status_code == 403
    client.cookies.clear()
    plain = client.post(
        "/api/study/solves",
        content=b'{"game": "standard52-holdem"}',
        headers=who() | {"content-type": "text/plain"},
    )
    assert plain.status_code == 415
    huge = post(client, {**RIVER, "oop": "AA," * 30_000})
    assert huge.status_code == 413
    own = post(client, {**RIVER, "iterations": 10}, origin=OWN)
    assert own.status_code == 202
    finished(client, own.json()["id"])


def test_starting_solves_is_rate_limited() -> None:
    limits = {"create": Limit(2, 600.0), "request": Limit(1000, 10.0)}
    with make_client(limiter=RateLimiter(limits), study=StudyLimits(max_waiting=100)) as c:
        c.app.state.study._solve_pool = Never()  # type: ignore[attr-defined]
        codes = []
        for _ in range(3):
            answer = post(c, RIVER, **{"x-forwarded-for": "10.8.8.8"})
            codes.append(answer.status_code)
            if answer.status_code == 202:  # one at a time: cancel it before the next
                c.post(f"/api/study/solves/{answer.json()['id']}/cancel")
        assert codes == [202, 202, 429]
        assert int(answer.headers["retry-after"]) > 0


def test_the_page_and_its_links(client: TestClient) -> None:
    page = client.get("/study")
    assert page.status_code == 200
    for text in ('type="module"', "study.js", "standard52-holdem", "fesca78-holdem", "256"):
        assert text in page.text
    assert 'href="/study"' in client.get("/").text
    assert client.get("/static/study.js").status_code == 200
