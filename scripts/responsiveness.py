#!/usr/bin/env python3
"""Responsiveness benchmark: how fast kishi answers while it searches.

For each try: `position startpos` (shogi) / `position startpos` (chess), `go infinite`, wait a
random 100-400 ms so the search is deep in its tree, then measure
  1. isready -> readyok   (the search keeps going), and
  2. stop    -> bestmove.
Timestamps are taken by a reader thread the moment a line arrives. Prints p50 / p90 / p99 / max
per measure and per game, and exits non-zero when a p99 is 50 ms or more (the issue's bar).

    python3 scripts/responsiveness.py [--tries 100] [--games shogi,chess] [--kishi target/release/kishi]
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import subprocess
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BAR_MS = 50.0


class Engine:
    def __init__(self, path: str, threads: int, hash_mb: int, game: str) -> None:
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines: "queue.Queue[tuple[float, str]]" = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        hello, ok = ("usi", "usiok") if game == "shogi" else ("uci", "uciok")
        self.send(hello)
        self.wait_for(lambda l: l == ok)
        self.send(f"setoption name Threads value {threads}")
        self.send(f"setoption name {'USI_Hash' if game == 'shogi' else 'Hash'} value {hash_mb}")
        self.send("isready")
        self.wait_for(lambda l: l == "readyok")

    def _read(self) -> None:
        assert self.p.stdout is not None
        for line in self.p.stdout:
            self.lines.put((time.perf_counter(), line.rstrip("\r\n")))

    def send(self, line: str) -> float:
        assert self.p.stdin is not None
        t = time.perf_counter()
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        return t

    def wait_for(self, pred, timeout: float = 30.0) -> tuple[float, str]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer from the engine")
            t, line = self.lines.get(timeout=left)
            if pred(line):
                return t, line

    def close(self) -> None:
        try:
            self.send("quit")
            self.p.wait(timeout=10)
        except Exception:
            self.p.kill()


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    if not s:
        return float("nan")
    i = min(len(s) - 1, max(0, int(round(q / 100.0 * len(s) + 0.5)) - 1))
    return s[i]


def measure(path: str, game: str, tries: int, threads: int, hash_mb: int, seed: int) -> dict:
    rng = random.Random(seed)
    e = Engine(path, threads, hash_mb, game)
    ready_ms: list[float] = []
    stop_ms: list[float] = []
    depths: list[int] = []
    try:
        for _ in range(tries):
            e.send("position startpos")
            e.send("go infinite")
            time.sleep(rng.uniform(0.1, 0.4))
            depth = 0

            def note_depth(line: str) -> None:
                nonlocal depth
                if line.startswith("info depth "):
                    try:
                        depth = max(depth, int(line.split()[2]))
                    except (IndexError, ValueError):
                        pass

            t0 = e.send("isready")
            while True:
                t1, line = e.wait_for(lambda l: True)
                note_depth(line)
                if line == "readyok":
                    break
            ready_ms.append((t1 - t0) * 1000)
            time.sleep(rng.uniform(0.0, 0.05))
            t0 = e.send("stop")
            while True:
                t1, line = e.wait_for(lambda l: True)
                note_depth(line)
                if line.startswith("bestmove"):
                    break
            stop_ms.append((t1 - t0) * 1000)
            depths.append(depth)
    finally:
        e.close()

    def summary(xs: list[float]) -> dict:
        return {"p50": round(percentile(xs, 50), 3), "p90": round(percentile(xs, 90), 3),
                "p99": round(percentile(xs, 99), 3), "max": round(max(xs), 3), "n": len(xs)}

    return {"game": game, "threads": threads, "isready_to_readyok_ms": summary(ready_ms),
            "stop_to_bestmove_ms": summary(stop_ms),
            "info_depth_reached_median": sorted(depths)[len(depths) // 2] if depths else 0}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kishi", default=os.path.join(REPO, "target", "release", "kishi"))
    ap.add_argument("--tries", type=int, default=100)
    ap.add_argument("--games", default="shogi,chess")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args()
    results = []
    ok = True
    for game in args.games.split(","):
        r = measure(args.kishi, game, args.tries, args.threads, args.hash, args.seed)
        results.append(r)
        for key in ("isready_to_readyok_ms", "stop_to_bestmove_ms"):
            s = r[key]
            verdict = "ok" if s["p99"] < BAR_MS else "OVER"
            ok &= s["p99"] < BAR_MS
            print(f"{game:5} {key:22} p50 {s['p50']:7.2f}  p90 {s['p90']:7.2f}  p99 {s['p99']:7.2f}  "
                  f"max {s['max']:7.2f} ms  (n={s['n']}, bar p99 < {BAR_MS:.0f} ms: {verdict})")
        print(f"{game:5} median deepest info depth before stop: {r['info_depth_reached_median']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
