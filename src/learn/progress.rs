//! Progress of the learner's step 1: a bar on a terminal, and when stderr is a file (a learner run
//! in the background with its output in a log, the usual way for runs of hours) a plain line at
//! every tenth of the work instead, since the bar draws nothing there and the log would otherwise
//! stay silent for the whole step. `--quiet` silences both.

use indicatif::{ProgressBar, ProgressStyle};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Step 1's progress over `len` positions; `inc` is called from every worker thread.
pub struct StepProgress {
    bar: ProgressBar,
    /// Lines instead of the bar (stderr is not a terminal and the run is not quiet).
    lines: bool,
    len: u64,
    done: AtomicU64,
    start: Instant,
    prefix: String,
}

impl StepProgress {
    pub fn new(len: usize, quiet: bool, iter: usize, total: usize) -> Self {
        let prefix = format!("iteration {iter}/{total}");
        let bar = if quiet {
            ProgressBar::hidden()
        } else {
            let bar = ProgressBar::new(len as u64);
            if let Ok(style) = ProgressStyle::with_template(
                "{prefix} step 1 [{bar:30}] {pos}/{len} positions {per_sec} eta {eta}",
            ) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_prefix(prefix.clone());
            bar
        };
        StepProgress {
            lines: !quiet && bar.is_hidden(),
            bar,
            len: len as u64,
            done: AtomicU64::new(0),
            start: Instant::now(),
            prefix,
        }
    }

    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
        if !self.lines || self.len == 0 {
            return;
        }
        let before = self.done.fetch_add(n, Ordering::Relaxed);
        let after = before + n;
        // One line each time the count crosses a tenth; the thread that crosses it prints.
        if after * 10 / self.len > before * 10 / self.len {
            eprintln!("{}", self.line(after));
        }
    }

    fn line(&self, done: u64) -> String {
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        let rate = done as f64 / secs;
        let left = self.len.saturating_sub(done) as f64 / rate.max(1e-9);
        format!(
            "learn: {} step 1: {}% ({done} of {} positions), {rate:.0} positions/s, {} left",
            self.prefix,
            done * 100 / self.len,
            self.len,
            show_secs(left)
        )
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

fn show_secs(s: f64) -> String {
    if s < 90.0 {
        format!("{s:.0} s")
    } else if s < 5400.0 {
        format!("{:.0} min", s / 60.0)
    } else {
        format!("{:.1} h", s / 3600.0)
    }
}

/// A plain bar over `len` items of `unit` (hidden with `--quiet`): the progress of the learners
/// with a loop of their own (`learn texel`'s leaves and epochs, `learn results`' games).
pub(crate) fn progress_bar(len: u64, quiet: bool, prefix: &str, unit: &str) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let template =
        format!("{{prefix}} [{{bar:30}}] {{pos}}/{{len}} {unit} {{per_sec}} eta {{eta}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(prefix.to_string());
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_reports_share_rate_and_time_left() {
        let p = StepProgress::new(1000, false, 2, 4);
        let l = p.line(250);
        assert!(
            l.starts_with("learn: iteration 2/4 step 1: 25% (250 of 1000 positions)"),
            "{l}"
        );
        assert!(l.contains("positions/s") && l.ends_with(" left"), "{l}");
    }

    #[test]
    fn quiet_prints_no_lines() {
        assert!(!StepProgress::new(10, true, 1, 1).lines);
    }

    #[test]
    fn times_are_shown_in_a_readable_unit() {
        assert_eq!(show_secs(42.0), "42 s");
        assert_eq!(show_secs(600.0), "10 min");
        assert_eq!(show_secs(7200.0), "2.0 h");
    }
}
