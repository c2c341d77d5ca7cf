//! kishi: a shogi (USI) and chess (UCI) engine with a built-in Minimax Tree Optimization learner.
//!
//! Layout (see DESIGN.md): `game` holds the rules interface every other module is generic over;
//! `shogi` and `chess` implement it; `search`, `eval`, `learn` and `protocol` are written once.

pub mod chess;
pub mod cli;
pub mod eval;
pub mod game;
pub mod learn;
pub mod mate;
pub mod protocol;
pub mod search;
pub mod shogi;
