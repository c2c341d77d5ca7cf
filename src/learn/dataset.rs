//! Training data for the learner: (position, expert move) pairs read from game records, filtered as
//! the MMTO paper's §4.3 does (skip the opening plies, drop positions with one legal move; positions
//! with an easy mate are dropped later by step 1), deduplicated by Zobrist key (§3.5.6), and split
//! into a training and a test set by game with a seed.
//!
//! Records come in any format the game's readers know (`GameRecords`): the line format, CSA and KIF
//! for shogi, PGN and EPD for chess, each optionally `.xz`-compressed. Every record read is one game
//! for the split, whatever the file holds (a KIF file one game, a PGN file many, an EPD file one
//! position per entry).

use crate::game::records::{record_suffix, GameRecords, RecordError, RecordResult, RecordStream};
use crate::game::Game;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// One training example: the expert played `mv` in `pos`.
#[derive(Debug, Clone)]
pub struct Sample<G: Game> {
    pub pos: G,
    pub mv: G::Move,
    /// The position's ply in its record (0 = the record's first position) and the record's
    /// number of plies: the parameterised objective's progress ratio.
    pub ply: u32,
    pub plies: u32,
    /// The record's result from the side to move here (1 win, 0.5 draw, 0 loss); `None` when the
    /// record does not state one (`*`).
    pub result: Option<f64>,
    /// A teacher's score of this position from its side to move (evaluation units), when the
    /// record carries one for its start position (`records::TEACHER_SCORE`) or for every position
    /// (`records::TEACHER_SCORES`): `learn texel`'s target.
    pub teacher: Option<i32>,
}

/// Where records come from and how they are filtered and split.
#[derive(Debug, Clone, Default)]
pub struct DataOptions {
    /// Files (or directories of them) whose positions all go to the training set.
    pub train_files: Vec<PathBuf>,
    /// Files split by game: `test_fraction` of the games go to the test set.
    pub split_files: Vec<PathBuf>,
    /// Files whose positions all go to the test set.
    pub test_files: Vec<PathBuf>,
    pub test_fraction: f64,
    pub seed: u64,
    /// Games shorter than this many plies are skipped.
    pub min_plies: usize,
    /// The first `skip_plies` positions of every game are skipped (the opening is a book's job).
    pub skip_plies: usize,
    /// Keep at most this many training positions (a seeded sample), 0 = all.
    pub max_train: usize,
    /// Keep at most this many test positions, 0 = all.
    pub max_test: usize,
}

#[derive(Debug, Default)]
pub struct Dataset<G: Game> {
    pub train: Vec<Sample<G>>,
    pub test: Vec<Sample<G>>,
    /// Malformed records, skipped (file, line, message).
    pub errors: Vec<RecordError>,
    pub games_read: usize,
    pub duplicates: usize,
    pub single_move: usize,
    /// Files in the given directories that are not record files of this game, ignored.
    pub ignored_files: usize,
}

/// SplitMix64: a small, well-mixed deterministic generator for splits, sampling and steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Expands directories into the record files inside them, recursively and sorted (so the order is
/// reproducible). Files in a directory whose names are not record files of game `G`
/// (`GameRecords::RECORD_SUFFIXES`, `.xz` allowed) are ignored, logged and counted in `ignored`; a
/// file named on its own must be a record file.
fn expand<G: GameRecords>(paths: &[PathBuf], ignored: &mut usize) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let mut visited = HashSet::new();
    for p in paths {
        if p.is_dir() {
            walk::<G>(p, &mut out, ignored, &mut visited)?;
        } else if p.exists() {
            if !is_record_file::<G>(p) {
                return Err(format!(
                    "{}: not a {} record file: the learner reads {} (optionally .xz)",
                    p.display(),
                    G::NAME,
                    G::RECORD_SUFFIXES.join(", ")
                ));
            }
            out.push(p.clone());
        } else {
            return Err(format!("{}: no such file or directory", p.display()));
        }
    }
    Ok(out)
}

fn walk<G: GameRecords>(
    dir: &Path,
    out: &mut Vec<PathBuf>,
    ignored: &mut usize,
    visited: &mut HashSet<PathBuf>,
) -> Result<(), String> {
    // Each directory is entered once: a symbolic link back up the tree would recurse forever.
    let real = dir
        .canonicalize()
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    if !visited.insert(real) {
        return Ok(());
    }
    let mut entries = std::fs::read_dir(dir)
        .and_then(|rd| {
            rd.map(|e| e.map(|e| e.path()))
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk::<G>(&p, out, ignored, visited)?;
        } else if is_record_file::<G>(&p) {
            out.push(p);
        } else {
            log::info!(
                "{}: not a {} record file ({}), ignored",
                p.display(),
                G::NAME,
                G::RECORD_SUFFIXES.join(", ")
            );
            *ignored += 1;
        }
    }
    Ok(())
}

fn is_record_file<G: GameRecords>(p: &Path) -> bool {
    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
    // `games.meta.txt`-style side files describe a data file; they hold no games.
    !name.contains(".meta.") && record_suffix(p, G::RECORD_SUFFIXES).is_some()
}

fn read_file<G: GameRecords>(path: &Path) -> Result<RecordStream<G>, String> {
    G::open_records(path).map_err(|e| format!("{}: {e}", path.display()))
}

enum Dest {
    Train,
    Split,
    Test,
}

/// Reads, filters, deduplicates and splits the data.
pub fn load<G: GameRecords>(opts: &DataOptions) -> Result<Dataset<G>, String> {
    let mut ds = Dataset {
        train: Vec::new(),
        test: Vec::new(),
        errors: Vec::new(),
        games_read: 0,
        duplicates: 0,
        single_move: 0,
        ignored_files: 0,
    };
    let mut seen_train = HashSet::new();
    let mut seen_test = HashSet::new();
    let mut rng = Rng(opts.seed ^ 0x5eed_5eed);
    let ignored = &mut ds.ignored_files;
    let groups = [
        (expand::<G>(&opts.train_files, ignored)?, Dest::Train),
        (expand::<G>(&opts.split_files, ignored)?, Dest::Split),
        (expand::<G>(&opts.test_files, ignored)?, Dest::Test),
    ];
    if ds.ignored_files > 0 {
        log::info!(
            "{} files in the data directories are not {} record files and were ignored",
            ds.ignored_files,
            G::NAME
        );
    }
    let mut moves = Vec::new();
    for (files, dest) in &groups {
        for path in files {
            for rec in read_file::<G>(path)? {
                let rec = match rec {
                    Ok(r) => r,
                    Err(e) => {
                        log::warn!("skipped record: {e}");
                        ds.errors.push(e);
                        continue;
                    }
                };
                ds.games_read += 1;
                let to_test = match dest {
                    Dest::Train => false,
                    Dest::Test => true,
                    Dest::Split => rng.unit() < opts.test_fraction,
                };
                if rec.moves.len() < opts.min_plies {
                    continue;
                }
                let (set, seen) = if to_test {
                    (&mut ds.test, &mut seen_test)
                } else {
                    (&mut ds.train, &mut seen_train)
                };
                let ply_known = rec.meta(crate::game::records::PLY_UNKNOWN).is_none();
                let teacher = match rec.meta(crate::game::records::TEACHER_SCORE) {
                    None => None,
                    Some(t) => match t.parse::<i32>() {
                        Ok(v) => Some(v),
                        Err(_) => {
                            return Err(format!(
                                "{}: bad teacher score '{t}' in a record",
                                path.display()
                            ))
                        }
                    },
                };
                // A search's score of every position (`learn results`' self-play games).
                let scores: Option<Vec<i32>> = match rec.meta(crate::game::records::TEACHER_SCORES)
                {
                    None => None,
                    Some(t) => {
                        let v: Result<Vec<i32>, _> =
                            t.split_whitespace().map(str::parse::<i32>).collect();
                        match v {
                            Ok(v) if v.len() == rec.moves.len() => Some(v),
                            _ => {
                                return Err(format!(
                                    "{}: a record's scores line does not hold one integer score per move ({} moves)",
                                    path.display(),
                                    rec.moves.len()
                                ))
                            }
                        }
                    }
                };
                for (ply, (pos, mv)) in rec.positions().enumerate() {
                    // Plies counted from the game's start (a book line starts mid-game); a
                    // position of unknown move number is not skipped.
                    if ply_known && rec.start.ply() as usize + ply < opts.skip_plies {
                        continue;
                    }
                    moves.clear();
                    pos.legal_moves(&mut moves);
                    if moves.len() < 2 {
                        ds.single_move += 1;
                        continue;
                    }
                    let key =
                        pos.key() ^ (G::encode_move(mv) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    if !seen.insert(key) {
                        ds.duplicates += 1;
                        continue;
                    }
                    let result = rec.result.map(|r| match r {
                        RecordResult::Draw => 0.5,
                        RecordResult::Win(side) if side == pos.side_to_move() => 1.0,
                        RecordResult::Win(_) => 0.0,
                    });
                    set.push(Sample {
                        pos,
                        mv,
                        ply: ply as u32,
                        plies: rec.moves.len() as u32,
                        result,
                        teacher: match &scores {
                            Some(v) => Some(v[ply]),
                            None if ply == 0 => teacher,
                            None => None,
                        },
                    });
                }
            }
        }
    }
    sample(&mut ds.train, opts.max_train, opts.seed);
    sample(&mut ds.test, opts.max_test, opts.seed.wrapping_add(1));
    Ok(ds)
}

/// Keeps a seeded random `max` of `v` (in their original order), 0 = keep all.
fn sample<T>(v: &mut Vec<T>, max: usize, seed: u64) {
    if max == 0 || v.len() <= max {
        return;
    }
    let mut rng = Rng(seed);
    let mut idx: Vec<usize> = (0..v.len()).collect();
    for i in (1..idx.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        idx.swap(i, j);
    }
    let mut keep = vec![false; v.len()];
    for &i in &idx[..max] {
        keep[i] = true;
    }
    let mut k = keep.into_iter();
    v.retain(|_| k.next().unwrap_or(false));
}
