//! Weight files: write → read round trip, and refusal of truncated, bit-flipped, wrong-game,
//! wrong-version and wrong-feature-set files with an error naming the file and the problem.

use kishi::chess::features::{random_params as chess_params, ChessFeatures};
use kishi::chess::ChessPos;
use kishi::eval::format::{build_image, TableData};
use kishi::eval::rng::SplitMix64;
use kishi::eval::{write_weight_file, Evaluator, FeatureSet, GameEval, OwnedTable, Weights};
use kishi::game::Game;
use kishi::games::load_weight_file;
use kishi::shogi::features::{Bonanza, BONANZA_MATERIAL};
use kishi::shogi::{ShogiEval, ShogiPos};
use std::path::PathBuf;
use std::sync::Arc;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kishi-eval-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// A small shogi file: material, KP and KKP random, KPP left out (it reads as zero).
fn small_shogi_tables() -> Vec<Option<OwnedTable>> {
    let mut rng = SplitMix64::new(3);
    let kp: Vec<i16> = (0..81 * 1476).map(|_| rng.symmetric(500) as i16).collect();
    let kkp: Vec<i16> = (0..81 * 81 * 738)
        .map(|_| rng.symmetric(500) as i16)
        .collect();
    vec![
        Some(OwnedTable::I32(BONANZA_MATERIAL.to_vec())),
        Some(OwnedTable::I16(kp)),
        Some(OwnedTable::I16(kkp)),
        None,
    ]
}

const PROV: &str = r#"{"learner":"test","method":"random","iterations":0}"#;

fn write_small_shogi(name: &str) -> PathBuf {
    let path = tmp(name);
    write_weight_file::<ShogiPos, Bonanza>(&path, &small_shogi_tables(), PROV).expect("write");
    path
}

#[test]
fn round_trip_shogi() {
    let path = write_small_shogi("rt.kw");
    let mem = Weights::from_tables::<ShogiPos, Bonanza>(&small_shogi_tables(), PROV, "mem")
        .expect("in memory");
    let w = load_weight_file(&path, "shogi").expect("load");
    assert_eq!(w.provenance(), PROV);
    assert_eq!(w.header().game, "shogi");
    assert_eq!(w.header().feature_set, "bonanza");
    for t in 0..4 {
        assert_eq!(w.has(t), t != 3);
        assert_eq!(w.i16(t.max(1)), mem.i16(t.max(1)));
    }
    assert_eq!(w.i32(0), &BONANZA_MATERIAL[..]);
    let (a, b) = (ShogiEval::new(Arc::new(w)), ShogiEval::new(Arc::new(mem)));
    let mut rng = SplitMix64::new(1);
    let mut pos = ShogiPos::startpos();
    let mut moves = Vec::new();
    for _ in 0..100 {
        moves.clear();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        pos = pos.play(moves[rng.below(moves.len())]);
        assert_eq!(a.evaluate_scratch(&pos), b.evaluate_scratch(&pos));
    }
    assert_ne!(
        a.evaluate_scratch(&pos),
        pos.material(),
        "KP/KKP are in effect"
    );
    // Writing the loaded weights again gives the same bytes.
    let again = tmp("rt2.kw");
    a.weights().write(&again).expect("rewrite");
    assert_eq!(
        std::fs::read(&path).expect("r"),
        std::fs::read(&again).expect("r")
    );
}

#[test]
fn round_trip_chess_from_params() {
    let params = chess_params(1, 100);
    let w = Weights::from_params::<ChessPos, ChessFeatures>(&params, PROV).expect("weights");
    let path = tmp("chess.kw");
    w.write(&path).expect("write");
    let r = load_weight_file(&path, "chess").expect("load");
    assert!(r.fully_verified());
    assert_eq!(r.i32(0), w.i32(0));
    assert_eq!(r.i16(1), w.i16(1));
    assert_eq!(r.i32(2), w.i32(2));
    let e = kishi::chess::ChessEval::new(Arc::new(r));
    let pos =
        ChessPos::from_text("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .expect("fen");
    let mut feats = Vec::new();
    ChessFeatures::features(&pos, &mut feats);
    assert_eq!(
        e.evaluate_scratch(&pos),
        kishi::eval::evaluate_features::<ChessPos, ChessFeatures>(&params, &feats)
    );
}

fn refused(path: &std::path::Path, game: &str, what: &str) {
    match load_weight_file(path, game) {
        Ok(_) => panic!("{} was accepted; expected '{what}'", path.display()),
        Err(e) => {
            assert!(
                e.contains(&path.display().to_string()),
                "error does not name the file: {e}"
            );
            assert!(e.contains(what), "expected '{what}' in: {e}");
        }
    }
}

#[test]
fn truncated_files_are_refused() {
    let path = write_small_shogi("trunc-src.kw");
    let bytes = std::fs::read(&path).expect("read");
    for cut in [bytes.len() - 1, bytes.len() / 2, 5000, 100, 3] {
        let p = tmp(&format!("trunc-{cut}.kw"));
        std::fs::write(&p, &bytes[..cut]).expect("write");
        let what = if cut < 8 { "bad magic" } else { "truncated" };
        refused(&p, "shogi", what);
    }
    let p = tmp("empty.kw");
    std::fs::write(&p, b"").expect("write");
    refused(&p, "shogi", "bad magic");
    refused(&tmp("does-not-exist.kw"), "shogi", "No such file");
}

#[test]
fn bit_flips_are_refused() {
    let path = write_small_shogi("flip-src.kw");
    let bytes = std::fs::read(&path).expect("read");
    let w = load_weight_file(&path, "shogi").expect("load");
    let kkp = w
        .header()
        .tables
        .iter()
        .find(|t| t.name == "kkp")
        .expect("kkp")
        .clone();
    let cases = [
        (
            kkp.offset as usize + 12345,
            "checksum mismatch in table 'kkp'",
        ),
        (4096 + 7, "checksum mismatch in table 'material'"),
        (30, "header checksum"),
        (130, "header checksum"),
        (bytes.len() - 3, "provenance"),
    ];
    for (i, (at, what)) in cases.into_iter().enumerate() {
        let mut b = bytes.clone();
        b[at] ^= 0x10;
        let p = tmp(&format!("flip-{i}.kw"));
        std::fs::write(&p, &b).expect("write");
        refused(&p, "shogi", what);
    }
}

#[test]
fn wrong_game_version_and_feature_set_are_refused() {
    let chess = tmp("wrong-game.kw");
    Weights::from_params::<ChessPos, ChessFeatures>(&chess_params(2, 10), PROV)
        .expect("w")
        .write(&chess)
        .expect("write");
    refused(&chess, "shogi", "wrong game: the file is for chess");
    let shogi = write_small_shogi("wrong-game-2.kw");
    refused(&shogi, "chess", "wrong game: the file is for shogi");

    let mut b = std::fs::read(&shogi).expect("read");
    b[8] = 2; // format version 2
    let p = tmp("wrong-version.kw");
    std::fs::write(&p, &b).expect("write");
    refused(&p, "shogi", "unsupported format version 2");

    let mat: Vec<i32> = BONANZA_MATERIAL.to_vec();
    for (fs, ver, what) in [
        ("kpp-ish", 1, "wrong feature set"),
        ("bonanza", 9, "version 9"),
    ] {
        let img = build_image(
            "shogi",
            fs,
            ver,
            &[("material", &[13], TableData::I32(&mat))],
            "{}",
        )
        .expect("image");
        let bytes: &[u8] = bytemuck::cast_slice(&img);
        let len = u64::from_le_bytes(bytes[16..24].try_into().expect("8")) as usize;
        let p = tmp(&format!("wrong-fs-{ver}.kw"));
        std::fs::write(&p, &bytes[..len]).expect("write");
        refused(&p, "shogi", what);
    }
    // A table with the wrong dimensions for the feature set.
    let img = build_image(
        "shogi",
        "bonanza",
        1,
        &[("material", &[12], TableData::I32(&mat[..12]))],
        "{}",
    )
    .expect("image");
    let bytes: &[u8] = bytemuck::cast_slice(&img);
    let len = u64::from_le_bytes(bytes[16..24].try_into().expect("8")) as usize;
    let p = tmp("wrong-dims.kw");
    std::fs::write(&p, &bytes[..len]).expect("write");
    refused(&p, "shogi", "expected i32 [13]");
}

#[test]
fn a_refused_file_leaves_the_old_evaluation_in_place() {
    let good = write_small_shogi("keep.kw");
    let mut eval = <ShogiPos as GameEval>::load_eval(&good).expect("good file");
    let pos =
        ShogiPos::from_text("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2")
            .expect("sfen");
    let before = eval.evaluate_scratch(&pos);
    let bad = tmp("keep-bad.kw");
    let mut b = std::fs::read(&good).expect("read");
    b.truncate(b.len() - 10);
    std::fs::write(&bad, &b).expect("write");
    // The protocol's pattern: replace the evaluator only on success.
    match <ShogiPos as GameEval>::load_eval(&bad) {
        Ok(e) => eval = e,
        Err(msg) => assert!(msg.contains("truncated")),
    }
    let mut acc = Default::default();
    eval.refresh(&pos, &mut acc);
    assert_eq!(eval.evaluate(&pos, &acc), before);
}
