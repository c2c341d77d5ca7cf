#!/usr/bin/env python3
"""Plots of self-play learning (kishi learn treestrap|rootstrap|tdleaf).

Usage:
    python3 scripts/plot_treestrap.py curves RUN_DIR [RUN_DIR ...] --out curves.png
    python3 scripts/plot_treestrap.py elo POINTS.json --out elo.png [--title TEXT]

`curves` reads each run's metrics.jsonl (one line per checkpoint) and draws, against training
games: the RMS bound error (how far H is outside the bounds the search established, evaluation
units), the share of nodes updated, the mean game length, and the L1 norm of every table.

`elo` draws the paper's Fig. 2: Elo against training games (log scale) with 95% intervals, one
line per method.  POINTS.json is a list of {"method": str, "games": int, "elo": float,
"lo": float, "hi": float} (the interval's ends in Elo); a point with "lower_bound": true (a
perfect score, whose Elo is unbounded) is drawn as an upward triangle at its bound.

Malformed metrics lines are skipped with a warning; a missing file is an error (exit 2).
Needs matplotlib (Agg backend).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Dict, List


def load(run: str) -> List[dict]:
    path = run if run.endswith(".jsonl") else os.path.join(run, "metrics.jsonl")
    if not os.path.exists(path):
        raise FileNotFoundError(path)
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            try:
                rec = json.loads(line)
                if isinstance(rec, dict) and isinstance(rec.get("games"), int):
                    out.append(rec)
                    continue
            except json.JSONDecodeError:
                pass
            print(f"plot_treestrap: warning: {path}:{n}: skipped", file=sys.stderr)
    return out


def curves(runs: List[str], out: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(2, 2, figsize=(11, 8))
    for run in runs:
        recs = load(run)
        if not recs:
            continue
        label = recs[0].get("method", os.path.basename(run.rstrip("/")))
        g = [r["games"] for r in recs]
        ax[0][0].plot(g, [r["rms_bound_error"] for r in recs], label=label)
        ax[0][1].plot(g, [100.0 * r["nodes_updated"] / max(1, r["nodes_seen"]) for r in recs], label=label)
        ax[1][0].plot(g, [r["mean_plies"] for r in recs], label=label)
        l1: Dict[str, List[float]] = {}
        for r in recs:
            for name, v in r.get("tables_l1", []):
                l1.setdefault(name, []).append(max(1, v))
        for name, v in l1.items():
            ax[1][1].plot(g[:len(v)], v, label=f"{label} {name}")
    ax[0][0].set_title("RMS bound error (eval units)")
    ax[0][1].set_title("nodes updated (% of nodes seen)")
    ax[1][0].set_title("mean game length (plies)")
    ax[1][1].set_title("L1 of each table (weight units)")
    ax[1][1].set_yscale("log")
    for a in ax.flat:
        a.set_xlabel("training games")
        a.legend(fontsize=7)
        a.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def elo(points_file: str, out: str, title: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(points_file) as f:
        pts = json.load(f)
    by: Dict[str, List[dict]] = {}
    for p in pts:
        by.setdefault(p["method"], []).append(p)
    fig, ax = plt.subplots(figsize=(7, 5))
    for method, ps in by.items():
        ps.sort(key=lambda p: p["games"])
        x = [p["games"] for p in ps]
        y = [p["elo"] for p in ps]
        err = [[p["elo"] - p["lo"] for p in ps], [p["hi"] - p["elo"] for p in ps]]
        line = ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=method)
        lb = [p for p in ps if p.get("lower_bound")]
        if lb:
            ax.scatter([p["games"] for p in lb], [p["elo"] for p in lb], marker="^", s=90,
                       color=line[0].get_color(), zorder=5)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("training games (log scale)")
    ax.set_ylabel("Elo against the untrained start")
    ax.set_title(title)
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("curves")
    c.add_argument("runs", nargs="+")
    c.add_argument("--out", required=True)
    e = sub.add_parser("elo")
    e.add_argument("points")
    e.add_argument("--out", required=True)
    e.add_argument("--title", default="Learning from self-play: Elo vs training games")
    a = ap.parse_args()
    try:
        if a.cmd == "curves":
            curves(a.runs, a.out)
        else:
            elo(a.points, a.out, a.title)
    except (OSError, ValueError, KeyError) as err:
        print(f"plot_treestrap: error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
