"""The search's switchable prunings (quiet SEE pruning, the table-adjusted pruning evaluation,
razoring, ProbCut, pruning by the reduced depth, the PV nodes' extra internal iterative
reduction), the prior-countermove bonus, Stockfish's tt-PV flag, six of its late-move-reduction terms,
two more history updates (an exact node's best move, a table cut-off's move), capture futility,
check extensions only from a depth, late move pruning at PV nodes and of checks, Stockfish's
static condition on the null move, its limit on quiescence evasions, its singular-quiet reduction,
the histories in futility and reverse futility margins, the correction histories (pawns, other
pieces, the last two moves), and the fifty-move damping of the evaluation; off in the standard table, some on in chess's; each set through a `tune` build's
options: each changes the chess search tree at a fixed depth between off and on (so the switch is
live), and with each one on the search still reports the exact mates of a few chess positions and
of shogi tsume problems (a pruning that cuts on a wrong bound shows up as a lost or wrong mate
score).

Run: python3 -m pytest tests/clients/test_search_switches.py -q
"""

import os
import re
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TSUME = os.path.join(HERE, "..", "..", "..", "shared", "data", "suites", "tsume_miniosl.tsv")

# Each switch at the value an A/B match tried (docs/search_report.md §17, §23–§25, §27).
SWITCHES = {"SeeQuietDepth": 4, "TtEvalAdjust": 1, "RazorDepth": 3, "ProbCutDepth": 5,
            "PruneLmrDepth": 1, "Rule50Damp": 200, "IirPvExtra": 2, "PriorCmBonus": 100,
            "TtPv": 1, "LmrParentCount": 7, "LmrCutoffs": 3, "LmrDeeper": 64,
            "HistoryExact": 1, "TtCutHistory": 1, "TtCaptureLmr": 1, "LmrChecks": 1,
            "LmrPvExtra": 0, "CaptureFutility": 100, "CheckExtDepth": 6, "LmpPv": 1,
            "LmpChecks": 1, "ContPlies": 6, "ThreatOrder": 40,
            "CheckOrder": 6000, "EnPrise": 40, "OrderWeights": 1,
            "CaptureSlack": 300, "FailHighReduce": 1, "NmpStatic": 100,
            "QsEvasions": 2, "SingularQuietLmr": 1, "FutilityHistory": 42, "RfpStat": 245,
            "CorrHist": 32, "CorrNonPawn": 32, "CorrCont": 32}
# The switches whose "off" (the standard value) is not 0.
OFF = {"LmrPvExtra": 2, "CheckExtDepth": 1, "ContPlies": 2}

# (FEN, depth, mate in moves)
CHESS_MATES = [
    ("6k1/5ppp/8/8/8/8/8/R6K w - - 0 1", 4, 1),
    ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 8, 2),
    ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 10, 3),
]
MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8"


def session(kishi, hello, options, commands):
    """Runs one protocol session up to the search's `bestmove` and returns its output lines."""
    lines = [hello] + [f"setoption name {k} value {v}" for k, v in options.items()]
    lines += ["isready"] + commands
    p = subprocess.Popen([kishi], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        p.stdin.write("\n".join(lines) + "\n")
        p.stdin.flush()
        out = []
        for line in p.stdout:
            out.append(line.rstrip("\n"))
            if line.startswith("bestmove") or line.startswith("checkmate"):
                break
        p.stdin.write("quit\n")
        p.stdin.flush()
        assert p.wait(timeout=60) == 0
    finally:
        if p.poll() is None:
            p.kill()
    errors = [x for x in out if "error" in x]
    assert not errors, errors
    return out


def last_info(out, depth):
    infos = [x for x in out if x.startswith(f"info depth {depth} ")]
    assert infos, out[-5:]
    return infos[-1]


def chess_search(kishi, options, fen, depth):
    out = session(kishi, "uci", options, [f"position fen {fen}", f"go depth {depth}"])
    return last_info(out, depth)


@pytest.mark.parametrize("name", sorted(SWITCHES))
def test_each_switch_changes_the_chess_tree(tune_kishi, name):
    nodes = lambda info: int(re.search(r" nodes (\d+)", info).group(1))
    # Off explicitly: chess's table turns some of them on by default.
    off = nodes(chess_search(tune_kishi, {name: OFF.get(name, 0)}, MIDDLEGAME, 11))
    on = nodes(chess_search(tune_kishi, {name: SWITCHES[name]}, MIDDLEGAME, 11))
    assert on != off, f"{name} left the tree unchanged ({on} nodes)"


@pytest.mark.parametrize("name", sorted(SWITCHES))
def test_chess_mates_are_exact_with_each_switch(tune_kishi, name):
    for fen, depth, moves in CHESS_MATES:
        info = chess_search(tune_kishi, {name: SWITCHES[name]}, fen, depth)
        assert f" score mate {moves} " in info, (fen, info)


@pytest.mark.parametrize("name", sorted(SWITCHES))
def test_tsume_mates_are_exact_with_each_switch(tune_kishi, name):
    with open(TSUME) as f:
        rows = [line.rstrip("\n").split("\t") for line in f.readlines()[1:] if line.strip()]
    assert len(rows) >= 25
    for row in rows[::3]:
        sfen, plies = row[1], int(row[2])
        out = session(tune_kishi, "usi", {name: SWITCHES[name]},
                      ["usinewgame", f"position sfen {sfen}", f"go depth {plies + 4}"])
        info = last_info(out, plies + 4)
        assert f" score mate {plies} " in info, (row[0], info)
