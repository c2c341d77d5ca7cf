//! `kishi learn <mmto|ct> …`: the learner on the command line (same parser as the console's `learn`).

pub fn run(args: &[String]) -> i32 {
    if matches!(
        args.first().map(String::as_str),
        None | Some("help" | "--help" | "-h")
    ) {
        print!("{}", crate::learn::USAGE);
        return 0;
    }
    let mut out = std::io::stdout();
    match crate::games::learn(args, None, &mut out) {
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
