//! [`Configuration`]: one model configuration a suite runs against (a label, the live model
//! and judge, what they report of themselves, a recordings directory, a price and caps),
//! and which of a suite's configurations a run goes over ([`CONFIGURATIONS_VARIABLE`]).
//! The rules are on [`Configuration`].

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::case::{Generate, Judge};
use crate::run_file::{Price, format_usd};

/// The variable that picks which configurations of a suite a run goes over: labels
/// separated by commas (`ISOMER_EVAL_CONFIGURATIONS=gpt-4.1,qwen2.5`). Unset or empty,
/// every configuration runs. It applies to each suite of the target that declares
/// configurations, each of which must have every label named (a typo fails the trials,
/// naming the labels there are); a suite without configurations ignores it.
pub(crate) const CONFIGURATIONS_VARIABLE: &str = "ISOMER_EVAL_CONFIGURATIONS";

/// One model configuration a [`Suite`](super::Suite) runs against: a label, the live model
/// and judge record mode calls, what they report of themselves, where its recordings live,
/// what its tokens cost and how much it may spend.
///
/// ```no_run
/// # fn example(gpt: isomer_evals::Generate<'static>, qwen: isomer_evals::Generate<'static>,
/// #     runtime: impl isomer_evals::EvalRuntime + Send + 'static) {
/// use isomer_evals::harness::{Configuration, Suite};
/// use isomer_evals::run_file::Price;
///
/// let suite = Suite::new(runtime)
///     .configuration(
///         Configuration::new("gpt-4.1")
///             .live(gpt)
///             .price(Price::per_million(2.0, 8.0))
///             .max_cost(5.0),
///     )
///     .configuration(
///         Configuration::new("qwen2.5")
///             .live(qwen)
///             .recordings("../../corpus/slides-qwen2.5"),
///     );
/// # }
/// ```
///
/// # The rules
///
/// - A suite that declares no configuration has one, its *default configuration*, with no
///   label: what [`Suite::live`](super::Suite::live), [`Suite::judge`](super::Suite::judge),
///   [`Suite::provenance`](super::Suite::provenance) and [`Suite::price`](super::Suite::price)
///   set. Its run file is `run-<started>.json` and has no `configuration` field.
/// - A suite that declares configurations ([`Suite::configuration`](super::Suite::configuration))
///   runs each of them, in the order declared, and sets nothing of the default one (a
///   suite that does both is refused: the live model would have two homes).
/// - A label is ASCII letters, digits, `.`, `-` and `_` (`gpt-4.1`, `qwen2.5-7b`), unique in
///   its suite: it names the run file (`run-<label>-<started>.json`) and selects the
///   configuration in `ISOMER_EVAL_CONFIGURATIONS`.
/// - Each configuration records to and replays from its own directory
///   ([`Configuration::recordings`]); one that names none uses the suite's (the corpus
///   directory, or `ISOMER_EVAL_RECORDINGS_<SUITE>`). Two configurations of a run that
///   would share a directory are refused. A configuration's directory that does not exist
///   is created by a record run and refused by a replay.
/// - The baseline snapshots pin the suite's *first* configuration (its replay of the
///   committed corpus); the others are checked as that one is, floors and recordings, but
///   compared with no baseline.
/// - Each live call is priced at its configuration's [`Configuration::price`] where it is
///   made, and counted against the configuration's caps ([`Configuration::max_cost`],
///   [`Configuration::max_tokens`]) and the suite's, which count every configuration of
///   the run together ([`Suite::max_cost`](super::Suite::max_cost)).
/// - Agent suites take no configuration: their live model is one `step`.
pub struct Configuration {
    /// `None` for a suite's default configuration.
    pub(super) label: Option<String>,
    pub(super) generate: Option<Generate<'static>>,
    pub(super) judge: Option<Judge<'static>>,
    pub(super) provenance: Map<String, Value>,
    pub(super) recordings: Option<PathBuf>,
    pub(super) price: Option<Price>,
    pub(super) judge_price: Option<Price>,
    pub(super) caps: Caps,
}

/// How much a run (a suite's caps) or a configuration's part of it may spend on live
/// calls; see [`Configuration::max_cost`] and [`Configuration::max_tokens`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Caps {
    /// US dollars.
    pub(super) max_cost_usd: Option<f64>,
    /// Input and output tokens together.
    pub(super) max_tokens: Option<u64>,
}

impl Caps {
    /// Whether either cap is set.
    pub(super) fn any(&self) -> bool {
        self.max_cost_usd.is_some() || self.max_tokens.is_some()
    }

    /// The first cap `spend` has reached (at or past its limit), as the message that
    /// fails the calls it refuses; `who` names the scope (`configuration `gpt-4.1``).
    pub(super) fn reached(&self, who: &str, spend: &Spend) -> Option<String> {
        let calls = match spend.calls {
            1 => "1 live call".to_owned(),
            n => format!("{n} live calls"),
        };
        if let Some(cap) = self.max_cost_usd
            && spend.micro_usd >= cap * 1_000_000.0
        {
            return Some(format!(
                "max_cost cap of {who} reached: {} USD spent by {calls}, cap {} USD; no further live call is made in this run",
                format_usd(spend.micro_usd / 1_000_000.0),
                format_usd(cap)
            ));
        }
        if let Some(cap) = self.max_tokens
            && spend.tokens >= cap
        {
            return Some(format!(
                "max_tokens cap of {who} reached: {} tokens spent by {calls}, cap {cap}; no further live call is made in this run",
                spend.tokens
            ));
        }
        None
    }
}

/// What the live calls of a scope (a suite, a configuration) spent in this process.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Spend {
    /// Live calls made (failed ones included: a failed call may have been billed).
    pub(super) calls: usize,
    /// Millionths of a US dollar, over the calls that were priced.
    pub(super) micro_usd: f64,
    /// Input and output tokens together.
    pub(super) tokens: u64,
}

impl Configuration {
    /// A configuration labelled `label` (`gpt-4.1`: ASCII letters, digits, `.`, `-`, `_`,
    /// unique in its suite), with no live model, no judge, no provenance, the suite's
    /// recordings directory, no price and no cap.
    pub fn new(label: impl Into<String>) -> Self {
        Configuration {
            label: Some(label.into()),
            ..Configuration::unlabeled()
        }
    }

    /// The default configuration of a suite: no label, nothing declared.
    pub(super) fn unlabeled() -> Self {
        Configuration {
            label: None,
            generate: None,
            judge: None,
            provenance: Map::new(),
            recordings: None,
            price: None,
            judge_price: None,
            caps: Caps::default(),
        }
    }

    /// The live model record mode calls for each attempt it records (default none), as
    /// [`Suite::live`](super::Suite::live) for the default configuration.
    pub fn live(mut self, generate: Generate<'static>) -> Self {
        self.generate = Some(generate);
        self
    }

    /// The live judge record mode asks for each verdict it records (default none: the
    /// recorded verdicts are replayed), as [`Suite::judge`](super::Suite::judge).
    pub fn judge(mut self, judge: Judge<'static>) -> Self {
        self.judge = Some(judge);
        self
    }

    /// What the live callbacks report of themselves (model, base URL, sampling settings):
    /// the run file's `label`, and `provenance.recording` of the recordings it writes, as
    /// [`Suite::provenance`](super::Suite::provenance).
    pub fn provenance(mut self, provenance: Map<String, Value>) -> Self {
        self.provenance = provenance;
        self
    }

    /// The directory this configuration records to and replays from (`answers/`,
    /// `judgments.json`, `prompt.txt`), relative to the test's working directory (cargo
    /// runs a test in its package's directory) unless absolute. Default: the suite's.
    pub fn recordings(mut self, dir: impl Into<PathBuf>) -> Self {
        self.recordings = Some(dir.into());
        self
    }

    /// What the configuration's tokens cost (default none: nothing is priced, and
    /// `costUsd` is absent from the run file). Applies to the judge too, unless
    /// [`Configuration::judge_price`] says otherwise.
    pub fn price(mut self, price: Price) -> Self {
        self.price = Some(price);
        self
    }

    /// What the judge's tokens cost, when the judge is another model than the one
    /// [`Configuration::price`] prices (default: that price).
    pub fn judge_price(mut self, price: Price) -> Self {
        self.judge_price = Some(price);
        self
    }

    /// The most this configuration's live calls may cost in one run, US dollars: once the
    /// calls made have cost that much or more, no further call is made and every attempt
    /// or verdict still to record fails naming the cap. Calls already in flight finish
    /// (with [`Suite::concurrency`](super::Suite::concurrency) `n`, up to `n - 1` calls
    /// past the cap), and everything recorded stays. Needs a [`Configuration::price`].
    /// A run is one test process (its trials share the count), as record mode asks:
    /// `cargo test`, not `cargo nextest`, which would start a process, and a count, per
    /// trial.
    pub fn max_cost(mut self, usd: f64) -> Self {
        self.caps.max_cost_usd = Some(usd);
        self
    }

    /// The most tokens (input and output together) this configuration's live calls may
    /// report in one run; reached, it stops calls as [`Configuration::max_cost`] does.
    pub fn max_tokens(mut self, tokens: u64) -> Self {
        self.caps.max_tokens = Some(tokens);
        self
    }

    /// The label; `None` for a suite's default configuration.
    pub fn label(&self) -> Option<&str> {
        self.label.as_deref()
    }

    /// The price of a call: the judge's when `judge` and one is declared, else the
    /// configuration's.
    pub(super) fn price_of(&self, judge: bool) -> Option<Price> {
        crate::run_file::price_of(self.price, self.judge_price, judge)
    }

    /// Whether anything of the configuration is declared (a default configuration that
    /// declares nothing stands aside for named ones).
    pub(super) fn declares_anything(&self) -> bool {
        self.generate.is_some()
            || self.judge.is_some()
            || !self.provenance.is_empty()
            || self.recordings.is_some()
            || self.price.is_some()
            || self.judge_price.is_some()
            || self.caps.any()
    }

    /// `configuration `<label>`` for a labelled one, `suite `<suite>`` for the default one:
    /// the scope a message names.
    pub(super) fn who(&self, suite: &str) -> String {
        match &self.label {
            Some(label) => format!("configuration `{label}`"),
            None => format!("suite `{suite}`"),
        }
    }
}

impl std::fmt::Debug for Configuration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Configuration")
            .field("label", &self.label)
            .field("generate", &self.generate.is_some())
            .field("judge", &self.judge.is_some())
            .field("provenance", &self.provenance)
            .field("recordings", &self.recordings)
            .field("price", &self.price)
            .field("judge_price", &self.judge_price)
            .field("caps", &self.caps)
            .finish()
    }
}

/// A configuration a run goes over, with the directory it records to.
#[derive(Debug, Clone, Copy)]
pub(super) struct Selected<'a> {
    /// The configuration.
    pub(super) configuration: &'a Configuration,
    /// Its recordings directory.
    pub(super) dir: &'a Path,
    /// Whether it is the suite's first configuration, the one the baseline pins.
    pub(super) baseline: bool,
}

/// Whether `label` is a name a configuration may take.
fn is_label(label: &str) -> bool {
    !label.is_empty()
        && label
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
}

/// The configurations of suite `suite` a run goes over, in declared order, each with its
/// recordings directory (`dirs[i]` for `configurations[i]`; see [`directories`]):
/// `configurations` (the suite's declared ones, or its default one alone) narrowed to the
/// labels `wanted` names ([`CONFIGURATIONS_VARIABLE`]'s value) when the suite declares
/// labelled configurations.
///
/// # Errors
/// A label that is not a name, a label used twice, a `wanted` label the suite does not
/// have, a `max_cost` without a price, two selected configurations with one directory.
pub(super) fn select<'a>(
    suite: &str,
    configurations: &'a [Configuration],
    dirs: &'a [PathBuf],
    suite_caps: &Caps,
    wanted: Option<&str>,
) -> Result<Vec<Selected<'a>>, String> {
    let mut labels: Vec<&str> = Vec::new();
    for configuration in configurations {
        let Some(label) = configuration.label.as_deref() else {
            continue;
        };
        if !is_label(label) {
            return Err(format!(
                "the configuration label {label:?} of suite `{suite}` is not a name: use ASCII letters, digits, `.`, `-` and `_` (it names the run file, and {CONFIGURATIONS_VARIABLE} selects by it)"
            ));
        }
        if labels.contains(&label) {
            return Err(format!(
                "two configurations of suite `{suite}` are labelled `{label}`: give each its own label"
            ));
        }
        labels.push(label);
    }
    let wanted: Vec<&str> = wanted
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|label| !label.is_empty())
        .collect();
    if !labels.is_empty() {
        let unknown: Vec<&str> = wanted
            .iter()
            .filter(|label| !labels.contains(label))
            .copied()
            .collect();
        if !unknown.is_empty() {
            return Err(format!(
                "{CONFIGURATIONS_VARIABLE} names {}, which suite `{suite}` does not declare (its configurations: {}); name some of these, or unset it to run them all",
                unknown
                    .iter()
                    .map(|label| format!("`{label}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                labels.join(", ")
            ));
        }
    }
    let mut selected: Vec<Selected<'a>> = Vec::new();
    for (index, (configuration, dir)) in configurations.iter().zip(dirs).enumerate() {
        let picked = match configuration.label.as_deref() {
            Some(label) => wanted.is_empty() || wanted.contains(&label),
            None => true,
        };
        if !picked {
            continue;
        }
        let who = configuration.who(suite);
        if configuration.caps.max_cost_usd.is_some() && configuration.price.is_none() {
            return Err(format!(
                "{who} has a max_cost but no price, so its spend cannot be counted: add `.price(Price::per_million(input, output))`"
            ));
        }
        if suite_caps.max_cost_usd.is_some() && configuration.price.is_none() {
            return Err(format!(
                "suite `{suite}` has a max_cost but {who} has no price, so its spend cannot be counted: give it `.price(Price::per_million(input, output))`"
            ));
        }
        if let Some(other) = selected.iter().find(|other| same_dir(other.dir, dir)) {
            return Err(format!(
                "{} and {who} of suite `{suite}` would both record to {}: give each its own `.recordings(dir)`",
                other.configuration.who(suite),
                dir.display()
            ));
        }
        selected.push(Selected {
            configuration,
            dir,
            baseline: index == 0,
        });
    }
    Ok(selected)
}

/// Whether `a` and `b` name one directory (compared as absolute paths, through symbolic
/// links when both exist).
fn same_dir(a: &Path, b: &Path) -> bool {
    let resolve = |path: &Path| {
        std::fs::canonicalize(path)
            .or_else(|_| std::path::absolute(path))
            .unwrap_or_else(|_| path.to_owned())
    };
    resolve(a) == resolve(b)
}

/// The recordings directory of each of `configurations`, in order: its own when it names
/// one, else `suite_dir` (the corpus directory, or the suite's
/// `ISOMER_EVAL_RECORDINGS_<SUITE>`).
pub(super) fn directories(configurations: &[Configuration], suite_dir: &Path) -> Vec<PathBuf> {
    configurations
        .iter()
        .map(|configuration| {
            configuration
                .recordings
                .clone()
                .unwrap_or_else(|| suite_dir.to_owned())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dirs(configurations: &[Configuration]) -> Vec<PathBuf> {
        directories(configurations, Path::new("/corpus"))
    }

    #[test]
    fn caps_name_what_was_reached_its_limit_and_the_spend() {
        let caps = Caps {
            max_cost_usd: Some(0.01),
            max_tokens: Some(5000),
        };
        let spend = |calls, micro_usd, tokens| Spend {
            calls,
            micro_usd,
            tokens,
        };
        assert_eq!(caps.reached("suite `s`", &spend(2, 8000.0, 3000)), None);
        assert_eq!(
            caps.reached("configuration `a`", &spend(3, 12_000.0, 4500))
                .as_deref(),
            Some(
                "max_cost cap of configuration `a` reached: 0.012 USD spent by 3 live calls, cap 0.01 USD; no further live call is made in this run"
            )
        );
        assert_eq!(
            caps.reached("suite `s`", &spend(1, 100.0, 5000)).as_deref(),
            Some(
                "max_tokens cap of suite `s` reached: 5000 tokens spent by 1 live call, cap 5000; no further live call is made in this run"
            )
        );
    }

    #[test]
    fn selection_follows_the_variable_and_refuses_what_cannot_run() {
        let configurations = [
            Configuration::new("gpt-4.1"),
            Configuration::new("qwen2.5").recordings("/elsewhere"),
        ];
        let dirs = dirs(&configurations);
        let labels = |wanted| {
            select("s", &configurations, &dirs, &Caps::default(), wanted)
                .unwrap()
                .iter()
                .map(|selected| {
                    (
                        selected.configuration.label().unwrap(),
                        selected.dir.to_str().unwrap(),
                        selected.baseline,
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            labels(None),
            [
                ("gpt-4.1", "/corpus", true),
                ("qwen2.5", "/elsewhere", false)
            ]
        );
        assert_eq!(labels(Some("")), labels(None));
        assert_eq!(
            labels(Some(" qwen2.5 ")),
            [("qwen2.5", "/elsewhere", false)]
        );
        assert_eq!(
            select(
                "s",
                &configurations,
                &dirs,
                &Caps::default(),
                Some("gpt-4.1,gpt-5,x")
            )
            .unwrap_err(),
            "ISOMER_EVAL_CONFIGURATIONS names `gpt-5`, `x`, which suite `s` does not declare (its configurations: gpt-4.1, qwen2.5); name some of these, or unset it to run them all"
        );
        let capped = Caps {
            max_cost_usd: Some(1.0),
            max_tokens: None,
        };
        assert_eq!(
            select("s", &configurations, &dirs, &capped, None).unwrap_err(),
            "suite `s` has a max_cost but configuration `gpt-4.1` has no price, so its spend cannot be counted: give it `.price(Price::per_million(input, output))`"
        );

        let shared = [Configuration::new("a"), Configuration::new("b")];
        assert_eq!(
            select("s", &shared, &dirs_of(&shared), &Caps::default(), None).unwrap_err(),
            "configuration `a` and configuration `b` of suite `s` would both record to /corpus: give each its own `.recordings(dir)`"
        );
        let twice = [
            Configuration::new("a"),
            Configuration::new("a").recordings("/b"),
        ];
        assert_eq!(
            select("s", &twice, &dirs_of(&twice), &Caps::default(), None).unwrap_err(),
            "two configurations of suite `s` are labelled `a`: give each its own label"
        );
        let spaced = [Configuration::new("gpt 4")];
        assert_eq!(
            select("s", &spaced, &dirs_of(&spaced), &Caps::default(), None).unwrap_err(),
            "the configuration label \"gpt 4\" of suite `s` is not a name: use ASCII letters, digits, `.`, `-` and `_` (it names the run file, and ISOMER_EVAL_CONFIGURATIONS selects by it)"
        );
        let unpriced = [Configuration::new("a").max_cost(1.0)];
        assert_eq!(
            select("s", &unpriced, &dirs_of(&unpriced), &Caps::default(), None).unwrap_err(),
            "configuration `a` has a max_cost but no price, so its spend cannot be counted: add `.price(Price::per_million(input, output))`"
        );
        // A suite without labelled configurations ignores the variable.
        let default = [Configuration::unlabeled()];
        let default_dirs = dirs_of(&default);
        let selected = select("s", &default, &default_dirs, &Caps::default(), Some("x")).unwrap();
        assert_eq!(selected.len(), 1);
        assert!(selected[0].baseline);
    }

    fn dirs_of(configurations: &[Configuration]) -> Vec<PathBuf> {
        dirs(configurations)
    }
}
