//! A proof table kept between solves (`MateTable`, what `kishi mate` and USI `go mate` use)
//! answers every problem exactly as a fresh table does: same result, node counts, PV and table
//! use, whether the owner emptied it after the previous solve or `solve_in` had to.

use kishi::mate::{solve, solve_in, MateLimits, MateReport, MateTable};
use kishi::shogi::mate::parse_problem;
use kishi::shogi::ShogiPos;
use std::sync::atomic::AtomicBool;

/// Zukou problems (king-less), one per line of `data/tsume/zukou.tsv`: #002, #013, #016, #062.
const IDS: [&str; 4] = ["002", "013", "016", "062"];

fn problems() -> Vec<ShogiPos> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/tsume/zukou.tsv"))
            .expect("data/tsume/zukou.tsv");
    let header: Vec<&str> = text.lines().next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (id, sfen) = (col("id"), col("sfen"));
    IDS.iter()
        .map(|want| {
            let line = text
                .lines()
                .map(|l| l.split('\t').collect::<Vec<_>>())
                .find(|f| f[id] == *want)
                .expect("problem in the file");
            parse_problem(line[sfen]).expect("a mate problem")
        })
        .collect()
}

fn limits() -> MateLimits {
    MateLimits {
        nodes: Some(300_000),
        time: None,
        hash_mb: 16,
        shortest: true,
        ..Default::default()
    }
}

fn key(r: &MateReport<haitaka::Move>) -> String {
    format!(
        "{:?} nodes {} hashfull {} first {:?} replayed {} shortest {}",
        r.result,
        r.nodes,
        r.hashfull,
        r.first_proof.map(|(n, _)| n),
        r.replayed,
        r.shortest_proven
    )
}

#[test]
fn a_kept_table_answers_like_a_fresh_one() {
    let stop = AtomicBool::new(false);
    let fresh: Vec<String> = problems()
        .iter()
        .map(|p| key(&solve(p, &limits(), &stop).expect("solve")))
        .collect();
    assert!(fresh.iter().all(|k| k.starts_with("Mate(")), "{fresh:?}");

    // Emptied by the owner between solves, and mapped up front.
    let mut table = MateTable::new(16);
    table.map_now();
    let mut kept = Vec::new();
    for p in problems() {
        kept.push(key(&solve_in(
            &p,
            &limits(),
            &stop,
            &mut |_| {},
            &mut table,
        )
        .expect("solve")));
        table.clear();
    }
    assert_eq!(fresh, kept);

    // Not emptied: solve_in empties it first. Solving in reverse order makes each problem
    // follow a different one than above.
    let mut table = MateTable::new(16);
    let mut reversed = Vec::new();
    for p in problems().iter().rev() {
        reversed.push(key(
            &solve_in(p, &limits(), &stop, &mut |_| {}, &mut table).expect("solve")
        ));
    }
    reversed.reverse();
    assert_eq!(fresh, reversed);
}
