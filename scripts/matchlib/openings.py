"""Opening-book readers.

Shogi books, one opening a line (blank lines and lines starting with '#'
are skipped; a leading 'position' is allowed):
    startpos moves 7g7f 3c3d ...       (YaneuraOu-style, as book/shogi_openings.sfen)
    sfen <SFEN 4 fields> [moves ...]
    <SFEN 4 fields>

Chess books: EPD (4 FEN fields plus operations) or FEN (6 fields) lines.  An
EPD line whose ``c0`` operation reads "moves <uci> ..." (as written by
scripts/make_openings.py) is replayed from the standard start position, so
the game record and the engines get the full move history; the replay must
reach the EPD position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List

import chess


@dataclass
class Opening:
    start: str                    # "startpos" (shogi) / a FEN or SFEN
    moves: List[str] = field(default_factory=list)
    label: str = ""

    def to_json(self) -> dict:
        return {"start": self.start, "moves": list(self.moves), "label": self.label}


def parse_shogi_line(line: str) -> Opening:
    tok = line.split()
    if tok and tok[0] == "position":
        tok = tok[1:]
    if not tok:
        raise ValueError("empty opening line")
    if tok[0] == "startpos":
        start, rest = "startpos", tok[1:]
    elif tok[0] == "sfen":
        start, rest = " ".join(tok[1:5]), tok[5:]
    else:
        start, rest = " ".join(tok[:4]), tok[4:]
    moves: List[str] = []
    if rest:
        if rest[0] != "moves":
            raise ValueError(f"cannot parse opening line: {line!r}")
        moves = rest[1:]
    if start != "startpos" and len(start.split()) != 4:
        raise ValueError(f"bad SFEN in opening line: {line!r}")
    return Opening(start, moves, line.strip())


def parse_chess_line(line: str) -> Opening:
    tok = line.split()
    if len(tok) >= 6 and tok[4].isdigit() and tok[5].isdigit() and ";" not in line:
        board = chess.Board(" ".join(tok[:6]))
        return Opening(board.fen(), [], line.strip())
    board, ops = chess.Board.from_epd(line)
    c0 = ops.get("c0")
    label = str(ops.get("id", "")) or line.strip()
    if isinstance(c0, str) and c0.startswith("moves"):
        moves = c0.split()[1:]
        replay = chess.Board()
        for m in moves:
            mv = chess.Move.from_uci(m)
            if mv not in replay.legal_moves:
                raise ValueError(f"illegal move {m} in c0 of {line!r}")
            replay.push(mv)
        if replay.epd() != board.epd():
            raise ValueError(f"c0 moves do not reach the EPD position in {line!r}")
        return Opening(chess.STARTING_FEN, moves, label)
    return Opening(board.fen(), [], label)


def load_openings(path: str, game: str) -> List[Opening]:
    out: List[Opening] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            out.append(parse_shogi_line(s) if game == "shogi" else parse_chess_line(s))
    if not out:
        raise ValueError(f"no openings in {path}")
    return out
