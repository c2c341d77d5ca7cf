//! Protocol edges a GUI or a script hits (issue 16): `quit` and end of input answer the running
//! `go`, a hash size the machine cannot give is one error line with the old table kept, and the
//! audit's findings (docs/protocol/audit.md), each with a test here.
//!
//! The pipe tests run the real binary the way scripts and tutorials do (`printf … | kishi`); the
//! rest go through the in-process loop (`protocol_support`).

mod protocol_support;

use kishi::chess::ChessPos;
use kishi::game::Game;
use kishi::protocol::controller::legal_move;
use kishi::shogi::ShogiPos;
use protocol_support::{errors, Session};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const KISHI: &str = env!("CARGO_BIN_EXE_kishi");

/// Runs `sh -c <script>` with `input` on stdin; returns (exit code, stdout lines).
fn sh(script: &str, input: &str) -> (i32, Vec<String>) {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .env("KISHI", KISHI)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("the engine reads its input");
    let out = child.wait_with_output().expect("the engine exits");
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect();
    (out.status.code().unwrap_or(-1), lines)
}

fn bestmoves(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|rest| rest.split_whitespace().next().unwrap_or(""))
        .collect()
}

/// The two pipes, with `quit` and with plain end of input: exactly one legal `bestmove`
/// from the start position, exit code 0.
#[test]
fn piped_go_then_quit_or_eof_prints_a_legal_bestmove_in_both_dialects() {
    for (dialect, start) in [
        ("usi", ShogiPos::startpos().to_text()),
        ("uci", ChessPos::startpos().to_text()),
    ] {
        for ending in ["quit\n", ""] {
            let input = format!("{dialect}\nisready\nposition startpos\ngo depth 3\n{ending}");
            let (code, lines) = sh("exec \"$KISHI\"", &input);
            assert_eq!(code, 0, "{dialect} {ending:?}: {lines:?}");
            let moves = bestmoves(&lines);
            assert_eq!(moves.len(), 1, "{dialect} {ending:?}: {lines:?}");
            let legal = if dialect == "usi" {
                legal_move(&ShogiPos::from_text(&start).unwrap(), moves[0]).is_ok()
            } else {
                legal_move(&ChessPos::from_text(&start).unwrap(), moves[0]).is_ok()
            };
            assert!(legal, "{dialect} {ending:?}: illegal {}", moves[0]);
            // A searched move: the search got to report before it was stopped.
            assert!(
                lines.iter().any(|l| l.starts_with("info depth")),
                "{lines:?}"
            );
        }
    }
}

fn session(dialect: &str) -> Session {
    let mut s = Session::start();
    s.send(dialect);
    let ok = format!("{dialect}ok");
    s.until("handshake", |l| l == ok);
    s.sync();
    s
}

/// Lines after `quit` up to the end of the session; asserts the loop returned 0.
fn quit_and_collect(mut s: Session) -> Vec<String> {
    s.send("quit");
    let mut lines = Vec::new();
    while let Some(l) = s.recv(Duration::from_secs(10)) {
        lines.push(l);
    }
    assert_eq!(s.join(), 0);
    lines
}

#[test]
fn quit_during_infinite_and_ponder_searches_answers_before_exiting() {
    for dialect in ["usi", "uci"] {
        for go in ["go infinite", "go ponder", "go depth 60"] {
            let s = session(dialect);
            s.send("position startpos");
            s.send(go);
            std::thread::sleep(Duration::from_millis(30));
            let lines = quit_and_collect(s);
            assert_eq!(bestmoves(&lines).len(), 1, "{dialect} {go}: {lines:?}");
            assert!(
                lines.last().is_some_and(|l| l.starts_with("bestmove")),
                "nothing may follow the answer: {lines:?}"
            );
        }
    }
}

#[test]
fn quit_during_go_mate_answers_with_checkmate() {
    // A mate in one (gold drop on 5b), and the start position, which has no short mate.
    for (sfen, want) in [
        ("4k4/9/4G4/9/9/9/9/9/4K4 b G 1", Some("checkmate G*5b")),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            None,
        ),
    ] {
        let s = session("usi");
        s.send(&format!("position sfen {sfen}"));
        s.send("go mate infinite");
        let lines = quit_and_collect(s);
        let answers: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("checkmate") || l.starts_with("bestmove"))
            .collect();
        assert_eq!(answers.len(), 1, "{lines:?}");
        match want {
            Some(w) => assert_eq!(answers[0], w),
            None => assert!(
                ["checkmate timeout", "checkmate nomate"].contains(&answers[0].as_str()),
                "{answers:?}"
            ),
        }
    }
}

#[test]
fn gameover_then_quit_sends_no_late_bestmove() {
    let s = session("usi");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(30));
    s.send("gameover win");
    let lines = quit_and_collect(s);
    assert!(bestmoves(&lines).is_empty(), "{lines:?}");
}

/// The advertised maximum of the hash option.
fn hash_max(dialect: &str) -> i64 {
    let name = if dialect == "usi" { "USI_Hash" } else { "Hash" };
    let (_, lines) = sh("exec \"$KISHI\"", &format!("{dialect}\nquit\n"));
    let line = lines
        .iter()
        .find(|l| l.starts_with(&format!("option name {name} type spin")))
        .expect("the hash option is declared")
        .clone();
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "max").expect("max") + 1;
    words[i].parse().expect("a number")
}

/// A size above the machine's memory is refused by the option's range (this machine: 24 GB, so
/// the 32768 is refused), and the engine plays on.
#[test]
fn hash_sizes_above_the_advertised_maximum_are_refused() {
    for dialect in ["usi", "uci"] {
        let max = hash_max(dialect);
        let name = if dialect == "usi" { "USI_Hash" } else { "Hash" };
        let input = format!(
            "{dialect}\nsetoption name {name} value {}\nisready\ngo depth 2\n",
            max + 1
        );
        let (code, lines) = sh("exec \"$KISHI\"", &input);
        assert_eq!(code, 0);
        let errs = errors(&lines);
        assert_eq!(errs.len(), 1, "{lines:?}");
        assert!(errs[0].contains(&format!("not {}", max + 1)), "{errs:?}");
        assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
    }
}

/// Under an address-space limit (`ulimit -v`) a table bigger than the limit cannot be had: one
/// error line names the size that failed and the size kept, at the first `isready` (no table
/// yet: the default) and after one (the previous table), and a later `go` still answers a legal
/// move. The size is 6 GB, or the advertised maximum on a smaller machine; the limit is half.
#[test]
fn an_unallocatable_hash_is_one_error_and_the_engine_plays_on_with_its_old_table() {
    for (dialect, name, default) in [("usi", "USI_Hash", 64), ("uci", "Hash", 16)] {
        let size = hash_max(dialect).min(6144);
        let limited = format!(
            "ulimit -v {} && exec \"$KISHI\"",
            (size / 2).max(800) * 1024
        );
        let limited = limited.as_str();
        // First `isready`: no table yet, so the default size is kept.
        let input =
            format!("{dialect}\nsetoption name {name} value 6144\nisready\nisready\ngo depth 2\n");
        let (code, lines) = sh(limited, &input);
        assert_eq!(code, 0, "{lines:?}");
        let errs = errors(&lines);
        assert_eq!(errs.len(), 1, "reported once: {lines:?}");
        assert!(
            errs[0].contains(&format!("{name} {size} MB cannot be allocated"))
                && errs[0].contains(&format!("keeping the {default} MB table")),
            "{errs:?}"
        );
        assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");

        // After a table exists: a 128 MB table, then `size` fails and the 128 MB one stays; sending
        // the size again tries (and reports) again.
        let input = format!(
            "{dialect}\nsetoption name {name} value 128\nisready\n\
             setoption name {name} value {size}\nisready\nisready\n\
             setoption name {name} value {size}\nisready\ngo depth 2\n"
        );
        let (code, lines) = sh(limited, &input);
        assert_eq!(code, 0, "{lines:?}");
        let errs = errors(&lines);
        assert_eq!(errs.len(), 2, "{lines:?}");
        assert!(
            errs.iter()
                .all(|e| e.contains("6144 MB cannot be allocated")
                    && e.contains("keeping the 128 MB table")),
            "{errs:?}"
        );
        let moves = bestmoves(&lines);
        assert_eq!(moves.len(), 1, "{lines:?}");
    }
}

/// Audit: ShogiHome's "early ponder" sends `go ponder` without times and the clock with
/// `ponderhit btime … wtime … byoyomi …` (YaneuraOu's extension). Refusing that line left the
/// search pondering forever; now the clock applies from `ponderhit`.
#[test]
fn ponderhit_with_clock_words_ends_a_clockless_ponder_search() {
    let mut s = session("usi");
    s.send("position startpos");
    s.send("go ponder");
    std::thread::sleep(Duration::from_millis(30));
    // Malformed: refused with one error, and the search keeps pondering (no bestmove yet).
    s.send("ponderhit btime 1000 depth 3");
    let out = s.sync();
    assert_eq!(errors(&out).len(), 1, "{out:?}");
    assert!(bestmoves(&out).is_empty(), "{out:?}");
    let start = Instant::now();
    s.send("ponderhit btime 0 wtime 0 byoyomi 300");
    let lines = s.bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}

/// Audit: every `go` gets exactly one answer, whatever ends it (its own limit, `stop`, `stop`
/// twice, `ponderhit`, a position without moves, `go mate`).
#[test]
fn every_go_gets_exactly_one_answer() {
    let mut s = session("usi");
    let mut answers = 0;
    let mut count = |lines: &[String]| {
        answers += lines
            .iter()
            .filter(|l| l.starts_with("bestmove") || l.starts_with("checkmate"))
            .count();
    };
    s.send("go depth 2");
    count(&s.bestmove());
    s.send("go infinite");
    s.send("stop");
    s.send("stop");
    count(&s.bestmove());
    s.send("go ponder");
    s.send("ponderhit");
    s.send("stop");
    count(&s.bestmove());
    s.send("position sfen 4k4/9/4G4/9/9/9/9/9/4K4 b G 1");
    s.send("go mate 2000");
    count(&s.until("checkmate", |l| l.starts_with("checkmate")));
    // Sente is mated (gold on 5h, backed by the gold on 5g): no legal move.
    s.send("position sfen 4k4/9/9/9/9/9/4g4/4g4/4K4 b - 1");
    s.send("go byoyomi 1000");
    count(&s.bestmove());
    // Nothing more may come: the sync sees no answer line.
    count(&s.sync());
    assert_eq!(answers, 5, "{}", s.tail());
}

/// Audit: ShogiHome reads an `option` line by splitting on spaces (name = the third word, type =
/// the fifth), so every USI option name must be one word; and both dialects declare a default
/// for every non-button option (`<empty>` for an empty string), which both GUIs read.
#[test]
fn option_lines_parse_the_way_shogihome_and_cutechess_read_them() {
    for dialect in ["usi", "uci"] {
        let (_, lines) = sh("exec \"$KISHI\"", &format!("{dialect}\nquit\n"));
        let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
        assert!(options.len() > 3, "{lines:?}");
        for o in options {
            let w: Vec<&str> = o.split(' ').collect();
            if dialect == "usi" {
                assert!(w.len() >= 5 && w[1] == "name" && w[3] == "type", "{o}");
            }
            if !o.contains("type button") {
                let d = w.iter().position(|x| *x == "default").expect(o);
                assert!(d + 1 < w.len() && !w[d + 1].is_empty(), "{o}");
            }
        }
    }
    // `<empty>` read back from a GUI that echoes the declared default means the empty string.
    let mut s = session("usi");
    s.send("setoption name EvalFile value <empty>");
    assert!(s.sync().is_empty());
    s.send("eval");
    let lines = s.until("eval", |l| l.starts_with("Evaluation"));
    assert!(lines.last().unwrap().contains("built-in"), "{lines:?}");
}

/// Audit: spin bounds a GUI reads as 32-bit integers (cutechess's `toInt` turns anything larger
/// into 0) must fit in 32 bits, in both dialects.
#[test]
fn spin_bounds_fit_in_32_bits() {
    for dialect in ["usi", "uci"] {
        let (_, lines) = sh("exec \"$KISHI\"", &format!("{dialect}\nquit\n"));
        for o in lines.iter().filter(|l| l.contains(" type spin ")) {
            let w: Vec<&str> = o.split_whitespace().collect();
            for key in ["default", "min", "max"] {
                let i = w.iter().position(|x| *x == key).expect(o) + 1;
                let v: i64 = w[i].parse().expect(o);
                assert!(i32::try_from(v).is_ok(), "{o}");
            }
        }
    }
}

/// Audit: a `ponderhit` clock is read for the side to move at the ponder search's root, even
/// when the GUI has already sent the next `position` (here: the other side to move). With the
/// clock of the wrong side (1 hour) the search would not stop by itself within the test.
#[test]
fn a_ponderhit_clock_is_read_for_the_side_of_the_ponder_search() {
    let mut s = session("usi");
    s.send("position startpos");
    s.send("go ponder");
    std::thread::sleep(Duration::from_millis(30));
    s.send("position startpos moves 7g7f");
    let start = Instant::now();
    s.send("ponderhit btime 0 wtime 3600000 byoyomi 300");
    s.bestmove();
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}
