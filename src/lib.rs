//! kishi: a shogi (USI) and chess (UCI) engine with a built-in Minimax Tree Optimization learner.
//!
//! Layout (see DESIGN.md and the README): `game` holds the rules interface every other module is
//! generic over; `eval`, `search` and `learn` are written once against it; `shogi` and `chess`
//! implement it and bind their feature sets; `games` is the one place that names both games;
//! `protocol` and `cli` are the faces. Arrows run downward only (tests/layering.rs).

pub mod chess;
pub mod cli;
pub mod eval;
pub mod game;
pub mod games;
pub mod learn;
pub mod mate;
pub mod protocol;
pub mod search;
pub mod shogi;
pub mod util;
