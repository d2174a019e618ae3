//! The field types every slide primitive shares: authored text, navigation
//! hrefs, tones and size steps.
//!
//! Authored strings are capped at [`AUTHORED_TEXT_MAX_LENGTH`] characters.
//! The cap guards input size only; whether text fits a slide is the layout
//! check's business, never the schema's (upstream `authoredTextMaxLength`).

use std::borrow::Cow;
use std::ops::Deref;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

/// The most characters an authored string may hold (upstream
/// `authoredTextMaxLength`, 10,000). JSON Schema `maxLength` counts code
/// points; upstream counts UTF-16 code units, which differs only for text
/// full of astral characters.
pub const AUTHORED_TEXT_MAX_LENGTH: u32 = 10_000;

fn bounded_string_schema() -> Schema {
    json_schema!({
        "type": "string",
        "minLength": 1,
        "maxLength": AUTHORED_TEXT_MAX_LENGTH,
    })
}

macro_rules! authored_string {
    ($(#[$doc:meta])* $name:ident, $schema_name:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub String);

        impl $name {
            /// The authored string.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl JsonSchema for $name {
            fn inline_schema() -> bool {
                true
            }
            fn schema_name() -> Cow<'static, str> {
                Cow::Borrowed($schema_name)
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                bounded_string_schema()
            }
        }
    };
}

authored_string!(
    /// Upstream `lineText`: a non-empty string of at most 10,000 characters
    /// meant for one line (a label, a title, a chip). Line breaks print as
    /// spaces on the string surfaces.
    LineText,
    "lineText"
);

authored_string!(
    /// Upstream `wrappedText`: a non-empty string of at most 10,000
    /// characters that may wrap over several lines on a slide.
    WrappedText,
    "wrappedText"
);

authored_string!(
    /// Upstream `boundedHref`: a non-empty navigation target of at most
    /// 10,000 characters; an https, http or mailto URL, or a relative path.
    /// The scheme rule is a refinement ([`crate::url::check_navigation_href`]),
    /// reported as `must be an https, http, or mailto URL, or a relative path`.
    Href,
    "boundedHref"
);

// The authoring schema holds this enum once, as `$defs.tone` (the name
// upstream gives its shared tone schema), and every tone field refers to
// it. The slides pack accepts two of upstream's named colours.

/// An item's colour: "primary" for your side or the thing in focus,
/// "accent" for the host or another party; leave it out for a neutral item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "tone")]
pub enum Tone {
    /// Your side, or what the slide is about.
    Primary,
    /// The host, or another party.
    Accent,
}

impl Tone {
    /// The glyph string surfaces put before a toned item: `● ` for
    /// primary, `○ ` for accent.
    pub fn glyph(self) -> &'static str {
        match self {
            Tone::Primary => "● ",
            Tone::Accent => "○ ",
        }
    }
}

/// The glyph of an optional tone: empty for a neutral item.
pub fn tone_glyph(tone: Option<Tone>) -> &'static str {
    tone.map_or("", Tone::glyph)
}

/// The glyph string surfaces put before the current or emphasized item
/// (timeline and roadmap `current`, graph `emphasis`, the highlighted bar).
pub const CURRENT_GLYPH: &str = "● ";

/// The glyph of an item's `current` (or `highlight`, `emphasis`) flag:
/// [`CURRENT_GLYPH`] when it is `true`, empty otherwise.
pub fn current_glyph(flag: Option<bool>) -> &'static str {
    if flag == Some(true) {
        CURRENT_GLYPH
    } else {
        ""
    }
}

/// A size step, largest first. Absent lets the primitive pick the
/// largest step whose text fits; it changes only the drawn slide, never the
/// string surfaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub enum Size {
    /// Large.
    L,
    /// Medium.
    M,
    /// Small.
    S,
}

/// True when `text` holds at least one character a reader can see: not
/// whitespace, not a control, not a default-ignorable code point (zero-width
/// joiners, variation selectors, soft hyphen, BOM) and not a combining mark
/// on its own. Upstream `figureText` refuses text without one with
/// `needs a visible character`.
pub fn has_visible_character(text: &str) -> bool {
    text.chars().any(|c| {
        !(c.is_whitespace()
            || c.is_control()
            || isomer_sdk::js_parity::is_js_whitespace(c)
            || is_default_ignorable(c)
            || is_combining_mark(c))
    })
}

/// The message for a figure with nothing visible in it.
pub const NEEDS_VISIBLE_CHARACTER: &str = "needs a visible character";

fn is_default_ignorable(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{34f}'
            | '\u{61c}'
            | '\u{115f}'..='\u{1160}'
            | '\u{17b4}'..='\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff0}'..='\u{fff8}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    )
}

fn is_combining_mark(c: char) -> bool {
    matches!(
        c,
        '\u{300}'..='\u{36f}'
            | '\u{483}'..='\u{489}'
            | '\u{591}'..='\u{5bd}'
            | '\u{610}'..='\u{61a}'
            | '\u{64b}'..='\u{65f}'
            | '\u{1ab0}'..='\u{1aff}'
            | '\u{1dc0}'..='\u{1dff}'
            | '\u{20d0}'..='\u{20ff}'
            | '\u{fe20}'..='\u{fe2f}'
    )
}

/// The number of terminal columns `text` takes: East Asian wide and
/// fullwidth characters count 2, combining marks and zero-width characters
/// 0, everything else 1. Used for the width caps of code, diff and command
/// lines ("wide glyphs count 2").
///
/// No ASCII character is wide, a combining mark or default-ignorable, so
/// ASCII text takes one column a byte.
pub fn display_columns(text: &str) -> usize {
    if text.is_ascii() {
        return text.len();
    }
    text.chars()
        .map(|c| {
            if is_combining_mark(c) || is_default_ignorable(c) {
                0
            } else if is_wide(c) {
                2
            } else {
                1
            }
        })
        .sum()
}

fn is_wide(c: char) -> bool {
    matches!(
        c,
        '\u{1100}'..='\u{115f}'
            | '\u{2e80}'..='\u{303e}'
            | '\u{3041}'..='\u{33ff}'
            | '\u{3400}'..='\u{4dbf}'
            | '\u{4e00}'..='\u{9fff}'
            | '\u{a000}'..='\u{a4cf}'
            | '\u{ac00}'..='\u{d7a3}'
            | '\u{f900}'..='\u{faff}'
            | '\u{fe30}'..='\u{fe4f}'
            | '\u{ff00}'..='\u{ff60}'
            | '\u{ffe0}'..='\u{ffe6}'
            | '\u{1f300}'..='\u{1f64f}'
            | '\u{1f900}'..='\u{1f9ff}'
            | '\u{20000}'..='\u{2fffd}'
            | '\u{30000}'..='\u{3fffd}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visible_characters() {
        assert!(has_visible_character("42"));
        assert!(has_visible_character(" %"));
        assert!(!has_visible_character(" \u{200b}\u{301}\u{feff}"));
    }

    #[test]
    fn counts_wide_glyphs_twice() {
        assert_eq!(display_columns("ab"), 2);
        assert_eq!(display_columns("\t a\u{7f}"), 4);
        assert_eq!(display_columns("日本"), 4);
        assert_eq!(display_columns("e\u{301}"), 1);
    }

    #[test]
    fn tone_glyphs() {
        assert_eq!(tone_glyph(Some(Tone::Primary)), "● ");
        assert_eq!(tone_glyph(Some(Tone::Accent)), "○ ");
        assert_eq!(tone_glyph(None), "");
    }
}
