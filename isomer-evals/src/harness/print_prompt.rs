//! `--print-prompt [<suite>]`: the gate binary prints the prompt a suite's answers are
//! written from, instead of running trials.
//!
//! The option is read before libtest's arguments are parsed (libtest-mimic refuses options
//! it does not know), so `cargo test --test <gate> -- --print-prompt > prompt.txt` works
//! on any gate, not only on the slides pack's report command.

use std::ffi::OsString;
use std::io::Write as _;
use std::process::ExitCode;

use super::any::AnySuiteSpec;

/// The option's name.
const OPTION: &str = "--print-prompt";

/// What the command line asks for, when it holds `--print-prompt`.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum PromptRequest {
    /// Print the prompt of the suite named (or of the only suite when `None`).
    Print(Option<String>),
}

/// Reads `--print-prompt [<suite>]` from `args` (the program name first, as
/// `std::env::args_os` gives it): `None` when the option is absent, so the trials run.
/// The suite name is the next argument when it does not start with `-`.
pub(super) fn prompt_request(args: &[OsString]) -> Option<PromptRequest> {
    let at = args.iter().skip(1).position(|arg| arg == OPTION)? + 1;
    let suite = args
        .get(at + 1)
        .and_then(|arg| arg.to_str())
        .filter(|arg| !arg.starts_with('-'))
        .map(str::to_owned);
    Some(PromptRequest::Print(suite))
}

/// The prompt of the suite `request` names among `suites`: what `prompt.txt` must hold for
/// a single-shot suite ([`super::Suite::prompt`]), the system prompt of every turn for an
/// agent suite. `Err` says why none can be printed (no such suite, or several and none
/// named).
pub(super) fn suite_prompt(
    suites: &[AnySuiteSpec],
    request: &PromptRequest,
) -> Result<String, String> {
    let PromptRequest::Print(wanted) = request;
    let names = || {
        suites
            .iter()
            .map(|suite| format!("`{}`", suite_name(suite)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let suite = match wanted {
        Some(wanted) => suites
            .iter()
            .find(|suite| suite_name(suite) == wanted)
            .ok_or_else(|| {
                format!(
                    "no suite named `{wanted}` in this target; its suites are {}",
                    names()
                )
            })?,
        None => match suites {
            [only] => only,
            _ => {
                return Err(format!(
                    "this target has {} suites ({}): name one, as in `--print-prompt {}`",
                    suites.len(),
                    names(),
                    suites.first().map_or("<suite>", suite_name)
                ));
            }
        },
    };
    Ok(match suite {
        AnySuiteSpec::Single(spec) => (spec.build)().prompt(),
        AnySuiteSpec::Agent(spec) => (spec.build)().system_prompt().to_owned(),
    })
}

fn suite_name(suite: &AnySuiteSpec) -> &'static str {
    match suite {
        AnySuiteSpec::Single(spec) => spec.name,
        AnySuiteSpec::Agent(spec) => spec.name,
    }
}

/// Prints the prompt `request` asks for to stdout and returns the exit code: `0` once
/// printed (also when the reader closed the pipe early, as `| head` does), `2` with
/// `error: ...` on stderr when no suite fits or stdout fails otherwise.
pub(super) fn print_prompt(suites: &[AnySuiteSpec], request: &PromptRequest) -> ExitCode {
    let prompt = match suite_prompt(suites, request) {
        Ok(prompt) => prompt,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(prompt.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: cannot write the prompt to stdout: {error}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_option_and_its_suite_are_read_anywhere_after_the_program() {
        assert_eq!(prompt_request(&args(&["gate"])), None);
        assert_eq!(prompt_request(&args(&["--print-prompt"])), None);
        assert_eq!(
            prompt_request(&args(&["gate", "--print-prompt"])),
            Some(PromptRequest::Print(None))
        );
        assert_eq!(
            prompt_request(&args(&["gate", "--print-prompt", "todo"])),
            Some(PromptRequest::Print(Some("todo".to_owned())))
        );
        assert_eq!(
            prompt_request(&args(&["gate", "--nocapture", "--print-prompt", "--quiet"])),
            Some(PromptRequest::Print(None))
        );
    }
}
