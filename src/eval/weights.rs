//! `Weights`: the tables of one feature set, viewed in place inside a weight-file image that is
//! either memory-mapped (shared read-only between processes) or owned (embedded default, learner).
//! Loading checks everything a corrupt or foreign file could get wrong before any table is used:
//! magic, format version, lengths, game, feature set and version, every table's type, dimensions,
//! alignment and bounds, and the checksums (see `Verify`).

use super::format::{
    self, build_image, map_file, parse_header, Backing, Elem, Header, TableData, TableSpec,
};
use super::FeatureSet;
use crate::game::Game;
use std::path::Path;
use std::time::Instant;

/// An expanded table owned in memory (writer input, default tables, learner output).
#[derive(Debug, Clone)]
pub enum OwnedTable {
    I16(Vec<i16>),
    I32(Vec<i32>),
}

impl OwnedTable {
    fn data(&self) -> TableData<'_> {
        match self {
            OwnedTable::I16(v) => TableData::I16(v),
            OwnedTable::I32(v) => TableData::I32(v),
        }
    }
}

/// How much of a file's contents the loader checksums.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verify {
    /// Every table (what `kishi weights verify` does).
    All,
    /// Header, provenance and every table up to `LOAD_VERIFY_MAX_TABLE_BYTES`; larger tables are
    /// checked for geometry only. This is what `isready` does: see README (checksumming the full
    /// shogi KPP table cold takes longer than the 100 ms budget of `isready`).
    Load,
}

/// Tables larger than this are not checksummed at `isready` (only by `kishi weights verify`).
pub const LOAD_VERIFY_MAX_TABLE_BYTES: u64 = 64 << 20;

/// The weights of one feature set. Cheap to share: the evaluators hold an `Arc<Weights>`.
pub struct Weights {
    backing: Backing,
    header: Header,
    /// Byte range of each table of the feature set, in `FeatureSet::tables()` order; `None` when
    /// the file leaves an optional table out (it reads as zeros).
    ranges: Vec<Option<(usize, usize)>>,
    source: String,
    /// Whether every checksum was verified when these weights were loaded.
    fully_verified: bool,
    load_millis: f64,
}

impl std::fmt::Debug for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Weights({} {} v{} from {})",
            self.header.game, self.header.feature_set, self.header.feature_set_version, self.source
        )
    }
}

impl Weights {
    /// The table at index `t` of the feature set's spec as `i16` (empty when absent).
    #[inline]
    pub fn i16(&self, t: usize) -> &[i16] {
        match self.ranges[t] {
            // Alignment and length were checked when the weights were loaded (`check_tables`).
            Some((a, b)) => bytemuck::cast_slice(&self.backing.bytes()[a..b]),
            None => &[],
        }
    }

    /// The table at index `t` as `i32` (empty when absent).
    #[inline]
    pub fn i32(&self, t: usize) -> &[i32] {
        match self.ranges[t] {
            Some((a, b)) => bytemuck::cast_slice(&self.backing.bytes()[a..b]),
            None => &[],
        }
    }

    pub fn has(&self, t: usize) -> bool {
        self.ranges[t].is_some()
    }
    pub fn header(&self) -> &Header {
        &self.header
    }
    /// The file path, or "embedded default" / "in memory".
    pub fn source(&self) -> &str {
        &self.source
    }
    pub fn fully_verified(&self) -> bool {
        self.fully_verified
    }
    /// Wall time of the load (map + checks), milliseconds.
    pub fn load_millis(&self) -> f64 {
        self.load_millis
    }
    /// The provenance JSON (checked UTF-8 at load).
    pub fn provenance(&self) -> &str {
        let a = self.header.provenance_offset as usize;
        let b = a + self.header.provenance_bytes as usize;
        std::str::from_utf8(&self.backing.bytes()[a..b]).unwrap_or("")
    }
    /// Total bytes of the image (file size).
    pub fn image_bytes(&self) -> usize {
        self.backing.bytes().len()
    }
    /// Reads every byte of the image once, so that the pages are resident (benchmarks, `hold`).
    pub fn touch_all(&self) -> u64 {
        let bytes = self.backing.bytes();
        let mut x = 0u64;
        for chunk in bytes.chunks(4096) {
            x = x.wrapping_add(chunk[0] as u64);
        }
        x
    }

    /// Maps and checks a weight file for feature set `F`. The error names the file and the problem.
    pub fn load<G: Game, F: FeatureSet<G>>(path: &Path, verify: Verify) -> Result<Weights, String> {
        let t0 = Instant::now();
        let name = path.display().to_string();
        let map = map_file(path)?;
        let mut w = Self::from_backing::<G, F>(Backing::Mapped(map), name.clone(), verify)
            .map_err(|e| format!("{name}: {e}"))?;
        w.load_millis = t0.elapsed().as_secs_f64() * 1e3;
        Ok(w)
    }

    /// Checks an image (mapped or owned) against feature set `F`.
    pub fn from_backing<G: Game, F: FeatureSet<G>>(
        backing: Backing,
        source: String,
        verify: Verify,
    ) -> Result<Weights, String> {
        let img = backing.bytes();
        let header = parse_header(img)?;
        if header.game != G::NAME {
            return Err(format!(
                "wrong game: the file is for {}, this engine is playing {}",
                header.game,
                G::NAME
            ));
        }
        if header.feature_set != F::NAME || header.feature_set_version != F::VERSION {
            return Err(format!(
                "wrong feature set: the file has '{}' version {}, this kishi evaluates '{}' version {}",
                header.feature_set,
                header.feature_set_version,
                F::NAME,
                F::VERSION
            ));
        }
        let (ranges, fully_verified) = check_tables(img, &header, F::tables(), verify)?;
        Ok(Weights {
            backing,
            header,
            ranges,
            source,
            fully_verified,
            load_millis: 0.0,
        })
    }

    /// Builds in-memory weights from expanded tables (in `F::tables()` order; `None` = absent).
    pub fn from_tables<G: Game, F: FeatureSet<G>>(
        tables: &[Option<OwnedTable>],
        provenance_json: &str,
        source: &str,
    ) -> Result<Weights, String> {
        let words = image_for::<G, F>(tables, provenance_json)?;
        let len = parse_len(&words)?;
        Self::from_backing::<G, F>(Backing::Owned(words, len), source.into(), Verify::All)
    }

    /// Builds in-memory weights from a vector of independent parameters (the learner's form).
    pub fn from_params<G: Game, F: FeatureSet<G>>(
        params: &[i32],
        provenance_json: &str,
    ) -> Result<Weights, String> {
        Self::from_params_known_zero::<G, F>(params, &[], provenance_json)
    }

    /// `from_params` when the caller knows that the parameters of the tables with
    /// `known_zero[t]` are all zero (tables past the slice's end: not known), so that they are
    /// neither scanned nor expanded: a learner that rebuilds its play weights after every move
    /// learns material + KP and must not touch the 46.7M KKP/KPP parameters each time. The result
    /// is the same as `from_params`'s.
    pub fn from_params_known_zero<G: Game, F: FeatureSet<G>>(
        params: &[i32],
        known_zero: &[bool],
        provenance_json: &str,
    ) -> Result<Weights, String> {
        // Optional tables whose parameters are all zero are left out: they read as zeros, the
        // evaluation skips them, and the learner's early stages stay small and fast.
        let ranges = super::param_ranges::<G, F>();
        let specs = F::tables();
        let want: Vec<bool> = (0..specs.len())
            .map(|t| {
                let zero = if known_zero.get(t).copied().unwrap_or(false) {
                    debug_assert!(ranges.get(t).is_some_and(|&(_, a, b)| params
                        .get(a..b)
                        .is_some_and(|p| p.iter().all(|&v| v == 0))));
                    true
                } else {
                    ranges.get(t).is_some_and(|&(_, a, b)| {
                        params.get(a..b).is_some_and(|p| p.iter().all(|&v| v == 0))
                    })
                };
                !zero || specs[t].required
            })
            .collect();
        let tables = F::expand_some(params, &want)?;
        Self::from_tables::<G, F>(&tables, provenance_json, "in memory")
    }

    /// The whole image (header, tables, provenance): a weight file's bytes.
    pub fn image(&self) -> &[u8] {
        self.backing.bytes()
    }

    /// Writes these weights' image to `path` atomically.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        format::write_atomic(path, self.backing.bytes())
    }
}

/// The image length written by `build_image` (the buffer is rounded up to whole words).
fn parse_len(words: &[u64]) -> Result<usize, String> {
    let len = u64::from_le(*words.get(2).ok_or("image shorter than a header")?) as usize;
    if len > words.len() * 8 {
        return Err("image length beyond its buffer".into());
    }
    Ok(len)
}

fn image_for<G: Game, F: FeatureSet<G>>(
    tables: &[Option<OwnedTable>],
    provenance_json: &str,
) -> Result<Vec<u64>, String> {
    let specs = F::tables();
    if tables.len() != specs.len() {
        return Err(format!(
            "{} tables given, feature set {} has {}",
            tables.len(),
            F::NAME,
            specs.len()
        ));
    }
    let list: Vec<(&str, &[u32], TableData)> = specs
        .iter()
        .zip(tables)
        .filter_map(|(s, t)| t.as_ref().map(|t| (s.name, s.dims, t.data())))
        .collect();
    build_image(G::NAME, F::NAME, F::VERSION, &list, provenance_json)
}

/// Byte range of each spec table in the image (`None` = absent).
type Ranges = Vec<Option<(usize, usize)>>;

/// Matches the directory against the spec and verifies checksums.
fn check_tables(
    img: &[u8],
    header: &Header,
    specs: &[TableSpec],
    verify: Verify,
) -> Result<(Ranges, bool), String> {
    let mut ranges = vec![None; specs.len()];
    let mut all = true;
    for e in &header.tables {
        let Some(i) = specs.iter().position(|s| s.name == e.name) else {
            return Err(format!("unknown table '{}'", e.name));
        };
        let s = &specs[i];
        if ranges[i].is_some() {
            return Err(format!("table '{}' appears twice", e.name));
        }
        if s.elem != e.elem || s.dims != e.dims.as_slice() {
            return Err(format!(
                "table '{}' is {} {:?}, expected {} {:?}",
                e.name,
                e.elem.name(),
                e.dims,
                s.elem.name(),
                s.dims
            ));
        }
        let (a, b) = (e.offset as usize, (e.offset + e.bytes) as usize);
        // The views in `Weights::i16`/`i32` rely on this (cast_slice would panic otherwise).
        let ok = match e.elem {
            Elem::I16 => bytemuck::try_cast_slice::<u8, i16>(&img[a..b]).is_ok(),
            Elem::I32 => bytemuck::try_cast_slice::<u8, i32>(&img[a..b]).is_ok(),
        };
        if !ok {
            return Err(format!("table '{}' is not aligned in memory", e.name));
        }
        if verify == Verify::All || e.bytes <= LOAD_VERIFY_MAX_TABLE_BYTES {
            if format::checksum(&img[a..b]) != e.checksum {
                return Err(format!(
                    "checksum mismatch in table '{}' (corrupt file)",
                    e.name
                ));
            }
        } else {
            all = false;
        }
        ranges[i] = Some((a, b));
    }
    if let Some(s) = specs
        .iter()
        .zip(&ranges)
        .find(|(s, r)| s.required && r.is_none())
    {
        return Err(format!("required table '{}' is missing", s.0.name));
    }
    let (pa, pb) = (
        header.provenance_offset as usize,
        (header.provenance_offset + header.provenance_bytes) as usize,
    );
    if format::checksum(&img[pa..pb]) != header.provenance_checksum {
        return Err("checksum mismatch in the provenance block (corrupt file)".into());
    }
    if std::str::from_utf8(&img[pa..pb]).is_err() {
        return Err("the provenance block is not UTF-8".into());
    }
    Ok((ranges, all))
}

/// Writes a weight file atomically from expanded tables in `F::tables()` order (`None` = absent).
pub fn write_weight_file<G: Game, F: FeatureSet<G>>(
    path: &Path,
    tables: &[Option<OwnedTable>],
    provenance_json: &str,
) -> Result<(), String> {
    let words = image_for::<G, F>(tables, provenance_json)?;
    let len = parse_len(&words)?;
    let bytes: &[u8] = bytemuck::cast_slice(&words);
    format::write_atomic(path, &bytes[..len])
}

/// The embedded default weights of a feature set (built once per process): the learned file
/// built into the binary if the feature set has one (`FeatureSet::embedded_file`), else the
/// hand-set `default_tables`. Progress lines go to standard error; the protocol front ends use
/// `default_weights_noted` to send them as `info string`.
pub fn default_weights<G: Game, F: FeatureSet<G>>() -> Weights {
    default_weights_noted::<G, F>(&mut |m| eprintln!("kishi: {m}"))
}

/// `default_weights`, with `note` receiving progress lines (without a prefix) while an `.xz`
/// built-in file is unpacked: a KPP file takes a second or two, once per machine.
pub fn default_weights_noted<G: Game, F: FeatureSet<G>>(note: &mut dyn FnMut(&str)) -> Weights {
    let Some((name, bytes)) = F::embedded_file() else {
        return handset_weights::<G, F>();
    };
    let source = format!("embedded default (eval_weights/{name})");
    if name.ends_with(".xz") {
        // Unpacked once into the cache and mapped from there, like a shipped `EvalFile`: a large
        // default (the KPP file is 346 MiB raw) is then shared between engine processes by the
        // page cache. A cache that cannot be written (read-only home, full disk) is not fatal:
        // the file is unpacked into this process's memory instead.
        let cache = super::shipped::cache_dir();
        let mapped =
            super::shipped::unpack_embedded_cached(name, bytes, &cache, Some(G::NAME), note)
                .and_then(|p| Weights::load::<G, F>(&p, Verify::Load).map(|w| (w, p)));
        match mapped {
            Ok((mut w, p)) => {
                w.source = format!("{source}, mapped from {}", p.display());
                return w;
            }
            Err(e) => note(&format!(
                "cannot use the cache for the built-in evaluation ({e}); unpacking it into memory"
            )),
        }
    }
    // Copied into a u64 buffer: `include_bytes!` data is only byte-aligned, and the tables are
    // viewed in place as i16/i32. The file is checked at build time by the tests
    // (tests/shipped_weights.rs), so failure here is a programming error, not bad input.
    let (words, len) = if name.ends_with(".xz") {
        super::shipped::unpack_embedded(bytes).expect("the embedded .xz weight file unpacks")
    } else {
        let mut words = vec![0u64; bytes.len().div_ceil(8)];
        bytemuck::cast_slice_mut::<u64, u8>(&mut words)[..bytes.len()].copy_from_slice(bytes);
        (words, bytes.len())
    };
    Weights::from_backing::<G, F>(Backing::Owned(words, len), source, Verify::All)
        .expect("the embedded weight file is well-formed")
}

/// The hand-set default weights (`FeatureSet::default_tables`), whether or not a learned file is
/// embedded: the learner's usual start and the baseline the shipped files are measured against.
pub fn handset_weights<G: Game, F: FeatureSet<G>>() -> Weights {
    // The default tables are fixed in the source and checked by the unit tests, so failure here
    // is a programming error, not bad input.
    let prov = format!(
        r#"{{"learner":"none","method":"hand-set default","feature_set":"{}","see":"eval_weights/README.md"}}"#,
        F::NAME
    );
    Weights::from_tables::<G, F>(&F::default_tables(), &prov, "hand-set default")
        .expect("hand-set default weights are well-formed")
}
