#!/usr/bin/env python3
"""Chess games of kishi against itself, for labelling positions the engine itself reaches.

The evaluation learned by `kishi learn texel` is fitted to positions of human 2400+ games
(scripts/label_chess.py); the positions kishi's own search steers into are a different
distribution, and the ones where its evaluation errs are the ones that matter for its play.
This script plays kishi against itself at a fixed node count from the opening book plus a few
seeded random plies (so that no two games are the same), and writes the games in the shared
game-line format, which `scripts/label_chess.py run --games FILE` then labels.

Subcommands:

  run    play into a run directory with W worker processes (one kishi pair each), resumable:
             python3 scripts/selfplay_chess.py run --dir /work/labels/chess-self --games 4000 \\
                 --nodes 5000 --random-plies 4 --workers 2 --seed 1
         Kill it at any time and run the same command again: each worker goes on after its last
         finished game (a half-written line is dropped), and the run stops at --games in total.
  pack   merge the workers' files, in game order, into one xz game file for label_chess.py:
             python3 scripts/selfplay_chess.py pack --dir /work/labels/chess-self --out games.txt.xz

Game g (0-based) starts from opening number (g * 7919 + seed) mod N of --book, then
--random-plies uniformly random legal moves drawn from random.Random(seed * 1_000_003 + g), then
kishi plays both sides with `go nodes --nodes`. Rules and adjudication are the match runner's
(scripts/matchlib/uci_chess.py: mate, stalemate, claimable draws, --max-plies; a side resigns
when both sides' scores agree it is lost by --resign centipawns for 3 moves).

Output of `run` (in --dir): games-w<i>.txt, one game a line,
    <result> <plies> fen <start FEN> moves <uci> ...
(the start is the book line's start, the standard position for a line given as moves; the moves
include the opening and the random plies), and
run.json (the settings; a second run with other settings is refused).  A game that ends by a
crash, an illegal move or a time-out is not written; three in a row stop the worker.
"""

from __future__ import annotations

import argparse
import json
import lzma
import multiprocessing as mp
import os
import random
import sys
import time

import chess

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from matchlib.openings import load_openings  # noqa: E402
from matchlib.timecontrol import parse_tc_spec  # noqa: E402
from matchlib.uci_chess import UCIEngine, play_chess_game  # noqa: E402
from matchlib.usi_shogi import Adjudication  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETTINGS = ["nodes", "random_plies", "seed", "book", "max_plies", "resign", "options", "workers"]


def game_start(g: int, args, openings) -> tuple:
    """The start FEN and opening moves of game g: a book line, then seeded random legal plies."""
    op = openings[(g * 7919 + args.seed) % len(openings)]
    board = chess.Board(op.start)
    moves = list(op.moves)
    for m in moves:
        board.push(chess.Move.from_uci(m))
    rng = random.Random(args.seed * 1_000_003 + g)
    for _ in range(args.random_plies):
        legal = sorted(board.legal_moves, key=lambda mv: mv.uci())
        if not legal or board.is_game_over(claim_draw=True):
            break
        mv = rng.choice(legal)
        board.push(mv)
        moves.append(mv.uci())
    return op.start, moves


def finished(path: str) -> int:
    """Number of complete lines; a half-written last line (a kill) is cut off."""
    if not os.path.exists(path):
        return 0
    with open(path, "rb") as f:
        data = f.read()
    if data and not data.endswith(b"\n"):
        data = data[: data.rfind(b"\n") + 1]
        with open(path + ".tmp", "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(path + ".tmp", path)
    return data.count(b"\n")


def parse_options(items) -> dict:
    out = {}
    for it in items or []:
        if "=" not in it:
            raise SystemExit(f"selfplay_chess: error: --option wants NAME=VALUE, got {it!r}")
        k, v = it.split("=", 1)
        out[k] = v
    return out


def worker(w: int, args, counter) -> None:
    openings = load_openings(args.book, "chess")
    path = os.path.join(args.dir, f"games-w{w}.txt")
    done = finished(path)
    mine = list(range(w, args.games, args.workers))
    opts = parse_options(args.option)
    engines = [UCIEngine(args.engine, opts, name=f"kishi-{s}") for s in range(2)]
    for e in engines:
        e.start()
    tc = parse_tc_spec(f"nodes={args.nodes}")
    adj = Adjudication(max_plies=args.max_plies, resign_score=args.resign, resign_moves=3)
    failures = 0
    with open(path, "a") as out:
        for g in mine[done:]:
            while True:
                fen, start = game_start(g, args, openings)
                res = play_chess_game(engines, fen, start, tc, adj, game_tag=("g", g))
                if res.termination in ("normal", "adjudication"):
                    break
                failures += 1
                print(f"selfplay_chess: worker {w}: game {g} void ({res.reason}); restarting the engines",
                      file=sys.stderr)
                if failures >= 3:
                    raise SystemExit(f"selfplay_chess: error: worker {w}: three void games in a row")
                for e in engines:
                    e.quit()
                    e.start()
            failures = 0
            moves = start + [m["move"] for m in res.moves]
            out.write(f"{res.result} {len(moves)} fen {fen} moves {' '.join(moves)}\n")
            out.flush()
            os.fsync(out.fileno())
            with counter.get_lock():
                counter.value += 1
    for e in engines:
        e.quit()


def cmd_run(args) -> int:
    # Refuse a bad book or engine before anything is written or any worker starts.
    try:
        load_openings(args.book, "chess")
    except (OSError, ValueError) as e:
        print(f"selfplay_chess: error: --book {args.book}: {e}", file=sys.stderr)
        return 2
    if not (os.path.isfile(args.engine) and os.access(args.engine, os.X_OK)):
        print(f"selfplay_chess: error: --engine {args.engine} is not an executable file", file=sys.stderr)
        return 2
    os.makedirs(args.dir, exist_ok=True)
    settings = {k: getattr(args, k) for k in SETTINGS}
    rj = os.path.join(args.dir, "run.json")
    if os.path.exists(rj):
        with open(rj) as f:
            old = json.load(f)
        if old != settings:
            print(f"selfplay_chess: error: {args.dir} was made with other settings: {old}", file=sys.stderr)
            return 2
    else:
        with open(rj + ".tmp", "w") as f:
            json.dump(settings, f, indent=1)
        os.replace(rj + ".tmp", rj)
    before = sum(finished(os.path.join(args.dir, f"games-w{w}.txt")) for w in range(args.workers))
    print(f"selfplay_chess: {args.dir}: {before} games already, {args.games - before} to play", flush=True)
    counter = mp.Value("i", 0)
    procs = [mp.Process(target=worker, args=(w, args, counter)) for w in range(args.workers)]
    t0 = time.monotonic()
    for p in procs:
        p.start()
    while any(p.is_alive() for p in procs):
        time.sleep(5)
        n = counter.value
        dt = time.monotonic() - t0
        if not args.quiet:
            print(f"\r{before + n}/{args.games} games, {n / max(dt, 1e-9):.2f} games/s", end="", flush=True)
    print()
    bad = [p.exitcode for p in procs if p.exitcode]
    return 1 if bad else 0


def cmd_pack(args) -> int:
    rows = {}
    try:
        with open(os.path.join(args.dir, "run.json")) as f:
            workers = int(json.load(f)["workers"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"selfplay_chess: error: {args.dir}/run.json: {e}", file=sys.stderr)
        return 2
    for w in range(workers):
        if not os.path.exists(os.path.join(args.dir, f"games-w{w}.txt")):
            continue
        with open(os.path.join(args.dir, f"games-w{w}.txt")) as f:
            for i, line in enumerate(f):
                if line.endswith("\n"):
                    rows[w + i * workers] = line
    tmp = args.out + ".tmp"
    with lzma.open(tmp, "wt") as f:
        for g in sorted(rows):
            f.write(rows[g])
    os.replace(tmp, args.out)
    print(f"selfplay_chess: {len(rows)} games -> {args.out}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--dir", required=True)
    r.add_argument("--games", type=int, required=True)
    r.add_argument("--nodes", type=int, default=5000)
    r.add_argument("--random-plies", type=int, default=4)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--book", default=os.path.join(REPO, "book", "chess_openings_2000.epd"))
    r.add_argument("--max-plies", type=int, default=400)
    r.add_argument("--resign", type=int, default=1500, help="resign score in centipawns")
    r.add_argument("--engine", default=os.path.join(REPO, "target", "release", "kishi"))
    r.add_argument("--option", action="append", help="UCI option NAME=VALUE for both sides")
    r.add_argument("--quiet", action="store_true")
    p = sub.add_parser("pack")
    p.add_argument("--dir", required=True)
    p.add_argument("--out", required=True)
    args = ap.parse_args()
    if args.cmd == "run":
        args.options = parse_options(args.option)
        return cmd_run(args)
    return cmd_pack(args)


if __name__ == "__main__":
    sys.exit(main())
