//! The Shogi Zukou set (`data/tsume/zukou.tsv`, see `data/tsume/README.md`): every problem reads
//! as a mate problem, and every main line replays legally with a check on every attacker move and
//! the stated length; lines marked verified end in mate; every line, the three the source marks
//! unverified included, is a mate line by `verify_mate_line` under the source's convention
//! (`FutileRule::NextToKing`: those three end where only drops next to the king that the checker
//! takes with mate are left), and by default (the miniosl suite's convention) all but those three. (Solving them is `kishi mate data/tsume/zukou.tsv`:
//! too slow for the default test run.)

use kishi::game::Game;
use kishi::mate::{verify_mate_line, verify_mate_line_with, FutileRule, MateGame};
use kishi::shogi::mate::parse_problem;
use std::path::PathBuf;

#[test]
fn zukou_main_lines_replay() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/tsume/zukou.tsv");
    let text = std::fs::read_to_string(&path).expect("data/tsume/zukou.tsv");
    let mut lines = text.lines();
    let header = lines.next().expect("a header");
    assert_eq!(
        header,
        "id\tsfen\tmate_plies\tsolution_verified\tsolution_usi"
    );
    let mut failures = Vec::new();
    let mut count = 0;
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 5, "five columns: {line}");
        let id = f[0];
        count += 1;
        let pos = match parse_problem(f[1]) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{id}: {e}"));
                continue;
            }
        };
        let plies: usize = f[2].parse().expect("mate_plies is a number");
        let moves: Vec<&str> = f[4].split_whitespace().collect();
        if moves.len() != plies {
            failures.push(format!("{id}: {} moves, stated {plies}", moves.len()));
            continue;
        }
        let mut cur = pos.clone();
        let mut played = Vec::with_capacity(moves.len());
        let mut bad = None;
        for (i, text) in moves.iter().enumerate() {
            match cur.parse_move(text) {
                Ok(mv) => {
                    if i % 2 == 0 && !cur.gives_check(mv) {
                        bad = Some(format!("ply {}: {text} gives no check", i + 1));
                        break;
                    }
                    cur = cur.play(mv);
                    played.push(mv);
                }
                Err(e) => {
                    bad = Some(format!("ply {}: {e}", i + 1));
                    break;
                }
            }
        }
        if let Some(b) = bad {
            failures.push(format!("{id}: {b}"));
            continue;
        }
        let mated = cur.in_check() && !cur.has_legal_move();
        match (f[3], mated) {
            ("true", false) => failures.push(format!("{id}: the main line does not end in mate")),
            // Unverified lines end where the transcription says; the defender may still drop a
            // piece there (a futile interposition by tsume convention).
            ("true", true) | ("false", _) => {}
            (v, _) => failures.push(format!("{id}: solution_verified '{v}'")),
        }
        // The solver's own line check: no futile drop played, and the end is mate or has only
        // futile drops left.
        match verify_mate_line_with(&pos, &played, FutileRule::NextToKing) {
            Ok(n) if n == plies => {}
            r => failures.push(format!("{id}: verify_mate_line (next to king): {r:?}")),
        }
        match (verify_mate_line(&pos, &played), f[3]) {
            (Ok(n), "true") if n == plies => {}
            (Err(e), "false") if e.contains("not mate") => {}
            (r, _) => failures.push(format!("{id}: verify_mate_line (default): {r:?}")),
        }
    }
    assert_eq!(count, 100, "the Zukou has 100 problems");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
