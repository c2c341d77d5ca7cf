//! The command line and the console's `learn` read their words with clap: help and version, clear
//! errors with a non-zero exit, the same help text for `kishi learn --help` and the console's
//! `learn help`, and one `info string error:` line for a bad console `learn`, after which the engine
//! goes on.

use kishi::learn::LearnArgs;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn kishi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kishi"))
        .args(args)
        .output()
        .expect("run kishi")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

/// Runs the protocol loop on `input`; returns stdout's lines.
fn console(input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kishi"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn kishi");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("kishi output");
    text(&out.stdout).lines().map(String::from).collect()
}

#[test]
fn help_and_version_succeed_and_name_the_subcommands() {
    let out = kishi(&["--help"]);
    assert!(out.status.success());
    let help = text(&out.stdout);
    for word in ["Usage: kishi", "perft", "bench", "learn", "weights"] {
        assert!(help.contains(word), "{word} missing from:\n{help}");
    }
    let out = kishi(&["--version"]);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout).trim(), "kishi 0.1.0");
}

#[test]
fn bad_words_are_clear_errors_with_a_non_zero_exit() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["learn", "mmto", "--iterations", "abc"],
            "invalid value 'abc' for '--iterations <N>'",
        ),
        (
            &["learn", "mmto", "--no-such-option", "1"],
            "--no-such-option",
        ),
        (&["learn", "sgd", "--game", "chess"], "invalid value 'sgd'"),
        (
            &[
                "learn", "mmto", "--game", "chess", "--data", "x", "--out", "y", "--depth", "9",
            ],
            "--depth must be 1..8",
        ),
        (&["bench", "shogi", "0"], "invalid value '0'"),
        (&["perft", "chess", "startpos", "21"], "invalid value '21'"),
        (&["perft", "go", "startpos", "1"], "invalid value 'go'"),
        (&["no-such-command"], "unrecognized subcommand"),
    ];
    for (args, needle) in cases {
        let out = kishi(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(
            err.contains(needle),
            "{args:?}: expected '{needle}' in: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    }
}

#[test]
fn learn_help_is_the_same_text_on_the_command_line_and_at_the_console() {
    let cli = text(&kishi(&["learn", "--help"]).stdout);
    for option in [
        "--game",
        "--split",
        "--tables",
        "--patience",
        "--ct-rate",
        "[default: 40]",
    ] {
        assert!(cli.contains(option), "{option} missing from:\n{cli}");
    }
    let want: Vec<String> = cli.lines().map(|l| l.trim_end().to_string()).collect();
    for words in [&["learn", "help"][..], &["learn", "-h"], &["learn"]] {
        let t = text(&kishi(words).stdout);
        assert_eq!(
            t.lines().map(str::trim_end).collect::<Vec<_>>(),
            want,
            "{words:?}"
        );
    }
    for cmd in ["usi", "uci"] {
        let lines = console(&format!("{cmd}\nlearn help\nquit\n"));
        let got: Vec<String> = lines
            .iter()
            .filter_map(|l| l.strip_prefix("info string"))
            .map(|l| l.strip_prefix(' ').unwrap_or(l).to_string())
            .collect();
        assert_eq!(got, want, "{cmd}");
    }
}

#[test]
fn a_bad_console_learn_is_one_error_line_and_the_engine_goes_on() {
    let lines = console(
        "usi\nlearn mmto --iterations abc\nlearn mmto --bogus\nlearn mmto --out x\nisready\nquit\n",
    );
    let after: Vec<&String> = lines
        .iter()
        .skip_while(|l| l.as_str() != "usiok")
        .skip(1)
        .collect();
    assert_eq!(after.len(), 4, "{lines:?}");
    assert!(after[0].starts_with("info string error: invalid value 'abc' for '--iterations <N>'"));
    assert!(
        after[0].ends_with(": learn mmto --iterations abc"),
        "{}",
        after[0]
    );
    assert!(after[1].starts_with("info string error: unexpected argument '--bogus'"));
    assert!(
        after[2].starts_with("info string error: no training data"),
        "{}",
        after[2]
    );
    assert_eq!(after[3], "readyok");
}

#[test]
fn learn_words_keep_their_old_meaning() {
    let parse = |extra: &[&str]| {
        let mut a: Vec<String> = ["mmto", "--game", "chess", "--data", "d", "--out", "o"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        a.extend(extra.iter().map(|s| s.to_string()));
        LearnArgs::parse(&a, None)
    };
    let a = parse(&[]).expect("defaults");
    assert_eq!((a.iterations, a.reuse, a.depth, a.threads), (40, 32, 1, 1));
    assert_eq!(
        (a.a, a.l1, a.window, a.piece_sum),
        (0.00341, 0.156 / 32.0, 2053, None)
    );
    assert_eq!(a.tables, vec!["A".to_string()]);
    // A repeated option: the last one counts, as before clap.
    assert_eq!(
        parse(&["--iterations", "3", "--iterations", "5"])
            .unwrap()
            .iterations,
        5
    );
    // Negative numbers are values, not options.
    assert_eq!(parse(&["--piece-sum", "-5"]).unwrap().piece_sum, Some(-5));
    assert_eq!(
        parse(&["--a", "-1"]).unwrap_err(),
        "--a must be a positive number"
    );
    let s = LearnArgs::parse(
        &["ct", "--data", "d", "--out", "o"].map(String::from),
        Some("shogi"),
    )
    .expect("the console's game");
    assert_eq!(
        (s.game.as_str(), s.window, s.piece_sum),
        ("shogi", 256, Some(6500))
    );
    assert!(parse(&["--threads", "999"]).unwrap().threads == 256);
}
