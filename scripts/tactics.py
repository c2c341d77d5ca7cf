#!/usr/bin/env python3
"""Run an EPD test suite (WAC, ECM, ...) through a UCI engine at a fixed time per position.

A position is solved when the engine's best move is one of the `bm` moves and, when the record has
`am` moves, none of them. The suites in /work/shared/data/suites/*.epd carry `bm_uci` / `am_uci`
operations with the moves in UCI notation; those are used when present, else `bm` / `am` (SAN,
parsed by python-chess) are.

    python3 scripts/tactics.py /work/shared/data/suites/wac_even.epd [--time 1] [--threads 1]
        [--hash 64] [--limit N] [--engine target/release/kishi] [--verbose] [--json out.json]

Prints `solved N/M` (and one line per position with --verbose), and with --json writes a summary:
engine, suite, settings, solved, total, the ids of unsolved positions, and per-position results
(best move, expected moves, depth, nodes, score, elapsed time). Positions where the engine returns
an illegal or no move, or crashes, count as unsolved and are listed under "errors".
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time

import chess
import chess.engine

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ENGINE = os.path.join(REPO, "target", "release", "kishi")


def _uci_list(ops: dict, key: str) -> list[str] | None:
    v = ops.get(key)
    if v is None:
        return None
    if isinstance(v, str):
        return v.split()
    return [str(x) for x in v]


def load_suite(path: str, limit: int | None = None) -> list[dict]:
    """One dict per EPD line: board, id, bm/am as sets of UCI strings."""
    out = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            board, ops = chess.Board.from_epd(line)
            bm = _uci_list(ops, "bm_uci")
            am = _uci_list(ops, "am_uci")
            if bm is None and "bm" in ops:
                bm = [m.uci() for m in ops["bm"]]
            if am is None and "am" in ops:
                am = [m.uci() for m in ops["am"]]
            if not bm and not am:
                continue  # nothing to test
            out.append({
                "id": str(ops.get("id", f"line{lineno}")),
                "fen": board.fen(),
                "bm": sorted(set(bm or [])),
                "am": sorted(set(am or [])),
            })
            if limit is not None and len(out) >= limit:
                break
    return out


def is_solved(move: str | None, bm: list[str], am: list[str]) -> bool:
    if move is None:
        return False
    if bm and move not in bm:
        return False
    if am and move in am:
        return False
    return True


def open_engine(cmd: str, threads: int, hash_mb: int) -> chess.engine.SimpleEngine:
    eng = chess.engine.SimpleEngine.popen_uci(shlex.split(cmd), timeout=30)
    opts = {}
    if "Threads" in eng.options:
        opts["Threads"] = threads
    if "Hash" in eng.options:
        opts["Hash"] = hash_mb
    if opts:
        eng.configure(opts)
    return eng


def run(args) -> dict:
    positions = load_suite(args.epd, args.limit)
    eng = open_engine(args.engine, args.threads, args.hash)
    engine_name = eng.id.get("name", args.engine)
    results, errors = [], []
    solved = 0
    t_start = time.time()
    for i, p in enumerate(positions, 1):
        board = chess.Board(p["fen"])
        rec = {"id": p["id"], "fen": p["fen"], "bm": p["bm"], "am": p["am"], "move": None}
        t0 = time.time()
        try:
            res = eng.play(board, chess.engine.Limit(time=args.time), info=chess.engine.INFO_ALL,
                           game=object())  # new game object: python-chess sends ucinewgame
            rec["elapsed"] = round(time.time() - t0, 3)
            mv = res.move
            if mv is None:
                rec["error"] = "no move"
            elif mv not in board.legal_moves:
                rec["error"] = f"illegal move {mv.uci()}"
            else:
                rec["move"] = mv.uci()
                rec["san"] = board.san(mv)
            info = res.info or {}
            rec["depth"] = info.get("depth")
            rec["nodes"] = info.get("nodes")
            sc = info.get("score")
            if sc is not None:
                pov = sc.pov(board.turn)
                rec["score"] = (f"mate {pov.mate()}" if pov.is_mate() else f"cp {pov.score()}")
            if rec["elapsed"] > args.time + 1.0:
                rec["slow"] = True
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError) as e:
            rec["elapsed"] = round(time.time() - t0, 3)
            rec["error"] = f"{type(e).__name__}: {e}"
            try:
                eng.quit()
            except Exception:
                pass
            eng = open_engine(args.engine, args.threads, args.hash)
        rec["solved"] = is_solved(rec["move"], p["bm"], p["am"])
        solved += rec["solved"]
        if "error" in rec:
            errors.append({"id": p["id"], "error": rec["error"]})
        results.append(rec)
        if args.verbose:
            exp = ("bm " + " ".join(p["bm"])) if p["bm"] else ""
            if p["am"]:
                exp += (" " if exp else "") + "am " + " ".join(p["am"])
            print(f"{i:4d} {p['id']:<12} {'ok ' if rec['solved'] else 'BAD'} "
                  f"move {rec['move'] or '-':<6} ({exp}) depth {rec.get('depth')} "
                  f"score {rec.get('score')} {rec['elapsed']:.2f}s"
                  + (f" ERROR {rec['error']}" if "error" in rec else ""), flush=True)
    try:
        eng.quit()
    except Exception:
        pass
    total = len(positions)
    summary = {
        "engine": engine_name,
        "engine_cmd": args.engine,
        "suite": args.epd,
        "time": args.time,
        "threads": args.threads,
        "hash": args.hash,
        "solved": solved,
        "total": total,
        "percent": round(100.0 * solved / total, 1) if total else 0.0,
        "wall_seconds": round(time.time() - t_start, 1),
        "unsolved": [r["id"] for r in results if not r["solved"]],
        "errors": errors,
        "slow": [r["id"] for r in results if r.get("slow")],
        "loadavg": list(os.getloadavg()),
        "results": results,
    }
    return summary


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("epd")
    ap.add_argument("--engine", default=DEFAULT_ENGINE, help="UCI engine command (default %(default)s)")
    ap.add_argument("--time", type=float, default=1.0, help="seconds per position (default 1)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash", type=int, default=64, help="hash MB (default 64)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N positions")
    ap.add_argument("--verbose", "-v", action="store_true", help="one line per position")
    ap.add_argument("--json", default=None, help="write the JSON summary here")
    args = ap.parse_args(argv)
    s = run(args)
    print(f"{s['engine']}: solved {s['solved']}/{s['total']} ({s['percent']}%) at {args.time}s/pos, "
          f"{args.threads} thread(s), hash {args.hash} MB; errors {len(s['errors'])}, "
          f"slow {len(s['slow'])}; load {' '.join(f'{x:.2f}' for x in s['loadavg'])}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(s, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
