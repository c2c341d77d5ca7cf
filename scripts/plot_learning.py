#!/usr/bin/env python3
"""Plot learning curves from the learner's metrics.jsonl (kishi learn).

Usage:
    python3 scripts/plot_learning.py RUN_DIR [RUN_DIR2 ...] --out curves.png [--labels mmto,ct]
                                     [--game shogi|chess] [--title TEXT]

RUN_DIR is a learner output directory holding metrics.jsonl (a path to the
.jsonl file itself is accepted too).  Several runs are overlaid in the same
axes, e.g. to compare MMTO with a CT baseline.  The PNG has four panels:

  * objective: J (before the step, solid) and total = J_after + J_C + J_R
    (dashed), per iteration;
  * move agreement (%) on the training (solid) and test (dashed) positions,
    ties excluded as in the paper's §4.3, or with --strict ties counted as misses
    (fairer when the starting weights tie on most positions, e.g. material only);
  * piece values per piece (legend with piece names; shogi order pawn, lance,
    knight, silver, bishop, rook, gold, tokin, +lance, +knight, +silver,
    horse, dragon; chess: middlegame P N B R Q then endgame P N B R Q);
  * L1 norm of every learned table (log scale).

Runs of `learn texel` (regression on a teacher's scores) have no J and no
move agreement: their first two panels show the cross-entropy loss (train
solid, test dashed) and the RMS difference from the teacher's score instead.

Runs of `learn results` have a line per generation ("generation" instead of
"iteration", the x axis): the first panel shows each generation's fresh loss
(W_k on the results of the games it has just played, before any fit saw them;
solid) and its fit's final loss on the pool of games (dashed); the second the
first player's score and the share of games ended by resignation (%).

With one run, colours tell the series apart; with several runs, colours tell
the runs apart in the first, second and fourth panels, and line styles tell
the runs apart in the piece-value panel (colour = piece).

--game picks the piece names; by default it is guessed from the number of
piece values (13 = shogi, 10 = chess).

Malformed lines (bad JSON, not an object, no integer "iteration"; e.g. a
half-written last line of a run in progress) are skipped with a warning on
stderr.  A missing file, or a file without any usable line, is an error
(exit status 2).  Needs matplotlib (Agg backend, no display).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import Dict, List, Optional, Sequence

# The material-table order of src/shogi/features.rs (MATERIAL_NAMES): haitaka's piece order.
SHOGI_PIECES = ["pawn", "lance", "knight", "silver", "bishop", "rook", "gold",
                "tokin", "+lance", "+knight", "+silver", "horse", "dragon"]
CHESS_PIECES = [f"{p} {ph}" for ph in ("mg", "eg") for p in ("pawn", "knight", "bishop", "rook", "queen")]

RUN_STYLES = ["-", "--", ":", "-."]


class InputError(Exception):
    pass


def warn(msg: str) -> None:
    print(f"plot_learning: warning: {msg}", file=sys.stderr)


def metrics_path(run: str) -> str:
    if os.path.isdir(run):
        return os.path.join(run, "metrics.jsonl")
    return run


def load_metrics(run: str) -> List[dict]:
    """Records of one run, sorted by iteration (the last record of a repeated iteration wins)."""
    path = metrics_path(run)
    if not os.path.exists(path):
        raise InputError(f"{path}: no such file (expected a learner output directory with metrics.jsonl)")
    if not os.path.isfile(path):
        raise InputError(f"{path}: not a regular file")
    by_iter: Dict[int, dict] = {}
    bad = 0
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e}")
    for lineno, line in enumerate(lines, 1):
        s = line.strip()
        if not s:
            continue
        try:
            rec = json.loads(s)
        except json.JSONDecodeError as e:
            warn(f"{path}:{lineno}: skipped malformed line ({e.msg})")
            bad += 1
            continue
        if not isinstance(rec, dict):
            warn(f"{path}:{lineno}: skipped line (not a JSON object)")
            bad += 1
            continue
        # `learn results` counts generations, the other learners iterations.
        it = rec.get("iteration", rec.get("generation"))
        if isinstance(it, bool) or not isinstance(it, (int, float)) or not math.isfinite(it):
            warn(f"{path}:{lineno}: skipped line (no numeric 'iteration' or 'generation')")
            bad += 1
            continue
        by_iter[int(it)] = rec
    if not by_iter:
        raise InputError(f"{path}: no usable metrics lines" + (f" ({bad} malformed)" if bad else " (empty file)"))
    return [by_iter[k] for k in sorted(by_iter)]


def num(rec: dict, key: str) -> float:
    v = rec.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return float("nan")
    return float(v)


def series(recs: Sequence[dict], key: str, scale: float = 1.0) -> List[float]:
    return [num(r, key) * scale for r in recs]


def is_results(recs: Sequence[dict]) -> bool:
    """A `learn results` run: one record per generation of self-play games and its fit."""
    return any("generation" in r and "iteration" not in r for r in recs)


def x_of(recs: Sequence[dict]) -> List[int]:
    return [int(r.get("iteration", r.get("generation"))) for r in recs]


def first_player_score(recs: Sequence[dict]) -> List[float]:
    out = []
    for r in recs:
        g = num(r, "games")
        out.append(100.0 * (num(r, "wins_first") + 0.5 * num(r, "draws")) / g if g > 0 else float("nan"))
    return out


def is_regression(recs: Sequence[dict]) -> bool:
    """A `learn texel` run: a loss against a teacher, no objective J."""
    return any("test_loss" in r for r in recs) and not any("J" in r for r in recs)


def piece_matrix(recs: Sequence[dict], path: str) -> List[List[float]]:
    """piece_values per record, padded with NaN to the longest length seen."""
    rows: List[List[float]] = []
    for r in recs:
        pv = r.get("piece_values")
        if not isinstance(pv, list):
            rows.append([])
            continue
        rows.append([float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else float("nan")
                     for x in pv])
    lengths = {len(row) for row in rows if row}
    if len(lengths) > 1:
        warn(f"{path}: piece_values lengths differ between iterations ({sorted(lengths)}); padding with gaps")
    n = max(lengths) if lengths else 0
    return [row + [float("nan")] * (n - len(row)) for row in rows]


def piece_names(n: int, game: Optional[str], path: str) -> List[str]:
    if game is None:
        game = {13: "shogi", 10: "chess"}.get(n)
    names = {"shogi": SHOGI_PIECES, "chess": CHESS_PIECES}.get(game or "")
    if names is None:
        if n:
            warn(f"{path}: cannot tell the game from {n} piece values; numbering them instead")
        return [f"value {i}" for i in range(n)]
    if len(names) != n:
        warn(f"{path}: {n} piece values do not match --game {game} ({len(names)} expected); numbering them")
        return [f"value {i}" for i in range(n)]
    return list(names)


def piece_color(j: int):
    """Ten strong colours first (tab20's dark half), then the light half."""
    import matplotlib
    tab20 = matplotlib.colormaps["tab20"]
    j %= 20
    return tab20(2 * j if j < 10 else 2 * (j - 10) + 1)


def table_l1(recs: Sequence[dict]) -> Dict[str, List[float]]:
    """L1 norm per table that is learned in at least one iteration."""
    names: List[str] = []
    for r in recs:
        t = r.get("tables")
        if isinstance(t, dict):
            for name, info in t.items():
                if isinstance(info, dict) and info.get("learned") and name not in names:
                    names.append(name)
    out: Dict[str, List[float]] = {}
    for name in names:
        vals = []
        for r in recs:
            info = (r.get("tables") or {}).get(name) if isinstance(r.get("tables"), dict) else None
            v = info.get("l1") if isinstance(info, dict) else None
            vals.append(float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else float("nan"))
        out[name] = vals
    return out


def plot(runs: Sequence[str], labels: Sequence[str], out: str, game: Optional[str], title: Optional[str],
         strict: bool = False) -> None:
    data = [(run, load_metrics(run)) for run in runs]  # input errors first, before importing matplotlib

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    multi = len(data) > 1
    run_colors = [f"C{i % 10}" for i in range(len(data))]
    fig, axes = plt.subplots(2, 2, figsize=(14, 9.5))
    ax_obj, ax_agr, ax_pv, ax_tab = axes[0][0], axes[0][1], axes[1][0], axes[1][1]

    any_table = False
    texel_runs = 0
    results_runs = 0
    for k, ((run, recs), label) in enumerate(zip(data, labels)):
        path = metrics_path(run)
        it = x_of(recs)
        pre = f"{label}: " if multi else ""
        c1, c2 = (run_colors[k], run_colors[k]) if multi else ("C0", "C1")
        if is_results(recs):
            results_runs += 1
            ax_obj.plot(it, series(recs, "fresh_loss"), "-", color=c1, marker=".",
                        label=f"{pre}W_k on its new games")
            ax_obj.plot(it, series(recs, "train_loss"), "--", color=c2, marker=".",
                        label=f"{pre}fit, on the pool")
            ax_agr.plot(it, first_player_score(recs), "-", color=c1, marker=".",
                        label=f"{pre}first player's score")
            resign = [100.0 * a / b if b > 0 else float("nan")
                      for a, b in zip(series(recs, "resignations"), series(recs, "games"))]
            ax_agr.plot(it, resign, "--", color=c2, marker=".", label=f"{pre}games resigned")
        elif is_regression(recs):
            texel_runs += 1
            ax_obj.plot(it, series(recs, "train_loss"), "-", color=c1, marker=".", label=f"{pre}train")
            ax_obj.plot(it, series(recs, "test_loss"), "--", color=c2, marker=".", label=f"{pre}test")
            ax_agr.plot(it, series(recs, "train_rms_teacher"), "-", color=c1, marker=".",
                        label=f"{pre}train")
            ax_agr.plot(it, series(recs, "test_rms_teacher"), "--", color=c2, marker=".",
                        label=f"{pre}test")
        else:
            ax_obj.plot(it, series(recs, "J"), "-", color=c1, marker=".", label=f"{pre}J")
            ax_obj.plot(it, series(recs, "total"), "--", color=c2, marker=".", label=f"{pre}total")
            suffix = "_strict" if strict else ""
            ax_agr.plot(it, series(recs, "agreement_train" + suffix, 100.0), "-", color=c1, marker=".",
                        label=f"{pre}train")
            ax_agr.plot(it, series(recs, "agreement_test" + suffix, 100.0), "--", color=c2, marker=".",
                        label=f"{pre}test")

        pm = piece_matrix(recs, path)
        npieces = len(pm[0]) if pm else 0
        names = piece_names(npieces, game, path)
        style = RUN_STYLES[k % len(RUN_STYLES)]
        for j in range(npieces):
            col = [row[j] for row in pm]
            ax_pv.plot(it, col, style, color=piece_color(j), marker="." if len(it) < 40 else None,
                       label=names[j] if k == 0 else None)

        tabs = table_l1(recs)
        for j, (name, vals) in enumerate(tabs.items()):
            if not any(v > 0 for v in vals if not math.isnan(v)):
                continue
            any_table = True
            col = run_colors[k] if multi else f"C{j % 10}"
            ls = RUN_STYLES[j % len(RUN_STYLES)] if multi else "-"
            ax_tab.plot(it, [v if v > 0 else float("nan") for v in vals], ls, color=col, marker=".",
                        label=f"{pre}{name}")

    if results_runs == len(data):
        ax_obj.set_title("loss against the game results")
        ax_obj.set_ylabel("cross-entropy")
        ax_agr.set_title("self-play games")
        ax_agr.set_ylabel("%")
    elif results_runs:
        warn("learn results runs and other runs in one plot: the first two panels mix their measures")
        ax_obj.set_title("loss or objective")
        ax_agr.set_title("agreement, error or self-play figures")
    elif texel_runs == len(data):
        ax_obj.set_title("cross-entropy loss against the teacher")
        ax_obj.set_ylabel("loss: train (solid), test (dashed)")
        ax_agr.set_title("RMS difference from the teacher's score")
        ax_agr.set_ylabel("evaluation units")
    else:
        if texel_runs:
            warn("regression (texel) runs and move-agreement runs in one plot: "
                 "the first two panels mix loss with J and RMS with agreement")
        ax_obj.set_title("objective")
        ax_obj.set_ylabel("J (solid), total (dashed)")
        ax_agr.set_title("move agreement, ties as misses" if strict else "move agreement, ties excluded")
        ax_agr.set_ylabel("%")
    ax_pv.set_title("piece values")
    ax_pv.set_ylabel("value")
    ax_tab.set_title("learned tables: L1 norm")
    xlabel = "generation" if results_runs == len(data) else "iteration"
    for ax in (ax_obj, ax_agr, ax_pv, ax_tab):
        ax.set_xlabel(xlabel)
        ax.grid(True, alpha=0.3)
        ax.xaxis.get_major_locator().set_params(integer=True)
    ax_obj.legend(fontsize="small")
    ax_agr.legend(fontsize="small")
    if ax_pv.lines:
        handles, lab = ax_pv.get_legend_handles_labels()
        if multi:
            handles += [Line2D([], [], color="k", linestyle=RUN_STYLES[k % len(RUN_STYLES)]) for k in range(len(data))]
            lab += list(labels)
        ax_pv.legend(handles, lab, fontsize="x-small", ncol=2, loc="center left", bbox_to_anchor=(1.0, 0.5))
    if any_table:
        ax_tab.set_yscale("log")
        ax_tab.legend(fontsize="small")
    else:
        ax_tab.text(0.5, 0.5, "no learned table with nonzero weights", ha="center", va="center",
                    transform=ax_tab.transAxes)
    fig.suptitle(title or ("learning curves: " + ", ".join(labels)))
    fig.tight_layout()
    out_dir = os.path.dirname(os.path.abspath(out))
    os.makedirs(out_dir, exist_ok=True)
    fig.savefig(out, dpi=100)
    plt.close(fig)


def default_label(run: str) -> str:
    p = os.path.abspath(run)
    if os.path.isfile(p):
        p = os.path.dirname(p)
    return os.path.basename(p.rstrip(os.sep)) or p


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description="Plot learning curves from kishi learn's metrics.jsonl.",
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("runs", nargs="+", metavar="RUN_DIR", help="learner output directory (or its metrics.jsonl)")
    ap.add_argument("--out", required=True, help="PNG file to write")
    ap.add_argument("--labels", help="comma-separated run labels (default: directory names)")
    ap.add_argument("--game", choices=["shogi", "chess"], help="piece names (default: guess from the count)")
    ap.add_argument("--title", help="figure title")
    ap.add_argument("--strict", action="store_true", help="agreement with ties counted as misses")
    args = ap.parse_args(argv)

    labels = [default_label(r) for r in args.runs]
    if args.labels is not None:
        given = [s.strip() for s in args.labels.split(",")]
        if len(given) != len(args.runs):
            print(f"plot_learning: error: --labels has {len(given)} names for {len(args.runs)} runs",
                  file=sys.stderr)
            return 2
        labels = given
    try:
        plot(args.runs, labels, args.out, args.game, args.title, args.strict)
    except InputError as e:
        print(f"plot_learning: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"plot_learning: error: cannot write {args.out}: {e}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
