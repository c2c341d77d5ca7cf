//! Solves a tsume file with the df-pn mate solver and prints one line per problem (solved, mate
//! length against the stated one, time, nodes) and a summary.
//!
//! ```sh
//! cargo run --release --example mate_suite -- data/tsume/zukou.tsv 1000 [hash-mb] [ids...]
//! ```
//! The file is a TSV with a header naming at least `id`, `sfen` and `mate_plies` (the format of
//! `data/tsume/zukou.tsv` and of `shared/data/suites/tsume_miniosl.tsv`). The second argument is
//! the time limit per problem in milliseconds; further arguments select problems by id. One
//! thread, one problem at a time.

use kishi::mate::{solve, MateLimits, MateResult};
use kishi::shogi::mate::parse_problem;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: mate_suite FILE.tsv [ms-per-problem] [hash-mb] [ids...]");
        std::process::exit(2);
    };
    let ms: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let hash_mb: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(256);
    let only: Vec<&String> = args.iter().skip(3).collect();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(1);
        }
    };
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let (Some(id_c), Some(sfen_c), Some(plies_c)) = (col("id"), col("sfen"), col("mate_plies"))
    else {
        eprintln!("{path}: the header needs id, sfen and mate_plies columns");
        std::process::exit(1);
    };
    println!("id\tstated\tfound\tresult\tshortest\tms\tnodes\thashfull");
    let (mut total, mut solved, mut exact, mut longest) = (0, 0, 0, 0usize);
    let mut total_ms = 0.0;
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let (Some(id), Some(sfen), Some(stated)) = (f.get(id_c), f.get(sfen_c), f.get(plies_c))
        else {
            eprintln!("skipping a short line: {line}");
            continue;
        };
        if !only.is_empty() && !only.iter().any(|o| o.as_str() == *id) {
            continue;
        }
        total += 1;
        let pos = match parse_problem(sfen) {
            Ok(p) => p,
            Err(e) => {
                println!("{id}\t{stated}\t-\terror: {e}\t-\t0\t0\t0");
                continue;
            }
        };
        let limits = MateLimits {
            nodes: None,
            time: Some(Duration::from_millis(ms)),
            hash_mb,
            shortest: true,
        };
        let stop = AtomicBool::new(false);
        let report = match solve(&pos, &limits, &stop) {
            Ok(r) => r,
            Err(e) => {
                println!("{id}\t{stated}\t-\terror: {e}\t-\t0\t0\t0");
                continue;
            }
        };
        let elapsed = report.elapsed.as_secs_f64() * 1000.0;
        total_ms += elapsed;
        let (found, result) = match &report.result {
            MateResult::Mate(pv) => {
                solved += 1;
                if stated.parse::<usize>().ok() == Some(pv.len()) {
                    exact += 1;
                }
                longest = longest.max(pv.len());
                (pv.len().to_string(), "mate")
            }
            MateResult::NoMate => ("-".to_string(), "nomate"),
            MateResult::Unknown => ("-".to_string(), "unknown"),
        };
        println!(
            "{id}\t{stated}\t{found}\t{result}\t{}\t{elapsed:.0}\t{}\t{}",
            report.shortest_proven, report.nodes, report.hashfull
        );
    }
    println!(
        "# solved {solved}/{total}, length as stated {exact}, longest mate {longest} plies, total {:.1} s, {ms} ms per problem",
        total_ms / 1000.0
    );
}
