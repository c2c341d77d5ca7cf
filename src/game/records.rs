//! Game records, for every format and both games: the generic `Record` type, the error list of a
//! read, file opening (plain or `.xz`), and the line format of `shared/data`
//! (`<result> <plies> <fen|sfen> <position> moves <m1> <m2> ...`).
//!
//! Readers are iterators over `Result<Record<G>, RecordError>`: a malformed record yields one error
//! (file, line, message) and the reader goes on with the next record, so the learner can stream a
//! large file and report what it skipped. Format readers: `crate::shogi::records` (CSA, KIF),
//! `crate::chess::records` (PGN, EPD), and `LineReader` here for the line format of either game.
//! `GameRecords` picks a game's reader by file name, for code that takes records of any format (the
//! learner).

use super::{Game, RulesError, Side};
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

/// The result a record states (not necessarily one the rules would give at its last position: a
/// player may resign).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordResult {
    Win(Side),
    Draw,
}

impl RecordResult {
    /// Reads `1-0`, `0-1`, `1/2-1/2` (`*` and anything else: unknown).
    pub fn from_text(s: &str) -> Option<RecordResult> {
        match s {
            "1-0" => Some(RecordResult::Win(Side::First)),
            "0-1" => Some(RecordResult::Win(Side::Second)),
            "1/2-1/2" => Some(RecordResult::Draw),
            _ => None,
        }
    }

    pub fn text(result: Option<RecordResult>) -> &'static str {
        match result {
            Some(RecordResult::Win(Side::First)) => "1-0",
            Some(RecordResult::Win(Side::Second)) => "0-1",
            Some(RecordResult::Draw) => "1/2-1/2",
            None => "*",
        }
    }
}

/// Metadata key of records whose start position's move number is unknown (an EPD entry without
/// clocks): filters by ply do not apply to them.
pub const PLY_UNKNOWN: &str = "ply-unknown";

/// Metadata key of a teacher's score of the record's start position, in centipawns-like
/// evaluation units from the side to move there (an EPD entry's `ce`): the target of
/// `learn texel`. The position's own label, so it belongs to the first position only.
pub const TEACHER_SCORE: &str = "teacher-score";

/// Metadata key of a search's score of every position of a record, one per move, each from the
/// side to move before that move, separated by spaces (`learn results` writes them for its
/// self-play games: the search that chose the move scored the position so). In the line format
/// they come on a comment line `#scores <s1> <s2> ...` before the record's line, which readers
/// that do not know it skip as any comment.
pub const TEACHER_SCORES: &str = "teacher-scores";

/// The comment that carries `TEACHER_SCORES` in the line format.
pub const SCORES_COMMENT: &str = "#scores";

/// One game: start position, the moves played (all legal), the stated result, and metadata
/// (tags, players, how the game ended) as ordered key/value pairs.
#[derive(Debug, Clone)]
pub struct Record<G: Game> {
    pub start: G,
    pub moves: Vec<G::Move>,
    pub result: Option<RecordResult>,
    pub meta: Vec<(String, String)>,
}

impl<G: Game> Record<G> {
    pub fn new(start: G) -> Self {
        Record {
            start,
            moves: Vec::new(),
            result: None,
            meta: Vec::new(),
        }
    }

    /// The first metadata value under `key`.
    pub fn meta(&self, key: &str) -> Option<&str> {
        self.meta
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Every position of the game with the move played there: (position, move) pairs, in order.
    pub fn positions(&self) -> impl Iterator<Item = (G, G::Move)> + '_ {
        let mut pos = self.start.clone();
        self.moves.iter().map(move |&mv| {
            let here = pos.clone();
            pos = pos.play(mv);
            (here, mv)
        })
    }

    /// The position after the last move.
    pub fn final_position(&self) -> G {
        self.moves
            .iter()
            .fold(self.start.clone(), |pos, &mv| pos.play(mv))
    }

    /// The record in the line format of `shared/data`.
    pub fn to_line(&self) -> String {
        let mut out = format!(
            "{} {} {} {}",
            RecordResult::text(self.result),
            self.moves.len(),
            if G::NAME == "shogi" { "sfen" } else { "fen" },
            self.start.to_text()
        );
        out.push_str(" moves");
        let mut pos = self.start.clone();
        for &mv in &self.moves {
            out.push(' ');
            out.push_str(&pos.move_text(mv));
            pos = pos.play(mv);
        }
        out
    }
}

/// A malformed record: where it is and what is wrong. The reader skipped it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    pub file: String,
    /// 1-based line number where the problem was found (the record's first line when unknown).
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for RecordError {}

/// A stream of records, malformed ones as errors: what every reader is, boxed.
pub type RecordStream<G> = Box<dyn Iterator<Item = Result<Record<G>, RecordError>> + Send>;

/// The record formats a game reads, chosen by file name.
pub trait GameRecords: Game {
    /// File-name endings of the formats `open_records` reads, lower case (a further `.xz` means
    /// the file is compressed: `games.csa.xz` is a CSA file).
    const RECORD_SUFFIXES: &'static [&'static str];
    /// Opens a record file with the reader its name selects (`record_suffix`). Names with no known
    /// suffix are read as the line format.
    fn open_records(path: &Path) -> std::io::Result<RecordStream<Self>>;
}

/// Which of `suffixes` a record file's name ends with, ignoring case and a trailing `.xz`.
pub fn record_suffix(path: &Path, suffixes: &[&'static str]) -> Option<&'static str> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let name = name.strip_suffix(".xz").unwrap_or(&name);
    suffixes.iter().copied().find(|s| name.ends_with(s))
}

/// Opens a file for reading, decompressing it when its name ends in `.xz`.
pub fn open_text(path: &Path) -> std::io::Result<Box<dyn BufRead + Send>> {
    let file = File::open(path)?;
    // Case-insensitive, as `record_suffix` is: `GAMES.CSA.XZ` is compressed too.
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xz"))
    {
        // xz2 binds liblzma: several times faster than a pure-Rust decoder on the 5 MB game files.
        Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            xz2::read::XzDecoder::new(file),
        )))
    } else {
        Ok(Box::new(BufReader::with_capacity(1 << 16, file)))
    }
}

/// Lines of a reader with their 1-based numbers; a read error (bad UTF-8, truncated xz) ends the
/// iteration with that error. Invalid UTF-8 is reported, not replaced, so a corrupt file is seen.
pub struct NumberedLines<R: BufRead> {
    reader: R,
    line: usize,
    done: bool,
}

impl<R: BufRead> NumberedLines<R> {
    pub fn new(reader: R) -> Self {
        NumberedLines {
            reader,
            line: 0,
            done: false,
        }
    }

    /// The next line that holds a record (blank lines and `#` comments skipped), or a read error
    /// tagged with `file`: the shared loop of the one-record-per-line formats.
    pub fn next_record_line(&mut self, file: &str) -> Option<Result<(usize, String), RecordError>> {
        self.next_record_line_noting(file, "", &mut None)
    }

    /// As `next_record_line`, and the text after `tag` of the last comment line since the
    /// previous record that starts with `tag` (a non-empty tag) goes to `note` (else `None`).
    pub fn next_record_line_noting(
        &mut self,
        file: &str,
        tag: &str,
        note: &mut Option<String>,
    ) -> Option<Result<(usize, String), RecordError>> {
        *note = None;
        loop {
            match self.next()? {
                Ok((n, text)) => {
                    let t = text.trim_start();
                    if !tag.is_empty() {
                        if let Some(rest) = t.strip_prefix(tag) {
                            if rest.is_empty() || rest.starts_with(char::is_whitespace) {
                                *note = Some(rest.trim().to_string());
                                continue;
                            }
                        }
                    }
                    if t.trim_end().is_empty() || t.starts_with('#') {
                        continue;
                    }
                    return Some(Ok((n, text)));
                }
                Err((line, message)) => {
                    return Some(Err(RecordError {
                        file: file.to_string(),
                        line,
                        message,
                    }))
                }
            }
        }
    }
}

impl<R: BufRead> Iterator for NumberedLines<R> {
    type Item = Result<(usize, String), (usize, String)>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut buf = Vec::new();
        match self.reader.read_until(b'\n', &mut buf) {
            Ok(0) => {
                self.done = true;
                None
            }
            Ok(_) => {
                self.line += 1;
                while matches!(buf.last(), Some(b'\n' | b'\r')) {
                    buf.pop();
                }
                // A UTF-8 byte-order mark on the first line (KIF files often have one).
                if self.line == 1 && buf.starts_with(&[0xEF, 0xBB, 0xBF]) {
                    buf.drain(..3);
                }
                match String::from_utf8(buf) {
                    Ok(s) => Some(Ok((self.line, s))),
                    Err(_) => Some(Err((self.line, "the line is not valid UTF-8".into()))),
                }
            }
            Err(e) => {
                self.done = true;
                Some(Err((self.line + 1, format!("read error: {e}"))))
            }
        }
    }
}

/// Reader for the line format: one game per line, `<result> <plies> <fen|sfen> <position> moves
/// <m1> ...` (`moves` may be absent when there are none). `<plies>` must equal the number of moves.
pub struct LineReader<G: Game, R: BufRead> {
    file: String,
    lines: NumberedLines<R>,
    _game: std::marker::PhantomData<G>,
}

impl<G: Game, R: BufRead> LineReader<G, R> {
    pub fn new(file: impl Into<String>, reader: R) -> Self {
        LineReader {
            file: file.into(),
            lines: NumberedLines::new(reader),
            _game: std::marker::PhantomData,
        }
    }
}

impl<G: Game> LineReader<G, Box<dyn BufRead + Send>> {
    /// Opens a `.txt` or `.txt.xz` game file.
    pub fn open(path: &Path) -> std::io::Result<Self> {
        Ok(LineReader::new(
            path.display().to_string(),
            open_text(path)?,
        ))
    }
}

impl<G: Game, R: BufRead> Iterator for LineReader<G, R> {
    type Item = Result<Record<G>, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut scores = None;
        let (line_no, text) =
            match self
                .lines
                .next_record_line_noting(&self.file, SCORES_COMMENT, &mut scores)?
            {
                Ok(x) => x,
                Err(e) => return Some(Err(e)),
            };
        let mut rec = parse_line::<G>(&text).map_err(|e| RecordError {
            file: self.file.clone(),
            line: line_no,
            message: e.0,
        });
        if let (Ok(r), Some(s)) = (&mut rec, scores) {
            r.meta.push((TEACHER_SCORES.to_string(), s));
        }
        Some(rec)
    }
}

/// Parses one line of the line format.
pub fn parse_line<G: Game>(text: &str) -> Result<Record<G>, RulesError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let keyword = if G::NAME == "shogi" { "sfen" } else { "fen" };
    if words.len() < 3 {
        return Err(RulesError::new(format!(
            "expected '<result> <plies> {keyword} <position> moves ...', found {} words",
            words.len()
        )));
    }
    let result = match words[0] {
        "*" => None,
        w => Some(RecordResult::from_text(w).ok_or_else(|| {
            RulesError::new(format!(
                "bad result '{w}' (expected 1-0, 0-1, 1/2-1/2 or *)"
            ))
        })?),
    };
    let plies: usize = words[1]
        .parse()
        .map_err(|_| RulesError::new(format!("bad ply count '{}'", words[1])))?;
    if words[2] != keyword {
        return Err(RulesError::new(format!(
            "expected '{keyword}' as the third word, found '{}'",
            words[2]
        )));
    }
    let moves_at = words
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(words.len());
    if moves_at < 3 {
        return Err(RulesError::new("'moves' before the position"));
    }
    let start = G::from_text(&words[3..moves_at].join(" "))?;
    let move_words = words.get(moves_at + 1..).unwrap_or(&[]);
    if move_words.len() != plies {
        return Err(RulesError::new(format!(
            "the line says {plies} plies but has {} moves",
            move_words.len()
        )));
    }
    let mut record = Record::new(start.clone());
    record.result = result;
    let mut pos = start;
    for (i, text) in move_words.iter().enumerate() {
        let mv = pos
            .parse_move(text)
            .map_err(|e| RulesError::new(format!("move {} '{text}': {e}", i + 1)))?;
        pos = pos.play(mv);
        record.moves.push(mv);
    }
    Ok(record)
}

/// Reads every record of an iterator, splitting good records from errors.
pub fn collect<G: Game>(
    reader: impl Iterator<Item = Result<Record<G>, RecordError>>,
) -> (Vec<Record<G>>, Vec<RecordError>) {
    let mut records = Vec::new();
    let mut errors = Vec::new();
    for r in reader {
        match r {
            Ok(rec) => records.push(rec),
            Err(e) => errors.push(e),
        }
    }
    (records, errors)
}
