"""Time controls and clocks.

Supported (all times in seconds):
  * byoyomi only             TimeControl(byoyomi=1)
  * main time + byoyomi      TimeControl(main=60, byoyomi=1)
  * sudden death + increment TimeControl(main=10, inc=0.1)   ("10+0.1")
  * fixed time per move      TimeControl(movetime=0.05)
  * fixed nodes / depth      TimeControl(nodes=10000) / TimeControl(depth=6)

A move that takes longer than the time the side had (main time left plus
byoyomi, or the movetime) plus ``margin`` loses on time.  Fixed nodes/depth
moves are only bounded by ``hard_timeout`` (a move taking longer also counts
as a time forfeit, so that a hung engine cannot stall the match).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

import re


@dataclass
class TimeControl:
    main: float = 0.0
    inc: float = 0.0
    byoyomi: float = 0.0
    movetime: Optional[float] = None
    nodes: Optional[int] = None
    depth: Optional[int] = None
    margin: float = 0.1
    hard_timeout: float = 120.0

    def __post_init__(self) -> None:
        if self.inc and self.byoyomi:
            raise ValueError("increment and byoyomi cannot be combined")
        if self.kind == "clock" and self.main <= 0 and self.byoyomi <= 0:
            raise ValueError("no time control given (need main time, byoyomi, movetime, nodes or depth)")

    @property
    def kind(self) -> str:
        if self.movetime is not None:
            return "movetime"
        if self.nodes is not None:
            return "nodes"
        if self.depth is not None:
            return "depth"
        return "clock"

    def describe(self) -> str:
        k = self.kind
        if k == "movetime":
            return f"movetime {self.movetime:g}s"
        if k == "nodes":
            return f"nodes {self.nodes}"
        if k == "depth":
            return f"depth {self.depth}"
        parts = []
        if self.main:
            parts.append(f"{self.main:g}s")
        if self.inc:
            parts.append(f"+{self.inc:g}s inc")
        if self.byoyomi:
            parts.append(f"byoyomi {self.byoyomi:g}s")
        return " ".join(parts)

    def pgn_tag(self) -> str:
        k = self.kind
        if k == "movetime":
            return f"1/{self.movetime:g}"
        if k != "clock":
            return "-"
        if self.byoyomi:
            return f"{self.main:g}+{self.byoyomi:g}b"
        return f"{self.main:g}+{self.inc:g}"

    def to_json(self) -> dict:
        return {"kind": self.kind, "main": self.main, "inc": self.inc, "byoyomi": self.byoyomi,
                "movetime": self.movetime, "nodes": self.nodes, "depth": self.depth,
                "margin": self.margin, "hard_timeout": self.hard_timeout,
                "description": self.describe()}

    def new_clocks(self) -> "Clocks":
        return Clocks([self, self])


def parse_tc(text: str) -> tuple:
    """Parse 'MAIN+INC' (seconds), e.g. '10+0.1' or '60' -> (main, inc)."""
    m = re.fullmatch(r"\s*([0-9.]+)\s*(?:\+\s*([0-9.]+))?\s*", text)
    if not m:
        raise ValueError(f"bad time control {text!r}; expected MAIN+INC in seconds, e.g. 10+0.1")
    return float(m.group(1)), float(m.group(2) or 0.0)


def parse_tc_spec(text: str, base: Optional["TimeControl"] = None) -> "TimeControl":
    """Parse a per-engine time control such as 'nodes=20000', 'movetime=0.1',
    'depth=8', 'byoyomi=1', 'time=60,byoyomi=1' or 'tc=10+0.1'.  Fields not
    given keep their values from `base` for margin and hard_timeout only."""
    kw: dict = {}
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        if "=" not in part:
            raise ValueError(f"bad time control item {part!r} (expected key=value)")
        k, v = (x.strip() for x in part.split("=", 1))
        if k == "tc":
            kw["main"], kw["inc"] = parse_tc(v)
        elif k in ("time", "main"):
            kw["main"] = float(v)
        elif k in ("inc", "byoyomi", "movetime"):
            kw[k] = float(v)
        elif k in ("nodes", "depth"):
            kw[k] = int(v)
        elif k in ("margin", "hard_timeout"):
            kw[k] = float(v)
        else:
            raise ValueError(f"unknown time control key {k!r}")
    if base is not None:
        kw.setdefault("margin", base.margin)
        kw.setdefault("hard_timeout", base.hard_timeout)
    return TimeControl(**kw)


class Clocks:
    """Clocks of side 0 (sente/White) and side 1, each with its own control
    (normally both the same)."""

    def __init__(self, tcs):
        self.tcs = list(tcs)
        self.remaining: List[float] = [self.tcs[0].main, self.tcs[1].main]

    @property
    def tc(self) -> TimeControl:
        return self.tcs[0]

    def allowed(self, side: int) -> float:
        """Seconds the side may think before it has lost on time (no margin)."""
        tc = self.tcs[side]
        k = tc.kind
        if k == "movetime":
            return float(tc.movetime)
        if k in ("nodes", "depth"):
            return tc.hard_timeout
        return self.remaining[side] + tc.byoyomi

    def deadline(self, side: int) -> float:
        """Seconds after which the move is a time forfeit."""
        tc = self.tcs[side]
        if tc.kind in ("nodes", "depth"):
            return tc.hard_timeout
        return self.allowed(side) + tc.margin

    def charge(self, side: int, elapsed: float) -> bool:
        """Book `elapsed` seconds to `side`; True if the side lost on time."""
        if elapsed > self.deadline(side):
            return True
        tc = self.tcs[side]
        if tc.kind == "clock":
            left = self.remaining[side] - elapsed
            self.remaining[side] = max(0.0, left) + tc.inc
        return False

    def ms(self, side: int) -> int:
        return max(0, int(round(self.remaining[side] * 1000)))
