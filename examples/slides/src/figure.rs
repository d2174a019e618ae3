//! Figures: the authored numbers of `slideStat`, `slideStats` and
//! `slideDelta` (a value as it should read, an optional unit), their
//! checks, and how each string surface prints them or the placeholder that
//! stands in for a value not measured yet.
//!
//! | surface | `value` `99.9`, `unit` `%` | no value |
//! |---|---|---|
//! | text | `99.9 %` | `[value pending]` |
//! | Markdown | `**99.9 %**` | `_value pending_` |
//! | Slack `mrkdwn` | `*99.9 %*` | `_value pending_` |

use isomer_sdk::surface::{Html, Inline};

use crate::authored::{NEEDS_VISIBLE_CHARACTER, has_visible_character};
use crate::check::{Issue, join_path};
use crate::slack::text_mrkdwn;
use crate::text::line;

/// The words that stand in for a value not measured yet, as upstream
/// prints them.
pub const PENDING: &str = "value pending";

/// The message for a unit without a value.
pub const UNIT_NEEDS_VALUE: &str = "unit needs a value";

/// One authored figure: a value and an optional unit, either absent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figure<'a> {
    /// The number as it should read; `None` for a placeholder.
    pub value: Option<&'a str>,
    /// The unit after the number.
    pub unit: Option<&'a str>,
}

impl<'a> Figure<'a> {
    /// The figure of `value` and `unit`.
    pub fn new(value: Option<&'a str>, unit: Option<&'a str>) -> Figure<'a> {
        Figure { value, unit }
    }

    /// `value unit` on one line, or `None` without a value.
    pub fn reading(&self) -> Option<String> {
        let value = line(self.value?);
        Some(match self.unit {
            Some(unit) => format!("{value} {}", line(unit)),
            None => value.into_owned(),
        })
    }

    /// Text: `value unit`, or `[value pending]`.
    pub fn text(&self) -> String {
        self.reading().unwrap_or_else(|| format!("[{PENDING}]"))
    }

    /// Markdown: `**value unit**`, or `_value pending_`.
    pub fn inline(&self) -> Inline {
        self.reading()
            .map_or_else(|| Inline::emphasis(PENDING), Inline::strong)
    }

    /// Markdown without the bold: `value unit` as plain text, or
    /// `_value pending_` (`slideDelta` sets its values beside bold labels).
    pub fn plain_inline(&self) -> Inline {
        self.reading()
            .map_or_else(|| Inline::emphasis(PENDING), Inline::text)
    }

    /// HTML at display size: `<p class="slide-value">value <span
    /// class="slide-unit">unit</span></p>` (the space keeps the two words
    /// apart in the page's text; the stylesheet never wraps between them),
    /// or `<p class="slide-value slide-pending">value pending</p>` for a
    /// placeholder.
    pub fn html(&self) -> Html {
        match self.value {
            Some(value) => {
                let mut out = Html::text(&line(value));
                if let Some(unit) = self.unit {
                    out.push(Html::text(" "));
                    out.push(Html::element(
                        "span",
                        &[("class", "slide-unit")],
                        Html::text(&line(unit)),
                    ));
                }
                Html::element("p", &[("class", "slide-value")], out)
            }
            None => Html::element(
                "p",
                &[("class", "slide-value slide-pending")],
                Html::text(PENDING),
            ),
        }
    }

    /// Slack `mrkdwn`: `*value unit*`, or `_value pending_`.
    pub fn mrkdwn(&self) -> String {
        self.reading().map_or_else(
            || format!("_{PENDING}_"),
            |reading| format!("*{}*", text_mrkdwn(&reading)),
        )
    }

    /// The checks every figure shares: a value has a visible character, a
    /// unit comes with a value. `prefix` is the item's path (empty for the
    /// node itself).
    pub fn check(&self, prefix: &str) -> Vec<Issue> {
        let mut issues = Vec::new();
        if let Some(value) = self.value
            && !has_visible_character(value)
        {
            issues.push(Issue::new(
                join_path(prefix, "value"),
                NEEDS_VISIBLE_CHARACTER,
            ));
        }
        if self.unit.is_some() && self.value.is_none() {
            issues.push(Issue::new(join_path(prefix, "unit"), UNIT_NEEDS_VALUE));
        }
        issues
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_figure_and_a_placeholder_on_every_surface() {
        let figure = Figure::new(Some("99.9"), Some("%"));
        assert_eq!(figure.text(), "99.9 %");
        assert_eq!(figure.inline().to_markdown(), "**99.9 %**");
        assert_eq!(figure.mrkdwn(), "*99.9 %*");
        let pending = Figure::new(None, None);
        assert_eq!(pending.text(), "[value pending]");
        assert_eq!(pending.inline().to_markdown(), "_value pending_");
        assert_eq!(pending.mrkdwn(), "_value pending_");
    }

    #[test]
    fn value_and_unit_are_two_words_in_html() {
        assert_eq!(
            Figure::new(Some("2.1"), Some("days")).html().as_str(),
            "<p class=\"slide-value\">2.1 <span class=\"slide-unit\">days</span></p>"
        );
        assert_eq!(
            Figure::new(None, None).html().as_str(),
            "<p class=\"slide-value slide-pending\">value pending</p>"
        );
    }

    #[test]
    fn checks_visibility_and_units() {
        let issues = Figure::new(Some("\u{200b}"), None).check("items[1]");
        assert_eq!(issues[0].path, "items[1].value");
        assert_eq!(issues[0].message, NEEDS_VISIBLE_CHARACTER);
        let issues = Figure::new(None, Some("ms")).check("");
        assert_eq!(issues[0].path, "unit");
        assert_eq!(issues[0].message, UNIT_NEEDS_VALUE);
    }
}
