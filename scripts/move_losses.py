#!/usr/bin/env python3
"""Where a player's games are lost: a referee engine (Stockfish) scores every position of each
game at a fixed depth, and each move's loss is the drop of the mover's score across it. The
summary compares the player's moves with its opponents' by phase (material on the board), and
lists each game's large losses, so a match's result can be traced to the opening, the middlegame
or the endgame, and to single blunders or a slow slide.

    python3 scripts/move_losses.py games.pgn --player kishi --depth 14 --out losses.json

`--player` is a prefix of the player's name in the PGN's White/Black tags. Book moves (the match
runner's "end of opening" comment) are not counted. Scores are clipped to ±1000 centipawns, so a
won position that stays won costs nothing, and a mate found or lost counts as 1000.
"""

import argparse
import concurrent.futures
import json
import os
import statistics
import sys

import chess
import chess.engine
import chess.pgn

CLIP = 1000
PHASES = ((40, 99, "material >= 40"), (20, 40, "material 20-39"), (0, 20, "material < 20"))
VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def read_games(path):
    """The games of a PGN file as plain dicts (tags, UCI moves, book length, start FEN)."""
    games = []
    with open(path) as f:
        while (g := chess.pgn.read_game(f)) is not None:
            book = 0
            for k, node in enumerate(g.mainline()):
                if "end of opening" in node.comment:
                    book = k + 1
            games.append({"white": g.headers.get("White", "?"), "black": g.headers.get("Black", "?"),
                          "result": g.headers.get("Result", "*"), "fen": g.headers.get("FEN"),
                          "moves": [m.uci() for m in g.mainline_moves()], "book": book})
    return games


def score_game(task):
    """White's score (centipawns, mates as ±3000) of every position of one game."""
    engine_path, game, depth = task
    eng = chess.engine.SimpleEngine.popen_uci(engine_path)
    try:
        eng.configure({"Threads": 1, "Hash": 64})
        board = chess.Board(game["fen"]) if game["fen"] else chess.Board()
        scores = []
        for k in range(len(game["moves"]) + 1):
            if board.is_game_over():
                break
            info = eng.analyse(board, chess.engine.Limit(depth=depth))
            scores.append(info["score"].white().score(mate_score=3000))
            if k < len(game["moves"]):
                board.push_uci(game["moves"][k])
    finally:
        eng.quit()
    return scores


def move_losses(game, scores, player):
    """One record per scored move after the book: (ply, player's move?, score before from the
    mover's side, loss, material before)."""
    player_white = game["white"].startswith(player)
    player_black = game["black"].startswith(player)
    board = chess.Board(game["fen"]) if game["fen"] else chess.Board()
    out = []
    for k, mv in enumerate(game["moves"]):
        if k + 1 >= len(scores):
            break
        white = board.turn == chess.WHITE
        sign = 1 if white else -1
        before = max(-CLIP, min(CLIP, sign * scores[k]))
        after = max(-CLIP, min(CLIP, sign * scores[k + 1]))
        material = sum(len(board.pieces(p, c)) * v for p, v in VALUES.items()
                       for c in (chess.WHITE, chess.BLACK))
        if k >= game["book"]:
            mine = player_white if white else player_black
            out.append({"ply": k, "player": mine, "before": before, "loss": before - after,
                        "material": material})
        board.push_uci(mv)
    return out


def summary(records):
    """Per side ('player', 'opponents'): moves, mean loss, counts of losses >= 50/100/200/300, and
    per phase the mean loss and count >= 100 over moves played with |score| < 400 (where a move
    can still change the result)."""
    out = {}
    for side, mine in (("player", True), ("opponents", False)):
        losses = [r["loss"] for r in records if r["player"] == mine]
        row = {"moves": len(losses),
               "mean_loss": round(statistics.mean(losses), 1) if losses else None}
        for t in (50, 100, 200, 300):
            row[f">={t}"] = sum(x >= t for x in losses)
        row["phases"] = {}
        for lo, hi, name in PHASES:
            sub = [r["loss"] for r in records
                   if r["player"] == mine and lo <= r["material"] < hi and abs(r["before"]) < 400]
            row["phases"][name] = {"moves": len(sub),
                                   "mean_loss": round(statistics.mean(sub), 1) if sub else None,
                                   ">=100": sum(x >= 100 for x in sub)}
        out[side] = row
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn")
    ap.add_argument("--player", required=True, help="prefix of the player's name in the PGN")
    ap.add_argument("--engine", default="/usr/games/stockfish", help="the referee (UCI)")
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--big", type=int, default=100, help="list the player's losses this large")
    ap.add_argument("--out", help="JSON with every game's scores and the summary")
    a = ap.parse_args()
    try:
        games = read_games(a.pgn)
    except OSError as e:
        sys.exit(f"error: {e}")
    games = [g for g in games if g["white"].startswith(a.player) or g["black"].startswith(a.player)]
    if not games:
        sys.exit(f"error: no game of a player named {a.player!r}… in {a.pgn}")
    tasks = [(a.engine, g, a.depth) for g in games]
    records = []
    with concurrent.futures.ProcessPoolExecutor(a.jobs) as ex:
        for i, (g, scores) in enumerate(zip(games, ex.map(score_game, tasks))):
            g["scores"] = scores
            rec = move_losses(g, scores, a.player)
            records += rec
            big = [r for r in rec if r["player"] and r["loss"] >= a.big]
            print(f"game {i + 1} {g['white']} - {g['black']} {g['result']}: "
                  + (", ".join(f"move {r['ply'] // 2 + 1} {r['before']:+d} -{r['loss']} "
                               f"(material {r['material']})" for r in big) or "no large loss"))
    s = summary(records)
    for side, row in s.items():
        print(f"{side}: {row['moves']} moves, mean loss {row['mean_loss']}, >=50: {row['>=50']}, "
              f">=100: {row['>=100']}, >=200: {row['>=200']}, >=300: {row['>=300']}")
        for name, p in row["phases"].items():
            print(f"    {name}: {p['moves']} moves, mean loss {p['mean_loss']}, >=100: {p['>=100']}")
    if a.out:
        with open(a.out + ".tmp", "w") as f:
            json.dump({"depth": a.depth, "player": a.player, "games": games, "summary": s}, f)
        os.replace(a.out + ".tmp", a.out)


if __name__ == "__main__":
    main()
