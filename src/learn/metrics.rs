//! What a run writes about itself: one `metrics.jsonl` line per iteration and the provenance
//! block of every weight file (serde structs; see `util::json` for why two number formats are
//! kept by hand).

use super::checkpoint::BestSoFar;
use super::config::LearnConfig;
use super::learned::Learned;
use super::run::RunSummary;
use super::step1::Step1Stats;
use super::LearnArgs;
use crate::eval::FeatureSet;
use crate::game::Game;
use crate::util::json::{self, fixed6, shortest, Num};
use serde::Serialize;

/// One table's size in a metrics line.
#[derive(Serialize)]
struct TableStats {
    nonzero: usize,
    l1: u64,
    learned: bool,
}

/// The tables of a metrics line: a JSON object keyed by table name, in parameter order.
pub(crate) struct TablesByName(Vec<(String, TableStats)>);

/// Every table's non-zero count, L1 norm and whether it is learned, and the piece values (the
/// `material` table; empty without one): the size columns of every learner's metrics line.
pub(crate) fn table_summary<G: Game, F: FeatureSet<G>>(
    params: &[i32],
    learned: &Learned,
) -> (TablesByName, Vec<i32>) {
    let mut tables = Vec::new();
    for (name, a, b) in Learned::table_ranges::<G, F>() {
        let nonzero = params[a..b].iter().filter(|&&v| v != 0).count();
        let l1: u64 = params[a..b].iter().map(|v| v.unsigned_abs() as u64).sum();
        let learned = learned.tables.iter().any(|t| t.0 == name);
        tables.push((
            name,
            TableStats {
                nonzero,
                l1,
                learned,
            },
        ));
    }
    let piece_values = Learned::table_ranges::<G, F>()
        .into_iter()
        .find(|t| t.0 == "material")
        .map(|(_, a, b)| params[a..b].to_vec())
        .unwrap_or_default();
    (TablesByName(tables), piece_values)
}

/// Seconds since 1970 (0 if the clock is before it), for metrics lines.
pub(crate) fn unix_time() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

impl Serialize for TablesByName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// One line of `metrics.jsonl` (field order = key order; `scripts/plot_learning.py` reads it).
#[derive(Serialize)]
struct MetricsLine {
    iteration: usize,
    weights_measured: usize,
    best_test: Num,
    best_updates: u32,
    #[serde(rename = "J")]
    j: Num,
    #[serde(rename = "J_after")]
    j_after: Num,
    /// The constraint term: always 0 (the constraint is kept exactly, not penalised).
    #[serde(rename = "J_C")]
    j_c: u8,
    lambda0: Num,
    #[serde(rename = "J_R")]
    j_r: Num,
    total: Num,
    agreement_train: Num,
    agreement_test: Num,
    agreement_train_strict: Num,
    agreement_test_strict: Num,
    test_ties: usize,
    train_positions: usize,
    train_used: usize,
    test_used: usize,
    pairs: usize,
    in_window: usize,
    mates_excluded: usize,
    ties: usize,
    inconsistent_leaves: usize,
    piece_values: Vec<i32>,
    tables: TablesByName,
    seconds_step1: Num,
    seconds_steps23: Num,
    seconds_total: Num,
    positions_per_second: Num,
    unix_time: u64,
}

#[allow(clippy::too_many_arguments)]
pub fn metrics_line<G: Game, F: FeatureSet<G>>(
    iter: usize,
    j_before: f64,
    j_after: f64,
    j_r: f64,
    lambda0: f64,
    train: &Step1Stats,
    test: &Step1Stats,
    params: &[i32],
    learned: &Learned,
    best: BestSoFar,
    secs: [f64; 3],
) -> String {
    let (tables, piece_values) = table_summary::<G, F>(params, learned);
    let unix_time = unix_time();
    json::line(&MetricsLine {
        iteration: iter,
        weights_measured: iter - 1,
        best_test: if best.agreement >= 0.0 {
            fixed6(best.agreement)
        } else {
            None
        },
        best_updates: best.updates,
        j: fixed6(j_before),
        j_after: fixed6(j_after),
        j_c: 0,
        lambda0: fixed6(lambda0),
        j_r: fixed6(j_r),
        total: fixed6(j_after + j_r),
        agreement_train: fixed6(train.agreement()),
        agreement_test: fixed6(test.agreement()),
        agreement_train_strict: fixed6(train.agreement_strict()),
        agreement_test_strict: fixed6(test.agreement_strict()),
        test_ties: test.ties,
        train_positions: train.positions,
        train_used: train.used,
        test_used: test.used,
        pairs: train.pairs,
        in_window: train.in_window,
        mates_excluded: train.mates,
        ties: train.ties,
        inconsistent_leaves: train.inconsistent,
        piece_values,
        tables,
        seconds_step1: fixed6(secs[0]),
        seconds_steps23: fixed6(secs[1]),
        seconds_total: fixed6(secs[2]),
        positions_per_second: fixed6((train.positions + test.positions) as f64 / secs[0].max(1e-9)),
        unix_time,
    })
}

/// The learner's settings in the provenance block.
#[derive(Serialize)]
struct HyperParameters {
    a: Num,
    l1: Num,
    step: String,
    piece_sum: Option<i64>,
    depth: i32,
    window: i32,
    reuse: usize,
    seed: u64,
}

/// The provenance block of a learned weight file (field order = key order).
#[derive(Serialize)]
struct Provenance<'a> {
    learner: &'a str,
    method: &'a str,
    game: &'a str,
    feature_set: &'a str,
    tables_learned: String,
    hyper_parameters: HyperParameters,
    data_files: Vec<String>,
    iterations: usize,
    final_objective: Num,
    agreement_train: Num,
    agreement_test: Num,
}

/// The provenance block of the weight file: deterministic (no clock), so that two runs with the
/// same seed and one thread write identical files.
pub fn provenance<G: Game, F: FeatureSet<G>>(
    args: &LearnArgs,
    cfg: &LearnConfig,
    method: &str,
    iter: usize,
    s: &RunSummary,
) -> String {
    let data_files: Vec<String> = args
        .data
        .train_files
        .iter()
        .chain(&args.data.split_files)
        .chain(&args.data.test_files)
        .map(|p| p.display().to_string())
        .collect();
    json::line(&Provenance {
        learner: "kishi learn",
        method,
        game: G::NAME,
        feature_set: F::NAME,
        tables_learned: args.tables.join(","),
        hyper_parameters: HyperParameters {
            a: shortest(cfg.a),
            l1: shortest(cfg.l1),
            step: format!("{:?}", cfg.step),
            piece_sum: cfg.piece_sum,
            depth: cfg.depth,
            window: cfg.window,
            reuse: cfg.reuse,
            seed: cfg.seed,
        },
        data_files,
        iterations: iter,
        final_objective: fixed6(s.final_objective),
        agreement_train: fixed6(s.train_agreement),
        agreement_test: fixed6(s.test_agreement),
    })
}
