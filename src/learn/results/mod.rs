//! `learn results`: evaluation weights from the results of self-play games alone, with no
//! records and no teacher. Generation k plays `--games` games with W_k (the play search at fixed
//! nodes, adjudicated by resignation, a ply limit or the rules), then fits W_k to the results of
//! the last `--pool` generations' games with `learn texel` (λ = 0: each position's target is its
//! game's result from the side to move); the fit's weights are W_{k+1}.
//!
//! One concern per file: `args` (the command line), `games` (one generation's games, in
//! parallel and deterministic) and `run` (generations, the fit, metrics, state and resume). The
//! openings are the shared `learn::selfplay_common`, the fit is `learn::texel` unchanged.

pub mod args;
pub mod games;
pub mod run;

pub use args::{help_text, is_results, ResultsArgs};
pub use run::{run, ResultsSummary};
