//! Self-play learning from search bootstrapping (Veness, Silver, Uther & Blair, "Bootstrapping
//! from Game Tree Search", NIPS 2009): `learn treestrap` (TreeStrap(αβ)) and the paper's
//! baselines `learn rootstrap` (RootStrap(αβ)) and `learn tdleaf` (TD-Leaf(λ)). No records:
//! games of self-play from an opening set, a training search per move
//! (`search::learner::TrainingSearch`), and the linear heuristic moved towards what the search
//! established, through the gradient of the feature set's linear evaluation.
//!
//! One concern per file: `args` (the command line), `backup` (the three update rules),
//! `selfplay` (one game) and `run` (batches, threads, metrics, checkpoints and resume); the
//! opening set is the shared `learn::selfplay_common` and the float weights the shared
//! `learn::model`.

pub mod args;
pub mod backup;
pub mod run;
pub mod selfplay;

/// The opening set, shared with `learn results` (`learn::selfplay_common`).
pub use crate::learn::selfplay_common as openings;

pub use args::{help_text, is_selfplay_method, SelfPlayArgs, Variant};
pub use run::{run, SelfPlaySummary};
