//! `kishi learn <mmto|ct|texel|treestrap|rootstrap|tdleaf|results> …`: the learners on the command line
//! (the same clap parsers as the console's `learn`).

use crate::learn::{help_text, ArgsError, LearnArgs};

/// Runs the learner with the words after `learn`; returns the exit code.
pub fn run(args: &[String]) -> i32 {
    if args
        .first()
        .is_some_and(|m| crate::learn::treestrap::is_selfplay_method(m))
    {
        return run_selfplay(args);
    }
    if args
        .first()
        .is_some_and(|m| crate::learn::texel::is_texel(m))
    {
        return run_texel(args);
    }
    if args
        .first()
        .is_some_and(|m| crate::learn::results::is_results(m))
    {
        return run_results(args);
    }
    let a = match LearnArgs::try_parse(args, None) {
        Ok(a) => a,
        Err(ArgsError::Help) => {
            print!("{}", help_text());
            return 0;
        }
        Err(e) => {
            let text = e.full_text();
            eprint!("{text}");
            if !text.ends_with('\n') {
                eprintln!();
            }
            return 2;
        }
    };
    let mut out = std::io::stdout();
    match crate::games::learn(&a, &mut out) {
        Ok(s) => {
            println!("{}", s.describe());
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// Runs a parsed learner: its help (exit 0), its usage error (exit 2), or the run, whose
/// summary line goes to stdout (exit 0) or whose error to stderr (exit 2).
fn run_parsed<A>(
    parsed: Result<A, Option<String>>,
    help: &str,
    learn: impl FnOnce(&A, &mut std::io::Stdout) -> Result<String, String>,
) -> i32 {
    let a = match parsed {
        Ok(a) => a,
        Err(None) => {
            print!("{help}");
            return 0;
        }
        Err(Some(text)) => {
            eprint!("{text}");
            if !text.ends_with('\n') {
                eprintln!();
            }
            return 2;
        }
    };
    match learn(&a, &mut std::io::stdout()) {
        Ok(summary) => {
            println!("{summary}");
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// `kishi learn treestrap|rootstrap|tdleaf …`: self-play learning (`crate::learn::treestrap`).
fn run_selfplay(args: &[String]) -> i32 {
    use crate::learn::treestrap::{help_text, SelfPlayArgs};
    run_parsed(
        SelfPlayArgs::try_parse(args, None),
        &help_text(),
        |a, out| crate::games::learn_selfplay(a, out).map(|s| s.describe(a.variant.name())),
    )
}

/// `kishi learn texel …`: regression on labelled positions (`crate::learn::texel`).
fn run_texel(args: &[String]) -> i32 {
    use crate::learn::texel::{help_text, TexelArgs};
    run_parsed(TexelArgs::try_parse(args, None), &help_text(), |a, out| {
        crate::games::learn_texel(a, out).map(|s| s.describe())
    })
}

/// `kishi learn results …`: generations of self-play games, each fitted to the games' results
/// (`crate::learn::results`).
fn run_results(args: &[String]) -> i32 {
    use crate::learn::results::{help_text, ResultsArgs};
    run_parsed(
        ResultsArgs::try_parse(args, None),
        &help_text(),
        |a, out| crate::games::learn_results(a, out).map(|s| s.describe()),
    )
}
