//! The UCI dialect (chess): handshake, option table, `go` words (with `searchmoves`), `debug` and
//! `ucinewgame`. Clocks are by colour: `w…` is white (`Side::First`), `b…` is black.

use super::controller::{
    clock, legal_move, perft_depth, rule_options, time_options, Controller, Flavour, Flow,
    GoRequest,
};
use super::engine::{Limits, SearchConfig};
use super::options::{Kind, Options, Spec};
use super::tokenizer::{parse_time_ms, Tokens};
use super::usi::{depth, no_args};
use crate::chess::ChessPos;
use crate::game::Game;

pub struct Uci;

/// Words that end a `searchmoves` list.
const GO_WORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

fn spin(name: &'static str, default: i64, min: i64, max: i64) -> Spec {
    Spec {
        name,
        kind: Kind::Spin { default, min, max },
    }
}

impl Flavour for Uci {
    type G = ChessPos;
    const USI: bool = false;
    const POSITION_KEYWORD: &'static str = "fen";
    const NO_MOVE: &'static str = "0000";

    fn option_specs() -> Vec<Spec> {
        let mut specs = vec![
            // The maximum is the machine's memory (see `memory`).
            spin("Hash", 16, 1, super::memory::max_hash_mb()),
            Spec {
                name: "Clear Hash",
                kind: Kind::Button,
            },
            spin("Threads", 1, 1, 256),
            Spec {
                name: "Ponder",
                kind: Kind::Check(false),
            },
            spin("MultiPV", 1, 1, 500),
            Spec {
                name: "EvalFile",
                kind: Kind::Filename(""),
            },
            spin("Move Overhead", 50, 0, 5000),
            // Centipawns a draw is worth less than zero to the engine (Stockfish 11's name and
            // sense): above 0 it avoids repetitions and dead-drawn exchanges it could play on.
            spin("Contempt", 0, -1000, 1000),
        ];
        super::tune::add_specs::<ChessPos>(&mut specs);
        specs
    }

    fn parse_go(
        ctrl: &Controller<Self>,
        t: &mut Tokens,
    ) -> Result<GoRequest<<ChessPos as Game>::Move>, String> {
        let mut limits = Limits::default();
        let mut time = [None, None];
        let mut inc = [0, 0];
        let mut movestogo = None;
        while let Some(w) = t.next() {
            let value = |t: &mut Tokens| -> Result<u64, String> {
                let v = t.next().ok_or_else(|| format!("'{w}' needs a number"))?;
                parse_time_ms(v, w)
            };
            match w {
                "wtime" => time[0] = Some(value(t)?),
                "btime" => time[1] = Some(value(t)?),
                "winc" => inc[0] = value(t)?,
                "binc" => inc[1] = value(t)?,
                "movestogo" => {
                    let n: u32 = t.number("movestogo")?;
                    movestogo = (n > 0).then_some(n);
                }
                "movetime" => limits.movetime_ms = Some(value(t)?),
                "depth" => limits.depth = Some(depth(t)?),
                "nodes" => limits.nodes = Some(t.number("nodes")?),
                "mate" => {
                    let n: u32 = t.number("mate")?;
                    if n == 0 {
                        return Err("mate needs a number of moves from 1".into());
                    }
                    limits.mate = Some(n);
                }
                "infinite" => limits.infinite = true,
                "ponder" => limits.ponder = true,
                "searchmoves" => {
                    let words = t.until(GO_WORDS);
                    if words.is_empty() {
                        return Err("'searchmoves' needs at least one move".into());
                    }
                    let pos = ctrl.position();
                    limits.searchmoves = words
                        .iter()
                        .map(|m| legal_move(pos, m).map_err(|e| format!("searchmoves: {e}")))
                        .collect::<Result<_, _>>()?;
                }
                "perft" => return Ok(GoRequest::Perft(perft_depth(t)?)),
                other => return Err(format!("unknown go parameter '{other}'")),
            }
        }
        limits.clock = clock(time, inc, 0, movestogo);
        Ok(GoRequest::Search(limits))
    }

    fn search_config(options: &Options) -> SearchConfig {
        let contempt = options.int("Contempt") as i32;
        let mut config = SearchConfig {
            rules: rule_options(options),
            // The draw's score for the root side, whichever colour it plays: the engine's contempt
            // is for the opponent, not for a colour.
            draw_value: [-contempt, -contempt],
            time: time_options(options),
            ..SearchConfig::default()
        };
        super::tune::apply::<ChessPos>(options, &mut config);
        config
    }

    fn threads_and_hash(options: &Options) -> (usize, usize) {
        (
            options.int("Threads").max(1) as usize,
            options.int("Hash").max(1) as usize,
        )
    }

    fn handshake(ctrl: &Controller<Self>) -> Vec<String> {
        let mut lines = vec![
            format!("id name kishi {}", env!("CARGO_PKG_VERSION")),
            "id author the kishi authors".to_string(),
        ];
        lines.extend(ctrl.options.declaration_lines(false));
        lines.push("uciok".into());
        lines
    }

    fn dialect_command(
        ctrl: &mut Controller<Self>,
        cmd: &str,
        t: &mut Tokens,
    ) -> Option<Result<Flow, String>> {
        let r = match cmd {
            "uci" => no_args(cmd, t).map(|_| {
                let lines = Self::handshake(ctrl);
                ctrl.out.lines(&lines);
            }),
            "ucinewgame" => no_args(cmd, t).map(|_| ctrl.new_game()),
            "debug" => match (t.next(), t.next()) {
                (Some("on"), None) => {
                    ctrl.debug = true;
                    Ok(())
                }
                (Some("off"), None) => {
                    ctrl.debug = false;
                    Ok(())
                }
                _ => Err("debug takes 'on' or 'off'".into()),
            },
            "usi" | "usinewgame" | "gameover" => {
                Err(format!("'{cmd}' is USI; this session speaks UCI"))
            }
            _ => return None,
        };
        Some(r.map(|_| Flow::Continue))
    }
}
