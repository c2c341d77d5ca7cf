"""A small USI client and the shogi game loop.

The client runs the engine as a subprocess, reads its output on a thread
(time-stamping every line as it arrives) and enforces the clock itself: if no
``bestmove`` arrives before the deadline the engine is sent ``stop`` and the
side loses on time.

Rules (checked with cshogi, never trusted to the engines):
  * a move must be in cshogi's legal move list (which excludes pawn-drop mate
    and moves into check); anything else loses as an illegal move;
  * ``bestmove resign`` loses; ``bestmove win`` (entering-king declaration)
    wins if cshogi's ``Board.is_nyugyoku()`` (27-point CSA rule) holds for the
    declaring side, and otherwise loses as an illegal declaration;
  * no legal move (checkmate, or any position without a legal move) loses;
  * sennichite: the fourth occurrence of the same position (board, hands and
    side to move) ends the game; it is a draw unless one side gave check with
    every one of its moves since the first of those occurrences, in which case
    that side loses (perpetual check);
  * optional adjudication: resign score (see ``Adjudication``) and a maximum
    number of plies (draw).
"""

from __future__ import annotations

import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import cshogi

from .timecontrol import Clocks

MATE_SCORE = 100000


class EngineSetupError(Exception):
    """The engine reported an error while its options were set (`info string error: …`)."""


class EngineCrash(Exception):
    pass


class EngineTimeout(Exception):
    pass


def split_command(cmd) -> List[str]:
    if isinstance(cmd, (list, tuple)):
        return list(cmd)
    return shlex.split(cmd)


def parse_score(tokens: Sequence[str]) -> Optional[int]:
    """Score in centipawns (mate scores as +-(MATE_SCORE - n)) from an info line."""
    try:
        i = tokens.index("score")
    except ValueError:
        return None
    try:
        kind, val = tokens[i + 1], tokens[i + 2]
    except IndexError:
        return None
    try:
        if kind == "cp":
            return int(val)
        if kind == "mate":
            if val in ("+", "+0"):
                return MATE_SCORE
            if val in ("-", "-0"):
                return -MATE_SCORE
            n = int(val)
            return MATE_SCORE - abs(n) if n > 0 else -(MATE_SCORE - abs(n))
    except ValueError:
        return None
    return None


@dataclass
class SearchResult:
    status: str                   # ok | timeout | crash
    bestmove: Optional[str] = None
    elapsed: float = 0.0
    score: Optional[int] = None   # side to move's view
    depth: Optional[int] = None
    nodes: Optional[int] = None


class USIEngine:
    """Minimal USI engine driver with its own time keeping."""

    def __init__(self, cmd, options: Optional[Dict[str, str]] = None, name: Optional[str] = None,
                 log_path: Optional[str] = None, startup_timeout: float = 60.0):
        self.argv = split_command(cmd)
        self.options = dict(options or {})
        self.name = name
        self.id_name: Optional[str] = None
        self.engine_options: Dict[str, str] = {}
        self.log_path = log_path
        self.startup_timeout = startup_timeout
        self.proc: Optional[subprocess.Popen] = None
        self.q: "queue.Queue[Tuple[float, Optional[str]]]" = queue.Queue()
        self._log = None
        self._lock = threading.Lock()

    # ------------------------------------------------------------ process --
    def start(self) -> None:
        if self.log_path:
            self._log = open(self.log_path, "a", encoding="utf-8")
        self.q = queue.Queue()
        self.proc = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, encoding="utf-8", errors="replace", bufsize=1, start_new_session=True)
        t = threading.Thread(target=self._reader, args=(self.proc, self.q), daemon=True)
        t.start()
        self.send("usi")
        deadline = time.monotonic() + self.startup_timeout
        while True:
            line = self._read_until(deadline)
            tok = line.split()
            if not tok:
                continue
            if tok[0] == "id" and len(tok) >= 3 and tok[1] == "name":
                self.id_name = line.split(None, 2)[2]
            elif tok[0] == "option" and "name" in tok:
                i = tok.index("name")
                end = tok.index("type") if "type" in tok else len(tok)
                self.engine_options[" ".join(tok[i + 1:end])] = line
            elif tok[0] == "usiok":
                break
        if self.name is None:
            self.name = self.id_name or os.path.basename(self.argv[0])
        for k, v in self.options.items():
            self.send(f"setoption name {k} value {v}")
        # An option the engine could not apply (kishi: a weight file it could not load) is
        # reported as `info string error: …` and the engine goes on with what it had; a match on
        # those terms would be recorded under the wrong label, so it is an error here.
        errors = self.isready(self.startup_timeout)
        if errors:
            raise EngineSetupError("; ".join(errors))

    def _reader(self, proc: subprocess.Popen, q: "queue.Queue") -> None:
        try:
            for line in proc.stdout:
                now = time.monotonic()
                line = line.rstrip("\r\n")
                if self._log:
                    self._log.write(f"{now:.3f} < {line}\n")
                q.put((now, line))
        except (ValueError, OSError):
            pass
        q.put((time.monotonic(), None))

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def send(self, line: str) -> None:
        if self.proc is None or self.proc.stdin is None:
            raise EngineCrash("engine not running")
        if self._log:
            self._log.write(f"{time.monotonic():.3f} > {line}\n")
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as e:
            raise EngineCrash(f"write failed: {e}")

    def _read_until(self, deadline: float) -> str:
        ts, line = self._read_ts(deadline)
        return line

    def _read_ts(self, deadline: float) -> Tuple[float, str]:
        timeout = deadline - time.monotonic()
        if timeout <= 0:
            raise EngineTimeout()
        try:
            ts, line = self.q.get(timeout=timeout)
        except queue.Empty:
            raise EngineTimeout()
        if line is None:
            self.q.put((ts, None))  # keep EOF visible
            raise EngineCrash("engine closed its output (crashed or quit)")
        return ts, line

    def isready(self, timeout: float = 60.0) -> List[str]:
        """Waits for `readyok`; returns the `info string error` lines that came before it."""
        self.send("isready")
        deadline = time.monotonic() + timeout
        errors = []
        while True:
            line = self._read_until(deadline).strip()
            if line == "readyok":
                return errors
            if line.startswith("info string error"):
                errors.append(line)

    def new_game(self) -> None:
        self.isready(self.startup_timeout)
        self.send("usinewgame")

    def go(self, position_cmd: str, go_cmd: str, deadline_s: float) -> SearchResult:
        """Send position+go; wait for bestmove until deadline_s after 'go'."""
        res = SearchResult(status="ok")
        # drop stale output (e.g. a late bestmove after a stop)
        while True:
            try:
                ts, line = self.q.get_nowait()
            except queue.Empty:
                break
            if line is None:
                self.q.put((ts, None))
                res.status = "crash"
                return res
        try:
            self.send(position_cmd)
            t0 = time.monotonic()
            self.send(go_cmd)
        except EngineCrash:
            res.status = "crash"
            return res
        deadline = t0 + deadline_s
        try:
            while True:
                ts, line = self._read_ts(deadline)
                tok = line.split()
                if not tok:
                    continue
                if tok[0] == "info" and "string" not in tok[:2]:
                    sc = parse_score(tok)
                    if sc is not None:
                        res.score = sc
                    if "depth" in tok:
                        try:
                            res.depth = int(tok[tok.index("depth") + 1])
                        except (ValueError, IndexError):
                            pass
                    if "nodes" in tok:
                        try:
                            res.nodes = int(tok[tok.index("nodes") + 1])
                        except (ValueError, IndexError):
                            pass
                elif tok[0] == "bestmove":
                    res.elapsed = ts - t0
                    res.bestmove = tok[1] if len(tok) > 1 else ""
                    return res
        except EngineTimeout:
            res.status = "timeout"
            res.elapsed = time.monotonic() - t0
            self._recover_after_timeout()
            return res
        except EngineCrash:
            res.status = "crash"
            res.elapsed = time.monotonic() - t0
            return res

    def _recover_after_timeout(self) -> None:
        try:
            self.send("stop")
            deadline = time.monotonic() + 2.0
            while True:
                if self._read_until(deadline).startswith("bestmove"):
                    return
        except (EngineTimeout, EngineCrash):
            self.kill()

    def gameover(self, result: str) -> None:
        try:
            self.send(f"gameover {result}")
        except EngineCrash:
            pass

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                try:
                    self.proc.kill()
                except ProcessLookupError:
                    pass
        if self.proc is not None:
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass

    def quit(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(timeout=3)
            except (EngineCrash, subprocess.TimeoutExpired):
                pass
        self.kill()
        if self._log:
            self._log.close()
            self._log = None


# ------------------------------------------------------------ game loop --

@dataclass
class Adjudication:
    max_plies: int = 320          # total plies including the opening; 0 = off
    resign_score: Optional[int] = None   # centipawns; None = off
    resign_moves: int = 3         # consecutive own moves at or below -resign_score
    resign_twosided: bool = True  # the opponent must also agree (score >= +resign_score)
    draw_score: Optional[int] = None     # centipawns; None = off
    draw_moves: int = 8           # consecutive plies (both sides) with |score| <= draw_score
    draw_after: int = 80          # only from this many plies of the game on (opening included)


@dataclass
class GameOutcome:
    result: str                   # "1-0" (side 0 = sente/white won), "0-1", "1/2-1/2"
    reason: str                   # human readable
    termination: str              # normal | adjudication | time_forfeit | illegal_move | crash
    loser: Optional[int] = None   # side index of the loser, None for draws
    moves: List[dict] = field(default_factory=list)  # {move, time, score, depth}
    final_position: str = ""


def _side_win(side: int) -> str:
    return "1-0" if side == 0 else "0-1"


def _pos_key(board: "cshogi.Board") -> str:
    return " ".join(board.sfen().split()[:3])


class ResignTracker:
    """Counts consecutive moves whose score says the mover is lost/winning."""

    def __init__(self, adj: Adjudication):
        self.adj = adj
        self.low = [0, 0]   # consecutive own moves with score <= -R
        self.high = [0, 0]  # consecutive own moves with score >= +R
        self.quiet = 0      # consecutive plies (either side) with |score| <= draw_score
        self.plies = 0

    def draw(self, score: Optional[int]) -> bool:
        """Record one more ply's score; True once the game is adjudicated a draw: both engines
        have reported scores within +-draw_score for draw_moves consecutive plies, after
        draw_after plies (so openings are played out)."""
        self.plies += 1
        D = self.adj.draw_score
        if D is None:
            return False
        self.quiet = self.quiet + 1 if score is not None and abs(score) <= D else 0
        return self.plies >= self.adj.draw_after and self.quiet >= self.adj.draw_moves

    def update(self, side: int, score: Optional[int]) -> Optional[int]:
        """Record `side`'s score; return the side that must resign, if any."""
        R = self.adj.resign_score
        if R is None:
            return None
        if score is None:
            self.low[side] = self.high[side] = 0
            return None
        self.low[side] = self.low[side] + 1 if score <= -R else 0
        self.high[side] = self.high[side] + 1 if score >= R else 0
        n = self.adj.resign_moves
        for s in (side, 1 - side):
            if self.low[s] >= n and (not self.adj.resign_twosided or self.high[1 - s] >= n):
                return s
        return None


def play_shogi_game(engines: Sequence[USIEngine], start: str, opening_moves: Sequence[str],
                    tc, adj: Adjudication) -> GameOutcome:
    """Play one game; engines[0] is sente (black), engines[1] gote.

    start: "startpos" or an SFEN.  opening_moves: USI moves played first.
    tc: a TimeControl for both sides or a pair of them (side 0, side 1).
    """
    board = cshogi.Board()
    if start != "startpos":
        board.set_sfen(start)
    pos_prefix = "position startpos" if start == "startpos" else f"position sfen {start}"
    all_moves: List[str] = []
    keys: List[str] = [_pos_key(board)]
    checks: List[bool] = [bool(board.is_check())]
    for m in opening_moves:
        mv = board.move_from_usi(m)
        if not mv or mv not in set(board.legal_moves):
            raise ValueError(f"illegal opening move {m} in {start} {' '.join(opening_moves)}")
        board.push(mv)
        all_moves.append(m)
        keys.append(_pos_key(board))
        checks.append(bool(board.is_check()))

    out_moves: List[dict] = []
    for side, e in enumerate(engines):
        try:
            e.new_game()
        except (EngineCrash, EngineTimeout) as err:
            e.kill()
            return GameOutcome(_side_win(1 - side), f"{e.name} did not get ready ({type(err).__name__})",
                               "crash", side, out_moves, board.sfen())

    clocks: Clocks = make_clocks(tc)
    resign = ResignTracker(adj)

    def finish(result: str, reason: str, termination: str, loser: Optional[int]) -> GameOutcome:
        return GameOutcome(result, reason, termination, loser, out_moves, board.sfen())

    while True:
        side = board.turn  # cshogi.BLACK == 0 (sente), WHITE == 1
        if board.is_game_over():
            reason = "checkmate" if board.is_check() else "no legal moves"
            return finish(_side_win(1 - side), reason, "normal", side)
        if adj.max_plies and len(all_moves) >= adj.max_plies:
            return finish("1/2-1/2", f"maximum plies ({adj.max_plies})", "adjudication", None)

        eng = engines[side]
        pos_cmd = pos_prefix + (" moves " + " ".join(all_moves) if all_moves else "")
        go_cmd = usi_go_command(clocks, side)
        deadline = clocks.deadline(side)
        r = eng.go(pos_cmd, go_cmd, deadline)
        if r.status == "crash":
            return finish(_side_win(1 - side), f"{eng.name} crashed", "crash", side)
        if r.status == "timeout":
            return finish(_side_win(1 - side), f"{eng.name} lost on time (no bestmove within {deadline:.3f}s)",
                          "time_forfeit", side)
        if clocks.charge(side, r.elapsed):
            return finish(_side_win(1 - side),
                          f"{eng.name} lost on time (took {r.elapsed:.3f}s, allowed {deadline:.3f}s)",
                          "time_forfeit", side)
        bm = r.bestmove or ""
        if bm == "resign":
            return finish(_side_win(1 - side), f"{eng.name} resigned", "normal", side)
        if bm == "win":
            if board.is_nyugyoku():
                return finish(_side_win(side), f"{eng.name} declared a win (nyugyoku)", "normal", 1 - side)
            return finish(_side_win(1 - side), f"{eng.name} made an invalid win declaration",
                          "illegal_move", side)
        try:
            mv = board.move_from_usi(bm)
        except Exception:  # noqa: BLE001 - garbage from the engine
            mv = 0
        if not mv or mv not in set(board.legal_moves):
            return finish(_side_win(1 - side), f"{eng.name} played an illegal move {bm!r}",
                          "illegal_move", side)
        board.push(mv)
        all_moves.append(bm)
        out_moves.append({"move": bm, "time": round(r.elapsed, 3), "score": r.score, "depth": r.depth})
        key = _pos_key(board)
        keys.append(key)
        checks.append(bool(board.is_check()))

        # sennichite
        occ = [i for i, k in enumerate(keys) if k == key]
        if len(occ) >= 4:
            first = occ[-4]
            n = len(keys) - 1
            # position i was reached by ply i; the mover of ply i gave check iff checks[i]
            mover_last = side
            perpetual = None
            for s in (mover_last, 1 - mover_last):
                # plies by side s within (first, n]: those with the same parity as n if s == mover_last
                idx = [i for i in range(first + 1, n + 1) if (n - i) % 2 == (0 if s == mover_last else 1)]
                if idx and all(checks[i] for i in idx):
                    perpetual = s
                    break
            if perpetual is not None:
                loser_name = engines[perpetual].name
                return finish(_side_win(1 - perpetual), f"{loser_name} lost by perpetual check",
                              "normal", perpetual)
            return finish("1/2-1/2", "sennichite (fourfold repetition)", "normal", None)

        loser = resign.update(side, r.score)
        if loser is not None:
            return finish(_side_win(1 - loser), f"adjudicated: {engines[loser].name} resigns by score",
                          "adjudication", loser)
        if resign.draw(r.score):
            return finish("1/2-1/2", "adjudicated: draw by score", "adjudication", None)


def make_clocks(tc) -> Clocks:
    """tc: one TimeControl for both sides, or a pair (side 0, side 1)."""
    if isinstance(tc, (list, tuple)):
        return Clocks(tc)
    return tc.new_clocks()


def usi_go_command(clocks: Clocks, side: int) -> str:
    tc = clocks.tcs[side]
    k = tc.kind
    if k == "movetime":
        return f"go btime 0 wtime 0 byoyomi {int(round(tc.movetime * 1000))}"
    if k == "nodes":
        return f"go nodes {tc.nodes}"
    if k == "depth":
        return f"go depth {tc.depth}"
    cmd = f"go btime {clocks.ms(0)} wtime {clocks.ms(1)}"
    if tc.inc:
        cmd += (f" binc {int(round(clocks.tcs[0].inc * 1000))}"
                f" winc {int(round(clocks.tcs[1].inc * 1000))}")
    else:
        cmd += f" byoyomi {int(round(tc.byoyomi * 1000))}"
    return cmd
