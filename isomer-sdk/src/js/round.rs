//! JavaScript rounding: `Number.prototype.toFixed` and `Math.round`.
//!
//! Rust's `format!("{:.2}", 0.125)` gives `0.12` (ties to even on the exact
//! value); JavaScript's `(0.125).toFixed(2)` gives `0.13`. Both look at the
//! exact binary value of the double, so `1.005` (really 1.00499999999999989…)
//! gives `1.00` in both. The eval report prints its mean F1 with `toFixed(2)`
//! and its percentages with `Math.round`.

use super::number::format_js_number;

/// JavaScript's `x.toFixed(digits)` for `digits` in 0..=100.
///
/// Takes the exact decimal expansion of the double and rounds half up (away
/// from zero, the sign printed separately): `to_fixed(0.125, 2)` = `"0.13"`,
/// `to_fixed(1.005, 2)` = `"1.00"`, `to_fixed(-0.001, 2)` = `"-0.00"`,
/// `to_fixed(-0.0, 2)` = `"0.00"`. Values with magnitude ≥ 10²¹ print as
/// `String(x)` (`"1e+21"`); `NaN` prints `"NaN"`, infinities `"Infinity"` /
/// `"-Infinity"`. `digits` above 100 is treated as 100 (JavaScript throws).
pub fn to_fixed(x: f64, digits: u8) -> String {
    let digits = usize::from(digits.min(100));
    if !x.is_finite() {
        return format_js_number(x);
    }
    if x.abs() >= 1e21 {
        return format_js_number(x);
    }
    // -0 is not below zero, so it prints without a sign, as in JavaScript.
    let sign = if x < 0.0 { "-" } else { "" };
    let scaled = round_half_up_scaled(x.abs(), digits);
    let mut text = scaled.to_string();
    if digits > 0 {
        if text.len() <= digits {
            text = format!("{}{text}", "0".repeat(digits + 1 - text.len()));
        }
        text.insert(text.len() - digits, '.');
    }
    format!("{sign}{text}")
}

/// `round_half_up(x · 10^digits)` computed on the exact binary value of
/// `x` (finite, non-negative, below 10²¹), as ECMAScript's `toFixed` step
/// "let n be an integer for which n / 10^f − x is as close to zero as
/// possible; if there are two such n, pick the larger".
fn round_half_up_scaled(x: f64, digits: usize) -> BigUint {
    // x = mantissa · 2^exponent exactly.
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (mantissa, exponent) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    };
    let scaled = BigUint::from_u64(mantissa).mul_pow10(digits);
    if exponent >= 0 {
        return scaled.shl(exponent.unsigned_abs() as usize);
    }
    // n = floor((scaled + 2^(s-1)) / 2^s) with s = -exponent.
    let shift = exponent.unsigned_abs() as usize;
    scaled.add_pow2(shift - 1).shr(shift)
}

/// A minimal unsigned big integer (little-endian 32-bit limbs): just the
/// operations `to_fixed` needs to work on a double's exact value.
#[derive(Debug, Clone, PartialEq, Eq)]
struct BigUint {
    limbs: Vec<u32>,
}

impl BigUint {
    fn from_u64(n: u64) -> Self {
        let mut big = BigUint {
            limbs: vec![n as u32, (n >> 32) as u32],
        };
        big.trim();
        big
    }

    fn trim(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    fn mul_small(mut self, factor: u32) -> Self {
        let mut carry = 0u64;
        for limb in &mut self.limbs {
            let product = u64::from(*limb) * u64::from(factor) + carry;
            *limb = product as u32;
            carry = product >> 32;
        }
        if carry > 0 {
            self.limbs.push(carry as u32);
        }
        self
    }

    fn mul_pow10(mut self, power: usize) -> Self {
        for _ in 0..power {
            self = self.mul_small(10);
        }
        self
    }

    fn shl(mut self, bits: usize) -> Self {
        let (words, rest) = (bits / 32, bits % 32);
        if rest > 0 {
            let mut carry = 0u32;
            for limb in &mut self.limbs {
                let next = *limb >> (32 - rest);
                *limb = (*limb << rest) | carry;
                carry = next;
            }
            if carry > 0 {
                self.limbs.push(carry);
            }
        }
        let mut limbs = vec![0; words];
        limbs.append(&mut self.limbs);
        let mut big = BigUint { limbs };
        big.trim();
        big
    }

    fn shr(self, bits: usize) -> Self {
        let (words, rest) = (bits / 32, bits % 32);
        if words >= self.limbs.len() {
            return BigUint { limbs: Vec::new() };
        }
        let mut limbs = self.limbs[words..].to_vec();
        if rest > 0 {
            for i in 0..limbs.len() {
                let high = limbs.get(i + 1).copied().unwrap_or(0);
                limbs[i] = (limbs[i] >> rest) | (high << (32 - rest));
            }
        }
        let mut big = BigUint { limbs };
        big.trim();
        big
    }

    fn add_pow2(mut self, bit: usize) -> Self {
        let (word, rest) = (bit / 32, bit % 32);
        if self.limbs.len() <= word {
            self.limbs.resize(word + 1, 0);
        }
        let mut carry = u64::from(1u32 << rest);
        for limb in &mut self.limbs[word..] {
            let sum = u64::from(*limb) + carry;
            *limb = sum as u32;
            carry = sum >> 32;
            if carry == 0 {
                break;
            }
        }
        if carry > 0 {
            self.limbs.push(carry as u32);
        }
        self
    }

    /// Decimal digits, by repeated division by 10⁹.
    fn to_decimal(&self) -> String {
        if self.limbs.is_empty() {
            return String::from("0");
        }
        let mut limbs = self.limbs.clone();
        let mut chunks = Vec::new();
        while !limbs.is_empty() {
            let mut remainder = 0u64;
            for limb in limbs.iter_mut().rev() {
                let current = (remainder << 32) | u64::from(*limb);
                *limb = (current / 1_000_000_000) as u32;
                remainder = current % 1_000_000_000;
            }
            chunks.push(remainder as u32);
            while limbs.last() == Some(&0) {
                limbs.pop();
            }
        }
        let mut text = chunks.pop().map(|c| c.to_string()).unwrap_or_default();
        for chunk in chunks.iter().rev() {
            text.push_str(&format!("{chunk:09}"));
        }
        text
    }
}

impl std::fmt::Display for BigUint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_decimal())
    }
}

/// JavaScript's `x.toFixed(2)` (see [`to_fixed`]): `0.125` → `"0.13"`,
/// `0.375` → `"0.38"`, `1.005` → `"1.00"`, `2.675` → `"2.67"`, `0.045` →
/// `"0.04"`, `0.995` → `"0.99"`, as JavaScript gives.
pub fn to_fixed_2(x: f64) -> String {
    to_fixed(x, 2)
}

/// JavaScript's `Math.round(x)`: the nearest integer, ties toward +∞
/// (`2.5` → 3, `-2.5` → −2, `0.49999999999999994` → 0, `-0.4` → −0).
/// `NaN` and infinities are returned unchanged.
pub fn math_round(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let floor = x.floor();
    // `x - floor` is exact (the fraction of a double is representable), so
    // this decides ties without the `floor(x + 0.5)` rounding error.
    let rounded = if x - floor >= 0.5 { floor + 1.0 } else { floor };
    if rounded == 0.0 && x.is_sign_negative() {
        -0.0
    } else {
        rounded
    }
}

/// The eval report's percentage: `Math.round((part / whole) * 100)`,
/// computed in that order: `1/8` → 13, `3/8` → 38, `5/8` →
/// 63, `1/200` → 1. A zero `whole` gives `NaN` (the report prints `—` then).
pub fn round_percent(part: f64, whole: f64) -> f64 {
    math_round((part / whole) * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_fixed_2_rounds_the_exact_value_half_up() {
        let cases: [(f64, &str); 18] = [
            (0.125, "0.13"),
            (0.375, "0.38"),
            (1.005, "1.00"),
            (2.675, "2.67"),
            (0.045, "0.04"),
            (0.995, "0.99"),
            (1.0, "1.00"),
            (0.0, "0.00"),
            (-0.0, "0.00"),
            (-0.001, "-0.00"),
            (-0.125, "-0.13"),
            (0.5, "0.50"),
            (2.0 / 3.0, "0.67"),
            (123.456, "123.46"),
            (5e-324, "0.00"),
            (0.005, "0.01"),
            (999.995, "1000.00"),
            (1e20, "100000000000000000000.00"),
        ];
        for (x, expected) in cases {
            assert_eq!(to_fixed_2(x), expected, "{x:e}");
        }
    }

    #[test]
    fn to_fixed_2_special_values() {
        assert_eq!(to_fixed_2(1e21), "1e+21");
        assert_eq!(to_fixed_2(-1e21), "-1e+21");
        assert_eq!(to_fixed_2(f64::NAN), "NaN");
        assert_eq!(to_fixed_2(f64::INFINITY), "Infinity");
        assert_eq!(to_fixed_2(f64::NEG_INFINITY), "-Infinity");
    }

    #[test]
    fn to_fixed_other_digit_counts() {
        assert_eq!(to_fixed(2.5, 0), "3");
        assert_eq!(to_fixed(1.45, 1), "1.4");
        assert_eq!(to_fixed(0.1, 20), "0.10000000000000000555");
        assert_eq!(to_fixed(1.0, 3), "1.000");
    }

    #[test]
    fn to_fixed_agrees_with_ryu_js_on_a_sweep() {
        let mut buffer = ryu_js::Buffer::new();
        for i in 0..20_000u32 {
            let x = f64::from(i) / 1000.0 + 0.0005;
            assert_eq!(to_fixed_2(x), buffer.format_to_fixed(x, 2), "{x}");
            let y = f64::from(i) * 0.005;
            assert_eq!(to_fixed_2(y), buffer.format_to_fixed(y, 2), "{y}");
        }
    }

    #[test]
    fn math_round_rounds_ties_toward_positive_infinity() {
        assert_eq!(math_round(2.5), 3.0);
        assert_eq!(math_round(-2.5), -2.0);
        assert_eq!(math_round(12.5), 13.0);
        assert_eq!(math_round(2.4), 2.0);
        assert_eq!(math_round(0.49999999999999994), 0.0);
        assert!(math_round(-0.4).is_sign_negative());
        assert_eq!(math_round(-0.5), 0.0);
        assert!(math_round(f64::NAN).is_nan());
    }

    #[test]
    fn percentages_round_as_the_eval_report_does() {
        assert_eq!(round_percent(1.0, 8.0), 13.0);
        assert_eq!(round_percent(3.0, 8.0), 38.0);
        assert_eq!(round_percent(5.0, 8.0), 63.0);
        assert_eq!(round_percent(1.0, 200.0), 1.0);
        assert_eq!(round_percent(1.0, 3.0), 33.0);
        assert_eq!(round_percent(1.0, 1.0), 100.0);
        assert!(round_percent(0.0, 0.0).is_nan());
    }

    /// An independent oracle: Rust prints the exact decimal expansion of a
    /// double with enough precision (at most 1074 fraction digits), and
    /// rounding half up is then a decision on one digit.
    fn to_fixed_oracle(x: f64, digits: usize) -> String {
        let exact = format!("{:.1100}", x.abs());
        let (int, fraction) = exact.split_once('.').unwrap();
        let mut kept: Vec<u8> = format!("{int}{}", &fraction[..digits]).into_bytes();
        if fraction.as_bytes()[digits] >= b'5' {
            let mut i = kept.len();
            loop {
                if i == 0 {
                    kept.insert(0, b'1');
                    break;
                }
                i -= 1;
                if kept[i] == b'9' {
                    kept[i] = b'0';
                } else {
                    kept[i] += 1;
                    break;
                }
            }
        }
        let mut text = String::from_utf8(kept).unwrap();
        if digits > 0 {
            text.insert(text.len() - digits, '.');
        }
        let sign = if x < 0.0 { "-" } else { "" };
        format!("{sign}{text}")
    }

    proptest::proptest! {
        #[test]
        fn to_fixed_matches_the_exact_decimal_oracle(
            // Every double below 1e21, spread evenly over exponents.
            bits in 0u64..1e21f64.to_bits(),
            negative in proptest::bool::ANY,
            digits in 0u8..=100,
        ) {
            let x = if negative { -f64::from_bits(bits) } else { f64::from_bits(bits) };
            proptest::prop_assert_eq!(to_fixed(x, digits), to_fixed_oracle(x, usize::from(digits)));
        }

        #[test]
        fn to_fixed_2_matches_the_oracle_near_ties(cents in 0u64..10_000_000, delta in -2i64..=2) {
            // Values at and next to n.xx5, where rounding is decided by the
            // binary value.
            let tie = (cents as f64 + 0.5) / 100.0;
            let x = f64::from_bits((tie.to_bits() as i64 + delta) as u64);
            proptest::prop_assert_eq!(to_fixed_2(x), to_fixed_oracle(x, 2));
        }

        #[test]
        fn math_round_is_the_nearest_integer_ties_up(x in -1e6f64..1e6) {
            let r = math_round(x);
            proptest::prop_assert!(r - x <= 0.5 && x - r < 0.5, "{x} -> {r}");
            proptest::prop_assert_eq!(r, r.trunc());
        }
    }
}
