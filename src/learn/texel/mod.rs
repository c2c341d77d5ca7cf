//! `learn texel`: evaluation weights by regression on labelled positions (Texel's tuning method,
//! after Peter Österlund's engine Texel): each position's target is a teacher engine's score
//! (EPD `ce`, turned into an expected result by the logistic g) and/or the game's result, and the
//! evaluation of its quiescence leaf is fitted to it by cross-entropy with Adam in floating point.
//! One quiescence search per position and iteration, instead of MMTO's search of every legal
//! move, so millions of positions fit in minutes; the teacher's score carries far more
//! information per position than a game result or a single expert move.
//!
//! One concern per file: `args` (the command line), `data` (positions and targets), `leaves` (the
//! quiescence leaves as compact feature vectors), `measure` (the loss of fixed weights), `optim` (loss, gradient, Adam) and `run`
//! (iterations, metrics, weight files, checkpoints and resume). The float weights are the shared
//! `learn::model`.

pub mod args;
pub mod data;
pub mod leaves;
pub mod measure;
pub mod optim;
pub mod run;

pub use args::{help_text, is_texel, TexelArgs};
pub use run::{run, TexelSummary};
