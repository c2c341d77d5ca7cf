//! `kishi search-params <shogi|chess>` (developer command): the game's search parameter table
//! (`Game::SEARCH_PARAMS`) as an SPSA parameter file in shogiarena's format, one line per
//! parameter: `name, int, default, min, max, c_end, r_end`. scripts/spsa.py writes it for the
//! tuner, so the tuner's space is always the table the binary was built with.

use super::GameName;
use crate::game::search_params::SearchParamTable;
use crate::game::Game;

/// SPSA's final learning rate R_end = a_end / c_end² (fishtest's usual 0.002): with c_end the
/// table's step, a parameter moves by about R_end · c_end² per unit of game result.
const R_END: f64 = 0.002;

pub fn run(game: GameName) -> i32 {
    let table = match game {
        GameName::Shogi => &crate::shogi::ShogiPos::SEARCH_PARAMS,
        GameName::Chess => &crate::chess::ChessPos::SEARCH_PARAMS,
    };
    print!("{}", space_text(table));
    0
}

/// The table in shogiarena's SPSA parameter-file format.
pub fn space_text(table: &SearchParamTable) -> String {
    table
        .iter()
        .map(|p| {
            format!(
                "{}, int, {}, {}, {}, {}, {R_END}\n",
                p.name, p.default, p.min, p.max, p.step
            )
        })
        .collect()
}
