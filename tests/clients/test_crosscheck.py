"""pytest: kishi's rules against cshogi and python-chess (see crosscheck.py), plus constructed
positions for every special rule, whose outcomes are asserted here and also compared with the
references."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crosscheck  # noqa: E402

# (game line, expected outcome at its last position, moves that must / must not be legal there)
SHOGI_CASES = [
    # Pawn-drop mate is illegal: 5b is covered by the gold, every escape is blocked.
    ("sfen 3lkl3/3s1s3/4G4/9/9/9/9/9/4K4 b P 1", "none", [], ["P*5b"]),
    # The same drop with an escape square (4a) is a legal check.
    ("sfen 3lk4/3s1s3/4G4/9/9/9/9/9/4K4 b P 1", "none", ["P*5b"], []),
    # Pawn-drop mate by an interposition while in check (the checking rook is pinned).
    ("sfen 3lkl3/K4r3/4G4/9/8B/9/9/9/9 b P 1", None, [], ["P*5b"]),
    # Nifu: no pawn drop on file 5; dead pieces: no P/L drop on rank a, no N drop on ranks a-b,
    # and the pawn on 1b and the knight on 2d must promote.
    (
        "sfen 4k4/8P/9/7N1/9/9/4P4/9/4K4 b LNP 1",
        "none",
        ["1b1a+", "2d3b+", "P*4b", "L*4b", "N*4c"],
        ["P*5b", "P*5c", "P*4a", "L*4a", "N*4a", "N*4b", "1b1a", "2d1b+", "2d3b"],
    ),
    # No legal move and not in check is still a loss in shogi (no stalemate draw).
    ("sfen 8k/6G2/8P/9/9/9/9/9/K8 w - 1", "win:first:checkmate", [], []),
    # A mate in the usual sense.
    ("sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", "win:first:checkmate", [], []),
    # Perpetual check: the rook checks with every move; the 4th occurrence (white to move) wins
    # for white, the checked side.
    (
        "sfen 4k4/9/9/9/3R5/9/9/9/8K b - 1 moves 6e5e 5a4a 5e4e 4a5a 4e5e 5a4a 5e4e 4a5a 4e5e"
        " 5a4a 5e4e 4a5a 4e5e",
        "win:second:perpetual",
        [],
        [],
    ),
    # ... and one ply later the 4th occurrence has the checker to move: it loses.
    (
        "sfen 4k4/9/9/9/3R5/9/9/9/8K b - 1 moves 6e5e 5a4a 5e4e 4a5a 4e5e 5a4a 5e4e 4a5a 4e5e"
        " 5a4a 5e4e 4a5a 4e5e 5a4a",
        "win:second:perpetual",
        [],
        [],
    ),
    # A plain fourfold repetition without checks is a draw; the third occurrence is not.
    (
        "sfen 4k4/9/9/9/R8/9/9/9/8K b - 1 moves 9e8e 5a4a 8e9e 4a5a 9e8e 5a4a 8e9e 4a5a 9e8e"
        " 5a4a 8e9e 4a5a",
        "draw:repetition",
        [],
        [],
    ),
    (
        "sfen 4k4/9/9/9/R8/9/9/9/8K b - 1 moves 9e8e 5a4a 8e9e 4a5a 9e8e 5a4a 8e9e 4a5a",
        "none",
        [],
        [],
    ),
    # Checks by only one side during part of the cycle: a draw.
    (
        "sfen 4k4/9/9/9/3R5/9/9/9/8K b - 1 moves 6e5e 5a4a 5e6e 4a5a 6e5e 5a4a 5e6e 4a5a 6e5e"
        " 5a4a 5e6e 4a5a 6e5e",
        "draw:repetition",
        [],
        [],
    ),
    # Declaration positions (27-point rule, compared with cshogi's is_nyugyoku): sente at exactly
    # 28 points, one short; gote at exactly 27, one short.
    ("sfen +P+P+P+P+P+P+P+P+P/+P8/4K4/9/9/9/9/9/4k4 b 2RB3P 1", "none", [], []),
    ("sfen +P+P+P+P+P+P+P+P+P/+P8/4K4/9/9/9/9/9/4k4 b 2RB2P 1", "none", [], []),
    ("sfen 4K4/9/9/9/9/9/4k4/+p8/+p+p+p+p+p+p+p+p+p w 2rb2p 1", "none", [], []),
    ("sfen 4K4/9/9/9/9/9/4k4/+p8/+p+p+p+p+p+p+p+p+p w 2rbp 1", "none", [], []),
]

CHESS_CASES = [
    ("fen 4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "none", ["e5d6"], []),
    # En passant that would expose the king along the rank is illegal.
    ("fen 8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", "none", [], ["b5c6"]),
    # Castling out of check, through check, and with only b1 attacked (legal).
    ("fen 4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", "none", [], ["e1g1", "e1c1"]),
    ("fen 4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1", "none", ["e1c1"], ["e1g1"]),
    ("fen 1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "none", ["e1c1", "e1g1"], []),
    # Under-promotions.
    ("fen 8/P6k/8/8/8/8/8/K7 w - - 0 1", "none", ["a7a8q", "a7a8r", "a7a8b", "a7a8n"], []),
    # Fifty moves: the 100th quiet ply draws, unless it mates.
    ("fen 8/8/8/8/8/5k2/8/R3K3 w - - 99 80 moves e1d1", "draw:fifty", [], []),
    ("fen 8/8/8/8/8/5k2/8/R3K3 w - - 98 80 moves e1d1", "none", [], []),
    ("fen 7k/8/6K1/8/8/8/8/R7 w - - 99 80 moves a1a8", "win:first:checkmate", [], []),
    # Insufficient material, and positions that are not.
    ("fen 8/8/8/4k3/8/8/8/4K3 w - - 0 1", "draw:insufficient", [], []),
    ("fen 8/8/8/4k3/8/8/8/3BK3 w - - 0 1", "draw:insufficient", [], []),
    ("fen 8/8/8/4k3/8/8/8/3NK3 b - - 0 1", "draw:insufficient", [], []),
    ("fen 8/8/2b5/4k3/8/8/8/3BK3 w - - 0 1", "draw:insufficient", [], []),
    ("fen 8/8/3b4/4k3/8/8/8/3BK3 w - - 0 1", "none", [], []),
    ("fen 8/8/8/4k3/8/8/8/2NNK3 w - - 0 1", "none", [], []),
    # Stalemate and checkmate.
    ("fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "draw:stalemate", [], []),
    ("fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "win:first:checkmate", [], []),
    # Threefold repetition (the start position a third time), and the second time is not.
    (
        "startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
        "draw:repetition",
        [],
        [],
    ),
    ("startpos moves g1f3 g8f6 f3g1 f6g8", "none", [], []),
]


def _check_cases(game, cases):
    lines = [c[0] if not c[0].startswith("startpos") else "fen " + _chess_start() + c[0][8:] for c in cases]
    dump = crosscheck.run_dump(game, lines)
    for g, (line, outcome, must, must_not) in enumerate(cases):
        recs = dump[g]
        assert "error" not in recs[-1], (line, recs[-1])
        last = recs[-1]
        if outcome is not None:
            assert last["outcome"] == outcome, (line, last["outcome"])
        for mv in must:
            assert mv in last["moves"], (line, mv)
        for mv in must_not:
            assert mv not in last["moves"], (line, mv)
    return lines


def _chess_start():
    return "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_shogi_constructed_positions():
    lines = _check_cases("shogi", SHOGI_CASES)
    compared, diffs = crosscheck.check_shogi(lines, crosscheck.run_dump("shogi", lines))
    assert compared > len(lines)
    assert diffs == []


def test_chess_constructed_positions():
    lines = _check_cases("chess", CHESS_CASES)
    compared, diffs = crosscheck.check_chess(lines, crosscheck.run_dump("chess", lines))
    assert compared > len(lines)
    assert diffs == []


@pytest.mark.parametrize("game", ["shogi", "chess"])
def test_crosscheck_20000_positions(game):
    compared, diffs, outcomes = crosscheck.crosscheck(game, 20000)
    assert compared >= 20000
    assert diffs == [], diffs[:10]
    # The sample must reach game ends, or the outcome comparison proves little.
    assert sum(n for o, n in outcomes.items() if o != "none") >= 5, outcomes
