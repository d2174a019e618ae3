//! The content types of a Markdown document, apart from every writer: the blocks of a
//! [`Markdown`] document and how a block writes its hard line breaks. The methods that turn
//! them into an output form live beside the module root; each syntax's writer in its own
//! file imports these types, and nothing here imports a writer.

use super::inline::Inline;

/// One block of a Markdown document.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Block {
    Paragraph(Inline),
    Heading(u8, Inline),
    Bullets(Vec<Inline>),
    Ordered(Vec<Inline>),
    Code {
        language: String,
        code: String,
    },
    Quote(Markdown),
    Table {
        head: Vec<Inline>,
        rows: Vec<Vec<Inline>>,
    },
    Rule,
}

/// A Markdown document: a list of blocks, serialized joined by a blank line.
/// Empty paragraphs and empty documents are dropped, so containers can push
/// their children's output without checking it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Markdown {
    pub(crate) blocks: Vec<Block>,
}

/// How a block writes its content's hard line breaks.
#[derive(Debug, Clone, Copy)]
pub(super) enum LineBreaks<'a> {
    /// `\` and a newline, the next line starting with `indent` (the width
    /// of a list item's marker, so the line stays in the item).
    Hard { indent: &'a str },
    /// One space, for a heading, which ends at a newline.
    Space,
    /// One space, as [`LineBreaks::Space`], in a GFM table cell: GFM splits
    /// a row at every unescaped `|` before it parses inlines, code spans
    /// and link destinations included, so those write theirs as `\|`
    /// (which GFM reads back as `|`).
    Cell,
}
