#!/usr/bin/env python3
"""Where an engine loses points in its games: each of its moves scored by a reference engine.

Reads PGN files written by scripts/match.py (each move's comment holds the mover's score as
`{ +0.28/14 0.360s }`), has a UCI engine (full-strength Stockfish by default) score the position
before and after every move of the named player after the book (`{ end of opening }`), and
writes one CSV row per move: the reference score before and after (from the player's side, in
centipawns, mates as +-1000), the drop, the player's own reported score, and the game phase.
It prints, per phase, the mean gap between the player's score and the reference's (how
optimistic the player is), a least-squares fit player = a + b * reference, and the drops of 50,
100 and 200 cp or more.

Example (the issue-14 analysis of kishi's games against Stockfish `UCI_Elo` 2400):

    python3 scripts/game_errors.py --player kishi --nodes 200000 --jobs 2 \\
        --csv /tmp/errors.csv runs/sf2400/matches/chess-sf2400.builtin/games.pgn

Phases: endgame when both sides' non-pawn material is at most 13 (knight and bishop 3, rook 5,
queen 9), opening when both have at least 28 and the move number is at most 20, else middlegame.
"""

import argparse
import csv
import multiprocessing as mp
import re
import sys

import chess
import chess.engine
import chess.pgn

SCORE = re.compile(r"([+-]?)(M?)(\d+(?:\.\d+)?)/(\d+)")
VALUE = {chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
CLIP = 1000


def reported(comment):
    """The mover's own score in centipawns from a match.py move comment, or None."""
    m = SCORE.search(comment)
    if not m:
        return None
    sign = -1 if m.group(1) == "-" else 1
    if m.group(2) == "M":
        return sign * CLIP
    return max(-CLIP, min(CLIP, round(sign * float(m.group(3)) * 100)))


def phase(board):
    npm = [
        sum(VALUE[p.piece_type] for p in board.piece_map().values()
            if p.color == c and p.piece_type in VALUE)
        for c in (chess.WHITE, chess.BLACK)
    ]
    if max(npm) <= 13:
        return "endgame"
    if min(npm) >= 28 and board.fullmove_number <= 20:
        return "opening"
    return "middlegame"


def score(engine, board, nodes, pov):
    """The reference engine's score of `board` from `pov`'s side, centipawns clipped."""
    if board.is_checkmate():
        return -CLIP if board.turn == pov else CLIP
    if board.is_game_over(claim_draw=False):
        return 0
    info = engine.analyse(board, chess.engine.Limit(nodes=nodes))
    cp = info["score"].pov(pov).score(mate_score=100000)
    return max(-CLIP, min(CLIP, cp))


def read_games(paths, player):
    """(label, moves) per game: moves are (board before, move, comment) of the player's moves."""
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                h = game.headers
                if player.lower() in h.get("White", "").lower():
                    colour = chess.WHITE
                elif player.lower() in h.get("Black", "").lower():
                    colour = chess.BLACK
                else:
                    continue
                nodes = list(game.mainline())
                book = next((i for i, n in enumerate(nodes) if "end of opening" in n.comment), -1)
                moves = [(n.parent.board(), n.move, n.comment)
                         for n in nodes[book + 1:] if n.parent.board().turn == colour]
                out.append((f"{path}#{h.get('Round', '?')}", colour, h.get("Result", "*"), moves))
    return out


def analyse(job):
    label, colour, result, moves, engine_path, nodes = job
    rows = []
    with chess.engine.SimpleEngine.popen_uci(engine_path) as engine:
        engine.configure({"Threads": 1, "Hash": 64})
        for board, move, comment in moves:
            before = score(engine, board, nodes, colour)
            after_board = board.copy()
            after_board.push(move)
            after = score(engine, after_board, nodes, colour)
            rows.append({
                "game": label, "result": result, "ply": board.ply(), "fen": board.fen(),
                "move": board.san(move), "phase": phase(board), "ref_before": before,
                "ref_after": after, "drop": before - after, "own": reported(comment),
            })
    return rows


def fit(pairs):
    n = len(pairs)
    if n < 2:
        return float("nan"), float("nan")
    mx = sum(x for x, _ in pairs) / n
    my = sum(y for _, y in pairs) / n
    sxx = sum((x - mx) ** 2 for x, _ in pairs)
    sxy = sum((x - mx) * (y - my) for x, y in pairs)
    b = sxy / sxx if sxx else float("nan")
    return my - b * mx, b


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--player", required=True, help="part of the analysed player's PGN name")
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--nodes", type=int, default=200000)
    ap.add_argument("--jobs", type=int, default=2, help="engine processes (one per core)")
    ap.add_argument("--csv", required=True)
    a = ap.parse_args()
    games = read_games(a.pgn, a.player)
    if not games:
        sys.exit(f"error: no game of a player named like '{a.player}' in {a.pgn}")
    jobs = [(*g, a.engine, a.nodes) for g in games]
    with mp.Pool(a.jobs) as pool:
        rows = [r for part in pool.imap(analyse, jobs) for r in part]
    with open(a.csv, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    print(f"{len(rows)} moves of {len(games)} games; reference {a.engine} at {a.nodes} nodes")
    print("phase       moves  mean(own-ref)  fit own = a + b*ref (|ref|<=500)  drops>=50 >=100 >=200")
    for ph in ("opening", "middlegame", "endgame", None):
        sel = [r for r in rows if ph is None or r["phase"] == ph]
        gaps = [r["own"] - r["ref_after"] for r in sel
                if r["own"] is not None and abs(r["own"]) < CLIP and abs(r["ref_after"]) <= 800]
        a0, b0 = fit([(r["ref_after"], r["own"]) for r in sel
                      if r["own"] is not None and abs(r["own"]) < CLIP and abs(r["ref_after"]) <= 500])
        drops = [sum(r["drop"] >= t for r in sel) for t in (50, 100, 200)]
        mean = sum(gaps) / len(gaps) if gaps else float("nan")
        print(f"{ph or 'all':<11} {len(sel):>5}  {mean:>+12.0f}   a {a0:+6.0f}  b {b0:5.2f}"
              f"                    {drops[0]:>5} {drops[1]:>5} {drops[2]:>5}")


if __name__ == "__main__":
    main()
