"""scripts/move_losses.py: the per-move loss bookkeeping on hand-made scores, and one short game
scored by Stockfish in which the player hangs a bishop.

Run: python3 -m pytest tests/clients/test_move_losses.py -q
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRIPT = os.path.join(REPO, "scripts", "move_losses.py")
sys.path.insert(0, os.path.join(REPO, "scripts"))
import move_losses  # noqa: E402

STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"


def game(white, black, moves, book=0):
    return {"white": white, "black": black, "result": "*", "fen": None, "moves": moves,
            "book": book}


def test_losses_are_the_movers_drop_and_skip_the_book():
    g = game("kishi x", "other", ["e2e4", "e7e5", "f1c4", "d8h4"], book=1)
    # White's view: +30, +20 after e4? (book), +40 after e5, -260 after Bc4 (hangs), -250 after Qh4.
    scores = [30, 20, 40, -260, -250]
    r = move_losses.move_losses(g, scores, "kishi")
    assert [x["ply"] for x in r] == [1, 2, 3], "the book move is left out"
    assert [x["player"] for x in r] == [False, True, False]
    # Black's e5: before -20 (Black's view), after -40: loses 20. Bc4: 40 -> -260 = 300.
    # Qh4: Black's view 260 -> 250 = 10.
    assert [x["loss"] for x in r] == [20, 300, 10]
    assert r[1]["material"] == 78
    s = move_losses.summary(r)
    assert s["player"]["moves"] == 1 and s["player"][">=300"] == 1
    assert s["opponents"]["moves"] == 2 and s["opponents"][">=50"] == 0
    # The player's move was played at +40 (< 400) with full material.
    assert s["player"]["phases"]["material >= 40"][">=100"] == 1


def test_scores_are_clipped():
    g = game("a", "kishi", ["e2e4", "e7e5"])
    r = move_losses.move_losses(g, [2000, 3000, -3000], "kishi")
    assert r[0]["loss"] == 0 and r[1]["loss"] == -2000


@pytest.mark.skipif(not os.path.exists(STOCKFISH), reason="stockfish not installed")
def test_a_hung_bishop_is_found(tmp_path):
    pgn = tmp_path / "g.pgn"
    pgn.write_text('[White "kishi test"]\n[Black "opponent"]\n[Result "0-1"]\n\n'
                   "1. d4 e5 2. Bg5 Qxg5 0-1\n\n"
                   '[White "someone"]\n[Black "else"]\n[Result "*"]\n\n1. e4 *\n')
    out = tmp_path / "l.json"
    p = subprocess.run([sys.executable, SCRIPT, str(pgn), "--player", "kishi", "--depth", "8",
                        "--engine", STOCKFISH, "--jobs", "1", "--out", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    data = json.loads(out.read_text())
    assert len(data["games"]) == 1, "only the player's games are scored"
    s = data["summary"]["player"]
    assert s["moves"] == 2 and s[">=200"] == 1, s
    assert "move 2" in p.stdout


def test_an_unknown_player_is_an_error(tmp_path):
    pgn = tmp_path / "g.pgn"
    pgn.write_text('[White "a"]\n[Black "b"]\n[Result "*"]\n\n1. e4 *\n')
    p = subprocess.run([sys.executable, SCRIPT, str(pgn), "--player", "kishi"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode != 0 and "no game" in p.stderr
