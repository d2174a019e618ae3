//! Reading `corpus.json` while the attribute expands, with the reader the harness uses.

use std::path::{Path, PathBuf};

use syn::LitStr;

use crate::ctxt::Ctxt;

// The one corpus-manifest reader: the harness reads `corpus.json` with it at run time, so
// expansion and run time agree on what a well-formed corpus is.
use isomer_corpus::{MANIFEST_FILE, parse_manifest};

/// The variable the macro reads before `CARGO_MANIFEST_DIR` to resolve `corpus = "..."`.
/// trybuild compiles UI tests in `target/tests/trybuild/<crate>`, where
/// `CARGO_MANIFEST_DIR` names that copy (dtolnay/trybuild#202); the UI test runner sets
/// this to the real package root.
pub(crate) const MANIFEST_DIR_OVERRIDE: &str = "ISOMER_EVAL_MANIFEST_DIR";

/// A corpus the macro read and checked.
#[derive(Debug)]
pub(crate) struct Corpus {
    /// The package root the paths resolved against.
    pub(crate) root: PathBuf,
    /// The absolute corpus directory.
    pub(crate) dir: PathBuf,
    /// The absolute path of `corpus.json` (what `include_str!` tracks).
    pub(crate) manifest_path: PathBuf,
    /// The cases in file order: id, and the byte range of the case object in the text.
    pub(crate) cases: Vec<(String, usize, usize)>,
}

/// The package root the attribute's paths resolve against: the override variable when
/// set, else `CARGO_MANIFEST_DIR`.
pub(crate) fn package_root() -> Option<PathBuf> {
    std::env::var_os(MANIFEST_DIR_OVERRIDE)
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR"))
        .map(PathBuf::from)
}

/// Reads `<root>/<corpus>/corpus.json` and checks it with the manifest reader. Every
/// problem is reported into `cx` at the `corpus = "..."` literal, naming the path as
/// written (never the absolute one). `None` when anything is wrong.
pub(crate) fn read_corpus(cx: &Ctxt, root: &Path, corpus: &LitStr) -> Option<Corpus> {
    let written = corpus.value();
    let shown = format!("{}/corpus.json", written.trim_end_matches('/'));
    if written.is_empty() || Path::new(&written).is_absolute() {
        cx.error_spanned_by(
            corpus,
            "`corpus` is a directory relative to the package root, such as \"corpus/slides\"",
        );
        return None;
    }
    let dir = root.join(&written);
    if dir.is_file() {
        cx.error_spanned_by(
            corpus,
            format!(
                "{written} is a file: `corpus` names the directory that holds corpus.json, answers/ and judgments.json"
            ),
        );
        return None;
    }
    let manifest_path = dir.join(MANIFEST_FILE);
    let text = match std::fs::read_to_string(&manifest_path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            cx.error_spanned_by(
                corpus,
                format!(
                    "no corpus at {shown}: the file does not exist (the path resolves against the package root, where Cargo.toml is)"
                ),
            );
            return None;
        }
        Err(error) => {
            cx.error_spanned_by(
                corpus,
                format!("cannot read {shown}: {}", io_reason(&error)),
            );
            return None;
        }
    };
    match parse_manifest(&text) {
        Ok(parsed) if parsed.cases.is_empty() => {
            cx.error_spanned_by(
                corpus,
                format!("{shown} has no cases: a gate over no cases would pass without checking anything"),
            );
            None
        }
        Ok(parsed) if parsed.cases.iter().any(|case| case.id == "totals") => {
            for case in parsed.cases.iter().filter(|case| case.id == "totals") {
                cx.error_spanned_by(
                    corpus,
                    format!(
                        "{shown}:{}: case id \"totals\" is taken by the suite's own `<suite>::totals` trial; rename the case (and its answer files)",
                        case.id_position
                    ),
                );
            }
            None
        }
        Ok(parsed) => Some(Corpus {
            root: root.to_owned(),
            dir: std::fs::canonicalize(&dir).unwrap_or(dir),
            manifest_path: std::fs::canonicalize(&manifest_path).unwrap_or(manifest_path),
            cases: parsed
                .cases
                .into_iter()
                .map(|case| {
                    let (start, end) = object_span(&text, case.position.line, case.position.column);
                    (case.id, start, end)
                })
                .collect(),
        }),
        Err(faults) => {
            for fault in faults {
                cx.error_spanned_by(corpus, format!("{shown}:{fault}"));
            }
            None
        }
    }
}

/// The byte range of the JSON value starting at 1-based `line` and byte `column` of
/// `text` (a case object the manifest reader located).
fn object_span(text: &str, line: usize, column: usize) -> (usize, usize) {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let start = line_start + column.saturating_sub(1);
    let mut values =
        serde_json::Deserializer::from_str(&text[start..]).into_iter::<serde_json::Value>();
    let _ = values.next();
    (start, start + values.byte_offset())
}

/// An io error's reason without the platform's "(os error N)" suffix.
fn io_reason(error: &std::io::Error) -> String {
    let text = error.to_string();
    match text.find(" (os error") {
        Some(cut) => text[..cut].to_owned(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_span_covers_exactly_the_case_object() {
        let text = "{\n  \"cases\": [\n    { \"id\": \"a\", \"prompt\": \"p\" },\n    {\"id\":\"b\",\"prompt\":\"}\"}\n  ]\n}";
        let (start, end) = object_span(text, 3, 5);
        assert_eq!(&text[start..end], "{ \"id\": \"a\", \"prompt\": \"p\" }");
        let (start, end) = object_span(text, 4, 5);
        assert_eq!(&text[start..end], "{\"id\":\"b\",\"prompt\":\"}\"}");
    }

    #[test]
    fn cases_carry_their_spans_and_problems_point_at_the_literal() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../isomer-evals");
        let cx = Ctxt::new();
        let corpus = read_corpus(&cx, &root, &syn::parse_quote!("tests/fixtures/eval/mini"));
        cx.check().unwrap();
        let corpus = corpus.unwrap();
        let text = std::fs::read_to_string(&corpus.manifest_path).unwrap();
        let ids: Vec<&str> = corpus.cases.iter().map(|(id, _, _)| id.as_str()).collect();
        assert_eq!(ids, ["good", "retried", "no-golden"]);
        let (_, start, end) = &corpus.cases[2];
        assert_eq!(
            &text[*start..*end],
            "{\n      \"id\": \"no-golden\",\n      \"prompt\": \"Say that the export finished.\"\n    }"
        );

        let cx = Ctxt::new();
        let absent = read_corpus(&cx, &root, &syn::parse_quote!("/abs/corpus"));
        assert!(absent.is_none());
        let messages: Vec<String> = cx
            .check()
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(
            messages,
            ["`corpus` is a directory relative to the package root, such as \"corpus/slides\""]
        );
    }

    fn messages(root: &Path, corpus: &str) -> Vec<String> {
        let cx = Ctxt::new();
        let literal = LitStr::new(corpus, proc_macro2::Span::call_site());
        assert!(read_corpus(&cx, root, &literal).is_none());
        cx.check()
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect()
    }

    #[test]
    fn a_case_named_totals_would_share_the_totals_trial_name() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../isomer-evals");
        assert_eq!(
            messages(&root, "tests/fixtures/eval/totals-id"),
            [
                "tests/fixtures/eval/totals-id/corpus.json:5:13: case id \"totals\" is taken by the suite's own `<suite>::totals` trial; rename the case (and its answer files)"
            ]
        );
    }

    #[test]
    fn a_corpus_path_naming_the_file_says_to_name_the_directory() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../isomer-evals");
        assert_eq!(
            messages(&root, "tests/fixtures/eval/mini/corpus.json"),
            [
                "tests/fixtures/eval/mini/corpus.json is a file: `corpus` names the directory that holds corpus.json, answers/ and judgments.json"
            ]
        );
    }
}
