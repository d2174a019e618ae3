//! `slideStat`: one headline number with its sentence
//! (slides-and-runtime.md §3.5, Numbers).

use isomer_sdk::surface::{Inline, Markdown, Scope};
use isomer_sdk::{CatalogEntry, RefineContext};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::authored::{LineText, NEEDS_VISIBLE_CHARACTER, WrappedText, has_visible_character};
use crate::catalog::entry;
use crate::check::Issue;
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::slack::{marks_mrkdwn, text_mrkdwn};
use crate::text::{DASH, line, plain_text};
use isomer_sdk::surface::slack::section;

/// The `type` of the stat node.
pub const TYPE: &str = "slideStat";

/// The message for a unit without a value.
pub const UNIT_NEEDS_VALUE: &str = "unit needs a value";

/// What string surfaces print where a number has not been measured yet.
pub const PLACEHOLDER: &str = "not measured yet";

/// The fields of a `slideStat` node.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = crate::schema::no_null)]
pub struct SlideStat {
    /// The number as it should read, e.g. "99.9". Leave it out for a
    /// placeholder; never invent a number.
    pub value: Option<LineText>,
    /// The unit after the number, e.g. "%" or "ms". Needs a value.
    pub unit: Option<LineText>,
    /// The sentence the number backs. Accepts inline marks.
    pub body: WrappedText,
}

/// The figure `value unit` on one line, or `None` for a placeholder.
pub(crate) fn figure(value: Option<&str>, unit: Option<&str>) -> Option<String> {
    let value = line(value?);
    Some(match unit {
        Some(unit) => format!("{value} {}", line(unit)),
        None => value,
    })
}

/// The figure for Markdown: `**value unit**`, or `_not measured yet_`.
pub(crate) fn figure_inline(value: Option<&str>, unit: Option<&str>) -> Inline {
    figure(value, unit).map_or_else(|| Inline::emphasis(PLACEHOLDER), Inline::strong)
}

/// The checks shared by every figure: `value` has a visible character and
/// `unit` comes with a value (`prefix` is the item's path, or empty).
pub(crate) fn check_figure(prefix: &str, value: Option<&str>, unit: Option<&str>) -> Vec<Issue> {
    let at = |field: &str| crate::check::join_path(prefix, field);
    let mut issues = Vec::new();
    if let Some(value) = value
        && !has_visible_character(value)
    {
        issues.push(Issue::new(at("value"), NEEDS_VISIBLE_CHARACTER));
    }
    if unit.is_some() && value.is_none() {
        issues.push(Issue::new(at("unit"), UNIT_NEEDS_VALUE));
    }
    issues
}

impl SlideNode for SlideStat {
    const TYPE: &'static str = TYPE;

    fn catalog() -> CatalogEntry {
        catalog()
    }

    /// A value needs a visible character; a unit needs a value.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        check_figure("", self.value.as_deref(), self.unit.as_deref())
    }

    /// Text: `value unit — body`, or `[not measured yet] — body`.
    fn text(&self, _scope: &Scope<'_>) -> String {
        let figure = figure(self.value.as_deref(), self.unit.as_deref())
            .unwrap_or_else(|| format!("[{PLACEHOLDER}]"));
        format!("{figure}{DASH}{}", plain_text(&self.body))
    }

    /// Markdown: `**value unit** — body`, or `_not measured yet_ — body`.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        Markdown::paragraph(
            figure_inline(self.value.as_deref(), self.unit.as_deref())
                .then(DASH)
                .then(marks_inline(&self.body)),
        )
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: a `section` `*value unit* — body` (`_not measured yet_` for a
    /// placeholder).
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let figure = figure(self.value.as_deref(), self.unit.as_deref()).map_or_else(
            || format!("_{PLACEHOLDER}_"),
            |f| format!("*{}*", text_mrkdwn(&f)),
        );
        vec![section(&format!(
            "{figure}{DASH}{}",
            marks_mrkdwn(&self.body)
        ))]
    }
}

/// The catalog entry of `slideStat`.
pub fn catalog() -> CatalogEntry {
    entry(
        TYPE,
        "Numbers",
        "One headline number and the sentence it backs, drawn as a band under the slide's body.",
        &[
            "One measured number that backs a diagram or a list above it.",
            "A closing proof point.",
            "A number that is not measured yet: leave out value for a placeholder.",
        ],
        &[
            "Two to four numbers: use slideStats.",
            "A number before and after a change: use slideDelta.",
            "Many values to rank: use slideBars.",
        ],
        json!({
            "type": "slideStat",
            "value": "99.9",
            "unit": "%",
            "body": "of refunds settle in the **first** batch"
        }),
    )
}
