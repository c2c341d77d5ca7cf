#!/usr/bin/env python3
"""The staged schedule of issue 13, run to the end: e_A -> e_AB -> e_ABC -> e_ABCD on every
labelled shogi set of data/shogi plus the GPS book and self-play data, each stage learned by
`kishi learn mmto` from the one before it and measured the way the issue asks:

  * iterations, test agreement of the stage's weights (ties as misses and as halves: the learner
    measures iteration k with the weights after k - 1 updates, so the shipped weights are measured
    by one more short run, `--init W --iterations 1 --max-positions 2000`, same test set),
  * non-zero parameters per table (after the last update), file size raw and xz -9e,
  * Elo against the previous stage at fixed nodes (ladder fast mode, --elo-games games; e_A
    against the hand-set material it starts from),
  * Elo against gpsusi at byoyomi 1 s (ladder headline row, --byoyomi-games games).

    python3 scripts/staged_schedule.py --out runs/staged                # everything, for days
    python3 scripts/staged_schedule.py --out runs/staged --stages A,AB  # the first two stages
    python3 scripts/staged_schedule.py --out /tmp/st --max-positions 2000 --iterations 1 \\
        --elo-games 2 --byoyomi-games 0                                  # a smoke run, minutes

Every step leaves a file behind and is skipped when it is there, so a killed schedule is simply
started again with the same arguments: the learner resumes from its checkpoint (`--resume`,
exact), a match that was cut off is played again from its first game. With `--archive DIR`
every finished stage is also copied there (its weights xz-compressed, metrics, agreement, sizes,
the summary and the data list): a run that goes on over days on machines that keep only the
repository commits that folder (with `--docs docs`, so the match rows land in the repository
too), and a new run folder is seeded from it, the finished stages restored instead of learned.
`--save-progress` copies the learner state of the stage under way there as well (run it beside
the schedule before the machine goes away); the next start resumes that stage exactly. The data files are found
when the schedule starts (data/shogi/labels-*-NNN.txt.xz for training, labels-*-test.txt.xz for
testing) and written to OUT/data.json; a restart refuses to go on with another set. The summary
(OUT/summary.json and OUT/summary.md) is rewritten after every step.
"""

import argparse
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from typing import Dict, List, Optional

from ladder import fmt_elo

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAGES = ["A", "AB", "ABC", "ABCD"]
TABLES = {"A": "A", "AB": "A,B", "ABC": "A,B,C", "ABCD": "A,B,C,D"}


def log(msg: str) -> None:
    print(f"staged: {msg}", flush=True)


def run(cmd: List[str], **kw) -> None:
    log("$ " + " ".join(shlex.quote(c) for c in cmd))
    r = subprocess.run(cmd, cwd=REPO, **kw)
    if r.returncode != 0:
        raise SystemExit(f"staged: command failed with exit code {r.returncode}: {cmd[0]} {cmd[1] if len(cmd) > 1 else ''}")


def write_json(path: str, value) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def copy_atomic(src: str, dst: str) -> None:
    shutil.copyfile(src, dst + ".tmp")
    os.replace(dst + ".tmp", dst)


def read_json(path: str):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def metrics(path: str) -> List[dict]:
    rows = []
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line:
                    rows.append(json.loads(line))
    except OSError:
        pass
    return rows


def find_data(data_dir: str, shared_dir: str, max_positions: Optional[int]) -> dict:
    """The training and test files of `data_dir` as they are now (sorted, relative to the repo)."""
    names = sorted(os.path.relpath(p, REPO) for p in glob.glob(os.path.join(data_dir, "labels-*.txt.xz")))
    train = [n for n in names if re.search(r"-\d{3}\.txt\.xz$", n)]
    test = [n for n in names if n.endswith("-test.txt.xz")]
    if not train:
        raise SystemExit(f"staged: no {data_dir}/labels-*-NNN.txt.xz files")
    book = os.path.relpath(os.path.join(shared_dir, "gps_book_positions.txt.xz"), REPO)
    selfplay = os.path.relpath(os.path.join(shared_dir, "gps_selfplay_train.txt.xz"), REPO)
    for p in (book, selfplay):
        if not os.path.exists(os.path.join(REPO, p)):
            raise SystemExit(f"staged: {p} is missing (--shared-dir)")
    return {"train": [book] + train, "split": selfplay, "test": test, "max_positions": max_positions}


def learn_args(data: dict, stage: str, init: Optional[str], iterations: int, a) -> List[str]:
    args = ["mmto", "--game", "shogi", "--data", ",".join(data["train"]), "--split", data["split"],
            "--test-fraction", "0.1", "--tables", TABLES[stage], "--iterations", str(iterations),
            "--threads", str(a.threads)]
    if data["test"]:
        args += ["--test", ",".join(data["test"])]
    if init:
        args += ["--init", init]
    if a.max_memory:
        args += ["--max-memory", a.max_memory]
    if data.get("max_positions"):
        args += ["--max-positions", str(data["max_positions"])]
    return args


def step_learn(a, data: dict, stage: str, init: Optional[str], d: str) -> None:
    out = os.path.join(d, "learn")
    if os.path.exists(os.path.join(out, "done")):
        return
    # Not --quiet: the learner logs step 1 at every tenth (its bar draws nothing in a log).
    cmd = [a.kishi, "learn"] + learn_args(data, stage, init, a.iterations[stage], a) + ["--out", out]
    if os.path.exists(os.path.join(out, "checkpoint.bin")):
        cmd.append("--resume")
    run(cmd)
    open(os.path.join(out, "done"), "w").close()


def step_agreement(a, data: dict, stage: str, weights: str, d: str) -> dict:
    """Test agreement of `weights` itself (one more iteration's measurement on 2,000 positions)."""
    path = os.path.join(d, "agreement.json")
    got = read_json(path)
    if got:
        return got
    out = os.path.join(d, "agreement-run")
    args = learn_args(dict(data, max_positions=2000), stage, weights, 1, a)
    run([a.kishi, "learn"] + args + ["--quiet", "--out", out])
    m = metrics(os.path.join(out, "metrics.jsonl"))
    if not m:
        raise SystemExit(f"staged: {out}/metrics.jsonl is empty")
    got = {"ties_as_misses": m[0].get("agreement_test_strict"), "ties_as_half": m[0].get("agreement_test"),
           "positions": m[0].get("test_used")}
    write_json(path, got)
    return got


def step_sizes(weights: str, d: str) -> dict:
    path = os.path.join(d, "sizes.json")
    got = read_json(path)
    if got:
        return got
    xz = os.path.join(d, "weights.kwt.xz")
    with open(xz + ".tmp", "wb") as f:
        run(["xz", "-9e", "-T1", "-c", weights], stdout=f)
    os.replace(xz + ".tmp", xz)
    got = {"raw_bytes": os.path.getsize(weights), "xz_bytes": os.path.getsize(xz)}
    write_json(path, got)
    return got


# What a finished stage leaves in the archive; "initial.kwt" only for the first stage, whose A/B
# base is the learner's own start (the hand-set material), later stages' bases are stages too.
ARCHIVED = ("metrics.jsonl", "initial.kwt", "agreement.json", "sizes.json", "weights.kwt.xz")
IN_LEARN = ("metrics.jsonl", "initial.kwt")


def archive_stage(a, stage: str, d: str) -> None:
    """Copy a finished stage (weights, metrics, agreement, sizes) and the summary into --archive."""
    if not a.archive:
        return
    dst = os.path.join(a.archive, f"e{stage}")
    os.makedirs(dst, exist_ok=True)
    shutil.rmtree(os.path.join(dst, "progress"), ignore_errors=True)  # the stage is learned
    for name in ARCHIVED:
        p = os.path.join(d, "learn" if name in IN_LEARN else "", name)
        if name == "initial.kwt" and stage != STAGES[0]:
            continue
        if os.path.exists(p):
            copy_atomic(p, os.path.join(dst, name))
    for name in ("summary.json", "summary.md", "data.json"):
        p = os.path.join(a.out, name)
        if os.path.exists(p):
            copy_atomic(p, os.path.join(a.archive, name))


def save_progress(a) -> None:
    """Copy the learner state of every unfinished stage (checkpoint xz-compressed, metrics, and
    for the first stage the start it is measured against) into --archive/eX/progress: the
    checkpoint holds all a resume needs (`learn --resume` is exact), and it is small (the
    parameters as runs of non-zeros). Safe while the learner runs: the checkpoint is replaced
    atomically, and a resume cuts the metrics back to what the checkpoint covers."""
    for s in STAGES:
        learn = os.path.join(a.out, f"e{s}", "learn")
        ckpt = os.path.join(learn, "checkpoint.bin")
        if not os.path.exists(ckpt) or os.path.exists(os.path.join(learn, "done")):
            continue
        dst = os.path.join(a.archive, f"e{s}", "progress")
        os.makedirs(dst, exist_ok=True)
        with open(os.path.join(dst, "checkpoint.bin.xz.tmp"), "wb") as f:
            run(["xz", "-6", "-T1", "-c", ckpt], stdout=f)
        os.replace(os.path.join(dst, "checkpoint.bin.xz.tmp"), os.path.join(dst, "checkpoint.bin.xz"))
        for name in IN_LEARN:
            p = os.path.join(learn, name)
            if os.path.exists(p) and (name != "initial.kwt" or s == STAGES[0]):
                copy_atomic(p, os.path.join(dst, name))
        log(f"e_{s}: learner state saved in {dst}")


def restore_progress(a, s: str) -> None:
    """Put an archived learner state of stage s into a run folder that has none (see save_progress)."""
    src = os.path.join(a.archive, f"e{s}", "progress")
    learn = os.path.join(a.out, f"e{s}", "learn")
    if not os.path.exists(os.path.join(src, "checkpoint.bin.xz")) or os.path.exists(os.path.join(learn, "checkpoint.bin")) \
            or os.path.exists(os.path.join(learn, "done")):
        return
    os.makedirs(learn, exist_ok=True)
    for name in IN_LEARN:
        if os.path.exists(os.path.join(src, name)):
            shutil.copyfile(os.path.join(src, name), os.path.join(learn, name))
    with open(os.path.join(learn, "checkpoint.bin.tmp"), "wb") as f:
        run(["xz", "-d", "-c", os.path.join(src, "checkpoint.bin.xz")], stdout=f)
    os.replace(os.path.join(learn, "checkpoint.bin.tmp"), os.path.join(learn, "checkpoint.bin"))
    log(f"e_{s}: learner state restored from {src}")


def restore_stages(a, data: dict) -> None:
    """Seed a run folder from --archive: each archived stage not learned here is unpacked, its
    learner marked done, so the schedule goes on after it. The archive's data list must match."""
    if not a.archive or not os.path.isdir(a.archive):
        return
    old = read_json(os.path.join(a.archive, "data.json"))
    if old is not None and old != data:
        raise SystemExit(f"staged: the data changed since {a.archive}/data.json was written; "
                         "use a new --archive (or delete it to start again on the new data)")
    for s in STAGES:
        src = os.path.join(a.archive, f"e{s}")
        d = os.path.join(a.out, f"e{s}")
        w = os.path.join(d, f"{a.label}-e{s}.kwt")
        if not os.path.exists(os.path.join(src, "weights.kwt.xz")):
            restore_progress(a, s)
            continue
        if os.path.exists(w):
            continue
        learn = os.path.join(d, "learn")
        os.makedirs(learn, exist_ok=True)
        with open(w + ".tmp", "wb") as f:
            run(["xz", "-d", "-c", os.path.join(src, "weights.kwt.xz")], stdout=f)
        os.replace(w + ".tmp", w)
        for name in ARCHIVED:
            p = os.path.join(src, name)
            if os.path.exists(p):
                shutil.copyfile(p, os.path.join(learn if name in IN_LEARN else d, name))
        open(os.path.join(learn, "done"), "w").close()
        log(f"e_{s} restored from {src}")
    summary = os.path.join(a.archive, "summary.json")
    if os.path.exists(summary) and not os.path.exists(os.path.join(a.out, "summary.json")):
        shutil.copyfile(summary, os.path.join(a.out, "summary.json"))


def ladder(a) -> List[str]:
    cmd = [sys.executable, os.path.join(REPO, "scripts", "ladder.py"), "--kishi", a.kishi, "--docs", a.docs,
           "--out", os.path.join(a.out, "matches")]
    return cmd + (["--kishi-commit", a.kishi_commit] if a.kishi_commit else [])


def row(a, row_id: str) -> Optional[dict]:
    r = read_json(os.path.join(a.docs, "strength", "rows", f"{row_id}.json"))
    if not r:
        return None
    return {k: r.get(k) for k in ("row", "games_played", "wins", "draws", "losses", "elo", "elo_low", "elo_high")}


def step_elo(a, stage: str, weights: str, base: str, base_name: str) -> Optional[dict]:
    if a.elo_games <= 0:
        return None
    label = f"{a.label}-e{stage}-vs-{base_name}"
    done = row(a, f"ab-shogi-{label}")
    if done and (done.get("games_played") or 0) >= a.elo_games:
        return done
    run(ladder(a) + ["ab", "--game", "shogi", "--label", label, "--nodes", str(a.nodes), "--games", str(a.elo_games),
                     "--new", f"EvalFile={os.path.abspath(weights)}", "--base", f"EvalFile={os.path.abspath(base)}"])
    return row(a, f"ab-shogi-{label}")


def step_byoyomi(a, weights: str) -> Optional[dict]:
    if a.byoyomi_games <= 0:
        return None
    ev = os.path.abspath(weights)

    def played() -> Optional[dict]:
        # The ladder names the row after the EvalFile's base name ("shogi-gpsusi.staged-eAB"),
        # which stays the same when a later run folder is restored from --archive elsewhere.
        return row(a, "shogi-gpsusi." + os.path.splitext(os.path.basename(ev))[0])

    done = played()
    if done and (done.get("games_played") or 0) >= a.byoyomi_games:
        return done
    run(ladder(a) + ["run", "--rows", "shogi-gpsusi", "--evals", ev, "--games", str(a.byoyomi_games),
                     "--shogi-byoyomi", str(a.byoyomi)])
    return played()


def summarize(a, results: Dict[str, dict]) -> None:
    write_json(os.path.join(a.out, "summary.json"), results)
    pct = lambda x: "—" if x is None else f"{100 * x:.2f}%"  # noqa: E731

    def elo(r):
        # The ladder's own format, which also covers a 0% or 100% score (an infinite point
        # estimate with the Wilson bound).
        return "—" if not r else f"{r['wins']}/{r['draws']}/{r['losses']}, {fmt_elo(r)}"

    lines = ["| stage | iterations | test agreement (misses / halves) | non-zero KP / KKP / KPP | raw / xz bytes "
             f"| Elo against the previous stage ({a.nodes:,} nodes) | against gpsusi, byoyomi {a.byoyomi:g} s |", "|---|---|---|---|---|---|---|"]
    for s, r in results.items():
        nz = r.get("nonzero", {})
        sz = r.get("sizes", {})
        ag = r.get("agreement", {})
        lines.append(f"| e_{s} | {r.get('iterations')} | {pct(ag.get('ties_as_misses'))} / {pct(ag.get('ties_as_half'))} "
                     f"| {nz.get('kp', 0):,} / {nz.get('kkp', 0):,} / {nz.get('kpp', 0):,} "
                     f"| {sz.get('raw_bytes', 0):,} / {sz.get('xz_bytes', 0):,} | {elo(r.get('elo_vs_previous'))} "
                     f"| {elo(r.get('elo_vs_gpsusi'))} |")
    with open(os.path.join(a.out, "summary.md.tmp"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(os.path.join(a.out, "summary.md.tmp"), os.path.join(a.out, "summary.md"))


def parse_iterations(text: str) -> Dict[str, int]:
    try:
        return _parse_iterations(text)
    except ValueError:
        raise SystemExit(f"staged: --iterations {text!r}: expected N or STAGE=N,... with whole numbers")


def _parse_iterations(text: str) -> Dict[str, int]:
    its = {s: 4 for s in STAGES}
    for part in filter(None, text.split(",")):
        if "=" in part:
            k, v = part.split("=", 1)
            if k not in its:
                raise SystemExit(f"staged: --iterations: unknown stage {k!r} (stages: {', '.join(STAGES)})")
            its[k] = int(v)
        else:
            its = {s: int(part) for s in STAGES}
    if any(v < 1 for v in its.values()):
        raise SystemExit("staged: --iterations must be at least 1")
    return its


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="run folder (learner runs, matches, summary)")
    p.add_argument("--stages", default="A,AB,ABC,ABCD", help="stages to run, in order (each starts from the one before)")
    p.add_argument("--iterations", default="A=4,AB=4,ABC=4,ABCD=4", help="N for all, or STAGE=N,...")
    p.add_argument("--pick", choices=["final", "best"], default="final",
                   help="a stage's weights: after the last update (weights.kwt) or best test agreement (best.kwt)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--max-memory", default="18G")
    p.add_argument("--max-positions", type=int, help="training positions at most (smoke runs)")
    p.add_argument("--elo-games", type=int, default=200)
    p.add_argument("--nodes", type=int, default=5000)
    p.add_argument("--byoyomi-games", type=int, default=40)
    p.add_argument("--byoyomi", type=float, default=1.0, help="seconds a move against gpsusi (1: the headline)")
    p.add_argument("--kishi", default=os.path.join(REPO, "target", "release", "kishi"))
    p.add_argument("--kishi-commit", help="the commit --kishi was built from (rows record it)")
    p.add_argument("--docs", help="ladder docs folder for the rows (default OUT/docs)")
    p.add_argument("--label", default="staged", help="prefix of the A/B row names")
    p.add_argument("--archive", help="copy each finished stage here and restore stages from it (runs over days)")
    p.add_argument("--save-progress", action="store_true",
                   help="only copy the learner state of unfinished stages into --archive (beside a running "
                        "schedule, before the machine goes away), then exit")
    p.add_argument("--data-dir", default=os.path.join(REPO, "data", "shogi"), help="where the labels-*.txt.xz files are")
    p.add_argument("--shared-dir", default=os.path.join(REPO, "..", "shared", "data", "shogi"),
                   help="where gps_book_positions.txt.xz and gps_selfplay_train.txt.xz are")
    a = p.parse_args()
    a.iterations = parse_iterations(a.iterations)
    stages = a.stages.split(",")
    if any(s not in STAGES for s in stages) or stages != [s for s in STAGES if s in stages]:
        raise SystemExit(f"staged: --stages must list stages of {','.join(STAGES)} in that order")
    if not os.access(a.kishi, os.X_OK):
        raise SystemExit(f"staged: {a.kishi} is not an executable (cargo build --release)")
    a.out = os.path.abspath(a.out)
    if a.save_progress:
        if not a.archive:
            raise SystemExit("staged: --save-progress needs --archive")
        a.archive = os.path.abspath(a.archive)
        save_progress(a)
        return
    a.docs = os.path.abspath(a.docs or os.path.join(a.out, "docs"))
    os.makedirs(a.out, exist_ok=True)

    data_path = os.path.join(a.out, "data.json")
    data = find_data(a.data_dir, a.shared_dir, a.max_positions)
    old = read_json(data_path)
    if old is not None and old != data:
        raise SystemExit(f"staged: the data changed since {data_path} was written; use a new --out "
                         "(or delete it to start again on the new data)")
    write_json(data_path, data)
    if a.archive:
        a.archive = os.path.abspath(a.archive)
        restore_stages(a, data)

    results = read_json(os.path.join(a.out, "summary.json")) or {}
    prev_weights, prev_name = None, "handset"
    for s in STAGES:
        d = os.path.join(a.out, f"e{s}")
        if s not in stages:
            w = os.path.join(d, f"{a.label}-e{s}.kwt")
            if os.path.exists(w):
                prev_weights, prev_name = w, f"e{s}"
            continue
        if STAGES.index(s) > 0 and prev_weights is None:
            raise SystemExit(f"staged: e_{s} needs the previous stage's weights; run it first")
        os.makedirs(d, exist_ok=True)
        step_learn(a, data, s, prev_weights, d)
        learn_dir = os.path.join(d, "learn")
        picked = os.path.join(learn_dir, "weights.kwt" if a.pick == "final" else "best.kwt")
        # The stage's weights under a name of their own: the ladder names a headline row after the
        # EvalFile's base name, and every stage's learner writes "weights.kwt".
        w = os.path.join(d, f"{a.label}-e{s}.kwt")
        if not os.path.exists(w):
            try:
                os.link(picked, w)
            except OSError:
                shutil.copyfile(picked, w + ".tmp")
                os.replace(w + ".tmp", w)
        m = metrics(os.path.join(learn_dir, "metrics.jsonl"))
        r = results.setdefault(s, {})
        r["iterations"] = len(m)
        r["weights"] = os.path.relpath(w, a.out)
        r["nonzero"] = {k: v.get("nonzero") for k, v in (m[-1].get("tables") or {}).items()} if m else {}
        r["per_iteration"] = [{"agreement_test_strict": x.get("agreement_test_strict"),
                               "agreement_test": x.get("agreement_test"), "J": x.get("J")} for x in m]
        r["agreement"] = step_agreement(a, data, s, w, d)
        r["sizes"] = step_sizes(w, d)
        summarize(a, results)
        archive_stage(a, s, d)  # the learned weights are safe before the matches start
        base = prev_weights or os.path.join(learn_dir, "initial.kwt")
        r["elo_vs_previous"] = step_elo(a, s, w, base, prev_name)
        summarize(a, results)
        archive_stage(a, s, d)
        r["elo_vs_gpsusi"] = step_byoyomi(a, w)
        summarize(a, results)
        archive_stage(a, s, d)
        prev_weights, prev_name = w, f"e{s}"
    log(f"done: {os.path.join(a.out, 'summary.md')}")


if __name__ == "__main__":
    main()
