//! PGN game records: tag pairs, SAN moves (cozy-chess's SAN parser against the legal moves, after
//! stripping annotations), comments (`{…}`, `;` to the end of the line), NAGs (`$n`), move numbers,
//! and the game-end token. Variations (`(…)`, nested) are skipped. A `FEN` tag sets the start
//! position; a `Variant` other than standard chess is an error.

use crate::chess::ChessPos;
use crate::game::records::{NumberedLines, Record, RecordError, RecordResult};
use crate::game::{Game, RulesError};
use std::io::BufRead;

fn err(msg: impl Into<String>) -> RulesError {
    RulesError::new(msg)
}

/// Reads a SAN move (`Nf3`, `exd6`, `e8=Q+`, `O-O`, `0-0-0`, with `!`/`?` annotations) as a legal
/// move of `pos`.
pub fn parse_san(pos: &ChessPos, text: &str) -> Result<cozy_chess::Move, RulesError> {
    let mut t = text.trim().trim_end_matches(['!', '?']).to_string();
    if let Some(s) = t.strip_suffix("e.p.") {
        t = s.trim_end().to_string();
    }
    t = t.replace('0', "O");
    if t.is_empty() || t.len() > 10 || !t.is_ascii() {
        return Err(err(format!("'{text}' is not a SAN move")));
    }
    cozy_chess::util::parse_san_move(pos.board(), &t).map_err(|_| {
        err(format!(
            "'{text}' is not a legal move here (or is ambiguous)"
        ))
    })
}

/// Streaming reader over the games of a PGN file.
pub struct PgnReader<R: BufRead> {
    file: String,
    lines: std::iter::Peekable<NumberedLines<R>>,
}

impl<R: BufRead> PgnReader<R> {
    pub fn new(file: impl Into<String>, reader: R) -> Self {
        PgnReader {
            file: file.into(),
            lines: NumberedLines::new(reader).peekable(),
        }
    }
}

impl PgnReader<Box<dyn BufRead + Send>> {
    pub fn open(path: &std::path::Path) -> std::io::Result<Self> {
        Ok(PgnReader::new(
            path.display().to_string(),
            crate::game::records::open_text(path)?,
        ))
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<Record<ChessPos>, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        // One game: tag lines, then movetext lines until the next tag line after movetext (or the
        // end). A `[` inside a comment does not start a line, so this split is safe for PGN as
        // exported by the usual tools.
        let mut tags: Vec<(usize, String)> = Vec::new();
        let mut moves: Vec<(usize, String)> = Vec::new();
        loop {
            let is_tag = match self.lines.peek() {
                None => break,
                Some(Err(_)) => false,
                Some(Ok((_, l))) => l.trim_start().starts_with('['),
            };
            if is_tag && !moves.is_empty() {
                break;
            }
            match self.lines.next() {
                Some(Ok((n, l))) => {
                    if l.trim().is_empty() {
                        continue;
                    }
                    if is_tag {
                        tags.push((n, l));
                    } else if !l.starts_with('%') {
                        moves.push((n, l));
                    }
                }
                Some(Err((line, message))) => {
                    return Some(Err(RecordError {
                        file: self.file.clone(),
                        line,
                        message,
                    }))
                }
                None => break,
            }
        }
        if tags.is_empty() && moves.is_empty() {
            return None;
        }
        let first = tags.first().or(moves.first()).map_or(0, |(n, _)| *n);
        Some(parse_game(&tags, &moves).map_err(|(line, e)| RecordError {
            file: self.file.clone(),
            line: if line == 0 { first } else { line },
            message: e.0,
        }))
    }
}

fn parse_tag(line: &str) -> Result<(String, String), RulesError> {
    let inner = line
        .trim()
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .ok_or_else(|| err(format!("bad tag line '{line}'")))?;
    let (key, value) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| err(format!("tag without a value: '{line}'")))?;
    let value = value.trim();
    let value = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| err(format!("tag value is not quoted: '{line}'")))?;
    Ok((
        key.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

fn parse_game(
    tags: &[(usize, String)],
    moves: &[(usize, String)],
) -> Result<Record<ChessPos>, (usize, RulesError)> {
    let mut meta = Vec::new();
    for (n, line) in tags {
        meta.push(parse_tag(line).map_err(|e| (*n, e))?);
    }
    let tag = |k: &str| {
        meta.iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    if let Some(v) = tag("Variant") {
        if !v.eq_ignore_ascii_case("standard") && !v.eq_ignore_ascii_case("chess") {
            return Err((0, err(format!("variant '{v}' is not supported"))));
        }
    }
    let start = match tag("FEN") {
        Some(fen) => ChessPos::from_text(&fen).map_err(|e| (0, e))?,
        None => ChessPos::startpos(),
    };
    let mut record = Record::new(start.clone());
    record.result = tag("Result").and_then(|r| RecordResult::from_text(&r));
    let mut pos = start;
    let mut depth = 0usize; // variation nesting
    let mut in_brace = false;
    let mut ended = false;
    for (n, line) in moves {
        let n = *n;
        let mut rest = line.as_str();
        while !rest.is_empty() {
            if in_brace {
                match rest.find('}') {
                    Some(i) => {
                        in_brace = false;
                        rest = &rest[i + 1..];
                    }
                    None => rest = "",
                }
                continue;
            }
            let c = rest.chars().next().unwrap_or(' ');
            match c {
                '{' => {
                    in_brace = true;
                    rest = &rest[1..];
                }
                ';' => rest = "",
                // A stray closing brace: skip it (it would otherwise be an empty token forever).
                '}' => rest = &rest[1..],
                '(' => {
                    depth += 1;
                    rest = &rest[1..];
                }
                ')' => {
                    if depth == 0 {
                        return Err((n, err("')' without '('")));
                    }
                    depth -= 1;
                    rest = &rest[1..];
                }
                c if c.is_whitespace() => rest = &rest[c.len_utf8()..],
                _ => {
                    let end = rest
                        .find(|ch: char| ch.is_whitespace() || "{}();".contains(ch))
                        .unwrap_or(rest.len());
                    let token = &rest[..end];
                    rest = &rest[end..];
                    if depth > 0 || ended {
                        continue;
                    }
                    if let Some(r) = RecordResult::from_text(token) {
                        record.result = Some(r);
                        ended = true;
                        continue;
                    }
                    if token == "*" {
                        ended = true;
                        continue;
                    }
                    if token.starts_with('$') {
                        continue; // NAG
                    }
                    // Move numbers, possibly glued to the move: `12.`, `12...`, `12.e4`.
                    let digits = token.trim_start_matches(|ch: char| ch.is_ascii_digit());
                    let t = if digits.starts_with('.') || digits.is_empty() {
                        digits.trim_start_matches('.')
                    } else {
                        token // `0-0` castling starts with a digit too
                    };
                    if t.is_empty() || t == "e.p." {
                        continue;
                    }
                    if t == "--" || t == "Z0" {
                        return Err((n, err("null moves are not supported")));
                    }
                    let mv = parse_san(&pos, t).map_err(|e| {
                        (n, err(format!("move {}: {}", record.moves.len() + 1, e.0)))
                    })?;
                    pos = pos.play(mv);
                    record.moves.push(mv);
                }
            }
        }
    }
    if depth != 0 {
        return Err((
            moves.last().map_or(0, |(n, _)| *n),
            err("unclosed variation '('"),
        ));
    }
    record.meta = meta;
    Ok(record)
}
