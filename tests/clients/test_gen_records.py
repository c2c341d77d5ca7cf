"""Smoke test of scripts/gen_records.py: one fast game of gpsusi (LimitDepth 2 vs 3, 60 plies at most).

Checks the game line (result, plies = number of moves, every move legal under
cshogi, the end agrees with the result) and the .meta.tsv row.  Skipped when
/usr/games/gpsusi is missing (apt-get install -y gpsshogi).
Run: python3 -m pytest tests/clients/test_gen_records.py -q
"""

import os
import subprocess
import sys

import pytest

cshogi = pytest.importorskip("cshogi")

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRIPT = os.path.join(REPO, "scripts", "gen_records.py")
GPSUSI = "/usr/games/gpsusi"
HIRATE = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
COLUMNS = ["line", "black", "white", "black_rating", "white_rating", "event", "date", "endgame", "source"]


@pytest.mark.skipif(not os.path.exists(GPSUSI), reason=f"{GPSUSI} missing (apt-get install -y gpsshogi)")
def test_one_game(tmp_path):
    out = str(tmp_path / "games.txt")
    r = subprocess.run([sys.executable, SCRIPT, "--games", "1", "--depths", "2,3", "--random-plies", "4",
                        "--seed", "5", "--max-plies", "60", "--byoyomi", "10000", "--out", out],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr

    lines = open(out).read().splitlines()
    assert len(lines) == 1
    tok = lines[0].split()
    result, plies = tok[0], int(tok[1])
    assert result in ("1-0", "0-1", "1/2-1/2")
    assert tok[2] == "sfen"
    i = tok.index("moves")
    assert " ".join(tok[3:i]) == HIRATE
    moves = tok[i + 1:]
    assert plies == len(moves)
    assert 4 < plies <= 60

    board = cshogi.Board()
    assert board.sfen() == HIRATE
    for m in moves:
        mv = board.move_from_usi(m)
        assert mv and mv in set(board.legal_moves), f"illegal move {m} at ply {board.move_number}"
        board.push(mv)

    meta = open(str(tmp_path / "games.meta.tsv")).read().splitlines()
    assert meta[0].split("\t") == COLUMNS
    assert len(meta) == 2
    row = dict(zip(COLUMNS, meta[1].split("\t")))
    assert row["line"] == "1"
    assert row["source"].startswith("d2d3rand/")
    assert row["black"].startswith("gpsshogi")
    end = row["endgame"]
    if end == "%JISHOGI":
        assert result == "1/2-1/2" and plies == 60
    elif end == "%SENNICHITE":
        assert result == "1/2-1/2"
    elif end == "%TSUMI":
        assert board.is_game_over()
        assert result == ("0-1" if board.turn == cshogi.BLACK else "1-0")
    else:
        assert end in ("%TORYO", "%KACHI", "%+ILLEGAL_ACTION", "%-ILLEGAL_ACTION")
        assert result in ("1-0", "0-1")

    # the output is not overwritten by accident
    r2 = subprocess.run([sys.executable, SCRIPT, "--games", "1", "--out", out], capture_output=True, text=True,
                        timeout=60)
    assert r2.returncode != 0 and "exists" in r2.stderr


# ---------------------------------------------- game rules, scripted engine --

def load_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location("gen_records", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gen_records"] = mod  # dataclasses look the module up
    spec.loader.exec_module(mod)
    return mod


class ScriptedEngine:
    """Stands in for USIEngine: answers with a fixed list of (bestmove, score)."""

    def __init__(self, answers, label="scripted"):
        self.answers = list(answers)
        self.label = label

    def new_game(self):
        pass

    def go(self, moves, byoyomi_ms, timeout):
        return self.answers.pop(0)


def test_rules_with_scripted_engines():
    g = load_module()
    # kings walk back and forth: the start position occurs for the fourth time after 12 plies
    shuffle = ["5i5h", "5a5b", "5h5i", "5b5a"] * 3
    s = ScriptedEngine([(m, 0) for m in shuffle[0::2]])
    w = ScriptedEngine([(m, 0) for m in shuffle[1::2]])
    game = g.play_game(s, w, [], 300, 2500, 1000, 5.0)
    assert (game.result, game.endgame, len(game.moves)) == ("1/2-1/2", "%SENNICHITE", 12)

    # resignation by score: gote's score for its second move is -3000; that move is not played
    s = ScriptedEngine([("7g7f", 50), ("2g2f", 80)])
    w = ScriptedEngine([("3c3d", -100), ("8c8d", -3000)])
    game = g.play_game(s, w, [], 300, 2500, 1000, 5.0)
    assert (game.result, game.endgame, game.moves) == ("1-0", "%TORYO", ["7g7f", "3c3d", "2g2f"])

    # maximum plies (counting the opening) and an illegal engine move
    s = ScriptedEngine([("7g7f", 0), ("2g2f", 0)])
    w = ScriptedEngine([("3c3d", 0), ("8c8d", 0)])
    game = g.play_game(s, w, ["5i5h"], 3, 2500, 1000, 5.0)
    assert (game.result, game.endgame, len(game.moves)) == ("1/2-1/2", "%JISHOGI", 3)
    with pytest.raises(g.EngineFault):
        g.play_game(ScriptedEngine([("7g7e", 0)]), ScriptedEngine([]), [], 300, 2500, 1000, 5.0)
