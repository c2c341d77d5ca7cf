"""Tests of the opening-set builder (scripts/make_openings.py) and of the
committed books in book/.

Run: python3 -m pytest tests/clients/test_match_openings.py -q
"""

import os
import random
import sys

import chess
import cshogi
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "scripts"))

import make_openings as MO  # noqa: E402
from matchlib.openings import load_openings  # noqa: E402

CHESS_BOOK = os.path.join(REPO, "book", "chess_openings.epd")
# The 2,000-opening book of the fixed-node SPRTs (same builder, --count 2000).
CHESS_BOOK_2000 = os.path.join(REPO, "book", "chess_openings_2000.epd")
SHOGI_BOOK = os.path.join(REPO, "book", "shogi_openings.sfen")
SHOGI_META = os.path.join(REPO, "book", "shogi_openings.meta.tsv")
# The 977-opening shogi book of fixed-node A/B matches past 400 games.
SHOGI_BOOK_977 = os.path.join(REPO, "book", "shogi_openings_977.sfen")
SHOGI_META_977 = os.path.join(REPO, "book", "shogi_openings_977.meta.tsv")
START = chess.STARTING_FEN


# ------------------------------------------------------------- builder ---

def test_parse_game_line():
    r, kind, start, moves = MO.parse_game_line(f"1-0 3 fen {START} moves e2e4 e7e5 g1f3")
    assert (r, kind, start, moves) == ("1-0", "fen", START, ["e2e4", "e7e5", "g1f3"])
    with pytest.raises(ValueError):
        MO.parse_game_line(f"1-0 4 fen {START} moves e2e4")       # ply count mismatch
    with pytest.raises(ValueError):
        MO.parse_game_line("hello world")


def _games(n, length=30):
    rng = random.Random(0)
    out = []
    for i in range(n):
        b = chess.Board()
        moves = []
        for _ in range(length):
            ms = sorted(b.legal_moves, key=lambda m: m.uci())
            if not ms:
                break
            m = rng.choice(ms)
            b.push(m)
            moves.append(m.uci())
        out.append(("*", "fen", START, moves))
    return out


def test_prefix_candidates_lengths_and_determinism():
    games = _games(40)
    games.append(("*", "fen", START, ["e2e4"] * 1))          # too short for any prefix
    a = MO.prefix_candidates(games, random.Random(5), 8, 16, "t")
    b = MO.prefix_candidates(games, random.Random(5), 8, 16, "t")
    assert a == b and len(a) == 40
    assert all(8 <= len(c["moves"]) <= 16 for c in a)
    assert len({len(c["moves"]) for c in a}) > 3              # lengths vary
    for c in a:
        gi = int(c["source"].split(":")[1]) - 1
        assert games[gi][3][:len(c["moves"])] == c["moves"]   # a real prefix of its game
    assert MO.prefix_candidates(games, random.Random(6), 8, 16, "t") != a


def test_dedupe_merges_transpositions_and_drops_checks():
    c1 = {"start": START, "moves": "g1f3 g8f6 b1c3 b8c6".split()}
    c2 = {"start": START, "moves": "b1c3 b8c6 g1f3 g8f6".split()}    # same position, other order
    c3 = {"start": START, "moves": "e2e4 e7e5".split()}
    c4 = {"start": START, "moves": "e2e4 f7f6 d1h5".split()}          # black to move in check
    kept = list(MO.dedupe([c1, c2, c3, c4], MO.chess_key))
    assert [k["moves"] for k in kept] == [c1["moves"], c3["moves"]]


def test_shogi_key_dedupes_transpositions():
    a = {"start": "startpos", "moves": "7g7f 3c3d 2g2f 8c8d".split()}
    b = {"start": "startpos", "moves": "2g2f 8c8d 7g7f 3c3d".split()}
    c = {"start": "startpos", "moves": "7g7f 3c3d 2g2f 4c4d".split()}
    bad = {"start": "startpos", "moves": "7g7f 7g7f".split()}
    kept = list(MO.dedupe([a, b, c, bad], MO.shogi_key))
    assert [k["moves"] for k in kept] == [a["moves"], c["moves"]]


def test_select_balanced_filters_by_score_and_stops():
    cands = [{"id": i} for i in range(10)]
    scores = {0: 10, 1: 200, 2: -149, 3: -150, 4: None, 5: 0, 6: 5, 7: 1}
    sel = MO.select_balanced(iter(cands), lambda c: scores.get(c["id"]), count=3, max_cp=150)
    assert [c["id"] for c in sel] == [0, 2, 5]
    assert [c["score"] for c in sel] == [10, -149, 0]


def test_book_walk_follows_the_tree_with_weights():
    # toy tree: root -> a (1000 games) | b (1 game); a -> c; b -> d; c -> e
    edges = {"r": [("a", 1000), ("b", 1)], "ra": [("c", 5)], "rb": [("d", 5)], "rac": [("e", 5)]}
    walks = MO.book_walk_candidates(edges, "r", lambda k, m: k + m, 50, random.Random(1), 2, 3, "toy")
    assert walks and all(2 <= len(w["moves"]) <= 3 for w in walks)
    for w in walks:
        key = "r"
        for m in w["moves"]:
            assert m in [x for x, _ in edges[key]]
            key += m
    firsts = [w["moves"][0] for w in walks]
    assert firsts.count("a") > firsts.count("b")
    # under b the book ends after 2 plies: walks that drew 3 plies there were dropped
    assert all(len(w["moves"]) == 2 for w in walks if w["moves"][0] == "b")
    assert any(len(w["moves"]) == 3 for w in walks)


@pytest.mark.skipif(not os.path.exists("/usr/games/stockfish"), reason="stockfish not installed")
def test_build_chess_end_to_end_small(tmp_path):
    try:
        MO.data_dir()
    except SystemExit:
        pytest.skip("shared data not available")
    out = tmp_path / "o.epd"
    assert MO.main(["chess", "--out", str(out), "--count", "5", "--depth", "6", "--seed", "3"]) == 0
    ops = load_openings(str(out), "chess")
    assert len(ops) == 5 and all(8 <= len(o.moves) <= 16 for o in ops)
    for line in out.read_text().splitlines():
        _, epd_ops = chess.Board.from_epd(line)
        assert abs(epd_ops["ce"]) < 150 and epd_ops["acd"] == 6


# ------------------------------------------------------- committed books ---

@pytest.mark.parametrize("book,count", [(CHESS_BOOK, 200), (CHESS_BOOK_2000, 2000)])
def test_chess_book(book, count):
    ops = load_openings(book, "chess")            # replays every c0 move list and checks the EPD
    assert len(ops) == count
    keys = set()
    for o, line in zip(ops, open(book, encoding="utf-8").read().splitlines()):
        assert 8 <= len(o.moves) <= 16
        b = chess.Board()
        for m in o.moves:
            b.push_uci(m)
        assert not b.is_check() and not b.is_game_over()
        keys.add(b.epd())
        _, epd_ops = chess.Board.from_epd(line)
        assert abs(epd_ops["ce"]) < 150
    assert len(keys) == len(ops)                   # distinct positions


@pytest.mark.parametrize("book,meta_path,count", [(SHOGI_BOOK, SHOGI_META, 200),
                                                  (SHOGI_BOOK_977, SHOGI_META_977, 977)])
def test_shogi_book(book, meta_path, count):
    ops = load_openings(book, "shogi")
    assert len(ops) == count
    meta = [ln.split("\t") for ln in open(meta_path, encoding="utf-8").read().splitlines()[1:]]
    assert len(meta) == len(ops)
    keys = set()
    for o, m in zip(ops, meta):
        assert o.start == "startpos" and 8 <= len(o.moves) <= 16 and int(m[1]) == len(o.moves)
        b = cshogi.Board()
        for u in o.moves:
            mv = b.move_from_usi(u)
            assert mv and mv in set(b.legal_moves)
            b.push(mv)
        assert not b.is_check() and not b.is_game_over()
        keys.add(" ".join(b.sfen().split()[:3]))
        assert abs(int(m[2])) < 150
    assert len(keys) == len(ops)


def test_books_are_small_text():
    for p in (CHESS_BOOK, SHOGI_BOOK, SHOGI_META):
        assert os.path.getsize(p) < 200_000
    assert os.path.getsize(CHESS_BOOK_2000) < 500_000
    assert os.path.getsize(SHOGI_BOOK_977) + os.path.getsize(SHOGI_META_977) < 500_000
