//! Temporary stand-ins for JS-parity helpers that `isomer-sdk` (issue 2) is
//! adding: compact JSON byte length, `toFixed(2)`, `Math.round`, UTF-16
//! ordering, the JS whitespace set, deep-safe parsing and iterative drop.
//!
//! Requested in `/work/notes/requests.md`; each function is replaced by the
//! sdk's own once it lands, and this file is then deleted.

use std::cmp::Ordering;

use serde::Deserialize;
use serde_json::Value;

/// True for the characters of JS `\s` and `String.prototype.trim`: TAB, LF,
/// VT, FF, CR, SPACE, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F,
/// U+205F, U+3000, U+FEFF (evals.md §4.1). Unlike `char::is_whitespace` it
/// includes U+FEFF and excludes U+0085.
pub(crate) fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// JS `String.prototype.trim`.
pub(crate) fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

/// Orders strings by UTF-16 code units, as JS `Array.prototype.sort` does.
pub(crate) fn cmp_utf16(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// JS `Math.round`: the nearest integer, halves toward +∞.
pub(crate) fn math_round(x: f64) -> f64 {
    let floor = x.floor();
    if x - floor >= 0.5 { floor + 1.0 } else { floor }
}

/// JS `Number.prototype.toFixed(2)` for finite values below 1e21: the exact
/// decimal expansion of the double, rounded half up (0.125 → `0.13`).
pub(crate) fn to_fixed_2(x: f64) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "NaN".to_owned()
        } else if x > 0.0 {
            "Infinity".to_owned()
        } else {
            "-Infinity".to_owned()
        };
    }
    // A double has at most 1074 fractional digits, so this is exact.
    let exact = format!("{:.1100}", x.abs());
    let (int_part, frac) = exact.split_once('.').unwrap_or((&exact, ""));
    let mut digits: Vec<u8> = int_part.bytes().chain(frac.bytes().take(2)).collect();
    let round_up = frac.as_bytes().get(2).is_some_and(|d| *d >= b'5');
    if round_up {
        let mut i = digits.len();
        loop {
            if i == 0 {
                digits.insert(0, b'1');
                break;
            }
            i -= 1;
            if digits[i] == b'9' {
                digits[i] = b'0';
            } else {
                digits[i] += 1;
                break;
            }
        }
    }
    let split = digits.len() - 2;
    let text = String::from_utf8(digits).unwrap_or_default();
    let sign = if x < 0.0 && text.bytes().any(|d| d != b'0') {
        "-"
    } else {
        ""
    };
    format!("{sign}{}.{}", &text[..split], &text[split..])
}

/// UTF-8 byte length of `JSON.stringify(value)` (compact): JS number form
/// (`1` not `1.0`), JS string escaping.
pub(crate) fn compact_json_len(value: &Value) -> usize {
    let mut total = 0;
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        total += match value {
            Value::Null => 4,
            Value::Bool(true) => 4,
            Value::Bool(false) => 5,
            Value::Number(n) => number_len(n),
            Value::String(s) => string_len(s),
            Value::Array(items) => {
                stack.extend(items.iter());
                2 + items.len().saturating_sub(1)
            }
            Value::Object(map) => {
                stack.extend(map.values());
                2 + map.len().saturating_sub(1)
                    + map.keys().map(|k| string_len(k) + 1).sum::<usize>()
            }
        };
    }
    total
}

fn number_len(n: &serde_json::Number) -> usize {
    if let Some(i) = n.as_i64() {
        if i.unsigned_abs() < (1 << 53) {
            return i.to_string().len();
        }
    }
    if let Some(u) = n.as_u64() {
        if u < (1 << 53) {
            return u.to_string().len();
        }
    }
    let f = n.as_f64().unwrap_or(0.0);
    if f == 0.0 {
        return 1;
    }
    js_number_string(f).len()
}

/// JS `Number.prototype.toString` for finite non-zero doubles (shortest
/// round-trip digits, exponent from 1e21 and below 1e-6).
fn js_number_string(f: f64) -> String {
    // Rust's `{:e}` prints the shortest round-trip digits.
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let k = digits.len() as i32;
    let n = exp + 1;
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let sign = if n - 1 < 0 { "-" } else { "+" };
        if k == 1 {
            format!("{digits}e{sign}{}", (n - 1).abs())
        } else {
            format!("{}.{}e{sign}{}", &digits[..1], &digits[1..], (n - 1).abs())
        }
    };
    if f < 0.0 { format!("-{body}") } else { body }
}

fn string_len(s: &str) -> usize {
    2 + s
        .chars()
        .map(|c| match c {
            '"' | '\\' | '\u{08}' | '\u{0C}' | '\n' | '\r' | '\t' => 2,
            c if (c as u32) < 0x20 => 6,
            c => c.len_utf8(),
        })
        .sum::<usize>()
}

/// Parses untrusted JSON text with no depth limit, on a grown stack.
pub(crate) fn parse_untrusted(text: &str) -> Result<Value, String> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    let stacked = serde_stacker::Deserializer::new(&mut deserializer);
    let value = Value::deserialize(stacked).map_err(|e| e.to_string())?;
    deserializer.end().map_err(|e| e.to_string())?;
    Ok(value)
}

/// Drops a value of any depth without recursion.
pub(crate) fn drop_deep(value: Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// Stand-in for `isomer_sdk::prompt::build_authoring_prompt` (sdk.md §7.4),
/// full catalog form only, until the sdk's lands.
pub(crate) fn build_authoring_prompt(
    profile: isomer_sdk::AuthoringProfile,
    context: &isomer_sdk::PromptContext<'_>,
) -> String {
    use isomer_sdk::AuthoringProfile;
    let intro = match profile {
        AuthoringProfile::General => {
            "You author views as a single JSON object: route to a registered view when one answers the request, otherwise compose one from the catalog."
        }
        AuthoringProfile::RegisteredViewRouter => {
            "Prefer a registered view whose answers match the request; compose only when none fits."
        }
        AuthoringProfile::ComposeFromPrimitives => {
            "You compose views from scratch: one JSON object built from catalog primitives only, checked against the JSON Schema."
        }
    };
    let mut sections = vec![
        "# View authoring".to_owned(),
        intro.to_owned(),
        format!("## Guide\n\n{}", context.guide),
    ];
    if let Some(rules) = context.rules.filter(|r| !r.is_empty()) {
        sections.push(format!("## Rules\n\n{rules}"));
    }
    let catalog: Vec<String> = context
        .primitives
        .iter()
        .map(|e| {
            format!(
                "- `{}` \u{2014} {}\n  - Example: `{}`",
                e.type_name, e.purpose, e.example
            )
        })
        .collect();
    sections.push(format!("## Primitive catalog\n\n{}", catalog.join("\n")));
    if let (Some(schema), false) = (
        context.schema,
        profile == AuthoringProfile::RegisteredViewRouter,
    ) {
        sections.push(format!("## JSON Schema\n\n```json\n{schema}\n```"));
    }
    sections.join("\n\n")
}
