//! Formatting of `info` and `bestmove` lines, and the shared, line-flushed output.
//!
//! Every line leaves through `Out`, a mutex around the writer: the search thread reports `info` and
//! `bestmove` while the protocol thread answers `readyok` or errors, and a line must never be
//! interleaved with another. Each line is flushed at once, because a GUI behind a pipe would
//! otherwise see nothing until a buffer fills — the classic cause of "engine does not respond".

use super::engine::{Bound, Info};
use crate::game::score_text;
use parking_lot::Mutex;
use std::io::Write;
use std::sync::Arc;

/// The engine's output channel, cheap to clone into search callbacks.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    pub fn new(w: impl Write + Send + 'static) -> Self {
        Out(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes one line and flushes it. A write error means the GUI has gone; there is nobody left
    /// to tell, and the input side will see EOF and quit, so the error is dropped.
    pub fn line(&self, text: &str) {
        let mut w = self.0.lock();
        let _ = w.write_all(text.as_bytes());
        let _ = w.write_all(b"\n");
        let _ = w.flush();
    }

    /// Several lines under one lock, so nothing is interleaved between them.
    pub fn lines<S: AsRef<str>>(&self, texts: &[S]) {
        let mut w = self.0.lock();
        for t in texts {
            let _ = w.write_all(t.as_ref().as_bytes());
            let _ = w.write_all(b"\n");
        }
        let _ = w.flush();
    }

    /// `info string <text>`: one line per text line, since a newline would end the info string.
    pub fn info_string(&self, text: &str) {
        let lines: Vec<String> = text.lines().map(|l| format!("info string {l}")).collect();
        self.lines(&lines);
    }
}

/// One `info depth … pv …` line. `mate_in_plies`: USI counts mate distances in plies, UCI in moves.
pub fn info_line(info: &Info, mate_in_plies: bool) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth.max(info.depth),
        info.multipv.max(1),
        score_text(info.score, mate_in_plies)
    );
    match info.bound {
        Bound::Exact => {}
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
    }
    s.push_str(&format!(
        " nodes {} nps {} time {} hashfull {}",
        info.nodes,
        info.nps,
        info.time_ms,
        info.hashfull.min(1000)
    ));
    if !info.pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&info.pv.join(" "));
    }
    s
}

/// `bestmove <move> [ponder <move>]`.
pub fn bestmove_line(best: &str, ponder: Option<&str>) -> String {
    match ponder {
        Some(p) => format!("bestmove {best} ponder {p}"),
        None => format!("bestmove {best}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::mate_in;

    fn info(score: i32, bound: Bound) -> Info {
        Info {
            depth: 5,
            seldepth: 9,
            multipv: 1,
            score,
            bound,
            nodes: 1234,
            nps: 5000,
            time_ms: 246,
            hashfull: 17,
            pv: vec!["7g7f".into(), "3c3d".into()],
        }
    }

    #[test]
    fn info_lines_carry_every_field() {
        assert_eq!(
            info_line(&info(31, Bound::Exact), true),
            "info depth 5 seldepth 9 multipv 1 score cp 31 nodes 1234 nps 5000 time 246 hashfull 17 pv 7g7f 3c3d"
        );
        assert!(info_line(&info(31, Bound::Lower), true).contains("score cp 31 lowerbound nodes"));
        assert!(info_line(&info(-8, Bound::Upper), false).contains("score cp -8 upperbound"));
    }

    #[test]
    fn mate_scores_use_plies_for_usi_and_moves_for_uci() {
        assert!(info_line(&info(mate_in(3), Bound::Exact), true).contains("score mate 3 "));
        assert!(info_line(&info(mate_in(3), Bound::Exact), false).contains("score mate 2 "));
    }

    #[test]
    fn bestmove_with_and_without_ponder() {
        assert_eq!(
            bestmove_line("7g7f", Some("3c3d")),
            "bestmove 7g7f ponder 3c3d"
        );
        assert_eq!(bestmove_line("resign", None), "bestmove resign");
    }
}
