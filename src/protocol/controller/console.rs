//! The console commands both dialects share beyond the protocol: `d` (board, position text, key,
//! legal moves), `eval` (static evaluation by table), `perft`, `bench`, `learn` and `help`.

use super::super::info::Out;
use super::{Controller, Flavour};
use crate::eval::Evaluator;
use crate::game::{perft_divide, Game, Side};
use crate::learn::{ArgsError, LearnArgs};
use std::time::Instant;

impl<F: Flavour> Controller<F> {
    pub(super) fn display(&self) {
        let pos = self.history.current();
        let text = pos.to_text();
        let mut lines = board_diagram(&text);
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut texts: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
        texts.sort();
        lines.push(format!("Position: {} {}", F::POSITION_KEYWORD, text));
        lines.push(format!("Key: {:016x}", pos.key()));
        lines.push(format!(
            "Side to move: {}",
            side_name::<F>(pos.side_to_move())
        ));
        lines.push(format!(
            "In check: {}",
            if pos.in_check() { "yes" } else { "no" }
        ));
        lines.push(format!("Plies played: {}", self.history.len_plies()));
        lines.push(format!(
            "Legal moves ({}): {}",
            texts.len(),
            texts.join(" ")
        ));
        self.out.lines(&lines);
    }

    pub(super) fn show_eval(&mut self) -> Result<(), String> {
        if self.searching() {
            return Err("eval while a search is running (send stop first)".into());
        }
        let pos = self.history.current().clone();
        let eval = self.prepare("eval").eval().clone();
        let source = if self.eval_in_use.is_empty() {
            "built-in".to_string()
        } else {
            self.eval_in_use.clone()
        };
        let mut lines = vec![format!(
            "Evaluation from the side to move ({}); weights: {}",
            side_name::<F>(pos.side_to_move()),
            source
        )];
        for (name, v) in eval.breakdown(&pos) {
            lines.push(format!("  {name:<24} {v:>8}"));
        }
        self.out.lines(&lines);
        Ok(())
    }

    pub(super) fn perft(&mut self, depth: u32) -> Result<(), String> {
        if self.searching() {
            return Err("perft while a search is running (send stop first)".into());
        }
        let start = Instant::now();
        let lines = perft_divide(self.history.current(), depth);
        let text = crate::game::format_divide(&lines, start.elapsed().as_secs_f64());
        let lines: Vec<&str> = text.lines().collect();
        self.out.lines(&lines);
        Ok(())
    }

    /// `bench [depth]`: the search's fixed positions (`search::bench`) with the current evaluation,
    /// threads and hash size.
    /// `learn <method> …`: the learner, run to completion on this thread (the same parser and code
    /// as `kishi learn`; the game is this dialect's unless `--game` says otherwise).
    pub(super) fn learn(&mut self, args: &[String]) -> Result<(), String> {
        if self.searching() {
            return Err("learn while a search is running (send stop first)".into());
        }
        if args
            .first()
            .is_some_and(|m| crate::learn::treestrap::is_selfplay_method(m))
        {
            return self.learn_selfplay(args);
        }
        if args
            .first()
            .is_some_and(|m| crate::learn::texel::is_texel(m))
        {
            return self.learn_texel(args);
        }
        if args
            .first()
            .is_some_and(|m| crate::learn::results::is_results(m))
        {
            return self.learn_results(args);
        }
        let a = match LearnArgs::try_parse(args, Some(<F::G as Game>::NAME)) {
            Ok(a) => a,
            Err(ArgsError::Help) => {
                // The same text as `kishi learn --help`, one `info string` per line.
                let lines: Vec<String> = crate::learn::help_text()
                    .lines()
                    .map(|l| format!("info string {l}").trim_end().to_string())
                    .collect();
                self.out.lines(&lines);
                return Ok(());
            }
            // One line: the console answers a bad command with one `info string error: …`.
            Err(e) => return Err(e.one_line()),
        };
        let mut sink = LineSink {
            out: self.out.clone(),
            buf: Vec::new(),
        };
        let summary = crate::games::learn(&a, &mut sink)?;
        self.out.info_string(&summary.describe());
        Ok(())
    }

    /// Runs a parsed learner at the console: its help as `info string` lines, the first line
    /// of a usage error as the error, or the run with its progress lines and summary.
    fn run_learner<A>(
        &mut self,
        parsed: Result<A, Option<String>>,
        help: &str,
        learn: impl FnOnce(&A, &mut LineSink) -> Result<String, String>,
    ) -> Result<(), String> {
        let a = match parsed {
            Ok(a) => a,
            Err(None) => {
                let lines: Vec<String> = help
                    .lines()
                    .map(|l| format!("info string {l}").trim_end().to_string())
                    .collect();
                self.out.lines(&lines);
                return Ok(());
            }
            Err(Some(text)) => {
                let first = text.lines().next().unwrap_or("").trim();
                return Err(first.strip_prefix("error: ").unwrap_or(first).to_string());
            }
        };
        let mut sink = LineSink {
            out: self.out.clone(),
            buf: Vec::new(),
        };
        let summary = learn(&a, &mut sink)?;
        self.out.info_string(&summary);
        Ok(())
    }

    /// `learn treestrap|rootstrap|tdleaf …` at the console (self-play: no records).
    fn learn_selfplay(&mut self, args: &[String]) -> Result<(), String> {
        use crate::learn::treestrap::{help_text, SelfPlayArgs};
        let parsed = SelfPlayArgs::try_parse(args, Some(<F::G as Game>::NAME));
        self.run_learner(parsed, &help_text(), |a, sink| {
            crate::games::learn_selfplay(a, sink).map(|s| s.describe(a.variant.name()))
        })
    }

    /// `learn texel …` at the console (regression on labelled positions).
    fn learn_texel(&mut self, args: &[String]) -> Result<(), String> {
        use crate::learn::texel::{help_text, TexelArgs};
        let parsed = TexelArgs::try_parse(args, Some(<F::G as Game>::NAME));
        self.run_learner(parsed, &help_text(), |a, sink| {
            crate::games::learn_texel(a, sink).map(|s| s.describe())
        })
    }

    /// `learn results …` at the console (self-play games fitted to their results).
    fn learn_results(&mut self, args: &[String]) -> Result<(), String> {
        use crate::learn::results::{help_text, ResultsArgs};
        let parsed = ResultsArgs::try_parse(args, Some(<F::G as Game>::NAME));
        self.run_learner(parsed, &help_text(), |a, sink| {
            crate::games::learn_results(a, sink).map(|s| s.describe())
        })
    }

    pub(super) fn bench(&mut self, depth: Option<u32>) -> Result<(), String> {
        if self.searching() {
            return Err("bench while a search is running (send stop first)".into());
        }
        let eval = self.prepare("bench").eval().clone();
        // The sizes in use, not the options: a hash size that could not be allocated was
        // reported by `prepare` and must not be tried again here.
        let (threads, hash) = self.applied_threads_hash;
        let depth = depth.unwrap_or_else(crate::search::bench::default_depth::<F::G>);
        let mut text = Vec::new();
        crate::search::bench::run::<F::G, _>(eval, depth, threads, hash, &mut text)
            .map_err(|e| format!("bench failed: {e}"))?;
        let text = String::from_utf8_lossy(&text);
        let lines: Vec<&str> = text.lines().collect();
        self.out.lines(&lines);
        Ok(())
    }
}

/// Forwards the learner's text output to the protocol writer line by line.
pub(super) struct LineSink {
    out: Out,
    buf: Vec<u8>,
}

impl std::io::Write for LineSink {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        while let Some(i) = self.buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.buf.drain(..=i).collect();
            self.out.line(String::from_utf8_lossy(&line).trim_end());
        }
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

pub(super) fn side_name<F: Flavour>(s: Side) -> &'static str {
    match (F::USI, s) {
        (true, Side::First) => "sente (black, b)",
        (true, Side::Second) => "gote (white, w)",
        (false, Side::First) => "white",
        (false, Side::Second) => "black",
    }
}

/// A text diagram of the board field of an SFEN or FEN: both write ranks separated by '/', digits
/// for empty squares and letters for pieces (SFEN adds '+' for promoted ones), so one reader does.
pub fn board_diagram(text: &str) -> Vec<String> {
    let board = text.split_whitespace().next().unwrap_or("");
    let mut rows = Vec::new();
    for rank in board.split('/') {
        let mut cells: Vec<String> = Vec::new();
        let mut plus = false;
        for c in rank.chars() {
            if c == '+' {
                plus = true;
            } else if let Some(d) = c.to_digit(10) {
                cells.extend(std::iter::repeat_n(" .".to_string(), d as usize));
            } else {
                cells.push(format!("{}{}", if plus { '+' } else { ' ' }, c));
                plus = false;
            }
        }
        rows.push(cells.concat());
    }
    rows
}

pub(super) fn help_lines<F: Flavour>() -> Vec<String> {
    let proto = if F::USI { "USI" } else { "UCI" };
    let kw = F::POSITION_KEYWORD;
    vec![
        format!("info string kishi speaks {proto}. Commands:"),
        format!("info string   position startpos|{kw} <text> [moves ...]; go ...; stop; ponderhit; isready; setoption name N [value V]; quit"),
        "info string   d: board, position text, key and legal moves; eval: static evaluation".into(),
        "info string   bench [depth]: fixed search benchmark; perft N (= go perft N): move-path counts".into(),
        "info string   learn mmto|ct|texel|treestrap|rootstrap|tdleaf|results --out DIR [...]: learn weights (as `kishi learn`; `learn <method> --help`)".into(),
    ]
}
