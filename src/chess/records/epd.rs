//! EPD lines (test suites): `<4 FEN fields> [<halfmove> <fullmove>] op args; op args; ...`, and the
//! perft form `<FEN> ;D1 20 ;D2 400 ;id "x"`. Understood operations: `bm` and `am` (SAN moves,
//! checked legal), `id`, `Dn` (perft counts); every operation is also kept as text in `ops`.

use crate::chess::records::pgn::parse_san;
use crate::chess::ChessPos;
use crate::game::records::{NumberedLines, RecordError};
use crate::game::{Game, RulesError};
use std::io::BufRead;

/// One EPD line.
#[derive(Debug, Clone)]
pub struct EpdEntry {
    pub pos: ChessPos,
    pub bm: Vec<cozy_chess::Move>,
    pub am: Vec<cozy_chess::Move>,
    pub id: Option<String>,
    /// (depth, leaf count) from `Dn` operations.
    pub perft: Vec<(u32, u64)>,
    /// Every operation as (opcode, operand text), in order.
    pub ops: Vec<(String, String)>,
}

fn err(msg: impl Into<String>) -> RulesError {
    RulesError::new(msg)
}

/// Splits operations on `;` outside double quotes.
fn split_ops(s: &str) -> Vec<String> {
    let mut ops = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                cur.push(c);
            }
            ';' if !quoted => {
                ops.push(std::mem::take(&mut cur));
            }
            _ => cur.push(c),
        }
    }
    ops.push(cur);
    ops.into_iter()
        .map(|o| o.trim().to_string())
        .filter(|o| !o.is_empty())
        .collect()
}

/// Parses one EPD line.
pub fn parse_epd(line: &str) -> Result<EpdEntry, RulesError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 4 {
        return Err(err(format!(
            "an EPD line needs 4 position fields, found {}",
            words.len()
        )));
    }
    // Position: 4 fields, plus the two clocks when they follow as numbers (perft files).
    let mut n_fields = 4;
    if words.len() >= 6 && words[4].parse::<u32>().is_ok() && words[5].parse::<u32>().is_ok() {
        n_fields = 6;
    }
    let pos_text = words[..n_fields].join(" ");
    let pos = ChessPos::from_text(&pos_text)?;
    // The operations are what follows the position fields in the original text.
    let mut rest = line.trim_start();
    for _ in 0..n_fields {
        rest = rest.trim_start();
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        rest = &rest[end..];
    }
    let mut entry = EpdEntry {
        pos,
        bm: Vec::new(),
        am: Vec::new(),
        id: None,
        perft: Vec::new(),
        ops: Vec::new(),
    };
    for op in split_ops(rest) {
        let (code, args) = op.split_once(char::is_whitespace).unwrap_or((&op, ""));
        let args = args.trim();
        match code {
            "bm" | "am" => {
                for san in args.split_whitespace() {
                    let mv = parse_san(&entry.pos, san)
                        .map_err(|e| err(format!("{code} {san}: {}", e.0)))?;
                    if code == "bm" {
                        entry.bm.push(mv);
                    } else {
                        entry.am.push(mv);
                    }
                }
            }
            "id" => entry.id = Some(args.trim_matches('"').to_string()),
            c if c.len() > 1 && c.starts_with('D') && c[1..].parse::<u32>().is_ok() => {
                let depth = c[1..].parse::<u32>().unwrap_or(0);
                let nodes = args
                    .parse::<u64>()
                    .map_err(|_| err(format!("{c}: bad node count '{args}'")))?;
                entry.perft.push((depth, nodes));
            }
            _ => {}
        }
        entry.ops.push((code.to_string(), args.to_string()));
    }
    Ok(entry)
}

/// Streaming reader over the lines of an EPD file (blank lines and `#` comments skipped).
pub struct EpdReader<R: BufRead> {
    file: String,
    lines: NumberedLines<R>,
}

impl<R: BufRead> EpdReader<R> {
    pub fn new(file: impl Into<String>, reader: R) -> Self {
        EpdReader {
            file: file.into(),
            lines: NumberedLines::new(reader),
        }
    }
}

impl EpdReader<Box<dyn BufRead + Send>> {
    pub fn open(path: &std::path::Path) -> std::io::Result<Self> {
        Ok(EpdReader::new(
            path.display().to_string(),
            crate::game::records::open_text(path)?,
        ))
    }
}

impl<R: BufRead> Iterator for EpdReader<R> {
    type Item = Result<EpdEntry, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        let (n, line) = match self.lines.next_record_line(&self.file)? {
            Ok(x) => x,
            Err(e) => return Some(Err(e)),
        };
        Some(parse_epd(&line).map_err(|e| RecordError {
            file: self.file.clone(),
            line: n,
            message: e.0,
        }))
    }
}
