//! Parsing untrusted JSON text without stack overflows, and disposing of
//! deep values safely.
//!
//! Model output can nest arbitrarily deep. `serde_json` refuses more than 128
//! levels by default and, with that limit lifted, recurses once per level;
//! dropping a `serde_json::Value` recurses too (a 100,000-deep array
//! overflows an 8 MiB stack on drop). So:
//!
//! - one reader reads JSON text: it keeps open containers in a `Vec` instead
//!   of recursing, so any depth reads in memory proportional to the text
//!   (1,000,000 levels included), builds the values `serde_json` builds and
//!   words its errors as `serde_json` does;
//! - [`parse_json`] is that reader with no limit;
//! - the parsed value comes back as a [`DeepValue`], which dereferences to
//!   the `Value` and drops it iteratively;
//! - [`Document::parse_within`] is that reader under an input budget,
//!   counting every value as it is read and building nothing past the first
//!   one over a limit, so hostile text is refused in memory close to its own
//!   size; the [`Document`] it reads is what every check takes, and a check
//!   under a budget its count is within need not measure it again;
//! - [`drop_deep`] disposes of any owned `Value` iteratively.
//!
//! Semantics match JavaScript's `JSON.parse` where the two can agree: a
//! duplicated key keeps its first position and its last value
//! (`{"a":1,"b":2,"a":3}` → `{"a":3,"b":2}`). Three differences are policy:
//! - a lone surrogate escape (`"\ud800"`) cannot live in a Rust `String`, so
//!   it is a syntax error here where JavaScript accepts it;
//! - error messages are `serde_json`'s (`expected value at line 1 column 1`),
//!   not V8's;
//! - a number too large for a double (`1e400`) is an error (`number out of
//!   range`) where JavaScript reads `Infinity`.
//!
//! Files: the text reader's entry points and errors are here, the reader
//! itself in `reader`; `scan` finds where plain string text ends, for the
//! reader and for the `JSON.stringify` writer; `deep` holds [`DeepValue`]
//! and the iterative clone, comparison and drop; `document` holds
//! [`Document`].

mod deep;
mod document;
mod reader;
mod scan;

use crate::budget::BudgetRefusal;

pub(crate) use deep::eq_deep;
pub use deep::{DeepValue, clone_deep, drop_deep};
pub use document::Document;
pub(crate) use scan::{is_separator_at, plain_end};

/// JSON text that failed to parse: `serde_json`'s message plus where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct JsonSyntaxError {
    /// `serde_json`'s description, including the position
    /// (`expected value at line 1 column 1`).
    pub message: String,
    /// 1-based line of the error (0 when the input ended early and no line
    /// applies).
    pub line: usize,
    /// 1-based column of the error (0 as for `line`).
    pub column: usize,
}

impl From<serde_json::Error> for JsonSyntaxError {
    fn from(error: serde_json::Error) -> Self {
        JsonSyntaxError {
            message: error.to_string(),
            line: error.line(),
            column: error.column(),
        }
    }
}

/// Parses untrusted JSON text of any nesting depth (see module docs): the
/// one reader with no limit.
///
/// The whole text must be one JSON value, surrounded by optional JSON
/// whitespace; trailing characters are an error (`trailing characters at
/// line 1 column 5`). Numbers that fit `i64`/`u64` stay integers, others
/// become doubles; duplicate keys keep their first position and last value.
///
/// # Errors
/// [`JsonSyntaxError`] with `serde_json`'s message when the text is not JSON
/// or holds a lone surrogate escape.
pub fn parse_json(text: &str) -> Result<DeepValue, JsonSyntaxError> {
    let value = reader::read(text, None, true)?;
    Ok(DeepValue::new(value.unwrap_or_default()))
}

/// Why [`Document::parse_within`] gave no document.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonRefusal {
    /// The text is not JSON (`serde_json`'s message and position, as from
    /// [`parse_json`]). A syntax error anywhere wins over the budget, as
    /// `JSON.parse` runs before upstream's budget check.
    #[error(transparent)]
    Syntax(#[from] JsonSyntaxError),
    /// The text is JSON over the budget: the refusal
    /// [`check_input_budget`](crate::check_input_budget) gives the same
    /// value (see [`Document::parse_within`] for the two cases where the
    /// text is stricter). [`BudgetRefusal::to_error`] turns it into upstream's
    /// `INPUT_OVER_BUDGET` finding.
    #[error("{}", .0.message())]
    OverBudget(BudgetRefusal),
}

/// `Some(depth)` as soon as the brackets of `text` nest deeper than `limit`
/// (brackets inside strings, and escaped quotes in them, are skipped), else
/// `None`: a cheap over-approximation of a JSON text's nesting that does not
/// check the syntax (unbalanced closers never go below zero). A line-based
/// transport can refuse text nested past a limit before parsing it at all.
/// Stops at the first bracket past the limit, so a huge deep text costs only
/// its prefix.
pub fn nests_deeper_than(text: &str, limit: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for byte in text.bytes() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(depth);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, Value, json};

    #[test]
    fn parses_ordinary_json_in_document_order() {
        let value = parse_json(" {\"b\": [1, 2.5, -0, true, null], \"a\": \"é\\n\"}\n").unwrap();
        assert_eq!(*value, json!({"b": [1, 2.5, -0.0, true, null], "a": "é\n"}));
        let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["b", "a"]);
        assert_eq!(*parse_json("42").unwrap(), json!(42));
        assert_eq!(*parse_json("\"x\"").unwrap(), json!("x"));
    }

    #[test]
    fn duplicate_keys_keep_first_position_and_last_value() {
        let value = parse_json(r#"{"a":1,"b":2,"a":3}"#).unwrap();
        assert_eq!(crate::js::json_stringify(&value), r#"{"a":3,"b":2}"#);
    }

    #[test]
    fn syntax_errors_say_where() {
        let error = parse_json("").unwrap_err();
        assert_eq!(
            error.message,
            "EOF while parsing a value at line 1 column 0"
        );
        let error = parse_json("{\"a\":1} x").unwrap_err();
        assert_eq!(error.message, "trailing characters at line 1 column 9");
        assert_eq!((error.line, error.column), (1, 9));
        let error = parse_json("[1,]").unwrap_err();
        assert_eq!(error.message, "trailing comma at line 1 column 4");
        assert!(parse_json("\"\\ud800\"").is_err());
        assert!(parse_json("NaN").is_err());
    }

    #[test]
    fn ten_thousand_levels_parse_on_a_small_thread_stack() {
        // Test threads may be as small as 2 MiB; use 256 KiB to be sure
        // nothing here grows with depth on the caller's stack.
        let handle = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let text = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
                let value = parse_json(&text).unwrap();
                let mut depth = 0;
                let mut cursor: &Value = &value;
                while let Some(inner) = cursor.as_array().and_then(|items| items.first()) {
                    cursor = inner;
                    depth += 1;
                }
                depth
            })
            .unwrap();
        assert_eq!(handle.join().unwrap(), 9_999);
    }

    #[test]
    fn deep_values_before_a_syntax_error_are_dropped_safely() {
        let deep = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
        // A complete deep element, then garbage.
        assert!(parse_json(&format!("[{deep}, x]")).is_err());
        // A deep value replaced by a repeated key.
        let value = parse_json(&format!("{{\"a\":{deep},\"a\":1}}")).unwrap();
        assert_eq!(*value, json!({"a": 1}));
        // Unclosed and broken deep input fails fast (no quadratic error cost).
        let started = std::time::Instant::now();
        assert!(parse_json(&"[".repeat(1_000_000)).is_err());
        assert!(parse_json(&format!("{}x", "[".repeat(1_000_000))).is_err());
        let error = parse_json(&format!(
            "{}1e400{}",
            "[".repeat(300_000),
            "]".repeat(300_000)
        ))
        .unwrap_err();
        assert_eq!(error.message, "number out of range at line 1 column 300005");
        assert!(started.elapsed() < std::time::Duration::from_secs(60));
        // A deep object value.
        let objects = format!("{}1{}", "{\"k\":".repeat(200_000), "}".repeat(200_000));
        drop(parse_json(&objects).unwrap());
    }

    #[test]
    fn clone_eq_and_debug_are_iterative() {
        let text = format!(
            "{}{{\"a\":[1,\"x\"]}}{}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        let value = parse_json(&text).unwrap();
        let copy = value.clone();
        assert!(copy == value);
        assert_eq!(crate::js::json_stringify(&copy), text);
        let other = parse_json(&text.replace("\"x\"", "\"y\"")).unwrap();
        assert!(copy != other);
        assert_eq!(
            format!("{:?}", DeepValue::new(json!([1, {"a": null}]))),
            "DeepValue([1,{\"a\":null}])"
        );
        assert!(eq_deep(
            &json!({"a": 1, "b": [2]}),
            &json!({"b": [2], "a": 1})
        ));
        assert!(!eq_deep(&json!({"a": 1}), &json!({"b": 1})));
        assert!(!eq_deep(&json!([1]), &json!([1, 2])));
        assert!(!eq_deep(&json!([]), &json!({})));
        assert!(!eq_deep(&json!(1), &json!(1.0)));
        // A scalar never equals a container, at the root or inside one.
        assert!(eq_deep(&json!("x"), &json!("x")));
        assert!(!eq_deep(&json!(1), &json!([1])));
        assert!(!eq_deep(&json!({"a": 1}), &json!({"a": [1]})));
        assert!(!eq_deep(&json!([[1], 2]), &json!([[1], [2]])));
        assert!(!eq_deep(
            &json!({"a": {}, "b": 1}),
            &json!({"b": 1, "a": 1})
        ));
        // Keys paired by position, then looked up after the first mismatch:
        // equal with any order, unequal on any differing key or value.
        let ordered = json!({"a": 1, "b": 2, "c": {"d": 3, "e": 4}, "f": 5});
        assert!(eq_deep(&ordered, &ordered.clone()));
        assert!(eq_deep(&ordered, &ordered));
        assert!(eq_deep(
            &ordered,
            &json!({"a": 1, "b": 2, "f": 5, "c": {"e": 4, "d": 3}})
        ));
        assert!(!eq_deep(
            &ordered,
            &json!({"a": 1, "b": 2, "f": 5, "c": {"e": 4, "d": 0}})
        ));
        assert!(!eq_deep(
            &ordered,
            &json!({"a": 1, "b": 2, "g": 5, "c": {"d": 3, "e": 4}})
        ));
        assert!(!eq_deep(
            &ordered,
            &json!({"a": 1, "b": 2, "c": {"d": 3, "e": 4}, "f": 6})
        ));
        assert_eq!(
            clone_deep(&json!({"b": 1, "a": [true, null]})),
            json!({"b": 1, "a": [true, null]})
        );
        let keys: Vec<String> = clone_deep(&json!({"b": 1, "a": 2}))
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert_eq!(keys, ["b", "a"]);
    }

    #[test]
    fn drop_deep_handles_any_depth() {
        let mut value = json!(0);
        for i in 0..300_000 {
            value = if i % 2 == 0 {
                Value::Array(vec![value, json!("x")])
            } else {
                Value::Object(Map::from_iter([(String::from("k"), value)]))
            };
        }
        drop_deep(value);
        let wrapped = DeepValue::new(json!([1, [2]]));
        assert_eq!(wrapped.clone().into_inner(), json!([1, [2]]));
        assert_eq!(wrapped.as_ref(), &json!([1, [2]]));
    }
}

#[cfg(test)]
mod reader_properties {
    //! The one reader against `serde_json`, whose values and words it
    //! promises (module docs).

    use super::*;
    use crate::js::{json_stringify, json_stringify_pretty};
    use serde_json::{Number, Value};

    /// What the reader reads from `text`: the value, or the error message.
    fn reader_reads(text: &str) -> Result<Value, String> {
        parse_json(text)
            .map(DeepValue::into_inner)
            .map_err(|error| error.message)
    }

    /// What `serde_json` reads from `text`: the value, or its message.
    fn serde_json_reads(text: &str) -> Result<Value, String> {
        serde_json::from_str(text).map_err(|error| error.to_string())
    }

    /// Texts that are not JSON, with `serde_json`'s message for each.
    const REFUSED: [(&str, &str); 42] = [
        ("{\n\"a\":\n}", "expected value at line 3 column 1"),
        ("[\n1,\n\n2 x]", "expected `,` or `]` at line 4 column 3"),
        ("\"\\u12", "EOF while parsing a string at line 1 column 5"),
        ("\"\\", "EOF while parsing a string at line 1 column 2"),
        ("[\"a\" , ]", "trailing comma at line 1 column 8"),
        ("{\"a\":1}}", "trailing characters at line 1 column 8"),
        ("  \n  ]", "expected value at line 2 column 3"),
        ("[-01]", "invalid number at line 1 column 4"),
        ("", "EOF while parsing a value at line 1 column 0"),
        (" ", "EOF while parsing a value at line 1 column 1"),
        ("x", "expected value at line 1 column 1"),
        ("[", "EOF while parsing a list at line 1 column 1"),
        ("[1", "EOF while parsing a list at line 1 column 2"),
        ("[1,", "EOF while parsing a value at line 1 column 3"),
        ("[1,]", "trailing comma at line 1 column 4"),
        ("[1 2]", "expected `,` or `]` at line 1 column 4"),
        ("{", "EOF while parsing an object at line 1 column 1"),
        ("{\"a\"", "EOF while parsing an object at line 1 column 4"),
        ("{\"a\":", "EOF while parsing a value at line 1 column 5"),
        ("{\"a\":1", "EOF while parsing an object at line 1 column 6"),
        ("{\"a\":1,}", "trailing comma at line 1 column 8"),
        ("{\"a\" 1}", "expected `:` at line 1 column 6"),
        ("{1:2}", "key must be a string at line 1 column 2"),
        (
            "{\"a\":1 \"b\":2}",
            "expected `,` or `}` at line 1 column 8",
        ),
        ("\"abc", "EOF while parsing a string at line 1 column 4"),
        (
            "\"a\u{1}b\"",
            "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 3",
        ),
        ("\"\\x\"", "invalid escape at line 1 column 3"),
        ("\"\\u12G4\"", "invalid escape at line 1 column 7"),
        (
            "\"\\ud800\"",
            "unexpected end of hex escape at line 1 column 8",
        ),
        (
            "\"\\ud800\\u0041\"",
            "lone leading surrogate in hex escape at line 1 column 13",
        ),
        (
            "\"\\udc00\"",
            "lone leading surrogate in hex escape at line 1 column 7",
        ),
        ("tru", "EOF while parsing a value at line 1 column 3"),
        ("trux", "expected ident at line 1 column 4"),
        ("nul", "EOF while parsing a value at line 1 column 3"),
        ("-", "EOF while parsing a value at line 1 column 1"),
        ("-x", "invalid number at line 1 column 2"),
        ("01", "invalid number at line 1 column 2"),
        ("1.", "EOF while parsing a value at line 1 column 2"),
        ("1.x", "invalid number at line 1 column 3"),
        ("1e", "EOF while parsing a value at line 1 column 2"),
        ("1e400", "number out of range at line 1 column 5"),
        ("[1]\n x", "trailing characters at line 2 column 2"),
    ];

    #[test]
    fn refuses_with_serde_jsons_words_at_its_positions() {
        for (text, message) in REFUSED {
            assert_eq!(reader_reads(text), Err(message.to_owned()), "{text:?}");
            assert_eq!(serde_json_reads(text), Err(message.to_owned()), "{text:?}");
        }
    }

    #[test]
    fn builds_serde_jsons_values() {
        let texts = [
            r#"{"a":[1,-0,1.0,1e21,18446744073709551615,18446744073709551616,-9223372036854775809],"b":{"c":"\u00e9\ud83d\ude00\n\"\\\/"},"a":true}"#,
            "[null,false,true,\"\",[],{},0.1,123.456e-7]",
            " \t\n\r42\n ",
        ];
        for text in texts {
            assert_eq!(reader_reads(text), serde_json_reads(text), "{text}");
        }
        let value = parse_json(texts[0]).unwrap();
        assert_eq!(
            json_stringify(&value),
            r#"{"a":true,"b":{"c":"é😀\n\"\\/"}}"#
        );
    }

    #[test]
    fn integers_that_fit_stay_integers_and_the_rest_are_doubles() {
        let read = |text: &str| match parse_json(text).unwrap().into_inner() {
            Value::Number(number) => number,
            other => panic!("{text}: {other}"),
        };
        assert_eq!(read("0").as_u64(), Some(0));
        assert_eq!(read("18446744073709551615").as_u64(), Some(u64::MAX));
        assert_eq!(read("-1").as_i64(), Some(-1));
        assert_eq!(read("-9223372036854775808").as_i64(), Some(i64::MIN));
        let doubles = [
            ("-0", -0.0),
            ("18446744073709551616", 18_446_744_073_709_551_616.0),
            ("-9223372036854775809", -9_223_372_036_854_775_809.0),
            ("1.0", 1.0),
            ("1e2", 100.0),
            ("-0.5E-1", -0.05),
        ];
        for (text, double) in doubles {
            let number = read(text);
            assert!(number.is_f64(), "{text}");
            assert_eq!(number.as_f64(), Some(double), "{text}");
            assert_eq!(number, serde_json::from_str::<Number>(text).unwrap());
        }
        assert!(read("-0").as_f64().unwrap().is_sign_negative());
    }

    #[test]
    fn plain_runs_of_a_string_end_at_every_byte_that_ends_them() {
        // Plain text is scanned eight bytes at a time: put each byte that
        // ends a run, and bytes that do not, at every offset of a chunk.
        for offset in 0..20 {
            let before = "a".repeat(offset);
            for inner in [
                "\\\"", "\\\\", "\\n", "\\u00e9", "é", "\u{7f}", "~", "\u{1}", "\u{1f}",
            ] {
                let text = format!("\"{before}{inner}bcdefghij\"");
                assert_eq!(reader_reads(&text), serde_json_reads(&text), "{text:?}");
            }
            let unterminated = format!("\"{before}");
            assert_eq!(
                reader_reads(&unterminated),
                Err(format!(
                    "EOF while parsing a string at line 1 column {}",
                    offset + 1
                ))
            );
        }
    }

    fn arb_value() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            // JSON.stringify prints integers beyond 2^53 as doubles, so only
            // safe integers round-trip.
            (-(1i64 << 53)..=(1i64 << 53)).prop_map(|n| Value::Number(n.into())),
            any::<f64>()
                .prop_filter("finite", |n| n.is_finite())
                .prop_map(|n| Number::from_f64(n).map_or(Value::Null, Value::Number)),
            "\\PC{0,6}".prop_map(Value::String),
            "[\"\\\\/\u{0}-\u{1f}\u{2028}a😀]{0,4}".prop_map(Value::String),
        ];
        leaf.prop_recursive(5, 40, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::vec(("[a-c0-2\"]{0,2}", inner), 0..4)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    /// `value`'s compact text with `insert` put in at byte `cut` (or the
    /// nearest character boundary before it).
    fn mangled(value: &Value, cut: usize, insert: &str) -> String {
        let mut text = json_stringify(value);
        let mut at = cut.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        text.insert_str(at, insert);
        text
    }

    proptest::proptest! {
        #[test]
        fn stringify_then_parse_round_trips(value in arb_value()) {
            let compact = json_stringify(&value);
            let pretty = json_stringify_pretty(&value);
            for text in [&compact, &pretty] {
                let read = reader_reads(text);
                // As in JavaScript, a value survives as its text: a float
                // 0.0 comes back as the integer 0, which prints the same.
                proptest::prop_assert_eq!(read.as_ref().map(json_stringify), Ok(compact.clone()));
                proptest::prop_assert_eq!(read, serde_json_reads(text));
            }
        }

        #[test]
        fn mangled_text_reads_as_serde_json_reads_it(value in arb_value(), cut in 0usize..200, insert in "[\\[\\]{}:,\"\\\\a0 -]") {
            let text = mangled(&value, cut, &insert);
            proptest::prop_assert_eq!(reader_reads(&text), serde_json_reads(&text), "{:?}", text);
        }

        #[test]
        fn reading_within_a_budget_nothing_crosses_is_parse_json(value in arb_value(), cut in 0usize..200, insert in "[\\[\\]{}:,\"\\\\a0 -]") {
            let text = mangled(&value, cut, &insert);
            let unlimited = crate::InputBudget {
                depth: usize::MAX,
                values: usize::MAX,
                characters: usize::MAX,
            };
            let within = Document::parse_within(&text, unlimited)
                .map(|document| document.into_value().into_inner())
                .map_err(|refusal| refusal.to_string());
            proptest::prop_assert_eq!(within, reader_reads(&text), "{:?}", text);
        }
    }
}
