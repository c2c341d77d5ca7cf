//! Fuzzing the real protocol loop: 100,000 generated lines per dialect (random tokens, truncated
//! commands, huge and negative numbers, trailing spaces and tabs, CRLF, non-ASCII, illegal and
//! malformed moves, positions with too many pieces, and the lines of DESIGN §3 that break
//! `vampirc-uci`), interleaved with valid commands and short searches.
//!
//! Every line is labelled by construction — valid, or invalid — and followed by `isready`, so the
//! output it caused is exactly the lines before `readyok` (searches excepted, which are waited for).
//! Checked: no panic (the loop thread would die and `readyok` never come), an invalid line gives
//! exactly one `info string error:` line, a valid one none, a rejected `position` leaves the
//! position as it was (compared with `d` against the test's own model), every `bestmove` is legal,
//! and at the end the engine still answers `isready`.

mod protocol_fuzz_words;
mod protocol_support;

use kishi::chess::ChessPos;
use kishi::game::{Game, GameHistory};
use kishi::shogi::ShogiPos;
use protocol_fuzz_words::{Dialect, BAD_NUMBERS, GARBAGE, UCI, USI};
use protocol_support::{errors, Session};

const LINES_PER_DIALECT: usize = 100_000;

/// splitmix64: deterministic, so a failure replays from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
    /// A word from a list (a copy, so callers need no dereference).
    fn word(&mut self, xs: &[&'static str]) -> &'static str {
        xs[self.below(xs.len())]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Label {
    Valid,
    Invalid,
}

/// What kind of line was generated, for the follow-up it needs.
enum Gen {
    Line(String, Label),
    /// A valid `position` line and the position text it sets.
    Position(String, String),
    /// A search: wait for its answer; `needs_stop` for searches that do not end by themselves.
    Go(String, bool),
}

/// A random legal game from the start (or a random point of one): start text, moves, final text.
fn random_game<G: Game>(rng: &mut Rng) -> (Option<String>, Vec<String>, G) {
    let mut pos = G::startpos();
    let mut start_text = None;
    let mut moves = Vec::new();
    let plies = rng.below(50);
    let from_text_at = if rng.chance(40) {
        rng.below(plies + 1)
    } else {
        usize::MAX
    };
    let mut list = Vec::new();
    for ply in 0..plies {
        if ply == from_text_at {
            start_text = Some(pos.to_text());
            moves.clear();
        }
        list.clear();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let mv = *rng.pick(&list);
        moves.push(pos.move_text(mv));
        pos = pos.play(mv);
    }
    (start_text, moves, pos)
}

fn position_line(d: &Dialect, start: &Option<String>, moves: &[String]) -> String {
    let mut s = match start {
        None => "position startpos".to_string(),
        Some(t) => format!("position {} {}", d.kw, t),
    };
    if !moves.is_empty() || start.is_none() {
        s.push_str(" moves");
        for m in moves {
            s.push(' ');
            s.push_str(m);
        }
    }
    s
}

fn validity<G: Game>(start: &Option<String>, moves: &[String]) -> Option<G> {
    let pos = match start {
        None => G::startpos(),
        Some(t) => G::from_text(t).ok()?,
    };
    // Checked against the generated move list, as the engine does (haitaka's `is_legal` accepts a
    // drop of a piece not in hand).
    let mut h = GameHistory::new(pos);
    let mut list = Vec::new();
    for text in moves {
        let mv = h.current().parse_move(text).ok()?;
        list.clear();
        h.current().legal_moves(&mut list);
        if !list.contains(&mv) {
            return None;
        }
        h.push(mv);
    }
    Some(h.current().clone())
}

/// Whitespace noise that must not change a line's meaning: tabs, repeated and trailing blanks, CRLF.
fn decorate(rng: &mut Rng, line: &str) -> String {
    let mut s = String::new();
    if rng.chance(10) {
        s.push_str(if rng.chance(50) { " " } else { "\t" });
    }
    for (i, w) in line.split(' ').enumerate() {
        if i > 0 {
            s.push_str(rng.word(&[" ", " ", " ", "\t", "  ", " \t "]));
        }
        s.push_str(w);
    }
    if rng.chance(15) {
        s.push_str(rng.word(&[" ", "\t", "  \t"]));
    }
    if rng.chance(20) {
        s.push('\r');
    }
    s
}

fn generate<G: Game>(d: &Dialect, rng: &mut Rng, current: &G) -> Gen {
    let roll = rng.below(100);
    match roll {
        // Valid positions from random games.
        0..=14 => {
            let (start, moves, pos) = random_game::<G>(rng);
            Gen::Position(position_line(d, &start, &moves), pos.to_text())
        }
        // Positions with one illegal or malformed move.
        15..=24 => {
            let (start, mut moves, _) = random_game::<G>(rng);
            let at = rng.below(moves.len() + 1);
            let bad = if rng.chance(50) {
                rng.pick(d.malformed_moves).to_string()
            } else {
                // A well-formed move text taken from another random game: usually illegal here.
                let (_, other, _) = random_game::<G>(rng);
                other.first().cloned().unwrap_or_else(|| "0000".into())
            };
            moves.insert(at, bad);
            let line = position_line(d, &start, &moves);
            match validity::<G>(&start, &moves) {
                Some(pos) => Gen::Position(line, pos.to_text()),
                None => Gen::Line(line, Label::Invalid),
            }
        }
        // Positions with too many pieces or a malformed text.
        25..=29 => {
            let p = rng.pick(d.bad_positions);
            Gen::Line(format!("position {} {} moves", d.kw, p), Label::Invalid)
        }
        // Truncated position lines: the model decides which prefixes are still valid.
        30..=34 => {
            let (start, moves, _) = random_game::<G>(rng);
            let full = position_line(d, &start, &moves);
            let cut = rng.below(full.len() + 1);
            let cut = (0..=cut)
                .rev()
                .find(|&c| full.is_char_boundary(c))
                .unwrap_or(0);
            let line = full[..cut].to_string();
            match truncated_position::<G>(d, &line) {
                Ok(Some(pos)) => Gen::Position(line, pos.to_text()),
                Ok(None) => Gen::Line(line, Label::Valid),
                Err(()) => Gen::Line(line, Label::Invalid),
            }
        }
        // Random tokens (first word never a command).
        35..=44 => {
            let n = 1 + rng.below(8);
            let mut words = vec![rng.pick(GARBAGE).to_string()];
            for _ in 1..n {
                words.push(random_word(d, rng));
            }
            Gen::Line(words.join(" "), Label::Invalid)
        }
        // A command followed by random words and ending in garbage: always invalid.
        45..=54 => {
            let cmd = *rng.pick(d.commands);
            let mut words = vec![cmd.to_string()];
            if cmd == "setoption" && rng.chance(70) {
                words.push("name".into());
                words.push(option_name(d, rng).into());
                if rng.chance(70) {
                    words.push("value".into());
                }
            }
            for _ in 0..rng.below(5) {
                words.push(random_word(d, rng));
            }
            words.push(rng.pick(GARBAGE).to_string());
            Gen::Line(words.join(" "), Label::Invalid)
        }
        // Huge, negative and malformed numbers where only numbers go.
        55..=59 => {
            let field = *rng.pick(&["depth", "nodes", "perft", "movetime"]);
            let n = rng.pick(BAD_NUMBERS);
            let line = if rng.chance(50) {
                format!("go {field} {n}")
            } else {
                format!("setoption name MultiPV value {n}")
            };
            Gen::Line(line, Label::Invalid)
        }
        60..=67 => Gen::Line(rng.pick(d.invalid).to_string(), Label::Invalid),
        68..=75 => Gen::Line(rng.pick(d.valid_options).to_string(), Label::Valid),
        76..=84 => Gen::Line(rng.pick(d.quiet_valid).to_string(), Label::Valid),
        // Very long and non-ASCII lines.
        85..=86 => {
            let w = rng.pick(GARBAGE);
            Gen::Line(w.repeat(1 + rng.below(3000)), Label::Invalid)
        }
        87..=88 => {
            let mut moves = String::from("position startpos moves");
            for _ in 0..rng.below(2000) {
                moves.push(' ');
                moves.push_str(rng.word(d.malformed_moves));
            }
            let label = if moves.len() == "position startpos moves".len() {
                Label::Valid
            } else {
                Label::Invalid
            };
            if label == Label::Valid {
                Gen::Position(moves, G::startpos().to_text())
            } else {
                Gen::Line(moves, label)
            }
        }
        // Searches, short ones far more often than ones that need stop.
        89..=94 => Gen::Go(rng.pick(d.bounded_go).to_string(), false),
        // UCI searchmoves from the current position's legal moves.
        95 if !d.usi => {
            let mut list = Vec::new();
            current.legal_moves(&mut list);
            if list.is_empty() {
                return Gen::Go("go depth 1".into(), false);
            }
            let mut line = String::from("go depth 2 searchmoves");
            for _ in 0..1 + rng.below(3) {
                line.push(' ');
                line.push_str(&current.move_text(*rng.pick(&list)));
            }
            Gen::Go(line, false)
        }
        _ => Gen::Go(rng.pick(d.unbounded_go).to_string(), true),
    }
}

fn option_name(d: &Dialect, rng: &mut Rng) -> &'static str {
    if d.usi {
        rng.word(&[
            "USI_Hash",
            "MultiPV",
            "Threads",
            "USI_Ponder",
            "EnteringKingRule",
            "Bogus",
        ])
    } else {
        rng.word(&["Hash", "MultiPV", "Threads", "Ponder", "Move", "Bogus"])
    }
}

fn random_word(d: &Dialect, rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => rng.pick(d.commands).to_string(),
        1 => rng
            .pick(&[
                "depth",
                "nodes",
                "movetime",
                "btime",
                "wtime",
                "byoyomi",
                "infinite",
                "ponder",
                "moves",
                "startpos",
                "name",
                "value",
                "searchmoves",
                "mate",
            ])
            .to_string(),
        2 => rng
            .pick(&["0", "1", "-1", "3", "100", "300", "-99999", "4294967296"])
            .to_string(),
        3 => rng.pick(d.malformed_moves).to_string(),
        4 => rng.pick(BAD_NUMBERS).to_string(),
        _ => rng.pick(GARBAGE).to_string(),
    }
}

/// What a prefix of a valid `position` line does: `Ok(Some(pos))` sets `pos`, `Ok(None)` is a
/// blank line (ignored), `Err` must be rejected.
fn truncated_position<G: Game>(d: &Dialect, line: &str) -> Result<Option<G>, ()> {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let owned = |ws: &[&str]| ws.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let pos = match words.as_slice() {
        [] => return Ok(None),
        ["position", "startpos"] => Some(G::startpos()),
        ["position", "startpos", "moves", rest @ ..] => validity::<G>(&None, &owned(rest)),
        ["position", kw, rest @ ..] if *kw == d.kw => {
            let i = rest
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(rest.len());
            let text = rest[..i].join(" ");
            let moves = owned(rest.get(i + 1..).unwrap_or(&[]));
            if text.is_empty() {
                None
            } else {
                validity::<G>(&Some(text), &moves)
            }
        }
        _ => None,
    };
    pos.map(Some).ok_or(())
}

fn fuzz<G: Game>(d: &Dialect, seed: u64) {
    let mut rng = Rng(seed);
    let mut s = Session::start();
    s.send(d.hello);
    s.until(d.ok, |l| l == d.ok);
    if d.usi {
        // Clock searches would otherwise think at least the default 100 ms each; thousands of
        // them would make the test slow without testing more.
        s.send("setoption name MinimumThinkingTime value 0");
    }
    // The test's model of the engine's position.
    let mut expected = G::startpos();
    // A rejected `position` changes nothing, except that USI `go mate` then refuses to answer for
    // the earlier position (an error line and `checkmate timeout`) until a position is accepted.
    let mut position_rejected = false;
    let mut counts = [0usize; 4]; // valid, invalid, searches, position checks
    let legal_bestmove = |pos: &G, line: &str| -> bool {
        let mv = line.split_whitespace().nth(1).unwrap_or("");
        let mut list = Vec::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            return mv == if d.usi { "resign" } else { "0000" };
        }
        mv == "resign" || (d.usi && mv == "win") || pos.parse_move(mv).is_ok()
    };
    for i in 0..LINES_PER_DIALECT {
        let gen = generate::<G>(d, &mut rng, &expected);
        match gen {
            Gen::Line(line, label) => {
                let sent = decorate(&mut rng, &line);
                s.send(&sent);
                let out = s.sync();
                let errs = errors(&out).len();
                match label {
                    Label::Valid => {
                        counts[0] += 1;
                        assert_eq!(errs, 0, "line {i} {sent:?} was rejected: {out:?}")
                    }
                    Label::Invalid => {
                        counts[1] += 1;
                        if line.split_whitespace().next() == Some("position") {
                            position_rejected = true;
                        }
                        assert_eq!(errs, 1, "line {i} {sent:?} gave {out:?}");
                        assert_eq!(out.len(), 1, "line {i} {sent:?} gave {out:?}");
                    }
                }
            }
            Gen::Position(line, text) => {
                counts[0] += 1;
                let sent = decorate(&mut rng, &line);
                s.send(&sent);
                let out = s.sync();
                assert!(out.is_empty(), "line {i} {sent:?} gave {out:?}");
                expected = G::from_text(&text).expect("the model's position is valid");
                position_rejected = false;
            }
            Gen::Go(line, needs_stop) => {
                counts[2] += 1;
                let sent = decorate(&mut rng, &line);
                s.send(&sent);
                let mate = d.usi && line.starts_with("go mate");
                let is_answer = |l: &str| {
                    if mate {
                        l.starts_with("checkmate")
                    } else {
                        l.starts_with("bestmove")
                    }
                };
                let mut early = Vec::new();
                if needs_stop {
                    early = s.sync();
                    // (checked with the answer below when `go mate` refuses a rejected position)
                    assert!(
                        (mate && position_rejected) || errors(&early).is_empty(),
                        "line {i} {sent:?}: {early:?}"
                    );
                    // A search that is not held (no ponder/infinite) may have ended already, e.g.
                    // with no legal move; then its answer is among these lines.
                    if !early.iter().any(|l| is_answer(l)) {
                        s.send(if line.contains("ponder") && rng.chance(50) {
                            "ponderhit"
                        } else {
                            "stop"
                        });
                        if line.contains("ponder") {
                            s.send("stop");
                        }
                    }
                }
                let out = if early.iter().any(|l| is_answer(l)) {
                    early
                } else {
                    s.until("the answer", is_answer)
                };
                let last = out.last().expect("an answer");
                if mate && position_rejected {
                    assert_eq!(errors(&out).len(), 1, "line {i} {sent:?}: {out:?}");
                    assert_eq!(last, "checkmate timeout", "line {i} {sent:?}: {out:?}");
                } else {
                    assert!(errors(&out).is_empty(), "line {i} {sent:?}: {out:?}");
                }
                if !mate {
                    assert!(legal_bestmove(&expected, last), "line {i} {sent:?}: {last}");
                }
                // Nothing may follow the answer (one bestmove per go).
                let after = s.sync();
                assert!(
                    after
                        .iter()
                        .all(|l| !l.starts_with("bestmove") && !l.starts_with("checkmate")),
                    "line {i} {sent:?}: a second answer {after:?}"
                );
            }
        }
        if i % 97 == 0 {
            counts[3] += 1;
            s.send("d");
            let lines = s.until("d", |l| l.starts_with("Legal moves"));
            let want = format!("Position: {} {}", d.kw, expected.to_text());
            assert!(
                lines.contains(&want),
                "line {i}: expected {want}, engine has {lines:?}"
            );
        }
    }
    // Still alive and answering.
    assert!(s.sync().is_empty());
    s.send("quit");
    assert_eq!(s.join(), 0);
    eprintln!(
        "{}: {} valid, {} invalid, {} searches, {} position checks",
        d.hello, counts[0], counts[1], counts[2], counts[3]
    );
    assert!(counts[1] > LINES_PER_DIALECT / 3 && counts[2] > 1000);
}

#[test]
fn fuzz_usi() {
    fuzz::<ShogiPos>(&USI, 0x5EED_0001);
}

#[test]
fn fuzz_uci() {
    fuzz::<ChessPos>(&UCI, 0x5EED_0002);
}
