//! The starting weights of a run: the embedded defaults, `--init` (a params.bin or any weight
//! file of the feature set), then `--keep-defaults` and `--material-init`.

use super::learned::Learned;
use super::LearnArgs;
use crate::eval::weights::Weights;
use crate::eval::FeatureSet;
use crate::game::Game;
use std::path::Path;

/// Initial parameters: the embedded defaults where a default table holds independent parameters
/// directly (material, positional), zero elsewhere; or from `--init` (a learner params file, or any
/// weight file of the feature set: expanded tables are folded back into their independent
/// parameters, `FeatureSet::fold`); then `--keep-defaults` and `--material-init` if given.
pub fn initial_params<G: Game, F: FeatureSet<G>>(args: &LearnArgs) -> Result<Vec<i32>, String> {
    initial_params_from::<G, F>(
        args.init.as_deref(),
        args.keep_defaults.as_deref(),
        args.material_init,
    )
}

/// `initial_params` for the learners with arguments of their own (`learn texel`): `init` as
/// `--init`, `keep_defaults` as `--keep-defaults`, `material_init` as `--material-init`.
pub fn initial_params_from<G: Game, F: FeatureSet<G>>(
    init: Option<&Path>,
    keep_defaults: Option<&[String]>,
    material_init: Option<i32>,
) -> Result<Vec<i32>, String> {
    let n = F::num_params();
    let mut params = vec![0i32; n];
    let ranges = Learned::table_ranges::<G, F>();
    match init {
        None => {
            // Default tables stored expanded (none today) have no direct values: they start at 0.
            let defaults = F::default_tables();
            for (t, (_, a, b)) in ranges.iter().enumerate() {
                if let Some(v) = defaults.get(t).and_then(|d| d.as_ref()).map(table_values) {
                    if v.len() == b - a {
                        params[*a..*b].copy_from_slice(&v);
                    }
                }
            }
        }
        Some(path)
            if path.extension().is_some_and(|e| e == "params") || path.ends_with("params.bin") =>
        {
            params = super::checkpoint::read_params(path, n)?;
        }
        Some(path) => {
            let w = Weights::load::<G, F>(path, crate::eval::weights::Verify::All)?;
            params = F::fold(&w).map_err(|e| format!("{}: {e}", path.display()))?;
            warn_if_saturated::<G, F>(path, &params);
        }
    }
    if let Some(keep) = keep_defaults {
        // Only these tables keep their initial values; the rest start at zero (e.g. chess
        // "material-only" starting weights: --keep-defaults A).
        for (k, (name, a, b)) in ranges.iter().enumerate() {
            let letter = ((b'A' + k as u8) as char).to_string();
            if !keep
                .iter()
                .any(|w| w.eq_ignore_ascii_case(name) || w.eq_ignore_ascii_case(&letter))
            {
                params[*a..*b].fill(0);
            }
        }
    }
    if let Some(v) = material_init {
        if let Some((_, a, b)) = ranges.iter().find(|r| r.0 == "material") {
            params[*a..*b].fill(v);
        }
    }
    Ok(params)
}

/// A 16-bit table entry at the end of its range may be a learner value that `expand` saturated:
/// the file cannot tell, the run's params.bin has the exact value.
fn warn_if_saturated<G: Game, F: FeatureSet<G>>(path: &Path, params: &[i32]) {
    for (t, (name, a, b)) in Learned::table_ranges::<G, F>().into_iter().enumerate() {
        let narrow = F::tables()
            .get(t)
            .is_some_and(|s| s.elem == crate::eval::format::Elem::I16);
        let extreme = |v: &i32| *v == i16::MAX as i32 || *v == i16::MIN as i32;
        if narrow && params[a..b].iter().any(extreme) {
            log::warn!(
                "{}: table '{name}' has entries at the limit of 16 bits; if they were saturated \
                 when the file was written, the run's params.bin holds the exact values",
                path.display()
            );
        }
    }
}

fn table_values(t: &crate::eval::weights::OwnedTable) -> Vec<i32> {
    match t {
        crate::eval::weights::OwnedTable::I16(v) => v.iter().map(|&x| x as i32).collect(),
        crate::eval::weights::OwnedTable::I32(v) => v.clone(),
    }
}
