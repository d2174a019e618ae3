//! A deterministic synthetic corpus of slides cases, for benchmarks and
//! scale tests: [`synthetic_corpus`]`(runtime, n, seed)` makes
//! `n` cases (`case-00000` up to `case-<n - 1>`, five digits, zero-padded)
//! whose recorded answers are built from the pack's catalog examples, with
//! the mix of answers a real model sends.
//!
//! # The mix of first attempts
//!
//! Each case draws its [`AnswerKind`] from the seed's stream with these
//! shares (expected shares: a given `(n, seed)` lands near them, not on
//! them):
//!
//! | kind | share | first attempt | retry |
//! |---|---|---|---|
//! | [`AnswerKind::Bare`] | 50% | valid JSON text | none |
//! | [`AnswerKind::Fenced`] | 20% | valid JSON in a ```` ```json ```` fence, prose around it | none |
//! | [`AnswerKind::InvalidThenFixed`] | 10% | a node of an unknown type (`slideChart`) | valid |
//! | [`AnswerKind::TruncatedThenFixed`] | 5% | the first two thirds of the JSON text's bytes (not JSON) | valid |
//! | [`AnswerKind::TwoSlidesThenFixed`] | 10% | two `slideFrame` nodes, which the frame rule refuses | valid |
//! | [`AnswerKind::InvalidTwice`] | 5% | a `slideHeading` without its required `title` | the same text again |
//!
//! So 70% of first attempts validate, 20% are fenced, and 30% are invalid
//! (schema, frame rule or not JSON); 95% of cases are valid after their
//! retry.
//!
//! # Determinism
//!
//! The same `(runtime catalog, n, seed)` always gives byte-identical cases
//! and answers, on every platform and every run: the generator draws from
//! its own SplitMix64 stream seeded with `seed`, never from a system source
//! of randomness, and reads nothing but the runtime's catalog examples. A
//! larger `n` with the same seed extends the smaller corpus: its first
//! cases are the same. The benchmarks of this crate use seed `42`.
//!
//! ```
//! let runtime = isomer_slides::runtime().unwrap();
//! let corpus = isomer_slides::synthetic::synthetic_corpus(&runtime, 100, 7);
//! assert_eq!(corpus.cases.len(), 100);
//! // The retried cases have a second recorded attempt.
//! assert!(corpus.answers.len() > 100);
//! // Written out as a corpus directory by the caller (this module writes
//! // no file): corpus.json plus answers/<id>.<attempt>.txt.
//! let files = corpus.files();
//! assert_eq!(files[0].0, "corpus.json");
//! ```

use std::collections::BTreeMap;

use isomer_evals::EvalCase;
use isomer_sdk::Runtime;
use serde_json::{Value, json};

/// What a case's recorded first attempt is (the retry, when there is one,
/// is always a valid bare answer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerKind {
    /// Valid JSON text, no fence (50% of cases).
    Bare,
    /// Valid JSON inside a ```` ```json ```` fence with prose before and
    /// after (20%).
    Fenced,
    /// JSON that fails the schema (a node of an unknown type); the retry is
    /// valid (10%).
    InvalidThenFixed,
    /// Text cut off mid-way, so not JSON; the retry is valid (5%).
    TruncatedThenFixed,
    /// Two `slideFrame` nodes, which the frame rule refuses; the retry is
    /// valid (10%).
    TwoSlidesThenFixed,
    /// Invalid on both attempts (a required field missing) (5%).
    InvalidTwice,
}

impl AnswerKind {
    /// True when the first attempt validates.
    pub fn first_is_valid(self) -> bool {
        matches!(self, AnswerKind::Bare | AnswerKind::Fenced)
    }

    /// True when a second attempt is recorded.
    pub fn has_retry(self) -> bool {
        !self.first_is_valid()
    }

    /// Picks the kind for a roll in `0..100`, with the shares above.
    fn from_roll(roll: u64) -> AnswerKind {
        match roll {
            0..50 => AnswerKind::Bare,
            50..70 => AnswerKind::Fenced,
            70..80 => AnswerKind::InvalidThenFixed,
            80..85 => AnswerKind::TruncatedThenFixed,
            85..95 => AnswerKind::TwoSlidesThenFixed,
            _ => AnswerKind::InvalidTwice,
        }
    }
}

/// A generated corpus: cases in id order, their recorded answers, and each
/// case's answer kind.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntheticCorpus {
    /// The cases: id `case-00000`…, a prompt, a golden (the valid slide the
    /// answers are built from) and the expected type (the slide's content
    /// primitive).
    pub cases: Vec<EvalCase>,
    /// Recorded answer texts keyed by (case id, attempt): attempt 0 for
    /// every case, attempt 1 for the kinds that retry.
    pub answers: BTreeMap<(String, u32), String>,
    /// The kind of each case's first attempt, in case order.
    pub kinds: Vec<AnswerKind>,
}

impl SyntheticCorpus {
    /// The corpus as the files of a corpus directory, as
    /// `(relative path, contents)`: `corpus.json` first (pretty-printed,
    /// with a `provenance` naming the generator, the case count and the
    /// seed), then `answers/<id>.<attempt>.txt` in key order. The caller
    /// writes them; this crate writes no file.
    pub fn files(&self) -> Vec<(String, String)> {
        let cases: Vec<Value> = self
            .cases
            .iter()
            .map(|case| {
                let mut entry = json!({"id": case.id, "prompt": case.prompt});
                if let Some(golden) = &case.golden {
                    entry["golden"] = golden.clone();
                }
                if let Some(expected) = &case.expected {
                    entry["expected"] = json!(expected);
                }
                entry
            })
            .collect();
        let manifest = json!({
            "provenance": {
                "generator": "isomer_slides::synthetic",
                "cases": self.cases.len(),
            },
            "cases": cases,
        });
        let mut files = vec![(
            "corpus.json".to_owned(),
            format!(
                "{}\n",
                serde_json::to_string_pretty(&manifest).expect("a JSON value prints")
            ),
        )];
        files.extend(
            self.answers
                .iter()
                .map(|((id, attempt), text)| (format!("answers/{id}.{attempt}.txt"), text.clone())),
        );
        files
    }

    /// Every answer text a full `run_evals` replay reads, in key order
    /// (the same texts [`SyntheticCorpus::answers`] holds).
    pub fn answer_texts(&self) -> impl Iterator<Item = &str> {
        self.answers.values().map(String::as_str)
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, well-mixed, portable
/// stream, enough for choosing examples.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound > 0`; the modulo bias is irrelevant
    /// at these sizes).
    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

/// The frame type every slide is wrapped in.
const FRAME: &str = "slideFrame";
/// The heading every generated slide opens with.
const HEADING: &str = "slideHeading";

/// Builds `cases` synthetic cases from `runtime`'s catalog (the slides
/// runtime: it needs `slideFrame` and `slideHeading`), deterministically
/// from `seed`.
///
/// Each case's golden is one slide: a `slideFrame` (brand and section
/// varying by case) holding the `slideHeading` example, with a title naming
/// the case, and the example of one other primitive (chosen by the seed;
/// every primitive but the frame and the heading takes its turn). Its
/// expected type is that primitive. The first attempt follows the case's
/// [`AnswerKind`]; retries answer the golden, bare.
///
/// # Panics
/// When the runtime lacks `slideFrame` or `slideHeading`.
pub fn synthetic_corpus(runtime: &Runtime, cases: usize, seed: u64) -> SyntheticCorpus {
    let example = |type_name: &str| {
        runtime
            .primitive(type_name)
            .unwrap_or_else(|| panic!("the runtime has no {type_name}"))
            .catalog_entry()
            .example
            .clone()
    };
    let heading = example(HEADING);
    let content: Vec<(String, Value)> = runtime
        .primitives()
        .iter()
        .map(|primitive| primitive.type_name())
        .filter(|name| *name != FRAME && *name != HEADING)
        .map(|name| (name.to_owned(), example(name)))
        .collect();
    let mut rng = SplitMix64(seed);
    let mut corpus = SyntheticCorpus {
        cases: Vec::with_capacity(cases),
        answers: BTreeMap::new(),
        kinds: Vec::with_capacity(cases),
    };
    for index in 0..cases {
        let id = format!("case-{index:05}");
        let (content_type, content_node) = &content[rng.below(content.len())];
        let mut title = heading.clone();
        title["title"] = json!(format!("Finding {index} holds"));
        let slide = json!({
            "type": FRAME,
            "brand": format!("Deck {}", rng.below(1000)),
            "section": format!("Part {}", index % 12 + 1),
            "body": [title, content_node],
        });
        let golden = json!({"type": "view", "title": format!("Case {index}"), "body": [slide]});
        let valid = golden.to_string();
        let kind = AnswerKind::from_roll(rng.next() % 100);
        let first = match kind {
            AnswerKind::Bare => valid.clone(),
            AnswerKind::Fenced => format!(
                "Here is the slide for case {index}.\n\n```json\n{}\n```\n\nIt uses {content_type}.",
                serde_json::to_string_pretty(&golden).expect("a JSON value prints")
            ),
            AnswerKind::InvalidThenFixed => {
                let mut wrong = golden.clone();
                wrong["body"][0]["body"][1] = json!({"type": "slideChart", "points": [1, 2, 3]});
                wrong.to_string()
            }
            AnswerKind::TruncatedThenFixed => valid[..valid.len() * 2 / 3].to_owned(),
            AnswerKind::TwoSlidesThenFixed => {
                let mut twice = golden.clone();
                twice["body"] = json!([slide, slide]);
                twice.to_string()
            }
            AnswerKind::InvalidTwice => {
                let mut wrong = golden.clone();
                wrong["body"][0]["body"][0]
                    .as_object_mut()
                    .expect("the heading is an object")
                    .remove("title");
                wrong.to_string()
            }
        };
        corpus.answers.insert((id.clone(), 0), first);
        if kind.has_retry() {
            let retry = if kind == AnswerKind::InvalidTwice {
                corpus.answers[&(id.clone(), 0)].clone()
            } else {
                valid
            };
            corpus.answers.insert((id.clone(), 1), retry);
        }
        corpus.cases.push(
            EvalCase::new(
                id,
                format!("Case {index}: show why finding {index} holds, as one slide."),
            )
            .with_golden(golden)
            .with_expected([content_type.clone()]),
        );
        corpus.kinds.push(kind);
    }
    corpus
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_42_gives_these_kinds_and_a_larger_corpus_extends_the_smaller_one() {
        let runtime = crate::runtime().expect("the slides runtime builds");
        let small = synthetic_corpus(&runtime, 20, 42);
        let large = synthetic_corpus(&runtime, 50, 42);
        assert_eq!(small.cases, large.cases[..20]);
        assert_eq!(small.kinds, large.kinds[..20]);
        assert!(
            small
                .answers
                .iter()
                .all(|(key, text)| large.answers.get(key) == Some(text))
        );
        use AnswerKind::*;
        assert_eq!(
            small.kinds,
            [
                Fenced,
                Fenced,
                Bare,
                Bare,
                Fenced,
                Fenced,
                InvalidThenFixed,
                Bare,
                InvalidTwice,
                Bare,
                TwoSlidesThenFixed,
                TruncatedThenFixed,
                Bare,
                Bare,
                TruncatedThenFixed,
                Fenced,
                TwoSlidesThenFixed,
                TwoSlidesThenFixed,
                Bare,
                InvalidThenFixed,
            ]
        );
        assert_eq!(small.answers.len(), 28);
        assert_eq!(large.cases[49].id, "case-00049");
    }
}
