//! The learner's behaviour is pinned by a fixed-seed run made before the issue-17 refactor
//! (`tests/golden/learn_chess/README.md`): the weight files and params.bin must come out
//! byte-identical, and metrics.jsonl equal after JSON parsing (timing fields excluded), so a
//! change in JSON formatting alone passes and a change in any value fails.

use std::path::{Path, PathBuf};

const TIMING: &[&str] = &[
    "seconds_step1",
    "seconds_steps23",
    "seconds_total",
    "positions_per_second",
    "unix_time",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn unxz(path: &Path) -> Vec<u8> {
    use std::io::Read;
    let f = std::fs::File::open(path).expect("golden file");
    let mut out = Vec::new();
    xz2::read::XzDecoder::new(f)
        .read_to_end(&mut out)
        .expect("xz golden file");
    out
}

/// metrics.jsonl as parsed JSON values without the timing fields.
fn metrics(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).expect("metrics.jsonl");
    text.lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            let obj = v.as_object_mut().expect("a JSON object");
            for k in TIMING {
                assert!(obj.remove(*k).is_some(), "metrics line without {k}: {l}");
            }
            v
        })
        .collect()
}

#[test]
fn fixed_seed_chess_run_matches_the_pre_refactor_outputs() {
    let out = std::env::temp_dir().join(format!("kishi-golden-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    // The relative data path is part of the provenance block, so it is spelled as in the README.
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_kishi"))
        .current_dir(root())
        .args([
            "learn",
            "mmto",
            "--game",
            "chess",
            "--split",
            "../shared/data/chess/chess_gm2400_train.txt.xz",
            "--test-fraction",
            "0.02",
            "--max-positions",
            "300",
            "--max-test",
            "60",
            "--tables",
            "B",
            "--keep-defaults",
            "none",
            "--material-init",
            "3000",
            "--iterations",
            "2",
            "--threads",
            "1",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .output()
        .expect("run kishi");
    assert!(
        status.status.success(),
        "kishi learn failed: {}",
        String::from_utf8_lossy(&status.stderr)
    );
    let golden = root().join("tests/golden/learn_chess");
    for f in ["weights.kwt", "initial.kwt", "best.kwt"] {
        let got = std::fs::read(out.join(f)).expect("output weight file");
        assert!(
            got == unxz(&golden.join(format!("{f}.xz"))),
            "{f} differs from the golden file"
        );
    }
    let got = std::fs::read(out.join("params.bin")).expect("params.bin");
    assert_eq!(
        got,
        std::fs::read(golden.join("params.bin")).expect("golden")
    );
    let (got, want) = (
        metrics(&out.join("metrics.jsonl")),
        metrics(&golden.join("metrics.jsonl")),
    );
    assert_eq!(got.len(), 2);
    assert_eq!(got, want);
    let _ = std::fs::remove_dir_all(&out);
}
