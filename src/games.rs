//! The one module that names both games, for the faces (the command line and the console) that
//! choose a game by name: "shogi" or "chess". Everything below it is generic over `Game`; nothing
//! below it may import it (tests/layering.rs).

use crate::chess::{features::ChessFeatures, ChessPos};
use crate::eval::{Verify, Weights};
use crate::learn::{run, LearnArgs};
use crate::shogi::{features::Bonanza, ShogiPos};
use std::path::Path;

/// Loads a weight file for `expected_game` ("shogi" or "chess") with that game's feature set,
/// with the `isready` level of checking. The error names the file and the problem.
pub fn load_weight_file(path: &Path, expected_game: &str) -> Result<Weights, String> {
    match expected_game {
        "shogi" => Weights::load::<ShogiPos, Bonanza>(path, Verify::Load),
        "chess" => Weights::load::<ChessPos, ChessFeatures>(path, Verify::Load),
        other => Err(format!("{}: unknown game '{other}'", path.display())),
    }
}

/// Runs `learn` for the game its arguments name (`LearnArgs::parse` accepts only the two).
pub fn learn(a: &LearnArgs, out: &mut dyn std::io::Write) -> Result<run::RunSummary, String> {
    match a.game.as_str() {
        "shogi" => run::run::<ShogiPos, Bonanza>(a, out),
        _ => run::run::<ChessPos, ChessFeatures>(a, out),
    }
}

/// Runs `learn texel` for the game its arguments name.
pub fn learn_texel(
    a: &crate::learn::texel::TexelArgs,
    out: &mut dyn std::io::Write,
) -> Result<crate::learn::texel::TexelSummary, String> {
    use crate::learn::texel::run;
    match a.game.as_str() {
        "shogi" => run::<ShogiPos, Bonanza>(a, out),
        _ => run::<ChessPos, ChessFeatures>(a, out),
    }
}

/// Runs `learn results` (self-play games, then a fit to their results) for the game its
/// arguments name.
pub fn learn_results(
    a: &crate::learn::results::ResultsArgs,
    out: &mut dyn std::io::Write,
) -> Result<crate::learn::results::ResultsSummary, String> {
    use crate::learn::results::run;
    match a.game.as_str() {
        "shogi" => run::<ShogiPos, Bonanza>(a, out),
        _ => run::<ChessPos, ChessFeatures>(a, out),
    }
}

/// Runs self-play learning (`learn treestrap|rootstrap|tdleaf`) for the game its arguments name.
pub fn learn_selfplay(
    a: &crate::learn::treestrap::SelfPlayArgs,
    out: &mut dyn std::io::Write,
) -> Result<crate::learn::treestrap::SelfPlaySummary, String> {
    use crate::learn::treestrap::run;
    match a.game.as_str() {
        "shogi" => run::<ShogiPos, Bonanza>(a, out),
        _ => run::<ChessPos, ChessFeatures>(a, out),
    }
}
