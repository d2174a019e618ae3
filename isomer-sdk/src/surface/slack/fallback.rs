//! The Block Kit fallback: a node's [`Markdown`] as blocks, for
//! primitives without a `slack` renderer.

use serde_json::Value;

use crate::surface::Markdown;
use crate::surface::markdown::{Block, escape_mrkdwn};

use super::table::SLACK_TABLE_CELL_SEPARATOR;
use super::{divider, header, section};

/// The Markdown of a node as Block Kit: a heading becomes a `header`, a
/// paragraph / list / code block / table / quote a `mrkdwn` `section`, a
/// rule a `divider`. A heading or section whose text would be empty (an
/// empty heading, a table without any cell text) is left out: Block Kit
/// refuses a text object without characters, and with it the message.
pub(crate) fn markdown_to_blocks(markdown: &Markdown) -> Vec<Value> {
    markdown
        .blocks
        .iter()
        .filter_map(|block| match block {
            Block::Heading(_, content) => {
                let plain = content.to_plain();
                (!plain.is_empty()).then(|| header(&plain))
            }
            Block::Rule => Some(divider()),
            other => {
                let mrkdwn = block_mrkdwn(other);
                (!mrkdwn.is_empty()).then(|| section(&mrkdwn))
            }
        })
        .collect()
}

fn block_mrkdwn(block: &Block) -> String {
    match block {
        Block::Paragraph(content) => content.to_mrkdwn(),
        Block::Heading(_, content) => format!("*{}*", content.to_mrkdwn()),
        Block::Bullets(items) => items
            .iter()
            .map(|item| format!("• {}", item.to_mrkdwn()))
            .collect::<Vec<_>>()
            .join("\n"),
        Block::Ordered(items) => items
            .iter()
            .enumerate()
            .map(|(index, item)| format!("{}. {}", index + 1, item.to_mrkdwn()))
            .collect::<Vec<_>>()
            .join("\n"),
        Block::Code { code, .. } => format!("```\n{}\n```", escape_mrkdwn(code)),
        Block::Quote(inner) => inner
            .blocks
            .iter()
            .map(block_mrkdwn)
            .collect::<Vec<_>>()
            .join("\n\n")
            .split('\n')
            .map(|line| format!("> {line}"))
            .collect::<Vec<_>>()
            .join("\n"),
        Block::Table { head, rows } if rows.is_empty() => head
            .iter()
            .filter(|cell| !cell.is_empty())
            .map(|cell| cell.to_mrkdwn())
            .collect::<Vec<_>>()
            .join(SLACK_TABLE_CELL_SEPARATOR),
        Block::Table { head, rows } => rows
            .iter()
            .map(|row| {
                row.iter()
                    .enumerate()
                    .map(|(index, cell)| match head.get(index) {
                        Some(name) if !name.is_empty() => {
                            format!("*{}*: {}", name.to_mrkdwn(), cell.to_mrkdwn())
                        }
                        _ => cell.to_mrkdwn(),
                    })
                    .collect::<Vec<_>>()
                    .join(" · ")
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Block::Rule => "———".to_owned(),
    }
}
