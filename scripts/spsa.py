#!/usr/bin/env python3
"""A short SPSA run of kishi's search parameters with shogiarena's tuner (issue 17).

kishi built with the `tune` feature declares every search parameter (`Game::SEARCH_PARAMS`) as a
USI spin option; shogiarena's SPSA plays pairs of games between a "+" and a "−" perturbation of
all parameters at once and moves them along the estimated gradient. This script writes the run's
files (the parameter space from `kishi search-params shogi`, the engine, the SPSA config), runs
shogiarena, and prints the start and final values side by side (also into OUT/result.md).

    cargo build --release --features tune && cp target/release/kishi /work/bin/kishi-tune
    python3 scripts/spsa.py --kishi /work/bin/kishi-tune --out /tmp/spsa --nodes 3000 --updates 150

Games are played at a fixed number of nodes per move, one at a time, so the run's result does not
depend on the machine's load (it can run under `nice`). The games are `2 × pairs × updates`.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from matchlib.spins import declared_spins  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kishi", required=True, help="a kishi binary built with --features tune")
    ap.add_argument("--out", required=True, type=Path, help="run directory (created; must not exist)")
    ap.add_argument("--nodes", type=int, default=3000, help="nodes per move (default 3000)")
    ap.add_argument("--updates", type=int, default=150, help="SPSA updates (default 150)")
    ap.add_argument("--pairs", type=int, default=1, help="game pairs per update (default 1)")
    ap.add_argument("--openings", type=Path, default=ROOT / "book" / "shogi_openings.sfen")
    ap.add_argument("--seed", default="6b69736869" + "0" * 54, help="run seed, 64 hex digits")
    ap.add_argument("--hash", type=int, default=16, help="USI_Hash in MiB (default 16)")
    a = ap.parse_args()

    arena = shutil.which("shogiarena")
    if not arena:
        print("error: shogiarena is not installed (pip install -r scripts/requirements.txt)", file=sys.stderr)
        return 2
    kishi = str(Path(a.kishi).resolve())
    space = subprocess.run([kishi, "search-params", "shogi"], capture_output=True, text=True, timeout=60)
    if space.returncode != 0 or not space.stdout.strip():
        print(f"error: {kishi} search-params shogi failed: {space.stderr}", file=sys.stderr)
        return 2
    space_json = json.loads(space.stdout)
    # At a fixed number of nodes per move the clock plays no part: the time-management parameters
    # are left out of the space, so the tuner neither perturbs nor moves them.
    space_json["parameters"] = [p for p in space_json["parameters"] if not p["id"].startswith("Time")]
    start = {p["id"]: float(p["initial"]) for p in space_json["parameters"]}
    missing = sorted(set(start) - declared_spins(kishi, "usi"))
    if missing:
        print(f"error: {kishi} does not declare {missing} as options: build it with --features tune",
              file=sys.stderr)
        return 2
    if a.out.exists():
        print(f"error: {a.out} exists", file=sys.stderr)
        return 2
    a.out.mkdir(parents=True)
    (a.out / "space.json").write_text(json.dumps(space_json, indent=1))
    engine = {"name": "kishi", "engine_path": kishi, "options": {"USI_Hash": a.hash, "Threads": 1}}
    (a.out / "kishi.yaml").write_text(json.dumps(engine, indent=1))
    config = {
        "experiment_name": "kishi_spsa",
        "engines": [{"name": "kishi", "engine_path": str(a.out / "kishi.yaml")}],
        "rules": {
            "time_control": {"node_limit": a.nodes},
            "initial_positions": {"type": "file", "source": str(a.openings.resolve()),
                                  "flip_policy": "pair_both"},
        },
        "spsa": {
            "space": str(a.out / "space.json"),
            "num_updates": a.updates,
            "pairs_per_update": a.pairs,
            "num_parallel": 1,
            "run_seed": a.seed,
            # shogiarena clears the hash between variants with a 'Clear Hash' button, which kishi
            # does not declare; it clears its table at every usinewgame instead.
            "variants": {"apply": {"clear_hash": False}},
        },
        "dashboard": {"enabled": False},
    }
    cfg = a.out / "spsa.yaml"
    cfg.write_text(json.dumps(config, indent=1))  # JSON is valid YAML
    run_dir = a.out / "run"
    cmd = [arena, "--output-dir", str(a.out / "arena"), "run", "spsa", str(cfg), "--run-dir", str(run_dir),
           "--no-resume"]
    print("+", " ".join(cmd), flush=True)
    t0 = time.monotonic()
    r = subprocess.run(cmd)
    secs = time.monotonic() - t0
    if r.returncode != 0:
        print(f"error: shogiarena exited with {r.returncode}", file=sys.stderr)
        return r.returncode
    current = run_dir / "spsa" / "current.json"
    if not current.exists():
        print(f"error: no {current}", file=sys.stderr)
        return 1
    cur = json.loads(current.read_text())
    final = {k: float(v) for k, v in cur["theta"].items()}
    lines = [
        f"SPSA: {cur['update_idx']} updates x {a.pairs} pair(s) = {2 * cur['update_idx'] * a.pairs} games at"
        f" {a.nodes} nodes/move, {secs / 60:.1f} min; final values from {current}",
        "",
        "| parameter | start | final | change |",
        "| --- | ---: | ---: | ---: |",
    ]
    for name, v0 in start.items():
        v1 = final.get(name, float("nan"))
        lines.append(f"| {name} | {v0:g} | {v1:.2f} | {v1 - v0:+.2f} |")
    text = "\n".join(lines) + "\n"
    (a.out / "result.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
