//! JSON for the files and lines kishi writes (metrics lines, provenance blocks, rule dumps):
//! the structure comes from serde (`#[derive(Serialize)]` structs whose field order is the key
//! order), the text from serde_json in its compact form.
//!
//! Two number formats are kept as they were before serde, because the bytes matter: a weight
//! file's provenance block is inside the file (and its checksum), and two runs with the same seed
//! must write identical files. `fixed6` writes six decimals (`0.280000`); `shortest` writes Rust's
//! shortest round-trip form without an exponent (`0.00341`, `1`), where serde_json would write
//! `1.0` or `1e-7`.

use serde::Serialize;
use serde_json::value::RawValue;

/// A number written from text we formatted; `None` serializes as `null`.
pub type Num = Option<Box<RawValue>>;

fn raw(text: String) -> Num {
    // Every caller passes a finite number's decimal text, which is valid JSON; if that ever
    // failed, `null` is the honest value to write.
    RawValue::from_string(text).ok()
}

/// `x` with six decimals (`{:.6}`), `null` when not finite.
pub fn fixed6(x: f64) -> Num {
    if x.is_finite() {
        raw(format!("{x:.6}"))
    } else {
        None
    }
}

/// `x` in Rust's shortest round-trip decimal form (`{}`), `null` when not finite.
pub fn shortest(x: f64) -> Num {
    if x.is_finite() {
        raw(format!("{x}"))
    } else {
        None
    }
}

/// One compact JSON line (no newline) for a value.
pub fn line<T: Serialize>(value: &T) -> String {
    // Serializing these structs cannot fail: no map has non-string keys, and every number is
    // finite or null. An error would be a programming error; report it in the output.
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":\"json: {e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Sample {
        b: Num,
        a: Num,
        s: String,
        n: Option<i64>,
    }

    #[test]
    fn numbers_keep_their_old_text_and_keys_their_order() {
        let v = Sample {
            b: fixed6(0.28),
            a: shortest(0.00341),
            s: "a\"b\\c".into(),
            n: None,
        };
        assert_eq!(
            line(&v),
            r#"{"b":0.280000,"a":0.00341,"s":"a\"b\\c","n":null}"#
        );
        assert_eq!(line(&shortest(1.0)), "1");
        assert_eq!(line(&shortest(1e-7)), "0.0000001");
        assert_eq!(line(&fixed6(f64::NAN)), "null");
        assert_eq!(line(&shortest(f64::INFINITY)), "null");
    }
}
