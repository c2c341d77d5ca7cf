//! The learner: Minimax Tree Optimization (`learn mmto`) and comparison training (`learn ct`, the
//! paper's baseline) from expert game records, using the play search to find PV leaves.
//!
//! `learn …` at the engine console and `kishi learn …` on the command line share `LearnArgs::parse`
//! and `crate::games::learn` (which picks the game's feature set and calls `run::run`).

pub mod args;
pub mod checkpoint;
pub mod dataset;
pub mod mmto;
pub mod run;

pub use args::{help_text, ArgsError, LearnArgs};
