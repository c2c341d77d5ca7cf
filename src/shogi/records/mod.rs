//! Shogi game records: CSA and KIF readers (the line format is generic: `crate::game::records`).
//! `open` picks the reader from the file name (`.csa`, `.kif`/`.kifu`, else the line format).

pub mod csa;
pub mod kif;

use crate::game::records::{record_suffix, GameRecords, LineReader, RecordStream};
use crate::shogi::ShogiPos;
use std::path::Path;

/// The file-name endings of the shogi record formats (`.xz` may follow).
pub const SUFFIXES: &[&str] = &[".csa", ".kif", ".kifu", ".txt"];

/// A streaming reader over the records of a shogi file, chosen by its extension (`.xz` is
/// decompressed first: `games.csa.xz` is a CSA file).
pub fn open(path: &Path) -> std::io::Result<RecordStream<ShogiPos>> {
    Ok(match record_suffix(path, SUFFIXES) {
        Some(".csa") => Box::new(csa::CsaReader::open(path)?),
        Some(".kif" | ".kifu") => Box::new(kif::KifReader::open(path)?),
        _ => Box::new(LineReader::<ShogiPos, _>::open(path)?),
    })
}

impl GameRecords for ShogiPos {
    const RECORD_SUFFIXES: &'static [&'static str] = SUFFIXES;

    fn open_records(path: &Path) -> std::io::Result<RecordStream<Self>> {
        open(path)
    }
}
