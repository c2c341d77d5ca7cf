"""scripts/label_chess.py end to end on a few games of the shared 2400+ file, with the kishi binary
as a (fast) UCI teacher: labels are legal teacher moves with scores and the game's result, one per
distinct position; a resumed run labels no game twice and drops a half-written game; `pack` keeps
every test game's positions out of the training file; changed settings and a missing teacher are
refused with a message.

Run: python3 -m pytest tests/clients/test_label_chess.py -q
"""

import lzma
import os
import subprocess
import sys

import chess
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "scripts", "label_chess.py")
KISHI = os.path.join(REPO, "target", "release", "kishi")
SHARED = os.path.join(REPO, "..", "shared", "data", "chess", "chess_gm2400_train.txt.xz")

pytestmark = [
    pytest.mark.skipif(not os.path.exists(KISHI), reason="no kishi binary (cargo build --release)"),
    pytest.mark.skipif(not os.path.exists(SHARED), reason="no shared chess games"),
]


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """The first 8 games of the shared file, as a small file of the same format."""
    path = tmp_path_factory.mktemp("games") / "few.txt.xz"
    with lzma.open(SHARED, "rt") as f:
        lines = [next(f) for _ in range(8)]
    with lzma.open(path, "wt") as f:
        f.writelines(lines)
    return str(path), lines


def label(d, games_file, max_games, nodes=100, ok=True, teacher=KISHI):
    r = subprocess.run([sys.executable, SCRIPT, "run", "--dir", str(d), "--games", games_file,
                        "--teacher", teacher, "--nodes", str(nodes), "--rate", "0.3", "--workers", "2",
                        "--max-games", str(max_games)], capture_output=True, text=True, timeout=600)
    if ok:
        assert r.returncode == 0, r.stdout + r.stderr
    return r


def rows(d):
    out = []
    for w in (0, 1):
        p = os.path.join(d, f"labels-w{w}.epd")
        if os.path.exists(p):
            out += [r for r in open(p) if r.strip()]
    return out


def finished(d):
    out = []
    for w in (0, 1):
        p = os.path.join(d, f"games-w{w}.tsv")
        if os.path.exists(p):
            out += [int(r.split("\t")[0]) for r in open(p) if r.strip()]
    return out


def key(r):
    return " ".join(r.split()[:4])


def check_label(r, lines):
    fen, ops = r.split(" sm ", 1)
    b = chess.Board(fen)
    sm = ops.split(";")[0].strip()
    b.parse_san(sm)  # raises on an illegal or malformed move
    fields = dict(op.strip().split(" ", 1) for op in ops.split(";")[1:] if op.strip())
    int(fields["ce"])
    gid = fields["id"].strip('"')
    g, ply = int(gid[1:gid.index("p")]), int(gid[gid.index("p") + 1:])
    assert ply >= 8, r  # --skip-plies 8
    assert fields["c9"].strip('"') == lines[g].split()[0], r
    # The position is the game's position before its ply-th move.
    w = lines[g].split()
    k = w.index("moves")
    replay = chess.Board(" ".join(w[3:k]))
    for mv in w[k + 1:k + 1 + ply]:
        replay.push_uci(mv)
    assert key(replay.fen()) == key(fen), r
    return g


def test_labels_resume_and_pack(games, tmp_path):
    gfile, lines = games
    d = tmp_path / "run"
    label(d, gfile, 4)
    assert sorted(finished(d)) == [0, 1, 2, 3]
    first = rows(d)
    assert len(first) > 20
    assert {check_label(r, lines) for r in first} <= {0, 1, 2, 3}
    assert len({key(r) for r in first}) == len(first), "a position labelled twice"

    # A kill in the middle of a game leaves label lines without their games-w*.tsv row: the
    # next run cuts them off, and labels each game once.
    with open(os.path.join(d, "labels-w0.epd"), "a") as f:
        f.write(first[0].replace('id "g', 'id "g9'))
    label(d, gfile, 8)
    assert sorted(finished(d)) == list(range(8))
    after = rows(d)
    assert set(first) <= set(after), "the first run's labels were lost"
    assert not any('id "g9' in x for x in after), "the half-written game was kept"
    assert {check_label(r, lines) for r in after} == set(range(8))
    assert len({key(r) for r in after}) == len(after)

    out = tmp_path / "packed" / "labels"
    out.parent.mkdir()
    r = subprocess.run([sys.executable, SCRIPT, "pack", "--dir", str(d), "--out", str(out), "--test-every", "2"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "8 finished games" in r.stdout
    with lzma.open(f"{out}-001.epd.xz", "rt") as f:
        train = f.readlines()
    with lzma.open(f"{out}-test.epd.xz", "rt") as f:
        test = f.readlines()
    assert {check_label(x, lines) % 2 for x in train} == {0}
    assert {check_label(x, lines) % 2 for x in test} == {1}
    assert not {key(x) for x in train} & {key(x) for x in test}
    assert len(train) + len(test) == len({key(x) for x in after})


def test_pack_merges_runs_and_the_first_directory_wins(games, tmp_path):
    """A deeper run over the first games packed before a shallower run over all of them: each
    position once, with the deeper run's label where it has one."""
    gfile, lines = games
    deep, shallow = tmp_path / "deep", tmp_path / "shallow"
    label(deep, gfile, 3, nodes=400)
    label(shallow, gfile, 6, nodes=50)
    out = tmp_path / "merged"
    r = subprocess.run([sys.executable, SCRIPT, "pack", "--dir", str(deep), "--dir", str(shallow),
                        "--out", str(out), "--test-every", "0"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "6 finished games" in r.stdout, r.stdout
    with lzma.open(f"{out}-001.epd.xz", "rt") as f:
        merged = f.readlines()
    deep_rows, shallow_rows = rows(deep), rows(shallow)
    assert len({key(x) for x in merged}) == len(merged), "a position packed twice"
    assert {key(x) for x in merged} == {key(x) for x in deep_rows + shallow_rows}
    by_key = {key(x): x for x in merged}
    # Every position of the deep run carries the deep run's line (its own score and move).
    assert all(by_key[key(x)] == x for x in deep_rows)
    # The shallow run's labels of those positions differ somewhere (another search), else this
    # test could not tell which run won.
    shallow_by_key = {key(x): x for x in shallow_rows}
    assert any(shallow_by_key.get(key(x), x) != x for x in deep_rows)
    # The others come from the shallow run.
    assert all(by_key[key(x)] == x for x in shallow_rows if key(x) not in {key(y) for y in deep_rows})
    bad = subprocess.run([sys.executable, SCRIPT, "pack", "--dir", str(tmp_path / "nothing"), "--out", str(out)],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "not a label run directory" in bad.stderr


def test_other_settings_and_a_missing_teacher_are_refused(games, tmp_path):
    gfile, _ = games
    d = tmp_path / "run"
    label(d, gfile, 1)
    r = label(d, gfile, 1, nodes=150, ok=False)
    assert r.returncode != 0 and "other settings" in r.stderr + r.stdout
    r = label(tmp_path / "other", gfile, 1, ok=False, teacher=str(tmp_path / "no-such-engine"))
    assert r.returncode != 0 and "no-such-engine" in r.stderr + r.stdout
