//! EPD lines (test suites): `<4 FEN fields> [<halfmove> <fullmove>] op args; op args; ...`, and the
//! perft form `<FEN> ;D1 20 ;D2 400 ;id "x"`. Understood operations: `bm`, `am` and `sm` (SAN
//! moves, checked legal), `id`, `Dn` (perft counts), `ce` (an evaluation, e.g. a teacher's) and a
//! result in `c9` (as Texel-tuning sets write it); every operation is also kept as text in `ops`.
//! `EpdRecords` reads the entries as one-move game records (the learner's input).

use crate::chess::records::pgn::parse_san;
use crate::chess::ChessPos;
use crate::game::records::{NumberedLines, Record, RecordError, PLY_UNKNOWN};
use crate::game::{Game, RulesError};
use std::io::BufRead;

/// One EPD line.
#[derive(Debug, Clone)]
pub struct EpdEntry {
    pub pos: ChessPos,
    pub bm: Vec<cozy_chess::Move>,
    pub am: Vec<cozy_chess::Move>,
    /// The supplied move (`sm`): the move played in the position, e.g. in a game.
    pub sm: Option<cozy_chess::Move>,
    pub id: Option<String>,
    /// (depth, leaf count) from `Dn` operations.
    pub perft: Vec<(u32, u64)>,
    /// Every operation as (opcode, operand text), in order.
    pub ops: Vec<(String, String)>,
    /// The centipawn evaluation (`ce`) from the side to move, e.g. a teacher engine's score.
    pub ce: Option<i32>,
    /// The game result (`c9 "1-0"` etc., the field Texel-tuning sets use), when `c9` holds one.
    pub result: Option<crate::game::records::RecordResult>,
    /// Whether the move number is known: the clocks followed the position fields, or an `fmvn`
    /// operation gave it. Without it the position says move 1.
    pub move_number_known: bool,
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
        sm: None,
        id: None,
        perft: Vec::new(),
        ops: Vec::new(),
        ce: None,
        result: None,
        move_number_known: n_fields == 6,
    };
    let (mut hmvc, mut fmvn) = (None, None);
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
            "sm" => {
                let [san] = args.split_whitespace().collect::<Vec<_>>()[..] else {
                    return Err(err(format!("sm needs exactly one move, found '{args}'")));
                };
                let mv =
                    parse_san(&entry.pos, san).map_err(|e| err(format!("sm {san}: {}", e.0)))?;
                entry.sm = Some(mv);
            }
            "id" => entry.id = Some(args.trim_matches('"').to_string()),
            "ce" => {
                let v = args
                    .parse::<i32>()
                    .ok()
                    .filter(|v| v.abs() <= 32_000)
                    .ok_or_else(|| err(format!("ce: bad centipawn value '{args}'")))?;
                entry.ce = Some(v);
            }
            // c9 is a free comment in the standard (STS keeps scores in it): only a result
            // text is read as the game's result, anything else stays an ordinary comment.
            "c9" => {
                entry.result = crate::game::records::RecordResult::from_text(args.trim_matches('"'))
            }
            "hmvc" | "fmvn" if n_fields == 4 => {
                let v = args
                    .parse::<u32>()
                    .map_err(|_| err(format!("{code}: bad number '{args}'")))?;
                if code == "hmvc" {
                    hmvc = Some(v);
                } else {
                    fmvn = Some(v);
                }
            }
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
    // The standard's clock operations stand in for the two FEN fields.
    if hmvc.is_some() || fmvn.is_some() {
        let text = format!(
            "{} {} {}",
            words[..4].join(" "),
            hmvc.unwrap_or(0),
            fmvn.unwrap_or(1).max(1)
        );
        entry.pos = ChessPos::from_text(&text)?;
        entry.move_number_known = fmvn.is_some();
    }
    Ok(entry)
}

/// Streaming reader over the lines of an EPD file (blank lines and `#` comments skipped).
pub struct EpdReader<R: BufRead> {
    file: String,
    lines: NumberedLines<R>,
    /// Line number of the last entry returned (0 before the first).
    line: usize,
}

impl<R: BufRead> EpdReader<R> {
    pub fn new(file: impl Into<String>, reader: R) -> Self {
        EpdReader {
            file: file.into(),
            lines: NumberedLines::new(reader),
            line: 0,
        }
    }

    /// The file name errors are reported under.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// 1-based line number of the last entry returned.
    pub fn line(&self) -> usize {
        self.line
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
        self.line = n;
        Some(parse_epd(&line).map_err(|e| RecordError {
            file: self.file.clone(),
            line: n,
            message: e.0,
        }))
    }
}

/// The entries of an EPD file as one-move records: the position and the move to learn from. That
/// move is the `sm` operation (the supplied move, i.e. the one played) when there is one, else the
/// `bm` operation when it names exactly one move: a suite's single best move is as good as an
/// expert's. An entry with neither (a perft line, several best moves, only `am`) has no move to
/// learn from and is an error naming its line, so that a wrong file given to the learner is seen.
pub struct EpdRecords<R: BufRead> {
    reader: EpdReader<R>,
}

impl<R: BufRead> EpdRecords<R> {
    pub fn new(reader: EpdReader<R>) -> Self {
        EpdRecords { reader }
    }
}

impl<R: BufRead> Iterator for EpdRecords<R> {
    type Item = Result<Record<ChessPos>, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        let entry = match self.reader.next()? {
            Ok(e) => e,
            Err(e) => return Some(Err(e)),
        };
        let mv = match (entry.sm, entry.bm.as_slice()) {
            (Some(mv), _) | (None, &[mv]) => mv,
            (None, bm) => {
                return Some(Err(RecordError {
                    file: self.reader.file().to_string(),
                    line: self.reader.line(),
                    message: format!(
                        "no move to learn from: the entry needs an sm operation or a bm with one \
                         move (it has {} bm moves)",
                        bm.len()
                    ),
                }))
            }
        };
        let mut record = Record::new(entry.pos);
        record.moves.push(mv);
        record.result = entry.result;
        if let Some(ce) = entry.ce {
            record
                .meta
                .push((crate::game::records::TEACHER_SCORE.into(), ce.to_string()));
        }
        if let Some(id) = entry.id {
            record.meta.push(("id".into(), id));
        }
        if !entry.move_number_known {
            record.meta.push((PLY_UNKNOWN.into(), "1".into()));
        }
        Some(Ok(record))
    }
}
