"""scripts/gen_labels.py end to end with the real kishi binary as a (fast, weak) teacher: labels are
legal teacher moves in the learner's line format, deduplicated, resumable after a kill, and a
hanging or crashing teacher or a full disk gives a clear error without losing what was written.

Run: python3 -m pytest tests/clients/test_gen_labels.py -q
"""

import os
import subprocess
import sys

import cshogi
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
GEN = os.path.join(REPO, "scripts", "gen_labels.py")
KISHI = os.path.join(REPO, "target", "release", "kishi")
TEACHER = "kishi:nodes=200"

pytestmark = pytest.mark.skipif(not os.path.exists(KISHI), reason="no kishi binary (cargo build --release)")


def gen(*args, ok=True, timeout=300):
    r = subprocess.run([sys.executable, GEN, "--kishi", KISHI] + list(args), capture_output=True, text=True,
                       timeout=timeout)
    if ok:
        assert r.returncode == 0, r.stdout + r.stderr
    return r


def run_args(d, games, teacher=TEACHER, workers=2, extra=()):
    return ["run", "--dir", str(d), "--teacher", teacher, "--games", str(games), "--workers", str(workers),
            "--max-plies", "60", "--no-progress"] + list(extra)


def labels(d):
    out = []
    for name in sorted(os.listdir(d)):
        if name.startswith("labels-w"):
            with open(os.path.join(d, name), encoding="utf-8") as f:
                out += [line.rstrip("\n") for line in f]
    return out


def games(d):
    rows = []
    for name in sorted(os.listdir(d)):
        if name.startswith("games-w") and name.endswith(".tsv"):
            with open(os.path.join(d, name), encoding="utf-8") as f:
                lines = f.read().splitlines()
            assert lines[0].split("\t")[0] == "game"
            rows += [dict(zip(lines[0].split("\t"), line.split("\t"))) for line in lines[1:]]
    return rows


def check_lines(lines):
    keys = set()
    for line in lines:
        tok = line.split()
        assert tok[0] in ("1-0", "0-1", "1/2-1/2") and tok[1] == "1" and tok[2] == "sfen", line
        assert tok[7] == "moves" and len(tok) == 9, line
        board = cshogi.Board(" ".join(tok[3:7]))
        mv = board.move_from_usi(tok[8])
        assert mv and mv in set(board.legal_moves), f"illegal label {line}"
        key = " ".join(tok[3:6])
        assert key not in keys, f"duplicate position {key}"
        keys.add(key)


def test_labels_are_legal_deduplicated_and_counted(tmp_path):
    d = tmp_path / "run"
    gen(*run_args(d, 4))
    lines, rows = labels(d), games(d)
    assert sorted(int(r["game"]) for r in rows) == [0, 1, 2, 3]
    assert sum(int(r["labels"]) for r in rows) == len(lines) > 20
    check_lines(lines)
    # Each label carries its game's result.
    for w in (0, 1):
        with open(d / f"labels-w{w}.txt", encoding="utf-8") as f:
            wl = f.read().splitlines()
        for r in games(d):
            if int(r["game"]) % 2 == w:
                first, n = int(r["first_line"]), int(r["labels"])
                assert {x.split()[0] for x in wl[first - 1:first - 1 + n]} == {r["result"]}
    # Packed: one xz file, every label once.
    out = tmp_path / "packed" / "labels"
    os.makedirs(out.parent)
    r = gen("pack", "--dir", str(d), "--out", str(out))
    import lzma
    with lzma.open(str(out) + "-001.txt.xz", "rt", encoding="utf-8") as f:
        packed = f.read().splitlines()
    assert sorted(packed) == sorted(lines), r.stdout
    # Split by game: game 1 and 3 (every 2nd game) held out; no test position is a training one,
    # and together the two files hold every label once.
    split = tmp_path / "packed" / "split"
    r = gen("pack", "--dir", str(d), "--out", str(split), "--test-every", "2")
    with lzma.open(str(split) + "-001.txt.xz", "rt", encoding="utf-8") as f:
        train = f.read().splitlines()
    with lzma.open(str(split) + "-test.txt.xz", "rt", encoding="utf-8") as f:
        test = f.read().splitlines()
    assert sorted(train + test) == sorted(lines), r.stdout
    key = lambda line: " ".join(line.split()[3:6])  # noqa: E731
    assert not {key(x) for x in train} & {key(x) for x in test}
    held = []
    for w in (0, 1):
        with open(d / f"labels-w{w}.txt", encoding="utf-8") as f:
            wl = f.read().splitlines()
        for row in games(d):
            if int(row["game"]) % 2 == w and int(row["game"]) in (1, 3):
                first, n = int(row["first_line"]), int(row["labels"])
                held += wl[first - 1:first - 1 + n]
    assert sorted(test) == sorted(held) and test, r.stdout
    assert "test labels from 2 held-out games" in r.stdout
    assert gen("pack", "--dir", str(d), "--out", str(split), "--test-every", "-1", ok=False).returncode == 2
    # --exclude: the positions of an older file are left out (here the test file just written).
    rest = tmp_path / "packed" / "rest"
    r = gen("pack", "--dir", str(d), "--out", str(rest), "--exclude", str(split) + "-test.txt.xz")
    with lzma.open(str(rest) + "-001.txt.xz", "rt", encoding="utf-8") as f:
        kept = f.read().splitlines()
    assert sorted(kept) == sorted(train), r.stdout
    assert (f"{len(lines) - len(train)} labels left out: their positions are in the --exclude files "
            f"({len(test)} positions)") in r.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text("not a label line\n", encoding="utf-8")
    for ex in (str(bad), str(tmp_path / "missing.txt.xz")):
        r = gen("pack", "--dir", str(d), "--out", str(rest), "--exclude", ex, ok=False)
        assert r.returncode == 2 and "--exclude" in r.stderr, r.stderr


def test_resume_after_a_kill_plays_each_game_once(tmp_path):
    d = tmp_path / "run"
    gen(*run_args(d, 2))
    before = labels(d)
    # A kill in the middle of a game: a half-written label and a half-written game row.
    with open(d / "labels-w0.txt", "a", encoding="utf-8") as f:
        f.write("0-1 1 sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKG")
    with open(d / "games-w0.tsv", "a", encoding="utf-8") as f:
        f.write("2\t99\t5")
    gen(*run_args(d, 4))
    rows = games(d)
    assert sorted(int(r["game"]) for r in rows) == [0, 1, 2, 3]
    after = labels(d)
    check_lines(after)
    assert set(before) <= set(after)
    assert sum(int(r["labels"]) for r in rows) == len(after)
    # Nothing left to do: a rerun plays no game and changes nothing.
    r = gen(*run_args(d, 4))
    assert "0 games to play" in r.stderr and labels(d) == after
    # Other settings in the same directory are refused.
    r = gen(*run_args(d, 4, teacher="kishi:nodes=300"), ok=False)
    assert r.returncode == 2 and "other settings" in r.stderr


FAKE = """import sys
mode = sys.argv[1]
for line in sys.stdin:
    c = line.split()
    if not c: continue
    if c[0] == "usi": print("id name fake"); print("usiok", flush=True)
    elif c[0] == "isready": print("readyok", flush=True)
    elif c[0] == "go":
        if mode == "crash": sys.exit(3)
        # hang: never answer
    elif c[0] == "quit": break
"""


@pytest.mark.parametrize("mode", ["hang", "crash"])
def test_a_broken_teacher_is_a_clear_error(tmp_path, mode):
    fake = tmp_path / "fake.py"
    fake.write_text(FAKE)
    exe = tmp_path / "fake"
    exe.write_text(f"#!/bin/sh\nexec {sys.executable} {fake} {mode}\n")
    exe.chmod(0o755)
    d = tmp_path / "run"
    r = gen("--move-timeout", "1", *run_args(d, 4, teacher=f"kishi:nodes=100,path={exe}", workers=1), ok=False)
    assert r.returncode == 1, r.stderr
    assert "void" in r.stderr and "three void games in a row" in r.stderr, r.stderr
    assert labels(d) == [] and games(d) == []


def test_a_full_disk_stops_with_an_error_and_keeps_what_was_written(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full to simulate a full disk with")
    d = tmp_path / "run"
    gen(*run_args(d, 2))
    kept = (d / "labels-w0.txt").read_text()
    # Worker 1's disk is full from now on (its label file is /dev/full: every write fails).
    os.remove(d / "labels-w1.txt")
    (d / "games-w1.tsv").write_text("")
    os.symlink("/dev/full", d / "labels-w1.txt")
    r = gen(*run_args(d, 4), ok=False)
    assert r.returncode == 1 and "cannot write" in r.stderr and "No space left" in r.stderr, r.stderr
    now = (d / "labels-w0.txt").read_text()
    assert now.startswith(kept) and len(now) > len(kept), "worker 0 went on and kept its labels"
    assert sorted(int(x["game"]) for x in games(d)) == [0, 2]


def test_agree_pairs_each_teacher_answer_with_the_reference(tmp_path):
    import json
    d = tmp_path / "run"
    gen(*run_args(d, 2))
    out = tmp_path / "agree.json"
    r = gen("agree", "--positions", str(d / "labels-w0.txt"), "--sample", "8", "--reference", TEACHER,
            "--teacher", TEACHER, "--teacher", "kishi:nodes=1", "--json", str(out))
    res = json.loads(out.read_text())
    same, tiny = res["rows"]
    # The same deterministic teacher (one thread, fixed nodes, new game each position) agrees always.
    assert same["agree"] == same["positions"] == 8, r.stdout
    lo, hi = same["interval95"]
    assert lo < 1.0 <= hi + 1e-9
    assert 0 <= tiny["agree"] <= 8 and tiny["seconds_per_position"] > 0
    assert "agrees 8/8 = 100.0%" in r.stdout
