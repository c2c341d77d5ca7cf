//! The shipped weight files and the built-in defaults made from them, and compressed files through
//! the cache: every file in `eval_weights/` passes `kishi weights verify`; each game's built-in
//! default is byte for byte the shipped file it names; an `.xz` file given as `EvalFile` is
//! unpacked once into the cache, reused, rebuilt when the copy is corrupt, and a truncated or
//! corrupt file or an unusable cache directory gives one error line while the engine plays on.

mod protocol_support;

use kishi::chess::features::ChessFeatures;
use kishi::chess::ChessPos;
use kishi::eval::weights::{default_weights, handset_weights, Weights};
use kishi::eval::FeatureSet;
use kishi::game::Game;
use kishi::shogi::features::Bonanza;
use kishi::shogi::ShogiPos;
use protocol_support::{errors, Session};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn shipped_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("eval_weights")
}

fn shipped_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(shipped_dir())
        .expect("eval_weights/ exists")
        .map(|e| e.expect("readable directory").path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            n.ends_with(".kwt") || n.ends_with(".kwt.xz")
        })
        .collect();
    v.sort();
    v
}

#[test]
fn every_shipped_file_passes_weights_verify() {
    let files = shipped_files();
    assert!(
        files.iter().any(|f| f.to_string_lossy().contains("shogi"))
            && files.iter().any(|f| f.to_string_lossy().contains("chess")),
        "eval_weights/ ships a learned file of each game: {files:?}"
    );
    let cache = std::env::temp_dir().join(format!("kishi-shipped-verify-{}", std::process::id()));
    for f in files {
        let out = Command::new(env!("CARGO_BIN_EXE_kishi"))
            .args(["weights", "verify"])
            .arg(&f)
            .env("KISHI_CACHE_DIR", &cache)
            .output()
            .expect("kishi runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains("every checksum verified"),
            "{}: {text}{}",
            f.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(cache);
}

/// The built-in default of a feature set is the shipped file it names, and it is learned (it
/// differs from the hand-set tables the learner starts from).
fn default_is_the_shipped_file<G: Game, F: FeatureSet<G>>() {
    let (name, bytes) = F::embedded_file().expect("a learned default is built in");
    let shipped = std::fs::read(shipped_dir().join(name)).expect("the embedded file is shipped");
    assert!(
        bytes == shipped.as_slice(),
        "{name}: embedded bytes differ from eval_weights/{name}"
    );
    // A compressed default is compared unpacked: the weights are the raw file's image.
    let file = if name.ends_with(".xz") {
        let mut raw = Vec::new();
        std::io::Read::read_to_end(&mut xz2::read::XzDecoder::new(shipped.as_slice()), &mut raw)
            .expect("the shipped .xz file unpacks");
        raw
    } else {
        shipped
    };
    let w: Weights = default_weights::<G, F>();
    assert!(
        w.image() == file.as_slice(),
        "{name}: default weights differ from the file"
    );
    assert!(w.source().contains(name));
    assert!(handset_weights::<G, F>().image() != file.as_slice());
    let prov = w.provenance();
    for key in ["command", "elo"] {
        assert!(
            prov.contains(&format!("\"{key}\":")),
            "{name}: no {key} in {prov}"
        );
    }
    // The held-out measure of its learner: move agreement (MMTO, CT) or the loss against the
    // teacher's scores (texel).
    assert!(
        ["agreement_test", "test_loss"]
            .iter()
            .any(|key| prov.contains(&format!("\"{key}\":"))),
        "{name}: no held-out measure in {prov}"
    );
}

#[test]
fn shogi_default_is_the_shipped_learned_file_with_kp_kkp_and_kpp() {
    default_is_the_shipped_file::<ShogiPos, Bonanza>();
    // Learned KP: the `eval` breakdown of a middlegame position has a non-zero KP term.
    let e =
        kishi::eval::LinearEval::<ShogiPos, Bonanza>::new(std::sync::Arc::new(default_weights::<
            ShogiPos,
            Bonanza,
        >()));
    let pos = ShogiPos::from_text(
        "ln1g1g1nl/1ks2r3/1pppp1sp1/p4pp1p/9/P1P1P1P1P/1P1PSP1P1/1BK1GS1R1/LN1G3NL b B 1",
    )
    .unwrap();
    let kp = kishi::eval::Evaluator::breakdown(&e, &pos)
        .into_iter()
        .find(|(n, _)| n == "kp")
        .map(|(_, v)| v);
    assert!(matches!(kp, Some(v) if v != 0), "kp term: {kp:?}");
    let kkp = kishi::eval::Evaluator::breakdown(&e, &pos)
        .into_iter()
        .find(|(n, _)| n == "kkp")
        .map(|(_, v)| v);
    assert!(matches!(kkp, Some(v) if v != 0), "kkp term: {kkp:?}");
    let kpp = kishi::eval::Evaluator::breakdown(&e, &pos)
        .into_iter()
        .find(|(n, _)| n == "kpp")
        .map(|(_, v)| v);
    assert!(matches!(kpp, Some(v) if v != 0), "kpp term: {kpp:?}");
}

#[test]
fn chess_default_is_the_shipped_learned_file() {
    default_is_the_shipped_file::<ChessPos, ChessFeatures>();
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut enc = xz2::write::XzEncoder::new(Vec::new(), 6);
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// A small shogi file whose pawn is worth 1000 (so `eval` shows that it was loaded).
fn marked_shogi_file() -> Vec<u8> {
    let mut params = vec![0; Bonanza::num_params()];
    params[..13].copy_from_slice(&[
        1000, 232, 257, 369, 444, 569, 642, 534, 489, 510, 495, 827, 945,
    ]);
    Weights::from_params::<ShogiPos, Bonanza>(&params, "{\"test\":true}")
        .unwrap()
        .image()
        .to_vec()
}

fn usi() -> Session {
    let mut s = Session::start();
    s.send("usi");
    s.until("usiok", |l| l == "usiok");
    s
}

fn material(s: &mut Session) -> String {
    s.send("position sfen lnsgkgsnl/1r5b1/pppppppp1/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    s.send("eval");
    let out = s.sync();
    out.into_iter()
        .find(|l| l.contains("material"))
        .unwrap_or_default()
}

fn plays(s: &mut Session) {
    s.send("position startpos");
    s.send("go depth 2");
    let out = s.bestmove();
    let last = out.last().unwrap();
    assert!(
        last.starts_with("bestmove ") && !last.contains("resign"),
        "{last}"
    );
}

/// The unpacked copies of `stem` (e.g. `marked` for `marked.kwt.xz`) in the cache. The cache
/// also holds the built-in shogi default, which is itself unpacked there on first use.
fn cached_copies(cache: &Path, stem: &str) -> Vec<PathBuf> {
    std::fs::read_dir(cache)
        .map(|d| {
            d.map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "kwt"))
                .filter(|p| {
                    p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with(&format!("{stem}-")))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// One test, because the cache directory is process-wide (an environment variable).
#[test]
fn compressed_files_unpack_once_into_the_cache_and_bad_ones_are_refused() {
    let dir = std::env::temp_dir().join(format!("kishi-shipped-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cache = dir.join("cache");
    std::env::set_var("KISHI_CACHE_DIR", &cache);
    let raw = marked_shogi_file();
    let packed = xz(&raw);
    let good = dir.join("marked.kwt.xz");
    std::fs::write(&good, &packed).unwrap();

    // First load: unpacked, announced with its time, then used.
    let mut s = usi();
    let builtin = material(&mut s);
    s.send(&format!("setoption name EvalFile value {}", good.display()));
    let out = s.sync();
    assert!(errors(&out).is_empty(), "{out:?}");
    assert!(
        out.iter().any(|l| l.starts_with("info string unpacking")),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string unpacked") && l.contains(" s")),
        "{out:?}"
    );
    let marked = material(&mut s);
    assert_ne!(marked, builtin, "the unpacked file is in use");
    let copies = cached_copies(&cache, "marked");
    assert_eq!(copies.len(), 1, "{copies:?}");
    assert_eq!(std::fs::read(&copies[0]).unwrap(), raw);
    plays(&mut s);
    assert_eq!(s.close(), 0);

    // Second engine: the checked copy is reused, nothing is unpacked.
    let mut s = usi();
    s.send(&format!("setoption name EvalFile value {}", good.display()));
    let out = s.sync();
    assert!(
        errors(&out).is_empty() && !out.iter().any(|l| l.contains("unpacking")),
        "{out:?}"
    );
    assert_eq!(material(&mut s), marked);
    assert_eq!(s.close(), 0);

    // A corrupt copy in the cache is rebuilt, never used.
    let mut bytes = std::fs::read(&copies[0]).unwrap();
    bytes[4096] ^= 0x40;
    std::fs::write(&copies[0], &bytes).unwrap();
    let mut s = usi();
    s.send(&format!("setoption name EvalFile value {}", good.display()));
    let out = s.sync();
    assert!(errors(&out).is_empty(), "{out:?}");
    assert!(out.iter().any(|l| l.contains("rebuilding")), "{out:?}");
    assert_eq!(material(&mut s), marked);
    assert_eq!(std::fs::read(&copies[0]).unwrap(), raw);
    assert_eq!(s.close(), 0);

    // Bad compressed files: truncated, and a valid xz stream of a corrupt image. Each gives one
    // error line naming the file, and the engine keeps the built-in evaluation and plays.
    let truncated = dir.join("truncated.kwt.xz");
    std::fs::write(&truncated, &packed[..packed.len() / 2]).unwrap();
    let mut corrupt_raw = raw.clone();
    corrupt_raw[4100] ^= 1;
    let corrupt = dir.join("corrupt.kwt.xz");
    std::fs::write(&corrupt, xz(&corrupt_raw)).unwrap();
    let garbage = dir.join("garbage.kwt.xz");
    std::fs::write(&garbage, b"not an xz stream at all").unwrap();
    for (bad, why) in [(&truncated, "xz"), (&corrupt, "checksum"), (&garbage, "xz")] {
        let mut s = usi();
        s.send(&format!("setoption name EvalFile value {}", bad.display()));
        let out = s.sync();
        let errs = errors(&out);
        assert_eq!(errs.len(), 1, "{}: {out:?}", bad.display());
        assert!(
            errs[0].contains(why) && errs[0].contains("not loaded"),
            "{errs:?}"
        );
        assert_eq!(material(&mut s), builtin);
        plays(&mut s);
        assert_eq!(s.close(), 0);
    }
    for stem in ["truncated", "corrupt", "garbage"] {
        assert!(
            cached_copies(&cache, stem).is_empty(),
            "nothing bad was cached"
        );
    }
    assert_eq!(cached_copies(&cache, "marked").len(), 1);
    let leftovers: Vec<_> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");

    // An unusable cache directory (a path under a regular file): one error line, built-in kept.
    let blocker = dir.join("a-file");
    std::fs::write(&blocker, b"x").unwrap();
    std::env::set_var("KISHI_CACHE_DIR", blocker.join("cache"));
    let mut s = usi();
    s.send(&format!("setoption name EvalFile value {}", good.display()));
    let out = s.sync();
    let errs = errors(&out);
    assert_eq!(errs.len(), 1, "{out:?}");
    assert!(errs[0].contains("cache"), "{errs:?}");
    assert_eq!(material(&mut s), builtin);
    plays(&mut s);
    assert_eq!(s.close(), 0);
    std::env::set_var("KISHI_CACHE_DIR", &cache);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_shipped_name_is_found_without_a_path() {
    let name = Bonanza::embedded_file()
        .expect("a shogi file is built in")
        .0;
    let mut s = usi();
    s.send(&format!("setoption name EvalFile value {name}"));
    let out = s.sync();
    assert!(errors(&out).is_empty(), "{out:?}");
    assert!(
        out.iter().any(|l| l.contains("loaded") && l.contains(name)),
        "{out:?}"
    );
    s.send("setoption name EvalFile value no-such-shipped-file.kwt");
    let out = s.sync();
    let errs = errors(&out);
    assert_eq!(errs.len(), 1, "{out:?}");
    assert!(errs[0].contains("no shipped weight file"), "{errs:?}");
    assert_eq!(s.close(), 0);
}

#[test]
fn annotate_changes_only_the_provenance() {
    let dir = std::env::temp_dir().join(format!("kishi-annotate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("a.kwt");
    let raw = marked_shogi_file();
    std::fs::write(&src, &raw).unwrap();
    let dst = dir.join("b.kwt");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_kishi"))
            .args(["weights", "annotate"])
            .args(args)
            .output()
            .expect("kishi runs")
    };
    let (s, d) = (src.to_str().unwrap(), dst.to_str().unwrap());
    let ok = run(&[
        s,
        "--out",
        d,
        "--set",
        "command=kishi learn x",
        "--set-json",
        "elo={\"elo\":7}",
    ]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let w = Weights::load::<ShogiPos, Bonanza>(&dst, kishi::eval::Verify::All).expect("valid file");
    assert!(
        w.provenance().contains("\"command\":\"kishi learn x\""),
        "{}",
        w.provenance()
    );
    assert!(
        w.provenance().contains("\"elo\":{\"elo\":7}") && w.provenance().contains("\"test\":true")
    );
    let new = std::fs::read(&dst).unwrap();
    let at = w.header().provenance_offset as usize;
    assert_eq!(new[4096..at], raw[4096..at], "tables unchanged");
    for bad in [
        vec![s, "--out", d, "--set-json", "elo=nope"],
        vec![s, "--out", d, "--set", "novalue"],
        vec![s, "--set", "a=b"],
        vec!["/no/such/file.kwt", "--out", d, "--set", "a=b"],
    ] {
        let r = run(&bad);
        assert!(!r.status.success() && !r.stderr.is_empty(), "{bad:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Chess table `t` is present in both files or in neither, with the same weights (table 1, KP,
/// is the only i16 table).
fn assert_same_table(before: &Weights, after: &Weights, t: usize) {
    assert_eq!(before.has(t), after.has(t), "table {t}");
    if before.has(t) {
        let same = if t == 1 {
            before.i16(t) == after.i16(t)
        } else {
            before.i32(t) == after.i32(t)
        };
        assert!(same, "table {t} changed");
    }
}

/// `weights add-defaults` fills exactly the tables a file lacks with the hand-set defaults and
/// keeps the others; a missing file is an error with a non-zero exit.
#[test]
fn add_defaults_fills_only_the_missing_tables() {
    use kishi::chess::features::{default_positional_ext, T_EXT};
    let dir = std::env::temp_dir().join(format!("kishi-add-defaults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = shipped_dir().join("chess-obj-j2.kwt");
    let dst = dir.join("with-ext.kwt");
    let run = |a: &Path, b: &Path| {
        Command::new(env!("CARGO_BIN_EXE_kishi"))
            .args(["weights", "add-defaults"])
            .arg(a)
            .arg("--out")
            .arg(b)
            .output()
            .expect("kishi runs")
    };
    let out = run(&src, &dst);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let verify = kishi::eval::Verify::All;
    let before = Weights::load::<ChessPos, ChessFeatures>(&src, verify).expect("valid source");
    let after = Weights::load::<ChessPos, ChessFeatures>(&dst, verify).expect("valid output");
    assert!(!before.has(T_EXT) && after.has(T_EXT));
    assert_eq!(after.i32(T_EXT), default_positional_ext().as_slice());
    for t in 0..T_EXT {
        assert_same_table(&before, &after, t);
    }
    assert!(after
        .provenance()
        .contains("\"added_default_tables\":[\"positional_ext\"]"));
    // Again on the result: nothing left to add, the tables stay.
    let again = dir.join("again.kwt");
    assert!(run(&dst, &again).status.success());
    let w = Weights::load::<ChessPos, ChessFeatures>(&again, verify).expect("valid");
    assert_eq!(w.i32(T_EXT), after.i32(T_EXT));
    let missing = run(&dir.join("nope.kwt"), &dir.join("x.kwt"));
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("error:"));
    let _ = std::fs::remove_dir_all(dir);
}

/// `weights scale` multiplies exactly one table (rounded) and keeps the others byte for byte; an
/// unknown or absent table, a factor out of range and a weight that would overflow are errors
/// with a non-zero exit and no output file.
#[test]
fn scale_multiplies_one_table_only() {
    use kishi::chess::features::T_EXT;
    let dir = std::env::temp_dir().join(format!("kishi-scale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = shipped_dir().join("chess-texel-shelter.kwt");
    let run = |from: &Path, table: &str, factor: &str, to: &Path| {
        Command::new(env!("CARGO_BIN_EXE_kishi"))
            .args(["weights", "scale"])
            .arg(from)
            .args(["--table", table, "--factor", factor, "--out"])
            .arg(to)
            .output()
            .expect("kishi runs")
    };
    let verify = kishi::eval::Verify::All;
    let before = Weights::load::<ChessPos, ChessFeatures>(&src, verify).expect("valid source");
    for (factor, f) in [("2.5", 2.5f64), ("-0.5", -0.5)] {
        let dst = dir.join(format!("scaled{factor}.kwt"));
        let out = run(&src, "positional_ext", factor, &dst);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let after = Weights::load::<ChessPos, ChessFeatures>(&dst, verify).expect("valid output");
        let want: Vec<i32> = before
            .i32(T_EXT)
            .iter()
            .map(|&x| (x as f64 * f).round() as i32)
            .collect();
        assert_eq!(after.i32(T_EXT), want.as_slice(), "factor {factor}");
        assert!(before.i32(T_EXT).iter().any(|&x| x != 0 && x % 2 != 0));
        for t in (0..8).filter(|&t| t != T_EXT) {
            assert_same_table(&before, &after, t);
        }
        assert!(after
            .provenance()
            .contains("\"scaled_table\":\"positional_ext\""));
    }
    // The i16 KP table overflows at ×100 (its weights reach hundreds): refused, nothing written.
    let bad = [
        ("nonesuch", "2"),
        ("positional_ext", "1000"),
        ("positional_ext", "NaN"),
        ("kp", "100"),
    ];
    for (table, factor) in bad {
        let dst = dir.join("bad.kwt");
        let out = run(&src, table, factor, &dst);
        assert!(!out.status.success(), "{table} × {factor} accepted");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("error:"),
            "{table} × {factor}"
        );
        assert!(!dst.exists(), "{table} × {factor} wrote a file");
    }
    // A table the file does not have (chess-obj-j2 predates positional_ext).
    let absent = run(
        &shipped_dir().join("chess-obj-j2.kwt"),
        "positional_ext",
        "2",
        &dir.join("absent.kwt"),
    );
    assert!(!absent.status.success());
    assert!(String::from_utf8_lossy(&absent.stderr).contains("has no table"));
    let _ = std::fs::remove_dir_all(dir);
}
