//! The learner: Minimax Tree Optimization (`learn mmto`) and comparison training (`learn ct`, the
//! paper's baseline) from expert game records, using the play search to find PV leaves.
//!
//! `learn …` at the engine console and `kishi learn …` on the command line share `LearnArgs::parse`
//! and `crate::games::learn` (which picks the game's feature set and calls `run::run`).

pub mod checkpoint;
pub mod dataset;
pub mod mmto;
pub mod run;

use dataset::DataOptions;
use mmto::{LearnConfig, Method, Step};
use std::path::PathBuf;

/// Everything `learn` accepts.
#[derive(Debug, Clone)]
pub struct LearnArgs {
    pub method: Method,
    pub game: String,
    pub data: DataOptions,
    pub out: PathBuf,
    pub init: Option<PathBuf>,
    pub material_init: Option<i32>,
    pub keep_defaults: Option<Vec<String>>,
    pub tables: Vec<String>,
    pub iterations: usize,
    pub reuse: usize,
    pub depth: i32,
    pub window: i32,
    pub threads: usize,
    pub a: f64,
    pub l1: f64,
    pub step: Step,
    pub piece_sum: Option<i64>,
    pub seed: u64,
    pub resume: bool,
    pub quiet: bool,
    /// Stop after this many iterations without a better test agreement (0 = never).
    pub patience: usize,
    pub ct_rate: f64,
    pub ct_scale: f64,
    pub ct_c: f64,
}

pub const USAGE: &str = "\
learn <mmto|ct> --game <shogi|chess> --out DIR [options]
  data:    --data FILE|DIR[,...]        training records
           --split FILE|DIR[,...]       records split by game into train and test (--test-fraction)
           --test FILE|DIR[,...]        test-only records
           formats by file name, each also .xz-compressed: line format .txt (both games); shogi
           CSA .csa, KIF .kif .kifu; chess PGN .pgn, EPD .epd (an entry is one position whose move
           is its sm, else its bm if that names one move; other entries are skipped as malformed).
           A DIR is searched recursively; files in it of other kinds are ignored (and counted).
           Malformed records are skipped and reported with file and line.
           --test-fraction F (0.1)  --seed N (1)  --min-plies N (0)  --skip-plies N (0)
           --max-positions N (all)  --max-test N (all)
  model:   --tables A[,B,C,D] or names (material,kp,kkp,kpp / material,kp,positional)  (A)
           --init FILE (a weight file of the feature set, expanded shogi tables folded back
           into the learner's parameters; or a learner params.bin)
           --material-init V (every piece value V, e.g. 500 for the paper's §4.2)
           --keep-defaults A[,..] (only these tables start from their initial values, others at 0)
  method:  --iterations N (40)  --reuse N (32)  --depth D (1 = quiescence)  --window W (7/a: 256 shogi)
           --a A  --l1 L  --step 1|2|random  --piece-sum S|none  (game defaults: shogi a 0.0273,
           l1 0.00625, sum 6500; chess a 0.00341, l1 0.156/32, no constraint; weights and
           l1 are per weight unit: 1/32 of Bonanza's unit, 1/32 centipawn)
           --ct-rate R (0.00087, per evaluation unit²)  --ct-scale K (0.0025)  --ct-c C (2)
  run:     --threads N (1)  --resume  --quiet
           --patience N (0 = off): stop once the test agreement has not improved for N
           iterations. With a test set, best.kwt always holds the weights that measured best.
";

fn list(v: &str) -> Vec<PathBuf> {
    v.split(',')
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .collect()
}

impl LearnArgs {
    /// Parses the words after `learn` (`args[0]` is the method). `default_game` is used when
    /// `--game` is absent (the console knows its game).
    pub fn parse(args: &[String], default_game: Option<&str>) -> Result<LearnArgs, String> {
        let method = match args.first().map(String::as_str) {
            Some("mmto") => Method::Mmto,
            Some("ct") => Method::Ct,
            Some(other) => {
                return Err(format!(
                    "unknown learning method '{other}' (mmto or ct)\n{USAGE}"
                ))
            }
            None => {
                return Err("missing learning method; `learn help` lists the options".to_string())
            }
        };
        let mut kv: Vec<(String, String)> = Vec::new();
        let mut flags = Vec::new();
        let mut i = 1;
        while i < args.len() {
            let k = &args[i];
            let Some(name) = k.strip_prefix("--") else {
                return Err(format!(
                    "unexpected argument '{k}'; `learn help` lists the options"
                ));
            };
            if matches!(name, "resume" | "quiet") {
                flags.push(name.to_string());
                i += 1;
                continue;
            }
            let Some(v) = args.get(i + 1) else {
                return Err(format!("--{name} needs a value"));
            };
            kv.push((name.to_string(), v.clone()));
            i += 2;
        }
        let get = |k: &str| {
            kv.iter()
                .rev()
                .find(|(n, _)| n == k)
                .map(|(_, v)| v.as_str())
        };
        for (k, _) in &kv {
            const KNOWN: &[&str] = &[
                "game",
                "data",
                "split",
                "test",
                "test-fraction",
                "seed",
                "min-plies",
                "skip-plies",
                "max-positions",
                "max-test",
                "tables",
                "init",
                "material-init",
                "keep-defaults",
                "iterations",
                "reuse",
                "depth",
                "window",
                "a",
                "l1",
                "step",
                "piece-sum",
                "ct-rate",
                "ct-scale",
                "ct-c",
                "threads",
                "patience",
                "out",
            ];
            if !KNOWN.contains(&k.as_str()) {
                return Err(format!(
                    "unknown option --{k}; `learn help` lists the options"
                ));
            }
        }
        fn num<T: std::str::FromStr>(name: &str, v: Option<&str>, default: T) -> Result<T, String> {
            match v {
                None => Ok(default),
                Some(s) => s.parse().map_err(|_| format!("--{name}: bad value '{s}'")),
            }
        }
        let game = get("game")
            .or(default_game)
            .ok_or("--game shogi|chess is required")?
            .to_string();
        let shogi = match game.as_str() {
            "shogi" => true,
            "chess" => false,
            other => return Err(format!("--game: unknown game '{other}' (shogi or chess)")),
        };
        let out = PathBuf::from(get("out").ok_or("--out DIR is required")?);
        let step = match get("step").unwrap_or("1") {
            "random" => Step::Random,
            s => match s.parse::<i32>() {
                Ok(h) if (1..=16).contains(&h) => Step::Fixed(h),
                _ => return Err(format!("--step: expected 1..16 or random, got '{s}'")),
            },
        };
        let piece_sum = match get("piece-sum") {
            Some("none") => None,
            Some(s) => Some(
                s.parse()
                    .map_err(|_| format!("--piece-sum: bad value '{s}'"))?,
            ),
            None if shogi => Some(6500),
            None => None,
        };
        let test_fraction: f64 = num("test-fraction", get("test-fraction"), 0.1)?;
        if !(0.0..1.0).contains(&test_fraction) {
            return Err("--test-fraction must be in [0, 1)".into());
        }
        let depth: i32 = num("depth", get("depth"), 1)?;
        if !(1..=8).contains(&depth) {
            return Err("--depth must be 1..8".into());
        }
        let data = DataOptions {
            train_files: get("data").map(list).unwrap_or_default(),
            split_files: get("split").map(list).unwrap_or_default(),
            test_files: get("test").map(list).unwrap_or_default(),
            test_fraction,
            seed: num("seed", get("seed"), 1)?,
            min_plies: num("min-plies", get("min-plies"), 0)?,
            skip_plies: num("skip-plies", get("skip-plies"), 0)?,
            max_train: num("max-positions", get("max-positions"), 0)?,
            max_test: num("max-test", get("max-test"), 0)?,
        };
        if data.train_files.is_empty() && data.split_files.is_empty() {
            return Err("no training data: give --data or --split".into());
        }
        let threads: usize = num("threads", get("threads"), 1)?;
        let a: f64 = num("a", get("a"), if shogi { 0.0273 } else { 0.00341 })?;
        if !(a > 0.0 && a.is_finite()) {
            return Err("--a must be a positive number".into());
        }
        Ok(LearnArgs {
            method,
            game,
            data,
            out,
            init: get("init").map(PathBuf::from),
            material_init: get("material-init")
                .map(|v| v.parse())
                .transpose()
                .map_err(|_| "--material-init: bad value")?,
            keep_defaults: get("keep-defaults")
                .map(|v| v.split(',').map(|s| s.trim().to_string()).collect()),
            tables: get("tables")
                .unwrap_or("A")
                .split(',')
                .map(|s| s.trim().to_string())
                .collect(),
            iterations: num("iterations", get("iterations"), 40)?,
            reuse: num("reuse", get("reuse"), 32)?,
            depth,
            window: num("window", get("window"), window_for(a))?,
            threads: threads.clamp(1, 256),
            a,
            // The paper's chess λ1 (0.156) is per centipawn of Crafty's weights; kishi's chess
            // weights are in 1/32 cp, so the same regularisation is 0.156/32 per weight unit.
            l1: num("l1", get("l1"), if shogi { 0.00625 } else { 0.156 / 32.0 })?,
            step,
            piece_sum,
            seed: num("seed", get("seed"), 1)?,
            resume: flags.iter().any(|f| f == "resume"),
            quiet: flags.iter().any(|f| f == "quiet"),
            patience: num("patience", get("patience"), 0)?,
            // 0.5 per centipawn² at chess's old whole-centipawn scale of 24: 0.5 / 24².
            ct_rate: num("ct-rate", get("ct-rate"), 0.00087)?,
            ct_scale: num("ct-scale", get("ct-scale"), 0.0025)?,
            ct_c: num("ct-c", get("ct-c"), 2.0)?,
        })
    }

    pub fn config(&self) -> LearnConfig {
        LearnConfig {
            method: self.method,
            a: self.a,
            l1: self.l1,
            step: self.step,
            piece_sum: self.piece_sum,
            depth: self.depth,
            window: self.window,
            reuse: self.reuse,
            threads: self.threads,
            seed: self.seed,
            ct_rate: self.ct_rate,
            ct_scale: self.ct_scale,
            ct_c: self.ct_c,
        }
    }

    /// The settings a resumed run must share with the run that wrote the checkpoint. Paths are
    /// canonical, so a resume may name the same files by another (relative) path. `--iterations`,
    /// `--threads`, `--patience` and `--quiet` may change.
    pub fn fingerprint(&self) -> String {
        let canon = |v: &[PathBuf]| -> Vec<PathBuf> {
            v.iter()
                .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
                .collect()
        };
        format!(
            "{:?} {} tables={} init={:?}/{:?}/{:?} a={} l1={} step={:?} sum={:?} depth={} window={} reuse={} seed={} data={:?}/{:?}/{:?} frac={} skip={} min={} max={}/{}",
            self.method,
            self.game,
            self.tables.join(","),
            self.init
                .as_ref()
                .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone())),
            self.material_init,
            self.keep_defaults,
            self.a,
            self.l1,
            self.step,
            self.piece_sum,
            self.depth,
            self.window,
            self.reuse,
            self.seed,
            canon(&self.data.train_files),
            canon(&self.data.split_files),
            canon(&self.data.test_files),
            self.data.test_fraction,
            self.data.skip_plies,
            self.data.min_plies,
            self.data.max_train,
            self.data.max_test
        )
    }
}

/// The default search window: 7/a, where T(x) is flat (T' < 0.1% of its peak). For shogi's
/// a = 0.0273 this is Bonanza's 256; chess's a = 0.00341 needs about 2,050 (with 256, moves just
/// 256 cp worse still had T ≈ 0.3 and were dropped from the gradient).
fn window_for(a: f64) -> i32 {
    (7.0 / a).round().clamp(1.0, 30_000.0) as i32
}
