#!/usr/bin/env python3
"""The strength ladder: kishi against fixed opponents, and fast A/B matches between two kishis.

Every strength claim of the project is a row of this ladder.  A row is one `scripts/match.py`
match whose trimmed summary is kept in docs/strength/rows/<row>.json; `report` turns the rows into
docs/strength.md (a table with games, W/D/L, Elo, 95% interval and the command of every row) and
docs/strength.png (Elo with intervals).

Headline rows (slow; 40+ games each):

    python3 scripts/ladder.py run --games 40                       # every headline row, built-in evals
    python3 scripts/ladder.py run --rows shogi-fsf --evals builtin,shogi-eAB.kwt --games 40
    python3 scripts/ladder.py list                                  # the rows and what they play

  shogi: kishi at byoyomi 1 s against gpsusi (LimitDepth=10, 1 thread, 1.5 s margin: it overruns
  byoyomi) and Fairy-Stockfish (shogi, 1 thread); chess: kishi at 10 s + 0.1 s against Stockfish
  15.1 at UCI_Elo 2000 / 2400 / 2800 and Ethereal.  `--evals` names the evaluations kishi plays
  with: `builtin` (no EvalFile) or an EvalFile value (a shipped name or a path).

Fast A/B rows (fixed nodes, 200+ games, optionally an SPRT):

    python3 scripts/ladder.py ab --game chess --label kp-vs-handset --nodes 5000 --games 200 \\
        --new EvalFile=eval_weights/chess-kp.kwt --base EvalFile=runs/chess-kp/initial.kwt

  `--new-engine`/`--base-engine` compare two kishi builds instead of (or as well as) two weight files.

A row that already holds at least the games asked for is not played again (`--force` replays it),
so an interrupted ladder resumes.  Resign adjudication (both engines agree on 1000 cp for 3 moves)
and, in chess, draw adjudication (|score| <= 10 cp for 10 plies after ply 80) keep decided games
short; shogi games are drawn at 320 plies.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
from typing import Dict, List, Optional

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(REPO, "docs")
MATCH = os.path.join(REPO, "scripts", "match.py")
DEFAULT_KISHI = os.path.join(REPO, "target", "release", "kishi")

sys.path.insert(0, os.path.join(REPO, "scripts"))
from matchlib import stats  # noqa: E402  (match.py's statistics: one Wilson interval for both)

ADJ = {"shogi": ["--resign-score", "1000", "--resign-moves", "3", "--max-plies", "320"],
       "chess": ["--resign-score", "1000", "--resign-moves", "3", "--draw-score", "10",
                 "--draw-moves", "10", "--draw-after", "80"]}

# Headline opponents: id -> (game, display name, command, options, extra match.py arguments).
OPPONENTS: Dict[str, dict] = {
    "shogi-gpsusi": dict(game="shogi", name="gpsusi d10", cmd="/usr/games/gpsusi",
                         options="LimitDepth=10,Thread=1",
                         # gpsusi overruns byoyomi by up to ~1 s: give it a margin of its own.
                         extra=["--tc2", "byoyomi=1,margin=1.5"]),
    "shogi-fsf": dict(game="shogi", name="Fairy-Stockfish", cmd="/usr/games/fairy-stockfish",
                      options="Threads=1,USI_Hash=64", extra=[]),
    "chess-sf2000": dict(game="chess", name="Stockfish 2000", cmd="/usr/games/stockfish",
                         options="Threads=1,Hash=64,UCI_LimitStrength=true,UCI_Elo=2000", extra=[]),
    "chess-sf2400": dict(game="chess", name="Stockfish 2400", cmd="/usr/games/stockfish",
                         options="Threads=1,Hash=64,UCI_LimitStrength=true,UCI_Elo=2400", extra=[]),
    "chess-sf2800": dict(game="chess", name="Stockfish 2800", cmd="/usr/games/stockfish",
                         options="Threads=1,Hash=64,UCI_LimitStrength=true,UCI_Elo=2800", extra=[]),
    "chess-ethereal": dict(game="chess", name="Ethereal", cmd="/usr/games/ethereal-chess",
                           options="Threads=1,Hash=64", extra=[]),
}

# Summary fields kept in a row file (the per-game list stays with the match output).
KEEP = ("game", "engines", "time_control", "time_controls", "adjudication", "openings", "concurrency",
        "games_planned", "games_played", "wins", "draws", "losses", "score", "elo", "elo_low",
        "elo_high", "los", "pentanomial", "sprt", "stopped_early", "terminations", "anomalies",
        "started", "finished", "wall_time_s", "command", "fatal_error")


def git_commit() -> str:
    try:
        out = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return out + ("+changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def eval_slug(ev: str) -> str:
    if ev == "builtin":
        return "builtin"
    base = os.path.basename(ev)
    for suffix in (".xz", ".kwt"):
        if base.endswith(suffix):
            base = base[: -len(suffix)]
    return base


def kishi_options(ev: str, game: str) -> str:
    # ';'-separated, so that a path with commas survives match.py's option parsing.
    parts = ["Threads=1", "USI_Hash=64" if game == "shogi" else "Hash=64"]
    return ";".join(parts + ([f"EvalFile={ev}"] if ev != "builtin" else []))


def rows_dir(docs: str) -> str:
    return os.path.join(docs, "strength", "rows")


def row_path(docs: str, row_id: str) -> str:
    return os.path.join(rows_dir(docs), f"{row_id}.json")


def load_row(docs: str, row_id: str) -> Optional[dict]:
    try:
        with open(row_path(docs, row_id), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def play(args, row_id: str, meta: dict, match_args: List[str]) -> dict:
    """Plays one row with match.py (unless it already has `games` games) and stores it."""
    games, force, out_root, docs = args.games, args.force, args.out, args.docs
    old = load_row(docs, row_id)
    if old and not force and old.get("games_played", 0) >= games and not old.get("fatal_error"):
        print(f"{row_id}: kept ({old['games_played']} games already played)")
        return old
    out = os.path.join(out_root, row_id)
    cmd = [sys.executable, MATCH, "--games", str(games), "--out", out, "--no-progress"] + match_args
    print(f"{row_id}: {' '.join(shlex.quote(c) for c in cmd)}", flush=True)
    r = subprocess.run(cmd)
    try:
        with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit(f"{row_id}: match.py exited {r.returncode} without a summary ({e})")
    row = {k: summary.get(k) for k in KEEP}
    row.update(meta)
    row["row"] = row_id
    # A binary copied elsewhere (so that builds during a long match cannot replace it) was built from
    # another commit than the one checked out when the row is written: --kishi-commit says which.
    row["kishi_commit"] = args.kishi_commit or git_commit()
    row["command"] = " ".join(shlex.quote(c) for c in cmd[1:]).replace(REPO + "/", "")
    row["ladder_command"] = "python3 scripts/ladder.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    os.makedirs(rows_dir(docs), exist_ok=True)
    tmp = row_path(docs, row_id) + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(row, f, indent=1)
        f.write("\n")
    os.replace(tmp, row_path(docs, row_id))
    print(f"{row_id}: {row['wins']}/{row['draws']}/{row['losses']}  Elo {fmt_elo(row)}", flush=True)
    return row


def cmd_list(_args) -> None:
    for rid, o in OPPONENTS.items():
        tc = "byoyomi 1 s" if o["game"] == "shogi" else "10 s + 0.1 s"
        print(f"{rid:16} {o['game']:6} {o['name']:18} {tc:14} {o['cmd']} {o['options']}")


def cmd_run(args) -> None:
    rows = args.rows.split(",") if args.rows else list(OPPONENTS)
    bad = [r for r in rows if r not in OPPONENTS]
    if bad:
        raise SystemExit(f"unknown rows {bad}; known: {', '.join(OPPONENTS)}")
    evals = args.evals.split(",")
    for rid in rows:
        o = OPPONENTS[rid]
        game = o["game"]
        for ev in evals:
            other = "chess" if game == "shogi" else "shogi"
            if os.path.basename(ev).startswith(other + "-"):
                continue  # a shipped file of the other game
            row_id = f"{rid}.{eval_slug(ev)}"
            tc = (["--byoyomi", args.shogi_byoyomi] if game == "shogi" else ["--tc", args.chess_tc])
            match_args = ["--game", game, "--concurrency", str(args.concurrency), "--timemargin", "0.2",
                          "--engine1", args.kishi, "--name1", f"kishi {eval_slug(ev)}",
                          "--options1", kishi_options(ev, game),
                          "--engine2", o["cmd"], "--name2", o["name"], "--options2", o["options"]]
            match_args += tc + ADJ[game] + o["extra"]
            meta = {"kind": "headline", "opponent": rid, "eval": ev}
            play(args, row_id, meta, match_args)
    cmd_report(args)


def cmd_ab(args) -> None:
    game = args.game
    new_engine, base_engine = args.new_engine or args.kishi, args.base_engine or args.kishi
    hash_opt = "USI_Hash=16" if game == "shogi" else "Hash=16"
    opts = lambda extra: ";".join([f"Threads=1", hash_opt] + ([extra] if extra else []))  # noqa: E731
    budget = ["--movetime", str(args.movetime)] if args.movetime else ["--nodes", str(args.nodes)]
    match_args = ["--game", game, "--concurrency", str(args.concurrency)] + budget + [
                  "--engine1", new_engine, "--name1", f"new ({args.new or 'built-in'})",
                  "--options1", opts(args.new),
                  "--engine2", base_engine, "--name2", f"base ({args.base or 'built-in'})",
                  "--options2", opts(args.base)] + ADJ[game]
    if args.sprt:
        match_args += ["--sprt", "--elo0", str(args.elo0), "--elo1", str(args.elo1)]
    if args.seed is not None:
        # Another opening order: a confirmation run then plays other games than the first run
        # (at fixed nodes the same openings give nearly the same games).
        match_args += ["--seed", str(args.seed)]
    if args.openings:
        match_args += ["--openings", args.openings]
    if args.opening_start:
        # The book's other openings: `--opening-start 100` after a 200-game run (100 openings
        # with both colours) plays the 100 it did not.
        match_args += ["--opening-start", str(args.opening_start)]
    meta = {"kind": "ab", "label": args.label, "new": args.new or "built-in", "base": args.base or "built-in",
            "new_engine": os.path.relpath(new_engine, REPO), "base_engine": os.path.relpath(base_engine, REPO)}
    play(args, f"ab-{game}-{args.label}", meta, match_args)
    cmd_report(args)


def fmt_elo(r: dict) -> str:
    """Elo [low, high]. match.py gives None where its (normal) interval is not finite, which is
    also the case for a 100% or 0% score: then the point is ±inf with the sign of the score, and
    a missing bound is the Wilson interval's (shown as ≤ / ≥ when only that one is finite)."""
    def f(x, inf):
        return inf if x is None else f"{x:+.0f}"
    elo, lo, hi = r.get("elo"), r.get("elo_low"), r.get("elo_high")
    if elo is not None and lo is not None and hi is not None:
        return f"{f(elo, '')} [{f(lo, '')}, {f(hi, '')}]"
    w, d, l = (int(r.get(k) or 0) for k in ("wins", "draws", "losses"))
    tri = stats.trinomial(w, d, l)
    lo = tri["wilson_elo_low"] if lo is None else lo
    hi = tri["wilson_elo_high"] if hi is None else hi
    if elo is None:
        if w + d + l > 0 and l == 0 and d == 0:
            return f"+inf (≥ {f(lo, '-inf')})"
        if w + d + l > 0 and w == 0 and d == 0:
            return f"-inf (≤ {f(hi, '+inf')})"
        if w + d + l > 0:
            elo = stats.elo_from_score(tri["score"])
    return f"{f(elo, '±inf')} [{f(lo, '-inf')}, {f(hi, '+inf')}]"


def tc_text(r: dict) -> str:
    tcs = r.get("time_controls") or [r.get("time_control") or {}]
    return (tcs[0] or {}).get("description", "?")


def cmd_report(args) -> None:
    rows = []
    rdir = rows_dir(args.docs)
    report, png = os.path.join(args.docs, "strength.md"), os.path.join(args.docs, "strength.png")
    if os.path.isdir(rdir):
        for name in sorted(os.listdir(rdir)):
            if name.endswith(".json"):
                with open(os.path.join(rdir, name), encoding="utf-8") as f:
                    rows.append(json.load(f))
    head = [r for r in rows if r.get("kind") == "headline"]
    ab = [r for r in rows if r.get("kind") == "ab"]
    lines = ["# Strength ladder", "",
             "Written by `python3 scripts/ladder.py report` from `docs/strength/rows/*.json`; every row is one",
             "`scripts/match.py` match, Elo from kishi's (or the new side's) point of view with its 95%",
             "interval (trinomial). Each opening of the book is played with both colours.", "",
             "## Headline rows", "",
             "| row | kishi eval | opponent | time control | games | W/D/L | Elo [95%] | kishi commit |",
             "|---|---|---|---|---|---|---|---|"]
    for r in head:
        lines.append(f"| {r['row']} | {r['eval']} | {OPPONENTS.get(r['opponent'], {}).get('name', r['opponent'])} | "
                     f"{tc_text(r)} | {r['games_played']} | {r['wins']}/{r['draws']}/{r['losses']} | "
                     f"{fmt_elo(r)} | {r.get('kishi_commit', '?')} |")
    lines += ["", "## A/B rows (fast mode)", "",
              "| row | new | base | time control | games | W/D/L | Elo [95%] | SPRT | kishi commit |",
              "|---|---|---|---|---|---|---|---|---|"]
    for r in ab:
        sprt = (r.get("sprt") or {}).get("decision") or ("–" if not r.get("sprt") else "none")
        # Two builds compared on the same evaluation: name the binaries.
        two = r.get("new_engine") and r.get("new_engine") != r.get("base_engine")
        new = f"{r['new']}, {r['new_engine']}" if two else r["new"]
        base = f"{r['base']}, {r['base_engine']}" if two else r["base"]
        lines.append(f"| {r['row']} | {new} | {base} | {tc_text(r)} | {r['games_played']} | "
                     f"{r['wins']}/{r['draws']}/{r['losses']} | {fmt_elo(r)} | {sprt} | "
                     f"{r.get('kishi_commit', '?')} |")
    lines += ["", "## Commands", ""]
    for r in head + ab:
        lines.append(f"- `{r['row']}`: `{r.get('ladder_command', '')}`, which ran `python3 {r['command']}`"
                     + (f". Conditions: {r['conditions']}" if r.get("conditions") else ""))
    lines += ["", "![Elo of every row with its 95% interval](strength.png)", ""]
    os.makedirs(args.docs, exist_ok=True)
    with open(report + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    os.replace(report + ".tmp", report)
    if rows:
        plot(head + ab, png)
    print(f"wrote {report} ({len(head)} headline, {len(ab)} A/B rows)")


def plot(rows: List[dict], path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    def clip(x, inf):  # an infinite (None) bound is drawn at the edge
        return max(-800.0, min(800.0, inf if x is None else x))
    labels = [f"{r['row']} ({r['games_played']} g)" for r in rows]
    sign = [1 if r["wins"] >= r["losses"] else -1 for r in rows]
    elo = [clip(r.get("elo"), 800.0 * s) for r, s in zip(rows, sign)]
    lo = [e - clip(r.get("elo_low"), -800.0) for e, r in zip(elo, rows)]
    hi = [clip(r.get("elo_high"), 800.0) - e for e, r in zip(elo, rows)]
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(rows) + 1.4))
    ys = list(range(len(rows)))[::-1]
    colours = ["tab:blue" if r.get("kind") == "headline" else "tab:orange" for r in rows]
    for x, y, a, b, c in zip(elo, ys, lo, hi, colours):
        ax.errorbar([x], [y], xerr=[[a], [b]], fmt="none", ecolor=c, capsize=3)
    ax.scatter(elo, ys, c=colours, zorder=3)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_xlabel("Elo of kishi (headline, blue) / of the new side (A/B, orange), 95% interval")
    ax.set_title("kishi strength ladder")
    fig.tight_layout()
    fig.savefig(path + ".tmp.png", dpi=110)
    plt.close(fig)
    os.replace(path + ".tmp.png", path)


def main(argv: Optional[List[str]] = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kishi", default=DEFAULT_KISHI, help="kishi binary (default target/release/kishi)")
    p.add_argument("--out", default=os.path.join(REPO, "matches", "ladder"),
                   help="where match records go (default matches/ladder)")
    p.add_argument("--kishi-commit", help="commit the --kishi binary was built from (default: the checkout's HEAD)")
    p.add_argument("--concurrency", type=int, default=2, help="games in parallel (default 2)")
    p.add_argument("--force", action="store_true", help="replay rows that already have enough games")
    p.add_argument("--docs", default=DOCS, help="where rows and the report go (default docs/)")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="the headline rows")
    r = sub.add_parser("run", help="play headline rows")
    r.add_argument("--rows", help=f"comma-separated row ids (default all: {', '.join(OPPONENTS)})")
    r.add_argument("--evals", default="builtin", help="kishi evaluations: builtin and/or EvalFile values")
    r.add_argument("--games", type=int, default=40)
    r.add_argument("--shogi-byoyomi", default="1", help="shogi byoyomi in seconds (default 1: the headline)")
    r.add_argument("--chess-tc", default="10+0.1", help="chess time control (default 10+0.1: the headline)")
    a = sub.add_parser("ab", help="fast A/B match of two kishi builds or weight files")
    a.add_argument("--game", choices=["shogi", "chess"], required=True)
    a.add_argument("--label", required=True, help="row name (stored as ab-<game>-<label>)")
    a.add_argument("--new", default="", help="engine-1 options, e.g. EvalFile=FILE (default built-in)")
    a.add_argument("--base", default="", help="engine-2 options (default built-in)")
    a.add_argument("--new-engine", help="kishi binary of the new side (default --kishi)")
    a.add_argument("--base-engine", help="kishi binary of the base side (default --kishi)")
    a.add_argument("--nodes", type=int, default=5000, help="nodes per move (default 5000)")
    a.add_argument("--movetime", type=float, help="seconds per move instead of --nodes (e.g. 0.1)")
    a.add_argument("--openings", help="opening book (default match.py's: book/chess_openings.epd or "
                                      "book/shogi_openings.sfen; book/chess_openings_2000.epd or "
                                      "book/shogi_openings_977.sfen for SPRTs and long A/B matches)")
    a.add_argument("--games", type=int, default=200)
    a.add_argument("--sprt", action="store_true")
    a.add_argument("--elo0", type=float, default=0.0)
    a.add_argument("--elo1", type=float, default=10.0)
    a.add_argument("--seed", type=int, help="seed of the random opening order (match.py's default 1)")
    a.add_argument("--opening-start", type=int, default=0, help="first opening in the order (default 0)")
    sub.add_parser("report", help="rewrite docs/strength.md and docs/strength.png from the rows")
    args = p.parse_args(argv)
    if args.cmd in ("run", "ab") and not os.path.exists(args.kishi):
        raise SystemExit(f"{args.kishi}: no kishi binary (cargo build --release)")
    {"list": cmd_list, "run": cmd_run, "ab": cmd_ab, "report": cmd_report}[args.cmd](args)


if __name__ == "__main__":
    main()
