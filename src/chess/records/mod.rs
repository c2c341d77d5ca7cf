//! Chess game records: PGN (with SAN) and EPD readers (the line format is generic:
//! `crate::game::records`). `open` picks the game reader from the file name.

pub mod epd;
pub mod pgn;

use crate::chess::ChessPos;
use crate::game::records::{record_suffix, GameRecords, LineReader, RecordStream};
use std::path::Path;

/// The file-name endings of the chess record formats (`.xz` may follow).
pub const SUFFIXES: &[&str] = &[".pgn", ".epd", ".txt"];

/// A streaming reader over the games of a chess file: `.pgn`, `.epd` (each entry a one-move record:
/// `epd::EpdRecords`) or the line format (`.txt`, and any other name); `.xz` is decompressed first.
pub fn open(path: &Path) -> std::io::Result<RecordStream<ChessPos>> {
    Ok(match record_suffix(path, SUFFIXES) {
        Some(".pgn") => Box::new(pgn::PgnReader::open(path)?),
        Some(".epd") => Box::new(epd::EpdRecords::new(epd::EpdReader::open(path)?)),
        _ => Box::new(LineReader::<ChessPos, _>::open(path)?),
    })
}

impl GameRecords for ChessPos {
    const RECORD_SUFFIXES: &'static [&'static str] = SUFFIXES;

    fn open_records(path: &Path) -> std::io::Result<RecordStream<Self>> {
        open(path)
    }
}
