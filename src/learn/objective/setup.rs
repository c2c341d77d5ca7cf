//! What the iteration driver (`run`) does for the parameterised objective: read the parameter
//! file before any data loads, categorise the training and test positions once, and add J1, J2
//! and the agreement per category to each metrics line.

use super::categories::{categorise, counts, Category};
use super::params::{default_j2_slope, ObjectiveParams, CLASSES};
use super::weighted::{CategoryAgreement, PositionWeights, Terms};
use crate::eval::FeatureSet;
use crate::game::records::GameRecords;
use crate::learn::config::Method;
use crate::learn::dataset::Dataset;
use crate::learn::step1::build_eval;
use crate::learn::LearnArgs;
use crate::util::json::fixed6;
use std::io::Write;
use std::time::Instant;

/// The parameterised objective of a run.
pub struct Parameterised {
    pub params: ObjectiveParams,
    pub weights: PositionWeights,
    pub train_cats: Vec<Category>,
    pub test_cats: Vec<Category>,
}

/// Reads and checks `--objective-params` (before any data loads). `None` without the option.
pub fn read_params(args: &LearnArgs) -> Result<Option<ObjectiveParams>, String> {
    let Some(path) = &args.objective_params else {
        return Ok(None);
    };
    if args.method != Method::Mmto {
        return Err("--objective-params: only learn mmto has the parameterised objective".into());
    }
    ObjectiveParams::read(path)
        .map(Some)
        .map_err(|e| format!("--objective-params: {e}"))
}

/// Categorises the data with the starting weights `params` and computes every training
/// position's W1..W4.
pub fn prepare<G: GameRecords, F: FeatureSet<G>>(
    p: ObjectiveParams,
    args: &LearnArgs,
    params: &[i32],
    data: &Dataset<G>,
    out: &mut dyn Write,
) -> Result<Parameterised, String> {
    let t0 = Instant::now();
    let eval = build_eval::<G, F>(params, "objective categories")?;
    let train_cats = categorise::<G, F>(&data.train, &eval, args.threads);
    let test_cats = categorise::<G, F>(&data.test, &eval, args.threads);
    let secs = t0.elapsed().as_secs_f64();
    let n = data.train.len() + data.test.len();
    let _ = writeln!(
        out,
        "info string learn: objective categories of {n} positions (searches at depths 1, 2, 3) in {secs:.1} s ({:.0} positions/s)",
        n as f64 / secs.max(1e-9)
    );
    let c = counts(&train_cats);
    let mut parts = Vec::new();
    for (class, (name, k)) in CLASSES.iter().enumerate() {
        let o = super::params::class_offset(class);
        let v: Vec<String> = c[o..o + k].iter().map(|x| x.to_string()).collect();
        parts.push(format!("{name} {}", v.join("/")));
    }
    let _ = writeln!(
        out,
        "info string learn: training positions by category: {}",
        parts.join(", ")
    );
    let c1 = p.c1.unwrap_or(args.a);
    let slope = p.j2_slope.unwrap_or(default_j2_slope(args.game == "shogi"));
    let results: Vec<Option<f64>> = data.train.iter().map(|s| s.result).collect();
    let weights = PositionWeights::new(&p, c1, slope, &train_cats, &results);
    if weights.j2 {
        let known = results.iter().filter(|r| r.is_some()).count();
        let _ = writeln!(
            out,
            "info string learn: win-probability term on: {known} of {} training positions have a known result, slope {slope}",
            results.len()
        );
    }
    Ok(Parameterised {
        params: p,
        weights,
        train_cats,
        test_cats,
    })
}

fn by_class(a: &CategoryAgreement) -> String {
    let mut parts = Vec::new();
    for (class, (name, k)) in CLASSES.iter().enumerate() {
        let o = super::params::class_offset(class);
        let agree: Vec<String> = (o..o + k)
            .map(|i| {
                fixed6(a.agreement(i))
                    .map(|n| n.get().to_string())
                    .unwrap_or_else(|| "null".into())
            })
            .collect();
        let used: Vec<String> = (o..o + k).map(|i| a.used[i].to_string()).collect();
        parts.push(format!(
            "\"{name}\":[{}],\"{name}_n\":[{}]",
            agree.join(","),
            used.join(",")
        ));
    }
    format!("{{{}}}", parts.join(","))
}

/// The metrics line with the parameterised objective's fields added at its end: `j1`, `j2`
/// (per move pair, so that j = j1 + j2 before the update), `j2_positions`, and the train and
/// test agreement per category (ties left out, with the position counts).
pub fn extend_metrics(
    line: String,
    before: &Terms,
    after: &Terms,
    train: &CategoryAgreement,
    test: &CategoryAgreement,
) -> String {
    let Some(body) = line.strip_suffix('}') else {
        return line;
    };
    let num = |x: f64| {
        fixed6(x)
            .map(|n| n.get().to_string())
            .unwrap_or_else(|| "null".into())
    };
    let pairs = before.pairs.max(1) as f64;
    format!(
        "{body},\"j1\":{},\"j2\":{},\"j1_after\":{},\"j2_after\":{},\"j2_positions\":{},\"agreement_by_category_train\":{},\"agreement_by_category_test\":{}}}",
        num(before.j1 / pairs),
        num(before.j2 / pairs),
        num(after.j1 / after.pairs.max(1) as f64),
        num(after.j2 / after.pairs.max(1) as f64),
        before.j2_positions,
        by_class(train),
        by_class(test)
    )
}
