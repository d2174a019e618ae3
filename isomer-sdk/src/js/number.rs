//! JavaScript number printing (`String(n)`, ECMAScript `Number::toString`).
//!
//! Rust prints `1.0_f64` as `1` with `{}` but `serde_json` prints a float
//! `1.0` as `1.0`, and neither uses JavaScript's exponent rules. The upstream
//! contract counts and prints numbers as JavaScript does (sdk.md §12): the
//! input budget's leaf lengths, `JSON.stringify` output and payload byte
//! counts. This module prints with the `ryu-js` algorithm, which is
//! ECMAScript-compliant: shortest round-trip digits, `1e+21` from 10²¹ up,
//! `1e-7` below 10⁻⁶, `-0` as `0`.

use serde_json::Number;

/// Prints `n` as JavaScript's `String(n)` does.
///
/// Examples: `1.0` → `"1"`, `1.5` → `"1.5"`, `1e21` → `"1e+21"`,
/// `1e-7` → `"1e-7"`, `0.1 + 0.2` → `"0.30000000000000004"`, `-0.0` → `"0"`,
/// `f64::NAN` → `"NaN"`, `f64::INFINITY` → `"Infinity"`.
pub fn format_js_number(n: f64) -> String {
    if n == 0.0 {
        // Covers -0: JavaScript prints both zeros as "0".
        return String::from("0");
    }
    ryu_js::Buffer::new().format(n).to_owned()
}

/// Prints a JSON number as JavaScript would after `JSON.parse`: the number
/// becomes a double first, so `18446744073709551615` prints as
/// `"18446744073709552000"` and `1.0` prints as `"1"` (evals.md §10.2).
pub fn format_json_number(n: &Number) -> String {
    if let Some(i) = n.as_i64()
        && i.unsigned_abs() <= MAX_SAFE_INTEGER
    {
        // Exactly representable: the double prints the same digits.
        return i.to_string();
    }
    // `as_f64` is always `Some` without `arbitrary_precision`; the fallback
    // keeps this total should that feature ever be switched on.
    format_js_number(n.as_f64().unwrap_or(f64::NAN))
}

/// 2⁵³ − 1, JavaScript's `Number.MAX_SAFE_INTEGER`: every integer up to this
/// magnitude is exact as a double.
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_numbers_as_javascript_string_does() {
        let cases: [(f64, &str); 16] = [
            (1.0, "1"),
            (1.5, "1.5"),
            (-1.5, "-1.5"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123456789012345680000.0, "123456789012345680000"),
            (1e-7, "1e-7"),
            (1e-6, "0.000001"),
            (0.1 + 0.2, "0.30000000000000004"),
            (-0.0, "0"),
            (0.0, "0"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
        ];
        for (n, expected) in cases {
            assert_eq!(format_js_number(n), expected, "{n:e}");
        }
    }

    #[test]
    fn prints_json_numbers_after_conversion_to_double() {
        let parse = |text: &str| serde_json::from_str::<Number>(text).unwrap();
        assert_eq!(format_json_number(&parse("1.0")), "1");
        assert_eq!(format_json_number(&parse("-0")), "0");
        assert_eq!(format_json_number(&parse("-0.0")), "0");
        assert_eq!(format_json_number(&parse("1e21")), "1e+21");
        assert_eq!(format_json_number(&parse("42")), "42");
        assert_eq!(format_json_number(&parse("-42")), "-42");
        assert_eq!(
            format_json_number(&parse("9007199254740991")),
            "9007199254740991"
        );
        // 2^53 + 1 is not a double: JSON.parse rounds it to 2^53.
        assert_eq!(
            format_json_number(&parse("9007199254740993")),
            "9007199254740992"
        );
        assert_eq!(
            format_json_number(&parse("18446744073709551615")),
            "18446744073709552000"
        );
        assert_eq!(
            format_json_number(&parse("-9223372036854775808")),
            "-9223372036854776000"
        );
    }
}
