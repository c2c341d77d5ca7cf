//! USI `go mate` through the real binary (spawned, commands piped): every problem of the shared
//! tsume set answered with an exact-length `checkmate` line that replays as a mate (one session,
//! the solver's table kept between problems and resized halfway); proven no-mate
//! positions (including a pawn-drop "mate") answered `checkmate nomate`; `stop` during
//! `go mate infinite` on a 611-ply Zukou problem answered `checkmate timeout` at once; positions
//! that are not mate problems answered with `info string error` and never `nomate`; a tsume
//! without the attacker's king accepted for `go mate` only; UCI `go mate N` answered from the
//! solver's proof when checks alone mate, by the search otherwise.

use kishi::game::Game;
use kishi::mate::verify_mate_line;
use kishi::shogi::mate::parse_problem;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Generous: the machine running the tests may be loaded.
const WAIT: Duration = Duration::from_secs(60);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    transcript: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        Self::start_with("usi", "usiok")
    }

    fn start_with(hello: &str, ok: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kishi"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn kishi");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut e = Engine {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        };
        e.send(hello);
        e.until(|l| l == ok, WAIT);
        e
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to kishi");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first that matches; panics after `wait`.
    fn until(&mut self, pred: impl Fn(&str) -> bool, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.transcript.push(l.clone());
                    got.push(l.clone());
                    if pred(&l) {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("timed out; got {got:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("kishi exited; got {got:?}"),
            }
        }
    }

    /// Sends `go mate …` and returns the lines up to the `checkmate` answer.
    fn go_mate(&mut self, arg: &str) -> Vec<String> {
        self.send(&format!("go mate {arg}"));
        self.until(|l| l.starts_with("checkmate"), WAIT)
    }

    fn quit(mut self) {
        self.send("quit");
        let _ = self.child.wait();
    }
}

fn answer(lines: &[String]) -> &str {
    lines.last().map(String::as_str).unwrap_or("")
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect()
}

/// Replays a `checkmate m1 m2 …` answer from `sfen`; returns its length in plies.
fn replay(sfen: &str, line: &str) -> usize {
    let pos = parse_problem(sfen).expect("a valid problem");
    let words: Vec<&str> = line
        .strip_prefix("checkmate ")
        .unwrap_or_else(|| panic!("not a checkmate line: {line}"))
        .split_whitespace()
        .collect();
    let mut cur = pos.clone();
    let mut moves = Vec::new();
    for w in &words {
        let mv = cur
            .parse_move(w)
            .unwrap_or_else(|e| panic!("{w} in {line}: {e}"));
        moves.push(mv);
        cur = cur.play(mv);
    }
    verify_mate_line(&pos, &moves).unwrap_or_else(|e| panic!("{line} from {sfen}: {e}"))
}

#[test]
fn every_shared_tsume_is_answered_with_an_exact_mate_line() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/suites/tsume_miniosl.tsv");
    let text = std::fs::read_to_string(&path).expect("the shared tsume suite");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (id_c, sfen_c, plies_c) = (col("id"), col("sfen"), col("mate_plies"));
    let mut e = Engine::start();
    let mut count = 0;
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let plies: usize = f[plies_c].parse().expect("mate_plies");
        // The solver's table is kept between `go mate`s; a new size halfway replaces it.
        if count == 15 {
            e.send("setoption name MateHash value 32");
        }
        e.send(&format!("position sfen {}", f[sfen_c]));
        let out = e.go_mate("20000");
        assert!(errors(&out).is_empty(), "{}: {out:?}", f[id_c]);
        assert_eq!(
            replay(f[sfen_c], answer(&out)),
            plies,
            "{}: {out:?}",
            f[id_c]
        );
        // The final info line carries the statistics a GUI shows.
        let info = &out[out.len() - 2];
        for field in ["time ", "nodes ", "nps ", "hashfull ", "pv "] {
            assert!(info.contains(field), "{}: {info}", f[id_c]);
        }
        count += 1;
    }
    assert!(count >= 30, "only {count} problems read");
    e.quit();
}

/// The `MateFutileNextToKing` option: off, a drop next to the king is a defence (3 plies here);
/// on, the Zukou convention counts it futile when the checker takes it with mate (1 ply).
#[test]
fn mate_futile_next_to_king_option_picks_the_convention() {
    let sfen = "8k/RP4S2/7G1/9/9/9/9/9/9 b - 1";
    let mut e = Engine::start();
    e.send(&format!("position sfen {sfen}"));
    assert_eq!(replay(sfen, answer(&e.go_mate("20000"))), 3);
    e.send("setoption name MateFutileNextToKing value true");
    e.send(&format!("position sfen {sfen}"));
    let out = e.go_mate("20000");
    assert!(errors(&out).is_empty(), "{out:?}");
    assert!(answer(&out).starts_with("checkmate 9b9a"), "{out:?}");
    assert_eq!(answer(&out).split_whitespace().count(), 2, "{out:?}");
    e.quit();
}

/// `go mate` uses the engine's `Threads`: with two, Zukou #061 (29 plies) is still answered with
/// its exact shortest mate, a proven no-mate is still `nomate`, and stop still ends an infinite
/// solve with `timeout`.
#[test]
fn go_mate_on_two_threads() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 2");
    e.send("setoption name MateHash value 256");
    let sfen = "9/R8/9/B1+P6/n1Bs5/n1s6/9/+pkP6/3G+R4 b 2S2N3g4l15p 1";
    e.send(&format!("position sfen {sfen}"));
    let out = e.go_mate("60000");
    assert!(errors(&out).is_empty(), "{out:?}");
    assert_eq!(replay(sfen, answer(&out)), 29, "{out:?}");
    e.send("position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1");
    assert_eq!(answer(&e.go_mate("20000")), "checkmate nomate");
    stop_infinite_mate(
        &mut e,
        "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N6 b SP2gn2l11p 1",
    );
    e.quit();
}

#[test]
fn proven_no_mates_are_answered_nomate() {
    let mut e = Engine::start();
    // A lone gold in hand against a king in the open (both kings: a game position).
    e.send("position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1");
    assert_eq!(answer(&e.go_mate("20000")), "checkmate nomate");
    // Only P*1b would mate, and a pawn-drop mate is illegal.
    e.send("position sfen 7nk/9/7S1/9/9/9/9/9/4K4 b P 1");
    assert_eq!(answer(&e.go_mate("infinite")), "checkmate nomate");
    // The attacker has no legal move at all.
    e.send("position sfen 4k4/4G4/4G4/9/9/9/9/9/4K4 w - 1");
    assert_eq!(answer(&e.go_mate("1000")), "checkmate nomate");
    e.quit();
}

/// `go mate infinite` on `sfen` (far beyond a second's solving), then `stop` once the solver
/// reports progress: the answer must be `checkmate timeout`. The search would otherwise run
/// forever: an answer at all (within the hang guard WAIT) is `stop` working. How fast it
/// answers is measured elsewhere, not asserted here.
fn stop_infinite_mate(e: &mut Engine, sfen: &str) {
    e.send(&format!("position sfen {sfen}"));
    e.send("go mate infinite");
    // Wait for a progress line: the solver is running (and reporting) before the stop.
    let progress = e.until(|l| l.starts_with("info time "), WAIT);
    assert!(errors(&progress).is_empty(), "{progress:?}");
    e.send("stop");
    let out = e.until(|l| l.starts_with("checkmate"), WAIT);
    assert_eq!(answer(&out), "checkmate timeout", "{out:?}");
}

#[test]
fn stop_ends_go_mate_infinite_at_once_with_timeout() {
    let zukou = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/tsume/zukou.tsv"),
    )
    .expect("data/tsume/zukou.tsv");
    // #100, 611 plies: far beyond what the solver proves in a second.
    let sfen = zukou
        .lines()
        .find_map(|l| l.strip_prefix("100\t"))
        .and_then(|rest| rest.split('\t').next())
        .expect("problem 100")
        .to_string();
    let mut e = Engine::start();
    stop_infinite_mate(&mut e, &sfen);
    // The engine goes on: the next problem is solved.
    e.send("position sfen 7G1/8k/7gp/9/9/9/9/7+P+P/7+PK b Rr2b2g3s4n4l14p 1");
    assert_eq!(answer(&e.go_mate("20000")), "checkmate R*1a");
    e.quit();
}

#[test]
fn positions_that_are_not_mate_problems_are_errors_never_nomate() {
    let mut e = Engine::start();
    let cases = [
        // No defender king.
        "position sfen 9/9/9/9/9/9/9/9/4K4 b G 1",
        // The side not to move (gote) is in check.
        "position sfen 4k4/4R4/9/9/9/9/9/9/4K4 b - 1",
        // Not an SFEN.
        "position sfen this is not a position",
        // A tsume without sente's king must have sente to move.
        "position sfen 4k4/9/9/9/9/9/9/9/9 w G 1",
    ];
    for case in cases {
        e.send(case);
        let out = e.go_mate("1000");
        assert!(!errors(&out).is_empty(), "{case}: {out:?}");
        assert_eq!(answer(&out), "checkmate timeout", "{case}: {out:?}");
    }
    // The engine keeps working, and a valid position clears the error.
    e.send("position sfen 4k4/9/4G4/9/9/9/9/9/4K4 b G 1");
    let out = e.go_mate("20000");
    assert!(errors(&out).is_empty(), "{out:?}");
    assert_eq!(answer(&out), "checkmate G*5b");
    e.quit();
}

#[test]
fn a_tsume_without_the_attackers_king_is_for_go_mate_only() {
    let mut e = Engine::start();
    // The pawn on 1c guards 1b: G*1b mates. No sente king (the tsume convention).
    let sfen = "8k/9/8P/9/9/9/9/9/9 b G 1";
    e.send(&format!("position sfen {sfen}"));
    let out = e.go_mate("20000");
    assert!(errors(&out).is_empty(), "{out:?}");
    assert_eq!(replay(sfen, answer(&out)), 1);
    assert_eq!(answer(&out), "checkmate G*1b");
    // The play search and the evaluation need both kings: a clear error, and the engine goes on.
    e.send("go depth 3");
    e.send("isready");
    let out = e.until(|l| l == "readyok", WAIT);
    assert!(!errors(&out).is_empty(), "{out:?}");
    assert!(!out.iter().any(|l| l.starts_with("bestmove")), "{out:?}");
    e.send("position startpos");
    e.send("go depth 3");
    e.until(|l| l.starts_with("bestmove"), WAIT);
    e.quit();
}

#[test]
fn uci_go_mate_uses_the_solver_for_checks_only_mates_and_the_search_otherwise() {
    let mut e = Engine::start_with("uci", "uciok");
    // Ra8 mates at once: proven by the solver.
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    e.send("go mate 1");
    let out = e.until(|l| l.starts_with("bestmove"), WAIT);
    assert!(
        out.iter().any(|l| l.contains("proven by the df-pn solver")),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|l| l.contains(" score mate 1 ") && l.ends_with(" pv a1a8")),
        "{out:?}"
    );
    assert_eq!(answer(&out), "bestmove a1a8");
    // Mate in 2 starting with a quiet move (Rb7, then Ra8): not a checks-only mate, so the
    // alpha-beta search finds it.
    e.send("position fen 7k/8/8/8/8/8/R7/1R4K1 w - - 0 1");
    e.send("go mate 2");
    let out = e.until(|l| l.starts_with("bestmove"), WAIT);
    assert!(
        !out.iter().any(|l| l.contains("proven by the df-pn solver")),
        "{out:?}"
    );
    assert!(out.iter().any(|l| l.contains(" score mate 2 ")), "{out:?}");
    e.quit();
}

/// `RootMateNodes`: a df-pn proof on the root before the play search. Zukou #002 with the
/// attacker's king added (a 21-ply tsume the search at a short time does not see): with the
/// option the proven mate is played at once, its line as the PV with `score mate 21`; without it
/// the search answers and nothing is claimed proven.
#[test]
fn root_mate_nodes_plays_a_proven_mate_before_searching() {
    let sfen = "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/K6G1/7+R+r b N2P2g4s2n3l13p 1";
    let mut e = Engine::start();
    e.send("setoption name RootMateNodes value 50000");
    e.send(&format!("position sfen {sfen}"));
    e.send("go btime 0 wtime 0 byoyomi 200");
    let out = e.until(|l| l.starts_with("bestmove"), WAIT);
    assert!(
        out.iter()
            .any(|l| l == "info string mate proven by the df-pn solver (checks only)"),
        "{out:?}"
    );
    let pv_line = out
        .iter()
        .find(|l| l.contains(" score mate "))
        .expect("a mate score");
    assert!(pv_line.contains(" score mate 21 "), "{pv_line}");
    let pv = pv_line.split(" pv ").nth(1).expect("a pv");
    assert_eq!(replay(sfen, &format!("checkmate {pv}")), 21, "{pv_line}");
    let first = pv.split_whitespace().next().expect("a move");
    assert!(
        answer(&out).starts_with(&format!("bestmove {first}")),
        "{out:?}"
    );

    e.send("setoption name RootMateNodes value 0");
    e.send("usinewgame");
    e.send(&format!("position sfen {sfen}"));
    e.send("go btime 0 wtime 0 byoyomi 200");
    let out = e.until(|l| l.starts_with("bestmove"), WAIT);
    assert!(
        !out.iter().any(|l| l.contains("df-pn")),
        "the option is off: {out:?}"
    );
    e.quit();
}
