//! `kishi learn <mmto|ct> …`: the learner on the command line (the same clap parser as the
//! console's `learn`, `crate::learn::args`).

use crate::learn::{help_text, ArgsError, LearnArgs};

/// Runs the learner with the words after `learn`; returns the exit code.
pub fn run(args: &[String]) -> i32 {
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
