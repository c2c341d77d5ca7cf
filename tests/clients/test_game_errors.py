"""scripts/game_errors.py: each move of the named player scored by a reference engine.

A two-game PGN in match.py's form (book moves, then `{ score/depth time }` comments) is analysed
with kishi itself as the UCI reference at a few nodes: one row per move of the player after the
book, the drop is before minus after, the player's own score is read from its comment, and
a name that matches no player is an error.
Run: python3 -m pytest tests/clients/test_game_errors.py -q
"""

import csv
import os
import subprocess
import sys

import chess
import chess.pgn
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRIPT = os.path.join(REPO, "scripts", "game_errors.py")
KISHI = os.path.join(REPO, "target", "release", "kishi")

pytestmark = pytest.mark.skipif(not os.path.exists(KISHI), reason="no kishi binary (cargo build --release)")

BOOK = ["e4", "e5", "Nf3", "Nc6"]
PLAYED = ["Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6"]


def write_pgn(path):
    with open(path, "w", encoding="utf-8") as f:
        for rnd, (white, black) in enumerate([("kishi x", "other"), ("other", "kishi x")], 1):
            g = chess.pgn.Game()
            g.headers.update({"White": white, "Black": black, "Round": str(rnd), "Result": "1/2-1/2"})
            node = g
            for i, san in enumerate(BOOK + PLAYED):
                node = node.add_variation(node.board().parse_san(san))
                if i == len(BOOK) - 1:
                    node.comment = "end of opening"
                elif i >= len(BOOK):
                    node.comment = f"{'-' if i % 3 == 0 else '+'}0.{i:02d}/7 0.010s"
            print(g, file=f, end="\n\n")


def test_one_row_per_move_of_the_player_after_the_book(tmp_path):
    pgn = tmp_path / "g.pgn"
    write_pgn(pgn)
    out = tmp_path / "e.csv"
    proc = subprocess.run([sys.executable, SCRIPT, "--player", "kishi", "--engine", KISHI, "--nodes", "500",
                           "--jobs", "1", "--csv", str(out), str(pgn)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = list(csv.DictReader(open(out, encoding="utf-8")))
    white = [r for r in rows if r["game"].endswith("#1")]
    black = [r for r in rows if r["game"].endswith("#2")]
    # White plays the even moves of PLAYED, black the odd ones.
    assert [r["move"] for r in white] == PLAYED[0::2]
    assert [r["move"] for r in black] == PLAYED[1::2]
    for r in rows:
        assert int(r["drop"]) == int(r["ref_before"]) - int(r["ref_after"])
        assert r["phase"] == "opening"
    # The comment of the move at index i (book included) is 0.0i pawns, negative when i % 3 == 0.
    assert [int(r["own"]) for r in white] == [4, -6, 8, 10, -12]
    assert [int(r["own"]) for r in black] == [5, 7, -9, 11, 13]
    assert "mean(own-ref)" in proc.stdout


def test_a_player_in_no_game_is_an_error(tmp_path):
    pgn = tmp_path / "g.pgn"
    write_pgn(pgn)
    proc = subprocess.run([sys.executable, SCRIPT, "--player", "nobody", "--engine", KISHI, "--csv",
                           str(tmp_path / "e.csv"), str(pgn)], capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert "no game" in proc.stderr
    assert not (tmp_path / "e.csv").exists()
