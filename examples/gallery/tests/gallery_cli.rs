//! The `isomer-gallery` command line as a user meets it: `--help`, `--version`,
//! refused arguments and a corpus that does not read, each with its exact
//! output and exit status. (Drawing the pictures themselves is covered by
//! isomer-pictures' own tests; a whole run draws about 90 slides.)

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_isomer-gallery"))
        .args(args)
        .output()
        .expect("isomer-gallery runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

const HELP: &str = "\
Draws a PNG of every slides primitive's catalog example and of every golden of a slides corpus.

Usage: isomer-gallery <OUT_DIR> [CORPUS_DIR]

Arguments:
  <OUT_DIR>     The directory the pictures and README.md are written into (created when missing)
  [CORPUS_DIR]  The corpus whose goldens are drawn [default: corpus/slides of this repository]

Options:
  -h, --help     Print help
  -V, --version  Print version

Exit status:
  0  every picture is drawn
  1  a picture cannot be drawn or a case has no golden (every other picture is still written)
  2  a bad argument, a corpus that does not read or parse, or an output path that cannot be written
";

#[test]
fn help_and_version_print_and_exit_zero() {
    for flag in ["--help", "-h"] {
        let output = run(&[flag]);
        assert_eq!(text(&output.stderr), "", "{flag}");
        assert_eq!(text(&output.stdout), HELP, "{flag}");
        assert_eq!(output.status.code(), Some(0), "{flag}");
    }
    for flag in ["--version", "-V"] {
        let output = run(&[flag]);
        assert_eq!(text(&output.stderr), "", "{flag}");
        assert_eq!(
            text(&output.stdout),
            concat!("isomer-gallery ", env!("CARGO_PKG_VERSION"), "\n"),
            "{flag}"
        );
        assert_eq!(output.status.code(), Some(0), "{flag}");
    }
}

/// A flag it does not know, a missing OUT_DIR and a third argument are refused
/// with clap's one-line error and the short usage, status 2; nothing is drawn
/// (the gallery once drew into a directory named `--help`).
#[test]
fn bad_arguments_exit_two_with_one_error_line() {
    let scratch = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 3] = [
        (
            &["--out", "pictures"],
            "error: unexpected argument '--out' found\n\n  tip: to pass '--out' as a value, use '-- --out'\n\nUsage: isomer-gallery <OUT_DIR> [CORPUS_DIR]\n\nFor more information, try '--help'.\n",
        ),
        (
            &[],
            "error: the following required arguments were not provided:\n  <OUT_DIR>\n\nUsage: isomer-gallery <OUT_DIR> [CORPUS_DIR]\n\nFor more information, try '--help'.\n",
        ),
        (
            &["pictures", "corpus", "more"],
            "error: unexpected argument 'more' found\n\nUsage: isomer-gallery <OUT_DIR> [CORPUS_DIR]\n\nFor more information, try '--help'.\n",
        ),
    ];
    for (args, expected) in cases {
        let output = Command::new(env!("CARGO_BIN_EXE_isomer-gallery"))
            .args(args)
            .current_dir(scratch.path())
            .output()
            .unwrap();
        assert_eq!(text(&output.stderr), expected, "{args:?}");
        assert_eq!(text(&output.stdout), "", "{args:?}");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
    assert_eq!(std::fs::read_dir(scratch.path()).unwrap().count(), 0);
}

/// A corpus directory without `corpus.json` is named with its file and the
/// reason, status 2, before any directory is created.
#[test]
fn a_corpus_that_does_not_read_exits_two_naming_its_file() {
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("out");
    let corpus = scratch.path().join("no-corpus");
    let output = run(&[out.to_str().unwrap(), corpus.to_str().unwrap()]);
    assert_eq!(
        text(&output.stderr),
        format!(
            "error: {}: cannot read the corpus: No such file or directory (os error 2)\n",
            corpus.join("corpus.json").display()
        )
    );
    assert_eq!(text(&output.stdout), "");
    assert_eq!(output.status.code(), Some(2));
    assert!(!out.exists());
}
