#!/usr/bin/env python3
"""Plots of self-play learning (kishi learn treestrap|rootstrap|tdleaf).

Usage:
    python3 scripts/plot_treestrap.py curves RUN_DIR [RUN_DIR ...] --out curves.png
    python3 scripts/plot_treestrap.py elo POINTS.json --out elo.png [--title TEXT] [--against TEXT]
    python3 scripts/plot_treestrap.py points ROWS_DIR --ref REF --out POINTS.json

`curves` reads each run's metrics.jsonl (one line per checkpoint) and draws, against training
games: the RMS bound error (how far H is outside the bounds the search established, evaluation
units), the share of nodes updated, the mean game length, and the L1 norm of every table.

`elo` draws the paper's Fig. 2: Elo against training games (log scale) with 95% intervals, one
line per method.  POINTS.json is a list of {"method": str, "games": int, "elo": float,
"lo": float, "hi": float} (the interval's ends in Elo); a point with "lower_bound": true (a
perfect score, whose Elo is unbounded) is drawn as an upward triangle at its bound, one with
"upper_bound": true (no point scored) as a downward triangle.

`points` makes POINTS.json from the ladder's A/B rows (`ladder.py --docs D ab --label
ts-<method>-<games>-vs-<REF>`, files D/strength/rows/ab-<game>-ts-*.json): Elo and 95% interval
of each row; when the interval is open (a perfect or near-perfect score, or its opposite), the
Elo of the score's Wilson 95% bound instead, marked as a bound.

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


FLOOR = -1000.0


def elo(points_file: str, out: str, title: str, against: str) -> None:
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
        # A near-0% score has a normal interval reaching thousands of Elo below: bars are cut
        # at FLOOR so that the other points stay readable (the JSON keeps the real bounds).
        err = [[p["elo"] - max(p["lo"], FLOOR) for p in ps], [p["hi"] - p["elo"] for p in ps]]
        line = ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=method)
        for key, marker in (("lower_bound", "^"), ("upper_bound", "v")):
            b = [p for p in ps if p.get(key)]
            if b:
                ax.scatter([p["games"] for p in b], [p["elo"] for p in b], marker=marker, s=90,
                           color=line[0].get_color(), zorder=5)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_ylim(bottom=max(FLOOR, ax.get_ylim()[0]))
    ax.set_xscale("log")
    ax.set_xlabel("training games (log scale)")
    ax.set_ylabel(f"Elo against {against}")
    ax.set_title(title)
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


METHODS = {"treestrap": "TreeStrap(ab)", "rootstrap": "RootStrap(ab)", "tdleaf": "TD-Leaf(0.7)",
           # The variants of docs/learning/treestrap.md (rows ts-<key>-<games>-vs-<ref>).
           "qv": "TreeStrap(ab), quiescence values", "mp": "TreeStrap(ab), material+positional",
           "q": "TreeStrap(ab), quiet nodes", "mm": "TreeStrap(minimax), quiescence values"}


def wilson_elo(wins: float, n: int, lower: bool) -> float:
    """Elo of the Wilson 95% bound (lower or upper) of a score of `wins` points in `n` games."""
    import math
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    b = centre - half if lower else centre + half
    return -400 * math.log10(1 / b - 1)


def points(rows_dir: str, ref: str, out: str) -> None:
    import glob
    import re
    pat = re.compile(r"^ab-\w+-ts-(\w+)-(\d+)-vs-(\w+)$")
    pts = []
    files = sorted(glob.glob(os.path.join(rows_dir, "strength", "rows", "ab-*-ts-*.json")))
    for path in files:
        with open(path) as f:
            row = json.load(f)
        m = pat.match(row.get("row", ""))
        if not m or m.group(3) != ref or m.group(1) not in METHODS:
            continue
        w, d, l = row["wins"], row["draws"], row["losses"]
        n = w + d + l
        if n == 0:
            continue
        p = {"method": METHODS[m.group(1)], "games": int(m.group(2)), "wdl": [w, d, l]}
        if row.get("elo") is not None and row.get("elo_low") is not None and row.get("elo_high") is not None:
            p.update(elo=row["elo"], lo=row["elo_low"], hi=row["elo_high"])
        elif w + d / 2 > n / 2:
            # An open interval (a perfect or near-perfect score): its Wilson lower bound.
            b = wilson_elo(w + d / 2, n, lower=True)
            p.update(elo=b, lo=b, hi=b, lower_bound=True)
        else:
            b = wilson_elo(w + d / 2, n, lower=False)
            p.update(elo=b, lo=b, hi=b, upper_bound=True)
        pts.append(p)
    if not pts:
        raise ValueError(f"no rows ts-<method>-<games>-vs-{ref} under {rows_dir}")
    pts.sort(key=lambda p: (p["method"], p["games"]))
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(pts, f, indent=1)
    os.replace(tmp, out)
    print(f"{len(pts)} points written to {out}")


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
    e.add_argument("--against", default="the untrained start", help="the y axis' reference")
    pt = sub.add_parser("points")
    pt.add_argument("rows_dir")
    pt.add_argument("--ref", required=True, help="the rows' reference: init, mmto, ...")
    pt.add_argument("--out", required=True)
    a = ap.parse_args()
    try:
        if a.cmd == "curves":
            curves(a.runs, a.out)
        elif a.cmd == "points":
            points(a.rows_dir, a.ref, a.out)
        else:
            elo(a.points, a.out, a.title, a.against)
    except (OSError, ValueError, KeyError) as err:
        print(f"plot_treestrap: error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
