"""Chess games over UCI, driven by python-chess' ``chess.engine.SimpleEngine``.

python-chess talks the protocol; the clock is kept here.  Each ``play`` call
runs on a helper thread and is waited for until the side's deadline (time
left + margin); an engine that has not answered by then loses on time and is
killed (a fresh process is started for the next game).

Rules come from python-chess: checkmate and stalemate, and the game is
adjudicated a draw as soon as a draw can be claimed or is automatic
(threefold/fivefold repetition, 50/75-move rule, insufficient material).
An illegal ``bestmove`` (python-chess raises ``EngineError``) or a null move
when legal moves exist loses as an illegal move; a dead process is a crash.
"""

from __future__ import annotations

import concurrent.futures
import logging
import os
import signal
import time
from typing import Dict, List, Optional, Sequence

import chess
import chess.engine

from .timecontrol import Clocks
from .usi_shogi import (MATE_SCORE, Adjudication, EngineSetupError, GameOutcome, ResignTracker, make_clocks,
                        split_command)


class UCIEngine:
    def __init__(self, cmd, options: Optional[Dict[str, str]] = None, name: Optional[str] = None,
                 startup_timeout: float = 60.0, log_path: Optional[str] = None):
        self.argv = split_command(cmd)
        self.options = dict(options or {})
        self.name = name
        self.id_name: Optional[str] = None
        self.startup_timeout = startup_timeout
        self.engine: Optional[chess.engine.SimpleEngine] = None
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        self.log_path = log_path

    def start(self) -> None:
        self.engine = chess.engine.SimpleEngine.popen_uci(
            self.argv, timeout=self.startup_timeout, stderr=subprocess_devnull(), setpgrp=True)
        self.id_name = self.engine.id.get("name")
        if self.name is None:
            self.name = self.id_name or os.path.basename(self.argv[0])
        if self.options:
            opts = {}
            for k, v in self.options.items():
                opt = self.engine.options.get(k)
                if opt is not None and opt.type == "check":
                    opts[k] = str(v).lower() in ("1", "true", "yes", "on")
                elif opt is not None and opt.type == "spin":
                    opts[k] = int(v)
                else:
                    opts[k] = v
            self.engine.configure(opts)
        # As for USI (`usi_shogi.EngineSetupError`): an `info string error` before `readyok`
        # means an option was not applied. python-chess logs such lines as unexpected output of
        # the ping; catch this engine's.
        errors: List[str] = []
        protocol = self.engine.protocol

        class _Catch(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                args = record.args if isinstance(record.args, tuple) else ()
                if len(args) >= 2 and args[0] is protocol and str(args[1]).startswith("info string error"):
                    errors.append(str(args[1]))

        catch = _Catch()
        logger = logging.getLogger("chess.engine")
        logger.addHandler(catch)
        try:
            self.engine.ping()
        finally:
            logger.removeHandler(catch)
        if errors:
            raise EngineSetupError("; ".join(errors))

    def alive(self) -> bool:
        if self.engine is None:
            return False
        try:
            return self.engine.transport.get_returncode() is None
        except Exception:  # noqa: BLE001
            return False

    def kill(self) -> None:
        if self.engine is None:
            return
        try:
            pid = self.engine.transport.get_pid()
            os.killpg(pid, signal.SIGKILL)
        except Exception:  # noqa: BLE001
            pass
        fut = self.pool.submit(self._close_quietly, self.engine)
        try:
            fut.result(timeout=5)
        except Exception:  # noqa: BLE001
            pass
        self.engine = None

    @staticmethod
    def _close_quietly(engine) -> None:
        try:
            engine.close()
        except Exception:  # noqa: BLE001
            pass

    def quit(self) -> None:
        if self.engine is None:
            return
        fut = self.pool.submit(self.engine.quit)
        try:
            fut.result(timeout=5)
        except Exception:  # noqa: BLE001
            pass
        self.kill()
        self.pool.shutdown(wait=False)
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)


def subprocess_devnull():
    import subprocess
    return subprocess.DEVNULL


def uci_limit(clocks: Clocks, side: int) -> chess.engine.Limit:
    tc = clocks.tcs[side]
    k = tc.kind
    if k == "movetime":
        return chess.engine.Limit(time=tc.movetime)
    if k == "nodes":
        return chess.engine.Limit(nodes=tc.nodes)
    if k == "depth":
        return chess.engine.Limit(depth=tc.depth)
    if tc.byoyomi:
        if tc.main:
            raise ValueError("main time + byoyomi is not available over UCI")
        return chess.engine.Limit(time=tc.byoyomi)
    return chess.engine.Limit(white_clock=clocks.remaining[0], black_clock=clocks.remaining[1],
                              white_inc=clocks.tcs[0].inc, black_inc=clocks.tcs[1].inc)


def _side_win(side: int) -> str:
    return "1-0" if side == 0 else "0-1"


def play_chess_game(engines: Sequence[UCIEngine], start_fen: str, opening_moves: Sequence[str],
                    tc, adj: Adjudication, game_tag: object = None) -> GameOutcome:
    """engines[0] plays White (side 0), engines[1] Black."""
    board = chess.Board(start_fen)
    for m in opening_moves:
        mv = chess.Move.from_uci(m)
        if mv not in board.legal_moves:
            raise ValueError(f"illegal opening move {m}")
        board.push(mv)
    clocks = make_clocks(tc)
    resign = ResignTracker(adj)
    out_moves: List[dict] = []
    plies = len(opening_moves)
    game_obj = game_tag if game_tag is not None else object()

    def finish(result: str, reason: str, termination: str, loser: Optional[int]) -> GameOutcome:
        return GameOutcome(result, reason, termination, loser, out_moves, board.fen())

    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            if outcome.winner is None:
                return finish("1/2-1/2", outcome.termination.name.lower().replace("_", " "), "normal", None)
            w = 0 if outcome.winner == chess.WHITE else 1
            return finish(_side_win(w), outcome.termination.name.lower(), "normal", 1 - w)
        if adj.max_plies and plies >= adj.max_plies:
            return finish("1/2-1/2", f"maximum plies ({adj.max_plies})", "adjudication", None)
        side = 0 if board.turn == chess.WHITE else 1
        ue = engines[side]
        limit = uci_limit(clocks, side)
        deadline = clocks.deadline(side)
        if ue.engine is None:
            return finish(_side_win(1 - side), f"{ue.name} is not running", "crash", side)
        t0 = time.monotonic()
        fut = ue.pool.submit(ue.engine.play, board.copy(), limit, game=game_obj,
                             info=chess.engine.INFO_SCORE | chess.engine.INFO_BASIC)
        try:
            res = fut.result(timeout=deadline)
        except concurrent.futures.TimeoutError:
            ue.kill()
            return finish(_side_win(1 - side),
                          f"{ue.name} lost on time (no bestmove within {deadline:.3f}s)", "time_forfeit", side)
        except chess.engine.EngineTerminatedError as e:
            ue.kill()
            return finish(_side_win(1 - side), f"{ue.name} crashed ({e})", "crash", side)
        except chess.engine.EngineError as e:
            ue.kill()
            return finish(_side_win(1 - side), f"{ue.name} played an illegal move ({e})", "illegal_move", side)
        except Exception as e:  # noqa: BLE001 - protocol trouble; treat as a crash
            ue.kill()
            return finish(_side_win(1 - side), f"{ue.name} failed ({type(e).__name__}: {e})", "crash", side)
        elapsed = time.monotonic() - t0
        if clocks.charge(side, elapsed):
            return finish(_side_win(1 - side),
                          f"{ue.name} lost on time (took {elapsed:.3f}s, allowed {deadline:.3f}s)",
                          "time_forfeit", side)
        if res.move is None or res.move not in board.legal_moves:
            return finish(_side_win(1 - side), f"{ue.name} returned no legal move ({res.move})",
                          "illegal_move", side)
        score = None
        pov = res.info.get("score") if res.info else None
        if pov is not None:
            score = pov.relative.score(mate_score=MATE_SCORE)
        board.push(res.move)
        plies += 1
        out_moves.append({"move": res.move.uci(), "time": round(elapsed, 3), "score": score,
                          "depth": res.info.get("depth") if res.info else None})
        loser = resign.update(side, score)
        if loser is not None:
            return finish(_side_win(1 - loser), f"adjudicated: {engines[loser].name} resigns by score",
                          "adjudication", loser)
        if resign.draw(score):
            return finish("1/2-1/2", "adjudicated: draw by score", "adjudication", None)
