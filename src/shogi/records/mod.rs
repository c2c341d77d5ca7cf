//! Shogi game records: CSA and KIF readers (the line format is generic: `crate::game::records`).
//! `open` picks the reader from the file name (`.csa`, `.kif`/`.kifu`, else the line format).

pub mod csa;
pub mod kif;

use crate::game::records::{LineReader, Record, RecordError};
use crate::shogi::ShogiPos;
use std::path::Path;

/// A streaming reader over the records of a shogi file, chosen by its extension (`.xz` is
/// decompressed first: `games.csa.xz` is a CSA file).
pub fn open(
    path: &Path,
) -> std::io::Result<Box<dyn Iterator<Item = Result<Record<ShogiPos>, RecordError>> + Send>> {
    let name = path.to_string_lossy().to_ascii_lowercase();
    let name = name.strip_suffix(".xz").unwrap_or(&name);
    Ok(if name.ends_with(".csa") {
        Box::new(csa::CsaReader::open(path)?)
    } else if name.ends_with(".kif") || name.ends_with(".kifu") {
        Box::new(kif::KifReader::open(path)?)
    } else {
        Box::new(LineReader::<ShogiPos, _>::open(path)?)
    })
}
