//! Game-record readers: the line format over every file of `shared/data`, CSA / KIF / PGN texts
//! generated here from real games (so each reader must reproduce the exact move list), hand-written
//! records with every construct the readers claim to handle, and malformed records that must be
//! reported with file and line while the rest is read.

use kishi::chess::records::{epd::EpdReader, pgn::PgnReader};
use kishi::chess::ChessPos;
use kishi::game::records::{collect, LineReader, Record, RecordResult, TEACHER_SCORES};
use kishi::game::{Game, Side};
use kishi::shogi::records::{csa::CsaReader, kif::KifReader};
use kishi::shogi::ShogiPos;
use std::io::Cursor;
use std::path::PathBuf;

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(rel)
}

#[test]
fn line_format_reads_every_shared_game_file() {
    let (games, errors) =
        collect(LineReader::<ShogiPos, _>::open(&data("shogi/gps_selfplay_train.txt.xz")).unwrap());
    assert!(errors.is_empty(), "{:?}", &errors[..errors.len().min(3)]);
    assert!(games.len() >= 179);
    let plies: usize = games.iter().map(|g| g.moves.len()).sum();
    assert!(plies >= 18_605);
    // Round trip: writing a record back gives the original line.
    let text = std::fs::read_to_string(data("shogi/shogi_sample_games.txt")).unwrap();
    let (sample, errors) = collect(LineReader::<ShogiPos, _>::new(
        "sample",
        Cursor::new(text.clone()),
    ));
    assert!(errors.is_empty() && sample.len() == 3);
    for (rec, line) in sample.iter().zip(text.lines()) {
        assert_eq!(rec.to_line(), line);
    }
    let (book, errors) =
        collect(LineReader::<ShogiPos, _>::open(&data("shogi/gps_book_positions.txt.xz")).unwrap());
    assert!(errors.is_empty());
    assert_eq!(book.len(), 52_389);
}

#[test]
fn line_format_reads_the_chess_training_file() {
    let reader = LineReader::<ChessPos, _>::open(&data("chess/chess_gm2400_train.txt.xz")).unwrap();
    let mut games = 0;
    let mut plies = 0;
    let mut results = [0usize; 4];
    for rec in reader {
        let rec = rec.unwrap();
        games += 1;
        plies += rec.moves.len();
        results[match rec.result {
            Some(RecordResult::Win(Side::First)) => 0,
            Some(RecordResult::Win(Side::Second)) => 1,
            Some(RecordResult::Draw) => 2,
            None => 3,
        }] += 1;
    }
    // The figures of shared/data/README.md.
    assert_eq!(games, 50_209);
    assert_eq!(plies, 4_179_941);
    assert_eq!(results, [15_256, 9_458, 25_492, 3]);
}

#[test]
fn line_format_reports_bad_lines_and_keeps_reading() {
    let text = "\
1-0 2 fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 e7e5
1-0 3 fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 e7e5
2-0 0 fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves
* 1 fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e5
* 0 fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 moves
0-1 1 fen 8/8/8/8/8/8/8/K6k b - - 0 1 moves h1g1
";
    let (games, errors) = collect(LineReader::<ChessPos, _>::new("t.txt", Cursor::new(text)));
    assert_eq!(games.len(), 2);
    let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![2, 3, 4, 5]);
    assert!(
        errors[0].message.contains("3 plies but has 2"),
        "{}",
        errors[0]
    );
    assert!(errors[1].message.contains("bad result"), "{}", errors[1]);
    assert!(errors[2].message.contains("e2e5"), "{}", errors[2]);
    assert!(errors[3].file == "t.txt");
}

#[test]
fn line_format_attaches_a_scores_comment_to_the_next_record_only() {
    let text = "\
# a comment, not scores
#scores 10 -20
1-0 2 fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 e7e5
#scoresX 1 2
# scores 1 2
1-0 2 fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves d2d4 d7d5
#scores 5
0-1 1 fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1b1
";
    let (games, errors) = collect(LineReader::<ChessPos, _>::new("t.txt", Cursor::new(text)));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].meta(TEACHER_SCORES), Some("10 -20"));
    // Other comments (even ones that begin alike) are not scores, and a record's scores do not
    // carry over to the next one.
    assert_eq!(games[1].meta(TEACHER_SCORES), None);
    assert_eq!(games[2].meta(TEACHER_SCORES), Some("5"));
}

// ------------------------------------------------------------------------------------------------
// CSA and KIF, generated from the shared shogi games.

const CSA_PIECES: [&str; 14] = [
    "FU", "KY", "KE", "GI", "KA", "HI", "KI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
];
const KIF_PIECES: [&str; 14] = [
    "歩", "香", "桂", "銀", "角", "飛", "金", "玉", "と", "成香", "成桂", "成銀", "馬", "龍",
];

fn sq_digits(sq: haitaka::Square) -> (usize, usize) {
    let s = sq.to_string(); // "7g"
    let b = s.as_bytes();
    ((b[0] - b'0') as usize, (b[1] - b'a' + 1) as usize)
}

fn to_csa(rec: &Record<ShogiPos>, end: &str) -> String {
    let mut out = String::from("V2.2\nN+sente\nN-gote\n$EVENT:test\nPI\n+\n");
    let mut pos = rec.start.clone();
    for (i, &mv) in rec.moves.iter().enumerate() {
        let sign = if pos.side_to_move() == Side::First {
            '+'
        } else {
            '-'
        };
        let (from, to, piece) = match mv {
            haitaka::Move::Drop { piece, to } => ((0, 0), to, piece),
            haitaka::Move::BoardMove {
                from,
                to,
                promotion,
            } => {
                let p = pos.board().piece_on(from).unwrap();
                (sq_digits(from), to, if promotion { p.promote() } else { p })
            }
        };
        let (tf, tr) = sq_digits(to);
        // Alternate styles: one statement per line, and move + time on one line.
        if i % 2 == 0 {
            out.push_str(&format!(
                "{sign}{}{}{tf}{tr}{}\nT{}\n",
                from.0,
                from.1,
                CSA_PIECES[piece as usize],
                i % 7
            ));
        } else {
            out.push_str(&format!(
                "{sign}{}{}{tf}{tr}{},T3\n'** 120 comment\n",
                from.0, from.1, CSA_PIECES[piece as usize]
            ));
        }
        pos = pos.play(mv);
    }
    out.push_str(end);
    out.push('\n');
    out
}

fn fw(d: usize) -> char {
    char::from_u32('１' as u32 + d as u32 - 1).unwrap()
}

fn to_kif(rec: &Record<ShogiPos>, end: &str) -> String {
    let mut out = String::from("開始日時：2021/06/29\n手合割：平手\n先手：sente\n後手：gote\n手数----指手---------消費時間--\n");
    let mut pos = rec.start.clone();
    let mut last_to = None;
    let kanji = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
    for (i, &mv) in rec.moves.iter().enumerate() {
        let to = mv.to();
        let (f, r) = sq_digits(to);
        let dest = if last_to == Some(to) {
            "同　".to_string()
        } else {
            format!("{}{}", fw(f), kanji[r - 1])
        };
        let text = match mv {
            haitaka::Move::Drop { piece, .. } => {
                format!("{dest}{}打", KIF_PIECES[piece as usize])
            }
            haitaka::Move::BoardMove {
                from, promotion, ..
            } => {
                let p = pos.board().piece_on(from).unwrap();
                let could = p.is_promotable()
                    && (p.can_promote(pos.board().side_to_move(), to)
                        || p.can_promote(pos.board().side_to_move(), from));
                let suffix = if promotion {
                    "成"
                } else if could {
                    "不成"
                } else {
                    ""
                };
                let (ff, fr) = sq_digits(from);
                format!("{dest}{}{suffix}({ff}{fr})", KIF_PIECES[p as usize])
            }
        };
        out.push_str(&format!(
            "{:>4} {text}   ( 0:01/00:00:{:02})\n",
            i + 1,
            i % 60
        ));
        if i % 10 == 3 {
            out.push_str("*コメント\n");
        }
        last_to = Some(to);
        pos = pos.play(mv);
    }
    out.push_str(&format!("{:>4} {end}\n", rec.moves.len() + 1));
    out
}

#[test]
fn csa_and_kif_reproduce_the_shared_shogi_games() {
    let reader = LineReader::<ShogiPos, _>::open(&data("shogi/gps_selfplay_train.txt.xz")).unwrap();
    let games: Vec<Record<ShogiPos>> = reader.take(40).map(|r| r.unwrap()).collect();
    let text = std::fs::read_to_string(data("shogi/shogi_sample_games.txt")).unwrap();
    let (sample, _) = collect(LineReader::<ShogiPos, _>::new("s", Cursor::new(text)));
    let all: Vec<&Record<ShogiPos>> = games.iter().chain(sample.iter()).collect();
    // One multi-game CSA file, games separated by '/'.
    let ends = ["%TORYO", "%KACHI", "%SENNICHITE", "%CHUDAN"];
    let csa: Vec<String> = all
        .iter()
        .enumerate()
        .map(|(i, r)| to_csa(r, ends[i % ends.len()]))
        .collect();
    let (read, errors) = collect(CsaReader::new("multi.csa", Cursor::new(csa.join("/\n"))));
    assert!(errors.is_empty(), "{:?}", errors);
    assert_eq!(read.len(), all.len());
    for (i, (a, b)) in read.iter().zip(&all).enumerate() {
        assert_eq!(a.moves, b.moves, "game {i}");
        assert_eq!(a.meta("black"), Some("sente"));
        let stm = a.final_position().side_to_move();
        let expected = match ends[i % ends.len()] {
            "%TORYO" => Some(RecordResult::Win(stm.opponent())),
            "%KACHI" => Some(RecordResult::Win(stm)),
            "%SENNICHITE" => Some(RecordResult::Draw),
            _ => None,
        };
        assert_eq!(a.result, expected, "game {i}");
    }
    for (i, r) in all.iter().enumerate() {
        let kif = to_kif(r, "投了");
        let (read, errors) = collect(KifReader::new("g.kif", Cursor::new(kif)));
        assert!(errors.is_empty(), "game {i}: {:?}", errors);
        assert_eq!(read[0].moves, r.moves, "game {i}");
        let stm = read[0].final_position().side_to_move();
        assert_eq!(read[0].result, Some(RecordResult::Win(stm.opponent())));
        assert_eq!(read[0].meta("black"), Some("sente"));
    }
}

#[test]
fn csa_floodgate_style_with_position_lines_and_summary() {
    let text = "\
'CSA encoding=UTF-8
V2.2
N+alice
N-bob
$START_TIME:2024/01/01 00:00:00
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
+7776FU
T1
-3334FU
T2
+8822UM
-3122GI
+0055KA
%TORYO
'summary:toryo:alice win:bob lose
/
N+x
N-y
P1 *  *  *  *  * -OU *  *  * 
P2 *  *  *  *  *  *  *  *  * 
P3 *  *  *  *  *  *  *  *  * 
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7 *  *  *  *  *  *  *  *  * 
P8 *  *  *  *  *  *  *  *  * 
P9 *  *  *  *  * +OU *  *  * 
P+00HI00KA
P-00AL
-
-0055KI
%CHUDAN
/
PI
+
+7776FU
-9999FU
%TORYO
/
PI82HI22KA
-
-5152OU
+5958OU
%SENNICHITE
";
    let (games, errors) = collect(CsaReader::new("fg.csa", Cursor::new(text)));
    assert_eq!(games.len(), 3, "{errors:?}");
    assert_eq!(errors.len(), 1);
    let bad_line = text.lines().position(|l| l == "-9999FU").unwrap() + 1;
    assert_eq!(errors[0].line, bad_line);
    assert!(errors[0].message.contains("-9999FU"), "{}", errors[0]);
    let g = &games[0];
    assert_eq!(g.moves.len(), 5);
    assert_eq!(g.result, Some(RecordResult::Win(Side::First)));
    assert_eq!(g.meta("black"), Some("alice"));
    assert_eq!(g.meta("start_time"), Some("2024/01/01 00:00:00"));
    let texts: Vec<String> = g.positions().map(|(p, m)| p.move_text(m)).collect();
    assert_eq!(texts, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"]);
    // 00AL gives gote every piece not on the board or in sente's hand.
    assert_eq!(
        games[1].start.to_text(),
        "5k3/9/9/9/9/9/9/9/5K3 w RBrb4g4s4n4l18p 1"
    );
    assert_eq!(games[1].result, None);
    assert_eq!(
        games[2].start.to_text(),
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(games[2].result, Some(RecordResult::Draw));
}

#[test]
fn kif_constructs_and_errors() {
    let kif = "\
# ---- Kifu for Windows ----
開始日時：2021/06/29 09:00
手合割：平手
先手：藤井
後手：豊島
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:00/00:00:00)
   2 ３四歩(33)   ( 0:00/00:00:00)
   3 ２二角成(88)   ( 0:00/00:00:00)
   4 同　銀(31)   ( 0:00/00:00:00)
   5 ４五角打   ( 0:00/00:00:00)
   6 中断   ( 0:00/00:00:00)
まで5手で中断

変化：4手
   4 同　飛(82)
";
    let (games, errors) = collect(KifReader::new("a.kif", Cursor::new(kif)));
    assert!(errors.is_empty(), "{errors:?}");
    let texts: Vec<String> = games[0].positions().map(|(p, m)| p.move_text(m)).collect();
    assert_eq!(texts, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    assert_eq!(games[0].result, None);
    assert_eq!(games[0].meta("先手"), Some("藤井"));
    // A handicap game: gote (the upper hand) moves first.
    let kif = "手合割：角落ち\n手数----指手--\n   1 ３四歩(33)\n   2 ７六歩(77)\n   3 投了\n";
    let (games, errors) = collect(KifReader::new("h.kif", Cursor::new(kif)));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(games[0].result, Some(RecordResult::Win(Side::First)));
    // Errors name the line and the problem.
    for (text, line, needle) in [
        ("手数--\n   1 ７六歩(77)\n   2 ７六歩(77)\n", 3, "(77)"),
        ("手数--\n   1 ７六桂(77)\n", 2, "not the one named"),
        ("手数--\n   1 同　歩(77)\n", 2, "同 on the first move"),
        (
            "手数--\n   1 ７六歩(77)\n   3 ３四歩(33)\n",
            3,
            "move number 3",
        ),
        ("手合割：謎\n手数--\n", 2, "手合割"),
        ("先手：a\n", 1, "no move section"),
    ] {
        let (games, errors) = collect(KifReader::new("e.kif", Cursor::new(text)));
        assert!(games.is_empty(), "{text}");
        assert_eq!(errors[0].line, line, "{text}: {}", errors[0]);
        assert!(errors[0].message.contains(needle), "{text}: {}", errors[0]);
    }
}

// ------------------------------------------------------------------------------------------------
// PGN and EPD.

#[test]
fn pgn_reproduces_shared_chess_games() {
    let reader = LineReader::<ChessPos, _>::open(&data("chess/chess_gm2400_train.txt.xz")).unwrap();
    let games: Vec<Record<ChessPos>> = reader.take(300).map(|r| r.unwrap()).collect();
    let mut pgn = String::new();
    for (i, g) in games.iter().enumerate() {
        pgn.push_str(&format!(
            "[Event \"test {i}\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"{}\"]\n\n",
            RecordResult::text(g.result)
        ));
        let mut pos = g.start.clone();
        for (j, &mv) in g.moves.iter().enumerate() {
            if j % 2 == 0 {
                pgn.push_str(&format!("{}. ", j / 2 + 1));
            } else if j % 10 == 1 {
                pgn.push_str(&format!("{}... ", j / 2 + 1));
            }
            let san = cozy_chess::util::display_san_move(pos.board(), mv).to_string();
            pgn.push_str(&san);
            match j % 13 {
                3 => pgn.push_str(" {a comment (with parentheses)} "),
                5 => pgn.push_str("! $1 "),
                7 => pgn.push_str(" (1. e4 e5 (1... c5 2. Nf3) 2. Nf3) "),
                9 => pgn.push_str(" ; rest-of-line comment\n"),
                _ => pgn.push(' '),
            }
            if j % 8 == 7 {
                pgn.push('\n');
            }
            pos = pos.play(mv);
        }
        pgn.push_str(&format!("{}\n\n", RecordResult::text(g.result)));
    }
    let (read, errors) = collect(PgnReader::new("t.pgn", Cursor::new(pgn)));
    assert!(errors.is_empty(), "{:?}", &errors[..errors.len().min(3)]);
    assert_eq!(read.len(), games.len());
    for (a, b) in read.iter().zip(&games) {
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.result, b.result);
        assert_eq!(a.meta("White"), Some("w"));
    }
}

#[test]
fn pgn_set_up_positions_castling_and_errors() {
    let pgn = r#"[Event "fen"]
[SetUp "1"]
[FEN "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"]
[Result "*"]

1. O-O 0-0-0 2. Rf1f8 Rdxf8 *

[Event "bad"]

1. e4 e5 2. Ke3 Nc6 1-0

[Event "after the bad one"]

1. d4 {unclosed comment
spanning lines} d5 2. c4 dxc4 3. e3 b5 4. a4 c6 5. axb5 cxb5 6. Qf3 1-0
"#;
    let (games, errors) = collect(PgnReader::new("t.pgn", Cursor::new(pgn)));
    assert_eq!(games.len(), 2, "{errors:?}");
    let texts: Vec<String> = games[0].positions().map(|(p, m)| p.move_text(m)).collect();
    assert_eq!(texts, ["e1g1", "e8c8", "f1f8", "d8f8"]);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].line, 10);
    assert!(errors[0].message.contains("move 3: 'Ke3'"), "{}", errors[0]);
    assert_eq!(games[1].moves.len(), 11);
    assert_eq!(games[1].result, Some(RecordResult::Win(Side::First)));
}

#[test]
fn epd_suites_read_with_legal_best_moves() {
    let mut total = 0;
    for name in [
        "wac_even.epd",
        "ecm_even.epd",
        "sts_even.epd",
        "bratko_kopec_even.epd",
        "lct2_even.epd",
        "kaufman_even.epd",
        "sbd_even.epd",
        "chess_perft_cpw.epd",
        "chess_perftsuite.epd",
    ] {
        let (entries, errors) = collect_epd(name);
        assert!(
            errors.is_empty(),
            "{name}: {:?}",
            &errors[..errors.len().min(3)]
        );
        for e in &entries {
            if !name.contains("perft") {
                assert!(!e.bm.is_empty() || !e.am.is_empty(), "{name}: {:?}", e.id);
                assert!(e.id.is_some());
                // The suites carry the answers in UCI too: they must agree with the SAN ones.
                if let Some((_, uci)) = e.ops.iter().find(|(c, _)| c == "bm_uci") {
                    let ours: Vec<String> = e.bm.iter().map(|&m| e.pos.move_text(m)).collect();
                    let theirs: Vec<&str> = uci.trim_matches('"').split_whitespace().collect();
                    assert_eq!(ours, theirs, "{name} {:?}", e.id);
                }
            } else {
                assert!(!e.perft.is_empty());
            }
        }
        total += entries.len();
    }
    assert!(total > 1_500);
    let bad =
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm Ke2; id \"x\";\n8/8/8 w - -\n";
    let (entries, errors) = collect_iter(EpdReader::new("bad.epd", Cursor::new(bad)));
    assert!(entries.is_empty());
    assert_eq!(errors.len(), 2);
    assert!(errors[0].message.contains("Ke2"));
}

fn collect_epd(
    name: &str,
) -> (
    Vec<kishi::chess::records::epd::EpdEntry>,
    Vec<kishi::game::records::RecordError>,
) {
    collect_iter(EpdReader::open(&data(&format!("suites/{name}"))).unwrap())
}

fn collect_iter<T, E>(it: impl Iterator<Item = Result<T, E>>) -> (Vec<T>, Vec<E>) {
    let mut ok = Vec::new();
    let mut bad = Vec::new();
    for r in it {
        match r {
            Ok(x) => ok.push(x),
            Err(e) => bad.push(e),
        }
    }
    (ok, bad)
}
