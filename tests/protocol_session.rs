//! Protocol sessions through the real loop (`kishi::protocol::run`): handshakes, positions, searches,
//! stop/ponder semantics, errors that change nothing, and the console extras, for USI and UCI.

mod protocol_support;

use protocol_support::{errors, Session};
use std::time::{Duration, Instant};

fn usi() -> Session {
    let mut s = Session::start();
    s.send("usi");
    s.until("usiok", |l| l == "usiok");
    s
}

fn uci() -> Session {
    let mut s = Session::start();
    s.send("uci");
    s.until("uciok", |l| l == "uciok");
    s
}

/// The `Position:` line of `d`.
fn position_text(s: &mut Session) -> String {
    s.send("d");
    let lines = s.until("d", |l| l.starts_with("Legal moves"));
    lines
        .iter()
        .find(|l| l.starts_with("Position: "))
        .expect("d prints the position")
        .clone()
}

#[test]
fn usi_handshake_declares_the_required_options() {
    let mut s = Session::start();
    s.send("usi");
    let lines = s.until("usiok", |l| l == "usiok");
    assert!(lines[0].starts_with("id name kishi"));
    for name in [
        "USI_Hash",
        "USI_Ponder",
        "Threads",
        "MultiPV",
        "EvalFile",
        "MaxMovesToDraw",
        "NetworkDelay",
        "NetworkDelay2",
        "MinimumThinkingTime",
        "SlowMover",
        "DrawValueBlack",
        "DrawValueWhite",
        "ResignValue",
        "DepthLimit",
        "NodesLimit",
        "MateHash",
        "MateFutileNextToKing",
        "Mate1Ply",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "missing option {name}"
        );
    }
    assert!(lines.contains(
        &"option name EnteringKingRule type combo default CSARule27 var NoEnteringKing var CSARule24 var CSARule24H var CSARule27 var CSARule27H".to_string()
    ));
    assert!(s.sync().is_empty());
    assert_eq!(s.close(), 0);
}

#[test]
fn uci_handshake_declares_the_required_options() {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.until("uciok", |l| l == "uciok");
    for name in [
        "Hash",
        "Threads",
        "Ponder",
        "MultiPV",
        "EvalFile",
        "Move Overhead",
        "Contempt",
        "Clear Hash",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "missing option {name}"
        );
    }
    assert!(s.sync().is_empty());
    s.send("quit");
    assert_eq!(s.join(), 0);
}

#[test]
fn the_first_command_must_choose_a_dialect() {
    let mut s = Session::start();
    s.send("isready");
    let l = s.recv(Duration::from_secs(10)).expect("an error line");
    assert_eq!(
        l,
        "info string error: send 'usi' (shogi) or 'uci' (chess) first, not 'isready': isready"
    );
    s.send("uci");
    s.until("uciok", |l| l == "uciok");
    s.send("usi");
    let l = s.recv(Duration::from_secs(10)).expect("an error line");
    assert!(l.starts_with("info string error: 'usi' is USI"), "{l}");
    assert_eq!(s.close(), 0);
}

#[test]
fn usi_search_returns_a_legal_move_with_info() {
    let mut s = usi();
    s.send("position startpos moves 7g7f 3c3d");
    s.send("go depth 2");
    let lines = s.bestmove();
    assert!(lines.iter().any(|l| l.starts_with("info depth 1 ")));
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    s.send(&format!("position startpos moves 7g7f 3c3d {best}"));
    assert!(
        errors(&s.sync()).is_empty(),
        "bestmove {best} must be legal"
    );
    assert_eq!(s.close(), 0);
}

#[test]
fn go_without_a_position_searches_the_start_position() {
    let mut s = uci();
    s.send("go depth 1");
    let best = s.bestmove().last().unwrap().clone();
    let mv = best.split_whitespace().nth(1).unwrap();
    s.send(&format!("position startpos moves {mv}"));
    assert!(errors(&s.sync()).is_empty(), "{best}");
}

#[test]
fn an_illegal_move_leaves_the_previous_position_and_names_the_move() {
    let mut s = usi();
    s.send("position startpos moves 7g7f");
    let before = position_text(&mut s);
    s.send("position startpos moves 2g2f 8c8d 2f2e 5a5a");
    let errs = s.sync();
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].contains("move 4 '5a5a'"), "{}", errs[0]);
    assert!(errs[0].ends_with(": position startpos moves 2g2f 8c8d 2f2e 5a5a"));
    assert_eq!(position_text(&mut s), before);

    let mut c = uci();
    c.send("position startpos moves e2e4 e7e5 e1e3");
    let errs = c.sync();
    assert_eq!(errs.len(), 1);
    assert!(errs[0].contains("move 3 'e1e3'"), "{}", errs[0]);
    assert!(position_text(&mut c).contains("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq"));
}

#[test]
fn uci_accepts_four_and_six_field_fens() {
    let mut s = uci();
    s.send("position fen 8/8/8/4k3/8/8/4K3/4R3 w - - moves e1a1");
    assert!(errors(&s.sync()).is_empty());
    assert!(position_text(&mut s).contains("8/8/8/4k3/8/8/4K3/R7 b - - 1 1"));
    s.send("position fen 8/8/8/4k3/8/8/4K3/4R3 b - - 12 40");
    assert!(errors(&s.sync()).is_empty());
    assert!(position_text(&mut s).contains(" b - - 12 40"));
    s.send("position fen 8/8/8/4k3/8/8/4K3/4R3 b -");
    assert_eq!(errors(&s.sync()).len(), 1);
}

#[test]
fn malformed_lines_get_exactly_one_error_each_and_change_nothing() {
    let mut s = usi();
    s.send("position startpos moves 7g7f");
    let before = position_text(&mut s);
    let bad = [
        "go ", // trailing space alone is fine: tested below as valid
        "go depth",
        "go depth -3",
        "go depth 99999999999999999999999",
        "go nodes -1",
        "go btime",
        "go wibble 3",
        "go mate",
        "go perft 0",
        "position",
        "position sfen",
        "position startpos 7g7f",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 1a1a",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1",
        "position sfen kkkkkkkkk/9/9/9/9/9/9/9/K8 b - 1",
        "setoption",
        "setoption name",
        "setoption name Nope value 1",
        "setoption name USI_Hash value 0",
        "setoption name USI_Hash value lots",
        "setoption name EnteringKingRule value CSARule99",
        "gameover",
        "gameover maybe",
        "isready now",
        "stop it",
        "将棋",
        "uci",
        "\u{0}\u{1}",
    ];
    for line in &bad[1..] {
        s.send(line);
        let out = s.sync();
        assert_eq!(errors(&out).len(), 1, "line {line:?} gave {out:?}");
        assert_eq!(out.len(), 1, "line {line:?} gave {out:?}");
    }
    assert_eq!(position_text(&mut s), before);
    // An empty move list is valid.
    s.send("position startpos moves");
    assert!(s.sync().is_empty());
}

#[test]
fn crlf_tabs_and_trailing_spaces_are_plain_whitespace() {
    let mut s = usi();
    s.send_raw(b"position\tstartpos  moves 7g7f \t\r\n");
    s.send_raw(b"go depth 1 \r\n");
    let lines = s.bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(position_text(&mut s).contains("PP1PPPPPP"));
    // Invalid UTF-8 is one error for that line, not the end of the session.
    s.send_raw(b"go \xff\xfe\n");
    assert_eq!(errors(&s.sync()).len(), 1);
}

#[test]
fn stop_ends_an_infinite_search_and_isready_is_answered_during_it() {
    let mut s = uci();
    s.send("position startpos");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    let lines = s.sync();
    assert!(t.elapsed() < Duration::from_secs(2));
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    s.send("stop");
    s.bestmove();
    // Exactly one bestmove per go.
    assert!(s.sync().iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn infinite_and_ponder_hold_bestmove_until_stop_or_ponderhit() {
    let mut s = usi();
    // A depth-1 search is over at once, but `infinite` forbids the bestmove before `stop`.
    s.send("go infinite depth 1");
    std::thread::sleep(Duration::from_millis(300));
    assert!(s.sync().iter().all(|l| !l.starts_with("bestmove")));
    s.send("stop");
    s.bestmove();

    s.send("position startpos moves 7g7f");
    s.send("go ponder depth 1 btime 1000 wtime 1000 byoyomi 100");
    std::thread::sleep(Duration::from_millis(300));
    assert!(s.sync().iter().all(|l| !l.starts_with("bestmove")));
    s.send("ponderhit");
    s.bestmove();
}

#[test]
fn a_second_go_while_searching_is_refused_unless_stop_was_sent() {
    let mut s = uci();
    s.send("go infinite");
    s.send("go depth 1");
    assert_eq!(errors(&s.sync()).len(), 1);
    s.send("stop");
    s.send("go depth 1");
    let lines = s.until("two bestmoves", |l| l.starts_with("bestmove"));
    assert!(lines.last().unwrap().starts_with("bestmove"));
    s.bestmove();
}

#[test]
fn no_legal_move_gives_resign_in_usi_and_0000_in_uci() {
    let mut s = usi();
    s.send("position sfen 4k4/4G4/4G4/9/9/9/9/9/4K4 w - 1");
    s.send("go byoyomi 100");
    assert_eq!(s.bestmove().last().unwrap(), "bestmove resign");
    s.send("go mate 500");
    assert_eq!(
        s.until("checkmate", |l| l.starts_with("checkmate"))
            .last()
            .unwrap(),
        "checkmate nomate"
    );

    let mut c = uci();
    c.send("position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    c.send("go wtime 1000 btime 1000");
    assert_eq!(c.bestmove().last().unwrap(), "bestmove 0000");
}

#[test]
fn usi_go_mate_finds_a_mate_in_one() {
    let mut s = usi();
    // Gote king 5a, sente gold 5c in front of it... a gold drop on 5b mates.
    s.send("position sfen 4k4/9/4G4/9/9/9/9/9/4K4 b G 1");
    s.send("go mate 5000");
    let l = s.until("checkmate", |l| l.starts_with("checkmate"));
    assert_eq!(l.last().unwrap(), "checkmate G*5b");
}

#[test]
fn usi_declares_an_entering_king_win_when_the_rule_allows_it() {
    let mut s = usi();
    let sfen = "RRBB1GGGG/4K4/SSSS5/9/9/9/9/9/4k4 b - 1";
    s.send(&format!("position sfen {sfen}"));
    s.send("go byoyomi 100");
    assert_eq!(s.bestmove().last().unwrap(), "bestmove win");
    s.send("setoption name EnteringKingRule value NoEnteringKing");
    s.send("go depth 1");
    let best = s.bestmove().last().unwrap().clone();
    assert_ne!(best, "bestmove win");
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut s = uci();
    s.send("go depth 2 searchmoves a2a3");
    assert!(s.bestmove().last().unwrap().starts_with("bestmove a2a3"));
    s.send("go depth 2 searchmoves a2a5");
    assert_eq!(errors(&s.sync()).len(), 1);
}

#[test]
fn perft_matches_the_reference_counts_in_both_dialects() {
    let mut s = usi();
    s.send("go perft 3");
    let lines = s.until("perft", |l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 25470");
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 30 + 1);
    let mut c = uci();
    c.send("perft 3");
    let lines = c.until("perft", |l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8902");
}

#[test]
fn console_extras_d_eval_bench_help() {
    let mut s = usi();
    s.send("position startpos moves 7g7f 3c3d 8h2b+");
    s.send("d");
    let d = s.until("d", |l| l.starts_with("Legal moves"));
    assert!(d.iter().any(|l| l.contains("+B")), "{d:?}");
    assert!(d.iter().any(|l| l.starts_with("Key: ")));
    s.send("eval");
    let e = s.until("eval", |l| l.trim_start().starts_with("total"));
    // Gote to move, a bishop and a promotion down: the breakdown names terms, the total is negative.
    assert!(e.len() >= 3, "{e:?}");
    let total: i32 = e
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(total < -500, "{e:?}");
    s.send("bench 2");
    let b = s.until("bench", |l| l.starts_with("Nodes/second"));
    assert!(b[b.len() - 2].starts_with("Nodes searched: "));
    s.send("help");
    assert!(errors(&s.sync()).is_empty());
}

#[test]
fn eval_file_is_stored_and_a_file_that_cannot_load_is_one_error_at_isready() {
    let mut s = usi();
    s.send("setoption name EvalFile value /nonexistent/weights.bin");
    let out = s.sync();
    assert_eq!(errors(&out).len(), 1, "{out:?}");
    assert!(out[0].contains("/nonexistent/weights.bin"));
    // Reported once, not at every isready.
    assert!(s.sync().is_empty());
    s.send("go depth 1");
    s.bestmove();
}

#[test]
fn gameover_stops_a_search_without_a_late_bestmove_and_the_game_goes_on() {
    let mut s = usi();
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    s.send("gameover lose");
    let out = s.sync();
    assert!(out.iter().all(|l| !l.starts_with("bestmove")), "{out:?}");
    s.send("usinewgame");
    s.send("position startpos");
    s.send("go depth 1");
    s.bestmove();
}

#[test]
fn end_of_input_during_a_search_quits_cleanly() {
    let s = usi();
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(s.close(), 0);
}

#[test]
fn nothing_of_a_stopped_search_follows_its_bestmove() {
    let mut s = usi();
    s.send("isready");
    s.until("readyok", |l| l == "readyok");
    for i in 0..20 {
        s.send("go infinite");
        std::thread::sleep(Duration::from_millis(10 + 5 * i));
        s.send("stop");
        let lines = s.bestmove();
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("bestmove")).count(),
            1
        );
        // The search thread may still be winding down: none of its output may appear now.
        let after = s.sync();
        assert!(
            after
                .iter()
                .all(|l| !l.starts_with("info depth") && !l.starts_with("bestmove")),
            "{after:?}"
        );
    }
}

#[test]
fn eval_file_loads_at_isready_and_a_corrupt_one_keeps_the_current_evaluation() {
    let dir = std::env::temp_dir().join(format!("kishi-proto-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("chess-random.kw");
    let args: Vec<String> = ["weights", "make-random", "chess", good.to_str().unwrap()]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(kishi::cli::run(&args), 0);
    let bytes = std::fs::read(&good).unwrap();
    let bad = dir.join("chess-truncated.kw");
    std::fs::write(&bad, &bytes[..bytes.len() / 2]).unwrap();

    let mut s = uci();
    s.send(&format!("setoption name EvalFile value {}", good.display()));
    // Loaded at isready, with one line saying so.
    let out = s.sync();
    assert!(errors(&out).is_empty(), "{out:?}");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].contains("loaded"), "{out:?}");
    s.send("eval");
    let e = s.until("eval", |l| l.trim_start().starts_with("total"));
    assert!(e[0].ends_with(good.to_str().unwrap()), "{e:?}");

    s.send(&format!("setoption name EvalFile value {}", bad.display()));
    let out = s.sync();
    assert_eq!(errors(&out).len(), 1, "{out:?}");
    s.send("eval");
    let e = s.until("eval", |l| l.trim_start().starts_with("total"));
    assert!(
        e[0].ends_with(good.to_str().unwrap()),
        "the good file stays in use: {e:?}"
    );
    s.send("go depth 2");
    s.bestmove();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The last `score cp` of a search's `info` lines.
fn last_cp(lines: &[String]) -> Option<i32> {
    lines.iter().rev().find_map(|l| {
        let rest = l.split(" score cp ").nth(1)?;
        rest.split_whitespace().next()?.parse().ok()
    })
}

#[test]
fn uci_contempt_is_what_a_draw_costs_the_engine_with_either_colour() {
    // King and bishop against king is a dead draw by the rules: every move scores the draw value.
    for (fen, contempt, want) in [
        ("8/8/8/4k3/8/8/8/KB6 b - - 0 1", 0, 0),
        ("8/8/8/4k3/8/8/8/KB6 b - - 0 1", 37, -37),
        ("8/8/8/4k3/8/8/8/KB6 w - - 0 1", 37, -37),
        ("8/8/8/4k3/8/8/8/KB6 w - - 0 1", -25, 25),
    ] {
        let mut s = uci();
        s.send(&format!("setoption name Contempt value {contempt}"));
        s.send(&format!("position fen {fen}"));
        s.send("go depth 4");
        let lines = s.bestmove();
        assert!(errors(&lines).is_empty(), "{lines:?}");
        assert_eq!(
            last_cp(&lines),
            Some(want),
            "{fen} contempt {contempt}: {lines:?}"
        );
        assert_eq!(s.close(), 0);
    }
    let mut s = uci();
    s.send("setoption name Contempt value 1001");
    assert!(
        !errors(&s.sync()).is_empty(),
        "a contempt out of range is refused"
    );
    assert_eq!(s.close(), 0);
}
