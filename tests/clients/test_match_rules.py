"""Game rules and anomaly handling of scripts/match.py, with scripted fake engines.

A fake engine (written to a temporary file) answers the protocol and, on each
'go', takes the next action of its script: a move, 'resign', 'win', 'crash'
(exit), 'hang' (sleep, ignoring 'stop') or 'slow:<seconds>:<move>'.

Run: python3 -m pytest tests/clients/test_match_rules.py -q
"""

import json
import os
import subprocess
import sys

import chess
import cshogi
import cshogi.CSA
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "..", "scripts")
sys.path.insert(0, SCRIPTS)

from matchlib.timecontrol import TimeControl  # noqa: E402
from matchlib.uci_chess import UCIEngine, play_chess_game  # noqa: E402
from matchlib.usi_shogi import Adjudication, USIEngine, play_shogi_game  # noqa: E402
from matchlib.records import write_csa  # noqa: E402

FAKE = r'''
import sys, time
proto, script = sys.argv[1], [a for a in sys.argv[2].split(",") if a]
i = 0
for line in sys.stdin:
    tok = line.split()
    if not tok:
        continue
    c = tok[0]
    if c in ("usi", "uci"):
        print("id name fake-" + (sys.argv[3] if len(sys.argv) > 3 else "engine"))
        print(c + "ok", flush=True)
    elif c == "isready":
        print("readyok", flush=True)
    elif c == "go":
        a = script[i] if i < len(script) else "resign"
        i += 1
        if a == "crash":
            sys.exit(3)
        if a == "hang":
            time.sleep(20)
            continue
        if a.startswith("slow:"):
            _, secs, a = a.split(":")
            time.sleep(float(secs))
        print("info depth 1 score cp 0", flush=True)
        print("bestmove " + a, flush=True)
    elif c == "quit":
        break
'''

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
FAST = TimeControl(movetime=0.5, margin=0.5)


@pytest.fixture(scope="module")
def fake(tmp_path_factory):
    p = tmp_path_factory.mktemp("fake") / "fake_engine.py"
    p.write_text(FAKE)
    return str(p)


def usi(fake, script, name="x"):
    e = USIEngine([sys.executable, fake, "usi", ",".join(script), name])
    e.start()
    return e


def play(fake, s0, s1, start=START, opening=(), tc=FAST, adj=None):
    e0, e1 = usi(fake, s0, "a"), usi(fake, s1, "b")
    try:
        return play_shogi_game([e0, e1], start, list(opening), tc, adj or Adjudication(max_plies=0))
    finally:
        e0.quit()
        e1.quit()


def test_sennichite_is_a_draw(fake):
    out = play(fake, ["5i5h", "5h5i"] * 3, ["5a5b", "5b5a"] * 3)
    assert out.result == "1/2-1/2" and "sennichite" in out.reason
    assert len(out.moves) == 12          # the start position occurs for the fourth time after ply 12


def test_repetition_counts_opening_moves(fake):
    # the opening already repeats the start position once, so the fourth occurrence comes 4 plies sooner
    out = play(fake, ["5i5h", "5h5i"] * 3, ["5a5b", "5b5a"] * 3, opening=["5i5h", "5a5b", "5h5i", "5b5a"])
    assert out.result == "1/2-1/2" and len(out.moves) == 8


def test_perpetual_check_loses(fake):
    # sente's rook checks on the 5th and 4th files in turn, gote's king steps aside
    start = "4k4/9/9/9/5R3/9/9/9/4K4 b - 1"
    out = play(fake, ["4e5e", "5e4e"] * 3, ["5a4a", "4a5a"] * 3, start=start)
    assert out.result == "0-1" and "perpetual check" in out.reason and out.loser == 0
    assert len(out.moves) == 12


def test_perpetual_check_by_gote_loses(fake):
    # mirror: gote's rook checks, sente's king steps aside
    start = "4k4/9/9/9/5r3/9/9/9/4K4 w - 1"
    out = play(fake, ["5i4i", "4i5i"] * 3, ["4e5e", "5e4e"] * 3, start=start)
    assert out.result == "1-0" and "perpetual check" in out.reason and out.loser == 1


def test_illegal_move_loses(fake):
    out = play(fake, ["7g7f"], ["8b8i"])          # rook through its own pieces
    assert out.result == "1-0" and out.termination == "illegal_move" and out.loser == 1
    out = play(fake, ["garbage"], [])
    assert out.result == "0-1" and out.termination == "illegal_move"


def test_pawn_drop_mate_is_illegal(fake):
    # gote king 1a boxed in by its own knight (2a) and lance (2b); a pawn dropped on 1b, guarded by the
    # gold on 1c, would mate: forbidden (uchifuzume).  A gold drop there is legal and mates.
    start = "7nk/7l1/8G/9/9/9/9/9/4K4 b PG 1"
    legal = {cshogi.move_to_usi(m) for m in cshogi.Board(start).legal_moves}
    assert "P*1b" not in legal and "G*1b" in legal and "P*1d" in legal
    # without the guarding gold the king can take the pawn: the same drop is then legal
    assert "P*1b" in {cshogi.move_to_usi(m) for m in cshogi.Board("7nk/7l1/9/9/9/9/9/9/4K4 b P 1").legal_moves}
    out = play(fake, ["P*1b"], [], start=start)
    assert out.termination == "illegal_move" and out.loser == 0


def test_resign_and_checkmate(fake):
    out = play(fake, ["7g7f", "resign"], ["3c3d"])
    assert out.result == "0-1" and "resigned" in out.reason and out.termination == "normal"
    # G*5b mates: the side to move then has no legal move and loses without being asked
    out = play(fake, ["G*5b"], ["hang"], start="4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    assert out.result == "1-0" and out.reason == "checkmate"


def test_entering_king_declaration(fake):
    camp = "9/+P+P+P+P+P+P+P+P+P/+P3K4/9/9/9/9/9/4k4 b 2R2B4G4S4N4L8P 1"
    assert cshogi.Board(camp).is_nyugyoku()
    out = play(fake, ["win"], [], start=camp)
    assert out.result == "1-0" and "declared" in out.reason
    # the same declaration from the start position is invalid and loses
    out = play(fake, ["win"], [])
    assert out.result == "0-1" and out.termination == "illegal_move"


def test_crash_and_hang(fake):
    out = play(fake, ["7g7f", "crash"], ["3c3d"])
    assert out.result == "0-1" and out.termination == "crash" and out.loser == 0
    out = play(fake, ["7g7f"], ["hang"], tc=TimeControl(movetime=0.1, margin=0.1))
    assert out.result == "1-0" and out.termination == "time_forfeit" and out.loser == 1


def test_late_move_within_margin_is_accepted_and_beyond_is_forfeit(fake):
    tc = TimeControl(movetime=0.1, margin=0.6)
    out = play(fake, ["slow:0.3:7g7f", "resign"], ["3c3d"], tc=tc)
    assert out.termination == "normal" and out.moves[0]["move"] == "7g7f"
    tc = TimeControl(movetime=0.1, margin=0.05)
    out = play(fake, ["slow:0.4:7g7f"], ["3c3d"], tc=tc)
    assert out.termination == "time_forfeit" and out.loser == 0


def test_max_plies_draw_and_resign_adjudication(fake):
    out = play(fake, ["7g7f", "2g2f", "resign"], ["3c3d", "8c8d"], adj=Adjudication(max_plies=4))
    assert out.result == "1/2-1/2" and out.termination == "adjudication" and len(out.moves) == 4


def test_csa_record_roundtrip(fake, tmp_path):
    out = play(fake, ["5i5h", "5h5i"] * 3, ["5a5b", "5b5a"] * 3, opening=["7g7f", "3c3d"])
    path = tmp_path / "g.csa"
    write_csa(str(path), ["a", "b"], "startpos", ["7g7f", "3c3d"], out, info={"EVENT": "t"})
    parsed = cshogi.CSA.Parser.parse_file(str(path))[0]
    assert parsed.names == ["a", "b"]
    assert len(parsed.moves) == 2 + len(out.moves)
    assert [cshogi.move_to_usi(m) for m in parsed.moves][:3] == ["7g7f", "3c3d", "5i5h"]
    assert "%SENNICHITE" in path.read_text()


def test_chess_illegal_and_crash(fake):
    def eng(script):
        e = UCIEngine([sys.executable, fake, "uci", ",".join(script)])
        e.start()
        return e
    for s0, s1, term, loser in ((["e2e4"], ["e7e4"], "illegal_move", 1),
                                (["e2e4", "crash"], ["e7e5"], "crash", 0),
                                (["hang"], [], "time_forfeit", 0)):
        e0, e1 = eng(s0), eng(s1)
        try:
            out = play_chess_game([e0, e1], chess.STARTING_FEN, [], TimeControl(movetime=0.1, margin=0.2),
                                  Adjudication(max_plies=0))
        finally:
            e0.quit()
            e1.quit()
        assert out.termination == term and out.loser == loser, out


def test_chess_rules_end_games(fake):
    # fool's mate through the engines' moves
    e0 = UCIEngine([sys.executable, fake, "uci", "f2f3,g2g4"])
    e1 = UCIEngine([sys.executable, fake, "uci", "e7e5,d8h4"])
    e0.start()
    e1.start()
    try:
        out = play_chess_game([e0, e1], chess.STARTING_FEN, [], FAST, Adjudication(max_plies=0))
    finally:
        e0.quit()
        e1.quit()
    assert out.result == "0-1" and out.reason == "checkmate"


def test_cli_lists_anomalies_separately(fake, tmp_path):
    """Whole CLI with fake engines: engine 2 crashes in one game and plays an
    illegal move in the other; summary counts them apart from ordinary losses."""
    book = tmp_path / "book.sfen"
    book.write_text("startpos moves 7g7f 3c3d\n")
    out = tmp_path / "out"
    cmd = [sys.executable, os.path.join(SCRIPTS, "match.py"), "--game", "shogi", "--games", "2",
           "--movetime", "0.3", "--timemargin", "0.5", "--openings", str(book), "--out", str(out),
           "--no-progress", "--quiet",
           "--engine1", f"{sys.executable} {fake} usi 2g2f,resign one",
           "--engine2", f"{sys.executable} {fake} usi crash,9a9z two"]
    subprocess.run(cmd, check=True, timeout=120)
    s = json.loads((out / "summary.json").read_text())
    assert s["games_played"] == 2 and s["wins"] + s["draws"] + s["losses"] == 2
    a2 = s["anomalies"]["engine2"]
    # game 1: engine1 sente plays 2g2f, engine2 crashes; game 2: engine2 (sente) crashes at once on
    # a fresh process too -> two crashes
    assert a2["crash"] == 2 and s["wins"] == 2
    assert s["losses_by_reason"]["engine2"]["ordinary"] == 0
    assert sorted(g["game"] for g in s["anomalous_games"]) == [1, 2]
    assert len(list((out / "csa").glob("*.csa"))) == 2


def test_cli_sprt_stops_early(fake, tmp_path):
    """Engine 2 resigns at once in every game: the SPRT (0 vs 200 Elo) accepts H1
    long before the 60 planned games."""
    book = tmp_path / "book.sfen"
    book.write_text("startpos moves 7g7f 3c3d\n")
    out = tmp_path / "out"
    cmd = [sys.executable, os.path.join(SCRIPTS, "match.py"), "--game", "shogi", "--games", "60",
           "--movetime", "0.3", "--timemargin", "0.5", "--openings", str(book), "--out", str(out),
           "--no-progress", "--quiet", "--sprt", "--elo0", "0", "--elo1", "200",
           "--engine1", f"{sys.executable} {fake} usi " + ",".join(["2g2f"] * 60),
           "--engine2", f"{sys.executable} {fake} usi resign"]
    subprocess.run(cmd, check=True, timeout=120)
    s = json.loads((out / "summary.json").read_text())
    assert s["stopped_early"] and s["sprt"]["decision"] == "H1"
    assert s["wins"] == s["games_played"] < 60
    assert s["sprt"]["llr"] >= s["sprt"]["upper"]
    assert s["sprt"]["stopped_at_games"] == s["games_played"]
    assert s["losses_by_reason"]["engine2"]["ordinary"] == s["games_played"]


def test_cli_concurrency_plays_every_game_once(fake, tmp_path):
    book = tmp_path / "book.sfen"
    book.write_text("startpos moves 7g7f 3c3d\nstartpos moves 7g7f 8c8d\n")
    out = tmp_path / "out"
    cmd = [sys.executable, os.path.join(SCRIPTS, "match.py"), "--game", "shogi", "--games", "6",
           "--concurrency", "2", "--opening-order", "sequential",
           "--movetime", "0.3", "--timemargin", "0.5", "--openings", str(book), "--out", str(out),
           "--no-progress", "--quiet", "--name1", "A", "--name2", "B",
           "--engine1", f"{sys.executable} {fake} usi " + ",".join(["2g2f"] * 20),
           "--engine2", f"{sys.executable} {fake} usi resign"]
    subprocess.run(cmd, check=True, timeout=120)
    s = json.loads((out / "summary.json").read_text())
    assert [g["game"] for g in s["games"]] == [1, 2, 3, 4, 5, 6]
    assert [g["opening_index"] for g in s["games"]] == [0, 0, 1, 1, 0, 0]
    assert [g["players"][0] for g in s["games"]] == ["A", "B"] * 3
    assert s["wins"] == 6 and s["pentanomial"]["counts"] == [0, 0, 0, 0, 3]
    assert s["by_side"] == {"engine1_first": {"wins": 3, "draws": 0, "losses": 0},
                            "engine1_second": {"wins": 3, "draws": 0, "losses": 0}}
    assert sorted(p.name for p in (out / "csa").iterdir()) == [f"game_{i:04d}.csa" for i in range(1, 7)]


def test_draw_adjudication_by_score(fake):
    # The fakes report score 0 on every move: with draw adjudication from ply 2 over 3 plies the
    # game is a draw after its third move; without it the fakes play on.
    moves0, moves1 = ["7g7f", "2g2f", "2f2e"], ["3c3d", "8c8d", "8d8e"]
    adj = Adjudication(max_plies=0, draw_score=10, draw_moves=3, draw_after=2)
    out = play(fake, moves0, moves1, adj=adj)
    assert out.result == "1/2-1/2" and out.termination == "adjudication" and len(out.moves) == 3
    out = play(fake, moves0 + ["resign"], moves1, adj=Adjudication(max_plies=0))
    assert out.termination == "normal" and out.loser == 0
