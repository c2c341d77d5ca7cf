//! Which parameters a run learns: whole tables of the feature set, mapped to a compact local index
//! (the weight vector steps 2-3 work on), and the range kept under the equality constraint.

use crate::eval::FeatureSet;
use crate::game::Game;

/// The learned part of the parameter vector: whole tables, mapped to a compact local index.
#[derive(Debug, Clone)]
pub struct Learned {
    /// (name, global start, global end, local start), in parameter order.
    pub tables: Vec<(String, usize, usize, usize)>,
    pub n_local: usize,
    /// Local range under the equality constraint (the piece values), if any.
    pub constrained: Option<(usize, usize)>,
    /// Per table of the feature set (parameter order): whether it is learned, for the feature
    /// extractions that can skip the others (`FeatureSet::features_some`).
    pub mask: Vec<bool>,
}

impl Learned {
    /// The tables of a feature set in parameter order: (name, start, end).
    pub fn table_ranges<G: Game, F: FeatureSet<G>>() -> Vec<(String, usize, usize)> {
        crate::eval::param_ranges::<G, F>()
            .into_iter()
            .map(|(n, a, b)| (n.to_string(), a, b))
            .collect()
    }

    /// Selects tables by name or by letter (A = the first table in parameter order, B the second…);
    /// `all` selects every table of the feature set (so a default of "every table" stays true
    /// when a table is added, where a list of letters would leave the new one out silently).
    pub fn select<G: Game, F: FeatureSet<G>>(
        wanted: &[String],
        constrain_material: bool,
    ) -> Result<Learned, String> {
        let all = Self::table_ranges::<G, F>();
        let every = wanted.iter().any(|w| w.eq_ignore_ascii_case("all"));
        let mut tables = Vec::new();
        let mut mask = Vec::new();
        let mut local = 0;
        for (k, (name, a, b)) in all.iter().enumerate() {
            let letter = ((b'A' + k as u8) as char).to_string();
            let learn = every
                || wanted
                    .iter()
                    .any(|w| w.eq_ignore_ascii_case(name) || w.eq_ignore_ascii_case(&letter));
            if learn {
                tables.push((name.clone(), *a, *b, local));
                local += b - a;
            }
            mask.push(learn);
        }
        for w in wanted {
            let known = w.eq_ignore_ascii_case("all")
                || all.iter().enumerate().any(|(k, (name, _, _))| {
                    w.eq_ignore_ascii_case(name)
                        || w.eq_ignore_ascii_case(&((b'A' + k as u8) as char).to_string())
                });
            if !known {
                let names: Vec<String> = all
                    .iter()
                    .enumerate()
                    .map(|(k, (n, _, _))| format!("{} ({})", (b'A' + k as u8) as char, n))
                    .collect();
                return Err(format!(
                    "unknown table '{w}': this feature set has {} (or `all`)",
                    names.join(", ")
                ));
            }
        }
        if tables.is_empty() {
            return Err("no table selected to learn".into());
        }
        let constrained = if constrain_material {
            tables
                .iter()
                .find(|t| t.0 == "material")
                .map(|t| (t.3, t.3 + t.2 - t.1))
        } else {
            None
        };
        Ok(Learned {
            tables,
            n_local: local,
            constrained,
            mask,
        })
    }

    #[inline]
    pub fn local(&self, global: usize) -> Option<usize> {
        // One compare for most of a shogi leaf's features before e_ABCD: KPP is the last table.
        if self.tables.last().is_none_or(|t| global >= t.2) {
            return None;
        }
        self.tables
            .iter()
            .find(|t| global >= t.1 && global < t.2)
            .map(|t| t.3 + global - t.1)
    }

    pub fn global(&self, local: usize) -> usize {
        for t in &self.tables {
            if local >= t.3 && local < t.3 + (t.2 - t.1) {
                return t.1 + local - t.3;
            }
        }
        usize::MAX
    }

    /// The learned table (index into `tables`) a local weight belongs to.
    #[inline]
    pub fn table_of(&self, local: usize) -> usize {
        self.tables.iter().rposition(|t| local >= t.3).unwrap_or(0)
    }

    /// Whether L1 applies to a local weight (every table but the piece values).
    pub fn is_regularized(&self, local: usize) -> bool {
        !self
            .tables
            .iter()
            .any(|t| t.0 == "material" && local >= t.3 && local < t.3 + (t.2 - t.1))
    }
}
