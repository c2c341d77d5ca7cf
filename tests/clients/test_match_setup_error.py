"""scripts/match.py refuses an engine that reports an error while its options are set.

kishi answers a weight file it cannot load with `info string error: …` and keeps its current
evaluation (the engine must not die on bad input); a match played on that would be recorded under
the wrong label. Here both protocols: kishi with a missing EvalFile must make the match fail
(exit 2, `fatal_error` naming the error), before any game; with a loadable file it plays.
Run: python3 -m pytest tests/clients/test_match_setup_error.py -q
"""

import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
MATCH = os.path.join(REPO, "scripts", "match.py")
KISHI = os.path.join(REPO, "target", "release", "kishi")

pytestmark = pytest.mark.skipif(not os.path.exists(KISHI), reason="no kishi binary (cargo build --release)")


def run(tmp_path, game, eval_file):
    out = tmp_path / game
    sep = ";"
    cmd = [sys.executable, MATCH, "--no-progress", "--out", str(out), "--game", game, "--games", "2",
           "--nodes", "300", "--max-plies", "16" if game == "shogi" else "200",
           "--engine1", KISHI, "--options1", sep.join(["Threads=1", f"EvalFile={eval_file}"]),
           "--engine2", KISHI, "--options2", "Threads=1"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    with open(out / "summary.json", encoding="utf-8") as f:
        return proc, json.load(f)


@pytest.mark.parametrize("game", ["shogi", "chess"])
def test_an_option_the_engine_could_not_apply_stops_the_match(tmp_path, game):
    proc, s = run(tmp_path, game, "/nonexistent/weights.kwt")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert s["games_played"] == 0
    assert "info string error" in (s["fatal_error"] or ""), s["fatal_error"]
    assert "nonexistent" in s["fatal_error"]


@pytest.mark.parametrize("game,name", [("shogi", "shogi-eAB.kwt"), ("chess", "chess-kp.kwt")])
def test_a_loadable_file_plays(tmp_path, game, name):
    proc, s = run(tmp_path, game, name)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert s["games_played"] == 2 and s["fatal_error"] is None
