//! The learner: Minimax Tree Optimization (`learn mmto`) and comparison training (`learn ct`, the
//! paper's baseline) from expert game records, using the play search to find PV leaves.
//!
//! Shared parts at this level: the arguments (`args`, `config`), the data sets (`dataset`), which
//! parameters are learned (`learned`), step 1's PV leaves (`step1`), the objective and its
//! gradient (`objective`, sparse buffers in `grad`), the compact leaf store with its scratch file
//! (`leaves`), the grid update (`update`), checkpoints (`checkpoint`), the metrics
//! lines and provenance blocks (`metrics`), the starting weights (`init`) and the iteration
//! driver (`run`). One folder per method (`mmto/`, `ct/`), each implementing
//! `method::LearningMethod`, which is all the driver knows of a method.
//!
//! Learners with arguments of their own: `texel/` (regression on labelled positions),
//! `treestrap/` (self-play bootstrapping) and `results/` (generations of self-play games, each
//! fitted by `texel` to the games' results); `selfplay_common` holds what the self-play ones share.
//!
//! `learn …` at the engine console and `kishi learn …` on the command line share `LearnArgs::parse`
//! and `crate::games::learn` (which picks the game's feature set and calls `run::run`).

pub mod args;
pub mod checkpoint;
pub mod config;
pub mod ct;
pub mod dataset;
pub mod grad;
pub mod init;
pub mod learned;
pub mod leaves;
pub mod method;
pub mod metrics;
pub mod mmto;
pub mod model;
pub mod objective;
pub mod progress;
pub mod results;
pub mod run;
pub mod selfplay_common;
pub mod step1;
pub mod texel;
pub mod treestrap;
pub mod update;

pub use args::{help_text, ArgsError, LearnArgs};
pub use config::{LearnConfig, Method, Step};
pub use learned::Learned;
pub use method::{LearningMethod, UpdateInfo};
pub use objective::{l1_term, objective, objective_store, Objective};
pub use step1::{build_eval, step1, Child, PositionData, Step1Stats};
pub use update::{grid_update, grid_update_sparse, nonzero_indices};

/// The results of a scope's worker threads, in order. A worker's panic is a bug: it is passed on
/// rather than learning from partial results.
fn join_all<T>(handles: Vec<crossbeam::thread::ScopedJoinHandle<'_, T>>) -> Vec<T> {
    handles
        .into_iter()
        .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
        .collect()
}
