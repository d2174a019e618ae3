//! JavaScript number printing (`String(n)`, ECMAScript `Number::toString`).
//!
//! Rust prints `1.0_f64` as `1` with `{}` but `serde_json` prints a float
//! `1.0` as `1.0`, and neither uses JavaScript's exponent rules. The upstream
//! contract counts and prints numbers as JavaScript does: the
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
/// `"18446744073709552000"` and `1.0` prints as `"1"`.
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
        let cases = [
            ("1.0", "1"),
            ("-0", "0"),
            ("-0.0", "0"),
            ("1e21", "1e+21"),
            ("42", "42"),
            ("-42", "-42"),
            ("9007199254740991", "9007199254740991"),
            // 2^53 + 1 is not a double: JSON.parse rounds it to 2^53.
            ("9007199254740993", "9007199254740992"),
            ("18446744073709551615", "18446744073709552000"),
            ("-9223372036854775808", "-9223372036854776000"),
        ];
        for (text, expected) in cases {
            let number = serde_json::from_str::<Number>(text).unwrap();
            assert_eq!(format_json_number(&number), expected, "{text}");
        }
    }

    /// ECMAScript `Number::toString` (radix 10) built from Rust's shortest
    /// round-trip digits (`{:e}`), as an oracle independent of ryu-js.
    ///
    /// One known difference: when two shortest digit strings are equally
    /// close to the double, ECMAScript picks the even one and Rust may pick
    /// the other (`-1834984834015833.25` exactly: JS `...833.2`, Rust
    /// `...833.3`). [`agrees`] allows exactly that.
    fn ecmascript_oracle(x: f64) -> String {
        if x == 0.0 {
            return String::from("0");
        }
        let sign = if x < 0.0 { "-" } else { "" };
        let exp_form = format!("{:e}", x.abs());
        let (mantissa, exponent) = exp_form.split_once('e').unwrap();
        let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
        let k = digits.len() as i32;
        let n = exponent.parse::<i32>().unwrap() + 1;
        let body = if k <= n && n <= 21 {
            format!("{digits}{}", "0".repeat((n - k) as usize))
        } else if 0 < n && n <= 21 {
            format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
        } else if -6 < n && n <= 0 {
            format!("0.{}{digits}", "0".repeat((-n) as usize))
        } else {
            let rest = if k > 1 {
                format!(".{}", &digits[1..])
            } else {
                String::new()
            };
            let e = n - 1;
            let e_sign = if e >= 0 { "+" } else { "-" };
            format!("{}{rest}e{e_sign}{}", &digits[..1], e.abs())
        };
        format!("{sign}{body}")
    }

    /// True when `ours` is the oracle's text, or differs only by the
    /// even-tie choice: same length, round-trips to `x`, last digit one
    /// apart and even.
    fn agrees(x: f64, ours: &str, oracle: &str) -> bool {
        if ours == oracle {
            return true;
        }
        let last_digit = |text: &str| {
            let mantissa = text.split('e').next().unwrap();
            mantissa
                .bytes()
                .last()
                .map(|b| i32::from(b) - i32::from(b'0'))
        };
        let same_shape = ours.len() == oracle.len()
            && ours.split('e').nth(1) == oracle.split('e').nth(1)
            && ours.parse::<f64>() == Ok(x);
        match (last_digit(ours), last_digit(oracle)) {
            (Some(a), Some(b)) => same_shape && (a - b).abs() == 1 && a % 2 == 0,
            _ => false,
        }
    }

    #[test]
    fn ties_between_shortest_digits_pick_the_even_one() {
        let x = f64::from_bits(14058570776732010853);
        assert_eq!(format_js_number(x), "-1834984834015833.2");
        assert_eq!(ecmascript_oracle(x), "-1834984834015833.3");
    }

    proptest::proptest! {
        #[test]
        fn matches_the_ecmascript_algorithm(bits in proptest::num::u64::ANY) {
            let x = f64::from_bits(bits);
            proptest::prop_assume!(x.is_finite());
            let ours = format_js_number(x);
            let oracle = ecmascript_oracle(x);
            proptest::prop_assert!(agrees(x, &ours, &oracle), "{x:e}: {ours} vs {oracle}");
        }

        #[test]
        fn matches_on_short_decimals(n in -10_000_000i64..10_000_000, scale in -25i32..25) {
            let x = n as f64 * 10f64.powi(scale);
            let ours = format_js_number(x);
            let oracle = ecmascript_oracle(x);
            proptest::prop_assert!(agrees(x, &ours, &oracle), "{x:e}: {ours} vs {oracle}");
        }
    }
}
