//! The parameter file of the parameterised objective (`learn mmto --objective-params FILE`): the
//! constants c1..c4, the slope of the win-probability sigmoid and the category weights w_i,j of
//! Equation (6) of "Objective tuning" (W_i,p = c_i · Π_{j ∈ C_p} w_i,j). The format is described in
//! docs/learning/objective.md. The file is read and checked before any data loads, so a typo costs
//! a second, not the minutes of loading the records.
//!
//! Every one of the 4 × 3 category rows must be present (a missing row would silently mean "all
//! 1"; the file is the surface a tuning loop searches, so a row it forgot to write is an error).

use std::path::Path;

/// The category classes and the number of categories in each.
pub const CLASSES: [(&str, usize); 3] = [("progress", 8), ("change", 3), ("depth", 4)];
/// Categories over all classes (8 + 3 + 4).
pub const N_CATEGORIES: usize = 15;

/// The start of each class's categories in a row of 15.
pub const fn class_offset(class: usize) -> usize {
    match class {
        0 => 0,
        1 => 8,
        _ => 11,
    }
}

/// The objective's parameters. Index i = 0..3 stands for the paper's W1 (slope), W2 (margin),
/// W3 (weight of the agreement term), W4 (weight of the win-probability term).
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectiveParams {
    /// c_1..c_4; `None` for c_1 means "MMTO's --a".
    pub c1: Option<f64>,
    pub c2: f64,
    pub c3: f64,
    pub c4: f64,
    /// g(v) = 1/(1+exp(−j2_slope·v)), v in evaluation units (centipawns, Bonanza's units);
    /// `None`: the game's default (`default_j2_slope`).
    pub j2_slope: Option<f64>,
    /// w_i,j: `w[i][j]`, j over the 15 categories (progress 0..7, change 8..10, depth 11..14).
    pub w: [[f64; N_CATEGORIES]; 4],
}

impl Default for ObjectiveParams {
    /// Today's MMTO: every w = 1, c1 = --a, W2 = 0, W3 = 1, W4 = 0.
    fn default() -> Self {
        ObjectiveParams {
            c1: None,
            c2: 0.0,
            c3: 1.0,
            c4: 0.0,
            j2_slope: None,
            w: [[1.0; N_CATEGORIES]; 4],
        }
    }
}

/// The win-probability slope when the file gives none: chess's usual 400-centipawn logistic
/// (p = 1/(1+10^(−v/400)), slope ln 10/400), and for shogi Bonanza-unit programs' usual 600
/// (p = 1/(1+e^(−v/600))).
pub fn default_j2_slope(shogi: bool) -> f64 {
    if shogi {
        1.0 / 600.0
    } else {
        std::f64::consts::LN_10 / 400.0
    }
}

fn number(s: &str, what: &str, line: usize) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("line {line}: {what}: '{s}' is not a number"))?;
    if !v.is_finite() {
        return Err(format!("line {line}: {what}: '{s}' is not a finite number"));
    }
    if v < 0.0 {
        return Err(format!("line {line}: {what}: negative value {s}"));
    }
    Ok(v)
}

impl ObjectiveParams {
    /// Reads and checks a parameter file.
    pub fn read(path: &Path) -> Result<ObjectiveParams, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let text = std::str::from_utf8(&bytes)
            .map_err(|_| format!("{}: not a text file (invalid UTF-8)", path.display()))?;
        Self::parse(text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Parses the text of a parameter file: `key value` lines, `#` comments.
    pub fn parse(text: &str) -> Result<ObjectiveParams, String> {
        let mut p = ObjectiveParams::default();
        let mut seen = [[false; 3]; 4];
        let mut seen_keys: Vec<String> = Vec::new();
        for (n, raw) in text.lines().enumerate() {
            let line = n + 1;
            let body = raw.split('#').next().unwrap_or("").trim();
            if body.is_empty() {
                continue;
            }
            let words: Vec<&str> = body.split_whitespace().collect();
            let key = words[0];
            let dup_key = match key {
                "w1" | "w2" | "w3" | "w4" => format!("{key} {}", words.get(1).unwrap_or(&"")),
                _ => key.to_string(),
            };
            if seen_keys.contains(&dup_key) {
                return Err(format!("line {line}: '{dup_key}' given twice"));
            }
            seen_keys.push(dup_key);
            match key {
                "c1" | "c2" | "c3" | "c4" | "j2_slope" => {
                    if words.len() != 2 {
                        return Err(format!("line {line}: expected '{key} VALUE'"));
                    }
                    let v = number(words[1], key, line)?;
                    match key {
                        "c1" => p.c1 = Some(v),
                        "c2" => p.c2 = v,
                        "c3" => p.c3 = v,
                        "c4" => p.c4 = v,
                        _ => {
                            if v == 0.0 {
                                return Err(format!("line {line}: j2_slope must be > 0"));
                            }
                            p.j2_slope = Some(v)
                        }
                    }
                }
                "w1" | "w2" | "w3" | "w4" => {
                    let i = (key.as_bytes()[1] - b'1') as usize;
                    let Some(&class_name) = words.get(1) else {
                        return Err(format!(
                            "line {line}: expected '{key} progress|change|depth VALUES…'"
                        ));
                    };
                    let Some(class) = CLASSES.iter().position(|c| c.0 == class_name) else {
                        return Err(format!(
                            "line {line}: unknown category class '{class_name}' (progress, change or depth)"
                        ));
                    };
                    let count = CLASSES[class].1;
                    let values = &words[2..];
                    if values.len() != count {
                        return Err(format!(
                            "line {line}: '{key} {class_name}' needs {count} weights, found {}",
                            values.len()
                        ));
                    }
                    for (k, v) in values.iter().enumerate() {
                        p.w[i][class_offset(class) + k] =
                            number(v, &format!("{key} {class_name} #{}", k + 1), line)?;
                    }
                    seen[i][class] = true;
                }
                other => {
                    return Err(format!(
                        "line {line}: unknown key '{other}' (c1..c4, j2_slope, w1..w4)"
                    ))
                }
            }
        }
        for (i, row) in seen.iter().enumerate() {
            for (class, &ok) in row.iter().enumerate() {
                if !ok {
                    return Err(format!(
                        "missing category weights 'w{} {}' ({} values; every one of the 12 rows w1..w4 × progress/change/depth must be given)",
                        i + 1,
                        CLASSES[class].0,
                        CLASSES[class].1
                    ));
                }
            }
        }
        Ok(p)
    }

    /// The file text of these parameters (what `parse` reads back).
    pub fn to_text(&self) -> String {
        let mut s = String::from("# kishi objective parameters (docs/learning/objective.md)\n");
        if let Some(c1) = self.c1 {
            s.push_str(&format!("c1 {c1}\n"));
        }
        s.push_str(&format!("c2 {}\nc3 {}\nc4 {}\n", self.c2, self.c3, self.c4));
        if let Some(k) = self.j2_slope {
            s.push_str(&format!("j2_slope {k}\n"));
        }
        for i in 0..4 {
            for (class, (name, count)) in CLASSES.iter().enumerate() {
                let o = class_offset(class);
                let v: Vec<String> = self.w[i][o..o + count]
                    .iter()
                    .map(|x| x.to_string())
                    .collect();
                s.push_str(&format!("w{} {name} {}\n", i + 1, v.join(" ")));
            }
        }
        s
    }

    /// Whether the win-probability term is on anywhere (c4 > 0 and some w4 > 0 in every class).
    pub fn j2_on(&self) -> bool {
        self.c4 > 0.0
            && (0..3).all(|class| {
                let o = class_offset(class);
                self.w[3][o..o + CLASSES[class].1].iter().any(|&v| v > 0.0)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(c: &str) -> String {
        let mut s = String::from(c);
        for i in 1..=4 {
            s.push_str(&format!(
                "w{i} progress 1 1 1 1 1 1 1 1\nw{i} change 1 1 1\nw{i} depth 1 1 1 1\n"
            ));
        }
        s
    }

    #[test]
    fn the_default_file_round_trips_and_means_mmto() {
        let p = ObjectiveParams::parse(&full("# x\nc2 0 # margin\n")).unwrap();
        assert_eq!(p, ObjectiveParams::default());
        assert!(!p.j2_on());
        let q = ObjectiveParams {
            c1: Some(0.5),
            c4: 16.0,
            j2_slope: Some(0.004),
            ..ObjectiveParams::default()
        };
        assert_eq!(ObjectiveParams::parse(&q.to_text()).unwrap(), q);
        assert!(q.j2_on());
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let cases = [
            (full("").replace("w3 change 1 1 1\n", ""), "missing"),
            (
                full("").replace("w2 depth 1 1 1 1", "w2 depth 1 -1 1 1"),
                "negative",
            ),
            (full("c4 -2\n"), "negative"),
            (
                full("").replace("w1 change 1 1 1", "w1 change 1 1"),
                "needs 3",
            ),
            (
                full("").replace("w1 change 1 1 1", "w1 change 1 x 1"),
                "not a number",
            ),
            (full("c3 inf\n"), "finite"),
            (full("c3 1\nc3 2\n"), "twice"),
            (full("hello world\n"), "unknown key"),
            (full("w1 phase 1\n"), "unknown category class"),
            (full("j2_slope 0\n"), "> 0"),
            ("\u{0}\u{1}garbage".to_string(), "unknown key"),
        ];
        for (text, want) in cases {
            let e = ObjectiveParams::parse(&text).unwrap_err();
            assert!(e.contains(want), "{e} (wanted '{want}')");
        }
    }
}
