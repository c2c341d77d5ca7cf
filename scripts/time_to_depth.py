#!/usr/bin/env python3
"""Time-to-depth of a UCI engine at 1 vs N threads (the Lazy-SMP speedup measure).

For each position (the 14 chess bench positions of src/search/bench.rs + the first 6 positions of
WAC, 20 in all) the engine gets `ucinewgame`, `isready`, `position fen F`, `go depth D`, and the
wall time from `go` to `bestmove` is recorded, together with the CPU time the engine process used
(from /proc/<pid>/stat, Linux) and the last reported nodes. Every thread count runs in its own
engine process; the configurations alternate per position (1 thread, then N threads, on the same
position, back to back) so that a change in machine load hits both about equally.

    python3 scripts/time_to_depth.py [--engine target/release/kishi] [--depth 14] [--threads 1,2]
        [--hash 64] [--positions 20] [--json out.json]

Prints one line per position and the summary: total time per thread count, the speedup
(total 1-thread time / total N-thread time) and the geometric mean of the per-position speedups.
A search to a fixed depth with several threads is not deterministic and its tree differs from the
1-thread one, so single positions are noisy; read the totals.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ENGINE = os.path.join(REPO, "target", "release", "kishi")
WAC = "/work/shared/data/suites/wac_even.epd"

# Same positions as CHESS_POSITIONS in src/search/bench.rs.
BENCH = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
    "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "3r1rk1/p5pp/bpp1pp2/8/q1PP1P2/b3P3/P2NQRPP/1R2B1K1 b - - 6 22",
    "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "8/3p4/8/8/8/8/3P4/3K1k2 w - - 0 1",
    "2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1",
]


def wac_positions(n: int) -> list[str]:
    out = []
    if not os.path.exists(WAC):
        return out
    with open(WAC) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 4:
                out.append(" ".join(parts[:4]) + " 0 1")
            if len(out) >= n:
                break
    return out


def cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return float("nan")


class Uci:
    def __init__(self, cmd: str, threads: int, hash_mb: int):
        self.p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        self.send(f"setoption name Threads value {threads}")
        self.send(f"setoption name Hash value {hash_mb}")
        self.ready()

    def send(self, line: str):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, prefix: str) -> tuple[str, list[str]]:
        seen = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"engine exited while waiting for {prefix!r}")
            line = line.strip()
            if line.startswith(prefix):
                return line, seen
            seen.append(line)

    def ready(self):
        self.send("isready")
        self.wait_for("readyok")

    def search(self, fen: str, depth: int) -> dict:
        self.send("ucinewgame")
        self.ready()
        self.send(f"position fen {fen}")
        c0 = cpu_seconds(self.p.pid)
        t0 = time.perf_counter()
        self.send(f"go depth {depth}")
        line, infos = self.wait_for("bestmove")
        wall = time.perf_counter() - t0
        cpu = cpu_seconds(self.p.pid) - c0
        nodes, reached = None, None
        for inf in infos:
            tok = inf.split()
            if tok and tok[0] == "info":
                if "nodes" in tok:
                    nodes = int(tok[tok.index("nodes") + 1])
                if "depth" in tok and "score" in tok:
                    reached = int(tok[tok.index("depth") + 1])
        return {"wall": round(wall, 4), "cpu": round(cpu, 3), "nodes": nodes, "depth": reached,
                "bestmove": line.split()[1] if len(line.split()) > 1 else None}

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=DEFAULT_ENGINE)
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--threads", default="1,2", help="comma-separated thread counts (default 1,2)")
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--positions", type=int, default=20, help="first N of the 20 positions")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    threads = [int(t) for t in args.threads.split(",")]
    fens = (BENCH + wac_positions(6))[: args.positions]
    engines = {t: Uci(args.engine, t, args.hash) for t in threads}
    rows = []
    load0 = os.getloadavg()
    try:
        for i, fen in enumerate(fens, 1):
            row = {"fen": fen}
            for t in threads:
                row[t] = engines[t].search(fen, args.depth)
            rows.append(row)
            print(f"{i:3d} " + "  ".join(
                f"T{t}: {row[t]['wall']:7.3f}s cpu {row[t]['cpu']:6.2f}s {row[t]['bestmove']:<6}"
                for t in threads) + (f"  x{row[threads[0]]['wall'] / row[threads[-1]]['wall']:.2f}"
                                     if len(threads) > 1 else "") + f"  {fen}", flush=True)
    finally:
        for e in engines.values():
            e.quit()
    load1 = os.getloadavg()
    summary = {"engine": args.engine, "depth": args.depth, "hash": args.hash, "positions": len(rows),
               "loadavg_start": load0, "loadavg_end": load1, "totals": {}, "rows": rows}
    for t in threads:
        summary["totals"][t] = {"wall": round(sum(r[t]["wall"] for r in rows), 3),
                                "cpu": round(sum(r[t]["cpu"] for r in rows), 3)}
    print(f"depth {args.depth}, {len(rows)} positions, load {load0[0]:.2f} -> {load1[0]:.2f}")
    for t in threads:
        print(f"  {t} thread(s): total wall {summary['totals'][t]['wall']:.2f}s, "
              f"cpu {summary['totals'][t]['cpu']:.2f}s")
    if len(threads) > 1:
        a, b = threads[0], threads[-1]
        tot = summary["totals"][a]["wall"] / summary["totals"][b]["wall"]
        geo = math.exp(sum(math.log(r[a]["wall"] / r[b]["wall"]) for r in rows) / len(rows))
        summary["speedup_total"] = round(tot, 3)
        summary["speedup_geomean"] = round(geo, 3)
        print(f"  speedup {a}->{b} threads: total {tot:.2f}x, geometric mean {geo:.2f}x")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
