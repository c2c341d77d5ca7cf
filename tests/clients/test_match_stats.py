"""Unit tests of scripts/matchlib: statistics, clocks, small parsers.

Run: python3 -m pytest tests/clients/test_match_stats.py -q
"""

import math
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))

from matchlib import stats as S  # noqa: E402
from matchlib.openings import parse_chess_line, parse_shogi_line  # noqa: E402
from matchlib.timecontrol import Clocks, TimeControl, parse_tc, parse_tc_spec  # noqa: E402
from matchlib.usi_shogi import Adjudication, ResignTracker, parse_score, usi_go_command  # noqa: E402


# ------------------------------------------------------------------- Elo ---

def test_elo_of_known_scores():
    assert S.elo_from_score(0.6) == pytest.approx(70.4365, abs=1e-3)   # the classic +70.4
    assert S.elo_from_score(0.75) == pytest.approx(190.8485, abs=1e-3)
    assert S.elo_from_score(0.5) == 0.0
    assert S.elo_from_score(0.4) == pytest.approx(-70.4365, abs=1e-3)
    assert S.elo_from_score(1.0) == math.inf and S.elo_from_score(0.0) == -math.inf


def test_score_from_elo_inverts():
    for e in (-400, -70.4, 0, 5, 123.4, 800):
        assert S.elo_from_score(S.score_from_elo(e)) == pytest.approx(e, abs=1e-9)
    assert S.score_from_elo(400) == pytest.approx(10 / 11)


def test_trinomial_interval_hand_computed():
    t = S.trinomial(30, 40, 30)
    assert t["score"] == 0.5
    # per-game variance: (30 * 0.25 + 40 * 0 + 30 * 0.25) / 100
    assert t["variance"] == pytest.approx(0.15)
    assert t["stderr"] == pytest.approx(math.sqrt(0.15 / 100))
    hi = 0.5 + 1.959964 * math.sqrt(0.0015)          # 0.575909...
    assert t["elo_high"] == pytest.approx(-400 * math.log10(1 / hi - 1), abs=1e-3)
    assert t["elo_high"] == pytest.approx(53.158, abs=1e-3)
    assert t["elo_low"] == pytest.approx(-53.158, abs=1e-3)
    assert t["elo_error"] == pytest.approx(53.158, abs=1e-3)


def test_trinomial_sixty_percent():
    t = S.trinomial(50, 20, 30)   # score 0.6
    assert t["score"] == pytest.approx(0.6)
    assert t["elo"] == pytest.approx(70.4365, abs=1e-3)
    # variance: (50*0.16 + 20*0.01 + 30*0.36)/100 = 0.19
    assert t["variance"] == pytest.approx(0.19)
    assert t["elo_low"] < t["elo"] < t["elo_high"]


def test_trinomial_all_wins_has_no_finite_elo():
    t = S.trinomial(4, 0, 0)
    assert t["elo"] is None and t["score"] == 1.0


def test_wilson_interval_hand_computed():
    # 1.5 points of 100 games: p = 0.015, z = 1.959964
    z, n, p = 1.959964, 100, 0.015
    center = (p + z * z / 200) / (1 + z * z / 100)                     # 0.032936
    half = z * math.sqrt(p * (1 - p) / n + z * z / 40000) / (1 + z * z / 100)
    lo, hi = S.wilson_interval(1.5, 100)
    assert lo == pytest.approx(center - half, abs=1e-6) and hi == pytest.approx(center + half, abs=1e-6)
    assert lo == pytest.approx(0.00346, abs=1e-4) and hi == pytest.approx(0.06241, abs=1e-4)
    t = S.trinomial(1, 1, 98)
    assert t["elo_low"] is None                      # the normal interval is open-ended here
    assert t["wilson_elo_low"] == pytest.approx(S.elo_from_score(lo))
    assert t["wilson_elo_high"] == pytest.approx(S.elo_from_score(hi))
    assert t["wilson_elo_low"] < t["elo"] < t["wilson_elo_high"]
    assert S.wilson_interval(0, 10)[0] == 0.0 and S.trinomial(0, 0, 10)["wilson_elo_low"] is None


def test_los():
    assert S.los_wl(10, 5) == pytest.approx(0.5 * (1 + math.erf(5 / math.sqrt(30))))
    assert S.los_wl(10, 5) == pytest.approx(0.90165, abs=1e-5)
    assert S.los_wl(7, 7) == 0.5
    assert S.los_wl(0, 0) is None
    assert S.trinomial(10, 99, 5)["los"] == pytest.approx(0.90165, abs=1e-5)   # draws carry no information


# ----------------------------------------------------------- pentanomial ---

def test_pentanomial_variance_hand_computed():
    p = S.pentanomial([1, 2, 3, 2, 1])
    assert p["pairs"] == 9 and p["score"] == 0.5
    # (1*0.25^2*... ) pair scores 0,.25,.5,.75,1 around .5: (0.25+2*0.0625+0+2*0.0625+0.25)/9
    assert p["variance"] == pytest.approx(0.75 / 9)
    assert p["stderr"] == pytest.approx(math.sqrt(0.75 / 81))


def test_pentanomial_skewed():
    counts = [0, 1, 2, 3, 4]  # 10 pairs
    p = S.pentanomial(counts)
    mean = (0.25 * 1 + 0.5 * 2 + 0.75 * 3 + 1.0 * 4) / 10
    var = (1 * (0.25 - mean) ** 2 + 2 * (0.5 - mean) ** 2 + 3 * (0.75 - mean) ** 2 + 4 * (1 - mean) ** 2) / 10
    assert p["score"] == pytest.approx(mean) and mean == pytest.approx(0.75)
    assert p["variance"] == pytest.approx(var) and var == pytest.approx(0.0625)
    assert p["elo"] == pytest.approx(190.8485, abs=1e-3)
    assert p["los"] == pytest.approx(S.phi((0.75 - 0.5) / math.sqrt(0.0625 / 10)))


def test_pentanomial_counts_from_pairs():
    pairs = [(1, 0), (0.5, 0.5), (1, 1), (0, 0), (1, 0.5), (0, 0.5), (0, 1)]
    assert S.pentanomial_counts(pairs) == [1, 1, 3, 1, 1]


def test_pentanomial_variance_smaller_than_trinomial_for_correlated_pairs():
    # pairs where each opening is won by the side that starts: always WL -> DD class
    p = S.pentanomial([0, 0, 20, 0, 0])
    t = S.trinomial(20, 0, 20)
    assert p["variance"] == 0.0 and t["variance"] == pytest.approx(0.25)


# ------------------------------------------------------------------ SPRT ---

def _independent_trinomial_llr(elo0, elo1, L, D, W):
    """Constrained MLE by 1-D golden-section search: with mean s fixed,
    q_D = t, q_W = s - t/2, q_L = 1 - s - t/2."""
    def best_loglik(s):
        f = lambda t: L * math.log(1 - s - t / 2) + D * math.log(t) + W * math.log(s - t / 2)  # noqa: E731
        lo, hi = 1e-12, 2 * min(s, 1 - s) - 1e-12
        g = (math.sqrt(5) - 1) / 2
        for _ in range(300):
            a, b = hi - g * (hi - lo), lo + g * (hi - lo)
            if f(a) < f(b):
                lo = a
            else:
                hi = b
        return f((lo + hi) / 2)
    s0, s1 = S.score_from_elo(elo0), S.score_from_elo(elo1)
    return best_loglik(s1) - best_loglik(s0)


@pytest.mark.parametrize("wdl", [(330, 400, 300), (1100, 2000, 1000), (55, 20, 25), (40, 90, 60)])
@pytest.mark.parametrize("elos", [(0, 10), (-1.75, 0.25), (0, 5)])
def test_llr_matches_independent_constrained_mle(wdl, elos):
    W, D, L = wdl
    got = S.llr_logistic(elos[0], elos[1], [L, D, W])
    assert got == pytest.approx(_independent_trinomial_llr(elos[0], elos[1], L, D, W), abs=1e-6)


def test_llr_binary_closed_form():
    # no draws: the MLE with mean s is Bernoulli(s); only the 1e-3 regularization of D differs
    s1 = S.score_from_elo(5)
    closed = 60 * math.log(s1 / 0.5) + 40 * math.log((1 - s1) / 0.5)
    assert S.llr_logistic(0, 5, [40, 0, 60]) == pytest.approx(closed, abs=1e-4)
    assert closed == pytest.approx(0.27747, abs=1e-5)


def test_llr_close_to_normal_approximation_for_large_samples():
    for counts in ([1000, 2000, 1100], [300, 400, 330]):
        exact = S.llr_logistic(-1.75, 0.25, counts)
        approx = S.llr_normal_approx(-1.75, 0.25, counts)
        assert exact == pytest.approx(approx, rel=0.01)


def test_mle_expected_is_the_constrained_optimum():
    # KKT: q has mean s, sums to 1, and p_i/q_i is affine in a_i (=> optimum of the concave problem)
    pdf = [(0.0, 0.1), (0.25, 0.2), (0.5, 0.4), (0.75, 0.2), (1.0, 0.1)]
    q = S.mle_expected(pdf, 0.56)
    assert sum(p for _, p in q) == pytest.approx(1.0)
    assert sum(a * p for a, p in q) == pytest.approx(0.56)
    ratios = [p / qq for (_, p), (_, qq) in zip(pdf, q)]
    slope = (ratios[-1] - ratios[0]) / 1.0
    for (a, _), r in zip(pdf, ratios):
        assert r == pytest.approx(ratios[0] + slope * a)


def test_sprt_bounds_and_decisions():
    lo, hi = S.sprt_bounds(0.05, 0.05)
    assert lo == pytest.approx(-2.944439, abs=1e-6) and hi == pytest.approx(2.944439, abs=1e-6)
    assert S.sprt_bounds(0.05, 0.1)[0] == pytest.approx(math.log(0.1 / 0.95))
    strong = S.sprt(300, 100, 100, 0, 10)
    assert strong["llr"] > hi and strong["decision"] == "H1"
    weak = S.sprt(100, 100, 300, 0, 10)
    assert weak["llr"] < lo and weak["decision"] == "H0"
    undecided = S.sprt(10, 10, 9, 0, 10)
    assert lo < undecided["llr"] < hi and undecided["decision"] is None
    assert S.sprt(0, 0, 0, 0, 5)["llr"] == 0.0


def test_pentanomial_llr_runs_and_has_the_right_sign():
    assert S.llr_logistic(0, 10, [5, 20, 50, 30, 15]) > 0
    assert S.llr_logistic(0, 10, [15, 30, 50, 20, 5]) < 0


# ---------------------------------------------------------------- clocks ---

def test_parse_tc():
    assert parse_tc("10+0.1") == (10.0, 0.1)
    assert parse_tc("60") == (60.0, 0.0)
    with pytest.raises(ValueError):
        parse_tc("ten")


def test_parse_tc_spec():
    base = TimeControl(main=10, inc=0.1, margin=0.25)
    t = parse_tc_spec("nodes=20000", base)
    assert t.kind == "nodes" and t.nodes == 20000 and t.margin == 0.25
    t = parse_tc_spec("time=60,byoyomi=1,margin=1")
    assert t.kind == "clock" and t.main == 60 and t.byoyomi == 1 and t.margin == 1
    assert parse_tc_spec("tc=5+0.05").inc == 0.05
    with pytest.raises(ValueError):
        parse_tc_spec("bogus=1")


def test_increment_clock_and_forfeit_with_margin():
    c = Clocks([TimeControl(main=1.0, inc=0.1, margin=0.05)] * 2)
    assert c.deadline(0) == pytest.approx(1.05)
    assert not c.charge(0, 0.5)
    assert c.remaining[0] == pytest.approx(0.6)       # 1.0 - 0.5 + 0.1
    assert not c.charge(0, 0.63)                      # over by 0.03 < margin: not lost, clock at 0 + inc
    assert c.remaining[0] == pytest.approx(0.1)
    assert c.charge(0, 0.2)                           # 0.2 > 0.1 + 0.05: forfeit
    assert c.remaining[1] == 1.0


def test_byoyomi_clock():
    c = Clocks([TimeControl(main=2.0, byoyomi=1.0, margin=0.1)] * 2)
    assert c.allowed(1) == 3.0
    assert not c.charge(1, 2.5)                       # main time used up, 0.5 s of byoyomi
    assert c.remaining[1] == 0.0
    assert c.deadline(1) == pytest.approx(1.1)
    assert not c.charge(1, 1.05)                      # within the margin
    assert c.charge(1, 1.2)
    bare = Clocks([TimeControl(byoyomi=0.5, margin=0.0)] * 2)
    assert bare.charge(0, 0.51) and not bare.charge(0, 0.49)


def test_movetime_nodes_depth_limits():
    c = Clocks([TimeControl(movetime=0.05, margin=0.1), TimeControl(nodes=1000, hard_timeout=7)])
    assert c.deadline(0) == pytest.approx(0.15)
    assert c.charge(0, 0.16) and not c.charge(0, 0.14)
    assert c.deadline(1) == 7 and not c.charge(1, 6.9) and c.charge(1, 7.1)
    with pytest.raises(ValueError):
        TimeControl()
    with pytest.raises(ValueError):
        TimeControl(main=10, inc=1, byoyomi=1)


def test_usi_go_commands():
    c = Clocks([TimeControl(main=10, inc=0.1)] * 2)
    c.charge(0, 2.0)
    assert usi_go_command(c, 1) == "go btime 8100 wtime 10000 binc 100 winc 100"
    c = Clocks([TimeControl(main=0, byoyomi=1)] * 2)
    assert usi_go_command(c, 0) == "go btime 0 wtime 0 byoyomi 1000"
    c = Clocks([TimeControl(movetime=0.05), TimeControl(nodes=500)])
    assert usi_go_command(c, 0) == "go btime 0 wtime 0 byoyomi 50"
    assert usi_go_command(c, 1) == "go nodes 500"


# ------------------------------------------------------- small parsers ---

def test_parse_score():
    assert parse_score("info depth 3 score cp -42 nodes 10 pv 7g7f".split()) == -42
    assert parse_score("info score mate 3 pv a b c".split()) == 100000 - 3
    assert parse_score("info score mate -2".split()) == -(100000 - 2)
    assert parse_score("info score mate +".split()) == 100000
    assert parse_score("info score cp 12 lowerbound".split()) == 12
    assert parse_score("info depth 3 nodes 10".split()) is None


def test_resign_tracker():
    r = ResignTracker(Adjudication(resign_score=500, resign_moves=2, resign_twosided=True))
    assert r.update(0, -600) is None
    assert r.update(1, 600) is None
    assert r.update(0, -700) is None    # side 1 has only one confirming score so far
    assert r.update(1, 650) == 0        # both agree twice -> side 0 resigns
    one = ResignTracker(Adjudication(resign_score=500, resign_moves=2, resign_twosided=False))
    assert one.update(1, -600) is None and one.update(0, 0) is None and one.update(1, -501) == 1
    reset = ResignTracker(Adjudication(resign_score=500, resign_moves=2, resign_twosided=False))
    assert reset.update(0, -600) is None and reset.update(0, -100) is None and reset.update(0, -600) is None
    off = ResignTracker(Adjudication(resign_score=None))
    assert off.update(0, -99999) is None and off.update(0, -99999) is None


def test_opening_line_parsers():
    o = parse_shogi_line("startpos moves 7g7f 3c3d")
    assert o.start == "startpos" and o.moves == ["7g7f", "3c3d"]
    o = parse_shogi_line("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 2g2f")
    assert o.start.startswith("lnsgkgsnl") and o.moves == ["2g2f"]
    o = parse_shogi_line("4k4/9/9/9/9/9/9/9/4K4 b G 1")
    assert o.moves == [] and o.start.endswith("b G 1")
    o = parse_chess_line('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "x"; c0 "moves e2e4";')
    assert o.moves == ["e2e4"] and o.start.startswith("rnbqkbnr/pppppppp/8/8/8/8")
    o = parse_chess_line("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1")
    assert o.moves == [] and o.start.startswith("rnbqkbnr/pppppppp/8/8/3P4")
    with pytest.raises(ValueError):
        parse_chess_line('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c0 "moves d2d4";')
