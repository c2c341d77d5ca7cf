//! `bench`: a fixed set of positions searched to a fixed depth. With one thread the node count is
//! deterministic and is the search's signature (DESIGN §5); nodes/second measures speed, and the
//! node counts of the last iterations give the effective branching factor.

use super::{Engine, Limits};
use crate::eval::Evaluator;
use crate::game::{Game, GameHistory};
use parking_lot::Mutex;
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

/// Shogi bench positions: the start position, opening, middlegame and endgame positions.
pub const SHOGI_POSITIONS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgk1snl/1r4gb1/p1pppp1pp/6p2/1p5P1/2P6/PP1PPPP1P/1BG4R1/LNS1KGSNL b - 9",
    "ln1g3nl/1r1sk1gb1/p1pppp1pp/1p4p2/7P1/2P6/PPBPPPP1P/2GS3R1/LN2KGSNL b S 15",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    "lr5nl/3gk1g2/2n1p1sp1/p1ppspp1p/1p5P1/P1PPSPP1P/1PS1P1N2/2G2G3/LNK4RL b Bb 41",
    "lr5nl/3gk1s2/4p2p1/p1pp1s2p/3n1NP2/P1PSSb2P/1P2P4/1KGG5/LN6L b BG4Pr2p 71",
];

/// Chess bench positions (well-known test positions: opening, middlegames, endgames).
pub const CHESS_POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
    "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "3r1rk1/p5pp/bpp1pp2/8/q1PP1P2/b3P3/P2NQRPP/1R2B1K1 b - - 6 22",
    "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "8/3p4/8/8/8/8/3P4/3K1k2 w - - 0 1",
    "2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1",
];

pub fn positions_for<G: Game>() -> &'static [&'static str] {
    match G::NAME {
        "shogi" => SHOGI_POSITIONS,
        _ => CHESS_POSITIONS,
    }
}

/// Default bench depth per game (deep enough to exercise pruning, quick enough for CI).
pub fn default_depth<G: Game>() -> u32 {
    match G::NAME {
        "shogi" => 8,
        _ => 12,
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BenchResult {
    pub nodes: u64,
    pub seconds: f64,
    pub nps: u64,
    /// Geometric mean over positions of the node ratio between the last two iterations.
    pub ebf: f64,
}

/// Searches every bench position to `depth` with a cleared table and prints one line per position
/// and the totals (`Nodes searched: N`, `Nodes/second: X`).
pub fn run<G: Game, E: Evaluator<G> + Clone>(
    eval: E,
    depth: u32,
    threads: usize,
    hash_mb: usize,
    out: &mut dyn Write,
) -> std::io::Result<BenchResult> {
    // The size comes from a command line or an option: a table that cannot be had is an error
    // for the caller to print, not an abort.
    let mut engine: Engine<G, E> = Engine::try_new(eval, threads, hash_mb).map_err(|(_, e)| {
        std::io::Error::new(
            std::io::ErrorKind::OutOfMemory,
            format!("a hash table of {hash_mb} MB cannot be allocated ({e})"),
        )
    })?;
    let mut total_nodes = 0u64;
    let mut log_ebf = 0.0;
    let mut ebf_count = 0;
    let start = Instant::now();
    for (i, text) in positions_for::<G>().iter().enumerate() {
        let pos = match G::from_text(text) {
            Ok(p) => p,
            Err(e) => {
                writeln!(out, "info string error: bench position {}: {e}", i + 1)?;
                continue;
            }
        };
        engine.clear_hash();
        let per_depth = Arc::new(Mutex::new(Vec::<u64>::new()));
        let pd = Arc::clone(&per_depth);
        let history = GameHistory::new(pos);
        let r = engine.search_sync(
            &history,
            &Limits::depth(depth),
            Box::new(move |info| {
                if info.bound == super::Bound::Exact && info.multipv == 1 {
                    pd.lock().push(info.nodes);
                }
            }),
        );
        let nodes = per_depth.lock().clone();
        if nodes.len() >= 3 {
            let n = nodes.len();
            let a = nodes[n - 1].saturating_sub(nodes[n - 2]) as f64;
            let b = nodes[n - 2].saturating_sub(nodes[n - 3]) as f64;
            if a > 0.0 && b > 0.0 {
                log_ebf += (a / b).ln();
                ebf_count += 1;
            }
        }
        let best = r
            .best
            .map(|m| history.current().move_text(m))
            .unwrap_or_else(|| "none".into());
        writeln!(
            out,
            "position {:>2}/{}: depth {} nodes {} bestmove {} score {}",
            i + 1,
            positions_for::<G>().len(),
            r.depth,
            r.nodes,
            best,
            r.score
        )?;
        total_nodes += r.nodes;
    }
    let seconds = start.elapsed().as_secs_f64();
    let nps = (total_nodes as f64 / seconds.max(1e-9)) as u64;
    let ebf = if ebf_count > 0 {
        (log_ebf / ebf_count as f64).exp()
    } else {
        0.0
    };
    writeln!(out, "===========================")?;
    writeln!(out, "Total time (ms) : {}", (seconds * 1000.0) as u64)?;
    writeln!(out, "Effective branching factor: {ebf:.2}")?;
    writeln!(out, "Nodes searched: {total_nodes}")?;
    writeln!(out, "Nodes/second: {nps}")?;
    Ok(BenchResult {
        nodes: total_nodes,
        seconds,
        nps,
        ebf,
    })
}
