//! The learner's inputs: records in every format (CSA, KIF, PGN, EPD, `.xz`, directories searched
//! recursively) load the same (position, move) pairs and the same split as the same games in the
//! line format, with malformed records reported by file and line; `kishi learn` on a PGN/EPD
//! directory learns exactly what it learns from the line format; and `--init` takes a shogi weight
//! file with expanded (mirror-tied) tables, folding it into the same parameters as the run's
//! params.bin, and refuses one whose tied entries differ.

use kishi::chess::features::ChessFeatures;
use kishi::chess::ChessPos;
use kishi::eval::{FeatureSet, OwnedTable, Weights};
use kishi::game::records::RecordError;
use kishi::game::Game;
use kishi::learn::dataset::{self, DataOptions, Dataset};
use kishi::learn::{run, LearnArgs};
use kishi::shogi::bonapiece::FE_END;
use kishi::shogi::features::{kp_param, kpp_param, Bonanza, OFF_KP, OFF_KPP, T_KKP, T_KP, T_KPP};
use kishi::shogi::ShogiPos;
use std::io::Write;
use std::path::{Path, PathBuf};

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kishi-learnio-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const HIRATE: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// Two CSA games with a malformed one between them (its second move is illegal).
const CSA_GAMES: &str = "\
V2.2
N+alice
N-bob
PI
+
+7776FU
T1
-3334FU
+2726FU,T2
-8384FU
+2625FU
-8485FU
+6978KI
-4132KI
+2524FU
-2324FU
+2824HI
-0023FU
+2426HI
%TORYO
/
PI
+
+7776FU
-9999FU
%TORYO
/
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
+7776FU
-3334FU
+8822UM
-3122GI
+0055KA
%TORYO
";

/// A handicap game (bishop and rook removed), written compressed.
const CSA_XZ_GAME: &str = "PI82HI22KA\n-\n-5152OU\n+5958OU\n-5251OU\n%SENNICHITE\n";

const KIF_GAME: &str = "\
開始日時：2021/06/29 09:00
手合割：平手
先手：a
後手：b
手数----指手---------消費時間--
   1 ２六歩(27)   ( 0:00/00:00:00)
   2 ８四歩(83)   ( 0:00/00:00:00)
*コメント
   3 ２五歩(26)   ( 0:00/00:00:00)
   4 ８五歩(84)   ( 0:00/00:00:00)
   5 ７八金(69)   ( 0:00/00:00:00)
   6 ３二金(41)   ( 0:00/00:00:00)
   7 投了
";

/// The four good shogi games above in the line format, in the order the directory is read.
fn shogi_lines() -> String {
    [
        format!("1-0 13 sfen {HIRATE} moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d P*2c 2d2f"),
        format!("1-0 5 sfen {HIRATE} moves 7g7f 3c3d 8h2b+ 3a2b B*5e"),
        "1/2-1/2 3 sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 5a5b 5i5h 5b5a".to_string(),
        format!("0-1 6 sfen {HIRATE} moves 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b"),
    ]
    .join("\n")
        + "\n"
}

/// A shogi data directory: CSA (plain and `.xz`), a malformed KIF file, a file of another kind, and
/// a KIF game one directory down. Returns (directory, the same games in the line format).
fn shogi_dir(base: &Path) -> (PathBuf, PathBuf) {
    let dir = base.join("shogi");
    write(&dir.join("a_games.csa"), CSA_GAMES);
    let mut xz = xz2::write::XzEncoder::new(Vec::new(), 6);
    xz.write_all(CSA_XZ_GAME.as_bytes()).unwrap();
    std::fs::write(dir.join("b_more.csa.xz"), xz.finish().unwrap()).unwrap();
    write(&dir.join("bad.kif"), "手数--\n   1 ７六桂(77)\n");
    write(&dir.join("notes.md"), "not a record\n");
    write(&dir.join("sub/g3.kifu"), KIF_GAME);
    let line = base.join("shogi_games.txt");
    write(&line, &shogi_lines());
    (dir, line)
}

const PGN_GAMES: &str = r#"[Event "castling"]
[SetUp "1"]
[FEN "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"]
[Result "*"]

1. O-O O-O-O 2. Rf1f8 Rdxf8 *

[Event "bad"]

1. e4 e5 2. Ke3 Nc6 1-0

[Event "after the bad one"]

1. d4 {a comment} d5 2. c4 dxc4 3. e3 b5 4. a4 c6 5. axb5 cxb5 6. Qf3 1-0
"#;

/// EPD entries: a supplied move, a single best move, two best moves (no move to learn: an error on
/// line 3), and `sm` winning over `bm`.
const EPD_ENTRIES: &str = r#"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - sm Bb5; id "ruy";
8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id "WAC.002";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4 d4; id "two";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - sm Nf3; bm e4;
"#;

fn chess_lines() -> String {
    [
        "* 4 fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1 e8c8 f1f8 d8f8",
        "1-0 11 fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves d2d4 d7d5 c2c4 d5c4 e2e3 b7b5 a2a4 c7c6 a4b5 c6b5 d1f3",
        "* 1 fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - moves f1b5",
        "* 1 fen 8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - moves b3b2",
        "* 1 fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - moves g1f3",
    ]
    .join("\n")
        + "\n"
}

fn chess_dir(base: &Path) -> (PathBuf, PathBuf) {
    let dir = base.join("chess");
    write(&dir.join("games.pgn"), PGN_GAMES);
    write(&dir.join("positions.epd"), EPD_ENTRIES);
    write(&dir.join("notes.md"), "not a record\n");
    let line = base.join("chess_games.txt");
    write(&line, &chess_lines());
    (dir, line)
}

/// (position text, move text) of every sample, in order.
fn pairs<G: Game>(s: &[dataset::Sample<G>]) -> Vec<(String, String)> {
    s.iter()
        .map(|x| (x.pos.to_text(), x.pos.move_text(x.mv)))
        .collect()
}

fn load<G: kishi::game::records::GameRecords>(opts: DataOptions) -> Dataset<G> {
    dataset::load::<G>(&opts).unwrap()
}

fn error_at(errors: &[RecordError], file: &str, line: usize, needle: &str) {
    assert!(
        errors
            .iter()
            .any(|e| e.file.ends_with(file) && e.line == line && e.message.contains(needle)),
        "no error {file}:{line} ({needle}) in {errors:?}"
    );
}

#[test]
fn shogi_csa_kif_and_xz_load_like_the_line_format() {
    let base = tmpdir("shogi");
    let (dir, line) = shogi_dir(&base);
    let from_dir = load::<ShogiPos>(DataOptions {
        train_files: vec![dir.clone()],
        ..Default::default()
    });
    let from_line = load::<ShogiPos>(DataOptions {
        train_files: vec![line.clone()],
        ..Default::default()
    });
    assert!(from_line.errors.is_empty(), "{:?}", from_line.errors);
    assert_eq!(from_line.games_read, 4);
    assert_eq!(from_dir.games_read, 4, "{:?}", from_dir.errors);
    assert_eq!(pairs(&from_dir.train), pairs(&from_line.train));
    // 27 positions; the floodgate game's first two are the first game's (deduplicated).
    assert_eq!(from_dir.train.len(), 13 + 3 + 3 + 6);
    assert_eq!(from_dir.duplicates, 2);
    // The malformed CSA game (line 25: -9999FU) and KIF file are reported, not fatal.
    assert_eq!(from_dir.errors.len(), 2, "{:?}", from_dir.errors);
    error_at(&from_dir.errors, "a_games.csa", 25, "-9999FU");
    error_at(&from_dir.errors, "bad.kif", 2, "not the one named");
    // notes.md is neither loaded nor an error.
    assert_eq!(from_dir.ignored_files, 1);
    assert_eq!(from_line.ignored_files, 0);

    // The split is by game whatever the format: the same games go to the same side.
    for seed in 1..20 {
        let split = |p: &Path| {
            load::<ShogiPos>(DataOptions {
                split_files: vec![p.to_path_buf()],
                test_fraction: 0.5,
                seed,
                ..Default::default()
            })
        };
        let (a, b) = (split(&dir), split(&line));
        assert_eq!(pairs(&a.train), pairs(&b.train), "seed {seed}");
        assert_eq!(pairs(&a.test), pairs(&b.test), "seed {seed}");
        if !a.train.is_empty() && !a.test.is_empty() {
            let _ = std::fs::remove_dir_all(&base);
            return;
        }
    }
    panic!("no seed split the four games into two non-empty sets");
}

#[test]
fn files_named_alone_must_be_record_files_and_missing_ones_are_errors() {
    let base = tmpdir("names");
    let (dir, _) = shogi_dir(&base);
    let one = |p: PathBuf| {
        dataset::load::<ShogiPos>(&DataOptions {
            train_files: vec![p],
            ..Default::default()
        })
    };
    let e = one(dir.join("notes.md")).unwrap_err();
    assert!(e.contains("notes.md") && e.contains(".csa"), "{e}");
    assert!(one(dir.join("nothing.csa")).is_err());
    // A single CSA file: its two good games, the bad one reported.
    let ds = one(dir.join("a_games.csa")).unwrap();
    assert_eq!((ds.games_read, ds.errors.len()), (2, 1));
    // Chess reads no shogi formats: the directory holds nothing for it.
    let ds = dataset::load::<ChessPos>(&DataOptions {
        train_files: vec![dir],
        ..Default::default()
    })
    .unwrap();
    assert_eq!((ds.games_read, ds.ignored_files), (0, 5));
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn chess_pgn_and_epd_load_like_the_line_format() {
    let base = tmpdir("chess");
    let (dir, line) = chess_dir(&base);
    let from_dir = load::<ChessPos>(DataOptions {
        train_files: vec![dir],
        ..Default::default()
    });
    let from_line = load::<ChessPos>(DataOptions {
        train_files: vec![line],
        ..Default::default()
    });
    assert!(from_line.errors.is_empty(), "{:?}", from_line.errors);
    assert_eq!(from_dir.games_read, 5, "{:?}", from_dir.errors);
    assert_eq!(from_line.games_read, 5);
    assert_eq!(pairs(&from_dir.train), pairs(&from_line.train));
    let moves: Vec<String> = pairs(&from_dir.train)[15..]
        .iter()
        .map(|p| p.1.clone())
        .collect();
    assert_eq!(moves, ["f1b5", "b3b2", "g1f3"]);
    assert_eq!(from_dir.errors.len(), 2, "{:?}", from_dir.errors);
    error_at(&from_dir.errors, "games.pgn", 10, "Ke3");
    error_at(
        &from_dir.errors,
        "positions.epd",
        3,
        "no move to learn from",
    );
    assert_eq!(from_dir.ignored_files, 1);
    let _ = std::fs::remove_dir_all(&base);
}

fn kishi(args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kishi"))
        .args(args)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn kishi_learn_on_a_pgn_directory_learns_what_the_line_format_gives() {
    let base = tmpdir("cli");
    let (dir, line) = chess_dir(&base);
    let run = |data: &Path, out: &Path| {
        kishi(&[
            "learn",
            "mmto",
            "--game",
            "chess",
            "--data",
            data.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--iterations",
            "1",
            "--reuse",
            "2",
            "--threads",
            "1",
            "--quiet",
        ])
    };
    let (ok, text) = run(&dir, &base.join("from_dir"));
    assert!(ok, "{text}");
    assert!(
        text.contains("5 games read, 18 training and 0 test positions"),
        "{text}"
    );
    assert!(text.contains("2 malformed records skipped"), "{text}");
    assert!(
        text.contains("games.pgn:10: move 3: 'Ke3'"),
        "the error names file and line: {text}"
    );
    assert!(text.contains("ignored 1 files"), "{text}");
    let (ok, text_line) = run(&line, &base.join("from_line"));
    assert!(ok, "{text_line}");
    let params = |d: &str| std::fs::read(base.join(d).join("params.bin")).unwrap();
    assert_eq!(params("from_dir"), params("from_line"));
    // And the run learned something, so that equal parameters mean equal data.
    let start = run::initial_params::<ChessPos, ChessFeatures>(
        &LearnArgs::parse(
            &["mmto", "--game", "chess", "--data", "x", "--out", "y"].map(String::from),
            None,
        )
        .unwrap(),
    )
    .unwrap();
    let learned = kishi::learn::checkpoint::read_params(
        &base.join("from_dir").join("params.bin"),
        ChessFeatures::num_params(),
    )
    .unwrap();
    assert_ne!(learned, start);
    let _ = std::fs::remove_dir_all(&base);
}

fn shogi_args(data: &Path, out: &Path, extra: &[&str]) -> LearnArgs {
    let mut a: Vec<String> = [
        "mmto",
        "--game",
        "shogi",
        "--data",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--tables",
        "A,B",
        "--iterations",
        "1",
        "--reuse",
        "4",
        "--threads",
        "1",
        "--quiet",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend(extra.iter().map(|s| s.to_string()));
    LearnArgs::parse(&a, None).unwrap()
}

#[test]
fn init_from_an_expanded_shogi_weight_file_equals_init_from_params_bin() {
    let base = tmpdir("init");
    let data = base.join("games.txt");
    write(&data, &shogi_lines());
    let first = base.join("first");
    let mut sink = Vec::new();
    run::run::<ShogiPos, Bonanza>(&shogi_args(&data, &first, &[]), &mut sink).unwrap();
    let learned =
        kishi::learn::checkpoint::read_params(&first.join("params.bin"), Bonanza::num_params())
            .unwrap();
    // The file must hold an expanded KP table for the test to mean anything.
    let w =
        Weights::load::<ShogiPos, Bonanza>(&first.join("weights.kwt"), kishi::eval::Verify::All)
            .unwrap();
    assert!(w.has(T_KP));
    assert_eq!(w.i16(T_KP).len(), 81 * FE_END);
    let nonzero_kp = learned[OFF_KP..OFF_KPP].iter().filter(|&&v| v != 0).count();
    assert!(nonzero_kp > 100, "{nonzero_kp}");

    let init = |from: &str, to: &str| {
        let file = first.join(from);
        let out = base.join(to);
        let a = shogi_args(&data, &out, &["--init", file.to_str().unwrap()]);
        let p = run::initial_params::<ShogiPos, Bonanza>(&a).unwrap();
        let s = run::run::<ShogiPos, Bonanza>(&a, &mut Vec::new()).unwrap();
        (p, std::fs::read(out.join("initial.kwt")).unwrap(), s.params)
    };
    let (p_w, kwt_w, end_w) = init("weights.kwt", "from_weights");
    let (p_p, kwt_p, end_p) = init("params.bin", "from_params");
    assert_eq!(p_p, learned);
    assert!(p_w == learned, "folded weights differ from params.bin");
    assert_eq!(kwt_w, kwt_p);
    assert_eq!(end_w, end_p);
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn init_refuses_a_weight_file_whose_mirror_tied_entries_differ() {
    let base = tmpdir("asym");
    let data = base.join("games.txt");
    write(&data, &shogi_lines());
    // One KP parameter set: king on square 0 (left edge), condition 100; its mirror image is the
    // only other entry tied to it.
    let mut params = vec![0i32; Bonanza::num_params()];
    params[..13].copy_from_slice(&kishi::shogi::features::BONANZA_MATERIAL);
    let p = kp_param(0, 100);
    params[OFF_KP + p] = 7;
    let mut tables: Vec<Option<OwnedTable>> = Bonanza::expand(&params)
        .unwrap()
        .into_iter()
        .map(Some)
        .collect();
    tables[T_KPP] = None;
    tables[T_KKP] = None;
    let tied: Vec<usize> = (0..81 * FE_END)
        .filter(|&e| kp_param(e / FE_END, e % FE_END) == p)
        .collect();
    assert_eq!(tied.len(), 2, "{tied:?}");
    let good = base.join("good.kwt");
    kishi::eval::write_weight_file::<ShogiPos, Bonanza>(&good, &tables, "{}").unwrap();
    if let Some(OwnedTable::I16(kp)) = &mut tables[T_KP] {
        kp[tied[1]] = 8;
    }
    let bad = base.join("bad.kwt");
    kishi::eval::write_weight_file::<ShogiPos, Bonanza>(&bad, &tables, "{}").unwrap();
    let init = |f: &Path| {
        let a = shogi_args(&data, &base.join("out"), &["--init", f.to_str().unwrap()]);
        run::initial_params::<ShogiPos, Bonanza>(&a)
    };
    assert_eq!(init(&good).unwrap(), params);
    let e = init(&bad).unwrap_err();
    let (k, j) = (tied[1] / FE_END, tied[1] % FE_END);
    for needle in [
        "bad.kwt".to_string(),
        format!("kp[{k}][{j}] (index {}) is 8", tied[1]),
        format!("kp[0][100] (index {})", tied[0]),
    ] {
        assert!(e.contains(&needle), "'{needle}' not in: {e}");
    }
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn fold_inverts_expand_for_every_shogi_table_and_checks_kpp_pairs() {
    // Material, KP and KKP random; a few thousand KPP parameters (all of them would need 180 MB
    // more and change nothing in the index arithmetic).
    let mut params = kishi::shogi::features::random_params(11, 50);
    let mut rng = kishi::learn::dataset::Rng(5);
    let n_kpp = Bonanza::num_params() - OFF_KPP;
    params[OFF_KPP..].fill(0);
    for _ in 0..5000 {
        let i = OFF_KPP + rng.below(n_kpp as u64) as usize;
        params[i] = rng.below(199) as i32 - 99;
    }
    let w = Weights::from_params::<ShogiPos, Bonanza>(&params, "{}").unwrap();
    assert!(w.has(T_KPP));
    let folded = Bonanza::fold(&w).unwrap();
    assert!(folded == params, "fold(expand(p)) != p");
    drop(w);

    // Break one transposed KPP pair: kpp[k][a][b] != kpp[k][b][a].
    let (k, a, b) = (40, 300, 20);
    let q = kpp_param(k, a, b);
    params[OFF_KPP + q] = 5;
    let mut tables: Vec<Option<OwnedTable>> = Bonanza::expand(&params)
        .unwrap()
        .into_iter()
        .map(Some)
        .collect();
    let fe = FE_END;
    if let Some(OwnedTable::I16(kpp)) = &mut tables[T_KPP] {
        assert_eq!(kpp[(k * fe + a) * fe + b], 5);
        kpp[(k * fe + a) * fe + b] = 6;
    }
    let w = Weights::from_tables::<ShogiPos, Bonanza>(&tables, "{}", "test").unwrap();
    let e = Bonanza::fold(&w).unwrap_err();
    assert!(e.contains(&format!("kpp[{k}][{a}][{b}]")), "{e}");
}

#[test]
fn skip_plies_keeps_epd_entries_of_unknown_move_number_and_reads_fmvn() {
    let base = tmpdir("skip-epd");
    let epd = base.join("p.epd");
    // No clocks (move number unknown: kept); fmvn 1 (ply 0: skipped); clocks at move 20 (kept);
    // hmvc only (move number still unknown: kept).
    write(
        &epd,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - sm e4;\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - sm d4; fmvn 1;\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 20 sm c4;\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - sm Nf3; hmvc 3;\n",
    );
    let ds: Dataset<ChessPos> = load(DataOptions {
        train_files: vec![epd],
        skip_plies: 2,
        ..Default::default()
    });
    let moves: Vec<String> = pairs(&ds.train).into_iter().map(|(_, m)| m).collect();
    assert_eq!(moves, ["e2e4", "c2c4", "g1f3"], "{:?}", ds.errors);
    // fmvn sets the move number of the position itself.
    let e =
        kishi::chess::records::epd::parse_epd("8/8/8/8/8/8/8/K6k w - - fmvn 31; hmvc 7;").unwrap();
    assert_eq!(e.pos.ply(), 60);
    assert_eq!(e.pos.reversible_plies(), 7);
    assert!(e.move_number_known);
    let _ = std::fs::remove_dir_all(&base);
}

fn select_chess(wanted: &[&str]) -> Result<kishi::learn::learned::Learned, String> {
    let wanted: Vec<String> = wanted.iter().map(|w| w.to_string()).collect();
    kishi::learn::learned::Learned::select::<ChessPos, ChessFeatures>(&wanted, false)
}

#[test]
fn tables_all_selects_every_table_and_unknown_names_are_refused() {
    use kishi::learn::learned::Learned;
    let every = Learned::table_ranges::<ChessPos, ChessFeatures>();
    let letters: Vec<String> = (0..every.len())
        .map(|k| ((b'A' + k as u8) as char).to_string())
        .collect();
    let letters: Vec<&str> = letters.iter().map(String::as_str).collect();
    let (all, listed) = (
        select_chess(&["all"]).unwrap(),
        select_chess(&letters).unwrap(),
    );
    assert_eq!(all.tables, listed.tables);
    assert_eq!(all.mask, vec![true; every.len()]);
    assert_eq!(select_chess(&["ALL", "kp"]).unwrap().tables, listed.tables);
    // One table fewer is not "all".
    assert_ne!(
        select_chess(&letters[..letters.len() - 1]).unwrap().mask,
        all.mask
    );
    let err = select_chess(&["material", "every"]).unwrap_err();
    assert!(err.contains("unknown table 'every'"), "{err}");
}
