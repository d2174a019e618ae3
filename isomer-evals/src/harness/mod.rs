//! The test harness `#[isomer_eval]` expands into: each recorded corpus case its own
//! cargo test, with floors.
//!
//! A *trial* is one named test in the libtest sense (the word is libtest-mimic's): the
//! harness makes one trial per corpus case, named `<suite>::<case id>`, and one
//! `<suite>::totals` trial per suite. Everything libtest offers works on those names:
//! `cargo test --test <target> -- <filter>`, `--exact`, `--skip`, `--list`, `--ignored`,
//! `--include-ignored`, `--test-threads`, `--format pretty|terse|json`, and
//! `cargo nextest run`, which starts one process per trial with `--exact <name>`.
//! `--test-threads 0` is refused (`error: --test-threads must be at least 1 ...`, exit
//! `101`), as libtest refuses it; libtest-mimic alone would wait forever.
//!
//! # Writing an eval gate
//!
//! 1. Add a test target with `harness = false` (the macro writes its `main`):
//!    ```toml
//!    [[test]]
//!    name = "slides_eval"
//!    harness = false
//!
//!    [dev-dependencies]
//!    # not on crates.io yet: a path (or git) dependency on this workspace's crate
//!    isomer-evals = { path = "../isomer-rs/isomer-evals" }
//!    ```
//! 2. In `tests/slides_eval.rs`, put the attribute on a module-level function returning the
//!    runtime (or a [`Suite`] with run options). A function inside another function's body
//!    does not work: the generated module calls it as `super::<name>`, which only reaches
//!    module-level items, and the attribute, which sees only the function, cannot tell
//!    (rustc says ``cannot find function `<name>` in module `super` ``):
//!    ```ignore
//!    #[isomer_evals::isomer_eval(
//!        corpus = "../../corpus/slides",
//!        valid_after_retry,
//!        no_invented_types,
//!        min_valid_ratio = 0.9,
//!        min_mean_selection_f1 = 0.8,
//!    )]
//!    fn slides() -> isomer_evals::harness::Suite {
//!        isomer_evals::harness::Suite::new(isomer_slides::runtime().expect("the runtime builds"))
//!    }
//!    ```
//! 3. Run it: `cargo test --test slides_eval`, one case with
//!    `cargo test --test slides_eval -- --exact slides::<case id>`.
//!
//! # Attribute keys
//!
//! | key | type | default | usage |
//! |---|---|---|---|
//! | `corpus` | string | required | the corpus directory holding `corpus.json`, relative to the package root (`CARGO_MANIFEST_DIR`), `/`-separated |
//! | `name` | string | the function's name | the suite name, the first part of every trial name |
//! | `main` | bool | `true` | `false` emits no `main`, for several suites in one target (see below) |
//! | `snapshots` | string | `"tests/snapshots"` | the baseline directory, relative to the package root |
//! | `crate` | string path | `"::isomer_evals"` | where the expansion finds this crate, for a renamed or re-exported dependency; an absolute path (`"::name"`, `"crate::path"`), since it is used from inside a generated module |
//! | `agent` | flag | off | the corpus is an agent corpus (`transcripts/`), the function returns an [`agent::AgentSuite`], and only the agent floors are accepted; see [`agent`] |
//! | any floor | flag or number | off | see [`crate::floor`] for every name, range and meaning; a number is an unsuffixed literal (`0.8`, not `0.8f32`), and `-0.0` reads as `0.0` |
//!
//! At compile time the macro reads `<corpus>/corpus.json` with the same reader as the run
//! time ([`isomer_corpus::manifest`]): a missing file, malformed JSON (with line:column), a
//! case fault, a duplicate case id (both places) or an unknown floor is a compile error
//! pointing into the attribute. The expansion includes the file with `include_str!`, so
//! editing `corpus.json` rebuilds the target; answers, judgments and `prompt.txt` are read
//! at run time, so re-recording needs no rebuild. A new corpus *directory* needs no build
//! script either: only `corpus.json` is compiled in.
//!
//! # What each trial checks
//!
//! `<suite>::<case id>` runs that case alone through [`crate::run_evals`] with the replayed
//! answers and judgments, then fails when a recording it asked for is missing, the case's
//! judgment is missing or stale, a callback failed, or a declared case floor does not hold.
//! The message names every axis below its floor with its value and the floor, then the
//! case's first validation errors:
//!
//! ```text
//! case `events-stat` is below its floors (valid_after_retry, min_selection_f1, expected_hit, no_invented_types):
//!   valid_after_retry: false, floor true
//!   min_selection_f1: none (no valid composition), floor >= 0.66
//!   expected_hit: false, floor true
//!   no_invented_types: [sparkline], floor []
//! missing recordings (strict replay answers them with empty text): answers/events-stat.1.txt
//! first attempt's validation errors (1):
//!   answers/events-stat.0.txt:1:32: body[0].type must be one of: slideFrame, slideHeading, ...
//! ```
//!
//! A missed `min_selection_f1` adds the node types missing and extra against the golden
//! (`min_selection_f1: 0.8571, floor >= 0.9 (missing slideStat; extra slideBars)`). Each
//! validation error of the first attempt starts with its answer file and the line and
//! column of the value its path names there. A missing recording is named as missing (its
//! empty replay text adds no "not JSON" line). Faults of the case's own entry in
//! `corpus.json`, which no recording fixes, come first, each at its line and column: a
//! golden the runtime refuses (the case fails even when its answers pass), and, when the
//! expected hit is missed, `expected` names the catalog does not have:
//!
//! ```text
//! case `one-chore`: the runtime refuses its golden (corpus.json:38:41):
//!   corpus/corpus.json:38:41: golden.body[0].items[0].text (in todoItem) must not be empty
//! case `one-chore`: `expected` names types the catalog does not have:
//!   corpus/corpus.json:41:20: `todoItm` is not a type of the catalog
//! ```
//!
//! `--exact <name>` that names no trial of the target runs nothing and exits `0`, as
//! libtest does (`cargo test -- --exact` hands the same filter to every test binary), and
//! says so on stderr: `note: no trial of this target is named ...`.
//!
//! The first line of every failure message is a summary (a heading names the items under
//! it, as above), and a failing trial also writes it to stderr as `Error: <summary>`, the
//! line cargo-nextest takes as the failure's message (the `message` of its JUnit
//! `<failure>`); libtest-mimic prints the message itself to stdout, and under `--format
//! json` in the failed event's `stdout`, so every reader shows the same first line.
//!
//! `<suite>::totals` runs the whole corpus and fails when any recording is missing, any
//! judgment is missing or stale, the directory holds recordings no replay of the cases reads
//! (an answer file or a judgment for a case `corpus.json` does not have, an answer file
//! named other than `<case id>.<0|1>.txt`, named as [`crate::corpus::Corpus::load`] names them),
//! `prompt.txt` is missing or differs from the prompt the suite builds (named by line and
//! column; [`Suite::prompt`] returns the text it must hold), a suite floor does not hold,
//! or the baseline moved (each moved snapshot named, with the JSON paths that moved).
//!
//! # The baseline and how to accept a new one
//!
//! `totals` compares three snapshot files under the `snapshots` directory, named after the
//! suite: `<suite>__report.snap` (the `EvalReport` as JSON), `<suite>__report_text.snap`
//! (`format_report`'s text) and `<suite>__baseline.snap` (the baseline's record of
//! the run: the prompt's SHA-256, `missingRecordings`, `staleJudgments`). Each is
//! a `---` header (insta's shape, never compared) and the contents, compared by the
//! harness itself: equal after `\r\n` is read as `\n` and trailing whitespace is dropped
//! (see [`moved_snapshots`]). A difference fails `totals`, names what moved and writes a
//! unified diff of each moved file to stderr; so does a `prompt.txt` that differs from the
//! prompt the suite builds. To accept a change that moves the numbers, run
//!
//! ```text
//! ISOMER_EVAL_ACCEPT=1 cargo test --test slides_eval -- --exact slides::totals
//! ```
//!
//! (`ISOMER_EVAL_ACCEPT`), then read the diff of the `.snap` files and commit them with the
//! change. Accepting rewrites only the files that moved, keeping their headers, and removes
//! any `<name>.snap.new` beside them (which insta left in earlier versions of the harness).
//! The harness reads no insta variable and writes no `.snap.new`: insta has no public way
//! to compare without printing its own review advice, which would contradict this one.
//! The failure prints that command as its last line. A suite whose snapshot directory
//! holds no baseline of its own but holds other suites' names them, and says to delete
//! the files of the one it was renamed from, if it was, and to keep those of another gate
//! that shares the directory: in the failure or, when accepting, on stderr. A rename leaves the old files behind, which nothing reads. When the same failure also names a
//! fault of the recordings (a case or run that did not complete, a missing or stale
//! recording, a file no replay reads, a `prompt.txt` that differs), the line starts with
//! `fix the recordings first (accepting now would commit the baseline of this broken
//! replay); then, to accept it: ...`: the moved baseline records the broken replay.
//!
//! # Several suites in one target
//!
//! Write `main = false` on every suite and name them in [`main!`](crate::main):
//!
//! ```ignore
//! #[isomer_evals::isomer_eval(corpus = "corpus/a", main = false)]
//! fn suite_a() -> MyRuntime { MyRuntime::new() }
//! #[isomer_evals::isomer_eval(corpus = "corpus/b", main = false)]
//! fn suite_b() -> MyRuntime { MyRuntime::new() }
//! isomer_evals::main!(suite_a, suite_b);
//! ```
//!
//! Each attribute emits, beside the untouched function, a hidden module holding the suite's
//! `SuiteSpec` (an `AgentSuiteSpec` for an `agent` suite);
//! [`suite!`](crate::suite)`(suite_a)` names it, for a `main` that calls [`run`]
//! itself. The module is named `__isomer_eval_<fn>`, not after the function:
//! a module `mypack` would shadow the crate `mypack` in the file, and a suite function
//! `mypack` that calls `mypack::runtime()` would not compile. A single suite emits its own
//! `main` by default.
//!
//! Single-shot and agent suites may share a target: `main!` hands every `SUITE`, of either
//! kind, to one call of [`run`], which runs them in the order named, so
//! `isomer_evals::main!(slides, slides_agent);` lists the single-shot suite's trials, then
//! the agent suite's.
//!
//! Trial names must be unique in a target: two suites with one `name`, or a case whose id
//! is `totals`, would give two trials one name (libtest runs both under it, nextest keeps
//! one). The macro refuses a case id `totals`; [`run`] refuses the rest before running
//! anything, printing `error: two suites in this target are named ...` and exiting `101`.
//! It refuses in the same way two suite names that map to one
//! `ISOMER_EVAL_RECORDINGS_<SUITE>` variable (`a_b` and `a-b`, or `Slides` and `slides`),
//! which would redirect both suites at once. A `--exact <suite>::<case id>` run (what
//! cargo-nextest starts per case) checks the suite names in full, but of the case ids only
//! whether its own is used twice (or, for `totals`, whether a case takes that name); the
//! listing that precedes it (`--list`) and any other run check every case.
//!
//! # Recording a corpus
//!
//! A suite declares the live model in code, and the harness calls it only when
//! `ISOMER_EVAL_RECORD` asks it to (as the baseline is rewritten only when
//! `ISOMER_EVAL_ACCEPT` asks); without the variable nothing live is ever called and a run stays a strict
//! replay. The `isomer-openai` crate adapts any OpenAI-compatible Chat Completions server:
//!
//! ```ignore
//! #[isomer_evals::isomer_eval(corpus = "../../corpus/slides")]
//! fn slides() -> isomer_evals::harness::Suite {
//!     let key = std::env::var("OPENAI_API_KEY").unwrap_or_default();
//!     let model = isomer_openai::ChatClient::new("https://api.openai.com/v1", "gpt-4.1", key);
//!     isomer_evals::harness::Suite::new(isomer_slides::runtime().expect("the runtime builds"))
//!         .live(model.generate())
//!         .judge(model.judge())
//!         .provenance(model.provenance())
//! }
//! ```
//!
//! - `ISOMER_EVAL_RECORD=missing cargo test --test slides_eval` calls the model for every
//!   attempt without `answers/<id>.<attempt>.txt` and the judge for every validated case
//!   without a verdict for its current text rendering, writes them in the replay format
//!   (`answers/<id>.<attempt>.txt` as the model sent it, the verdict and rendering in
//!   `judgments.json`), sets `provenance.recording` of `corpus.json` and `judgments.json`
//!   to the date and what [`Suite::provenance`] reports, writes `prompt.txt` when it is
//!   missing, and then scores the run as a replay would. Run it again and it calls nothing.
//! - `ISOMER_EVAL_RECORD=all` records every attempt and verdict afresh and rewrites
//!   `prompt.txt`. A run of a case replaces the case's recordings only once every call of
//!   the run succeeded: its answers and verdict are renamed into place, and only then is an
//!   older retry the new run did not ask for removed (no retry outlives its first attempt).
//!   When a call fails, the case's answer files and verdict stay exactly as they were.
//! - `ISOMER_EVAL_RECORD=measure` measures a model without touching the baseline: it
//!   records as `missing` does (point `ISOMER_EVAL_RECORDINGS_<SUITE>` at a scratch
//!   directory to ask the model afresh), then the case trials check their case floors
//!   only and `totals` its suite floors only: the baseline is neither compared nor
//!   written (`ISOMER_EVAL_ACCEPT` is not read), a missing recording or a failed call
//!   fails nothing but the floors it moves, and the exit status comes from the floors
//!   alone. `totals` writes the run file (below) and the HTML report, to
//!   `ISOMER_EVAL_HTML` when it is set, else beside the run file. Agent suites refuse it.
//! - `-- --exact slides::<case id>` records that case alone; `totals` records the whole
//!   corpus with [`Suite::concurrency`] calls in flight. Record with `cargo test`, not
//!   `cargo nextest` (separate processes writing one `judgments.json` are not serialized).
//! - **One call per attempt per run.** The trials of one process share a record session
//!   per recordings directory: each attempt and verdict is called once, under a per-case
//!   lock, by whichever trial asks first (a case trial or `totals`), and its outcome (the
//!   text, or the failure) and what it cost (latency, tokens, finish reason, taken around
//!   the call where it is made) are kept in the session. The other trial reads them and
//!   makes no call: `totals` never repeats a call a case trial made, nor a case trial one
//!   `totals` made, and a failing call is made once (plus the client's own retries), both
//!   trials reporting the same failure.
//! - **Nothing recorded is lost.** Every file is written to a staged name in its own
//!   directory (`.isomer-staged-…`, a hidden name) and renamed over the
//!   old one; a failed call writes nothing. A staged file left by a killed run is never
//!   read as a recording: record mode removes such files when it first opens the
//!   directory (naming them on stderr), and a replay's `totals` names them once and goes
//!   on. A run killed midway is finished by a `missing` run.
//! - Each live call may take [`Suite::timeout`] (default [`DEFAULT_LIVE_TIMEOUT`], 120 s);
//!   one past it fails its case (`generate attempt 0 failed: timed out after 120s`),
//!   writes nothing for it, and the other cases are recorded and scored.
//! - With [`Suite::repeat`]`(n)` each case is run, and recorded, `n` times: repeat 0 keeps
//!   `answers/<id>.<attempt>.txt` and the verdict under `<id>`, repeat `k` writes
//!   `answers/<id>.r<k>.<attempt>.txt` and its verdict under `<id>.r<k>` (see
//!   [`isomer_corpus::files`]), and a replay reads each repeat from there. The report then
//!   gives each axis's mean and standard error across the repeats and each case's spread,
//!   and `totals` prints per case how many runs met its case floors (`a: 4 of 5`).
//! - **Pass rates.** Without `min_pass_rate` every run of a case must meet its case floors.
//!   With `min_pass_rate = r` a run below them only counts against the case: the case
//!   trial passes when at least `r` of its runs met every other case floor (`4 of 5` meets
//!   `0.8`, not `0.9`), and fails with `case `a` met its case floors in 4 of 5 runs:`, the
//!   miss and each failed run. The rate is the empirical per-run pass rate `k / n`. It is
//!   not pass@k (the chance that at least one of k tries passes, what a "best of k" user
//!   sees) nor pass^k (the chance that all k pass, what a user relying on every answer
//!   sees): `min_pass_rate = 1.0` asks for pass^n on the recorded runs, any rate above 0
//!   for pass@n, and a rate `p` estimates pass^k as about `p^k`. Suite floors still read
//!   the means over every run.
//! - **Latency and tokens.** A record or measure run prints, from `totals`, the live calls
//!   of this run (`the live calls of this run (5 calls):`, then per measured run the mean,
//!   p50 and p95 of generate and judge milliseconds and of input and output tokens, see
//!   [`crate::format_measurements`]), read from where each call was made, whichever trial
//!   made it; a run that made none prints `no live call in this run`. They are kept out of
//!   the baseline. A replay measures nothing.
//! - **The run file.** Every `totals` trial (replay, record and measure alike) writes one
//!   [`crate::run_file::RunFile`] to `target/isomer/<suite>/run-<YYYYMMDDTHHMMSS.mmm>Z.json`
//!   (the target directory the test was built into; `ISOMER_EVAL_RUNS=<dir>` writes
//!   `<dir>/<suite>/...` instead), whole and atomically, and names it on stderr
//!   (`slides: wrote the run file /abs/path`). It holds the configuration label, the start
//!   time, per run and attempt the source, latency, tokens, finish reason and scores, per
//!   axis the mean ± standard error and per case the pass rate; see
//!   [`crate::run_file`] for every field. A run of case trials only writes none, unless
//!   it is a shard of a partitioned run (see [Sharded runs](#sharded-runs)).
//! - **Several models.** [`Suite::configuration`] declares a model configuration
//!   ([`Configuration`]: a label, its live model and judge, provenance, recordings
//!   directory, price, caps); each trial then runs under each configuration in turn, and
//!   `totals` writes one run file per configuration, `run-<label>-<start>.json`, whose
//!   `configuration` field holds the label. `ISOMER_EVAL_CONFIGURATIONS`
//!   (`ISOMER_EVAL_CONFIGURATIONS=gpt-4.1,qwen2.5`) picks which run. The baseline pins the
//!   first configuration; the others are checked on floors and recordings. The rules are on
//!   [`Configuration`].
//! - **Cost.** With a price ([`Suite::price`], [`Configuration::price`], US dollars per
//!   million input and output tokens) each live call is priced where it is made; the run
//!   file holds `costUsd` per call, per run and in total, and `totals` prints
//!   `cost usd      total 0.018 / 3 priced calls / per call mean 0.006` and the mean, p50
//!   and p95 per run under the latency (on the HTML report too).
//! - **Caps.** [`Suite::max_cost`] and [`Suite::max_tokens`] cap the whole run,
//!   [`Configuration::max_cost`] and [`Configuration::max_tokens`] one configuration's
//!   part. Once the spend is at or past a cap no further live call is made: each attempt or
//!   verdict still to record fails naming the cap, its limit and the spend
//!   (`max_cost cap of configuration `gpt-4.1` reached: 0.024 USD spent by 3 live calls,
//!   cap 0.02 USD; no further live call is made in this run`), in measure mode too, and
//!   everything recorded before stays. A later run without the cap records what is left.
//! - Without [`Suite::live`] the trial fails and says what to add. Without
//!   [`Suite::judge`] the verdicts are replayed as recorded.
//! - Agent suites record the same way with [`agent::AgentSuite::live`] (a `step`, such as
//!   `ChatClient::step`): each run without `transcripts/<id>.<repeat>.json` (`missing`), or
//!   every run (`all`), is driven live through the real tools, its transcript written with
//!   each turn's tool results once the run has ended (whole, renamed into place: a run
//!   whose step fails leaves the recorded transcript as it was), and the trial then
//!   replays it.
//!
//! Then accept the baseline as above and review the diff of the recordings and snapshots.
//! `ISOMER_EVAL_RECORDINGS_<SUITE>` (below) points recording at another directory, to
//! record without touching the committed corpus.
//!
//! # Sharded runs
//!
//! A live run too long for one machine is split over CI runners with cargo-nextest's
//! partitions, one shard per runner, each run with `ISOMER_EVAL_SHARD` naming its shard:
//!
//! ```text
//! ISOMER_EVAL_SHARD=2 ISOMER_EVAL_RECORD=measure ISOMER_EVAL_RECORDINGS_SLIDES=/tmp/slides \
//!   cargo nextest run -p isomer-slides --test slides_eval --partition count:2/3
//! # then, with every runner's target/isomer/slides/shard-*.json gathered in one place:
//! isomer-report --merge shard-*.json -o merged.json
//! ```
//!
//! With the variable set (to a name: `2`, `2of3`, the runner's index), each case trial adds
//! its runs to its shard's run file, `target/isomer/<suite>/shard-<name>-<run>.json` (or
//! under `ISOMER_EVAL_RUNS`; `shard-<label>-<name>-<run>.json`, one per configuration, for a
//! suite with [`Configuration`]s), where `<run>` is the nextest run id (`NEXTEST_RUN_ID`, one per
//! `cargo nextest run`), or, without nextest, this process's id and start time. The trials
//! of a shard run as separate processes, so each takes a lock beside the file, merges its
//! runs in ([`crate::merge::merge_runs`]: corpus order, the axes, pass rates and suite
//! floors recomputed over the runs the file holds) and writes it back whole, renamed into
//! place; a retried trial replaces its case's runs. The file therefore holds exactly the
//! cases its shard ran. The shard's `totals` trial runs no case (whichever shard nextest
//! deals it to): it passes at once, naming the shard's file on stderr, and writes no run
//! file; the suite floors are checked by `isomer-report --merge` over the merged runs
//! (status 1 when one is missed, or when a case of the corpus ran in no shard), and the
//! baseline is not compared in a sharded run. The merge refuses shards of different
//! suites, corpus versions (`corpus.json` as compiled in), modes, repeat counts, labels,
//! configurations, prices or floors, and a case found in two shards. Without the variable, nothing
//! changes: case trials write no run file and `totals` runs the whole corpus. Agent suites,
//! which write no run file, run as before under the variable.
//!
//! Recording under nextest has the limit named in [Recording a corpus](#recording-a-corpus):
//! the processes of one runner do not serialize their writes of `judgments.json`, so a
//! sharded run that records verdicts runs each shard's trials one at a time
//! (`cargo nextest run ... --test-threads 1`); the shards themselves run side by side.
//!
//! # Agent corpora
//!
//! With the `agent` key, `#[isomer_eval(corpus = "...", agent, ...)]` runs a recorded agent
//! corpus (`corpus.json` plus `transcripts/<case id>.<repeat>.json`) on a function returning
//! an [`agent::AgentSuite`] (runtime, tools, run options): per-case trials replay only their
//! own transcripts, `totals` carries the agent floors (`max_mean_turns`,
//! `min_expected_hit_ratio`, ..., see [`crate::floor`]) and the agent baseline. See
//! [`agent`].
//!
//! # Variables the harness reads
//!
//! - `ISOMER_EVAL_RECORD`: `missing`, `all` or `measure` switches record mode on (see
//!   [Recording a corpus](#recording-a-corpus)); unset or empty replays. Any other value
//!   fails every trial, naming the values it takes.
//! - `ISOMER_EVAL_SHARD`: a shard's name; the run is one shard of a partitioned run (see
//!   [Sharded runs](#sharded-runs)). `NEXTEST_RUN_ID`, which cargo-nextest sets, then
//!   names the run its shard file belongs to.
//! - `ISOMER_EVAL_RUNS`: a directory; run files go to `<dir>/<suite>/` instead of the
//!   target directory's `isomer/<suite>/`.
//! - `ISOMER_EVAL_CONFIGURATIONS`: labels separated by
//!   commas; a suite with configurations runs only those (see
//!   [Recording a corpus](#recording-a-corpus)). Unset or empty, all of them.
//! - `ISOMER_EVAL_ACCEPT`, read by `totals` when it compares the
//!   baseline: set to anything but empty or `0`, the moved snapshot files are rewritten.
//! - `ISOMER_EVAL_RECORDINGS_<SUITE>` (suite name upper-cased, other characters as `_`):
//!   a directory to replay `answers/`, `judgments.json` and `prompt.txt` from instead of
//!   the corpus directory, for checking fresh recordings without touching the committed
//!   ones. The cases still come from the compiled-in `corpus.json`. A path that is not a
//!   directory fails every trial with the variable's name and the path.
//!
//! - `ISOMER_EVAL_HTML`: a directory; each `<suite>::totals` trial then also writes the
//!   HTML report of its run to `<dir>/<suite>.html` (see [`crate::html`]; the directory is
//!   created, characters of the suite name other than letters, digits, `-` and `_` are
//!   written `_`) and names the file on stderr by its absolute path (a relative `<dir>`
//!   is taken from the test's working directory: cargo runs a test in its package's
//!   directory, not where the command was typed). The page shows the totals beside the
//!   committed report, each floor met or missed, the recordings' faults and one row per
//!   case. A file that cannot be written fails `totals` with the path and the reason.
//!   Case trials write nothing.
//!
//! # Known limitations
//!
//! - libtest-mimic captures no output: a trial's diagnostics are in its failure message,
//!   and the diff of a moved snapshot goes to stderr (`--- <name>.snap (committed)` /
//!   `+++ <name> (this run)`, short hunks, cut after 20 lines with `the whole diff: <path>`
//!   naming `<name>.diff` beside the run files, `<target>/isomer/<suite>/` or under
//!   `ISOMER_EVAL_RUNS`), so stdout stays libtest's (one JSON object a line
//!   under `--format json`). The hunk's `@@ -32,7 +32,7 @@` numbers lines of the
//!   snapshot's contents, not of the `.snap` file: the `@@` line adds `lines of the
//!   snapshot's contents, after the 3-line header of <name>.snap` (the committed file's
//!   `---` header, counted from the file), so that hunk starts at line 35 of the file.
//! - `--list` ignores `--format json`: libtest-mimic 0.8 lists every trial as a
//!   `<name>: test` line (libtest's pretty listing) whatever the format, and offers no hook
//!   to list otherwise; libtest's own JSON listing is an unstable option. Parse the plain
//!   lines, or run with `--format json` for JSON events of a run.
//! - `--exact <name>` builds only that trial; every other trial is a placeholder that
//!   reads nothing and that libtest-mimic's filter drops, so the closing line counts the
//!   excluded trials in `filtered out`, as libtest does.
//! - The corpus path resolves against `CARGO_MANIFEST_DIR`, not the source file, because
//!   rust-analyzer's proc-macro server does not implement `Span::local_file`.
//! - rust-analyzer shows no run button per case (it only discovers `#[test]` items); run
//!   one case from a terminal with `--exact`.

pub mod agent;
mod agent_record;
pub(crate) mod any;
mod configuration;
mod diff;
mod failure;
pub(crate) mod gate;
mod html;
mod kind;
mod outcome;
mod print_prompt;
mod record;
pub(crate) mod run_log;
mod snapshot;
pub(crate) mod spec;
mod suite;

use std::path::Path;
use std::process::ExitCode;

use libtest_mimic::Arguments;

use any::AnySuiteSpec;
pub use configuration::Configuration;
pub use html::committed_report;
// A host's own `main` may adjust the spec `suite!` gives (its floors, say) before `run`.
pub use spec::SuiteSpec;
pub use suite::{DEFAULT_LIVE_TIMEOUT, Suite};

/// Runs `suites` under the command line of this process and returns libtest's exit code:
/// `0` when every selected trial passed, `101` otherwise.
///
/// `--print-prompt [<suite>]` anywhere on the command line runs no trial: it prints the
/// prompt the suite's answers are written from (what `prompt.txt` must hold; for an agent
/// suite, its system prompt) to stdout and exits `0`, or exits `2` with `error: ...` when
/// the target has several suites and none is named, or none of that name. It is read
/// before libtest's options, which do not know it:
/// `cargo test --test slides_eval -- --print-prompt > corpus/slides/prompt.txt`.
///
/// Takes suites of either kind, or both in one target, in the order given: what
/// [`suite!`](crate::suite) names (a [`SuiteSpec`], or an agent suite's spec), or a mix of
/// both kinds as [`main!`](crate::main) passes them. This is what the
/// `main` of an `#[isomer_eval]` target and [`main!`](crate::main) call. It reads the
/// arguments and the `ISOMER_EVAL_RECORDINGS_<SUITE>` variables (see the
/// [module docs](self)).
///
/// When two trials would share a name, runs nothing, prints each conflict to stderr as
/// `error: ...` and exits `101`: libtest would run both under one name and cargo-nextest
/// would keep only one of them, losing a case. Two trials share a name when two suites
/// have one name (each `main = false` suite of a target is named after its function
/// unless `name = "..."` is given), a case's id is `totals` (the name of its suite's
/// totals trial), or a case id is used twice in a suite (`#[isomer_eval]` refuses that at
/// compile time; a hand-written `SuiteSpec` may not); two suite names with one recordings
/// variable `ISOMER_EVAL_RECORDINGS_<SUITE>` (`a_b` and `a-b`), which one override would
/// redirect together, are refused too. `--test-threads 0` is refused the same way.
pub fn run<S: Copy + Into<AnySuiteSpec>>(suites: &[S]) -> ExitCode {
    let suites = any(suites);
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(request) = print_prompt::prompt_request(&argv) {
        return print_prompt::print_prompt(&suites, &request);
    }
    let args = Arguments::from_args();
    gate::run_gates(&suites, &gate::recordings_overrides(&suites), &args).exit_code()
}

/// The suites as `AnySuiteSpec`s, in order.
fn any<S: Copy + Into<AnySuiteSpec>>(suites: &[S]) -> Vec<AnySuiteSpec> {
    suites.iter().map(|suite| (*suite).into()).collect()
}

/// The snapshot files of a single-shot `baseline` that moved against the files of `suite`
/// in `dir` (`<suite>__report.snap`, `<suite>__report_text.snap`, `<suite>__baseline.snap`),
/// compared as the suite's `totals` trial compares them (see
/// [the module docs](self#the-baseline-and-how-to-accept-a-new-one)): one description per
/// moved file, in that order (`slides__report: totals.valid: 48 -> 47`), empty when all
/// three match. Writes no file (each moved file's diff goes to stderr); a moved baseline is
/// accepted through the `totals` trial. For a test that checks another producer of the
/// same report (such as a report command) against a gate's committed baseline.
pub fn moved_snapshots(
    suite: &str,
    dir: &Path,
    baseline: &crate::baseline::Baseline,
) -> Vec<String> {
    snapshot::compare_baseline(
        suite,
        dir,
        &baseline.report,
        &baseline.report_text,
        &baseline.record,
        false,
    )
    .unwrap_or_else(|error| vec![error])
}

/// Writes the `main` of a test target holding several `#[isomer_eval(main = false)]`
/// suites, of either kind (single-shot and `agent` ones may be mixed):
/// `isomer_evals::main!(suite_a, suite_b);` runs them in that order through
/// [`harness::run`](crate::harness::run).
///
/// The target needs `harness = false` in its `[[test]]` entry. Without it cargo builds
/// the file with libtest's own harness, which ignores this `main` and would report
/// `running 0 tests` as a pass; so the macro also writes one `#[test]`, which only that
/// harness runs (rustc drops `#[test]` items from a `harness = false` build), and which
/// fails saying what to add. `#[isomer_eval]`'s own `main` (without `main = false`) gets
/// the same guard, from the same code.
#[macro_export]
macro_rules! main {
    ($($suite:ident),+ $(,)?) => {
        $crate::__private::harness_false_guard!("isomer_evals::main!");
        fn main() -> ::std::process::ExitCode {
            $crate::harness::run(&[$($crate::__private::AnySuiteSpec::from($crate::suite!($suite))),+])
        }
    };
}

/// The suite constant that `#[isomer_eval]` wrote for the function `$suite`: a
/// `SuiteSpec`, or an `AgentSuiteSpec` for an `agent` suite. For a `main` that
/// calls [`run`] itself; [`main!`](crate::main) uses it too.
///
/// ```ignore
/// #[isomer_evals::isomer_eval(corpus = "corpus/slides", main = false)]
/// fn slides() -> MyRuntime { MyRuntime::new() }
///
/// fn main() -> std::process::ExitCode {
///     isomer_evals::harness::run(&[isomer_evals::suite!(slides)])
/// }
/// ```
#[macro_export]
macro_rules! suite {
    ($suite:ident) => {
        $crate::__private::suite_spec!($suite)
    };
}

/// The guard that [`main!`](crate::main) and `#[isomer_eval]` (unless `main = false`)
/// write beside the `main` they write: a `#[test]`, which only libtest's own harness runs,
/// failing through [`__private::needs_harness_false`](crate::__private::needs_harness_false)
/// with `$writer` (the macro's name) and "add `harness = false`" (see
/// [`main!`](crate::main)). Not public API (reached through
/// `__private::harness_false_guard`).
#[doc(hidden)]
#[macro_export]
macro_rules! __harness_false_guard {
    ($writer:literal) => {
        mod isomer_evals_main {
            #[test]
            fn needs_harness_false() {
                $crate::__private::needs_harness_false($writer)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use libtest_mimic::Conclusion;

    use super::*;
    use crate::harness::spec::{CaseSpec, CorpusSpec, SuiteSpec};

    /// What [`run`] refuses before running anything: every way two trials of
    /// `suites` would get one name.
    fn trial_name_conflicts(suites: &[SuiteSpec]) -> Vec<String> {
        let named: Vec<(&str, &CorpusSpec)> = suites
            .iter()
            .map(|suite| (suite.name, &suite.corpus))
            .collect();
        gate::name_conflicts(&named, None)
    }

    fn never_built() -> Suite {
        unreachable!("the conflict check builds no suite")
    }

    const fn spec(name: &'static str, path: &'static str, cases: &'static [CaseSpec]) -> SuiteSpec {
        SuiteSpec {
            name,
            corpus: CorpusSpec {
                path,
                dir: "/nowhere",
                manifest: "",
                cases,
            },
            build: never_built,
            floors: &[],
            snapshots: "/nowhere",
        }
    }

    const fn case(id: &'static str) -> CaseSpec {
        CaseSpec {
            id,
            start: 0,
            end: 0,
        }
    }

    #[test]
    fn unique_trial_names_have_no_conflict() {
        const A: SuiteSpec = spec("a", "corpus/a", &[case("x"), case("y")]);
        const B: SuiteSpec = spec("b", "corpus/b", &[case("x")]);
        let (a, b) = (A, B);
        assert_eq!(trial_name_conflicts(&[a, b]), Vec::<String>::new());
    }

    #[test]
    fn shared_suite_names_totals_ids_and_repeated_ids_are_named() {
        const A: SuiteSpec = spec("a", "corpus/a", &[case("x"), case("totals"), case("x")]);
        const AGAIN: SuiteSpec = spec("a", "corpus/b", &[case("y")]);
        let (a, again) = (A, AGAIN);
        assert_eq!(
            trial_name_conflicts(&[a, again]),
            [
                "case `totals` of suite `a` (corpus/a/corpus.json) has the name of the suite's `a::totals` trial; rename the case",
                "case id `x` is used twice in suite `a` (corpus/a/corpus.json)",
                "two suites in this target are named `a` (over corpus/a and corpus/b): their trials would share names; give one of them `name = \"...\"`",
            ]
        );
    }

    #[test]
    fn a_conflict_runs_nothing_and_fails() {
        const A: SuiteSpec = spec("a", "corpus/a", &[case("x")]);
        let a = A;
        let args = Arguments::from_iter(["gate", "--list"]);
        let conclusion =
            gate::run_gates(&[AnySuiteSpec::from(a), AnySuiteSpec::from(a)], &[], &args);
        assert_eq!(
            conclusion,
            Conclusion {
                num_filtered_out: 0,
                num_passed: 0,
                num_failed: 1,
                num_ignored: 0,
                num_measured: 0,
            }
        );
        assert_eq!(conclusion.exit_code(), ExitCode::from(101));
    }
}
