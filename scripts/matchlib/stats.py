"""Match statistics: Elo, 95% intervals, LOS, pentanomial pairs and SPRT.

Conventions
-----------
* Everything is from the point of view of engine 1 ("first"): a win is a win
  of engine 1.
* Elo is the logistic Elo: score = 1 / (1 + 10^(-elo/400)).
* Intervals use the normal approximation on the sample mean of the score:
    - trinomial: game results 0, 1/2, 1 (W/D/L counts);
    - pentanomial: results of game pairs (same opening, colours swapped),
      pair score 0, 1/4, 1/2, 3/4, 1 (counts LL, LD+DL, DD+WL+LW, WD+DW, WW).
  The interval of the score, mean +- 1.95996 * sqrt(var / n), is mapped to Elo
  through the logistic formula; "error" is half its width in Elo (the way
  cutechess-cli prints "+- x").  For lopsided results, where that interval
  is open-ended, the trinomial part also gives a Wilson score interval.
* LOS (likelihood of superiority) on game counts is the usual
  0.5 * (1 + erf((W - L) / sqrt(2 (W + L)))); on pairs it is
  Phi((mean - 1/2) / stderr).
* SPRT: the generalized log-likelihood ratio for logistic Elo as fishtest
  computes it (``LLR_logistic`` in fishtest's stat_util.py, after M. Van den
  Bergh): the observed result distribution (zero counts regularized to 1e-3)
  is replaced, under H0 and H1, by the maximum-likelihood distribution on the
  same support whose mean is the score of elo0 and elo1 respectively, and
  LLR = N * sum_i p_i log(p1_i / p0_i).  The match uses the trinomial (W/D/L)
  LLR to stop; the pentanomial LLR is reported as well.  Bounds are Wald's:
  lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha).
"""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence, Tuple

Z95 = 1.959963984540054  # two-sided 95% normal quantile
REGULARIZE_EPS = 1e-3   # fishtest's regularization of empty result classes


# ---------------------------------------------------------------- basics ---

def score_from_elo(elo: float) -> float:
    """Expected score of a player `elo` points stronger (logistic model)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(score: float) -> float:
    """Logistic Elo difference for an expected score; +-inf at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # no -0.0


def phi(x: float) -> float:
    """Standard normal cumulative distribution function."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def los_wl(wins: int, losses: int) -> Optional[float]:
    """Likelihood of superiority from wins and losses (draws carry no info)."""
    if wins + losses == 0:
        return None
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def _finite(x: float) -> Optional[float]:
    return x if math.isfinite(x) else None


# --------------------------------------------------- generic distribution ---

def _mean_var(values: Sequence[float], counts: Sequence[float]) -> Tuple[float, float, float]:
    n = float(sum(counts))
    if n <= 0:
        return 0.0, math.nan, math.nan
    mean = sum(v * c for v, c in zip(values, counts)) / n
    var = sum(c * (v - mean) ** 2 for v, c in zip(values, counts)) / n
    return n, mean, var


def _interval(values: Sequence[float], counts: Sequence[float]) -> Dict[str, Optional[float]]:
    """Score, per-sample variance, stderr, Elo and its 95% interval."""
    n, mean, var = _mean_var(values, counts)
    out: Dict[str, Optional[float]] = {
        "n": int(n), "score": None, "variance": None, "stderr": None,
        "elo": None, "elo_low": None, "elo_high": None, "elo_error": None, "los": None,
    }
    if n <= 0:
        return out
    stderr = math.sqrt(var / n)
    lo, hi = mean - Z95 * stderr, mean + Z95 * stderr
    elo_lo, elo_hi = elo_from_score(lo), elo_from_score(hi)
    out.update(score=mean, variance=var, stderr=stderr,
               elo=_finite(elo_from_score(mean)),
               elo_low=_finite(elo_lo), elo_high=_finite(elo_hi),
               elo_error=_finite((elo_hi - elo_lo) / 2.0))
    if stderr > 0:
        out["los"] = phi((mean - 0.5) / stderr)
    return out


# ------------------------------------------------------------- trinomial ---

def wilson_interval(points: float, n: int, z: float = Z95) -> Tuple[float, float]:
    """Wilson score interval of a proportion points/n (points may be fractional)."""
    if n <= 0:
        return math.nan, math.nan
    p = points / n
    denom = 1.0 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, center - half), min(1.0, center + half)


def trinomial(wins: int, draws: int, losses: int) -> Dict[str, Optional[float]]:
    """Statistics of W/D/L game counts (engine 1's view).

    Besides the normal-approximation interval (elo_low/elo_high), which is
    open-ended when the score interval reaches 0 or 1, the Wilson score
    interval of points/games (each game taken as a Bernoulli trial, which is
    conservative when there are draws) is given as wilson_elo_low/high; it
    stays finite for lopsided results.
    """
    res = _interval([1.0, 0.5, 0.0], [wins, draws, losses])
    res["los"] = los_wl(wins, losses)
    res.update(wins=wins, draws=draws, losses=losses)
    n = wins + draws + losses
    if n > 0:
        lo, hi = wilson_interval(wins + 0.5 * draws, n)
        res["wilson_elo_low"] = _finite(elo_from_score(lo))
        res["wilson_elo_high"] = _finite(elo_from_score(hi))
    else:
        res["wilson_elo_low"] = res["wilson_elo_high"] = None
    return res


# ----------------------------------------------------------- pentanomial ---

PENTA_LABELS = ["LL", "LD", "DD+WL", "WD", "WW"]


def pair_index(first: float, second: float) -> int:
    """Pentanomial class (0..4) of a game pair, from engine 1's two scores."""
    return int(round((first + second) * 2))


def pentanomial_counts(pair_scores: Sequence[Tuple[float, float]]) -> List[int]:
    counts = [0] * 5
    for a, b in pair_scores:
        counts[pair_index(a, b)] += 1
    return counts


def pentanomial(counts: Sequence[int]) -> Dict[str, Optional[float]]:
    """Statistics of game pairs: counts of pair scores 0, 1/2, 1, 3/2, 2.

    The variance is that of the pair's mean score (pair score / 2), per pair.
    """
    if len(counts) != 5:
        raise ValueError("pentanomial needs 5 counts")
    res = _interval([0.0, 0.25, 0.5, 0.75, 1.0], counts)
    res["pairs"] = res.pop("n")
    res["counts"] = list(counts)
    return res


# ----------------------------------------------------------------- SPRT ---

def _regularize(counts: Sequence[float]) -> List[float]:
    return [c if c > 0 else REGULARIZE_EPS for c in counts]


def _secular(pdf: Sequence[Tuple[float, float]]) -> float:
    """Solve sum_i p_i a_i / (1 + x a_i) = 0 for x (needs min a < 0 < max a).

    The left side decreases strictly in x on (-1/max a, -1/min a) and runs
    from +inf to -inf there, so bisection finds the unique root.
    """
    amin = min(a for a, _ in pdf)
    amax = max(a for a, _ in pdf)
    if not (amin < 0.0 < amax):
        raise ValueError("secular equation needs values on both sides of 0")
    lo, hi = -1.0 / amax, -1.0 / amin

    def f(x: float) -> float:
        return sum(p * a / (1.0 + x * a) for a, p in pdf)

    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if f(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def mle_expected(pdf: Sequence[Tuple[float, float]], s: float) -> List[Tuple[float, float]]:
    """Maximum-likelihood distribution on pdf's support with expectation s.

    pdf: list of (value, probability).  Result: p_i / (1 + x (a_i - s)).
    """
    shifted = [(a - s, p) for a, p in pdf]
    x = _secular(shifted)
    return [(a, p / (1.0 + x * (a - s))) for a, p in pdf]


def llr_logistic(elo0: float, elo1: float, counts: Sequence[float]) -> float:
    """Generalized LLR of H1 (elo1) against H0 (elo0), logistic Elo.

    counts: [L, D, W] (3 classes) or the 5 pentanomial classes [LL .. WW],
    ordered by increasing score, as in fishtest.
    """
    k = len(counts)
    if k not in (3, 5):
        raise ValueError("counts must have 3 or 5 entries")
    if sum(counts) == 0:
        return 0.0
    reg = _regularize(counts)
    n = sum(reg)
    pdf = [(i / (k - 1), c / n) for i, c in enumerate(reg)]
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    p0 = mle_expected(pdf, s0)
    p1 = mle_expected(pdf, s1)
    return n * sum(p * math.log(q1 / q0) for (_, p), (_, q0), (_, q1) in zip(pdf, p0, p1))


def llr_normal_approx(elo0: float, elo1: float, counts: Sequence[float]) -> float:
    """The familiar approximation N (s1 - s0)(2 m - s0 - s1) / (2 var)."""
    k = len(counts)
    values = [i / (k - 1) for i in range(k)]
    n, mean, var = _mean_var(values, counts)
    if n <= 0 or not var > 0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)


def sprt_bounds(alpha: float, beta: float) -> Tuple[float, float]:
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def sprt(wins: int, draws: int, losses: int, elo0: float, elo1: float,
         alpha: float = 0.05, beta: float = 0.05,
         penta: Optional[Sequence[int]] = None) -> Dict[str, object]:
    """SPRT state.  Decision on the trinomial LLR: 'H1' (accept elo1),
    'H0' (accept elo0) or None (continue)."""
    lower, upper = sprt_bounds(alpha, beta)
    llr = llr_logistic(elo0, elo1, [losses, draws, wins])
    decision = None
    if llr >= upper:
        decision = "H1"
    elif llr <= lower:
        decision = "H0"
    out: Dict[str, object] = {
        "model": "logistic Elo, generalized LLR (fishtest LLR_logistic), trinomial",
        "elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta,
        "llr": llr, "lower": lower, "upper": upper, "decision": decision,
    }
    if penta is not None:
        out["llr_pentanomial"] = llr_logistic(elo0, elo1, penta)
    return out
