//! The USI dialect (shogi): handshake, option table, `go` words, `gameover` and `usinewgame`.
//!
//! Option names and defaults follow YaneuraOu where it has them, because GUIs, shogiarena and
//! floodgate bridges send YaneuraOu's names (`MaxMovesToDraw`, `EnteringKingRule`,
//! `NetworkDelay`, …). Clocks are by colour: `b…` is sente (`Side::First`), `w…` is gote.

use super::controller::{
    clock, perft_depth, rule_options, time_options, Controller, Flavour, Flow, GoRequest,
};
use super::engine::{Limits, SearchConfig};
use super::options::{Kind, Options, Spec};
use super::tokenizer::{parse_number, parse_time_ms, Tokens};
use crate::game::{Game, RulesError, MAX_PLY};
use crate::shogi::ShogiPos;

pub struct Usi;

const RULES: &[&str] = &[
    "NoEnteringKing",
    "CSARule24",
    "CSARule24H",
    "CSARule27",
    "CSARule27H",
];

fn spin(name: &'static str, default: i64, min: i64, max: i64) -> Spec {
    Spec {
        name,
        kind: Kind::Spin { default, min, max },
    }
}

impl Flavour for Usi {
    type G = ShogiPos;
    const USI: bool = true;
    const POSITION_KEYWORD: &'static str = "sfen";
    const NO_MOVE: &'static str = "resign";

    fn option_specs() -> Vec<Spec> {
        let mut specs = vec![
            // The maximum is the machine's memory (see `memory`).
            spin("USI_Hash", 64, 1, super::memory::max_hash_mb()),
            Spec {
                name: "USI_Ponder",
                kind: Kind::Check(false),
            },
            spin("Threads", 1, 1, 256),
            spin("MultiPV", 1, 1, 500),
            Spec {
                name: "EvalFile",
                kind: Kind::Filename(""),
            },
            // 0 = no limit; shogiarena's adjudication sets it (320 in its defaults).
            spin("MaxMovesToDraw", 0, 0, 100_000),
            Spec {
                name: "EnteringKingRule",
                kind: Kind::Combo {
                    default: "CSARule27",
                    vars: RULES,
                },
            },
            // Time margins in ms. YaneuraOu's defaults (120/1120/2000) are tuned for floodgate over a
            // network; ours suit local GUIs and runners, and a bridge can raise them.
            spin("NetworkDelay", 40, 0, 10_000),
            spin("NetworkDelay2", 150, 0, 10_000),
            spin("MinimumThinkingTime", 100, 0, 100_000),
            spin("SlowMover", 100, 1, 1000),
            spin("DrawValueBlack", -2, -30_000, 30_000),
            spin("DrawValueWhite", -2, -30_000, 30_000),
            // Resign when the score is at or below -ResignValue; 99999 never resigns.
            spin("ResignValue", 99_999, 0, 99_999),
            spin("DepthLimit", 0, 0, MAX_PLY as i64),
            // Spin bounds stay within 32 bits: GUIs read them as 32-bit integers (Qt's toInt in
            // cutechess-derived GUIs reads 2^63-1 as 0, leaving a range of 0..0).
            spin("NodesLimit", 0, 0, i32::MAX as i64),
            // The `go mate` solver's table (MiB); see controller/mate.rs for why not USI_Hash.
            // Bounded by the machine's memory like USI_Hash.
            spin(
                "MateHash",
                super::controller::DEFAULT_MATE_HASH_MB,
                1,
                super::memory::max_hash_mb(),
            ),
            // `go mate`: also count a drop next to the king that the checker takes with mate as a
            // futile interposition (the Shogi Zukou convention; off: the miniosl suite's).
            Spec {
                name: "MateFutileNextToKing",
                kind: Kind::Check(false),
            },
            // The play search's mate-in-1 test (off: it did not gain in A/B matches, docs/mate.md).
            Spec {
                name: "Mate1Ply",
                kind: Kind::Check(false),
            },
            // A df-pn proof of at most this many nodes on the root before each play search
            // (0: off); a proven mate is played at once (docs/mate.md §20).
            spin("RootMateNodes", 0, 0, 100_000_000),
        ];
        super::tune::add_specs::<ShogiPos>(&mut specs);
        specs
    }

    fn parse_go(
        _ctrl: &Controller<Self>,
        t: &mut Tokens,
    ) -> Result<GoRequest<<ShogiPos as Game>::Move>, String> {
        let mut limits = Limits::default();
        let mut time = [None, None];
        let mut inc = [0, 0];
        let mut byoyomi = 0;
        while let Some(w) = t.next() {
            let value = |t: &mut Tokens| -> Result<u64, String> {
                let v = t.next().ok_or_else(|| format!("'{w}' needs a number"))?;
                parse_time_ms(v, w)
            };
            match w {
                "btime" => time[0] = Some(value(t)?),
                "wtime" => time[1] = Some(value(t)?),
                "binc" => inc[0] = value(t)?,
                "winc" => inc[1] = value(t)?,
                "byoyomi" => byoyomi = value(t)?,
                "movetime" => limits.movetime_ms = Some(value(t)?),
                "depth" => limits.depth = Some(depth(t)?),
                "nodes" => limits.nodes = Some(t.number("nodes")?),
                "infinite" => limits.infinite = true,
                "ponder" => limits.ponder = true,
                "perft" => return Ok(GoRequest::Perft(perft_depth(t)?)),
                "mate" => {
                    let ms = match t.next() {
                        Some("infinite") => None,
                        Some(v) => Some(parse_number::<u64>(v, "mate")?),
                        None => return Err("'mate' needs a time in ms or 'infinite'".into()),
                    };
                    if let Some(x) = t.next() {
                        return Err(format!("unexpected '{x}' after 'go mate'"));
                    }
                    return Ok(GoRequest::Mate(ms));
                }
                other => return Err(format!("unknown go parameter '{other}'")),
            }
        }
        limits.clock = clock(time, inc, byoyomi, None);
        Ok(GoRequest::Search(limits))
    }

    fn mate_problem(text: &str) -> Option<Result<ShogiPos, RulesError>> {
        // Only the tsume convention's case: the board has no sente king (the game reader wants
        // both kings). Anything else the game reader rejected stays rejected.
        let board = text.split_whitespace().next()?;
        if board.contains('K') {
            return None;
        }
        Some(crate::shogi::mate::parse_problem(text))
    }

    fn search_config(options: &Options) -> SearchConfig {
        let mut config = SearchConfig {
            rules: rule_options(options),
            draw_value: [
                options.int("DrawValueBlack") as i32,
                options.int("DrawValueWhite") as i32,
            ],
            time: time_options(options),
            ..SearchConfig::default()
        };
        config.params.mate_in_one = options.bool("Mate1Ply");
        super::tune::apply::<ShogiPos>(options, &mut config);
        config
    }

    fn threads_and_hash(options: &Options) -> (usize, usize) {
        (
            options.int("Threads").max(1) as usize,
            options.int("USI_Hash").max(1) as usize,
        )
    }

    fn handshake(ctrl: &Controller<Self>) -> Vec<String> {
        let mut lines = vec![
            format!("id name kishi {}", env!("CARGO_PKG_VERSION")),
            "id author the kishi authors".to_string(),
        ];
        lines.extend(ctrl.options.declaration_lines(true));
        lines.push("usiok".into());
        lines
    }

    fn dialect_command(
        ctrl: &mut Controller<Self>,
        cmd: &str,
        t: &mut Tokens,
    ) -> Option<Result<Flow, String>> {
        let r = match cmd {
            "usi" => no_args(cmd, t).map(|_| {
                let lines = Self::handshake(ctrl);
                ctrl.out.lines(&lines);
            }),
            "usinewgame" => no_args(cmd, t).map(|_| ctrl.new_game()),
            "gameover" => match (t.next(), t.next()) {
                (Some("win" | "lose" | "draw"), None) => {
                    ctrl.game_over();
                    Ok(())
                }
                (Some(w), None) => Err(format!("gameover takes win, lose or draw, not '{w}'")),
                (None, _) => Err("gameover needs win, lose or draw".into()),
                (Some(_), Some(x)) => Err(format!("unexpected '{x}' after gameover")),
            },
            "uci" | "ucinewgame" | "debug" => {
                Err(format!("'{cmd}' is UCI; this session speaks USI"))
            }
            _ => return None,
        };
        Some(r.map(|_| Flow::Continue))
    }
}

pub(super) fn no_args(cmd: &str, t: &mut Tokens) -> Result<(), String> {
    match t.next() {
        None => Ok(()),
        Some(w) => Err(format!("'{cmd}' takes no arguments, found '{w}'")),
    }
}

/// A search depth: at least 1; anything beyond the engine's maximum ply means "as deep as it goes".
pub(super) fn depth(t: &mut Tokens) -> Result<u32, String> {
    let d: i64 = t.number("depth")?;
    if d < 1 {
        return Err(format!("depth must be at least 1, not {d}"));
    }
    Ok(d.min(MAX_PLY as i64) as u32)
}
