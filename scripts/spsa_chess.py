#!/usr/bin/env python3
"""SPSA of kishi's chess search parameters over UCI (issue 14).

shogiarena's tuner (scripts/spsa.py) speaks USI only, so chess has this driver: classic SPSA in
fishtest's form. Each iteration draws a random sign vector Δ, plays a game pair (one opening, both
colours) between θ + c_k·Δ and θ − c_k·Δ at a fixed number of nodes per move, and moves
θ += r_k·c_k·(score⁺ − score⁻)·Δ, with

    c_k = c_end·(N/k)^γ          (γ = 0.101)
    r_k = a_k/c_k²,  a_k = a/(A + k)^α,  a = r_end·c_end²·(A + N)^α   (α = 0.602, A = N/10)

per parameter (c_end = the parameter's SPSA step from `kishi search-params chess` times
--c-mult). Values sent to the engine are rounded and clamped to the parameter's range.

Iterations are played in batches of --concurrency pairs (one pair per worker, both from the same
θ); the batch's updates are applied together, in iteration order, so the run depends only on the
seed, not on which game finishes first. After every batch the state (θ, iteration, RNG state,
totals) is written atomically to OUT/state.json and one line per iteration appended to
OUT/iterations.jsonl; `--resume` continues from the state exactly (a batch cut by a kill is
played again from its start).

    cargo build --release --features tune --target-dir /work/tgt-tune
    python3 scripts/spsa_chess.py --kishi /work/tgt-tune/release/kishi --out /tmp/spsa-chess \\
        --nodes 5000 --iterations 3000 --params RfpMargin,FutilityMargin,LmrBase,LmrDiv

The result (OUT/result.md) lists start and final values; whether they are better is for an A/B
match (`scripts/ladder.py ab`) to say, never this script.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))

from matchlib.openings import load_openings  # noqa: E402
from matchlib.spins import declared_spins  # noqa: E402
from matchlib.timecontrol import TimeControl  # noqa: E402
from matchlib.uci_chess import UCIEngine, play_chess_game  # noqa: E402
from matchlib.usi_shogi import Adjudication  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ALPHA, GAMMA = 0.602, 0.101


def load_space(kishi: str) -> Dict[str, dict]:
    """The parameter table of `kishi search-params chess` (shogiarena's space JSON)."""
    r = subprocess.run([kishi, "search-params", "chess"], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise SystemExit(f"error: {kishi} search-params chess failed: {r.stderr.strip()}")
    doc = json.loads(r.stdout)
    out = {}
    for p in doc["parameters"]:
        out[p["id"]] = {"init": p["initial"], "min": p["bounds"]["min"], "max": p["bounds"]["max"],
                        "c_end": p["schedule"]["c_end"]}
    return out


def atomic_write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class Worker:
    """Two engine processes (the + and − sides) kept for the whole run; options set per pair."""

    def __init__(self, kishi: str, names: List[str], hash_mb: int):
        self.engines = [UCIEngine([kishi], {"Hash": str(hash_mb), "Threads": "1"}, name=n) for n in names]
        for e in self.engines:
            e.start()

    def configure(self, values: List[Dict[str, int]]) -> None:
        for e, v in zip(self.engines, values):
            if not e.alive():
                e.start()
            e.engine.configure(v)

    def quit(self) -> None:
        for e in self.engines:
            e.quit()


def play_pair(worker: Worker, plus: Dict[str, int], minus: Dict[str, int], opening, tc, adj) -> dict:
    """Two games, + as White then as Black; returns + side's points and the results."""
    worker.configure([plus, minus])
    points = 0.0
    results = []
    for plus_white in (True, False):
        engines = worker.engines if plus_white else worker.engines[::-1]
        out = play_chess_game(engines, opening.start, opening.moves, tc, adj, game_tag=object())
        if out.termination in ("crash", "illegal_move", "time_forfeit"):
            raise RuntimeError(f"game failed: {out.reason}")
        r = out.result
        white = 1.0 if r == "1-0" else 0.0 if r == "0-1" else 0.5
        points += white if plus_white else 1.0 - white
        results.append(r)
        # A killed engine (never expected at fixed nodes) is restarted by `configure`.
    return {"plus_points": points, "results": results}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kishi", required=True, help="a kishi binary built with --features tune")
    ap.add_argument("--out", required=True, type=Path, help="run directory")
    ap.add_argument("--params", required=True, help="comma-separated parameter names to tune")
    ap.add_argument("--nodes", type=int, default=5000, help="nodes per move (default 5000)")
    ap.add_argument("--iterations", type=int, default=2000, help="game pairs N (default 2000)")
    ap.add_argument("--r-end", type=float, default=0.002, help="final learning rate r_end (default 0.002)")
    ap.add_argument("--c-mult", type=float, default=1.0, help="c_end = step × this (default 1)")
    ap.add_argument("--concurrency", type=int, default=2, help="pairs in parallel (default 2)")
    ap.add_argument("--openings", type=Path, default=ROOT / "book" / "chess_openings_2000.epd")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hash", type=int, default=16, help="Hash in MiB (default 16)")
    ap.add_argument("--resume", action="store_true", help="continue OUT/state.json")
    ap.add_argument("--max-batches", type=int, default=0,
                    help="stop after this many batches (0: run to the end); --resume continues")
    a = ap.parse_args()

    kishi = str(Path(a.kishi).resolve())
    space = load_space(kishi)
    names = [n.strip() for n in a.params.split(",") if n.strip()]
    unknown = [n for n in names if n not in space]
    if unknown or not names:
        raise SystemExit(f"error: unknown parameters {unknown}; known: {sorted(space)}")
    missing = [n for n in names if n not in declared_spins(kishi, "uci")]
    if missing:
        raise SystemExit(f"error: {kishi} does not declare {missing} as options: "
                         "build it with --features tune")
    if a.iterations < 1 or a.nodes < 1 or a.concurrency < 1:
        raise SystemExit("error: --iterations, --nodes and --concurrency must be positive")
    openings = load_openings(str(a.openings), "chess")
    n_iter = a.iterations
    big_a = 0.1 * n_iter
    c_end = {n: space[n]["c_end"] * a.c_mult for n in names}
    a_coef = {n: a.r_end * c_end[n] ** 2 * (big_a + n_iter) ** ALPHA for n in names}

    a.out.mkdir(parents=True, exist_ok=True)
    state_path = a.out / "state.json"
    config = {"params": names, "nodes": a.nodes, "iterations": n_iter, "r_end": a.r_end,
              "c_mult": a.c_mult, "seed": a.seed, "openings": str(a.openings), "hash": a.hash,
              "kishi": kishi, "concurrency": a.concurrency}
    if a.resume:
        if not state_path.exists():
            raise SystemExit(f"error: --resume: no {state_path} (no batch finished yet: start again)")
        state = json.loads(state_path.read_text())
        if state["config"] != config:
            raise SystemExit("error: --resume with other settings than the run's state.json")
        rng = random.Random()
        rng.setstate((state["rng"][0], tuple(state["rng"][1]), state["rng"][2]))
    else:
        if state_path.exists():
            raise SystemExit(f"error: {state_path} exists (use --resume, or another --out)")
        rng = random.Random(a.seed)
        state = {"config": config, "k": 0, "points": 0.0, "games": 0,
                 "theta": {n: float(space[n]["init"]) for n in names},
                 "start": {n: float(space[n]["init"]) for n in names}}
        (a.out / "iterations.jsonl").write_text("")

    tc = TimeControl(nodes=a.nodes, hard_timeout=60.0)
    adj = Adjudication(max_plies=0, resign_score=1000, resign_moves=3, draw_score=10, draw_moves=10,
                       draw_after=80)
    workers = [Worker(kishi, ["plus", "minus"], a.hash) for _ in range(a.concurrency)]
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=a.concurrency)
    t0 = time.monotonic()
    batches = 0
    try:
        while state["k"] < n_iter:
            if a.max_batches and batches >= a.max_batches:
                print(f"stopped after {batches} batches at k={state['k']} (--resume continues)")
                return 0
            batches += 1
            batch = []
            theta = state["theta"]
            for j in range(min(a.concurrency, n_iter - state["k"])):
                k = state["k"] + j + 1
                ck = {n: c_end[n] * (n_iter / k) ** GAMMA for n in names}
                delta = {n: rng.choice((-1, 1)) for n in names}
                opening = rng.randrange(len(openings))

                def val(n, sgn):
                    p = space[n]
                    v = round(theta[n] + sgn * ck[n] * delta[n])
                    return max(p["min"], min(p["max"], v))

                plus = {n: val(n, 1) for n in names}
                minus = {n: val(n, -1) for n in names}
                batch.append((k, ck, delta, opening, plus, minus))
            futures = [pool.submit(play_pair, workers[j], b[4], b[5], openings[b[3]], tc, adj)
                       for j, b in enumerate(batch)]
            outcomes = [f.result() for f in futures]
            lines = []
            for (k, ck, delta, opening, plus, minus), res in zip(batch, outcomes):
                result = res["plus_points"] - (2.0 - res["plus_points"])
                for n in names:
                    ak = a_coef[n] / (big_a + k) ** ALPHA
                    theta[n] += ak / ck[n] * result * delta[n]
                    p = space[n]
                    theta[n] = max(float(p["min"]), min(float(p["max"]), theta[n]))
                state["points"] += res["plus_points"]
                state["games"] += 2
                lines.append(json.dumps({"k": k, "opening": opening, "plus": plus, "minus": minus,
                                         "results": res["results"], "result": result,
                                         "theta": {n: round(theta[n], 3) for n in names}}))
            state["k"] = batch[-1][0]
            st = rng.getstate()
            state["rng"] = [st[0], list(st[1]), st[2]]
            with open(a.out / "iterations.jsonl", "a") as f:
                f.write("\n".join(lines) + "\n")
            atomic_write(state_path, json.dumps(state))
            if state["k"] % 50 < a.concurrency:
                el = time.monotonic() - t0
                shown = " ".join(f"{n}={theta[n]:.1f}" for n in names)
                print(f"[{time.strftime('%H:%M:%S')}] k={state['k']}/{n_iter} games={state['games']} "
                      f"({el:.0f}s) {shown}", flush=True)
    finally:
        for w in workers:
            w.quit()
        pool.shutdown(wait=False)

    rows = ["| parameter | start | final | change | c_end |", "| --- | ---: | ---: | ---: | ---: |"]
    for n in names:
        s, f = state["start"][n], state["theta"][n]
        rows.append(f"| {n} | {s:g} | {f:.2f} | {f - s:+.2f} | {c_end[n]:g} |")
    opts = ";".join(f"{n}={round(state['theta'][n])}" for n in names)
    text = (f"# SPSA, chess, {n_iter} pairs ({state['games']} games) at {a.nodes} nodes\n\n"
            + "\n".join(rows) + f"\n\nRounded, as ladder options: `{opts}`\n")
    atomic_write(a.out / "result.md", text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
