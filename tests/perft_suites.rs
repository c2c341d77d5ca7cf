//! Exact perft counts against the suites in `../shared/data/suites` and the positions named in the
//! rules issue. Depths are capped by a node budget per entry so the whole file runs in about two
//! minutes in release mode on the 2-core machine (chess ~300M leaves/s, shogi ~80M leaves/s).

use kishi::chess::ChessPos;
use kishi::game::{perft, Game};
use kishi::shogi::ShogiPos;
use std::path::PathBuf;

fn suite(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/suites")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// A suite line: position text, (depth, nodes) pairs, id.
type PerftLine = (String, Vec<(u32, u64)>, String);

/// Parses `<position> ;D1 n ;D2 n ... ;id "x"` lines into (position, [(depth, nodes)], id).
fn parse_epd(text: &str) -> Vec<PerftLine> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = line.split(';');
        let pos = parts.next().unwrap().trim().to_string();
        let mut depths = Vec::new();
        let mut id = String::new();
        for op in parts {
            let op = op.trim();
            if let Some(rest) = op.strip_prefix('D') {
                let mut it = rest.split_whitespace();
                let d: u32 = it.next().unwrap().parse().unwrap();
                let n: u64 = it.next().unwrap().parse().unwrap();
                depths.push((d, n));
            } else if let Some(rest) = op.strip_prefix("id") {
                id = rest.trim().trim_matches('"').to_string();
            }
        }
        out.push((pos, depths, id));
    }
    out
}

/// Checks every depth whose count is at most `budget` nodes.
fn check_suite<G: Game>(name: &str, budget: u64) -> usize {
    let mut checked = 0;
    for (text, depths, id) in parse_epd(&suite(name)) {
        let pos = G::from_text(&text).unwrap_or_else(|e| panic!("{id}: {e}"));
        for (d, n) in depths {
            if n <= budget {
                assert_eq!(perft(&pos, d), n, "{id} ({text}) depth {d}");
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn shogi_perft_suite() {
    // Includes start position D6 (547,581,517) and matsuri D4 (516,925,165).
    assert!(check_suite::<ShogiPos>("shogi_perft.epd", 600_000_000) >= 24);
}

#[test]
fn chess_perft_cpw() {
    // Every CPW entry up to 800M leaves: start D6, Kiwipete D5, position 3 D7, position 4 D6, …
    assert!(check_suite::<ChessPos>("chess_perft_cpw.epd", 800_000_000) >= 38);
}

#[test]
fn chess_perftsuite() {
    assert!(check_suite::<ChessPos>("chess_perftsuite.epd", 40_000_000) >= 650);
}

#[test]
fn chess_perft_stress() {
    assert!(check_suite::<ChessPos>("chess_perft_stress.epd", 5_000_000) >= 700);
}

#[test]
fn chess_perft_marcel() {
    // 6,838 positions: every entry up to 100k leaves (D1-D3 of all of them).
    assert!(check_suite::<ChessPos>("chess_perft_marcel.epd", 100_000) >= 20_000);
}

#[test]
fn shogi_positions_named_in_the_rules_issue() {
    let cases: [(&str, &[u64]); 5] = [
        (
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
            &[207, 28_684, 4_809_015],
        ),
        (
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            &[593, 105_677],
        ),
        (
            "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91",
            &[180, 15_217, 2_067_680],
        ),
        (
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
            &[178, 18_041, 2_552_846],
        ),
        (
            "9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
            &[524, 248_257],
        ),
    ];
    for (sfen, counts) in cases {
        let pos = ShogiPos::from_text(sfen).unwrap();
        for (i, &n) in counts.iter().enumerate() {
            assert_eq!(perft(&pos, i as u32 + 1), n, "{sfen} depth {}", i + 1);
        }
    }
}
