//! `tune` builds: the game's search parameters (`Game::SEARCH_PARAMS`) as spin options, so an
//! SPSA tuner can set them with `setoption`, and their values carried into the search settings.
//! In a normal build both functions do nothing: the search reads its constants.

use super::engine::SearchConfig;
use super::options::{Options, Spec};
use crate::game::Game;

/// Appends one `spin` option per search parameter (`tune` builds only).
pub fn add_specs<G: Game>(specs: &mut Vec<Spec>) {
    #[cfg(feature = "tune")]
    specs.extend(G::SEARCH_PARAMS.iter().map(|p| Spec {
        name: p.name,
        kind: super::options::Kind::Spin {
            default: p.default as i64,
            min: p.min as i64,
            max: p.max as i64,
        },
    }));
    #[cfg(not(feature = "tune"))]
    let _ = specs;
}

/// Puts the options' values of the search parameters into `config` (`tune` builds only).
pub fn apply<G: Game>(options: &Options, config: &mut SearchConfig) {
    #[cfg(feature = "tune")]
    {
        let mut values = [0i32; crate::game::search_params::COUNT];
        for (v, p) in values.iter_mut().zip(G::SEARCH_PARAMS.iter()) {
            // Options::set keeps every value inside the declared range, which fits in i32.
            *v = options.int(p.name) as i32;
        }
        config.params.tuned = Some(values);
    }
    #[cfg(not(feature = "tune"))]
    let _ = (options, config);
}
