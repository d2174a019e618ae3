//! Parsing `#[isomer_eval(...)]` into [`EvalArgs`]. Every problem goes into the
//! [`Ctxt`] with the span of its token, and parsing goes on, so one build shows them all.

use proc_macro2::{Span, TokenStream};
use syn::parse::Parser;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, ExprUnary, Lit, LitStr, UnOp};

use crate::ctxt::Ctxt;

/// The floor table this macro checks floors against; the harness reads the same one.
use isomer_corpus::{AGENT_FLOORS, FloorKind, FloorRange, FloorSpec, SINGLE_SHOT_FLOORS as FLOORS};

/// Whether the attribute declares an agent suite: a top-level `agent` key, bare or
/// `= true`. Read before the keys are parsed, so each floor is checked against its mode's
/// table wherever `agent` is written.
fn declares_agent(tokens: &TokenStream) -> bool {
    let tokens: Vec<proc_macro2::TokenTree> = tokens.clone().into_iter().collect();
    let mut at_key = true;
    for (index, token) in tokens.iter().enumerate() {
        match token {
            proc_macro2::TokenTree::Punct(punct) if punct.as_char() == ',' => at_key = true,
            proc_macro2::TokenTree::Ident(ident) if at_key && ident == "agent" => {
                return match (tokens.get(index + 1), tokens.get(index + 2)) {
                    (Some(proc_macro2::TokenTree::Punct(eq)), Some(value))
                        if eq.as_char() == '=' =>
                    {
                        value.to_string() != "false"
                    }
                    _ => true,
                };
            }
            _ => at_key = false,
        }
    }
    false
}

/// A floor's value as written.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum FloorValue {
    /// A flag; `false` declares the floor off.
    Flag(bool),
    /// A number (float or integer literal, possibly negated).
    Number(f64),
    /// An integer literal.
    Count(u64),
}

/// One floor as written: its key, its value, and the span of the value (the key's span
/// for a bare flag).
#[derive(Debug, Clone)]
pub(crate) struct FloorArg {
    /// The key as written (`min_selection_f1`), a name of the suite kind's floor table.
    pub(crate) key: syn::Ident,
    /// The value.
    pub(crate) value: FloorValue,
    /// Where the value is written.
    pub(crate) value_span: Span,
}

/// The parsed attribute.
#[derive(Debug, Default)]
pub(crate) struct EvalArgs {
    /// `corpus = "dir"`.
    pub(crate) corpus: Option<LitStr>,
    /// `name = "suite"`.
    pub(crate) name: Option<LitStr>,
    /// `main = false` turns off the emitted `main`.
    pub(crate) main: Option<syn::LitBool>,
    /// `snapshots = "dir"`.
    pub(crate) snapshots: Option<LitStr>,
    /// `crate = "path"`.
    pub(crate) krate: Option<syn::Path>,
    /// The floors, in attribute order.
    pub(crate) floors: Vec<FloorArg>,
    /// `agent`: the corpus is an agent corpus, run with the agent floors.
    pub(crate) agent: bool,
}

impl EvalArgs {
    /// Whether the expansion writes `main` (true unless `main = false`).
    pub(crate) fn emits_main(&self) -> bool {
        self.main.as_ref().is_none_or(|main| main.value)
    }
}

/// Parses the attribute's tokens. Syntax errors and unknown keys go into `cx`.
pub(crate) fn parse_args(cx: &Ctxt, tokens: TokenStream) -> EvalArgs {
    let mut args = EvalArgs {
        agent: declares_agent(&tokens),
        ..EvalArgs::default()
    };
    let (table, other) = if args.agent {
        (AGENT_FLOORS, FLOORS)
    } else {
        (FLOORS, AGENT_FLOORS)
    };
    let parser = syn::meta::parser(|meta| {
        let Some(ident) = meta.path.get_ident().cloned() else {
            cx.error_spanned_by(
                &meta.path,
                "expected a key such as `corpus` or a floor name",
            );
            skip_value(&meta)?;
            return Ok(());
        };
        let key = ident.to_string();
        match key.as_str() {
            "corpus" | "name" | "snapshots" => {
                let value: LitStr = meta.value()?.parse()?;
                let slot = match key.as_str() {
                    "corpus" => &mut args.corpus,
                    "name" => &mut args.name,
                    _ => &mut args.snapshots,
                };
                if slot.is_some() {
                    cx.error_spanned_by(&ident, format!("`{key}` is given twice"));
                }
                *slot = Some(value);
            }
            "main" => {
                let value: syn::LitBool = meta.value()?.parse()?;
                if args.main.is_some() {
                    cx.error_spanned_by(&ident, "`main` is given twice");
                }
                args.main = Some(value);
            }
            "agent" => {
                if meta.input.peek(syn::Token![=]) {
                    let _: syn::LitBool = meta.value()?.parse()?;
                }
            }
            "crate" => {
                let value: LitStr = meta.value()?.parse()?;
                match value.parse::<syn::Path>() {
                    Ok(path) => args.krate = Some(path),
                    Err(_) => cx.error_spanned_by(
                        &value,
                        "`crate` must be a path such as \"::isomer_evals\"",
                    ),
                }
            }
            _ => match table.iter().find(|spec| spec.name == key) {
                Some(spec) => {
                    let kind = spec.kind;
                    if args.floors.iter().any(|floor| floor.key == ident) {
                        cx.error_spanned_by(&ident, format!("floor `{key}` is declared twice"));
                    }
                    if let Some((value, value_span)) = floor_value(cx, &meta, &ident, kind)? {
                        args.floors.push(FloorArg {
                            key: ident,
                            value,
                            value_span,
                        });
                    }
                }
                None if other.iter().any(|spec| spec.name == key) => {
                    cx.error_spanned_by(&ident, other_mode_message(&key, args.agent));
                    skip_value(&meta)?;
                }
                None if args.agent => {
                    cx.error_spanned_by(&ident, unknown_agent_key_message(&key));
                    skip_value(&meta)?;
                }
                None => {
                    cx.error_spanned_by(&ident, unknown_key_message(&key));
                    skip_value(&meta)?;
                }
            },
        }
        Ok(())
    });
    if let Err(error) = parser.parse2(tokens) {
        cx.syn_error(error);
    }
    args
}

/// `unknown key \`min_f1\`; did you mean \`min_selection_f1\`? ...`
fn unknown_key_message(key: &str) -> String {
    let names: Vec<&str> = FLOORS.iter().map(|spec| spec.name).collect();
    let closest = names
        .iter()
        .chain(["corpus", "name", "main", "snapshots", "crate"].iter())
        .map(|name| (edit_distance(key, name), *name))
        .min()
        .filter(|(distance, name)| *distance <= name.len().max(key.len()) / 3 + 1);
    let hint = match closest {
        Some((_, name)) => format!("did you mean `{name}`? "),
        None => String::new(),
    };
    format!(
        "unknown key `{key}`; {hint}the keys are `corpus`, `name`, `main`, `snapshots`, `crate` and the floors {}",
        names
            .iter()
            .map(|name| format!("`{name}`"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// A floor name of the other mode: `floor \`max_mean_turns\` is an agent floor ...`.
fn other_mode_message(key: &str, agent: bool) -> String {
    if agent {
        format!(
            "floor `{key}` is a single-shot floor, and this suite is an agent suite (`agent`); the agent floors are {}",
            quoted(AGENT_FLOORS)
        )
    } else {
        format!(
            "floor `{key}` is an agent floor: write `agent` to run the corpus as an agent corpus, or use the single-shot floors {}",
            quoted(FLOORS)
        )
    }
}

/// `unknown key \`x\`` in an agent suite, with the closest key and the agent floors.
fn unknown_agent_key_message(key: &str) -> String {
    let closest = AGENT_FLOORS
        .iter()
        .map(|spec| spec.name)
        .chain(["corpus", "name", "main", "snapshots", "crate", "agent"])
        .map(|name| (edit_distance(key, name), name))
        .min()
        .filter(|(distance, name)| *distance <= name.len().max(key.len()) / 3 + 1);
    let hint = match closest {
        Some((_, name)) => format!("did you mean `{name}`? "),
        None => String::new(),
    };
    format!(
        "unknown key `{key}`; {hint}the keys are `corpus`, `name`, `main`, `snapshots`, `crate`, `agent` and the agent floors {}",
        quoted(AGENT_FLOORS)
    )
}

/// The names of a floor table, each in backticks, joined by `, `.
fn quoted(table: &[FloorSpec]) -> String {
    table
        .iter()
        .map(|spec| format!("`{}`", spec.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Levenshtein distance over bytes (keys are ASCII).
fn edit_distance(a: &str, b: &str) -> usize {
    let b = b.as_bytes();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, x) in a.bytes().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, y) in b.iter().enumerate() {
            let current = row[j + 1];
            row[j + 1] = if x == *y {
                previous
            } else {
                1 + previous.min(row[j]).min(current)
            };
            previous = current;
        }
    }
    row[b.len()]
}

/// Consumes `= <expr>` after a key that is being reported, so parsing can go on.
fn skip_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<Expr>()?;
    }
    Ok(())
}

/// Reads and range-checks a floor's value. `Ok(None)` when it was reported as wrong.
///
/// A literal with a type suffix (`0.5f32`, `3u8`) is refused: the floor's type is fixed
/// (`f64` or `u64`), so a suffix could only mislead. A negative zero (`-0.0`, `-0`) is
/// read as `0.0`, so the floor prints as `0`, as written without the sign.
fn floor_value(
    cx: &Ctxt,
    meta: &syn::meta::ParseNestedMeta<'_>,
    key: &syn::Ident,
    kind: FloorKind,
) -> syn::Result<Option<(FloorValue, Span)>> {
    if !meta.input.peek(syn::Token![=]) {
        if kind == FloorKind::Flag {
            return Ok(Some((FloorValue::Flag(true), key.span())));
        }
        cx.error_spanned_by(
            key,
            format!("floor `{key}` needs a value: {}", accepted(key, kind)),
        );
        return Ok(None);
    }
    let expr: Expr = meta.value()?.parse()?;
    let span = expr.span();
    let (negative, lit) = match &expr {
        Expr::Lit(ExprLit { lit, .. }) => (false, lit),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr: inner,
            ..
        }) => match &**inner {
            Expr::Lit(ExprLit { lit, .. }) => (true, lit),
            _ => {
                cx.error_spanned_by(&expr, expectation(key, kind));
                return Ok(None);
            }
        },
        _ => {
            cx.error_spanned_by(&expr, expectation(key, kind));
            return Ok(None);
        }
    };
    let (digits, suffix) = match lit {
        Lit::Float(float) => (float.base10_digits(), float.suffix()),
        Lit::Int(int) => (int.base10_digits(), int.suffix()),
        _ => ("", ""),
    };
    if !suffix.is_empty() && kind != FloorKind::Flag {
        let sign = if negative { "-" } else { "" };
        cx.error_spanned_by(
            &expr,
            format!(
                "floor `{key}` takes a literal without a type suffix: write `{key} = {sign}{digits}`, not `{sign}{digits}{suffix}`"
            ),
        );
        return Ok(None);
    }
    let sign = if negative { -1.0 } else { 1.0 };
    // `+ 0.0` turns a negative zero into 0.0 and leaves every other number as it is.
    let number = match lit {
        Lit::Float(float) => float.base10_parse::<f64>().ok().map(|n| n * sign + 0.0),
        Lit::Int(int) => int.base10_parse::<f64>().ok().map(|n| n * sign + 0.0),
        _ => None,
    };
    let value = match (kind.numbers(), lit) {
        (None, Lit::Bool(flag)) if !negative => Some(FloorValue::Flag(flag.value)),
        (Some(FloorRange::Ratio | FloorRange::PositiveNumber), _) => number
            .filter(|n| kind.accepts_number(*n))
            .map(FloorValue::Number),
        (Some(FloorRange::Count), Lit::Int(int)) if !negative => match int.base10_parse::<u64>() {
            Ok(count) => Some(FloorValue::Count(count)),
            Err(_) => {
                cx.error_spanned_by(
                    &expr,
                    format!(
                        "floor `{key}` is at most {} (the largest u64), and {digits} is larger",
                        u64::MAX
                    ),
                );
                return Ok(None);
            }
        },
        _ => None,
    };
    match value {
        Some(value) => Ok(Some((value, span))),
        None => {
            cx.error_spanned_by(&expr, expectation(key, kind));
            Ok(None)
        }
    }
}

/// What a floor of `kind` accepts, as a message ("floor `key` takes ...").
fn expectation(key: &syn::Ident, kind: FloorKind) -> String {
    match kind {
        FloorKind::Flag => format!("floor `{key}` is a flag: {}", accepted(key, kind)),
        _ => format!("floor `{key}` takes {}", accepted(key, kind)),
    }
}

/// The values a floor of `kind` takes, with an example ("a number from 0.0 to 1.0, e.g.
/// `key = 0.8`"), or for a flag how to write it.
fn accepted(key: &syn::Ident, kind: FloorKind) -> String {
    match kind.numbers() {
        None => format!("write `{key}` or `{key} = false`"),
        Some(FloorRange::Ratio) => format!("a number from 0.0 to 1.0, e.g. `{key} = 0.8`"),
        Some(FloorRange::PositiveNumber) => {
            format!("a number greater than 0, e.g. `{key} = 1.5`")
        }
        Some(FloorRange::Count) if key == "max_turns" => {
            format!("a whole number of turns, e.g. `{key} = 6`")
        }
        Some(FloorRange::Count) => format!("a whole number of cases, e.g. `{key} = 0`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn parse(tokens: TokenStream) -> (EvalArgs, Vec<String>) {
        let cx = Ctxt::new();
        let args = parse_args(&cx, tokens);
        let errors = match cx.check() {
            Ok(()) => Vec::new(),
            Err(error) => error.into_iter().map(|e| e.to_string()).collect(),
        };
        (args, errors)
    }

    #[test]
    fn reads_every_key_and_floor_kind() {
        let (args, errors) = parse(quote!(
            corpus = "corpus/slides",
            name = "deck",
            main = false,
            snapshots = "tests/baseline",
            crate = "::renamed",
            valid_after_retry,
            expected_hit = false,
            min_selection_f1 = 0.8,
            max_size_vs_golden = 2,
            max_answerability_no = 0,
        ));
        assert_eq!(errors, Vec::<String>::new());
        assert_eq!(args.corpus.unwrap().value(), "corpus/slides");
        assert_eq!(args.name.unwrap().value(), "deck");
        assert!(!args.main.as_ref().unwrap().value);
        assert_eq!(args.snapshots.unwrap().value(), "tests/baseline");
        let floors: Vec<(String, FloorValue)> = args
            .floors
            .iter()
            .map(|f| (f.key.to_string(), f.value.clone()))
            .collect();
        assert_eq!(
            floors,
            [
                ("valid_after_retry".into(), FloorValue::Flag(true)),
                ("expected_hit".into(), FloorValue::Flag(false)),
                ("min_selection_f1".into(), FloorValue::Number(0.8)),
                ("max_size_vs_golden".into(), FloorValue::Number(2.0)),
                ("max_answerability_no".into(), FloorValue::Count(0)),
            ]
        );
    }

    #[test]
    fn every_problem_is_reported_in_one_pass() {
        let (_, errors) = parse(quote!(
            corpus = "c",
            expected_hits,
            min_valid_ratio = 1.5,
            max_size_vs_golden = -1.0,
            max_answerability_no = 0.5,
            valid_after_retry = 1,
            min_mean_selection_f1,
            no_invented_types,
            no_invented_types,
        ));
        assert_eq!(
            errors,
            [
                "unknown key `expected_hits`; did you mean `expected_hit`? the keys are `corpus`, `name`, `main`, `snapshots`, `crate` and the floors `valid_after_retry`, `min_selection_f1`, `expected_hit`, `no_invented_types`, `max_size_vs_golden`, `answerability_not_no`, `min_pass_rate`, `min_valid_ratio`, `min_valid_after_retry_ratio`, `min_mean_selection_f1`, `max_answerability_no`",
                "floor `min_valid_ratio` takes a number from 0.0 to 1.0, e.g. `min_valid_ratio = 0.8`",
                "floor `max_size_vs_golden` takes a number greater than 0, e.g. `max_size_vs_golden = 1.5`",
                "floor `max_answerability_no` takes a whole number of cases, e.g. `max_answerability_no = 0`",
                "floor `valid_after_retry` is a flag: write `valid_after_retry` or `valid_after_retry = false`",
                "floor `min_mean_selection_f1` needs a value: a number from 0.0 to 1.0, e.g. `min_mean_selection_f1 = 0.8`",
                "floor `no_invented_types` is declared twice",
            ]
        );
    }

    #[test]
    fn agent_suites_take_the_agent_floors_only() {
        let (args, errors) = parse(quote!(
            corpus = "c",
            max_turns = 6,
            expected_hit,
            max_mean_turns = 4.5,
            agent,
            min_expected_hit_ratio = 0.875,
        ));
        assert_eq!(errors, Vec::<String>::new());
        assert!(args.agent);
        let floors: Vec<(String, FloorValue)> = args
            .floors
            .iter()
            .map(|f| (f.key.to_string(), f.value.clone()))
            .collect();
        assert_eq!(
            floors,
            [
                ("max_turns".into(), FloorValue::Count(6)),
                ("expected_hit".into(), FloorValue::Flag(true)),
                ("max_mean_turns".into(), FloorValue::Number(4.5)),
                ("min_expected_hit_ratio".into(), FloorValue::Number(0.875)),
            ]
        );
        let (_, errors) = parse(quote!(
            agent,
            corpus = "c",
            valid_after_retry,
            max_mean_turn = 4.0,
            max_turns = 1.5
        ));
        assert_eq!(
            errors,
            [
                "floor `valid_after_retry` is a single-shot floor, and this suite is an agent suite (`agent`); the agent floors are `finished`, `valid`, `expected_hit`, `no_failed_calls`, `max_turns`, `tools_called`, `min_finished_ratio`, `min_valid_ratio`, `min_expected_hit_ratio`, `min_tools_called_ratio`, `max_mean_turns`",
                "unknown key `max_mean_turn`; did you mean `max_mean_turns`? the keys are `corpus`, `name`, `main`, `snapshots`, `crate`, `agent` and the agent floors `finished`, `valid`, `expected_hit`, `no_failed_calls`, `max_turns`, `tools_called`, `min_finished_ratio`, `min_valid_ratio`, `min_expected_hit_ratio`, `min_tools_called_ratio`, `max_mean_turns`",
                "floor `max_turns` takes a whole number of turns, e.g. `max_turns = 6`",
            ]
        );
        let (args, errors) = parse(quote!(corpus = "c", agent = false, max_mean_turns = 4.0));
        assert!(!args.agent);
        assert_eq!(
            errors,
            [
                "floor `max_mean_turns` is an agent floor: write `agent` to run the corpus as an agent corpus, or use the single-shot floors `valid_after_retry`, `min_selection_f1`, `expected_hit`, `no_invented_types`, `max_size_vs_golden`, `answerability_not_no`, `min_pass_rate`, `min_valid_ratio`, `min_valid_after_retry_ratio`, `min_mean_selection_f1`, `max_answerability_no`"
            ]
        );
    }

    #[test]
    fn floor_values_are_refused_with_what_is_wrong() {
        let (args, errors) = parse(quote!(
            corpus = "c",
            min_valid_ratio,
            max_answerability_no = 99999999999999999999999,
            min_selection_f1 = 0.5f32,
            max_size_vs_golden = 2u64,
            min_mean_selection_f1 = -0.5f64,
            max_size_vs_golden = 99999999999999999999999,
            max_answerability_no = 18446744073709551615,
        ));
        assert_eq!(
            errors,
            [
                "floor `min_valid_ratio` needs a value: a number from 0.0 to 1.0, e.g. `min_valid_ratio = 0.8`",
                "floor `max_answerability_no` is at most 18446744073709551615 (the largest u64), and 99999999999999999999999 is larger",
                "floor `min_selection_f1` takes a literal without a type suffix: write `min_selection_f1 = 0.5`, not `0.5f32`",
                "floor `max_size_vs_golden` takes a literal without a type suffix: write `max_size_vs_golden = 2`, not `2u64`",
                "floor `min_mean_selection_f1` takes a literal without a type suffix: write `min_mean_selection_f1 = -0.5`, not `-0.5f64`",
            ]
        );
        // A refused value declares nothing, so the second key is no repeat; a whole number
        // too large for u64 is still a number for a number floor.
        let floors: Vec<(String, FloorValue)> = args
            .floors
            .iter()
            .map(|f| (f.key.to_string(), f.value.clone()))
            .collect();
        assert_eq!(
            floors,
            [
                ("max_size_vs_golden".into(), FloorValue::Number(1e23)),
                ("max_answerability_no".into(), FloorValue::Count(u64::MAX)),
            ]
        );
    }

    #[test]
    fn a_negative_zero_floor_reads_as_zero() {
        let (args, errors) = parse(quote!(
            corpus = "c",
            min_selection_f1 = -0.0,
            min_valid_ratio = -0,
        ));
        assert_eq!(errors, Vec::<String>::new());
        let values: Vec<String> = args
            .floors
            .iter()
            .map(|f| match f.value {
                FloorValue::Number(n) => format!("{n:?}"),
                ref other => format!("{other:?}"),
            })
            .collect();
        // `{:?}` of -0.0 is "-0.0": this pins the sign, which `==` ignores.
        assert_eq!(values, ["0.0", "0.0"]);
        // Below zero, even by a little, is out of range.
        let (_, errors) = parse(quote!(corpus = "c", min_selection_f1 = -0.001));
        assert_eq!(
            errors,
            [
                "floor `min_selection_f1` takes a number from 0.0 to 1.0, e.g. `min_selection_f1 = 0.8`"
            ]
        );
    }

    #[test]
    fn distance() {
        assert_eq!(edit_distance("min_f1", "min_selection_f1"), 10);
        assert_eq!(edit_distance("expected_hits", "expected_hit"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
