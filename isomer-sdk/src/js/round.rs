//! JavaScript rounding: `Number.prototype.toFixed` and `Math.round`.
//!
//! Rust's `format!("{:.2}", 0.125)` gives `0.12` (ties to even on the exact
//! value); JavaScript's `(0.125).toFixed(2)` gives `0.13`. Both look at the
//! exact binary value of the double, so `1.005` (really 1.00499999999999989…)
//! gives `1.00` in both. The eval report prints its mean F1 with `toFixed(2)`
//! and its percentages with `Math.round` (evals.md §7.1).

/// JavaScript's `x.toFixed(digits)` for `digits` in 0..=100.
///
/// Takes the exact decimal expansion of the double and rounds half up (away
/// from zero, the sign printed separately): `to_fixed(0.125, 2)` = `"0.13"`,
/// `to_fixed(1.005, 2)` = `"1.00"`, `to_fixed(-0.001, 2)` = `"-0.00"`,
/// `to_fixed(-0.0, 2)` = `"0.00"`. Values with magnitude ≥ 10²¹ print as
/// `String(x)` (`"1e+21"`); `NaN` prints `"NaN"`, infinities `"Infinity"` /
/// `"-Infinity"`. `digits` above 100 is treated as 100 (JavaScript throws).
pub fn to_fixed(x: f64, digits: u8) -> String {
    let _ = (x, digits);
    todo!("issue 2")
}

/// JavaScript's `x.toFixed(2)` (see [`to_fixed`]): `0.125` → `"0.13"`,
/// `0.375` → `"0.38"`, `1.005` → `"1.00"`, `2.675` → `"2.67"`, `0.045` →
/// `"0.04"`, `0.995` → `"0.99"` (evals.md §7.1).
pub fn to_fixed_2(x: f64) -> String {
    to_fixed(x, 2)
}

/// JavaScript's `Math.round(x)`: the nearest integer, ties toward +∞
/// (`2.5` → 3, `-2.5` → −2, `0.49999999999999994` → 0, `-0.4` → −0).
/// `NaN` and infinities are returned unchanged.
pub fn math_round(x: f64) -> f64 {
    let _ = x;
    todo!("issue 2")
}

/// The eval report's percentage: `Math.round((part / whole) * 100)`,
/// computed in that order (evals.md §7.1): `1/8` → 13, `3/8` → 38, `5/8` →
/// 63, `1/200` → 1. A zero `whole` gives `NaN` (the report prints `—` then).
pub fn round_percent(part: f64, whole: f64) -> f64 {
    math_round((part / whole) * 100.0)
}
