//! Engine options: the table each dialect declares, the `option name …` lines sent after `usi` /
//! `uci`, and checked `setoption`.
//!
//! Values are stored here and read by the controller when it next needs them (at `isready` or
//! `go`), never pushed into a running search: resizing a hash table or changing the thread count
//! under a search is exactly the kind of race a front end must not create.

use std::collections::HashMap;

/// The type and constraints of one option, as both protocols spell them.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Check(bool),
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
    },
    String(&'static str),
    /// USI's `filename` type (UCI has none: it is declared as `string` there).
    Filename(&'static str),
    Button,
}

/// One declared option.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    pub name: &'static str,
    pub kind: Kind,
}

/// A stored option value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Text(String),
    /// A button has no value; it is "pressed" by `setoption`.
    None,
}

/// What `setoption` changed, so the controller can react to buttons and to options that need work.
#[derive(Debug, Clone, PartialEq)]
pub struct Changed {
    pub name: &'static str,
    pub value: Value,
}

/// The option table with its current values. Names are matched case-insensitively (the UCI
/// specification asks for it, and USI GUIs differ in how they spell names).
#[derive(Debug, Clone)]
pub struct Options {
    specs: Vec<Spec>,
    values: HashMap<&'static str, Value>,
}

impl Options {
    pub fn new(specs: Vec<Spec>) -> Self {
        let values = specs
            .iter()
            .map(|s| {
                let v = match &s.kind {
                    Kind::Check(b) => Value::Bool(*b),
                    Kind::Spin { default, .. } => Value::Int(*default),
                    Kind::Combo { default, .. } => Value::Text(default.to_string()),
                    Kind::String(d) | Kind::Filename(d) => Value::Text(d.to_string()),
                    Kind::Button => Value::None,
                };
                (s.name, v)
            })
            .collect();
        Options { specs, values }
    }

    /// The `option name …` lines, in declaration order. `usi` selects USI's spelling of types.
    pub fn declaration_lines(&self, usi: bool) -> Vec<String> {
        self.specs
            .iter()
            .map(|s| {
                let kind = match &s.kind {
                    Kind::Check(b) => format!("type check default {b}"),
                    Kind::Spin { default, min, max } => {
                        format!("type spin default {default} min {min} max {max}")
                    }
                    Kind::Combo { default, vars } => {
                        let mut t = format!("type combo default {default}");
                        for v in *vars {
                            t.push_str(" var ");
                            t.push_str(v);
                        }
                        t
                    }
                    // An empty default must still be written, or the GUI reads no default at all;
                    // both protocols use the `<empty>` convention.
                    Kind::String(d) => format!("type string default {}", or_empty(d)),
                    Kind::Filename(d) if usi => format!("type filename default {}", or_empty(d)),
                    Kind::Filename(d) => format!("type string default {}", or_empty(d)),
                    Kind::Button => "type button".to_string(),
                };
                format!("option name {} {}", s.name, kind)
            })
            .collect()
    }

    fn spec(&self, name: &str) -> Option<&Spec> {
        self.specs
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// Applies `setoption name <name> [value <value>]`. On error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Changed, String> {
        let spec = self
            .spec(name)
            .ok_or_else(|| format!("unknown option '{name}'"))?
            .clone();
        let need = |what: &str| format!("option '{}' needs a value ({what})", spec.name);
        let v = match &spec.kind {
            Kind::Button => {
                if value.is_some() {
                    return Err(format!(
                        "option '{}' is a button and takes no value",
                        spec.name
                    ));
                }
                Value::None
            }
            Kind::Check(_) => match value.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => Value::Bool(true),
                Some("false") => Value::Bool(false),
                Some(other) => {
                    return Err(format!(
                        "option '{}' takes true or false, not '{other}'",
                        spec.name
                    ))
                }
                None => return Err(need("true or false")),
            },
            Kind::Spin { min, max, .. } => {
                let text = value.ok_or_else(|| need("a number"))?;
                let n: i64 = text
                    .parse()
                    .map_err(|_| format!("option '{}' takes a number, not '{text}'", spec.name))?;
                if n < *min || n > *max {
                    return Err(format!(
                        "option '{}' takes a value from {min} to {max}, not {n}",
                        spec.name
                    ));
                }
                Value::Int(n)
            }
            Kind::Combo { vars, .. } => {
                let text = value.ok_or_else(|| need("one of its choices"))?;
                let var = vars
                    .iter()
                    .find(|v| v.eq_ignore_ascii_case(text))
                    .ok_or_else(|| {
                        format!(
                            "option '{}' takes one of {}, not '{text}'",
                            spec.name,
                            vars.join(", ")
                        )
                    })?;
                Value::Text(var.to_string())
            }
            Kind::String(_) | Kind::Filename(_) => {
                let text = value.unwrap_or("");
                Value::Text(if text == "<empty>" {
                    String::new()
                } else {
                    text.to_string()
                })
            }
        };
        if spec.kind != Kind::Button {
            self.values.insert(spec.name, v.clone());
        }
        Ok(Changed {
            name: spec.name,
            value: v,
        })
    }

    /// An integer option (spin); 0 when the name is not a spin of this table.
    pub fn int(&self, name: &str) -> i64 {
        match self.values.get(name) {
            Some(Value::Int(n)) => *n,
            _ => 0,
        }
    }

    /// A check option; false when the name is not a check of this table.
    pub fn bool(&self, name: &str) -> bool {
        matches!(self.values.get(name), Some(Value::Bool(true)))
    }

    /// A string, filename or combo option; empty when the name is not one of this table.
    pub fn text(&self, name: &str) -> &str {
        match self.values.get(name) {
            Some(Value::Text(t)) => t,
            _ => "",
        }
    }
}

fn or_empty(s: &str) -> &str {
    if s.is_empty() {
        "<empty>"
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Options {
        Options::new(vec![
            Spec {
                name: "Hash",
                kind: Kind::Spin {
                    default: 16,
                    min: 1,
                    max: 1024,
                },
            },
            Spec {
                name: "Ponder",
                kind: Kind::Check(false),
            },
            Spec {
                name: "Rule",
                kind: Kind::Combo {
                    default: "A",
                    vars: &["A", "BigB"],
                },
            },
            Spec {
                name: "EvalFile",
                kind: Kind::Filename(""),
            },
            Spec {
                name: "Clear Hash",
                kind: Kind::Button,
            },
        ])
    }

    #[test]
    fn declarations_follow_each_protocol() {
        let o = table();
        let usi = o.declaration_lines(true);
        assert_eq!(
            usi[0],
            "option name Hash type spin default 16 min 1 max 1024"
        );
        assert_eq!(
            usi[2],
            "option name Rule type combo default A var A var BigB"
        );
        assert_eq!(usi[3], "option name EvalFile type filename default <empty>");
        assert_eq!(
            o.declaration_lines(false)[3],
            "option name EvalFile type string default <empty>"
        );
        assert_eq!(usi[4], "option name Clear Hash type button");
    }

    #[test]
    fn set_checks_types_and_ranges_and_changes_nothing_on_error() {
        let mut o = table();
        assert!(o.set("hash", Some("64")).is_ok());
        assert_eq!(o.int("Hash"), 64);
        assert!(o.set("Hash", Some("0")).is_err());
        assert!(o.set("Hash", Some("-3")).is_err());
        assert!(o.set("Hash", Some("99999999999999999999")).is_err());
        assert!(o.set("Hash", None).is_err());
        assert_eq!(o.int("Hash"), 64);
        assert!(o.set("Ponder", Some("yes")).is_err());
        assert!(o.set("Ponder", Some("TRUE")).is_ok());
        assert!(o.bool("Ponder"));
        assert_eq!(
            o.set("rule", Some("bigb")).map(|c| c.value),
            Ok(Value::Text("BigB".into()))
        );
        assert!(o.set("Rule", Some("C")).is_err());
        assert!(o.set("Nope", Some("1")).is_err());
        assert!(o.set("Clear Hash", None).is_ok());
        assert!(o.set("Clear Hash", Some("x")).is_err());
        assert!(o.set("EvalFile", Some("a b.bin")).is_ok());
        assert_eq!(o.text("EvalFile"), "a b.bin");
    }
}
