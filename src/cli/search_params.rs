//! `kishi search-params <shogi|chess>` (developer command): the game's search parameter table
//! (`Game::SEARCH_PARAMS`) as an SPSA parameter space in shogiarena's JSON format
//! (`shogiarena.spsa.space.v1`): one entry per parameter, each the USI option of the same name in
//! a `tune` build, with its default, bounds and schedule. scripts/spsa.py hands it to the tuner,
//! so the tuner's space is always the table the binary was built with.

use super::GameName;
use crate::game::search_params::SearchParamTable;
use crate::game::Game;
use serde_json::json;

/// SPSA's final learning rate R_end = a_end / c_end² (fishtest's and shogiarena's usual 0.002):
/// with c_end the table's step, a parameter moves by about R_end · c_end² per game point.
const R_END: f64 = 0.002;

pub fn run(game: GameName) -> i32 {
    let table = match game {
        GameName::Shogi => &crate::shogi::ShogiPos::SEARCH_PARAMS,
        GameName::Chess => &crate::chess::ChessPos::SEARCH_PARAMS,
    };
    match serde_json::to_string_pretty(&space(table)) {
        Ok(s) => {
            // A closed pipe (`| head`) is not an error worth a panic.
            use std::io::Write;
            let _ = writeln!(std::io::stdout(), "{s}");
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

/// The table as a shogiarena SPSA space.
pub fn space(table: &SearchParamTable) -> serde_json::Value {
    let parameters: Vec<serde_json::Value> = table
        .iter()
        .map(|p| {
            json!({
                "id": p.name,
                "target": { "option": p.name, "value_encoding": "integer" },
                "value_type": "int",
                "initial": p.default,
                "bounds": { "min": p.min, "max": p.max },
                "schedule": { "c_end": p.step, "r_end": R_END },
            })
        })
        .collect();
    json!({
        "schema_version": "shogiarena.spsa.space.v1",
        "target": { "engine_family": "kishi", "protocol": "usi_options" },
        "parameters": parameters,
    })
}
