//! Internal iterative reduction and singular extension (`SearchParams::iir`, `::singular`): each
//! switch changes the tree (so it is live), and with every combination of the two the search
//! still finds the exact mates of the chess and tsume tests (a singular search leaves one move
//! out of a node; a bug there shows up as a lost or wrong mate score).

use kishi::chess::ChessPos;
use kishi::eval::material::MaterialEval;
use kishi::game::{mate_in, Game, GameHistory};
use kishi::search::{Engine, Limits, SearchConfig, SearchOutcome, SearchParams};
use kishi::shogi::ShogiPos;

fn search<G: Game>(
    history: &GameHistory<G>,
    depth: u32,
    iir: bool,
    singular: bool,
) -> SearchOutcome<G::Move> {
    let mut engine: Engine<G, MaterialEval> = Engine::new(MaterialEval, 1, 16);
    engine.set_config(SearchConfig {
        params: SearchParams {
            iir,
            singular,
            ..SearchParams::default()
        },
        ..SearchConfig::default()
    });
    engine.search_sync(history, &Limits::depth(depth), Box::new(|_| {}))
}

const SWITCHES: [(bool, bool); 4] = [(false, false), (true, false), (false, true), (true, true)];

#[test]
fn mates_are_found_with_and_without_each_switch() {
    // (FEN, depth, mate in plies)
    let chess = [
        ("6k1/5ppp/8/8/8/8/8/R6K w - - 0 1", 4, 1),
        ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 8, 3),
        (
            "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
            10,
            5,
        ),
    ];
    for (fen, depth, plies) in chess {
        let h = GameHistory::new(ChessPos::from_text(fen).expect("valid FEN"));
        for (iir, singular) in SWITCHES {
            let r = search(&h, depth, iir, singular);
            assert_eq!(
                r.score,
                mate_in(plies),
                "{fen} iir={iir} singular={singular}"
            );
        }
    }
    // The tsume set's problems (both kings on the board, gote holding the rest).
    let tsume = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/suites/tsume_miniosl.tsv"
    ))
    .expect("the shared tsume set");
    let mut checked = 0;
    for line in tsume.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let plies: usize = f[2].parse().expect("mate plies");
        let pos = ShogiPos::from_text(f[1]).unwrap_or_else(|e| panic!("{}: {e}", f[0]));
        let h = GameHistory::new(pos);
        for (iir, singular) in SWITCHES {
            let r = search(&h, plies as u32 + 4, iir, singular);
            assert_eq!(
                r.score,
                mate_in(plies),
                "{} iir={iir} singular={singular}",
                f[0]
            );
        }
        checked += 1;
    }
    assert!(checked >= 25, "only {checked} tsume problems read");
}

#[test]
fn each_switch_changes_the_tree() {
    // Middlegame positions searched deep enough for singular extensions (depth ≥ 8 nodes).
    let fens = [
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
        "r2q1rk1/1b2bppp/p2ppn2/1p6/3NP3/1BN1B3/PPP2PPP/R2Q1RK1 w - - 0 12",
    ];
    for fen in fens {
        let h = GameHistory::new(ChessPos::from_text(fen).expect("valid FEN"));
        let nodes: Vec<u64> = SWITCHES
            .iter()
            .map(|&(iir, singular)| search(&h, 11, iir, singular).nodes)
            .collect();
        assert_ne!(nodes[0], nodes[1], "{fen}: iir changes nothing");
        assert_ne!(nodes[0], nodes[2], "{fen}: singular changes nothing");
        assert_ne!(
            nodes[1], nodes[3],
            "{fen}: singular on top of iir changes nothing"
        );
    }
}
