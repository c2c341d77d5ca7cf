"""scripts/ladder.py end to end with the real kishi binary (built by scripts/test.sh): a fast A/B
row and a headline row are played, stored, kept on a rerun, and reported as a table and a PNG.

Run: python3 -m pytest tests/clients/test_ladder.py -q
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
LADDER = os.path.join(REPO, "scripts", "ladder.py")
KISHI = os.path.join(REPO, "target", "release", "kishi")
SF = "/usr/games/stockfish"


def ladder(tmp_path, *args):
    cmd = [sys.executable, LADDER, "--docs", str(tmp_path / "docs"), "--out", str(tmp_path / "m"),
           "--kishi", KISHI] + list(args)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_ab_row_is_played_kept_and_reported(tmp_path):
    if not os.path.exists(KISHI):
        pytest.skip("no kishi binary (cargo build --release)")
    out = ladder(tmp_path, "ab", "--game", "chess", "--label", "smoke", "--games", "2", "--nodes", "300",
                 "--base", "EvalFile=" + os.path.join(REPO, "eval_weights", "chess-kp.kwt"))
    row_file = tmp_path / "docs" / "strength" / "rows" / "ab-chess-smoke.json"
    row = json.loads(row_file.read_text())
    assert row["kind"] == "ab" and row["games_played"] == 2
    assert row["wins"] + row["draws"] + row["losses"] == 2
    assert row["time_control"]["nodes"] == 300 and row["base"].endswith("chess-kp.kwt")
    assert "--nodes 300" in row["command"] and "ab-chess-smoke" in out
    report = (tmp_path / "docs" / "strength.md").read_text()
    assert "| ab-chess-smoke |" in report and "nodes 300" in report
    assert (tmp_path / "docs" / "strength.png").stat().st_size > 1000
    # A rerun keeps the row instead of playing it again.
    again = ladder(tmp_path, "ab", "--game", "chess", "--label", "smoke", "--games", "2", "--nodes", "300")
    assert "kept (2 games already played)" in again


def test_headline_row_with_a_short_time_control(tmp_path):
    if not os.path.exists(KISHI) or not shutil.which(SF):
        pytest.skip("needs kishi and stockfish")
    ladder(tmp_path, "run", "--rows", "chess-sf2000", "--games", "2", "--chess-tc", "1+0.05")
    row = json.loads((tmp_path / "docs" / "strength" / "rows" / "chess-sf2000.builtin.json").read_text())
    assert row["kind"] == "headline" and row["opponent"] == "chess-sf2000" and row["games_played"] == 2
    assert row["adjudication"]["resign_score"] == 1000 and row["adjudication"]["draw_score"] == 10
    report = (tmp_path / "docs" / "strength.md").read_text()
    assert "| chess-sf2000.builtin | builtin | Stockfish 2000 |" in report


def test_unknown_row_is_refused(tmp_path):
    r = subprocess.run([sys.executable, LADDER, "--docs", str(tmp_path), "--kishi", sys.executable,
                        "run", "--rows", "no-such-row"], capture_output=True, text=True)
    assert r.returncode != 0 and "unknown rows" in r.stderr


def test_elo_text_of_one_sided_scores():
    """A 0% or 100% score has no finite normal interval: the row says which infinity and gives
    the Wilson bound (0/0/200 is at most −687 Elo), never an unsigned ±inf."""
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    import ladder as lad
    assert lad.fmt_elo({"wins": 0, "draws": 0, "losses": 200}) == "-inf (≤ -687)"
    assert lad.fmt_elo({"wins": 200, "draws": 0, "losses": 0}) == "+inf (≥ +687)"
    # match.py's own interval is kept where it is finite; a missing end is Wilson's.
    assert lad.fmt_elo({"wins": 100, "draws": 0, "losses": 100, "elo": 0.0,
                        "elo_low": -40.2, "elo_high": 40.2}) == "+0 [-40, +40]"
    assert lad.fmt_elo({"wins": 199, "draws": 1, "losses": 0}).startswith("+1040 [+648, ")
    assert lad.fmt_elo({"wins": 0, "draws": 0, "losses": 0}) == "±inf [-inf, +inf]"
