//! The commands `fuzz/README.md` gives run as written from `fuzz/`, where the README
//! says to run them: each `cargo fuzz run` line sets `RUSTC_BOOTSTRAP=1` (libFuzzer needs
//! nightly flags, and the workspace toolchain is stable), and each path it names resolves
//! from `fuzz/`: the seed directories exist, and the run's own directories are
//! `corpus/<target>/` and `artifacts/<target>/` under `fuzz/`, never `fuzz/...` again.

use std::path::Path;

#[test]
fn every_fuzz_command_runs_from_the_fuzz_directory() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let readme = std::fs::read_to_string(fuzz.join("README.md")).unwrap();
    let targets: Vec<String> = std::fs::read_dir(fuzz.join("fuzz_targets"))
        .unwrap()
        .map(|entry| {
            let name = entry.unwrap().file_name().into_string().unwrap();
            name.trim_end_matches(".rs").to_owned()
        })
        .chain(["<target>".to_owned()])
        .collect();
    // A command is a whole line of a code block, or the inline code span holding it.
    let commands: Vec<&str> = readme
        .lines()
        .filter_map(|line| {
            let at = line.find("cargo fuzz run")?;
            let start = line[..at].rfind('`').map_or(0, |tick| tick + 1);
            let end = line[at..].find('`').map_or(line.len(), |tick| at + tick);
            Some(&line[start..end])
        })
        .collect();
    assert!(commands.len() >= 5, "{commands:?}");
    for command in commands {
        assert!(
            command.starts_with("RUSTC_BOOTSTRAP=1 cargo fuzz run "),
            "{command}"
        );
        let words: Vec<&str> = command.split_whitespace().collect();
        let target = words[4];
        assert!(targets.iter().any(|known| known == target), "{command}");
        for path in words[5..]
            .iter()
            .take_while(|word| **word != "--" && **word != "\\")
        {
            let own = [format!("corpus/{target}"), format!("artifacts/{target}/")];
            if own.iter().any(|dir| path.starts_with(dir.as_str())) {
                continue;
            }
            assert!(
                fuzz.join(path).is_dir(),
                "{path} does not resolve from fuzz/: {command}"
            );
        }
    }
}
