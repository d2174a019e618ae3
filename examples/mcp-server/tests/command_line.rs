//! The built `isomer-mcp-server`'s command line: `--help`, `--version`, and
//! a bad flag refused the conventional way (exit 2, "For more information,
//! try '--help'.").

use std::process::Command;

/// Runs the binary with `args`: exit code, stdout, stderr.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_isomer-mcp-server"))
        .args(args)
        .output()
        .expect("the server binary starts");
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn help_lists_every_flag() {
    let (code, stdout, stderr) = run(&["--help"]);
    assert_eq!((code, stderr.as_str()), (Some(0), ""));
    insta::assert_snapshot!("help", stdout);
}

#[test]
fn version_prints_the_name_and_version() {
    assert_eq!(
        run(&["--version"]),
        (
            Some(0),
            "isomer-mcp-server 0.1.0\n".to_owned(),
            String::new()
        )
    );
}

#[test]
fn a_bad_flag_exits_2_with_a_short_error() {
    assert_eq!(
        run(&["--bogus"]),
        (
            Some(2),
            String::new(),
            "error: unexpected argument '--bogus' found\n\n\
             Usage: isomer-mcp-server [OPTIONS]\n\n\
             For more information, try '--help'.\n"
                .to_owned()
        )
    );
    let (code, stdout, stderr) = run(&["--provider", "openai"]);
    assert_eq!((code, stdout.as_str()), (Some(2), ""));
    assert_eq!(
        stderr,
        "error: the following required arguments were not provided:\n  \
         --list-tools\n\n\
         Usage: isomer-mcp-server --list-tools --provider <PROVIDER>\n\n\
         For more information, try '--help'.\n"
    );
}
