//! KIF game records (the Japanese notation of Kakinoki and most GUIs), UTF-8 only: header lines
//! `key：value` (手合割 selects the start position: 平手 and the usual handicaps), the move section
//! (`   1 ７六歩(77)   ( 0:01/00:00:01)`, with 同, 打, 成 and 不成), the end words (投了, 詰み,
//! 千日手, 持将棋, 中断, 切れ負け, 反則勝ち/負け, 入玉勝ち), comments (`*`, `&`, `#`). Branches
//! (`変化：N手`) are skipped: the main line ends where the first branch begins. Board diagrams
//! (BOD) are reported as unsupported. One game per file; several files make several readers.

use crate::game::records::{NumberedLines, Record, RecordError, RecordResult};
use crate::game::{Game, RulesError, Side};
use crate::shogi::ShogiPos;
use std::io::BufRead;

fn err(msg: impl Into<String>) -> RulesError {
    RulesError::new(msg)
}

/// The start position of a 手合割 (handicap) name. The handicap giver is gote and moves first.
fn handicap_sfen(name: &str) -> Option<&'static str> {
    Some(match name.trim() {
        "平手" => "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "香落ち" => "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "右香落ち" => "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "角落ち" => "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "飛車落ち" => "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "飛香落ち" => "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "二枚落ち" => "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "四枚落ち" => "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "六枚落ち" => "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "八枚落ち" => "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "十枚落ち" => "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        _ => return None,
    })
}

/// A digit 1-9 written as an ASCII, full-width or kanji numeral.
fn digit(c: char) -> Option<usize> {
    let d = match c {
        '1'..='9' => c as u32 - '0' as u32,
        '１'..='９' => c as u32 - '１' as u32 + 1,
        _ => "一二三四五六七八九".chars().position(|k| k == c)? as u32 + 1,
    };
    Some(d as usize)
}

/// KIF piece names → (SFEN letter of the unpromoted kind, is the name a promoted piece).
fn piece_name(s: &str) -> Option<(usize, &'static str, bool)> {
    // (name, letters, promoted); longest names first so 成香 wins over 香.
    const NAMES: [(&str, &str, bool); 19] = [
        ("成香", "L", true),
        ("成桂", "N", true),
        ("成銀", "S", true),
        ("歩", "P", false),
        ("香", "L", false),
        ("桂", "N", false),
        ("銀", "S", false),
        ("金", "G", false),
        ("角", "B", false),
        ("飛", "R", false),
        ("玉", "K", false),
        ("王", "K", false),
        ("と", "P", true),
        ("杏", "L", true),
        ("圭", "N", true),
        ("全", "S", true),
        ("馬", "B", true),
        ("龍", "R", true),
        ("竜", "R", true),
    ];
    NAMES
        .iter()
        .find(|(n, _, _)| s.starts_with(n))
        .map(|&(n, l, p)| (n.len(), l, p))
}

fn letter_piece(letter: &str) -> haitaka::Piece {
    use haitaka::Piece::*;
    match letter {
        "P" => Pawn,
        "L" => Lance,
        "N" => Knight,
        "S" => Silver,
        "G" => Gold,
        "B" => Bishop,
        "R" => Rook,
        _ => King,
    }
}

/// What one move line says.
enum KifLine {
    Move(String),
    End(String),
}

/// Parses the text of a move (`７六歩(77)`, `同　銀(31)`, `５五角打`, `２二角成(88)`) in `pos`,
/// `last_to` being the previous move's destination (for 同).
fn parse_kif_move(
    pos: &ShogiPos,
    text: &str,
    last_to: Option<(usize, usize)>,
) -> Result<(haitaka::Move, (usize, usize)), RulesError> {
    let mut rest = text.trim();
    let to = if let Some(r) = rest.strip_prefix('同') {
        rest = r.trim_start_matches(['　', ' ']);
        last_to.ok_or_else(|| err(format!("'{text}': 同 on the first move")))?
    } else {
        let mut chars = rest.chars();
        let (Some(f), Some(r)) = (chars.next().and_then(digit), chars.next().and_then(digit))
        else {
            return Err(err(format!("'{text}': no destination square")));
        };
        rest = chars.as_str();
        // `７六同歩` style (destination written together with 同) also occurs.
        rest = rest
            .strip_prefix('同')
            .unwrap_or(rest)
            .trim_start_matches(['　', ' ']);
        (f, r)
    };
    let (len, letter, promoted_name) =
        piece_name(rest).ok_or_else(|| err(format!("'{text}': unknown piece")))?;
    rest = &rest[len..];
    let mut promote = false;
    let mut drop = false;
    if let Some(r) = rest.strip_prefix("不成") {
        rest = r;
    } else if let Some(r) = rest.strip_prefix("成") {
        promote = true;
        rest = r;
    }
    if let Some(r) = rest.strip_prefix('打') {
        drop = true;
        rest = r;
    }
    let to_usi = format!("{}{}", to.0, (b'a' + to.1 as u8 - 1) as char);
    let rest = rest.trim();
    let usi = if let Some(inner) = rest.strip_prefix('(') {
        let inner = inner
            .strip_suffix(')')
            .ok_or_else(|| err(format!("'{text}': unclosed ( in the from-square")))?;
        let mut ds = inner.chars().filter_map(digit);
        let (Some(f), Some(r), None) = (ds.next(), ds.next(), ds.next()) else {
            return Err(err(format!("'{text}': bad from-square '({inner})'")));
        };
        if drop {
            return Err(err(format!("'{text}': both 打 and a from-square")));
        }
        // The named piece must be the one on the from-square.
        let from: haitaka::Square = format!("{f}{}", (b'a' + r as u8 - 1) as char)
            .parse()
            .map_err(|_| err(format!("'{text}': bad from-square")))?;
        let on = pos.board().piece_on(from);
        let matches = on.is_some_and(|p| {
            p.unpromote() == letter_piece(letter) && p.is_unpromoted() != promoted_name
        });
        if !matches {
            return Err(err(format!(
                "'{text}': the piece on ({f}{r}) is {on:?}, not the one named"
            )));
        }
        format!(
            "{f}{}{to_usi}{}",
            (b'a' + r as u8 - 1) as char,
            if promote { "+" } else { "" }
        )
    } else if rest.is_empty() {
        // No from-square: a drop (KIF writes 打 only when a board move could also reach it).
        if promoted_name || promote || letter == "K" {
            return Err(err(format!("'{text}': no from-square for a board move")));
        }
        format!("{letter}*{to_usi}")
    } else {
        return Err(err(format!("'{text}': unexpected '{rest}'")));
    };
    let mv = pos
        .parse_move(&usi)
        .map_err(|e| err(format!("'{text}' ({usi}): {e}")))?;
    Ok((mv, to))
}

/// Splits a move line `  12 ７六歩(77)   ( 0:01/00:00:01)` into its number and move text.
fn split_move_line(line: &str) -> Option<(usize, KifLine)> {
    let t = line.trim_start();
    let digits = t.chars().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let n: usize = t[..digits].parse().ok()?;
    let rest = t[digits..].trim_start();
    // The move text ends at the first space before the time, or at a `+` (branch mark).
    let text: String = rest
        .chars()
        .take_while(|&c| c != ' ' && c != '+' && c != '\t')
        .collect();
    const ENDS: [&str; 12] = [
        "投了",
        "中断",
        "千日手",
        "詰み",
        "持将棋",
        "切れ負け",
        "反則勝ち",
        "反則負け",
        "入玉勝ち",
        "宣言勝ち",
        "不詰",
        "トライ勝ち",
    ];
    if ENDS.iter().any(|e| text.starts_with(e)) {
        return Some((n, KifLine::End(text)));
    }
    Some((n, KifLine::Move(text)))
}

/// Reads the single game of a KIF text.
pub struct KifReader<R: BufRead> {
    file: String,
    lines: Option<NumberedLines<R>>,
}

impl<R: BufRead> KifReader<R> {
    pub fn new(file: impl Into<String>, reader: R) -> Self {
        KifReader {
            file: file.into(),
            lines: Some(NumberedLines::new(reader)),
        }
    }
}

impl KifReader<Box<dyn BufRead + Send>> {
    pub fn open(path: &std::path::Path) -> std::io::Result<Self> {
        Ok(KifReader::new(
            path.display().to_string(),
            crate::game::records::open_text(path)?,
        ))
    }
}

impl<R: BufRead> Iterator for KifReader<R> {
    type Item = Result<Record<ShogiPos>, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        let lines = self.lines.take()?;
        let file = self.file.clone();
        Some(parse_kif(lines).map_err(|(line, e)| RecordError {
            file,
            line,
            message: e.0,
        }))
    }
}

fn parse_kif<R: BufRead>(lines: NumberedLines<R>) -> Result<Record<ShogiPos>, (usize, RulesError)> {
    let mut meta = Vec::new();
    let mut record: Option<Record<ShogiPos>> = None;
    let mut pos: Option<ShogiPos> = None;
    let mut last_to = None;
    let mut end: Option<String> = None;
    let mut last_line = 0;
    for item in lines {
        let (n, line) = item.map_err(|(n, m)| (n, err(m)))?;
        last_line = n;
        let t = line.trim();
        if t.is_empty() || t.starts_with(['*', '&', '#']) {
            continue;
        }
        if t.starts_with("変化") {
            break; // the main line is over; branches follow
        }
        if end.is_some() {
            continue;
        }
        if t.starts_with("手数") {
            // The move section starts; fix the start position now.
            if record.is_none() {
                let sfen = handicap_sfen(
                    meta.iter()
                        .find(|(k, _): &&(String, String)| k == "手合割")
                        .map_or("平手", |(_, v)| v.as_str()),
                )
                .ok_or_else(|| (n, err("unknown 手合割 (handicap)")))?;
                let start = ShogiPos::from_text(sfen).map_err(|e| (n, e))?;
                let mut r = Record::new(start.clone());
                r.meta = std::mem::take(&mut meta);
                record = Some(r);
                pos = Some(start);
            }
            continue;
        }
        if let (Some(p), Some(r)) = (pos.as_mut(), record.as_mut()) {
            match split_move_line(t) {
                Some((num, KifLine::Move(text))) => {
                    if num != r.moves.len() + 1 {
                        return Err((
                            n,
                            err(format!("move number {num}, expected {}", r.moves.len() + 1)),
                        ));
                    }
                    let (mv, to) = parse_kif_move(p, &text, last_to).map_err(|e| (n, e))?;
                    *p = p.play(mv);
                    r.moves.push(mv);
                    last_to = Some(to);
                }
                Some((_, KifLine::End(word))) => end = Some(word),
                None if t.starts_with("まで") => {}
                None => return Err((n, err(format!("unexpected line '{t}' in the move section")))),
            }
            continue;
        }
        // Header.
        if t.contains("持駒")
            || t.starts_with('|')
            || t.starts_with("+---")
            || t.starts_with("９ ８")
        {
            return Err((
                n,
                err("board diagrams (BOD) are not supported; use 手合割 or SFEN"),
            ));
        }
        if let Some((k, v)) = t.split_once('：').or_else(|| t.split_once(':')) {
            meta.push((k.trim().to_string(), v.trim().to_string()));
        } else {
            return Err((n, err(format!("unexpected header line '{t}'"))));
        }
    }
    let (Some(mut record), Some(pos)) = (record, pos) else {
        return Err((
            last_line,
            err("no move section (a line starting with 手数)"),
        ));
    };
    let stm = pos.side_to_move();
    if let Some(word) = end {
        record.result = if ["投了", "詰み", "切れ負け", "反則負け"]
            .iter()
            .any(|w| word.starts_with(w))
        {
            Some(RecordResult::Win(stm.opponent()))
        } else if ["反則勝ち", "入玉勝ち", "宣言勝ち", "トライ勝ち"]
            .iter()
            .any(|w| word.starts_with(w))
        {
            Some(RecordResult::Win(stm))
        } else if ["千日手", "持将棋"].iter().any(|w| word.starts_with(w)) {
            Some(RecordResult::Draw)
        } else {
            None
        };
        record.meta.push(("end".into(), word));
    }
    // 先手/後手 are the players; keep the English keys the CSA reader uses too.
    for (k, key) in [
        ("先手", "black"),
        ("後手", "white"),
        ("下手", "black"),
        ("上手", "white"),
    ] {
        if let Some(v) = record.meta(k).map(str::to_string) {
            record.meta.push((key.into(), v));
        }
    }
    let _ = Side::First;
    Ok(record)
}
