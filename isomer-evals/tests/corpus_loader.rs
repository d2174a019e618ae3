//! The corpus loader reports every fault with its file and position, with
//! exact messages, and skips nothing.

use std::fs;
use std::path::Path;

use tempfile::TempDir;

use isomer_corpus::{ManifestFaultKind, Position, parse_manifest};
use isomer_evals::corpus::Corpus;
use isomer_evals::recordings::Recordings;

const PROVENANCE: &str = r#""provenance": {"author": "test"}"#;

/// A fresh, empty directory for one test, under cargo's per-target temp dir:
/// `corpus_loader/<name>-<random>`, unique to this call (two `cargo test` runs at
/// once must not share it), removed when the returned guard drops.
fn fresh_dir(name: &str) -> TempDir {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("corpus_loader");
    fs::create_dir_all(&base).unwrap();
    tempfile::Builder::new()
        .prefix(&format!("{name}-"))
        .tempdir_in(base)
        .unwrap()
}

fn write(dir: &Path, relative: &str, contents: impl AsRef<[u8]>) {
    let path = dir.join(relative);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, contents).unwrap();
}

/// The load's error text with the test directory shown as `<dir>`.
fn load_errors(dir: &Path) -> String {
    let errors = Corpus::load(dir).expect_err("the corpus has faults");
    errors
        .to_string()
        .replace(&dir.display().to_string(), "<dir>")
}

const TWO_CASES: &str = r#"{
  "provenance": {"author": "test"},
  "cases": [
    {"id": "alpha", "prompt": "First?"},
    {"id": "beta", "prompt": "Second?", "expected": ["stat"]}
  ]
}
"#;

#[test]
fn loads_a_well_formed_corpus() {
    let scratch = fresh_dir("well_formed");
    let dir = scratch.path().to_path_buf();
    write(&dir, "corpus.json", TWO_CASES);
    write(&dir, "prompt.txt", "# View authoring\n");
    write(&dir, "answers/alpha.0.txt", "{\"type\":\"view\"}");
    write(&dir, "answers/alpha.1.txt", "retry");
    write(
        &dir,
        "judgments.json",
        r#"{"provenance": {"judge": "test"}, "judgments": [{"id": "beta", "verdict": "partial", "rendered": "stat"}]}"#,
    );
    let corpus = Corpus::load(&dir).unwrap();
    let ids: Vec<&str> = corpus.cases.iter().map(|case| case.id.as_str()).collect();
    assert_eq!(ids, ["alpha", "beta"]);
    assert_eq!(corpus.cases[1].position, Position { line: 5, column: 5 });
    assert_eq!(
        corpus.cases[1].id_position,
        Position {
            line: 5,
            column: 12
        }
    );
    assert_eq!(corpus.provenance["author"], "test");
    assert_eq!(corpus.prompt.as_deref(), Some("# View authoring\n"));
    assert!(corpus.has_answer("alpha", 0));
    assert!(corpus.has_answer("alpha", 1));
    assert!(!corpus.has_answer("beta", 0));
    assert_eq!(
        corpus.answer_path("beta", 1),
        dir.join("answers/beta.1.txt")
    );
    let cases = corpus.eval_cases();
    assert_eq!(cases[1].expected.as_deref(), Some(&["stat".to_owned()][..]));
    assert_eq!(cases[0].golden, None);

    // The answer files are listed, and read by the recordings store on demand.
    assert!(corpus.has_answer("alpha", 1) && !corpus.has_answer("beta", 0));
    let recordings = Recordings::new(&dir);
    assert_eq!(recordings.answer("alpha", 1).unwrap(), "retry");
    assert_eq!(corpus.judgments.unwrap().by_case["beta"].rendered, "stat");
}

#[test]
fn a_corpus_without_recordings_loads() {
    let scratch = fresh_dir("no_recordings");
    let dir = scratch.path().to_path_buf();
    write(&dir, "corpus.json", TWO_CASES);
    let corpus = Corpus::load(&dir).unwrap();
    assert_eq!(corpus.prompt, None);
    assert_eq!(corpus.judgments, None);
    assert!(!corpus.has_answer("alpha", 0));
}

#[test]
fn malformed_json_names_line_and_column() {
    let scratch = fresh_dir("malformed");
    let dir = scratch.path().to_path_buf();
    write(
        &dir,
        "corpus.json",
        "{\n  \"provenance\": {},\n  \"cases\": [\n    {\"id\": \"a\",}\n  ]\n}\n",
    );
    assert_eq!(
        load_errors(&dir),
        "<dir>/corpus.json:4:16: malformed JSON: trailing comma"
    );

    let scratch = fresh_dir("truncated");
    let dir = scratch.path().to_path_buf();
    write(&dir, "corpus.json", "{\"provenance\": {}, \"cases\": [");
    assert_eq!(
        load_errors(&dir),
        "<dir>/corpus.json:1:29: malformed JSON: EOF while parsing a list"
    );
}

#[test]
fn a_case_without_id_or_prompt_is_reported_where_it_sits() {
    let scratch = fresh_dir("missing_fields");
    let dir = scratch.path().to_path_buf();
    write(
        &dir,
        "corpus.json",
        r#"{
  "provenance": {"author": "test"},
  "cases": [
    {"prompt": "No id?"},
    {"id": "no-prompt"},
    {"id": 7, "prompt": ["not", "a", "string"]},
    "just text"
  ]
}
"#,
    );
    assert_eq!(
        load_errors(&dir),
        [
            "<dir>/corpus.json:4:5: case 0 needs a string `id`",
            "<dir>/corpus.json:5:5: case 1 needs a string `prompt`",
            "<dir>/corpus.json:6:12: case 2 needs a string `id`",
            "<dir>/corpus.json:6:25: case 2 needs a string `prompt`",
            "<dir>/corpus.json:7:5: case 3 must be an object",
        ]
        .join("\n")
    );
}

#[test]
fn duplicate_ids_are_reported_at_both_places() {
    let scratch = fresh_dir("duplicates");
    let dir = scratch.path().to_path_buf();
    write(
        &dir,
        "corpus.json",
        r#"{
  "provenance": {"author": "test"},
  "cases": [
    {"id": "kpis", "prompt": "One"},
    {"id": "other", "prompt": "Two"},
    {"id": "kpis", "prompt": "Three"},
    {"id": "kpis", "prompt": "Four"}
  ]
}
"#,
    );
    assert_eq!(
        load_errors(&dir),
        [
            "<dir>/corpus.json:6:12: duplicate case id \"kpis\", first used at 4:12",
            "<dir>/corpus.json:7:12: duplicate case id \"kpis\", first used at 4:12",
        ]
        .join("\n")
    );
}

#[test]
fn shape_faults_name_the_rule() {
    let scratch = fresh_dir("shape");
    let dir = scratch.path().to_path_buf();
    write(
        &dir,
        "corpus.json",
        r#"{
  "cases": [
    {"id": "a b", "prompt": "Spaces?", "goldn": {}},
    {"id": "ok", "prompt": "Fine", "golden": [], "expected": "stat"}
  ],
  "version": 2
}
"#,
    );
    assert_eq!(
        load_errors(&dir),
        [
            "<dir>/corpus.json:1:1: the corpus has no `provenance`; say who wrote the cases, when and how",
            "<dir>/corpus.json:3:12: case 0 has id \"a b\"; use ASCII letters, digits, `-` and `_` (it names answer files)",
            "<dir>/corpus.json:3:40: case 0 has unknown key \"goldn\"; a case has `id`, `prompt`, `golden`, `expected`, `expectedTools` and `expectedToolSet`",
            "<dir>/corpus.json:4:46: case 1 has a `golden` that is not a composition object",
            "<dir>/corpus.json:4:62: case 1 has an `expected` that is not an array of node types",
            "<dir>/corpus.json:6:3: unknown key \"version\"; the corpus has only `provenance` and `cases`",
        ]
        .join("\n")
    );

    let scratch = fresh_dir("root_array");
    let dir = scratch.path().to_path_buf();
    write(&dir, "corpus.json", "[]");
    assert_eq!(
        load_errors(&dir),
        "<dir>/corpus.json:1:1: the corpus must be an object with `provenance` and `cases`"
    );

    let scratch = fresh_dir("cases_object");
    let dir = scratch.path().to_path_buf();
    write(
        &dir,
        "corpus.json",
        format!("{{{PROVENANCE}, \"cases\": {{}}}}"),
    );
    assert_eq!(
        load_errors(&dir),
        "<dir>/corpus.json:1:45: `cases` must be an array"
    );
}

#[test]
fn answer_files_for_unknown_cases_or_with_bad_names_are_reported() {
    let scratch = fresh_dir("answers");
    let dir = scratch.path().to_path_buf();
    write(&dir, "corpus.json", TWO_CASES);
    write(&dir, "answers/alpha.0.txt", "ok");
    write(&dir, "answers/gamma.0.txt", "orphan");
    write(&dir, "answers/alpha.2.txt", "third attempt");
    write(&dir, "answers/notes.md", "scratch");
    fs::create_dir_all(dir.join("answers/beta.1.txt")).unwrap();
    assert_eq!(
        load_errors(&dir),
        [
            "<dir>/answers/alpha.2.txt: is not named `<case id>.<attempt>.txt` with attempt 0 or 1, so no replay reads it",
            "<dir>/answers/beta.1.txt: is named like an answer but is not a file",
            "<dir>/answers/gamma.0.txt: records an answer for case \"gamma\", which corpus.json does not have",
            "<dir>/answers/notes.md: is not named `<case id>.<attempt>.txt` with attempt 0 or 1, so no replay reads it",
        ]
        .join("\n")
    );
}

#[test]
fn unreadable_and_non_utf8_files_are_reported() {
    let scratch = fresh_dir("unreadable");
    let dir = scratch.path().to_path_buf();
    fs::create_dir_all(dir.join("corpus.json")).unwrap();
    write(&dir, "prompt.txt", b"line one\nbad \xff byte");
    // The faults' kinds and positions are checked by the unit tests of `corpus`; here,
    // the text: one line each, and the operating system's error as the source.
    let errors = Corpus::load(&dir).unwrap_err();
    let text = errors.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with(&format!(
            "{}: cannot be read: ",
            dir.join("corpus.json").display()
        )),
        "{}",
        lines[0]
    );
    assert_eq!(
        lines[1],
        format!(
            "{}:2:5: is not UTF-8 text (first invalid byte here)",
            dir.join("prompt.txt").display()
        )
    );
    let first = std::error::Error::source(&errors).expect("the first fault");
    assert_eq!(first.to_string(), lines[0]);
    assert!(first.source().unwrap().is::<std::io::Error>());

    // An answer that is not UTF-8 is reported when it is read, and only then.
    let scratch = fresh_dir("answer_not_utf8");
    let dir = scratch.path().to_path_buf();
    write(&dir, "corpus.json", TWO_CASES);
    write(&dir, "answers/alpha.0.txt", b"\xc3\x28");
    Corpus::load(&dir).unwrap();
    let recordings = Recordings::new(&dir);
    assert_eq!(recordings.answer("beta", 0).unwrap(), "");
    assert_eq!(
        recordings
            .answer("alpha", 0)
            .unwrap_err()
            .to_string()
            .replace(&dir.display().to_string(), "<dir>"),
        "<dir>/answers/alpha.0.txt:1:1: is not UTF-8 text (first invalid byte here)"
    );
}

#[test]
fn a_missing_directory_or_manifest_is_named() {
    let scratch = fresh_dir("missing");
    let dir = scratch.path().to_path_buf();
    let absent = dir.join("nowhere");
    assert_eq!(
        Corpus::load(&absent).unwrap_err().to_string(),
        format!(
            "{}: is not a corpus directory (expected a directory holding corpus.json)",
            absent.display()
        )
    );
    assert_eq!(
        load_errors(&dir),
        "<dir>/corpus.json: does not exist; a corpus directory holds corpus.json, and optionally prompt.txt, answers/ and judgments.json"
    );
}

#[test]
fn judgment_faults_are_reported_with_positions() {
    let scratch = fresh_dir("judgments");
    let dir = scratch.path().to_path_buf();
    write(&dir, "corpus.json", TWO_CASES);
    write(
        &dir,
        "judgments.json",
        r#"{
  "provenance": {"judge": "test"},
  "judgments": [
    {"id": "alpha", "verdict": "yes", "rendered": "stat"},
    {"id": "alpha", "verdict": "no", "rendered": "stat"},
    {"id": "zeta", "verdict": "maybe", "rendered": "x"},
    {"id": "beta", "verdict": "yes", "rendred": "x"}
  ]
}
"#,
    );
    assert_eq!(
        load_errors(&dir),
        [
            "<dir>/judgments.json:5:12: second judgment for case \"alpha\", first at 4:12",
            "<dir>/judgments.json:6:12: judgment for case \"zeta\", which corpus.json does not have",
            "<dir>/judgments.json:6:31: judgment 2 needs a `verdict` of \"yes\", \"partial\" or \"no\"",
            "<dir>/judgments.json:7:5: judgment 3 needs a string `rendered` (the text rendering it judged)",
            "<dir>/judgments.json:7:38: judgment 3 has unknown key \"rendred\"; a judgment has `id`, `verdict` and `rendered`",
        ]
        .join("\n")
    );
}

#[test]
fn every_fault_of_every_file_comes_in_one_load() {
    let scratch = fresh_dir("everything");
    let dir = scratch.path().to_path_buf();
    write(
        &dir,
        "corpus.json",
        format!(
            "{{{PROVENANCE}, \"cases\": [{{\"id\": \"a\"}}, {{\"id\": \"a\", \"prompt\": \"p\"}}]}}"
        ),
    );
    write(&dir, "answers/b.0.txt", "orphan");
    write(&dir, "judgments.json", "{");
    let errors = Corpus::load(&dir).unwrap_err();
    assert_eq!(
        errors.to_string().replace(&dir.display().to_string(), "<dir>"),
        [
            "<dir>/corpus.json:1:46: case 0 needs a string `prompt`",
            "<dir>/corpus.json:1:66: duplicate case id \"a\", first used at 1:53",
            "<dir>/answers/b.0.txt: records an answer for case \"b\", which corpus.json does not have",
            "<dir>/judgments.json:1:1: malformed JSON: EOF while parsing an object",
        ]
        .join("\n")
    );
}

#[test]
fn the_manifest_reader_alone_gives_structured_faults() {
    let faults = parse_manifest(
        r#"{"provenance": {}, "cases": [{"id": "x", "prompt": "p"}, {"id": "x", "prompt": "q"}]}"#,
    )
    .unwrap_err();
    assert_eq!(faults.len(), 1);
    assert_eq!(
        faults[0].position,
        Position {
            line: 1,
            column: 65
        }
    );
    assert_eq!(
        faults[0].kind,
        ManifestFaultKind::DuplicateId {
            id: "x".into(),
            first: Position {
                line: 1,
                column: 37
            }
        }
    );
    assert_eq!(
        faults[0].to_string(),
        "1:65: duplicate case id \"x\", first used at 1:37"
    );
}

#[test]
fn a_repeated_key_is_reported_at_both_places() {
    let scratch = fresh_dir("repeated_key");
    let dir = scratch.path().to_path_buf();
    write(
        &dir,
        "corpus.json",
        r#"{
  "provenance": {"author": "test"},
  "cases": [
    {"id": "kpis", "prompt": "First wording", "prompt": "Second wording"}
  ]
}
"#,
    );
    write(
        &dir,
        "judgments.json",
        r#"{"provenance": {}, "judgments": [], "judgments": []}"#,
    );
    assert_eq!(
        load_errors(&dir),
        [
            "<dir>/corpus.json:4:47: duplicate key \"prompt\", first at 4:20; JSON keeps only the last value",
            "<dir>/judgments.json:1:37: duplicate key \"judgments\", first at 1:20; JSON keeps only the last value",
        ]
        .join("\n")
    );
}

#[test]
fn a_byte_order_mark_is_named_in_the_manifest_and_the_judgments() {
    let scratch = fresh_dir("bom");
    let dir = scratch.path().to_path_buf();
    write(&dir, "corpus.json", format!("\u{feff}{TWO_CASES}"));
    write(
        &dir,
        "judgments.json",
        "\u{feff}{\"provenance\": {}, \"judgments\": []}",
    );
    assert_eq!(
        load_errors(&dir),
        "<dir>/corpus.json:1:1: malformed JSON: the file starts with a byte order mark (U+FEFF), which JSON does not allow; save it as UTF-8 without a BOM\n\
         <dir>/judgments.json:1:1: malformed JSON: the file starts with a byte order mark (U+FEFF), which JSON does not allow; save it as UTF-8 without a BOM"
    );
}
