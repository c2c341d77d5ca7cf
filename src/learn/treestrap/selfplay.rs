//! One training game of self-play: an opening from the set, a few random plies, then a depth-D
//! training search per move (alpha-beta, or TreeStrap(minimax)'s full-width tree) with the
//! game's current weights, the chosen backup after every search (the weights change from move
//! to move, as in the paper's Algorithm 1) and the search's move played greedily. A game depends only on the weights it starts from, its index and the
//! settings, never on other games or threads: that is what makes parallel self-play and resumes
//! exact.

use super::args::{SelfPlayArgs, Variant};
use super::backup::{target, Backup, BackupStats, TdLeaf};
use crate::eval::{FeatureSet, LinearEval};
use crate::game::{Game, GameHistory, RuleOptions, Side};
use crate::learn::learned::Learned;
use crate::learn::model::Model;
use crate::learn::selfplay_common::{opening, result_of};
use crate::search::learner::TrainingSearch;
use crate::search::minimax::MinimaxSearch;
use std::sync::Arc;

/// What one game produced.
#[derive(Debug, Clone, Default)]
pub struct GameOut {
    /// The game's summed weight change (local index).
    pub delta: Vec<f64>,
    pub stats: BackupStats,
    /// Plies searched (learning plies).
    pub plies: u64,
    /// Nodes searched over the game.
    pub nodes: u64,
    /// +1 first side won, −1 second side won, 0 draw, `None` stopped at --max-plies.
    pub result: Option<i32>,
}

/// Plays game `index` from `start` weights; the backups change a copy of them move by move, and
/// the sum of the changes is returned.
pub fn play<G: Game, F: FeatureSet<G>>(
    start: &Model,
    learned: &Learned,
    openings: &[GameHistory<G>],
    args: &SelfPlayArgs,
    index: u64,
    search: &mut TrainingSearch,
) -> Result<GameOut, String> {
    let etas = args.table_etas(learned)?;
    let mut model = start.clone();
    let mut out = GameOut {
        delta: vec![0.0; learned.n_local],
        ..Default::default()
    };
    let mut backup = Backup::new(learned, etas.clone(), args.score_cap, args.min_depth);
    backup.quiet_nodes = args.quiet_nodes;
    if args.quiescence_values {
        backup.value_by_quiescence();
    }
    let mut minimax = args.minimax.then(MinimaxSearch::new);
    let mut td =
        (args.variant == Variant::Tdleaf).then(|| TdLeaf::new(learned.n_local, args.lambda));
    // The opening and random plies are drawn by the game's own seed (shared with learn results).
    let mut hist = opening(openings, args.seed, args.random_plies, index);
    let rules = RuleOptions::default();
    let prov = r#"{"learner":"kishi","method":"self-play (in training)"}"#;
    let cap = args.score_cap as f64;
    while out.plies < args.max_plies as u64 {
        if let Some(o) = hist.outcome(&rules) {
            out.result = Some(result_of(o));
            break;
        }
        let eval: LinearEval<G, F> = LinearEval::new(Arc::new(model.weights::<G, F>(prov)?));
        let root = hist.current().clone();
        if let Some(mm) = minimax.as_mut() {
            // TreeStrap(minimax): the tree's interior nodes and their exact values.
            let mut nodes: Vec<(G, f64)> = Vec::new();
            let Some(r) = mm.search(&eval, &root, args.depth, args.min_depth, &mut |n| {
                nodes.push((n.pos.clone(), target(n.value, args.score_cap)))
            }) else {
                break;
            };
            out.nodes += r.nodes;
            out.plies += 1;
            let s = backup.treestrap_minimax::<G, F, _>(&mut model, &eval, &nodes, &mut out.delta);
            out.stats.add(&s);
            hist.push(r.best);
            continue;
        }
        let Some(r) = search.search(&eval, &hist, args.depth) else {
            break;
        };
        out.nodes += r.nodes;
        out.plies += 1;
        let s = match args.variant {
            Variant::Treestrap => {
                backup.treestrap::<G, F, _>(&mut model, &eval, search, &root, &r, &mut out.delta)
            }
            Variant::Rootstrap => {
                backup.rootstrap::<G, F, _>(&mut model, &eval, &root, &r, &mut out.delta)
            }
            Variant::Tdleaf => {
                let mut s = BackupStats::default();
                if let Some(td) = td.as_mut() {
                    let sign = if root.side_to_move() == Side::First {
                        1.0
                    } else {
                        -1.0
                    };
                    let v = sign * target(r.score, args.score_cap);
                    td.target(&mut model, v, &etas, learned, &mut out.delta, &mut s);
                    let (f, h) = backup.first_view::<G, F>(&model, &r.leaf);
                    td.leaf(&f, h);
                }
                s
            }
        };
        out.stats.add(&s);
        hist.push(r.best);
    }
    // A game cut at `max_plies` (or whose search found no move, which the outcome test above
    // rules out) stays unscored.
    if let (Some(td), Some(res)) = (td.as_mut(), out.result) {
        // The game's end is the last leaf's target.
        let mut s = BackupStats::default();
        td.target(
            &mut model,
            res as f64 * cap,
            &etas,
            learned,
            &mut out.delta,
            &mut s,
        );
        out.stats.add(&s);
    }
    Ok(out)
}
