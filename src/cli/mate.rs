//! `kishi mate FILE [--time-ms N] [--nodes N] [--hash-mb N] [--out FILE] [--ids A,B,…]
//! [--first-proof] [--futile unguarded|next-to-king] [--threads N]`: the df-pn mate solver on a file of problems, one at a time, with a progress
//! bar (stderr), one result line per problem and a summary.
//!
//! The file is either a TSV with a header naming an `sfen` (or `fen`) column, optionally `id` and
//! `mate_plies` (the format of `data/tsume/zukou.tsv` and the shared `tsume_miniosl.tsv`), or one
//! position per line (an SFEN, or a FEN for chess, optionally prefixed by `sfen ` / `fen `; blank
//! lines and `#` comments are skipped; the id is the line number). A shogi problem may leave out
//! the attacker's king (the tsume convention). Chess problems are solved with checks only.
//!
//! Output (stdout, or `--out FILE` written atomically): a header, then per problem
//! `id result plies expected nodes ms hashfull first_nodes first_ms shortest pv` tab-separated
//! (`first_*`: when the root was first proven, before the shortest-mate search; `-` when it was
//! not; `shortest`: `yes` when the search showed that no shorter mate exists, `no` when its
//! budget ran out first, `-` without a mate), where
//! result is `mate`, `nomate` (proven), `unknown` (out of budget) or `error: …` (a line that is
//! not a problem: reported and counted, never fatal); then `# ` summary lines on stdout. An unreadable file, a file without
//! problems or an unwritable `--out` is an error with exit code 1.

use crate::chess::ChessPos;
use crate::game::Game;
use crate::mate::{solve_in, FutileRule, MateGame, MateLimits, MateResult, MateTable};
use crate::shogi::mate::parse_problem;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The command's settings.
#[derive(Debug, Clone)]
pub struct MateArgs {
    pub file: PathBuf,
    pub time_ms: Option<u64>,
    pub nodes: Option<u64>,
    pub hash_mb: usize,
    pub out: Option<PathBuf>,
    /// Only these ids (empty: all).
    pub ids: Vec<String>,
    /// Answer with the first proof's PV: no shortest-mate search (`MateLimits::shortest`).
    pub first_proof: bool,
    /// Which interpositions are no defence (`MateLimits::futile`).
    pub futile: FutileRule,
    /// Prove interpositions by replaying a proven sibling's proof (`MateLimits::replay`).
    pub replay: bool,
    /// Count a join of two defender's children once (`MateLimits::double_count`).
    pub double_count: bool,
    /// Capturing checks first among equal proof numbers (`MateLimits::captures_first`).
    pub captures_first: bool,
    /// Solver threads (`MateLimits::threads`).
    pub threads: usize,
}

/// Time per problem when neither a time nor a node limit is given.
const DEFAULT_TIME_MS: u64 = 1000;

/// One problem read from the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub id: String,
    /// The position text, or why the line is not a problem.
    pub text: Result<String, String>,
    pub expected: Option<usize>,
}

/// One problem's answer.
#[derive(Debug, Clone)]
struct Outcome {
    result: String,
    plies: Option<usize>,
    nodes: u64,
    ms: f64,
    hashfull: usize,
    /// Nodes and milliseconds to the first proof of the root.
    first: Option<(u64, f64)>,
    /// Whether the mate was shown to be the shortest.
    shortest: bool,
    pv: String,
}

pub fn run(args: &MateArgs) -> i32 {
    match run_inner(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

fn run_inner(args: &MateArgs) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| format!("cannot read {}: {e}", args.file.display()))?;
    let mut problems = read_problems(&text);
    if !args.ids.is_empty() {
        problems.retain(|p| args.ids.contains(&p.id));
    }
    if problems.is_empty() {
        return Err(format!(
            "no problems in {}{}",
            args.file.display(),
            if args.ids.is_empty() {
                ""
            } else {
                " with the ids given"
            }
        ));
    }
    // Every page of the table is written before the first problem: more than the machine has
    // would be the kernel's out-of-memory kill, not an error.
    let max_mb = crate::protocol::memory::max_hash_mb();
    if args.hash_mb as i64 > max_mb {
        return Err(format!(
            "--hash-mb {} is more than this machine's memory ({max_mb} MiB)",
            args.hash_mb
        ));
    }
    let limits = MateLimits {
        nodes: args.nodes,
        time: match (args.time_ms, args.nodes) {
            (Some(ms), _) => Some(Duration::from_millis(ms)),
            (None, Some(_)) => None,
            (None, None) => Some(Duration::from_millis(DEFAULT_TIME_MS)),
        },
        hash_mb: args.hash_mb,
        shortest: !args.first_proof,
        futile: args.futile,
        replay: args.replay,
        double_count: args.double_count,
        captures_first: args.captures_first,
        threads: args.threads,
    };
    let bar = progress_bar(problems.len());
    if args.out.is_none() {
        bar.suspend(|| println!("{HEADER}"));
    }
    let mut lines = vec![HEADER.to_string()];
    let mut outcomes = Vec::with_capacity(problems.len());
    // One table for every problem, mapped before the first and emptied after each (outside the
    // problems' times, as an engine's hash is made at start-up and not in its searches).
    let mut table = MateTable::new(args.hash_mb);
    table.map_now();
    for p in &problems {
        bar.set_message(format!("#{}", p.id));
        let o = solve_one(p, &limits, &mut table);
        table.clear();
        let line = result_line(p, &o);
        if args.out.is_none() {
            bar.suspend(|| println!("{line}"));
        }
        lines.push(line);
        outcomes.push(o);
        bar.inc(1);
    }
    bar.finish_and_clear();
    if let Some(out) = &args.out {
        let mut body = lines.join("\n");
        body.push('\n');
        crate::eval::format::write_atomic(out, body.as_bytes())?;
    }
    for l in summary(&problems, &outcomes) {
        println!("# {l}");
    }
    Ok(())
}

const HEADER: &str =
    "id\tresult\tplies\texpected\tnodes\tms\thashfull\tfirst_nodes\tfirst_ms\tshortest\tpv";

fn progress_bar(len: usize) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    if let Ok(style) = ProgressStyle::with_template(
        "mate [{bar:30}] {pos}/{len} {msg} elapsed {elapsed} eta {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// Reads a problem file: a TSV with an `sfen`/`fen` column, or one position per line.
pub fn read_problems(text: &str) -> Vec<Problem> {
    let mut lines = text.lines().enumerate();
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let header: Vec<&str> = first.split('\t').map(str::trim).collect();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let pos_col = col("sfen").or_else(|| col("fen"));
    let Some(pos_col) = pos_col.filter(|_| first.contains('\t') || header.len() == 1) else {
        // Plain lines of positions.
        return lines
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .map(|(i, l)| Problem {
                id: (i + 1).to_string(),
                text: Ok(l.trim().to_string()),
                expected: None,
            })
            .collect();
    };
    let (id_col, plies_col) = (col("id"), col("mate_plies"));
    // Skip up to and including the header line.
    for (_, l) in lines.by_ref() {
        if !l.trim().is_empty() {
            break;
        }
    }
    lines
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            let id = id_col
                .and_then(|c| f.get(c))
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| (i + 1).to_string());
            let expected_text = plies_col.and_then(|c| f.get(c)).map(|s| s.trim());
            let expected = expected_text.and_then(|s| s.parse().ok());
            let text = match f.get(pos_col) {
                None => Err(format!(
                    "line {}: {} columns, the position is column {}",
                    i + 1,
                    f.len(),
                    pos_col + 1
                )),
                Some(_) if expected_text.is_some_and(|s| !s.is_empty() && expected.is_none()) => {
                    Err(format!(
                        "line {}: mate_plies '{}' is not a number",
                        i + 1,
                        expected_text.unwrap_or("")
                    ))
                }
                Some(s) => Ok(s.trim().to_string()),
            };
            Problem { id, text, expected }
        })
        .collect()
}

/// Whether a position text is a chess FEN (8 ranks) rather than an SFEN (9).
fn is_fen(text: &str) -> bool {
    let t = text.trim();
    let t = t.strip_prefix("fen ").unwrap_or(t);
    !t.starts_with("sfen ") && t.split_whitespace().next().unwrap_or("").split('/').count() == 8
}

fn solve_one(p: &Problem, limits: &MateLimits, table: &mut MateTable) -> Outcome {
    let text = match &p.text {
        Ok(t) => t,
        Err(e) => return error_outcome(e),
    };
    if is_fen(text) {
        match ChessPos::from_text(text) {
            Ok(pos) => solve_pos(&pos, limits, table),
            Err(e) => error_outcome(&e.to_string()),
        }
    } else {
        match parse_problem(text) {
            Ok(pos) => solve_pos(&pos, limits, table),
            Err(e) => error_outcome(&e.to_string()),
        }
    }
}

fn error_outcome(e: &str) -> Outcome {
    Outcome {
        result: format!("error: {}", e.replace(['\t', '\n'], " ")),
        plies: None,
        nodes: 0,
        ms: 0.0,
        hashfull: 0,
        first: None,
        shortest: false,
        pv: String::new(),
    }
}

fn solve_pos<G: MateGame>(pos: &G, limits: &MateLimits, table: &mut MateTable) -> Outcome {
    let stop = AtomicBool::new(false);
    let report = match solve_in(pos, limits, &stop, &mut |_| {}, table) {
        Ok(r) => r,
        Err(e) => return error_outcome(&e.to_string()),
    };
    let (result, plies, pv) = match &report.result {
        MateResult::Mate(pv) => {
            let mut cur = pos.clone();
            let mut texts = Vec::with_capacity(pv.len());
            for &m in pv {
                texts.push(cur.move_text(m));
                cur = cur.play(m);
            }
            ("mate".to_string(), Some(pv.len()), texts.join(" "))
        }
        MateResult::NoMate => ("nomate".to_string(), None, String::new()),
        MateResult::Unknown => ("unknown".to_string(), None, String::new()),
    };
    Outcome {
        result,
        plies,
        nodes: report.nodes,
        ms: report.elapsed.as_secs_f64() * 1000.0,
        hashfull: report.hashfull,
        first: report
            .first_proof
            .map(|(n, t)| (n, t.as_secs_f64() * 1000.0)),
        shortest: report.shortest_proven,
        pv,
    }
}

fn result_line(p: &Problem, o: &Outcome) -> String {
    let opt = |v: Option<usize>| v.map_or("-".to_string(), |n| n.to_string());
    let (first_nodes, first_ms) = o
        .first
        .map_or(("-".to_string(), "-".to_string()), |(n, t)| {
            (n.to_string(), format!("{t:.1}"))
        });
    let shortest = match (o.plies, o.shortest) {
        (None, _) => "-",
        (Some(_), true) => "yes",
        (Some(_), false) => "no",
    };
    format!(
        "{}\t{}\t{}\t{}\t{}\t{:.1}\t{}\t{first_nodes}\t{first_ms}\t{shortest}\t{}",
        p.id,
        o.result,
        opt(o.plies),
        opt(p.expected),
        o.nodes,
        o.ms,
        o.hashfull,
        o.pv
    )
}

/// Mean and median of sorted values, `None` for none.
fn mean_median(sorted: &[f64]) -> Option<(f64, f64)> {
    let median = *sorted.get(sorted.len() / 2)?;
    Some((sorted.iter().sum::<f64>() / sorted.len() as f64, median))
}

fn summary(problems: &[Problem], outcomes: &[Outcome]) -> Vec<String> {
    let n = outcomes.len();
    let count = |r: &str| outcomes.iter().filter(|o| o.result == r).count();
    let errors = outcomes
        .iter()
        .filter(|o| o.result.starts_with("error"))
        .count();
    let mut solved_ms: Vec<f64> = outcomes
        .iter()
        .filter(|o| o.result == "mate")
        .map(|o| o.ms)
        .collect();
    solved_ms.sort_by(|a, b| a.total_cmp(b));
    let exact = problems
        .iter()
        .zip(outcomes)
        .filter(|(p, o)| p.expected.is_some() && p.expected == o.plies)
        .count();
    let with_expected = problems.iter().filter(|p| p.expected.is_some()).count();
    let mut lines = vec![format!(
        "problems {n}: mate {} nomate {} unknown {} error {errors}",
        solved_ms.len(),
        count("nomate"),
        count("unknown"),
    )];
    if with_expected > 0 {
        lines.push(format!(
            "mate length equal to the stated one: {exact} of {with_expected}"
        ));
    }
    if let Some((mean, median)) = mean_median(&solved_ms) {
        lines.push(format!(
            "time of the solved: mean {mean:.1} ms, median {median:.1} ms"
        ));
    }
    let mut first: Vec<f64> = outcomes
        .iter()
        .filter(|o| o.result == "mate")
        .filter_map(|o| o.first.map(|f| f.1))
        .collect();
    first.sort_by(|a, b| a.total_cmp(b));
    if let Some((mean, median)) = mean_median(&first) {
        lines.push(format!(
            "time to the first proof of the solved: mean {mean:.1} ms, median {median:.1} ms"
        ));
    }
    let total: f64 = outcomes.iter().map(|o| o.ms).sum();
    let nodes: u64 = outcomes.iter().map(|o| o.nodes).sum();
    lines.push(format!(
        "total {:.1} s, {nodes} nodes, {:.0} nodes/s",
        total / 1000.0,
        nodes as f64 * 1000.0 / total.max(1.0)
    ));
    lines
}
