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
        (&["weights", "no-such"], "unrecognized subcommand 'no-such'"),
        (
            &["weights", "verify"],
            "required arguments were not provided",
        ),
        (
            &["weights", "eval", "go", "default", "startpos"],
            "invalid value 'go'",
        ),
        (
            &["weights", "make-random", "chess", "x", "--seed", "abc"],
            "invalid value 'abc' for '--seed <SEED>'",
        ),
        (
            &["weights", "make-random", "chess", "x", "--spread", "40000"],
            "invalid value '40000' for '--spread <R>'",
        ),
        (
            &["weights", "annotate", "f", "--out", "g", "--set", "novalue"],
            "expected KEY=VALUE",
        ),
        (
            &[
                "weights",
                "annotate",
                "f",
                "--out",
                "g",
                "--set-json",
                "k={",
            ],
            "k: not JSON",
        ),
        (&["weights", "annotate", "f"], "--out <OUT>"),
        (&["weights", "hold", "f", "soon"], "invalid value 'soon'"),
        (
            &["weights", "bench", "chess", "default", "0"],
            "invalid value '0'",
        ),
        (
            &["weights", "evalbench", "chess", "default", "-1"],
            "unexpected argument '-1'",
        ),
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
    // On a machine whose weight cache is still empty, `isready` first unpacks the built-in
    // evaluation and says so in two lines of its own; they are not part of this test.
    let after: Vec<&String> = lines
        .iter()
        .skip_while(|l| l.as_str() != "usiok")
        .skip(1)
        .filter(|l| !l.starts_with("info string unpack"))
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

#[test]
fn weights_help_lists_its_subcommands() {
    let out = kishi(&["weights", "--help"]);
    assert!(out.status.success());
    let help = text(&out.stdout);
    for word in [
        "Usage: kishi weights <COMMAND>",
        "inspect",
        "verify",
        "make-random",
        "annotate",
        "hold",
        "eval",
        "bench",
        "evalbench",
        "eval_weights/",
    ] {
        assert!(help.contains(word), "{word} missing from:\n{help}");
    }
    // Without a subcommand: the help on stderr and a non-zero exit.
    let out = kishi(&["weights"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("Usage: kishi weights <COMMAND>"));
    // `weights help` is the same text.
    assert_eq!(text(&kishi(&["weights", "help"]).stdout), help);
    let sub = text(&kishi(&["weights", "make-random", "--help"]).stdout);
    assert!(
        sub.contains("--seed <SEED>") && sub.contains("[default: 64]"),
        "{sub}"
    );
}

#[test]
fn weights_subcommands_read_their_words_and_fail_the_work_with_exit_1() {
    let dir = std::env::temp_dir().join(format!("kishi-cli-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("r.kwt");
    let f = file.to_str().expect("utf-8 path");
    let out = kishi(&[
        "weights",
        "make-random",
        "chess",
        f,
        "--spread",
        "5",
        "--seed",
        "7",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let inspect = text(&kishi(&["weights", "inspect", f]).stdout);
    assert!(
        inspect.contains("\"seed\":7,\"spread\":5"),
        "the options reached make-random: {inspect}"
    );
    let out = kishi(&[
        "weights",
        "annotate",
        f,
        "--out",
        f,
        "--set-json",
        "k=1",
        "--set",
        "k=text",
        "--set",
        "n=a=b",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let inspect = text(&kishi(&["weights", "inspect", f]).stdout);
    assert!(
        inspect.contains("\"k\":1") && inspect.contains("\"n\":\"a=b\""),
        "--set-json is applied after --set; the value keeps its '=': {inspect}"
    );
    let eval = text(&kishi(&["weights", "eval", "chess", f, "startpos"]).stdout);
    assert!(
        eval.lines().any(|l| l.starts_with("total")),
        "eval prints a total: {eval}"
    );
    // The words are right but the work fails: error on stderr, exit code 1, nothing on stdout.
    let missing = dir.join("missing.kwt");
    for args in [
        vec!["weights", "verify", missing.to_str().expect("utf-8")],
        vec!["weights", "eval", "chess", "default", "not a fen"],
        vec!["weights", "bench", "shogi", f, "1"],
    ] {
        let out = kishi(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains("error: "), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    }
    let _ = std::fs::remove_dir_all(dir);
}
