//! Reading race options from `key=value` text into a game's typed options.
//!
//! The game's `Options` type is the schema: its `Default` gives every key and the shape of
//! its value, and serde checks the result. No game writes a parser for its options.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::error::OptionsError;

/// Documents one option for `/race settings` and `/race help`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionDoc {
    pub key: &'static str,
    pub help: &'static str,
}

fn normalise_key(key: &str) -> String {
    key.trim().to_ascii_lowercase().replace('-', "_")
}

fn parse_value(key: &str, shape: &Value, text: &str) -> Result<Value, OptionsError> {
    let bad = |reason: &str| OptionsError::BadValue {
        key: key.to_string(),
        reason: reason.to_string(),
    };
    let text = text.trim();
    match shape {
        Value::Bool(_) => match text.to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" | "1" => Ok(Value::Bool(true)),
            "false" | "no" | "off" | "0" => Ok(Value::Bool(false)),
            _ => Err(bad("expected yes or no")),
        },
        Value::Number(n) if n.is_f64() => text
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| bad("expected a number")),
        Value::Number(_) => text
            .parse::<i64>()
            .map(|v| Value::Number(v.into()))
            .map_err(|_| bad("expected a whole number")),
        Value::Array(items) => {
            let inner = items
                .first()
                .cloned()
                .unwrap_or(Value::String(String::new()));
            if text.is_empty() {
                return Ok(Value::Array(Vec::new()));
            }
            text.split(',')
                .map(|part| parse_value(key, &inner, part))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::Array)
        }
        Value::Null | Value::Object(_) => {
            if text.eq_ignore_ascii_case("none") {
                return Ok(Value::Null);
            }
            // Optional values: a number if it reads as one, else a word.
            Ok(text
                .parse::<i64>()
                .map(|v| Value::Number(v.into()))
                .unwrap_or_else(|_| Value::String(text.to_ascii_lowercase())))
        }
        Value::String(_) => Ok(Value::String(text.to_ascii_lowercase())),
    }
}

/// Applies `key=value` pairs (separated by spaces or semicolons) on top of `base`,
/// and checks the result against `O`'s schema.
///
/// Keys are read case-blind with `-` for `_`; each value is read by the shape of the
/// default's field (yes/no, a number, a word, a comma list).
///
/// ```
/// use photofinish::engine::{OptionsError, apply_option_text, option_text};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
/// struct Opts {
///     starting_points: i64,
///     track: String,
///     wild: bool,
/// }
///
/// let o = apply_option_text(&Opts::default(), "starting-points=50 track=Wild; wild=yes")?;
/// assert_eq!(o, Opts { starting_points: 50, track: "wild".into(), wild: true });
///
/// // Shown back as text that reads to the same options.
/// assert_eq!(apply_option_text(&Opts::default(), &option_text(&o))?, o);
///
/// // A refusal names the key and, for an unknown one, the keys there are.
/// let e = apply_option_text(&o, "laps=3").unwrap_err();
/// assert!(matches!(e, OptionsError::UnknownKey { ref key, .. } if key == "laps"));
/// # Ok::<(), OptionsError>(())
/// ```
pub fn apply_option_text<O>(base: &O, text: &str) -> Result<O, OptionsError>
where
    O: Serialize + DeserializeOwned + Default,
{
    let schema =
        serde_json::to_value(O::default()).map_err(|e| OptionsError::Invalid(e.to_string()))?;
    let mut current =
        serde_json::to_value(base).map_err(|e| OptionsError::Invalid(e.to_string()))?;
    let (Value::Object(schema), Value::Object(current_map)) = (&schema, &mut current) else {
        return Err(OptionsError::Invalid(
            "this game's options are not a table".into(),
        ));
    };
    for pair in text
        .split(|c: char| c.is_whitespace() || c == ';')
        .filter(|s| !s.is_empty())
    {
        let Some((key, value)) = pair.split_once('=') else {
            return Err(OptionsError::NotKeyValue(pair.to_string()));
        };
        let key = normalise_key(key);
        let Some(shape) = schema.get(&key) else {
            return Err(OptionsError::UnknownKey {
                key,
                known: known_keys(schema),
            });
        };
        let value = parse_value(&key, shape, value)?;
        current_map.insert(key, value);
    }
    serde_json::from_value(current).map_err(|e| OptionsError::Invalid(e.to_string()))
}

fn known_keys(schema: &Map<String, Value>) -> String {
    schema
        .keys()
        .map(|k| k.replace('_', "-"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Options as `key=value` text, the inverse of [`apply_option_text`] for display.
pub fn option_text<O: Serialize>(options: &O) -> String {
    let Ok(Value::Object(map)) = serde_json::to_value(options) else {
        return String::new();
    };
    map.iter()
        .map(|(k, v)| {
            let v = match v {
                Value::String(s) => s.clone(),
                Value::Array(items) => items
                    .iter()
                    .map(|i| match i {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(","),
                Value::Null => "none".to_string(),
                other => other.to_string(),
            };
            format!("{}={}", k.replace('_', "-"), v)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields, default)]
    struct Opts {
        starting_points: u32,
        fast: bool,
        schedule: Vec<String>,
        mode: String,
    }

    impl Default for Opts {
        fn default() -> Self {
            Opts {
                starting_points: 45,
                fast: false,
                schedule: vec!["mild".into(), "wild".into()],
                mode: "auto".into(),
            }
        }
    }

    #[test]
    fn reads_each_shape() {
        let o = apply_option_text(
            &Opts::default(),
            "starting-points=50 fast=yes; schedule=wild,wild,mild mode=ASK",
        )
        .unwrap();
        assert_eq!(o.starting_points, 50);
        assert!(o.fast);
        assert_eq!(o.schedule, vec!["wild", "wild", "mild"]);
        assert_eq!(o.mode, "ask");
        let back = apply_option_text(&Opts::default(), &option_text(&o)).unwrap();
        assert_eq!(back, o);
    }

    #[test]
    fn refuses_clearly() {
        let e = apply_option_text(&Opts::default(), "speed=3").unwrap_err();
        assert!(e.to_string().contains("unknown option `speed`"), "{e}");
        assert!(e.to_string().contains("starting-points"), "{e}");
        let e = apply_option_text(&Opts::default(), "fast").unwrap_err();
        assert_eq!(e, OptionsError::NotKeyValue("fast".into()));
        let e = apply_option_text(&Opts::default(), "starting-points=-x").unwrap_err();
        assert!(e.to_string().contains("whole number"), "{e}");
        let e = apply_option_text(&Opts::default(), "starting-points=-3").unwrap_err();
        assert!(matches!(e, OptionsError::Invalid(_)), "{e}");
    }
}
