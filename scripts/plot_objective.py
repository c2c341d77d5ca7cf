#!/usr/bin/env python3
"""Plot the parameterised objective's curves (learn mmto --objective-params, issue 14).

Usage:
    python3 scripts/plot_objective.py RUN_DIR [RUN_DIR2 ...] --out curves.png [--labels a,b]

RUN_DIR holds metrics.jsonl. The PNG has four panels per iteration:
  * J1 and J2 (per move pair, before the update; runs without --objective-params show J as J1),
  * test agreement (ties left out) per progress bin of the last iteration, per run,
  * test agreement by best-move change (0, 1, 2) per iteration,
  * test agreement by the depth at which the expert move is first found (1, 2, 3, >3).
Plain MMTO runs (no category fields) are drawn in the first panel only. Needs matplotlib.
"""

from __future__ import annotations

import argparse
import json
import os
import sys


def load(run: str):
    path = os.path.join(run, "metrics.jsonl") if os.path.isdir(run) else run
    recs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                print(f"plot_objective: skipped a malformed line of {path}", file=sys.stderr)
                continue
            if isinstance(r, dict) and isinstance(r.get("iteration"), int):
                recs.append(r)
    if not recs:
        raise SystemExit(f"plot_objective: {path}: no metrics lines")
    return recs


def pct(v):
    return float("nan") if v is None else 100.0 * v


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--labels", default="")
    ap.add_argument("--title", default="")
    a = ap.parse_args(argv)
    labels = a.labels.split(",") if a.labels else [os.path.basename(r.rstrip("/")) for r in a.runs]
    data = [load(r) for r in a.runs]

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(2, 2, figsize=(14, 9.5))
    for k, (recs, label) in enumerate(zip(data, labels)):
        c = f"C{k % 10}"
        it = [r["iteration"] for r in recs]
        j1 = [r.get("j1", r.get("J")) for r in recs]
        if any(v for v in j1):  # J2 alone (c3 = 0) has J1 = 0 throughout: not drawn
            ax[0][0].plot(it, j1, "-", marker=".", color=c, label=f"{label}: J1")
        if any("j2" in r for r in recs):
            ax[0][0].plot(it, [r.get("j2") for r in recs], "--", marker=".", color=c, label=f"{label}: J2")
        cat = [r.get("agreement_by_category_test") for r in recs]
        if not all(cat):
            continue
        last = cat[-1]
        ax[0][1].plot(range(1, 9), [pct(v) for v in last["progress"]], "-", marker="o", color=c,
                      label=f"{label} (iteration {it[-1]})")
        for j, style in enumerate(["-", "--", ":"]):
            ax[1][0].plot(it, [pct(x["change"][j]) for x in cat], style, marker=".", color=c,
                          label=f"{label}: {j} changes")
        for j, style in enumerate(["-", "--", ":", "-."]):
            ax[1][1].plot(it, [pct(x["depth"][j]) for x in cat], style, marker=".", color=c,
                          label=f"{label}: depth {['1', '2', '3', '>3'][j]}")
    ax[0][0].set_title("objective per move pair (J1 solid, J2 dashed)")
    ax[0][1].set_title("test agreement by progress bin (ply / game length, eighths)")
    ax[1][0].set_title("test agreement by best-move change over depths 1-3")
    ax[1][1].set_title("test agreement by depth the expert move is first found")
    for row in ax:
        for x in row:
            x.grid(alpha=0.3)
            x.legend(fontsize=7)
    for x in (ax[0][0], ax[1][0], ax[1][1]):
        x.set_xlabel("iteration")
    for x in (ax[0][1], ax[1][0], ax[1][1]):
        x.set_ylabel("agreement % (ties left out)")
    if a.title:
        fig.suptitle(a.title)
    fig.tight_layout()
    fig.savefig(a.out, dpi=90)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
