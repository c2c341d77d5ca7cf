//! Weight files through the protocol: a good file is taken at `isready`; a truncated, a bit-flipped,
//! a wrong-game and a wrong-version file are each refused with one `info string error: …` line that
//! names the file, and the engine keeps the evaluation it had and still plays.

mod protocol_support;

use kishi::eval::weights::Weights;
use kishi::eval::FeatureSet;
use kishi::shogi::features::Bonanza;
use kishi::shogi::ShogiPos;
use protocol_support::{errors, Session};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("kishi-proto-weights-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A small shogi file: piece values only, pawn worth 1000 (so `eval` shows it was loaded).
fn shogi_file(path: &Path) -> Vec<u8> {
    let mut params = vec![0; Bonanza::num_params()];
    let values = [
        1000, 232, 257, 369, 444, 569, 642, 534, 489, 510, 495, 827, 945,
    ];
    params[..13].copy_from_slice(&values);
    Weights::from_params::<ShogiPos, Bonanza>(&params, "{\"test\":true}")
        .unwrap()
        .write(path)
        .unwrap();
    std::fs::read(path).unwrap()
}

fn eval_total(s: &mut Session) -> String {
    s.send("position sfen lnsgkgsnl/1r5b1/pppppppp1/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    s.send("eval");
    let out = s.sync();
    assert!(errors(&out).is_empty(), "{out:?}");
    out.join("\n")
}

fn usi() -> Session {
    let mut s = Session::start();
    s.send("usi");
    s.until("usiok", |l| l == "usiok");
    s
}

#[test]
fn bad_weight_files_are_refused_and_the_old_evaluation_stays() {
    let d = dir();
    let good = d.join("good.kwt");
    let bytes = shogi_file(&good);
    let mut s = usi();
    let default_eval = eval_total(&mut s);
    s.send(&format!("setoption name EvalFile value {}", good.display()));
    let out = s.sync();
    assert!(errors(&out).is_empty(), "{out:?}");
    let loaded_eval = eval_total(&mut s);
    assert_ne!(
        loaded_eval, default_eval,
        "the pawn worth 1000 must show in eval"
    );

    let mut bad: Vec<(&str, PathBuf)> = Vec::new();
    let truncated = d.join("truncated.kwt");
    std::fs::write(&truncated, &bytes[..bytes.len() - 100]).unwrap();
    bad.push(("truncated", truncated));
    let flipped = d.join("flipped.kwt");
    let mut f = bytes.clone();
    f[4096] ^= 0x10; // first byte of the first table (the piece values)
    std::fs::write(&flipped, &f).unwrap();
    bad.push(("checksum", flipped));
    let version = d.join("version.kwt");
    let mut v = bytes.clone();
    v[8] = 99;
    std::fs::write(&version, &v).unwrap();
    bad.push(("version", version));
    let chess = d.join("chess.kwt");
    kishi::eval::weights::default_weights::<
        kishi::chess::ChessPos,
        kishi::chess::features::ChessFeatures,
    >()
    .write(&chess)
    .unwrap();
    bad.push(("chess", chess));

    for (what, path) in bad {
        s.send(&format!("setoption name EvalFile value {}", path.display()));
        let out = s.sync();
        let errs = errors(&out);
        assert_eq!(errs.len(), 1, "{what}: {out:?}");
        assert!(
            errs[0].contains(&path.display().to_string()),
            "{what}: {}",
            errs[0]
        );
        assert!(errs[0].to_lowercase().contains(what), "{what}: {}", errs[0]);
        assert_eq!(
            eval_total(&mut s),
            loaded_eval,
            "{what}: the loaded evaluation must stay"
        );
        s.send("go depth 3");
        let b = s.bestmove();
        assert!(b.last().unwrap().starts_with("bestmove "), "{b:?}");
    }
    let _ = std::fs::remove_dir_all(&d);
}
