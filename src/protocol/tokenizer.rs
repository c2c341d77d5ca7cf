//! The one tokenizer shared by USI and UCI.
//!
//! Both protocols are whitespace-separated words on a line; they differ only in their vocabulary,
//! which the dialect modules own. We tokenize by hand rather than with `vampirc-uci` (DESIGN §3): a
//! parser that panics on `go ` with a trailing space, or silently drops tokens it does not know, is
//! worse than none for an engine that must survive any GUI. Here a line is cut on any ASCII
//! whitespace (so tabs, repeated spaces and a trailing `\r` from CRLF input vanish), and every
//! accessor returns an `Option`/`Result` so that a short or garbled line is an error, never a panic.

use std::fmt::Display;
use std::str::FromStr;

/// Makes an input line safe to echo inside one `info string` line: no line breaks or other control
/// characters (a GUI would read the rest as a new command), and a bounded length.
pub fn printable(line: &str) -> String {
    const MAX_ECHO: usize = 200;
    let trimmed = line.trim_end();
    let mut out = String::with_capacity(trimmed.len().min(MAX_ECHO + 3));
    for (count, c) in trimmed.chars().enumerate() {
        if count == MAX_ECHO {
            out.push_str("...");
            break;
        }
        out.push(if c.is_control() { ' ' } else { c });
    }
    out
}

/// A cursor over the words of one line.
#[derive(Debug, Clone)]
pub struct Tokens<'a> {
    words: Vec<&'a str>,
    pos: usize,
}

impl<'a> Tokens<'a> {
    pub fn new(line: &'a str) -> Self {
        // `split_ascii_whitespace` also drops the `\r` of CRLF and any run of tabs. Other Unicode
        // whitespace (e.g. U+3000, common in Japanese text) stays inside words, so it can never be
        // mistaken for a separator and quietly change a command.
        Tokens {
            words: line.split_ascii_whitespace().collect(),
            pos: 0,
        }
    }

    /// The next word, consumed.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<&'a str> {
        let w = self.words.get(self.pos).copied();
        if w.is_some() {
            self.pos += 1;
        }
        w
    }

    pub fn peek(&self) -> Option<&'a str> {
        self.words.get(self.pos).copied()
    }

    pub fn is_empty(&self) -> bool {
        self.pos >= self.words.len()
    }

    /// The remaining words, consumed.
    pub fn rest(&mut self) -> Vec<&'a str> {
        let r = self.words[self.pos..].to_vec();
        self.pos = self.words.len();
        r
    }

    /// Words up to (not including) the first of `stops`, consumed; the stop word stays.
    pub fn until(&mut self, stops: &[&str]) -> Vec<&'a str> {
        let mut out = Vec::new();
        while let Some(w) = self.peek() {
            if stops.contains(&w) {
                break;
            }
            out.push(w);
            self.pos += 1;
        }
        out
    }

    /// The next word parsed as a number; `what` names the field in the error.
    pub fn number<T>(&mut self, what: &str) -> Result<T, String>
    where
        T: FromStr,
        T::Err: Display,
    {
        let w = self
            .next()
            .ok_or_else(|| format!("'{what}' needs a number"))?;
        parse_number(w, what)
    }
}

/// Parses one number field with an error that names the field and the value.
pub fn parse_number<T>(w: &str, what: &str) -> Result<T, String>
where
    T: FromStr,
    T::Err: Display,
{
    w.parse::<T>()
        .map_err(|e| format!("bad number '{}' for '{what}' ({e})", printable(w)))
}

/// A time in milliseconds from a GUI. GUIs send negative remaining times after an overrun (cutechess
/// and others do), so negatives are accepted and read as 0; values past `i64` are an error.
pub fn parse_time_ms(w: &str, what: &str) -> Result<u64, String> {
    let v: i64 = parse_number(w, what)?;
    Ok(v.max(0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_tabs_spaces_and_crlf() {
        let mut t = Tokens::new("  go\tbtime  100 \r");
        assert_eq!(t.next(), Some("go"));
        assert_eq!(t.next(), Some("btime"));
        assert_eq!(t.number::<u64>("btime"), Ok(100));
        assert!(t.is_empty());
        assert_eq!(t.next(), None);
    }

    #[test]
    fn until_stops_before_the_keyword() {
        let mut t = Tokens::new("setoption name Move Overhead value 30");
        t.next();
        t.next();
        assert_eq!(t.until(&["value"]), vec!["Move", "Overhead"]);
        assert_eq!(t.next(), Some("value"));
        assert_eq!(t.rest(), vec!["30"]);
    }

    #[test]
    fn numbers_fail_with_a_message_instead_of_panicking() {
        let mut t = Tokens::new("depth 99999999999999999999999 -5");
        t.next();
        assert!(t.number::<u32>("depth").is_err());
        assert!(t.number::<u32>("depth").is_err());
        assert!(t
            .number::<u32>("depth")
            .unwrap_err()
            .contains("needs a number"));
        assert_eq!(parse_time_ms("-50", "wtime"), Ok(0));
        assert!(parse_time_ms("1e9", "wtime").is_err());
    }

    #[test]
    fn printable_removes_control_characters_and_bounds_length() {
        assert_eq!(printable("a\u{0}b\tc\r\n"), "a b c");
        let long = "x".repeat(1000);
        assert_eq!(printable(&long).len(), 203);
        assert_eq!(printable("将棋"), "将棋");
    }
}
