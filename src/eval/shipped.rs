//! Shipped weight files: the value of `EvalFile` resolved to a file the engine can map.
//!
//! A value is a path, or the bare name of a file shipped in `eval_weights/` (looked up in
//! `$KISHI_EVAL_DIR`, beside the executable, in the source tree the binary was built from and in
//! `./eval_weights`). Large learned files ship xz-compressed (a KPP table is 337 MiB raw, mostly
//! zeros after L1), but the engine maps weights in place, so an `.xz` file is unpacked **once**
//! into a cache directory and the unpacked copy is mapped from then on. The cache name carries a
//! hash of the compressed bytes, so a new shipped file never reuses an old copy. The copy is
//! written to a temporary file, checked (every table checksum) and only then renamed into place;
//! a copy found in the cache is checked again before use, and a corrupt one is rebuilt, never
//! used. Nothing here names a game: the caller passes the game the file must be for.

use super::format::{self, Header};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Environment variable naming the directory of shipped weight files (searched first).
pub const EVAL_DIR_ENV: &str = "KISHI_EVAL_DIR";
/// Environment variable naming the cache directory for unpacked files.
pub const CACHE_DIR_ENV: &str = "KISHI_CACHE_DIR";

/// Directories searched for a bare shipped name, in order.
pub fn shipped_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(d) = std::env::var_os(EVAL_DIR_ENV) {
        dirs.push(PathBuf::from(d));
    }
    if let Ok(exe) = std::env::current_exe() {
        if let Some(bin) = exe.parent() {
            dirs.push(bin.join("eval_weights"));
            // `cargo build` puts the binary in target/<profile>/: the repository is two up.
            if let Some(repo) = bin.parent().and_then(Path::parent) {
                dirs.push(repo.join("eval_weights"));
            }
        }
    }
    dirs.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("eval_weights"));
    dirs.push(PathBuf::from("eval_weights"));
    dirs
}

/// The cache directory for unpacked files: `$KISHI_CACHE_DIR`, else `$XDG_CACHE_HOME/kishi`,
/// else `$HOME/.cache/kishi`, else the system temporary directory's `kishi-cache`.
pub fn cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os(CACHE_DIR_ENV) {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("kishi");
    }
    if let Some(h) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        return PathBuf::from(h).join(".cache").join("kishi");
    }
    std::env::temp_dir().join("kishi-cache")
}

/// Finds the file an `EvalFile` value names: the path itself if it exists, else a shipped file of
/// that name (a bare name only: a path with directories is taken as given).
pub fn locate(value: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(value);
    if p.exists() {
        return Ok(p);
    }
    let bare = p.components().count() == 1;
    if bare {
        for d in shipped_dirs() {
            let c = d.join(&p);
            if c.is_file() {
                return Ok(c);
            }
        }
        return Err(format!(
            "no such file, and no shipped weight file of that name in {}",
            shipped_dirs()
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Err(format!("{value}: no such file"))
}

/// Resolves an `EvalFile` value to a mappable weight file for `game` (`None`: any game): locates
/// it, and unpacks an `.xz` file into the cache (or reuses a checked copy there). `note` receives
/// progress lines (without the `info string` prefix) while it works: unpacking takes seconds.
pub fn resolve(
    value: &str,
    game: Option<&str>,
    note: &mut dyn FnMut(&str),
) -> Result<PathBuf, String> {
    let path = locate(value)?;
    if path.extension().is_some_and(|e| e == "xz") {
        unpack_cached(&path, &cache_dir(), game, note)
    } else {
        Ok(path)
    }
}

/// The unpacked copy of `xz` in `cache`, made if it is missing or fails its checks.
pub fn unpack_cached(
    xz: &Path,
    cache: &Path,
    game: Option<&str>,
    note: &mut dyn FnMut(&str),
) -> Result<PathBuf, String> {
    let hash = hash_file(xz)?;
    let name = xz
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let label = xz.display().to_string();
    let mut open = || -> Result<Box<dyn Read>, String> {
        let src = File::open(xz).map_err(|e| format!("{}: {e}", xz.display()))?;
        Ok(Box::new(BufReader::new(src)))
    };
    unpack_into_cache(&label, &name, hash, &mut open, cache, game, note)
}

/// The unpacked copy of an xz-compressed weight file built into the binary (`name` is its file
/// name in `eval_weights/`), made in `cache` like `unpack_cached` makes one for a file on disk:
/// a large built-in default (the shogi KPP file is 346 MiB raw) is then mapped, shared between
/// engine processes by the page cache, instead of unpacked into every process's memory.
pub fn unpack_embedded_cached(
    name: &str,
    packed: &'static [u8],
    cache: &Path,
    game: Option<&str>,
    note: &mut dyn FnMut(&str),
) -> Result<PathBuf, String> {
    let hash = xxhash_rust::xxh3::xxh3_64(packed);
    let label = format!("the built-in evaluation ({name})");
    let mut open = || -> Result<Box<dyn Read>, String> { Ok(Box::new(packed)) };
    unpack_into_cache(&label, name, hash, &mut open, cache, game, note)
}

/// The common part of `unpack_cached` and `unpack_embedded_cached`: `label` names the source in
/// messages, `name` is its file name (the cache name is derived from it and from `hash`, the hash
/// of the compressed bytes), `open` gives the compressed stream when an unpack is needed.
fn unpack_into_cache(
    label: &str,
    name: &str,
    hash: u64,
    open: &mut dyn FnMut() -> Result<Box<dyn Read>, String>,
    cache: &Path,
    game: Option<&str>,
    note: &mut dyn FnMut(&str),
) -> Result<PathBuf, String> {
    let stem = name
        .strip_suffix(".kwt.xz")
        .or_else(|| name.strip_suffix(".xz"))
        .unwrap_or(name);
    let target = cache.join(format!("{stem}-{hash:016x}.kwt"));
    if target.exists() {
        match verify_file(&target, game) {
            Ok(_) => return Ok(target),
            Err(e) => note(&format!(
                "cached copy {} is unusable ({e}); rebuilding it",
                target.display()
            )),
        }
    }
    note(&format!(
        "unpacking {label} to {} (once; later loads map the copy)",
        target.display()
    ));
    let t0 = Instant::now();
    std::fs::create_dir_all(cache)
        .map_err(|e| format!("cannot create cache directory {}: {e}", cache.display()))?;
    let tmp = cache.join(format!(".{stem}-{hash:016x}.kwt.tmp{}", std::process::id()));
    let result = open()
        .and_then(|src| unpack_to(label, src, &tmp))
        .and_then(|bytes| {
            verify_file(&tmp, game).map_err(|e| format!("{label}: {e}"))?;
            std::fs::rename(&tmp, &target)
                .map_err(|e| format!("cannot rename into {}: {e}", target.display()))?;
            Ok(bytes)
        });
    match result {
        Ok(bytes) => {
            note(&format!(
                "unpacked {label} ({:.1} MiB) in {:.2} s",
                bytes as f64 / (1024.0 * 1024.0),
                t0.elapsed().as_secs_f64()
            ));
            Ok(target)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// xxh3-64 of a whole file, streamed.
fn hash_file(path: &Path) -> Result<u64, String> {
    let mut f = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f
            .read(&mut buf)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if n == 0 {
            return Ok(h.digest());
        }
        h.update(&buf[..n]);
    }
}

/// Decompresses the xz stream `src` (named `label` in messages) into `out` (created, fsynced);
/// returns the unpacked length.
fn unpack_to(label: &str, src: Box<dyn Read>, out: &Path) -> Result<u64, String> {
    let mut dec = xz2::read::XzDecoder::new(src);
    let file = File::create(out).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    let mut buf = vec![0u8; 1 << 20];
    let mut total = 0u64;
    loop {
        let n = dec
            .read(&mut buf)
            .map_err(|e| format!("{label}: not a complete xz stream: {e}"))?;
        if n == 0 {
            break;
        }
        w.write_all(&buf[..n])
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        total += n as u64;
    }
    let file = w
        .into_inner()
        .map_err(|e| format!("cannot write {}: {}", out.display(), e.error()))?;
    file.sync_all()
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    Ok(total)
}

/// Unpacks an xz-compressed weight file held in memory (the built-in default of a feature set)
/// into a u64 buffer, so its tables can be viewed in place: (words, length in bytes).
pub fn unpack_embedded(packed: &[u8]) -> Result<(Vec<u64>, usize), String> {
    let mut raw = Vec::new();
    xz2::read::XzDecoder::new(packed)
        .read_to_end(&mut raw)
        .map_err(|e| format!("unpacking the embedded weight file: {e}"))?;
    let mut words = vec![0u64; raw.len().div_ceil(8)];
    bytemuck::cast_slice_mut::<u64, u8>(&mut words)[..raw.len()].copy_from_slice(&raw);
    Ok((words, raw.len()))
}

/// Maps a weight file and checks everything the format can check without a feature set: header,
/// game (`None`: any), and the checksum of every table and of the provenance.
pub fn verify_file(path: &Path, game: Option<&str>) -> Result<Header, String> {
    let map = format::map_file(path)?;
    let header = format::verify_image(&map)?;
    if let Some(game) = game.filter(|&g| g != header.game) {
        return Err(format!(
            "wrong game: the file is for {}, this engine is playing {game}",
            header.game
        ));
    }
    Ok(header)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped shogi file, xz-compressed into `dir`.
    fn packed_file(dir: &Path) -> PathBuf {
        let raw =
            std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("eval_weights/shogi-eAB.kwt"))
                .expect("the shipped shogi file is in the source tree");
        let mut enc = xz2::write::XzEncoder::new(Vec::new(), 1);
        enc.write_all(&raw).unwrap();
        let xz = dir.join("full.kwt.xz");
        std::fs::write(&xz, enc.finish().unwrap()).unwrap();
        xz
    }

    /// A full disk: the temporary file is a link to `/dev/full`, so every write fails with the
    /// operating system's own ENOSPC. The unpack must fail with an error naming the file and the
    /// cause, leave nothing in the cache, and a later unpack (disk no longer full) must succeed.
    #[test]
    fn a_full_disk_fails_cleanly_and_leaves_no_copy() {
        let dev_full = Path::new("/dev/full");
        if !dev_full.exists() {
            eprintln!("skipped: this system has no /dev/full to simulate a full disk with");
            return;
        }
        let dir = std::env::temp_dir().join(format!("kishi-full-disk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cache = dir.join("cache");
        std::fs::create_dir_all(&cache).unwrap();
        let xz = packed_file(&dir);
        let hash = hash_file(&xz).unwrap();
        let tmp = cache.join(format!(".full-{hash:016x}.kwt.tmp{}", std::process::id()));
        std::os::unix::fs::symlink(dev_full, &tmp).unwrap();

        let mut notes = Vec::new();
        let err = unpack_cached(&xz, &cache, Some("shogi"), &mut |n| {
            notes.push(n.to_string())
        })
        .expect_err("writing to a full disk must fail");
        assert!(err.contains("cannot write"), "{err}");
        assert!(
            err.to_lowercase().contains("no space left"),
            "the cause is named: {err}"
        );
        let left: Vec<_> = std::fs::read_dir(&cache)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(left.is_empty(), "nothing is left in the cache: {left:?}");

        let copy =
            unpack_cached(&xz, &cache, Some("shogi"), &mut |_| {}).expect("disk has room again");
        assert!(verify_file(&copy, Some("shogi")).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A built-in file is unpacked into the cache once, mapped from there later, and a corrupt
    /// cached copy is rebuilt, never used.
    #[test]
    fn an_embedded_file_is_unpacked_once_and_a_corrupt_copy_rebuilt() {
        let dir = std::env::temp_dir().join(format!("kishi-embedded-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let packed: &'static [u8] = Box::leak(std::fs::read(packed_file(&dir)).unwrap().into());
        let cache = dir.join("cache");
        let mut notes = Vec::new();
        let first = unpack_embedded_cached("x.kwt.xz", packed, &cache, Some("shogi"), &mut |n| {
            notes.push(n.to_string())
        })
        .expect("unpacks");
        assert!(
            notes.iter().any(|n| n.starts_with("unpacking")),
            "{notes:?}"
        );
        assert!(notes.iter().any(|n| n.starts_with("unpacked")), "{notes:?}");
        assert!(verify_file(&first, Some("shogi")).is_ok());

        notes.clear();
        let again = unpack_embedded_cached("x.kwt.xz", packed, &cache, Some("shogi"), &mut |n| {
            notes.push(n.to_string())
        })
        .expect("reuses");
        assert_eq!(first, again);
        assert!(
            notes.is_empty(),
            "a good copy is reused silently: {notes:?}"
        );

        // Flip a byte in the last table: the copy's checksum no longer holds.
        let mut bytes = std::fs::read(&first).unwrap();
        let n = bytes.len();
        bytes[n - 100] ^= 0x55;
        std::fs::write(&first, &bytes).unwrap();
        assert!(verify_file(&first, Some("shogi")).is_err());
        notes.clear();
        let rebuilt = unpack_embedded_cached("x.kwt.xz", packed, &cache, Some("shogi"), &mut |n| {
            notes.push(n.to_string())
        })
        .expect("rebuilds");
        assert!(notes.iter().any(|n| n.contains("unusable")), "{notes:?}");
        assert!(verify_file(&rebuilt, Some("shogi")).is_ok());

        let wrong = unpack_embedded_cached("x.kwt.xz", packed, &cache, Some("chess"), &mut |_| {});
        assert!(wrong.is_err(), "a file for another game is refused");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
