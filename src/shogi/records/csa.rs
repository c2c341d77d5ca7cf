//! CSA game records (CSA standard file format 2.2, as floodgate publishes them): one or more games
//! per file, separated by a `/` line. Read: names (`N+`, `N-`), `$KEY:value` lines, the start
//! position (`PI` with removed pieces, `P1`..`P9` rows, `P+`/`P-` piece lines incl. `00AL`), the
//! side to move, moves (`+7776FU`, drops `+0055KA`), time lines (`T12`), comments (`'`), several
//! statements on one line separated by commas, and the end (`%TORYO`, `%KACHI`, `%SENNICHITE`,
//! `%CHUDAN`, `%TIME_UP`, …). Floodgate's `'summary:` comment, when it names the winner, decides
//! the result (it knows, e.g., that a `%SENNICHITE` was a perpetual check).

use crate::game::records::{NumberedLines, Record, RecordError, RecordResult};
use crate::game::{Game, RulesError, Side};
use crate::shogi::ShogiPos;
use std::io::BufRead;

/// CSA piece codes in SFEN letters (black's, i.e. upper case), promoted ones with `+`.
fn piece_sfen(code: &str) -> Option<&'static str> {
    Some(match code {
        "FU" => "P",
        "KY" => "L",
        "KE" => "N",
        "GI" => "S",
        "KI" => "G",
        "KA" => "B",
        "HI" => "R",
        "OU" => "K",
        "TO" => "+P",
        "NY" => "+L",
        "NK" => "+N",
        "NG" => "+S",
        "UM" => "+B",
        "RY" => "+R",
        _ => return None,
    })
}

/// The even start position as a 9x9 array of SFEN piece texts ("" = empty), [rank][file-index]
/// where file-index 0 is file 9 (as SFEN writes it).
fn hirate_board() -> Vec<Vec<String>> {
    let rows = [
        "lnsgkgsnl",
        ".r.....b.",
        "ppppppppp",
        ".........",
        ".........",
        ".........",
        "PPPPPPPPP",
        ".B.....R.",
        "LNSGKGSNL",
    ];
    rows.iter()
        .map(|r| {
            r.chars()
                .map(|c| {
                    if c == '.' {
                        String::new()
                    } else {
                        c.to_string()
                    }
                })
                .collect()
        })
        .collect()
}

/// A position being assembled from `P` lines.
struct Setup {
    board: Vec<Vec<String>>,
    hands: [Vec<String>; 2],
    /// Pieces to give to a side's hand with `00AL` (all remaining).
    all_to: Option<usize>,
}

impl Setup {
    fn empty() -> Self {
        Setup {
            board: vec![vec![String::new(); 9]; 9],
            hands: [Vec::new(), Vec::new()],
            all_to: None,
        }
    }

    fn sfen(&self, side: Side) -> Result<String, RulesError> {
        let mut hands = self.hands.clone();
        if let Some(side) = self.all_to {
            // Every piece not on the board or in a hand (kings excluded) goes to that hand.
            let set = [
                ("R", 2),
                ("B", 2),
                ("G", 4),
                ("S", 4),
                ("N", 4),
                ("L", 4),
                ("P", 18),
            ];
            for (letter, total) in set {
                let on_board = self
                    .board
                    .iter()
                    .flatten()
                    .filter(|p| p.trim_start_matches('+').eq_ignore_ascii_case(letter))
                    .count();
                let in_hands = hands
                    .iter()
                    .flatten()
                    .filter(|p| p.eq_ignore_ascii_case(letter))
                    .count();
                let rest = (total as usize).saturating_sub(on_board + in_hands);
                for _ in 0..rest {
                    hands[side].push(if side == 0 {
                        letter.to_string()
                    } else {
                        letter.to_ascii_lowercase()
                    });
                }
            }
        }
        let mut s = String::new();
        for (r, row) in self.board.iter().enumerate() {
            if r > 0 {
                s.push('/');
            }
            let mut empty = 0;
            for p in row {
                if p.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push_str(p);
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
        }
        s.push_str(if side == Side::First { " b " } else { " w " });
        let mut hand = String::new();
        for (i, h) in hands.iter().enumerate() {
            for letter in ["R", "B", "G", "S", "N", "L", "P"] {
                let n = h.iter().filter(|p| p.eq_ignore_ascii_case(letter)).count();
                let l = if i == 0 {
                    letter.to_string()
                } else {
                    letter.to_ascii_lowercase()
                };
                match n {
                    0 => {}
                    1 => hand.push_str(&l),
                    n => hand.push_str(&format!("{n}{l}")),
                }
            }
        }
        s.push_str(if hand.is_empty() { "-" } else { &hand });
        s.push_str(" 1");
        Ok(s)
    }
}

fn err(msg: impl Into<String>) -> RulesError {
    RulesError::new(msg)
}

/// `77` → (file 7, rank 7), checked to be on the board.
fn csa_square(s: &str) -> Result<(usize, usize), RulesError> {
    let b = s.as_bytes();
    if b.len() != 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
        return Err(err(format!("bad square '{s}'")));
    }
    let (f, r) = ((b[0] - b'0') as usize, (b[1] - b'0') as usize);
    if !(1..=9).contains(&f) || !(1..=9).contains(&r) {
        return Err(err(format!("square '{s}' is off the board")));
    }
    Ok((f, r))
}

fn usi_square((f, r): (usize, usize)) -> String {
    format!("{f}{}", (b'a' + r as u8 - 1) as char)
}

/// Reads a CSA move (`+7776FU`, `-0055KA`) in `pos` and returns it as a legal move.
pub fn parse_csa_move(pos: &ShogiPos, text: &str) -> Result<haitaka::Move, RulesError> {
    let t = text.trim();
    if t.len() != 7 || !t.is_ascii() {
        return Err(err(format!("'{t}' is not a CSA move (like +7776FU)")));
    }
    let side = match &t[..1] {
        "+" => Side::First,
        "-" => Side::Second,
        _ => return Err(err(format!("'{t}' must start with + or -"))),
    };
    if side != pos.side_to_move() {
        return Err(err(format!("'{t}' is played by the side not to move")));
    }
    let code = &t[5..7];
    let letters =
        piece_sfen(code).ok_or_else(|| err(format!("unknown piece '{code}' in '{t}'")))?;
    let to = csa_square(&t[3..5])?;
    let usi = if &t[1..3] == "00" {
        if letters.starts_with('+') || letters == "K" {
            return Err(err(format!("'{t}': a {code} cannot be dropped")));
        }
        format!("{letters}*{}", usi_square(to))
    } else {
        let from = csa_square(&t[1..3])?;
        let sq: haitaka::Square = usi_square(from)
            .parse()
            .map_err(|_| err(format!("bad square in '{t}'")))?;
        let on_from = pos
            .board()
            .piece_on(sq)
            .ok_or_else(|| err(format!("'{t}': no piece on {}", &t[1..3])))?;
        let promotes = letters.starts_with('+') && on_from.is_unpromoted();
        // The piece after the move must be the piece moved (or its promotion).
        let moved = if promotes { on_from.promote() } else { on_from };
        let expect = piece_sfen(code).unwrap_or("");
        if sfen_of(moved) != expect {
            return Err(err(format!(
                "'{t}': the piece on {} is a {:?}, not a {code}",
                &t[1..3],
                on_from
            )));
        }
        format!(
            "{}{}{}",
            usi_square(from),
            usi_square(to),
            if promotes { "+" } else { "" }
        )
    };
    pos.parse_move(&usi)
        .map_err(|e| err(format!("'{t}' ({usi}): {e}")))
}

fn sfen_of(p: haitaka::Piece) -> &'static str {
    use haitaka::Piece::*;
    match p {
        Pawn => "P",
        Lance => "L",
        Knight => "N",
        Silver => "S",
        Gold => "G",
        Bishop => "B",
        Rook => "R",
        King => "K",
        Tokin => "+P",
        PLance => "+L",
        PKnight => "+N",
        PSilver => "+S",
        PBishop => "+B",
        PRook => "+R",
    }
}

/// Streaming reader over the games of a CSA file.
pub struct CsaReader<R: BufRead> {
    file: String,
    lines: NumberedLines<R>,
    finished: bool,
}

impl<R: BufRead> CsaReader<R> {
    pub fn new(file: impl Into<String>, reader: R) -> Self {
        CsaReader {
            file: file.into(),
            lines: NumberedLines::new(reader),
            finished: false,
        }
    }
}

impl CsaReader<Box<dyn BufRead + Send>> {
    pub fn open(path: &std::path::Path) -> std::io::Result<Self> {
        Ok(CsaReader::new(
            path.display().to_string(),
            crate::game::records::open_text(path)?,
        ))
    }
}

impl<R: BufRead> Iterator for CsaReader<R> {
    type Item = Result<Record<ShogiPos>, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.finished {
                return None;
            }
            // Collect one game: lines up to a `/` line or the end of the file.
            let mut block: Vec<(usize, String)> = Vec::new();
            let mut read_error = None;
            loop {
                match self.lines.next() {
                    None => {
                        self.finished = true;
                        break;
                    }
                    Some(Err((line, message))) => {
                        read_error = Some(RecordError {
                            file: self.file.clone(),
                            line,
                            message,
                        });
                        break;
                    }
                    Some(Ok((n, text))) => {
                        if text.trim() == "/" {
                            break;
                        }
                        block.push((n, text));
                    }
                }
            }
            if let Some(e) = read_error {
                // Skip the rest of this game: it cannot be trusted.
                for line in self.lines.by_ref() {
                    if matches!(&line, Ok((_, t)) if t.trim() == "/") {
                        break;
                    }
                }
                return Some(Err(e));
            }
            if block
                .iter()
                .all(|(_, t)| t.trim().is_empty() || t.starts_with('\''))
            {
                continue;
            }
            let first = block.first().map_or(0, |(n, _)| *n);
            return Some(parse_game(&block).map_err(|(line, e)| RecordError {
                file: self.file.clone(),
                line: if line == 0 { first } else { line },
                message: e.0,
            }));
        }
    }
}

/// Parses one game's lines.
fn parse_game(block: &[(usize, String)]) -> Result<Record<ShogiPos>, (usize, RulesError)> {
    let mut meta: Vec<(String, String)> = Vec::new();
    let mut setup: Option<Setup> = None;
    let mut record: Option<Record<ShogiPos>> = None;
    let mut pos: Option<ShogiPos> = None;
    let mut end: Option<String> = None;
    let mut summary: Option<String> = None;
    for (n, line) in block {
        let n = *n;
        let line = line.trim_end();
        if let Some(c) = line.strip_prefix('\'') {
            if let Some(s) = c.strip_prefix("summary:") {
                summary = Some(s.to_string());
            }
            continue;
        }
        for stmt in line.split(',') {
            let stmt = stmt.trim_end();
            if stmt.trim().is_empty() {
                continue;
            }
            let fail = |e: RulesError| (n, e);
            if end.is_some() {
                // Statements after the end (time of the last move, more comments) change nothing.
                continue;
            }
            if let Some(p) = pos.as_mut() {
                // Move section.
                if stmt.starts_with('+') || stmt.starts_with('-') {
                    let mv = parse_csa_move(p, stmt).map_err(fail)?;
                    *p = p.play(mv);
                    if let Some(r) = record.as_mut() {
                        r.moves.push(mv);
                    }
                } else if stmt.starts_with('T') {
                    // Time spent on the previous move: not kept.
                } else if stmt.starts_with('%') {
                    end = Some(stmt.to_string());
                } else {
                    return Err(fail(err(format!(
                        "unexpected '{stmt}' in the move section"
                    ))));
                }
                continue;
            }
            // Header and position section.
            if let Some(v) = stmt.strip_prefix('V') {
                meta.push(("version".into(), v.to_string()));
            } else if let Some(name) = stmt.strip_prefix("N+") {
                meta.push(("black".into(), name.to_string()));
            } else if let Some(name) = stmt.strip_prefix("N-") {
                meta.push(("white".into(), name.to_string()));
            } else if let Some(kv) = stmt.strip_prefix('$') {
                let (k, v) = kv.split_once(':').unwrap_or((kv, ""));
                meta.push((k.to_ascii_lowercase(), v.to_string()));
            } else if let Some(rest) = stmt.strip_prefix("PI") {
                let mut s = Setup::empty();
                s.board = hirate_board();
                // Removed pieces: `82HI22KA`.
                let b = rest.as_bytes();
                if b.len() % 4 != 0 || !rest.is_ascii() {
                    return Err(fail(err(format!("bad PI line '{stmt}'"))));
                }
                for chunk in rest.as_bytes().chunks(4) {
                    let chunk = std::str::from_utf8(chunk).unwrap_or("");
                    let (f, r) = csa_square(&chunk[..2]).map_err(fail)?;
                    let cell = &mut s.board[r - 1][9 - f];
                    let want = piece_sfen(&chunk[2..]).unwrap_or("?");
                    if !cell.eq_ignore_ascii_case(want) {
                        return Err(fail(err(format!(
                            "PI: no {} on {}",
                            &chunk[2..],
                            &chunk[..2]
                        ))));
                    }
                    cell.clear();
                }
                setup = Some(s);
            } else if stmt.len() >= 2
                && stmt.starts_with('P')
                && stmt.as_bytes()[1].is_ascii_digit()
            {
                let r = (stmt.as_bytes()[1] - b'0') as usize;
                if !(1..=9).contains(&r) {
                    return Err(fail(err(format!("bad row in '{stmt}'"))));
                }
                let s = setup.get_or_insert_with(Setup::empty);
                // Trailing blanks of an empty last cell are often trimmed away: pad them back.
                let cells = format!("{:<27}", &stmt[2..]);
                if !cells.is_ascii() || cells.len() != 27 {
                    return Err(fail(err(format!("row P{r} needs 9 cells of 3 characters"))));
                }
                for i in 0..9 {
                    let cell = &cells[3 * i..3 * i + 3];
                    s.board[r - 1][i] = if cell.trim() == "*" || cell.trim().is_empty() {
                        String::new()
                    } else {
                        let letters = piece_sfen(&cell[1..])
                            .ok_or_else(|| fail(err(format!("unknown piece '{cell}' in P{r}"))))?;
                        match &cell[..1] {
                            "+" => letters.to_string(),
                            "-" => letters.to_ascii_lowercase(),
                            _ => return Err(fail(err(format!("bad cell '{cell}' in P{r}")))),
                        }
                    };
                }
            } else if stmt.starts_with("P+") || stmt.starts_with("P-") {
                let side = usize::from(stmt.starts_with("P-"));
                let s = setup.get_or_insert_with(Setup::empty);
                let rest = &stmt[2..];
                if !rest.is_ascii() || rest.len() % 4 != 0 {
                    return Err(fail(err(format!("bad piece line '{stmt}'"))));
                }
                for i in 0..rest.len() / 4 {
                    let chunk = &rest[4 * i..4 * i + 4];
                    if chunk == "00AL" {
                        s.all_to = Some(side);
                        continue;
                    }
                    let letters = piece_sfen(&chunk[2..])
                        .ok_or_else(|| fail(err(format!("unknown piece in '{chunk}'"))))?;
                    let letters = if side == 0 {
                        letters.to_string()
                    } else {
                        letters.to_ascii_lowercase()
                    };
                    if &chunk[..2] == "00" {
                        if letters.starts_with('+') || letters.eq_ignore_ascii_case("K") {
                            return Err(fail(err(format!("'{chunk}' cannot be in hand"))));
                        }
                        s.hands[side].push(letters);
                    } else {
                        let (f, r) = csa_square(&chunk[..2]).map_err(fail)?;
                        s.board[r - 1][9 - f] = letters;
                    }
                }
            } else if stmt == "+" || stmt == "-" {
                let side = if stmt == "+" {
                    Side::First
                } else {
                    Side::Second
                };
                let s = setup
                    .take()
                    .ok_or_else(|| fail(err("the side to move comes before any position")))?;
                let sfen = s.sfen(side).map_err(fail)?;
                let start = ShogiPos::from_text(&sfen).map_err(fail)?;
                let mut r = Record::new(start.clone());
                r.meta = std::mem::take(&mut meta);
                record = Some(r);
                pos = Some(start);
            } else {
                return Err(fail(err(format!("unexpected '{stmt}' before the moves"))));
            }
        }
    }
    let last_line = block.last().map_or(0, |(n, _)| *n);
    let (mut record, pos) = match (record, pos) {
        (Some(r), Some(p)) => (r, p),
        _ => return Err((last_line, err("no start position (P lines and + or -)"))),
    };
    let stm = pos.side_to_move();
    if let Some(end) = &end {
        record.meta.push(("end".into(), end.clone()));
        record.result = match end.as_str() {
            "%TORYO" | "%TIME_UP" | "%ILLEGAL_MOVE" | "%TSUMI" => {
                Some(RecordResult::Win(stm.opponent()))
            }
            "%KACHI" => Some(RecordResult::Win(stm)),
            "%+ILLEGAL_ACTION" => Some(RecordResult::Win(Side::Second)),
            "%-ILLEGAL_ACTION" => Some(RecordResult::Win(Side::First)),
            "%SENNICHITE" | "%JISHOGI" | "%MAX_MOVES" | "%HIKIWAKE" => Some(RecordResult::Draw),
            _ => None,
        };
    }
    if let Some(s) = summary {
        record.meta.push(("summary".into(), s.clone()));
        // `toryo:NAME1 lose:NAME2 win` (floodgate) names the winner explicitly.
        let black = record.meta("black").map(str::to_string);
        let white = record.meta("white").map(str::to_string);
        for part in s.split(':') {
            if let Some(name) = part.strip_suffix(" win") {
                if black.as_deref() == Some(name) && white.as_deref() != Some(name) {
                    record.result = Some(RecordResult::Win(Side::First));
                } else if white.as_deref() == Some(name) && black.as_deref() != Some(name) {
                    record.result = Some(RecordResult::Win(Side::Second));
                }
            }
            if part.ends_with(" draw") {
                record.result = Some(RecordResult::Draw);
            }
        }
    }
    Ok(record)
}
