"""kishi played by real clients against real engines (DESIGN §6): cshogi.cli and shogiarena against
gpsusi (USI), python-chess against Stockfish (UCI).

Each test is a short match with time enforced; the assertions are the issue's acceptance: no illegal
move, no time loss, no forfeit, every game ends with a result. The release binary is used
(scripts/test.sh builds it first); KISHI overrides the path.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import chess
import chess.engine
import pytest

ROOT = Path(__file__).resolve().parents[2]
KISHI = os.environ.get("KISHI", str(ROOT / "target" / "release" / "kishi"))
GPSUSI = "/usr/games/gpsusi"
STOCKFISH = "/usr/games/stockfish"


def require(path: str) -> None:
    # A missing client is a failure, not a skip: the default run installs them (.ci/run), and a
    # skipped acceptance test would read as a pass.
    assert os.access(path, os.X_OK), f"{path} is missing (run .ci/run or apt-get install gpsshogi stockfish)"


def test_cshogi_cli_two_games_against_gpsusi(tmp_path: Path) -> None:
    require(KISHI)
    require(GPSUSI)
    csa_dir = tmp_path / "csa"
    cmd = [
        sys.executable, "-m", "cshogi.cli", KISHI, GPSUSI,
        "--name1", "kishi", "--name2", "gpsusi",
        "--options1", "USI_Hash:16,Threads:1",
        "--options2", "LimitDepth:4,Thread:1",
        "--games", "2",
        # Main time plus byoyomi: cshogi passes both in `go` and flags a side whose clock goes
        # below -1 s (its grace). --draw bounds the game length so the suite stays short.
        "--time", "2000", "--byoyomi", "200",
        "--draw", "160",
        "--csa", str(csa_dir),
    ]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "2 of 2 games finished." in out, out
    # One result line per game: "まで<n>手で…" (win, loss, repetition, max moves or declaration).
    results = [l for l in out.splitlines() if l.startswith("まで")]
    assert len(results) == 2, out
    for line in results:
        assert "反則" not in line, f"illegal move or action: {line}\n{out}"
        assert "切れ負け" not in line, f"time loss: {line}\n{out}"
    records = glob.glob(str(csa_dir / "*.csa"))
    assert records, "cshogi wrote no CSA record"
    text = "".join(Path(p).read_text(errors="replace") for p in records)
    assert "TIME_UP" not in text and "ILLEGAL" not in text, text[-2000:]


def test_shogiarena_two_game_tournament_against_gpsusi(tmp_path: Path) -> None:
    require(KISHI)
    require(GPSUSI)
    arena = shutil.which("shogiarena")
    assert arena, "shogiarena is not installed (pip install shogiarena)"
    config = {
        "experiment_name": "kishi_vs_gpsusi",
        "engines": [
            {"name": "kishi", "engine_path": KISHI, "options": {"USI_Hash": 16, "Threads": 1}},
            {"name": "gpsusi", "engine_path": GPSUSI, "options": {"LimitDepth": 4, "Thread": 1}},
        ],
        "tournament": {"games_per_pair": 2, "num_parallel": 1},
        # Byoyomi only, enforced (should_allow_timeout stays false); adjudication is left at
        # shogiarena's defaults, which cap the game with the engines' MaxMovesToDraw.
        "rules": {"time_control": {"byoyomi_ms": 300}},
        "dashboard": {"enabled": False},
    }
    cfg = tmp_path / "tournament.yaml"
    # JSON is valid YAML, and needs no YAML library here.
    cfg.write_text(json.dumps(config))
    run_dir = tmp_path / "run"
    r = subprocess.run(
        [arena, "--output-dir", str(tmp_path / "out"), "run", "tournament", str(cfg),
         "--run-dir", str(run_dir), "--no-resume"],
        capture_output=True, text=True, timeout=900,
    )
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-4000:]
    games = arena_games(run_dir)
    assert len(games) == 2, f"{games}\n{out[-4000:]}"
    for g in games:
        reason = " ".join(str(v) for v in g.values()).lower()
        for bad in ("forfeit", "illegal", "timeout", "time_up", "timeup", "crash", "error", "disconnect"):
            assert bad not in reason, f"game ended by {bad}: {g}\n{out[-3000:]}"


def arena_games(run_dir: Path) -> list[dict]:
    """Game rows (result and how the game ended) from the run's SQLite database."""
    dbs = [p for p in run_dir.rglob("*") if p.suffix in (".db", ".sqlite", ".sqlite3")]
    assert dbs, f"no database under {run_dir}: {[str(p) for p in run_dir.rglob('*')][:50]}"
    rows: list[dict] = []
    for db in dbs:
        con = sqlite3.connect(db)
        con.row_factory = sqlite3.Row
        tables = [r[0] for r in con.execute("select name from sqlite_master where type='table'")]
        for t in tables:
            if t.lower() in ("game", "games"):
                for row in con.execute(f"select * from {t}"):
                    d = dict(row)
                    # Only the fields that say how the game ended; the rest (records, names) could
                    # contain any word.
                    rows.append({k: v for k, v in d.items() if re.search(r"result|reason|termination|status|end", k, re.I)})
        con.close()
    return rows


def play_chess_game(kishi: chess.engine.SimpleEngine, sf: chess.engine.SimpleEngine, kishi_white: bool,
                    base: float, inc: float, max_plies: int = 300) -> tuple[str, str]:
    """One game with clocks kept here, from wall time per move. Returns (result, how it ended)."""
    board = chess.Board()
    clocks = {chess.WHITE: base, chess.BLACK: base}
    while not board.is_game_over(claim_draw=True):
        if board.ply() >= max_plies:
            return "1/2-1/2", "adjudicated: move limit"
        mover = board.turn
        ours = (mover == chess.WHITE) == kishi_white
        engine = kishi if ours else sf
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                   white_inc=inc, black_inc=inc)
        t0 = time.perf_counter()
        result = engine.play(board, limit)
        spent = time.perf_counter() - t0
        clocks[mover] -= spent
        if clocks[mover] < 0:
            who = "kishi" if ours else "stockfish"
            return ("0-1" if mover == chess.WHITE else "1-0"), f"time loss by {who} ({clocks[mover]:.3f} s)"
        clocks[mover] += inc
        move = result.move
        if move is None or move not in board.legal_moves:
            who = "kishi" if ours else "stockfish"
            return ("0-1" if mover == chess.WHITE else "1-0"), f"illegal move by {who}: {move}"
        board.push(move)
    outcome = board.outcome(claim_draw=True)
    return board.result(claim_draw=True), str(outcome.termination if outcome else "?")


def test_python_chess_two_games_against_stockfish() -> None:
    require(KISHI)
    require(STOCKFISH)
    kishi = chess.engine.SimpleEngine.popen_uci(KISHI)
    sf = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    try:
        kishi.configure({"Hash": 16, "Threads": 1})
        sf.configure({"UCI_LimitStrength": True, "UCI_Elo": 1350, "Threads": 1, "Hash": 16})
        endings = []
        for game in range(2):
            result, how = play_chess_game(kishi, sf, kishi_white=(game == 0), base=1.0, inc=0.1)
            endings.append((result, how))
            assert "by kishi" not in how, f"game {game + 1}: {result} {how}"
        assert len(endings) == 2
    finally:
        kishi.quit()
        sf.quit()
