"""scripts/selfplay_chess.py end to end with the kishi binary at a tiny node count: every game
replays legally from a book line plus the random plies, a decisive game by mate ends in mate, the
same settings give the same games, a killed run (a half-written line) resumes to the same file,
other settings are refused, and `pack` writes the games in game order in the format
scripts/label_chess.py reads.

Run: python3 -m pytest tests/clients/test_selfplay_chess.py -q
"""

import lzma
import os
import shutil
import subprocess
import sys

import chess
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "scripts", "selfplay_chess.py")
KISHI = os.path.join(REPO, "target", "release", "kishi")
BOOK = os.path.join(REPO, "book", "chess_openings_2000.epd")

pytestmark = pytest.mark.skipif(not os.path.exists(KISHI), reason="no kishi binary (cargo build --release)")

sys.path.insert(0, os.path.join(REPO, "scripts"))
from matchlib.openings import load_openings  # noqa: E402


def run(d, games=4, nodes=300, plies=2, ok=True):
    r = subprocess.run([sys.executable, SCRIPT, "run", "--dir", str(d), "--games", str(games), "--nodes",
                        str(nodes), "--random-plies", str(plies), "--workers", "2", "--max-plies", "70",
                        "--engine", KISHI, "--quiet"], capture_output=True, text=True, timeout=600)
    if ok:
        assert r.returncode == 0, r.stdout + r.stderr
    return r


def lines(d):
    return {w: open(os.path.join(d, f"games-w{w}.txt")).read() for w in (0, 1)}


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    d = tmp_path_factory.mktemp("sp") / "a"
    run(d)
    return d


def test_games_replay_from_book_plus_random_plies(first):
    book = load_openings(BOOK, "chess")
    prefixes = {tuple(o.moves) for o in book}
    games = [row for text in lines(first).values() for row in text.splitlines()]
    assert len(games) == 4
    for row in games:
        w = row.split()
        result, plies = w[0], int(w[1])
        assert w[2] == "fen" and " ".join(w[3:9]) == chess.STARTING_FEN
        moves = w[w.index("moves") + 1:]
        assert len(moves) == plies
        assert any(tuple(moves[:len(p)]) == p and len(moves) > len(p) + 2 for p in prefixes)
        b = chess.Board()
        for m in moves:
            mv = chess.Move.from_uci(m)
            assert mv in b.legal_moves, row
            b.push(mv)
        assert result in ("1-0", "0-1", "1/2-1/2")
        if b.is_checkmate():
            assert result == ("0-1" if b.turn == chess.WHITE else "1-0")


def test_same_settings_same_games_and_resume_after_kill(first, tmp_path):
    again = tmp_path / "b"
    run(again)
    assert lines(again) == lines(first)
    # A kill in the middle of writing a game: half a line at the end, one game lost.
    cut = tmp_path / "c"
    shutil.copytree(again, cut)
    p = os.path.join(cut, "games-w1.txt")
    text = open(p).read()
    last = text.rstrip("\n").rfind("\n") + 1
    open(p, "w").write(text[:last] + text[last:last + 25])
    run(cut)
    assert lines(cut) == lines(first)


def test_other_settings_a_missing_engine_and_a_bad_book_are_refused(first, tmp_path):
    r = run(first, nodes=301, ok=False)
    assert r.returncode != 0 and "other settings" in r.stderr
    for extra, words in ((["--engine", str(tmp_path / "nope")], "not an executable"),
                         (["--book", str(tmp_path / "nobook.epd")], "--book")):
        r = subprocess.run([sys.executable, SCRIPT, "run", "--dir", str(tmp_path / "x"), "--games", "2", *extra],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_pack_is_in_game_order_and_label_chess_reads_it(first, tmp_path):
    out = tmp_path / "g.txt.xz"
    r = subprocess.run([sys.executable, SCRIPT, "pack", "--dir", str(first), "--out", str(out)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    packed = lzma.open(out, "rt").read().splitlines()
    per = {w: t.splitlines() for w, t in lines(first).items()}
    assert packed == [per[0][0], per[1][0], per[0][1], per[1][1]]
    lab = tmp_path / "lab"
    r = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "label_chess.py"), "run", "--dir",
                        str(lab), "--games", str(out), "--teacher", KISHI, "--nodes", "100", "--rate", "0.5",
                        "--workers", "1"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert len(open(lab / "labels-w0.epd").read().splitlines()) > 10
