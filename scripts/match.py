#!/usr/bin/env python3
"""Engine-vs-engine matches over USI (shogi) and UCI (chess).

Examples
--------
Shogi, gpsusi (depth 4) against Fairy-Stockfish, 1 s byoyomi, 20 games:

    python3 scripts/match.py --game shogi --games 20 --byoyomi 1 \\
        --engine1 /usr/games/gpsusi --options1 "LimitDepth=4,Thread=1" \\
        --engine2 /usr/games/fairy-stockfish --options2 "Threads=1" --out matches/gps-fsf

Chess, 100 games at 10 s + 0.1 s, two games at a time, with an SPRT:

    python3 scripts/match.py --game chess --games 100 --tc 10+0.1 --concurrency 2 \\
        --engine1 /usr/games/stockfish --options1 "UCI_LimitStrength=true,UCI_Elo=1500" \\
        --engine2 /usr/games/stockfish --options2 "UCI_LimitStrength=true,UCI_Elo=2000" \\
        --sprt --elo0 0 --elo1 10 --out matches/sf1500-sf2000

Each opening of the book is played twice, engine 1 taking the first side
(sente/White) in the first game of the pair and the second side in the next.
All statistics are from engine 1's point of view.  Writes <out>/summary.json
and records (<out>/csa/game_NNNN.csa for shogi, <out>/games.pgn for chess).
Run with --help for every option; statistics are documented in
scripts/matchlib/stats.py.

An engine that answers its options with `info string error: …` before `readyok` (kishi does so
for a weight file it cannot load, and keeps its current evaluation) ends the match before its
first game with a fatal error (exit 2): the games would be recorded under the wrong label.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import math
import os
import random
import shlex
import sys
import threading
import time
from typing import Dict, List, Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from matchlib import stats  # noqa: E402
from matchlib.openings import Opening, load_openings  # noqa: E402
from matchlib.records import append_pgn, pgn_game, write_csa  # noqa: E402
from matchlib.timecontrol import TimeControl, parse_tc, parse_tc_spec  # noqa: E402
from matchlib.uci_chess import UCIEngine, play_chess_game  # noqa: E402
from matchlib.usi_shogi import Adjudication, GameOutcome, USIEngine, play_shogi_game  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_BOOKS = {"shogi": os.path.join(REPO, "book", "shogi_openings.sfen"),
                 "chess": os.path.join(REPO, "book", "chess_openings.epd")}
ANOMALIES = ("crash", "illegal_move", "time_forfeit")


def parse_options(items: Optional[List[str]]) -> Dict[str, str]:
    """'Name=Value,Other Name=Value' (repeatable) -> dict.  Use ';' instead of
    ',' to separate options whose values contain commas."""
    out: Dict[str, str] = {}
    for item in items or []:
        sep = ";" if ";" in item else ","
        for part in item.split(sep):
            part = part.strip()
            if not part:
                continue
            if "=" not in part:
                raise SystemExit(f"bad engine option {part!r}: expected Name=Value")
            k, v = part.split("=", 1)
            out[k.strip()] = v.strip()
    return out


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", choices=["shogi", "chess"], help="shogi (USI) or chess (UCI); default from --protocol")
    p.add_argument("--protocol", choices=["usi", "uci"], help="usi for shogi, uci for chess (default from --game)")
    for i in (1, 2):
        p.add_argument(f"--engine{i}", required=True, help=f"command line of engine {i} (shell-quoted, args allowed)")
        p.add_argument(f"--name{i}", help=f"display name of engine {i} (default: its 'id name')")
        p.add_argument(f"--options{i}", action="append", metavar="NAME=VALUE,...",
                       help=f"engine {i} options, e.g. 'Threads=1,Hash=64' (repeatable)")
        p.add_argument(f"--tc{i}", metavar="KEY=VALUE,...",
                       help=f"time control of engine {i} only, overriding the common one: e.g. 'nodes=20000', "
                            "'movetime=0.1', 'depth=8', 'byoyomi=1', 'time=60,byoyomi=1', 'tc=10+0.1'")
    p.add_argument("--games", type=int, default=2, help="number of games (default 2; even numbers keep pairs whole)")
    p.add_argument("--concurrency", type=int, default=1, help="games played in parallel (default 1)")
    p.add_argument("--openings", help="opening book (default book/shogi_openings.sfen or book/chess_openings.epd)")
    p.add_argument("--opening-order", choices=["sequential", "random"], default="random")
    p.add_argument("--opening-start", type=int, default=0, help="index of the first opening in the (shuffled or sequential) order")
    p.add_argument("--seed", type=int, default=1, help="seed of the random opening order (default 1)")
    tc = p.add_argument_group("time control (seconds)")
    tc.add_argument("--tc", help="sudden death + increment, MAIN+INC, e.g. 10+0.1")
    tc.add_argument("--time", type=float, default=0.0, help="main time")
    tc.add_argument("--inc", type=float, default=0.0, help="increment per move")
    tc.add_argument("--byoyomi", type=float, default=0.0, help="byoyomi (after the main time)")
    tc.add_argument("--movetime", type=float, help="fixed time per move")
    tc.add_argument("--nodes", type=int, help="fixed nodes per move")
    tc.add_argument("--depth", type=int, help="fixed depth per move")
    tc.add_argument("--timemargin", type=float, default=0.1,
                    help="grace period before a late move loses on time (default 0.1)")
    tc.add_argument("--hard-timeout", type=float, default=120.0,
                    help="longest wait for a move under fixed nodes/depth (default 120)")
    ad = p.add_argument_group("adjudication")
    ad.add_argument("--max-plies", type=int,
                    help="draw after this many plies, opening included (default 320 shogi, 0=off chess)")
    ad.add_argument("--resign-score", type=int, help="resign adjudication threshold in centipawns (default off)")
    ad.add_argument("--resign-moves", type=int, default=3, help="consecutive moves beyond the threshold (default 3)")
    ad.add_argument("--draw-score", type=int,
                    help="draw adjudication: both engines' scores within +-this many centipawns (default off)")
    ad.add_argument("--draw-moves", type=int, default=8, help="for that many consecutive plies (default 8)")
    ad.add_argument("--draw-after", type=int, default=80, help="from this ply on (default 80)")
    ad.add_argument("--resign-onesided", action="store_true",
                    help="only the losing side's score counts (default: both engines must agree)")
    sp = p.add_argument_group("SPRT (stops the match early)")
    sp.add_argument("--sprt", action="store_true", help="run an SPRT on engine 1 - engine 2")
    sp.add_argument("--elo0", type=float, default=0.0)
    sp.add_argument("--elo1", type=float, default=5.0)
    sp.add_argument("--alpha", type=float, default=0.05)
    sp.add_argument("--beta", type=float, default=0.05)
    o = p.add_argument_group("output")
    o.add_argument("--out", help="output directory (default matches/<date-time>)")
    o.add_argument("--json", help="summary path (default <out>/summary.json)")
    o.add_argument("--no-progress", action="store_true", help="no progress bar")
    o.add_argument("--engine-logs", action="store_true", help="write USI protocol logs to <out>/logs")
    o.add_argument("--quiet", action="store_true", help="do not print the final summary")
    return p


class Match:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        if args.game is None:
            args.game = "chess" if args.protocol == "uci" else "shogi"
        if args.protocol is None:
            args.protocol = "uci" if args.game == "chess" else "usi"
        if (args.game, args.protocol) not in (("shogi", "usi"), ("chess", "uci")):
            raise SystemExit("shogi is played over USI and chess over UCI")
        main, inc = (parse_tc(args.tc) if args.tc else (args.time, args.inc))
        try:
            self.tc = TimeControl(main=main, inc=inc, byoyomi=args.byoyomi, movetime=args.movetime,
                                  nodes=args.nodes, depth=args.depth, margin=args.timemargin,
                                  hard_timeout=args.hard_timeout)
        except ValueError as e:
            if not (args.tc1 and args.tc2):
                raise SystemExit(str(e))
            self.tc = TimeControl(movetime=1.0, margin=args.timemargin, hard_timeout=args.hard_timeout)
        try:
            self.engine_tcs = [parse_tc_spec(t, self.tc) if t else self.tc for t in (args.tc1, args.tc2)]
        except ValueError as e:
            raise SystemExit(f"--tc1/--tc2: {e}")
        if args.tc1 and args.tc2:
            self.tc = self.engine_tcs[0]
        max_plies = args.max_plies if args.max_plies is not None else (320 if args.game == "shogi" else 0)
        self.adj = Adjudication(max_plies=max_plies, resign_score=args.resign_score,
                                resign_moves=args.resign_moves, resign_twosided=not args.resign_onesided,
                                draw_score=args.draw_score, draw_moves=args.draw_moves,
                                draw_after=args.draw_after)
        self.book = args.openings or DEFAULT_BOOKS[args.game]
        self.openings: List[Opening] = load_openings(self.book, args.game)
        order = list(range(len(self.openings)))
        if args.opening_order == "random":
            random.Random(args.seed).shuffle(order)
        # The start rotates the (shuffled) order, so `--opening-start 100` with the same seed plays
        # the openings a 200-game run (100 openings) did not.
        start = args.opening_start % len(order) if order else 0
        order = order[start:] + order[:start]
        self.order = order
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        self.out = args.out or os.path.join("matches", stamp)
        os.makedirs(self.out, exist_ok=True)
        self.json_path = args.json or os.path.join(self.out, "summary.json")
        if args.game == "shogi":
            os.makedirs(os.path.join(self.out, "csa"), exist_ok=True)
            self.pgn_path = None
        else:
            self.pgn_path = os.path.join(self.out, "games.pgn")
            open(self.pgn_path, "w").close()
        if args.engine_logs:
            os.makedirs(os.path.join(self.out, "logs"), exist_ok=True)
        self.specs = [
            {"command": args.engine1, "options": parse_options(args.options1), "name": args.name1},
            {"command": args.engine2, "options": parse_options(args.options2), "name": args.name2},
        ]
        self.lock = threading.Lock()
        self.next_game = 0
        self.stop = False
        self.results: Dict[int, dict] = {}
        self.names: List[Optional[str]] = [args.name1, args.name2]
        self.sprt_state: Optional[dict] = None
        self.stopped_at: Optional[int] = None
        self.fatal: Optional[str] = None

    # ---------------------------------------------------------- engines --
    def make_engine(self, i: int, worker: int):
        spec = self.specs[i]
        log = (os.path.join(self.out, "logs", f"engine{i + 1}_w{worker}.log")
               if self.args.engine_logs and self.args.protocol == "usi" else None)
        cls = USIEngine if self.args.protocol == "usi" else UCIEngine
        eng = cls(spec["command"], spec["options"], name=spec["name"], log_path=log)
        eng.start()
        return eng

    def display_names(self, engines) -> List[str]:
        with self.lock:
            if self.names[0] is None or self.names[1] is None:
                n = [self.names[0] or engines[0].name, self.names[1] or engines[1].name]
                if n[0] == n[1]:
                    n = [n[0] + " #1", n[1] + " #2"]
                self.names = n
            return list(self.names)

    # ------------------------------------------------------------ games --
    def take_game(self) -> Optional[int]:
        with self.lock:
            if self.stop or self.fatal or self.next_game >= self.args.games:
                return None
            g = self.next_game
            self.next_game += 1
            return g

    def worker(self, wid: int, bar) -> None:
        engines: List = [None, None]
        try:
            while True:
                g = self.take_game()
                if g is None:
                    return
                for i in (0, 1):
                    if engines[i] is None or not engines[i].alive():
                        if engines[i] is not None:
                            engines[i].quit()
                        try:
                            engines[i] = self.make_engine(i, wid)
                        except Exception as e:  # noqa: BLE001
                            engines[i] = None
                            with self.lock:
                                if not self.results:
                                    self.fatal = f"engine {i + 1} failed to start: {type(e).__name__}: {e}"
                                    return
                if engines[0] is None or engines[1] is None:
                    bad = 0 if engines[0] is None else 1
                    out = GameOutcome("0-1" if (bad == 0) == (g % 2 == 0) else "1-0",
                                      f"engine {bad + 1} failed to start", "crash",
                                      loser=bad if g % 2 == 0 else 1 - bad)
                    self.record(g, out, self.opening_for(g), ["?", "?"], None)
                    bar.update(1)
                    continue
                names = self.display_names(engines)
                loser = self.play_one(g, engines, names)
                if loser is not None:   # restart an engine that crashed or overran its time
                    engines[loser].quit()
                    engines[loser] = None
                self.update_bar(bar)
        finally:
            for e in engines:
                if e is not None:
                    e.quit()

    def opening_for(self, g: int) -> int:
        return self.order[(g // 2) % len(self.order)]

    def play_one(self, g: int, engines, names: List[str]) -> Optional[int]:
        """Play game g; return the index (0/1) of an engine to restart, if any."""
        oi = self.opening_for(g)
        op = self.openings[oi]
        swap = g % 2 == 1
        seat = [engines[1], engines[0]] if swap else [engines[0], engines[1]]
        seat_names = [names[1], names[0]] if swap else [names[0], names[1]]
        seat_tcs = [self.engine_tcs[1], self.engine_tcs[0]] if swap else list(self.engine_tcs)
        t0 = time.time()
        try:
            if self.args.game == "shogi":
                out = play_shogi_game(seat, op.start, op.moves, seat_tcs, self.adj)
            else:
                out = play_chess_game(seat, op.start, op.moves, seat_tcs, self.adj, game_tag=object())
        except ValueError as e:  # a bad opening line is a usage error
            with self.lock:
                self.fatal = f"opening {oi}: {e}"
            return None
        for side, e in enumerate(seat):
            if self.args.game == "shogi" and e.alive():
                res = "draw" if out.loser is None else ("lose" if out.loser == side else "win")
                e.gameover(res)
        rec_path = None
        if self.args.game == "shogi":
            rec_path = os.path.join(self.out, "csa", f"game_{g + 1:04d}.csa")
            write_csa(rec_path, seat_names, op.start, op.moves, out, info={
                "EVENT": "kishi match", "GAME": str(g + 1), "OPENING": str(oi),
                "START_TIME": _dt.datetime.fromtimestamp(t0).strftime("%Y/%m/%d %H:%M:%S"),
                "TIME_CONTROL": self.tc_text()})
        else:
            rec_path = self.pgn_path
            pg = pgn_game(seat_names, op.start, op.moves, out, headers={
                "Event": "kishi match", "Round": str(g + 1), "TimeControl": self.engine_tcs[0].pgn_tag() if self.same_tc()
                else "?",
                "Opening": op.label[:80]})
            append_pgn(self.pgn_path, pg)
        self.record(g, out, oi, seat_names, rec_path, duration=time.time() - t0)
        if out.loser is not None and out.termination in ("crash", "time_forfeit", "illegal_move"):
            return (1 - out.loser) if swap else out.loser
        return None

    def record(self, g: int, out: GameOutcome, oi: int, seat_names: List[str], rec_path: Optional[str],
               duration: float = 0.0) -> None:
        swap = g % 2 == 1
        first_side = 1 if swap else 0   # the side engine 1 played
        if out.result == "1/2-1/2":
            s1 = 0.5
        else:
            winner_side = 0 if out.result == "1-0" else 1
            s1 = 1.0 if winner_side == first_side else 0.0
        loser_engine = None
        if out.loser is not None:
            loser_engine = 1 if out.loser == first_side else 2
        entry = {
            "game": g + 1, "opening_index": oi, "engine1_side": "first" if not swap else "second",
            "players": seat_names, "result": out.result, "engine1_score": s1,
            "termination": out.termination, "reason": out.reason, "loser_engine": loser_engine,
            "plies": len(self.openings[oi].moves) + len(out.moves), "engine_plies": len(out.moves),
            "duration_s": round(duration, 2), "record": rec_path,
        }
        with self.lock:
            self.results[g] = entry
            if self.args.sprt and self.stopped_at is None:
                w, d, l = self.wdl()
                self.sprt_state = stats.sprt(w, d, l, self.args.elo0, self.args.elo1,
                                             self.args.alpha, self.args.beta)
                if self.sprt_state["decision"] is not None:
                    self.stop = True
                    self.stopped_at = len(self.results)

    def wdl(self):
        s = [r["engine1_score"] for r in self.results.values()]
        return s.count(1.0), s.count(0.5), s.count(0.0)

    def update_bar(self, bar) -> None:
        with self.lock:
            w, d, l = self.wdl()
            post = f"{w}-{d}-{l}"
            t = stats.trinomial(w, d, l)
            if t["elo"] is not None and t["elo_error"] is not None:
                post += f" elo {t['elo']:+.0f}±{t['elo_error']:.0f}"
            if self.sprt_state:
                post += f" llr {self.sprt_state['llr']:+.2f}"
        bar.set_postfix_str(post)
        bar.update(1)

    def same_tc(self) -> bool:
        return self.engine_tcs[0].to_json() == self.engine_tcs[1].to_json()

    def tc_text(self) -> str:
        if self.same_tc():
            return self.engine_tcs[0].describe()
        return " vs ".join(t.describe() for t in self.engine_tcs)

    # ---------------------------------------------------------- summary --
    def summary(self, wall: float, started: str) -> dict:
        games = [self.results[k] for k in sorted(self.results)]
        w, d, l = self.wdl()
        tri = stats.trinomial(w, d, l)
        pairs = []
        for k in sorted(self.results):
            if k % 2 == 0 and k + 1 in self.results:
                pairs.append((self.results[k]["engine1_score"], self.results[k + 1]["engine1_score"]))
        penta_counts = stats.pentanomial_counts(pairs)
        penta = stats.pentanomial(penta_counts)
        anomalies = {f"engine{i}": {t: 0 for t in ANOMALIES} for i in (1, 2)}
        losses_by_reason = {f"engine{i}": {"ordinary": 0, "adjudicated": 0, **{t: 0 for t in ANOMALIES}}
                            for i in (1, 2)}
        terminations: Dict[str, int] = {}
        anomalous = []
        for gm in games:
            terminations[gm["termination"]] = terminations.get(gm["termination"], 0) + 1
            le = gm["loser_engine"]
            if le is None:
                continue
            key = f"engine{le}"
            if gm["termination"] in ANOMALIES:
                anomalies[key][gm["termination"]] += 1
                losses_by_reason[key][gm["termination"]] += 1
                anomalous.append({"game": gm["game"], "engine": le, "termination": gm["termination"],
                                  "reason": gm["reason"]})
            elif gm["termination"] == "adjudication":
                losses_by_reason[key]["adjudicated"] += 1
            else:
                losses_by_reason[key]["ordinary"] += 1
        by_side = {}
        for label, side in (("engine1_first", "first"), ("engine1_second", "second")):
            sc = [gm["engine1_score"] for gm in games if gm["engine1_side"] == side]
            by_side[label] = {"wins": sc.count(1.0), "draws": sc.count(0.5), "losses": sc.count(0.0)}
        sprt_out = None
        if self.args.sprt:
            sprt_out = stats.sprt(w, d, l, self.args.elo0, self.args.elo1, self.args.alpha, self.args.beta,
                                  penta=penta_counts)
            sprt_out["stopped_at_games"] = self.stopped_at
        return {
            "tool": "kishi scripts/match.py",
            "game": self.args.game, "protocol": self.args.protocol,
            "engines": [{"id": f"engine{i + 1}",
                         "name": self.names[i] or os.path.basename(self.specs[i]["command"].split()[0]),
                         "command": self.specs[i]["command"],
                         "options": self.specs[i]["options"]} for i in (0, 1)],
            "time_control": {**self.engine_tcs[0].to_json(), "description": self.tc_text()},
            "time_controls": [t.to_json() for t in self.engine_tcs],
            "adjudication": {"max_plies": self.adj.max_plies, "resign_score": self.adj.resign_score,
                             "resign_moves": self.adj.resign_moves, "resign_twosided": self.adj.resign_twosided,
                             "draw_score": self.adj.draw_score, "draw_moves": self.adj.draw_moves,
                             "draw_after": self.adj.draw_after},
            "openings": {"file": self.book, "count": len(self.openings), "order": self.args.opening_order,
                         "seed": self.args.seed},
            "concurrency": self.args.concurrency,
            "games_planned": self.args.games, "games_played": len(games),
            "wins": w, "draws": d, "losses": l, "points": w + 0.5 * d,
            "score": tri["score"], "elo": tri["elo"], "elo_low": tri["elo_low"], "elo_high": tri["elo_high"],
            "elo_error": tri["elo_error"], "los": tri["los"],
            "elo_wilson_low": tri["wilson_elo_low"], "elo_wilson_high": tri["wilson_elo_high"],
            "trinomial": tri,
            "pentanomial": {**penta, "labels": stats.PENTA_LABELS},
            "sprt": sprt_out, "stopped_early": self.stopped_at is not None,
            "by_side": by_side, "terminations": terminations,
            "anomalies": anomalies, "losses_by_reason": losses_by_reason, "anomalous_games": anomalous,
            "records": {"format": "CSA" if self.args.game == "shogi" else "PGN",
                        "path": os.path.join(self.out, "csa") if self.args.game == "shogi" else self.pgn_path},
            "games": games,
            "started": started, "finished": _dt.datetime.now().isoformat(timespec="seconds"),
            "wall_time_s": round(wall, 2),
            "command": shlex.join([sys.executable] + sys.argv),
            "fatal_error": self.fatal,
        }

    def run(self) -> dict:
        from tqdm import tqdm
        started = _dt.datetime.now().isoformat(timespec="seconds")
        t0 = time.monotonic()
        n = max(1, min(self.args.concurrency, self.args.games))
        bar = tqdm(total=self.args.games, disable=self.args.no_progress, unit="game", file=sys.stderr,
                   dynamic_ncols=True)
        threads = [threading.Thread(target=self.worker, args=(w, bar), daemon=True) for w in range(n)]
        for t in threads:
            t.start()
        try:
            for t in threads:
                while t.is_alive():
                    t.join(0.5)
        except KeyboardInterrupt:
            with self.lock:
                self.stop = True
            print("\ninterrupted: finishing the games in progress...", file=sys.stderr)
            for t in threads:
                t.join()
        bar.close()
        summ = self.summary(time.monotonic() - t0, started)
        tmp = self.json_path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(_clean(summ), f, indent=1, ensure_ascii=False, allow_nan=False)
        os.replace(tmp, self.json_path)
        return summ


def _clean(o):
    """JSON-safe copy: non-finite floats become null."""
    if isinstance(o, float):
        return o if math.isfinite(o) else None
    if isinstance(o, dict):
        return {k: _clean(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_clean(v) for v in o]
    return o


def format_summary(s: dict) -> str:
    def num(x, fmt):
        return "n/a" if x is None else format(x, fmt)
    e1, e2 = s["engines"][0]["name"], s["engines"][1]["name"]
    lines = [f"{e1} vs {e2}: {s['games_played']} games ({s['game']}, {s['time_control']['description']})",
             f"  W/D/L {s['wins']}/{s['draws']}/{s['losses']}  score {num(s['score'], '.3f')}  "
             f"Elo {num(s['elo'], '+.1f')} [{num(s['elo_low'], '+.1f')}, {num(s['elo_high'], '+.1f')}] "
             f"(±{num(s['elo_error'], '.1f')})  LOS {num(s['los'], '.3f')}",
             f"  Wilson 95% Elo interval [{num(s['elo_wilson_low'], '+.1f')}, {num(s['elo_wilson_high'], '+.1f')}]"]
    p = s["pentanomial"]
    lines.append(f"  pentanomial {p['counts']} ({p['pairs']} pairs)  Elo {num(p['elo'], '+.1f')} "
                 f"[{num(p['elo_low'], '+.1f')}, {num(p['elo_high'], '+.1f')}]")
    if s["sprt"]:
        sp = s["sprt"]
        lines.append(f"  SPRT elo0={sp['elo0']} elo1={sp['elo1']} LLR {sp['llr']:+.3f} "
                     f"[{sp['lower']:.3f}, {sp['upper']:.3f}] -> {sp['decision'] or 'continue'}")
    for k in ("engine1", "engine2"):
        a = s["anomalies"][k]
        if any(a.values()):
            lines.append(f"  {k}: crashes {a['crash']}, illegal moves {a['illegal_move']}, "
                         f"time forfeits {a['time_forfeit']}")
    lines.append(f"  terminations {s['terminations']}  wall time {s['wall_time_s']:.1f}s")
    if s.get("fatal_error"):
        lines.append(f"  FATAL: {s['fatal_error']}")
    return "\n".join(lines)


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if args.games < 1 or args.concurrency < 1:
        raise SystemExit("--games and --concurrency must be positive")
    m = Match(args)
    s = m.run()
    if not args.quiet:
        print(format_summary(s))
        print(f"summary: {m.json_path}")
    return 2 if s.get("fatal_error") else 0


if __name__ == "__main__":
    sys.exit(main())
