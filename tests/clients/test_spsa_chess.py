"""scripts/spsa_chess.py end to end with a `tune` build of kishi at a tiny node count: a binary
without the parameter options and an unknown parameter are refused before any game; each pair's
two sides are θ ± c_k·Δ (rounded, symmetric about θ); θ moves by the SPSA step of the recorded
results; a run stopped after one batch and resumed writes exactly the uninterrupted run's log.

The `tune` build comes from conftest.py's `tune_kishi` fixture (built into `target/tune`, a few
minutes the first time).

Run: python3 -m pytest tests/clients/test_spsa_chess.py -q
"""

import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "scripts", "spsa_chess.py")
KISHI = os.path.join(REPO, "target", "release", "kishi")
PARAMS = "RfpMargin,LmrBase,SeMargin"
ITER = 6


def run(kishi, out, *extra, ok=True):
    r = subprocess.run([sys.executable, SCRIPT, "--kishi", kishi, "--out", str(out), "--nodes", "300",
                        "--iterations", str(ITER), "--params", PARAMS, *extra],
                       capture_output=True, text=True, timeout=900)
    if ok:
        assert r.returncode == 0, r.stdout + r.stderr
    return r


def log(out):
    with open(os.path.join(out, "iterations.jsonl")) as f:
        return [json.loads(x) for x in f if x.strip()]


@pytest.fixture(scope="module")
def full(tune_kishi, tmp_path_factory):
    out = tmp_path_factory.mktemp("spsa") / "full"
    run(tune_kishi, out)
    return out


def test_a_binary_without_the_options_is_refused(tmp_path):
    if not os.path.exists(KISHI):
        pytest.skip("no kishi binary (cargo build --release)")
    r = run(KISHI, tmp_path / "x", ok=False)
    assert r.returncode != 0
    assert "--features tune" in r.stderr
    assert not (tmp_path / "x" / "state.json").exists()


def test_an_unknown_parameter_is_refused(tune_kishi, tmp_path):
    r = subprocess.run([sys.executable, SCRIPT, "--kishi", tune_kishi, "--out", str(tmp_path / "x"),
                        "--params", "RfpMargin,NoSuchThing"], capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    assert "NoSuchThing" in r.stderr


def test_sides_are_symmetric_and_theta_takes_the_spsa_step(full):
    space = {p["id"]: p for p in json.loads(subprocess.run(
        [json.load(open(os.path.join(full, "state.json")))["config"]["kishi"], "search-params", "chess"],
        capture_output=True, text=True).stdout)["parameters"]}
    rows = log(full)
    assert [r["k"] for r in rows] == list(range(1, ITER + 1))
    state = json.load(open(os.path.join(full, "state.json")))
    theta = dict(state["start"])
    big_a = 0.1 * ITER
    batch_theta = dict(theta)
    for i, r in enumerate(rows):
        if i % 2 == 0:  # a batch of two pairs starts from one θ
            batch_theta = dict(theta)
        k = r["k"]
        points = sum(1.0 if res == ("1-0" if j == 0 else "0-1") else 0.5 if res == "1/2-1/2" else 0.0
                     for j, res in enumerate(r["results"]))
        assert r["result"] == pytest.approx(2 * points - 2)
        for n in PARAMS.split(","):
            c_end = space[n]["schedule"]["c_end"]
            ck = c_end * (ITER / k) ** 0.101
            plus, minus = r["plus"][n], r["minus"][n]
            # The two sides straddle θ by c_k (each rounded), in opposite directions.
            assert abs(plus - minus) == pytest.approx(2 * ck, abs=1.0)
            assert (plus + minus) / 2 == pytest.approx(batch_theta[n], abs=1.0)
            delta = 1 if plus > minus else -1
            a = 0.002 * c_end ** 2 * (big_a + ITER) ** 0.602
            ak = a / (big_a + k) ** 0.602
            theta[n] += ak / ck * r["result"] * delta
            assert r["theta"][n] == pytest.approx(theta[n], abs=1e-3)
    for n in PARAMS.split(","):
        assert state["theta"][n] == pytest.approx(theta[n], abs=1e-9)


def test_a_stopped_run_resumes_to_the_same_log(tune_kishi, full, tmp_path):
    out = tmp_path / "cut"
    r = run(tune_kishi, out, "--max-batches", "1")
    assert "stopped after 1 batches" in r.stdout
    assert len(log(out)) == 2
    run(tune_kishi, out, "--resume")
    with open(os.path.join(full, "iterations.jsonl")) as a, open(os.path.join(out, "iterations.jsonl")) as b:
        assert a.read() == b.read()
    other = run(tune_kishi, out, "--resume", "--nodes", "400", ok=False)
    assert other.returncode != 0 and "other settings" in other.stderr
