//! The USI (shogi) and UCI (chess) front ends: one tokenizer, two dialects, one controller.
//!
//! `run` is the whole protocol loop over any reader and writer, so tests drive exactly the code a
//! GUI drives. Input is read on its own thread and handed over a channel: the loop thread is never
//! stuck in a read, the search runs on the engine's threads, so `stop`, `ponderhit`, `isready` and
//! `quit` are answered while a search runs. The first command chooses the dialect (`usi` → shogi,
//! `uci` → chess); end of input is a clean `quit`.
//!
//! Layout: `tokenizer` (words of a line), `options` (tables and `setoption`), `info` (output lines
//! and the shared writer), `controller` (shared commands), `usi` and `uci` (the dialects),
//! `memory` (the hash option's maximum).

pub mod controller;
pub mod info;
pub mod memory;
pub mod options;
pub mod tokenizer;
pub mod tune;
pub mod uci;
pub mod usi;

/// The search API the controller drives.
pub use crate::search as engine;

use controller::{Controller, Flavour, Flow};
use info::Out;
use std::io::{BufRead, Write};

/// Runs the protocol loop until `quit` or end of input; returns the process exit code.
pub fn run<R, W>(input: R, output: W) -> i32
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let out = Out::new(output);
    let (tx, rx) = crossbeam::channel::unbounded::<String>();
    // Not joined on return: after `quit` it may still be blocked reading a stdin that never closes,
    // and the process exit ends it.
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || read_lines(input, tx))
        .map_err(|e| eprintln!("error: cannot start the input thread: {e}"))
        .ok();
    let lines = rx.into_iter();
    select_dialect(lines, out)
}

/// Reads lines as bytes and decodes them leniently: one invalid UTF-8 byte must produce an error
/// line for that line, not end the session (which `BufRead::lines` would do).
fn read_lines<R: BufRead>(mut input: R, tx: crossbeam::channel::Sender<String>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return, // EOF (or a dead pipe): dropping `tx` tells the loop to quit
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf).into_owned();
                if tx.send(line).is_err() {
                    return;
                }
            }
        }
    }
}

fn select_dialect(mut lines: impl Iterator<Item = String>, out: Out) -> i32 {
    while let Some(line) = lines.next() {
        let mut t = tokenizer::Tokens::new(&line);
        match t.next() {
            None => continue,
            Some("usi") => return session::<usi::Usi>(&line, lines, out),
            Some("uci") => return session::<uci::Uci>(&line, lines, out),
            Some("quit") => return 0,
            Some("help") => out.lines(&[
                "info string kishi: send 'usi' for shogi or 'uci' for chess.",
                "info string then 'help' lists the commands.",
            ]),
            Some(w) => out.line(&format!(
                "info string error: send 'usi' (shogi) or 'uci' (chess) first, not '{}': {}",
                tokenizer::printable(w),
                tokenizer::printable(&line)
            )),
        }
    }
    0
}

fn session<F: Flavour>(first: &str, lines: impl Iterator<Item = String>, out: Out) -> i32 {
    let mut ctrl = Controller::<F>::new(out);
    if ctrl.handle_line(first) == Flow::Quit {
        return 0;
    }
    for line in lines {
        if ctrl.handle_line(&line) == Flow::Quit {
            return 0;
        }
    }
    // End of input: a GUI that closes the pipe wants the engine gone, the same as `quit`.
    ctrl.quit();
    0
}
