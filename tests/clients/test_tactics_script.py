"""Smoke test of scripts/tactics.py: 3 WAC positions at 0.2 s against kishi.

Skipped when target/release/kishi (build it with `cargo build --release`) or the WAC suite is
missing. Run: python3 -m pytest tests/clients/test_tactics_script.py -q
"""

import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRIPT = os.path.join(REPO, "scripts", "tactics.py")
KISHI = os.path.join(REPO, "target", "release", "kishi")
WAC = "/work/shared/data/suites/wac_even.epd"

sys.path.insert(0, os.path.join(REPO, "scripts"))
import tactics  # noqa: E402


def test_solved_rule():
    assert tactics.is_solved("e2e4", ["e2e4", "d2d4"], [])
    assert not tactics.is_solved("c2c4", ["e2e4"], [])
    assert not tactics.is_solved("e2e4", [], ["e2e4"])
    assert tactics.is_solved("d2d4", [], ["e2e4"])
    assert not tactics.is_solved(None, ["e2e4"], [])


@pytest.mark.skipif(not os.path.exists(KISHI), reason="target/release/kishi not built")
@pytest.mark.skipif(not os.path.exists(WAC), reason="WAC suite missing")
def test_three_wac_positions(tmp_path):
    out = tmp_path / "wac.json"
    proc = subprocess.run(
        [sys.executable, SCRIPT, WAC, "--engine", KISHI, "--time", "0.2", "--limit", "3",
         "--verbose", "--json", str(out)],
        capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "solved " in proc.stdout and "/3" in proc.stdout
    s = json.loads(out.read_text())
    assert s["total"] == 3
    assert 0 <= s["solved"] <= 3
    assert s["time"] == 0.2 and s["threads"] == 1 and s["hash"] == 64
    assert s["errors"] == []
    assert len(s["results"]) == 3
    assert len(s["unsolved"]) == 3 - s["solved"]
    for r in s["results"]:
        assert r["move"] is not None  # a legal move was played
        assert r["bm"]
        assert r["elapsed"] < 5
