//! Chess game records: PGN (with SAN) and EPD readers (the line format is generic:
//! `crate::game::records`). `open` picks the game reader from the file name.

pub mod epd;
pub mod pgn;

use crate::chess::ChessPos;
use crate::game::records::{LineReader, Record, RecordError};
use std::path::Path;

/// A streaming reader over the games of a chess file: `.pgn` (optionally `.pgn.xz`) or the line
/// format (`.txt`, `.txt.xz`).
pub fn open(
    path: &Path,
) -> std::io::Result<Box<dyn Iterator<Item = Result<Record<ChessPos>, RecordError>> + Send>> {
    let name = path.to_string_lossy().to_ascii_lowercase();
    let name = name.strip_suffix(".xz").unwrap_or(&name);
    Ok(if name.ends_with(".pgn") {
        Box::new(pgn::PgnReader::open(path)?)
    } else {
        Box::new(LineReader::<ChessPos, _>::open(path)?)
    })
}
