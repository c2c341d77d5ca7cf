//! Checkpoints and parameter files of the learner, written atomically (temp file, fsync, rename) so
//! that a `kill -9` at any moment leaves the last complete iteration on disk.
//!
//! Layout (little-endian): magic `KISHICKP`, version u32, iteration u32, rng u64, metrics lines
//! u64, fingerprint (u32 length + UTF-8), parameter count u64 + i32s, shadow count u64 + f64s.
//! A params file is magic `KISHIPRM`, count u64, i32s.

use crate::eval::format::write_atomic;
use byteorder::{ByteOrder, LittleEndian as LE};
use std::path::Path;

const CKPT_MAGIC: &[u8; 8] = b"KISHICKP";
const PARAMS_MAGIC: &[u8; 8] = b"KISHIPRM";
const VERSION: u32 = 1;

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
}

struct Cursor<'a> {
    b: &'a [u8],
    at: usize,
    name: String,
}

impl Cursor<'_> {
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
        b.extend_from_slice(&(self.params.len() as u64).to_le_bytes());
        for p in &self.params {
            b.extend_from_slice(&p.to_le_bytes());
        }
        b.extend_from_slice(&(self.shadow.len() as u64).to_le_bytes());
        for s in &self.shadow {
            b.extend_from_slice(&s.to_le_bytes());
        }
        write_atomic(path, &b)
    }

    pub fn read(path: &Path) -> Result<Checkpoint, String> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
        let mut c = Cursor {
            b: &bytes,
            at: 0,
            name: name.clone(),
        };
        if c.take(8)? != CKPT_MAGIC {
            return Err(format!("{name}: not a kishi learner checkpoint"));
        }
        let v = c.u32()?;
        if v != VERSION {
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
        let n = c.count(4)?;
        let params = c.take(n * 4)?.chunks_exact(4).map(LE::read_i32).collect();
        let m = c.count(8)?;
        let shadow = c.take(m * 8)?.chunks_exact(8).map(LE::read_f64).collect();
        if c.at != bytes.len() {
            return Err(format!("{name}: trailing bytes"));
        }
        Ok(Checkpoint {
            iteration,
            rng,
            metrics_lines,
            fingerprint,
            params,
            shadow,
        })
    }
}

pub fn write_params(path: &Path, params: &[i32]) -> Result<(), String> {
    let mut b = Vec::with_capacity(16 + params.len() * 4);
    b.extend_from_slice(PARAMS_MAGIC);
    b.extend_from_slice(&(params.len() as u64).to_le_bytes());
    for p in params {
        b.extend_from_slice(&p.to_le_bytes());
    }
    write_atomic(path, &b)
}

pub fn read_params(path: &Path, expected: usize) -> Result<Vec<i32>, String> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    let mut c = Cursor {
        b: &bytes,
        at: 0,
        name: name.clone(),
    };
    if c.take(8)? != PARAMS_MAGIC {
        return Err(format!("{name}: not a kishi params file"));
    }
    let n = c.count(4)?;
    if n != expected {
        return Err(format!(
            "{name}: {n} parameters, the feature set has {expected}"
        ));
    }
    let v: Vec<i32> = c.take(n * 4)?.chunks_exact(4).map(LE::read_i32).collect();
    if c.at != bytes.len() {
        return Err(format!("{name}: trailing bytes"));
    }
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
            params: vec![1, -2, 3],
            shadow: vec![0.5],
        };
        c.write(&p).unwrap();
        assert_eq!(Checkpoint::read(&p).unwrap(), c);
        let bytes = std::fs::read(&p).unwrap();
        std::fs::write(&p, &bytes[..bytes.len() - 3]).unwrap();
        assert!(Checkpoint::read(&p).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
