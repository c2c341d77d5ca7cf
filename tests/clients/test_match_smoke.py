"""Smoke tests of scripts/match.py with real engines at a fast time control.

* USI: 2 games gpsusi (LimitDepth 4, 0.2 s byoyomi) vs Fairy-Stockfish (USI
  shogi, 50 ms a move), from book/shogi_openings.sfen.
* UCI: 2 games Stockfish UCI_Elo 1350 vs UCI_Elo 1500 at 50 ms a move, from
  book/chess_openings.epd.

Both check the JSON summary and the written records (CSA / PGN).  Needs the
Debian packages gpsshogi, fairy-stockfish and stockfish (tests are skipped
when a binary is missing).  Run: python3 -m pytest tests/clients/test_match_smoke.py -q
"""

import json
import os
import shutil
import subprocess
import sys

import chess
import chess.pgn
import cshogi
import cshogi.CSA
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
MATCH = os.path.join(REPO, "scripts", "match.py")

GPSUSI = shutil.which("gpsusi") or "/usr/games/gpsusi"
FSF = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
SF = shutil.which("stockfish") or "/usr/games/stockfish"


def need(*paths):
    for p in paths:
        if not os.path.exists(p):
            pytest.skip(f"{p} not installed (apt-get install gpsshogi fairy-stockfish stockfish)")


def run_match(args, out):
    cmd = [sys.executable, MATCH, "--no-progress", "--out", str(out)] + args
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=170)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with open(out / "summary.json", encoding="utf-8") as f:
        return json.load(f), proc.stdout


def check_common(s, game):
    assert s["game"] == game
    assert s["games_planned"] == 2 and s["games_played"] == 2
    assert s["wins"] + s["draws"] + s["losses"] == 2
    assert s["points"] == s["wins"] + 0.5 * s["draws"]
    assert s["score"] == pytest.approx(s["points"] / 2)
    for k in ("elo", "elo_low", "elo_high", "elo_error", "los", "trinomial", "pentanomial",
              "anomalies", "losses_by_reason", "terminations", "by_side", "wall_time_s", "time_control",
              "openings", "records", "games", "sprt", "engines"):
        assert k in s, k
    assert s["pentanomial"]["pairs"] == 1 and sum(s["pentanomial"]["counts"]) == 1
    pair_points = s["games"][0]["engine1_score"] + s["games"][1]["engine1_score"]
    assert s["pentanomial"]["counts"][int(pair_points * 2)] == 1
    # one opening, both colours
    g1, g2 = s["games"]
    assert g1["opening_index"] == g2["opening_index"]
    assert (g1["engine1_side"], g2["engine1_side"]) == ("first", "second")
    assert g1["players"] == list(reversed(g2["players"]))
    for e in ("engine1", "engine2"):
        assert s["anomalies"][e]["crash"] == 0 and s["anomalies"][e]["illegal_move"] == 0
    assert sum(s["terminations"].values()) == 2
    assert s["wall_time_s"] > 0


def test_usi_smoke_gpsusi_vs_fairy_stockfish(tmp_path):
    need(GPSUSI, FSF)
    out = tmp_path / "shogi"
    s, stdout = run_match([
        "--game", "shogi", "--games", "2", "--movetime", "0.05", "--timemargin", "0.5",
        "--tc1", "byoyomi=0.2,margin=2.0",  # gpsusi overruns short byoyomi by up to ~1 s
        "--engine1", GPSUSI, "--options1", "Thread=1,LimitDepth=4",
        "--engine2", FSF, "--options2", "Threads=1,USI_Hash=16",
        "--resign-score", "1000", "--resign-moves", "3", "--max-plies", "160"], out)
    check_common(s, "shogi")
    assert s["protocol"] == "usi"
    assert "gpsshogi" in s["engines"][0]["name"] and "Fairy-Stockfish" in s["engines"][1]["name"]
    assert s["engines"][0]["options"] == {"Thread": "1", "LimitDepth": "4"}
    assert s["records"]["format"] == "CSA"
    assert s["time_controls"][0]["byoyomi"] == 0.2 and s["time_controls"][1]["movetime"] == 0.05
    assert "W/D/L" in stdout
    for g in s["games"]:
        assert g["plies"] <= 160
        parsed = cshogi.CSA.Parser.parse_file(g["record"])[0]
        assert len(parsed.moves) == g["plies"]
        assert parsed.names == g["players"]
        board = cshogi.Board()
        for m in parsed.moves:            # every recorded move is legal in sequence
            assert board.is_legal(m)
            board.push(m)
        text = open(g["record"], encoding="utf-8").read()
        assert text.startswith("V2.2") and "\n%" in text
        if g["result"] == "1/2-1/2":
            assert g["engine1_score"] == 0.5
        else:
            assert g["loser_engine"] in (1, 2)


def test_uci_smoke_stockfish_1350_vs_1500(tmp_path):
    need(SF)
    out = tmp_path / "chess"
    s, _ = run_match([
        "--game", "chess", "--games", "2", "--movetime", "0.05", "--timemargin", "0.5",
        "--engine1", SF, "--name1", "SF1350", "--options1", "Threads=1,UCI_LimitStrength=true,UCI_Elo=1350",
        "--engine2", SF, "--name2", "SF1500", "--options2", "Threads=1,UCI_LimitStrength=true,UCI_Elo=1500",
        "--resign-score", "1000", "--resign-moves", "3", "--max-plies", "200", "--sprt", "--elo0", "0",
        "--elo1", "10"], out)
    check_common(s, "chess")
    assert s["protocol"] == "uci" and s["records"]["format"] == "PGN"
    assert [e["name"] for e in s["engines"]] == ["SF1350", "SF1500"]
    assert s["sprt"]["elo1"] == 10 and s["sprt"]["lower"] < 0 < s["sprt"]["upper"]
    assert s["sprt"]["decision"] is None
    games = []
    with open(s["records"]["path"], encoding="utf-8") as f:
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                break
            games.append(g)
    assert len(games) == 2
    by_round = {int(g.headers["Round"]): g for g in games}
    for rec in s["games"]:
        pg = by_round[rec["game"]]
        assert [pg.headers["White"], pg.headers["Black"]] == rec["players"]
        assert pg.headers["Result"] == rec["result"]
        moves = list(pg.mainline_moves())
        assert len(moves) == rec["plies"] and not pg.errors
        board = pg.board()
        for m in moves:
            assert m in board.legal_moves
            board.push(m)
        if rec["reason"] == "checkmate":
            assert board.is_checkmate()
