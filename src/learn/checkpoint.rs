//! Checkpoints and parameter files of the learner, written atomically (temp file, fsync, rename) so
//! that a `kill -9` at any moment leaves the last complete iteration on disk.
//!
//! Layout (little-endian): magic `KISHICKP`, version u32, iteration u32, rng u64, metrics lines
//! u64, fingerprint (u32 length + UTF-8), parameters, shadow count u64 + f64s; version 3 adds the
//! best test agreement so far (f64, negative = none), the number of updates of the weights that
//! reached it (u32), the step-1 measurements since then (u32), and the last iteration's objective,
//! train and test agreement (3 × f64, for the provenance of files written after a resume).
//! Version 2 files are still read.
//! A params file is magic `KISHIPRM` then parameters. Parameters are stored as count u64 then runs
//! of (zeros u32, literal count u32, literal i32s): early stages leave tens of millions of weights
//! at zero, and the files stay small.

use crate::eval::format::write_atomic;
use byteorder::{ByteOrder, LittleEndian as LE};
use std::path::Path;

const CKPT_MAGIC: &[u8; 8] = b"KISHICKP";
const PARAMS_MAGIC: &[u8; 8] = b"KISHIPRM";
const VERSION: u32 = 3;

fn put_params(b: &mut Vec<u8>, params: &[i32]) {
    b.extend_from_slice(&(params.len() as u64).to_le_bytes());
    let mut i = 0;
    while i < params.len() {
        let z0 = i;
        while i < params.len() && params[i] == 0 && i - z0 < u32::MAX as usize {
            i += 1;
        }
        let l0 = i;
        while i < params.len() && params[i] != 0 && i - l0 < u32::MAX as usize {
            i += 1;
        }
        b.extend_from_slice(&((l0 - z0) as u32).to_le_bytes());
        b.extend_from_slice(&((i - l0) as u32).to_le_bytes());
        for v in &params[l0..i] {
            b.extend_from_slice(&v.to_le_bytes());
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    pub iteration: u32,
    pub rng: u64,
    pub metrics_lines: u64,
    /// The settings that must not change across a resume.
    pub fingerprint: String,
    pub params: Vec<i32>,
    /// Real-valued weights of comparison training (empty for MMTO).
    pub shadow: Vec<f64>,
    /// Early-stopping state (`--patience`, `best.kwt`).
    pub best: BestSoFar,
    /// The last iteration's objective, train and test agreement.
    pub last: [f64; 3],
}

/// The best test agreement (ties as misses) measured so far, for `best.kwt` and `--patience`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BestSoFar {
    /// Negative when nothing has been measured yet.
    pub agreement: f64,
    /// How many updates the weights that reached it had had (0 = the initial weights).
    pub updates: u32,
    /// Step-1 test measurements since the best one.
    pub since: u32,
}

impl Default for BestSoFar {
    fn default() -> Self {
        BestSoFar {
            agreement: -1.0,
            updates: 0,
            since: 0,
        }
    }
}

struct Cursor<'a> {
    b: &'a [u8],
    at: usize,
    name: String,
}

/// A file's bytes and its name for error messages.
fn read_file(path: &Path) -> Result<(Vec<u8>, String), String> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    Ok((bytes, name))
}

impl<'a> Cursor<'a> {
    /// A cursor after the file's magic bytes, which must be `magic` (else "not a kishi `what`").
    fn open(b: &'a [u8], name: String, magic: &[u8], what: &str) -> Result<Self, String> {
        let mut c = Cursor { b, at: 0, name };
        if c.take(magic.len())? != magic {
            return Err(format!("{}: not a kishi {what}", c.name));
        }
        Ok(c)
    }
    /// Every byte must have been read.
    fn finish(&self) -> Result<(), String> {
        if self.at != self.b.len() {
            return Err(format!("{}: trailing bytes", self.name));
        }
        Ok(())
    }
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.b.len());
        match end {
            Some(e) => {
                let s = &self.b[self.at..e];
                self.at = e;
                Ok(s)
            }
            None => Err(format!("{}: truncated", self.name)),
        }
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(LE::read_u32(self.take(4)?))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(LE::read_u64(self.take(8)?))
    }
    fn params(&mut self) -> Result<Vec<i32>, String> {
        let n = self.u64()? as usize;
        if n > 1 << 31 {
            return Err(format!("{}: bad parameter count {n}", self.name));
        }
        let mut v = Vec::with_capacity(n);
        while v.len() < n {
            let zeros = self.u32()? as usize;
            let lits = self.u32()? as usize;
            if v.len() + zeros + lits > n || zeros + lits == 0 {
                return Err(format!("{}: bad parameter run", self.name));
            }
            v.resize(v.len() + zeros, 0);
            let bytes = self.take(lits.checked_mul(4).ok_or("overflow")?)?;
            v.extend(bytes.chunks_exact(4).map(LE::read_i32));
        }
        Ok(v)
    }

    fn count(&mut self, elem: usize) -> Result<usize, String> {
        let n = self.u64()? as usize;
        if n.checked_mul(elem).is_none_or(|b| b > self.b.len()) {
            return Err(format!("{}: bad length {n}", self.name));
        }
        Ok(n)
    }
}

impl Checkpoint {
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let mut b = Vec::with_capacity(64 + self.params.len() * 4 + self.shadow.len() * 8);
        b.extend_from_slice(CKPT_MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&self.iteration.to_le_bytes());
        b.extend_from_slice(&self.rng.to_le_bytes());
        b.extend_from_slice(&self.metrics_lines.to_le_bytes());
        b.extend_from_slice(&(self.fingerprint.len() as u32).to_le_bytes());
        b.extend_from_slice(self.fingerprint.as_bytes());
        put_params(&mut b, &self.params);
        b.extend_from_slice(&(self.shadow.len() as u64).to_le_bytes());
        for s in &self.shadow {
            b.extend_from_slice(&s.to_le_bytes());
        }
        b.extend_from_slice(&self.best.agreement.to_le_bytes());
        b.extend_from_slice(&self.best.updates.to_le_bytes());
        b.extend_from_slice(&self.best.since.to_le_bytes());
        for x in self.last {
            b.extend_from_slice(&x.to_le_bytes());
        }
        write_atomic(path, &b)
    }

    pub fn read(path: &Path) -> Result<Checkpoint, String> {
        let (bytes, name) = read_file(path)?;
        let mut c = Cursor::open(&bytes, name.clone(), CKPT_MAGIC, "learner checkpoint")?;
        let v = c.u32()?;
        if v != VERSION && v != 2 {
            return Err(format!(
                "{name}: checkpoint version {v}, expected {VERSION}"
            ));
        }
        let iteration = c.u32()?;
        let rng = c.u64()?;
        let metrics_lines = c.u64()?;
        let flen = c.u32()? as usize;
        let fingerprint = String::from_utf8(c.take(flen)?.to_vec())
            .map_err(|_| format!("{name}: bad fingerprint"))?;
        let params = c.params()?;
        let m = c.count(8)?;
        let shadow = c.take(m * 8)?.chunks_exact(8).map(LE::read_f64).collect();
        let (best, last) = if v >= 3 {
            let best = BestSoFar {
                agreement: LE::read_f64(c.take(8)?),
                updates: c.u32()?,
                since: c.u32()?,
            };
            let mut last = [0.0; 3];
            for x in &mut last {
                *x = LE::read_f64(c.take(8)?);
            }
            (best, last)
        } else {
            (BestSoFar::default(), [f64::NAN, 0.0, 0.0])
        };
        c.finish()?;
        Ok(Checkpoint {
            iteration,
            rng,
            metrics_lines,
            fingerprint,
            params,
            shadow,
            best,
            last,
        })
    }
}

pub fn write_params(path: &Path, params: &[i32]) -> Result<(), String> {
    let mut b = Vec::with_capacity(16 + params.len() * 4);
    b.extend_from_slice(PARAMS_MAGIC);
    put_params(&mut b, params);
    write_atomic(path, &b)
}

pub fn read_params(path: &Path, expected: usize) -> Result<Vec<i32>, String> {
    let (bytes, name) = read_file(path)?;
    let mut c = Cursor::open(&bytes, name.clone(), PARAMS_MAGIC, "params file")?;
    let v = c.params()?;
    if v.len() != expected {
        return Err(format!(
            "{name}: {} parameters, the feature set has {expected}",
            v.len()
        ));
    }
    c.finish()?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoint_round_trips_and_truncation_is_refused() {
        let dir = std::env::temp_dir().join(format!("kishi-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("c.bin");
        let c = Checkpoint {
            iteration: 7,
            rng: 99,
            metrics_lines: 7,
            fingerprint: "mmto a=0.0273".into(),
            params: vec![0, 0, 1, -2, 0, 3, 0],
            shadow: vec![0.5],
            best: BestSoFar {
                agreement: 0.25,
                updates: 3,
                since: 2,
            },
            last: [0.5, 0.25, 0.125],
        };
        c.write(&p).unwrap();
        assert_eq!(Checkpoint::read(&p).unwrap(), c);
        let bytes = std::fs::read(&p).unwrap();
        std::fs::write(&p, &bytes[..bytes.len() - 3]).unwrap();
        assert!(Checkpoint::read(&p).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
