//! `kishi learn <mmto|ct> …`: the learner on the command line (the same clap parser as the
//! console's `learn`, `crate::learn::args`).

use crate::learn::{help_text, ArgsError, LearnArgs};

/// Runs the learner with the words after `learn`; returns the exit code.
pub fn run(args: &[String]) -> i32 {
    if args
        .first()
        .is_some_and(|m| crate::learn::treestrap::is_selfplay_method(m))
    {
        return run_selfplay(args);
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

/// `kishi learn treestrap|rootstrap|tdleaf …`: self-play learning (`crate::learn::treestrap`).
fn run_selfplay(args: &[String]) -> i32 {
    use crate::learn::treestrap::{help_text, SelfPlayArgs};
    let a = match SelfPlayArgs::try_parse(args, None) {
        Ok(a) => a,
        Err(None) => {
            print!("{}", help_text());
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
    let mut out = std::io::stdout();
    match crate::games::learn_selfplay(&a, &mut out) {
        Ok(s) => {
            println!("{}", s.describe(a.variant.name()));
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
