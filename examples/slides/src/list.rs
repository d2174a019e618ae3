//! Labelled lists, the shape most slide primitives print on the string
//! surfaces: an optional caption, then one [`Entry`] per item.
//!
//! An entry is a glyph (a tone `● ` / `○ `, a `✓ ` marker, or nothing), a
//! lead (a term, a title, a figure: plain text, bold on Markdown and Slack),
//! a separator, a body that accepts inline marks, and a tail of further
//! plain or marked parts (a quoted heading after a timeline's date, a
//! pipeline span's steps and title). Each surface prints
//! the same entry its own way:
//!
//! | surface | entry `● ` + `v2.4` + `: ` + `**Nightly** batch` |
//! |---|---|
//! | text | `● v2.4: Nightly batch` (marks removed) |
//! | Markdown | `● **v2.4**: **Nightly** batch` |
//! | Slack `rich_text` | runs `● `, bold `v2.4`, `: `, bold `Nightly`, ` batch` |
//! | Slack `mrkdwn` | `● *v2.4*: *Nightly* batch` |
//!
//! A [`List`] adds the caption (`LABEL` line, `**LABEL**` paragraph, or
//! `context` `*LABEL*`, upper-cased everywhere) and the list form: lines on
//! text (bare, `- ` or `1. `), a bullet or ordered list on Markdown, a
//! `rich_text` bullet or ordered list on Slack.

use std::borrow::Cow;

use isomer_sdk::surface::{Html, Inline, Markdown};

use crate::authored::{Size, display_columns};
use crate::html::{classed, marks_html, toned_caption};
use serde_json::Value;

use crate::markdown::{caption_paragraph, marks_inline};
use crate::slack::{
    bold_run, caption_blocks, mark_runs, marks_mrkdwn, rich_list, run, text_mrkdwn,
};
use crate::text::{caption, join_lines, line, plain_text};

/// One item of a list as every string surface prints it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entry {
    /// Printed first on every surface, e.g. a tone glyph `● `; may be empty.
    pub glyph: String,
    /// The lead: plain one-line text, bold on Markdown and Slack.
    pub lead: Option<String>,
    /// Printed between the lead and the body when the entry has both, e.g.
    /// `: ` or ` — `.
    pub separator: String,
    /// The body: authored text that accepts inline marks.
    pub body: Option<String>,
    /// What follows the body, in order ([`Entry::then_text`],
    /// [`Entry::then_marks`]).
    pub tail: Vec<Part>,
}

/// A piece of an entry after its body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Plain text, printed as written (escaped where a surface needs it).
    Text(String),
    /// Authored text that accepts inline marks.
    Marks(String),
}

impl Part {
    fn text(&self) -> Cow<'_, str> {
        match self {
            Part::Text(text) => Cow::Borrowed(text),
            Part::Marks(text) => plain_text(text),
        }
    }

    fn inline(&self) -> Inline {
        match self {
            Part::Text(text) => Inline::text(text.as_str()),
            Part::Marks(text) => marks_inline(text),
        }
    }

    fn runs(&self) -> Vec<Value> {
        match self {
            Part::Text(text) if text.is_empty() => Vec::new(),
            Part::Text(text) => vec![run(text)],
            Part::Marks(text) => mark_runs(text),
        }
    }

    fn html(&self) -> Html {
        match self {
            Part::Text(text) => Html::text(text),
            Part::Marks(text) => marks_html(text),
        }
    }

    fn mrkdwn(&self) -> String {
        match self {
            Part::Text(text) => text_mrkdwn(text),
            Part::Marks(text) => marks_mrkdwn(text),
        }
    }
}

impl Entry {
    /// An entry of only a body (authored text with inline marks).
    pub fn body(body: &str) -> Entry {
        Entry {
            body: Some(body.to_owned()),
            ..Entry::default()
        }
    }

    /// An entry of only a lead (plain text, printed on one line).
    pub fn lead(lead: &str) -> Entry {
        Entry {
            lead: Some(line(lead).into_owned()),
            ..Entry::default()
        }
    }

    /// A lead and a body apart by `separator` (`term: body`,
    /// `title — body`); without a body, the lead alone.
    pub fn pair(lead: &str, separator: &str, body: Option<&str>) -> Entry {
        Entry {
            lead: Some(line(lead).into_owned()),
            separator: separator.to_owned(),
            body: body.map(str::to_owned),
            ..Entry::default()
        }
    }

    /// The same entry with `glyph` printed first.
    pub fn with_glyph(mut self, glyph: &str) -> Entry {
        self.glyph = glyph.to_owned();
        self
    }

    /// The same entry followed by plain `text` (one line).
    pub fn then_text(mut self, text: &str) -> Entry {
        self.tail.push(Part::Text(line(text).into_owned()));
        self
    }

    /// The same entry followed by authored `text` with inline marks.
    pub fn then_marks(mut self, text: &str) -> Entry {
        self.tail.push(Part::Marks(text.to_owned()));
        self
    }

    /// The separator, when the entry has both a lead and a body.
    fn separator(&self) -> &str {
        if self.lead.is_some() && self.body.is_some() {
            &self.separator
        } else {
            ""
        }
    }

    /// The text surface: glyph, lead, separator, body and tail with marks
    /// removed.
    pub fn text(&self) -> String {
        let lead = self.lead.as_deref().unwrap_or_default();
        let body = self.body.as_deref().map(plain_text).unwrap_or_default();
        let head = [self.glyph.as_str(), lead, self.separator(), &body];
        // Sized for the head; an entry rarely has a tail.
        let mut out = String::with_capacity(head.iter().map(|part| part.len()).sum());
        for part in head {
            out.push_str(part);
        }
        for part in &self.tail {
            out.push_str(&part.text());
        }
        out
    }

    /// Markdown inline content: glyph, `**lead**`, separator, body with
    /// marks kept; the rest escaped.
    pub fn inline(&self) -> Inline {
        let mut out = Inline::text(self.glyph.as_str());
        if let Some(lead) = &self.lead {
            out = out.then(Inline::strong(lead.as_str()));
        }
        out = out.then(self.separator());
        if let Some(body) = &self.body {
            out = out.then(marks_inline(body));
        }
        for part in &self.tail {
            out = out.then(part.inline());
        }
        out
    }

    /// HTML: the glyph as text, then `<strong>lead</strong>`, the
    /// separator, the body with its marks and the tail (for an entry set as
    /// a paragraph rather than a list item).
    pub fn html(&self) -> Html {
        Html::text(&self.glyph).then(self.html_content())
    }

    /// HTML of everything but the glyph: `<strong>lead</strong>`,
    /// separator, body with marks, tail.
    fn html_content(&self) -> Html {
        let mut out = Html::new();
        if let Some(lead) = &self.lead {
            out.push(Html::element("strong", &[], Html::text(lead)));
        }
        out.push(Html::text(self.separator()));
        if let Some(body) = &self.body {
            out.push(marks_html(body));
        }
        for part in &self.tail {
            out.push(part.html());
        }
        out
    }

    /// Slack `rich_text` runs: glyph, bold lead, separator, body runs.
    /// Empty runs are left out (Slack refuses them).
    pub fn runs(&self) -> Vec<Value> {
        let mut runs = Vec::new();
        if !self.glyph.is_empty() {
            runs.push(run(&self.glyph));
        }
        if let Some(lead) = &self.lead {
            runs.push(bold_run(lead));
        }
        if !self.separator().is_empty() {
            runs.push(run(self.separator()));
        }
        if let Some(body) = &self.body {
            runs.extend(mark_runs(body));
        }
        runs.extend(self.tail.iter().flat_map(Part::runs));
        runs
    }

    /// Slack `mrkdwn`: glyph, `*lead*`, separator, body with marks kept;
    /// the rest escaped.
    pub fn mrkdwn(&self) -> String {
        let mut out = format!(
            "{}{}{}{}",
            text_mrkdwn(&self.glyph),
            self.lead
                .as_deref()
                .map(|lead| format!("*{}*", text_mrkdwn(lead)))
                .unwrap_or_default(),
            text_mrkdwn(self.separator()),
            self.body.as_deref().map(marks_mrkdwn).unwrap_or_default()
        );
        out.extend(self.tail.iter().map(Part::mrkdwn));
        out
    }
}

/// How a list's entries start on the text surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextMarker {
    /// Nothing: the entry's own text (`term: body`).
    #[default]
    Bare,
    /// `- ` before each entry.
    Dash,
    /// `1. `, `2. `, … before each entry.
    Number,
}

/// A labelled list: an optional caption over [`Entry`] items.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct List {
    /// The caption, printed upper-case on every surface; `None` for none.
    pub label: Option<String>,
    /// How entries start on the text surface.
    pub text_marker: TextMarker,
    /// True for an ordered list on Markdown and Slack (text numbers its
    /// lines only with [`TextMarker::Number`]).
    pub ordered: bool,
    /// The items, in order.
    pub entries: Vec<Entry>,
}

impl List {
    /// An unordered, uncaptioned list of `entries`, bare on text.
    pub fn new(entries: impl IntoIterator<Item = Entry>) -> List {
        List {
            entries: entries.into_iter().collect(),
            ..List::default()
        }
    }

    /// An ordered list of `entries`, numbered on every surface.
    pub fn numbered(entries: impl IntoIterator<Item = Entry>) -> List {
        List {
            text_marker: TextMarker::Number,
            ordered: true,
            ..List::new(entries)
        }
    }

    /// The same list under the caption `label` (nothing for `None`).
    pub fn labelled(mut self, label: Option<&str>) -> List {
        self.label = label.map(str::to_owned);
        self
    }

    /// The same list with `marker` before each entry on the text surface.
    pub fn marked(mut self, marker: TextMarker) -> List {
        self.text_marker = marker;
        self
    }

    /// The entries' text lines, marked, without the caption.
    pub fn text_lines(&self) -> String {
        join_lines(
            self.entries
                .iter()
                .enumerate()
                .map(|(index, entry)| match self.text_marker {
                    TextMarker::Bare => entry.text(),
                    TextMarker::Dash => format!("- {}", entry.text()),
                    TextMarker::Number => format!("{}. {}", index + 1, entry.text()),
                }),
        )
    }

    /// Text: the `LABEL` line, then one line per entry.
    pub fn text(&self) -> String {
        join_lines([
            self.label.as_deref().map(caption).unwrap_or_default(),
            self.text_lines(),
        ])
    }

    /// Markdown: the `**LABEL**` paragraph, then a bullet or ordered list.
    pub fn markdown(&self) -> Markdown {
        let items = self.entries.iter().map(Entry::inline);
        caption_paragraph(self.label.as_deref()).then(if self.ordered {
            Markdown::ordered_list(items)
        } else {
            Markdown::bullet_list(items)
        })
    }

    /// HTML: the caption (`<p class="slide-caption">`), then
    /// `<ul class="slide-list">` (`<ol>` when ordered) with one `<li>` per
    /// entry, its content in a `<span>`. Each item shows at most one
    /// marker, a `<span class="slide-marker">` before the content: the
    /// number (`1.`) in an ordered list (an entry's glyph then stays in its
    /// text), else the entry's glyph (`✓`, `●`, `○`), else `•` when the
    /// text surface dashes the entries, else an empty one that keeps the
    /// column. A list with no number, glyph or dash has no marker column
    /// at all. The stylesheet turns the element's own markers off. The
    /// primitives that draw a figure (a timeline's rail, an agenda's
    /// number column, a bullet list's drawn markers) write their own
    /// markup instead.
    pub fn html(&self) -> Html {
        let dashed = self.text_marker == TextMarker::Dash;
        let marked =
            self.ordered || dashed || self.entries.iter().any(|entry| !entry.glyph.is_empty());
        let items = Html::concat(self.entries.iter().enumerate().map(|(index, entry)| {
            let (marker, content) = if self.ordered {
                (format!("{}.", index + 1), entry.html())
            } else if !entry.glyph.trim().is_empty() {
                (entry.glyph.trim().to_owned(), entry.html_content())
            } else if dashed {
                ("•".to_owned(), entry.html_content())
            } else {
                (String::new(), entry.html_content())
            };
            let content = Html::element("span", &[], content);
            let item = if marked {
                classed("span", "slide-marker", Html::text(&marker)).then(content)
            } else {
                content
            };
            Html::element("li", &[], item)
        }));
        let tag = if self.ordered { "ol" } else { "ul" };
        self.label
            .as_deref()
            .map_or_else(Html::new, |label| toned_caption(label, None))
            .then(classed(tag, "slide-list", items))
    }

    /// Slack: a `context` `*LABEL*`, then a `rich_text` bullet or ordered
    /// list.
    pub fn slack(&self) -> Vec<Value> {
        let mut blocks = caption_blocks(self.label.as_deref());
        let style = if self.ordered { "ordered" } else { "bullet" };
        blocks.push(rich_list(
            style,
            self.entries.iter().map(Entry::runs).collect(),
        ));
        blocks
    }
}

/// The size step of a row of items drawn side by side or stacked, picked
/// from their text the way upstream picks one without measuring: the
/// node's own `size` when set, else `l` when `load` is at most
/// `budget[0]`, `m` when at most `budget[1]`, else `s`. The load is
/// usually [`row_load`].
pub fn size_for_load(size: Option<Size>, load: usize, budget: [usize; 2]) -> Size {
    size.unwrap_or(if load <= budget[0] {
        Size::L
    } else if load <= budget[1] {
        Size::M
    } else {
        Size::S
    })
}

/// The load of a row of items: the longest item's characters (the
/// [`display_columns`] of its texts added up, marks removed) times the
/// number of items.
pub fn row_load<'a, I, T>(items: I) -> usize
where
    I: IntoIterator<Item = T>,
    T: IntoIterator<Item = &'a str>,
{
    let mut count = 0;
    let mut longest = 0;
    for texts in items {
        count += 1;
        let columns = texts
            .into_iter()
            .map(|text| display_columns(&plain_text(text)))
            .sum();
        longest = longest.max(columns);
    }
    longest * count
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry() -> Entry {
        Entry::pair("v2.4", ": ", Some("**Nightly** <batch>")).with_glyph("● ")
    }

    #[test]
    fn one_entry_on_every_surface() {
        let entry = entry();
        assert_eq!(entry.text(), "● v2.4: Nightly <batch>");
        assert_eq!(
            entry.inline().to_markdown(),
            "● **v2.4**: **Nightly** \\<batch\\>"
        );
        assert_eq!(entry.mrkdwn(), "● *v2.4*: *Nightly* &lt;batch&gt;");
        assert_eq!(
            entry.runs(),
            vec![
                json!({ "type": "text", "text": "● " }),
                json!({ "type": "text", "text": "v2.4", "style": { "bold": true } }),
                json!({ "type": "text", "text": ": " }),
                json!({ "type": "text", "text": "Nightly", "style": { "bold": true } }),
                json!({ "type": "text", "text": " <batch>" }),
            ]
        );
    }

    #[test]
    fn the_separator_needs_a_lead_and_a_body() {
        assert_eq!(Entry::pair("Plan", " — ", None).text(), "Plan");
        assert_eq!(Entry::body("only").with_glyph("✓ ").text(), "✓ only");
        assert_eq!(Entry::lead("a\nb").inline().to_markdown(), "**a b**");
    }

    #[test]
    fn a_tail_follows_the_body_part_by_part() {
        let entry = Entry::lead("Q3 · SALES.")
            .then_text(" “")
            .then_marks("Can **we**?")
            .then_text("” ")
            .then_marks("Yes.");
        assert_eq!(entry.text(), "Q3 · SALES. “Can we?” Yes.");
        assert_eq!(
            entry.inline().to_markdown(),
            "**Q3 · SALES.** “Can **we**?” Yes."
        );
        assert_eq!(entry.mrkdwn(), "*Q3 · SALES.* “Can *we*?” Yes.");
        assert_eq!(entry.runs().len(), 7);
    }

    #[test]
    fn a_labelled_list_on_every_surface() {
        let list = List::numbered([entry(), Entry::lead("v2.5")]).labelled(Some("Shipped"));
        assert_eq!(list.text(), "SHIPPED\n1. ● v2.4: Nightly <batch>\n2. v2.5");
        assert_eq!(
            list.markdown().to_markdown(),
            "**SHIPPED**\n\n1. ● **v2.4**: **Nightly** \\<batch\\>\n2. **v2.5**"
        );
        let blocks = list.slack();
        assert_eq!(blocks[0]["type"], "context");
        assert_eq!(blocks[0]["elements"][0]["text"], "*SHIPPED*");
        assert_eq!(blocks[1]["elements"][0]["style"], "ordered");
        assert_eq!(
            List::new([Entry::body("a")])
                .marked(TextMarker::Dash)
                .text(),
            "- a"
        );
    }

    #[test]
    fn html_gives_each_item_one_marker_or_none() {
        let mixed = List::new([Entry::lead("Refund").with_glyph("● "), Entry::lead("Order")]);
        assert_eq!(
            mixed.html().as_str(),
            "<ul class=\"slide-list\"><li><span class=\"slide-marker\">●</span><span><strong>Refund</strong></span></li>\
             <li><span class=\"slide-marker\"></span><span><strong>Order</strong></span></li></ul>"
        );
        let numbered = List::numbered([Entry::body("a").with_glyph("A → B: ")]);
        assert_eq!(
            numbered.html().as_str(),
            "<ol class=\"slide-list\"><li><span class=\"slide-marker\">1.</span><span>A → B: a</span></li></ol>"
        );
        let bare = List::new([Entry::pair("01", " ", Some("Why"))]).labelled(Some("Plan"));
        assert_eq!(
            bare.html().as_str(),
            "<p class=\"slide-caption\">PLAN</p><ul class=\"slide-list\"><li><span><strong>01</strong> Why</span></li></ul>"
        );
    }
}
