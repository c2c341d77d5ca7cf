"""Game records: CSA (shogi, one file per game) and PGN (chess, one file)."""

from __future__ import annotations

import datetime as _dt
import threading
from typing import Dict, List, Optional, Sequence

import chess
import chess.pgn
import cshogi

from .usi_shogi import MATE_SCORE, GameOutcome

_pgn_lock = threading.Lock()


def _csa_end(outcome: GameOutcome) -> str:
    """CSA special move ending the game (V2.2 names)."""
    t, r = outcome.termination, outcome.reason
    sign = "+" if outcome.loser == 0 else "-"
    if t == "time_forfeit":
        return "%TIME_UP"
    if t == "illegal_move":
        return "%ILLEGAL_MOVE" if "illegal move" in r else f"%{sign}ILLEGAL_ACTION"
    if t == "crash":
        return "%CHUDAN"
    if t == "adjudication":
        return "%HIKIWAKE" if outcome.loser is None else "%TORYO"
    if "perpetual" in r:
        return f"%{sign}ILLEGAL_ACTION"
    if "sennichite" in r:
        return "%SENNICHITE"
    if "declared" in r:
        return "%KACHI"
    if "checkmate" in r or "no legal" in r:
        return "%TSUMI"
    return "%TORYO"


def write_csa(path: str, names: Sequence[str], start: str, opening_moves: Sequence[str],
              outcome: GameOutcome, info: Optional[Dict[str, str]] = None) -> None:
    board = cshogi.Board()
    if start != "startpos":
        board.set_sfen(start)
    lines: List[str] = ["V2.2", f"N+{names[0]}", f"N-{names[1]}"]
    for k, v in (info or {}).items():
        lines.append(f"${k}:{v}")
    if start == "startpos":
        lines += ["PI", "+"]
    else:
        lines += board.csa_pos().rstrip("\n").split("\n")

    def push(usi: str) -> str:
        mv = board.move_from_usi(usi)
        s = ("+" if board.turn == cshogi.BLACK else "-") + cshogi.move_to_csa(mv)
        board.push(mv)
        return s

    for m in opening_moves:
        lines.append(push(m))
        lines.append("'opening")
    for rec in outcome.moves:
        lines.append(push(rec["move"]))
        lines.append(f"T{max(0, int(round(rec['time'])))}")
        if rec.get("score") is not None:
            lines.append(f"'** {rec['score']}")        # floodgate-style evaluation comment
        lines.append(f"'time {rec['time']:.3f} depth {rec.get('depth')}")
    lines.append(_csa_end(outcome))
    lines.append(f"'result {outcome.result} ({outcome.reason}); termination {outcome.termination}")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


def pgn_game(names: Sequence[str], start_fen: str, opening_moves: Sequence[str], outcome: GameOutcome,
             headers: Optional[Dict[str, str]] = None) -> chess.pgn.Game:
    board = chess.Board(start_fen)
    game = chess.pgn.Game()
    game.headers["Event"] = (headers or {}).get("Event", "kishi match")
    game.headers["Date"] = _dt.date.today().strftime("%Y.%m.%d")
    game.headers["White"] = names[0]
    game.headers["Black"] = names[1]
    game.headers["Result"] = outcome.result
    if start_fen != chess.STARTING_FEN:
        game.setup(board)
    for k, v in (headers or {}).items():
        game.headers[k] = v
    game.headers["Termination"] = {"time_forfeit": "time forfeit", "illegal_move": "illegal move",
                                   "crash": "abandoned", "adjudication": "adjudication"}.get(
                                       outcome.termination, "normal")
    node = game
    for i, m in enumerate(opening_moves):
        node = node.add_variation(chess.Move.from_uci(m))
        if i == len(opening_moves) - 1:
            node.comment = "end of opening"
    for rec in outcome.moves:
        node = node.add_variation(chess.Move.from_uci(rec["move"]))
        node.comment = _eval_text(rec.get("score")) + f"/{rec.get('depth')} {rec['time']:.3f}s"
    if node is game:
        game.comment = outcome.reason
    else:
        node.comment = (node.comment + " " if node.comment else "") + outcome.reason
    return game


def _eval_text(sc) -> str:
    """'+0.35', or '+M5' / '-M4' for mate in n plies (scores near +-MATE_SCORE)."""
    if sc is None:
        return ""
    if abs(sc) > MATE_SCORE - 1000:
        return ("+" if sc > 0 else "-") + f"M{MATE_SCORE - abs(sc)}"
    return f"{sc / 100:+.2f}"


def append_pgn(path: str, game: chess.pgn.Game) -> None:
    text = str(game)
    with _pgn_lock:
        with open(path, "a", encoding="utf-8") as f:
            f.write(text + "\n\n")
