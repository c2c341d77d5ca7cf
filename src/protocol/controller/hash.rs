//! The hash option applied to the engine: a size that cannot be allocated is one
//! `info string error: …` line naming the size that failed and the size kept, and the engine goes
//! on with the table it had (a GUI dialog must never be able to abort the process).

use super::super::engine::Engine;
use super::super::options::Options;
use super::{Controller, EvalOf, Flavour};
use std::collections::TryReserveError;

impl<F: Flavour> Controller<F> {
    /// The engine for the first `isready`/`go`, with the hash size asked for; when that size
    /// cannot be had, with the option's default size (there is no previous table to keep yet).
    pub(super) fn build_engine(
        &mut self,
        eval: EvalOf<F>,
        threads: usize,
        hash: usize,
        cause: &str,
    ) -> Engine<F::G, EvalOf<F>> {
        match Engine::try_new(eval, threads, hash) {
            Ok(e) => {
                self.applied_threads_hash = (threads, hash);
                e
            }
            Err((eval, err)) => {
                let default = F::threads_and_hash(&Options::new(F::option_specs())).1;
                let e = Engine::new(eval, threads, default);
                self.hash_failed(hash, e.hash_mb(), &err, cause);
                self.applied_threads_hash = (threads, default);
                e
            }
        }
    }

    /// Resizes the table of a built engine (no search runs); on failure the old table stays.
    pub(super) fn resize_hash(
        &mut self,
        engine: &mut Engine<F::G, EvalOf<F>>,
        hash: usize,
        cause: &str,
    ) {
        if self.failed_hash == Some(hash) {
            return; // reported once; a new `setoption` of the size clears this and tries again
        }
        match engine.try_set_hash_mb(hash) {
            Ok(()) => self.applied_threads_hash.1 = hash,
            Err(err) => self.hash_failed(hash, engine.hash_mb(), &err, cause),
        }
    }

    fn hash_failed(&mut self, asked: usize, kept: usize, err: &TryReserveError, cause: &str) {
        self.failed_hash = Some(asked);
        let name = if F::USI { "USI_Hash" } else { "Hash" };
        self.out.line(&format!(
            "info string error: {name} {asked} MB cannot be allocated ({err}), keeping the {kept} MB table: {cause}"
        ));
    }
}
