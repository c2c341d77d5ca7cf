//! The largest hash table the options advertise: the machine's physical memory.
//!
//! A GUI shows the `max` of the hash option as the top of a slider or spin box, and users pick
//! from it; advertising more than the machine has invites a size that can only fail (or, with
//! Linux overcommit, succeed and then swap or meet the OOM killer while the table is cleared).
//! The figure is read once per handshake from `/proc/meminfo`; where that file does not exist
//! (not Linux) the fixed `FALLBACK_MB` is declared, and the allocation itself is fallible, so an
//! impossible size still ends as one error line with the old table kept, never as an abort.

/// Declared when the machine's memory cannot be read (the figure Stockfish used for years).
pub const FALLBACK_MB: i64 = 32_768;
/// Never below this (a tiny container still gets a useful range) nor above `CEILING_MB` (1 TiB).
const FLOOR_MB: i64 = 1024;
const CEILING_MB: i64 = 1 << 20;

/// The `max` of `USI_Hash` / `Hash` in MB.
pub fn max_hash_mb() -> i64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| mem_total_mb(&text))
        .map_or(FALLBACK_MB, |mb| mb.clamp(FLOOR_MB, CEILING_MB))
}

/// `MemTotal` of a `/proc/meminfo` text, in MB.
fn mem_total_mb(meminfo: &str) -> Option<i64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut words = line.split_whitespace().skip(1);
    let kb: i64 = words.next()?.parse().ok()?;
    (words.next() == Some("kB")).then_some(kb / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mem_total_is_read_in_megabytes() {
        let text = "MemFree:  100 kB\nMemTotal:       24576000 kB\nSwapTotal: 0 kB\n";
        assert_eq!(mem_total_mb(text), Some(24_000));
        assert_eq!(mem_total_mb("MemTotal: lots kB\n"), None);
        assert_eq!(mem_total_mb("MemTotal: 1024 pages\n"), None);
        assert_eq!(mem_total_mb(""), None);
    }

    #[test]
    fn the_advertised_maximum_is_within_its_bounds() {
        let max = max_hash_mb();
        assert!((FLOOR_MB..=CEILING_MB).contains(&max), "{max}");
    }
}
