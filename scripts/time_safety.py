#!/usr/bin/env python3
"""Time-safety benchmark: long matches at real time controls, counting what must never happen.

  shogi: kishi vs gpsusi (LimitDepth 4, 1 thread), byoyomi 1000 ms, 1 thread each
  chess: kishi vs Stockfish (UCI_LimitStrength, UCI_Elo 1500, 1 thread), 10 s + 0.1 s

Both run through scripts/match.py (the project's match runner: its clocks have a 0.1 s grace,
--timemargin), which records crashes, illegal moves and time forfeits per game. This script runs
the two matches (concurrently with --parallel, else one after the other), then prints one report:
games played, kishi's score (W-D-L, points, Elo), and the counts of time losses, illegal moves and
crashes by kishi, which must all be 0. Exit code 1 when any of them is not.

    python3 scripts/time_safety.py [--games 100] [--only shogi|chess] [--parallel] [--out matches/time_safety]

A match that is interrupted (Ctrl-C) still writes its summary for the games played, so partial
counts can be reported honestly.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MATCH = os.path.join(REPO, "scripts", "match.py")


def match_command(game: str, kishi: str, games: int, out: str) -> list[str]:
    common = [sys.executable, MATCH, "--game", game, "--games", str(games), "--concurrency", "1",
              "--engine1", kishi, "--name1", "kishi", "--out", out, "--no-progress", "--quiet"]
    if game == "shogi":
        return common + ["--options1", "USI_Hash=64,Threads=1",
                         "--engine2", "/usr/games/gpsusi", "--name2", "gpsusi",
                         "--options2", "LimitDepth=4,Thread=1", "--byoyomi", "1"]
    return common + ["--options1", "Hash=64,Threads=1",
                     "--engine2", "/usr/games/stockfish", "--name2", "stockfish-1500",
                     "--options2", "UCI_LimitStrength=true,UCI_Elo=1500,Threads=1,Hash=16",
                     "--tc", "10+0.1"]


def kishi_anomalies(summary: dict) -> dict:
    """Crashes, illegal moves and time forfeits where kishi (engine 1) was the offender."""
    counts = {"time_forfeit": 0, "illegal_move": 0, "crash": 0}
    for g in summary.get("games", []):
        term = g.get("termination")
        if term in counts and g.get("engine1_score") == 0.0:
            counts[term] += 1
    return counts


def report(game: str, summary: dict) -> tuple[str, bool]:
    a = kishi_anomalies(summary)
    ok = all(v == 0 for v in a.values()) and not summary.get("fatal_error")
    lines = [
        f"{game}: {summary.get('games_played')} of {summary.get('games_planned')} games, "
        f"{summary.get('time_control', {}).get('description', '')}",
        f"  kishi score: +{summary.get('wins')} ={summary.get('draws')} -{summary.get('losses')} "
        f"({summary.get('points')} points, {100 * (summary.get('score') or 0):.1f} %, "
        f"Elo {summary.get('elo')} [{summary.get('elo_low')}, {summary.get('elo_high')}])",
        f"  kishi time losses {a['time_forfeit']}, illegal moves {a['illegal_move']}, crashes {a['crash']}"
        f"  -> {'ok' if ok else 'FAIL'}",
        f"  terminations: {summary.get('terminations')}",
        f"  all anomalies (both engines): {summary.get('anomalies')}",
    ]
    if summary.get("fatal_error"):
        lines.append(f"  fatal error: {summary['fatal_error']}")
    return "\n".join(lines), ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kishi", default=os.path.join(REPO, "target", "release", "kishi"))
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--only", choices=["shogi", "chess"])
    ap.add_argument("--parallel", action="store_true", help="run the two matches at the same time")
    ap.add_argument("--out", default=os.path.join(REPO, "matches", "time_safety"))
    ap.add_argument("--report-only", action="store_true", help="only summarise existing results")
    args = ap.parse_args()
    games = [args.only] if args.only else ["shogi", "chess"]
    outs = {g: os.path.join(args.out, g) for g in games}
    if not args.report_only:
        procs = []
        for g in games:
            cmd = match_command(g, args.kishi, args.games, outs[g])
            print("running:", " ".join(cmd), flush=True)
            p = subprocess.Popen(cmd)
            if args.parallel:
                procs.append(p)
            else:
                p.wait()
        for p in procs:
            p.wait()
    all_ok = True
    for g in games:
        path = os.path.join(outs[g], "summary.json")
        if not os.path.exists(path):
            print(f"{g}: no summary at {path}")
            all_ok = False
            continue
        with open(path, encoding="utf-8") as f:
            text, ok = report(g, json.load(f))
        print(text)
        all_ok &= ok
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
