"""scripts/staged_schedule.py end to end on tiny data: two stages (e_A, e_AB) learned, measured
(agreement of the shipped weights, non-zero weights, sizes, a 2-game A/B at few nodes, one game
against gpsusi at byoyomi 0.1 s) and
summarised; a second start skips every finished step; a new run folder seeded from the
--archive of the first restores both stages and learns nothing; a changed data set and bad
arguments are refused with a clear message.

Run: python3 -m pytest tests/clients/test_staged_schedule.py -q
"""

import json
import lzma
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "scripts", "staged_schedule.py")
KISHI = os.path.join(REPO, "target", "release", "kishi")
SHARED = os.path.join(REPO, "..", "shared", "data", "shogi")
LABELS = os.path.join(REPO, "data", "shogi")

pytestmark = [
    pytest.mark.skipif(not os.path.exists(KISHI), reason="no kishi binary (cargo build --release)"),
    pytest.mark.skipif(not os.path.exists(os.path.join(SHARED, "gps_book_positions.txt.xz")),
                       reason="no ../shared/data"),
]


needs_gpsusi = pytest.mark.skipif(not os.path.exists("/usr/games/gpsusi"), reason="no gpsusi (apt gpsshogi)")


def head_xz(src, dst, n):
    with lzma.open(src, "rt", encoding="utf-8") as f:
        lines = [next(f) for _ in range(n)]
    with lzma.open(dst, "wt", encoding="utf-8") as f:
        f.writelines(lines)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    root = tmp_path_factory.mktemp("staged")
    shared, data = root / "shared", root / "data"
    shared.mkdir()
    data.mkdir()
    head_xz(os.path.join(SHARED, "gps_book_positions.txt.xz"), shared / "gps_book_positions.txt.xz", 300)
    head_xz(os.path.join(SHARED, "gps_selfplay_train.txt.xz"), shared / "gps_selfplay_train.txt.xz", 20)
    head_xz(os.path.join(LABELS, "labels-fsf10k-s1-001.txt.xz"), data / "labels-t-001.txt.xz", 300)
    head_xz(os.path.join(LABELS, "labels-fsf10k-s1-test.txt.xz"), data / "labels-t-test.txt.xz", 100)
    return root


def schedule(root, *extra, ok=True, out="out"):
    args = [sys.executable, SCRIPT, "--out", str(root / out), "--archive", str(root / "archive"), "--data-dir", str(root / "data"),
            "--shared-dir", str(root / "shared"), "--stages", "A,AB", "--iterations", "1", "--threads", "1",
            "--elo-games", "2", "--nodes", "300", "--byoyomi-games", "1", "--byoyomi", "0.1",
            "--max-memory", "1G"] + list(extra)
    r = subprocess.run(args, capture_output=True, text=True, timeout=900)
    if ok:
        assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return r


@needs_gpsusi
def test_two_stages_learned_measured_and_summarised(tiny):
    r = schedule(tiny)
    summary = json.loads((tiny / "out" / "summary.json").read_text())
    assert list(summary) == ["A", "AB"]
    for stage, r_ in summary.items():
        assert r_["iterations"] == 1
        ag = r_["agreement"]
        assert 0.0 <= ag["ties_as_misses"] <= ag["ties_as_half"] <= 1.0
        assert ag["positions"] > 0
        assert r_["sizes"]["raw_bytes"] > 0 and r_["sizes"]["xz_bytes"] > 0
        elo = r_["elo_vs_previous"]
        assert elo["games_played"] == 2 and elo["wins"] + elo["draws"] + elo["losses"] == 2
        gps = r_["elo_vs_gpsusi"]
        assert gps["games_played"] == 1 and gps["row"] == f"shogi-gpsusi.staged-e{stage}"
    # e_A learns the material only; e_AB adds KP weights.
    assert summary["A"]["nonzero"].get("kp", 0) == 0
    assert summary["AB"]["nonzero"]["kp"] > 0
    # e_AB starts from e_A's weights and is measured against them; e_A against the hand-set start.
    assert summary["A"]["elo_vs_previous"]["row"] == "ab-shogi-staged-eA-vs-handset"
    assert summary["AB"]["elo_vs_previous"]["row"] == "ab-shogi-staged-eAB-vs-eA"
    learn_ab = (tiny / "out" / "data.json").read_text()
    assert "labels-t-001.txt.xz" in learn_ab and "labels-t-test.txt.xz" in learn_ab
    md = (tiny / "out" / "summary.md").read_text()
    assert "| e_A |" in md and "| e_AB |" in md
    assert "$ " in r.stdout  # it ran commands

    # A second start finds every step done and runs nothing.
    again = schedule(tiny)
    assert "$ " not in again.stdout, again.stdout
    assert json.loads((tiny / "out" / "summary.json").read_text()) == summary

    # The archive holds each stage's weights, metrics and measurements; a fresh run folder with
    # the same rows (--docs) is seeded from it: nothing learned, measured or played again.
    for stage in ("A", "AB"):
        arch = tiny / "archive" / f"e{stage}"
        assert (arch / "weights.kwt.xz").stat().st_size > 0
        assert (arch / "metrics.jsonl").read_text().strip()
        assert (arch / "initial.kwt").exists() == (stage == "A")
    fresh = schedule(tiny, "--docs", str(tiny / "out" / "docs"), out="out2")
    assert "e_A restored" in fresh.stdout and "e_AB restored" in fresh.stdout, fresh.stdout
    assert " learn mmto" not in fresh.stdout and "ladder.py" not in fresh.stdout, fresh.stdout
    restored = json.loads((tiny / "out2" / "summary.json").read_text())
    assert restored == summary
    for stage in ("A", "AB"):
        a = (tiny / "out" / f"e{stage}" / f"staged-e{stage}.kwt").read_bytes()
        assert (tiny / "out2" / f"e{stage}" / f"staged-e{stage}.kwt").read_bytes() == a


def test_saved_progress_resumes_the_stage_under_way(tiny):
    """A stage cut off after one of its iterations: --save-progress archives the learner state, and
    a fresh run folder (another machine) resumes from it and learns only the missing iteration."""
    import shutil
    quick = ["--stages", "A", "--elo-games", "0", "--byoyomi-games", "0"]

    def run(out, *extra):
        args = [sys.executable, SCRIPT, "--out", str(tiny / out), "--data-dir", str(tiny / "data"),
                "--shared-dir", str(tiny / "shared"), "--threads", "1", "--max-memory", "1G",
                "--archive", str(tiny / "arch-p")] + quick + list(extra)
        r = subprocess.run(args, capture_output=True, text=True, timeout=900)
        assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
        return r

    run("p1", "--iterations", "1")
    first = (tiny / "p1" / "eA" / "learn" / "metrics.jsonl").read_text().splitlines()
    assert len(first) == 1
    # As if the run had been cut off after iteration 1 of 2: no finished stage in the archive.
    shutil.rmtree(tiny / "arch-p")
    (tiny / "p1" / "eA" / "learn" / "done").unlink()
    saved = run("p1", "--save-progress")
    assert "learner state saved" in saved.stdout and " learn mmto" not in saved.stdout
    prog = tiny / "arch-p" / "eA" / "progress"
    assert (prog / "checkpoint.bin.xz").exists() and (prog / "initial.kwt").exists()

    resumed = run("p2", "--iterations", "2")
    assert "learner state restored" in resumed.stdout, resumed.stdout
    assert "--resume" in resumed.stdout
    lines = (tiny / "p2" / "eA" / "learn" / "metrics.jsonl").read_text().splitlines()
    assert len(lines) == 2 and lines[0] == first[0]
    # The finished stage replaces the saved state in the archive.
    assert not prog.exists() and (tiny / "arch-p" / "eA" / "weights.kwt.xz").exists()


@needs_gpsusi
def test_changed_data_is_refused(tiny):
    if not (tiny / "out" / "data.json").exists():
        schedule(tiny)
    extra = tiny / "data" / "labels-t-002.txt.xz"
    head_xz(os.path.join(LABELS, "labels-fsf10k-s2-001.txt.xz"), extra, 10)
    try:
        r = schedule(tiny, ok=False)
        assert r.returncode != 0
        assert "the data changed" in r.stderr
    finally:
        extra.unlink()


@pytest.mark.parametrize("args,message", [
    (["--stages", "AB,A"], "in that order"),
    (["--iterations", "A=x"], "whole numbers"),
    (["--iterations", "Q=3"], "unknown stage"),
    (["--iterations", "0"], "at least 1"),
])
def test_bad_arguments_are_refused(tmp_path, args, message):
    r = subprocess.run([sys.executable, SCRIPT, "--out", str(tmp_path / "o")] + args,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert message in r.stderr
