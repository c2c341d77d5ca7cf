//! The `kishi` binary: with no arguments, the USI/UCI protocol loop on stdin; otherwise a subcommand.

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(kishi::cli::run(&args));
}
