//! `slideTree`: a folder and its entries, one level deep
//! (group "Diagrams").

use std::borrow::Cow;

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Markdown, Scope};
use serde_json::Value;

use crate::authored::{LineText, display_columns};
use crate::check::Issue;
use crate::code_block::code_markdown;
use crate::html::{classed, line_html};
use crate::primitives::SlideNode;
use crate::slack::rich_preformatted;
use crate::text::line;

/// The message for an entry name that reaches below the folder.
pub const ONE_LEVEL: &str = "one level only: a name holds no \"/\" except a folder's trailing one";

/// The connector before every entry but the last: two characters, then
/// one space.
pub const BRANCH: &str = "├─ ";
/// The connector before the last entry: two characters, then one space.
pub const LAST_BRANCH: &str = "└─ ";

slide_node! {
    catalog "slideTree" in "Diagrams" {
        purpose: "A folder and up to eight files or folders directly inside it, each with a short note.",
        use_when: [
            "Walking through a package, service or repository folder.",
            "Each entry of a folder earns a note.",
        ],
        avoid_when: [
            "Things that are not files: use slideList.",
            "Vocabulary: use slideDefinitions.",
            "The code inside a file: use slideCode.",
        ],
        example: {
            "type": "slideTree",
            "root": "ledger/",
            "entries": [
                { "name": "batch/", "body": "the nightly settlement run" },
                { "name": "refunds.ts", "body": "refund orders in" },
                { "name": "payouts.ts", "body": "one transfer per bank" }
            ]
        },
    }

    /// The fields of a `slideTree` node.
    pub struct SlideTree {
        /// The folder, e.g. "checkout/".
        pub root: LineText,
        /// One to eight entries directly inside the folder.
        #[schemars(length(min = 1, max = 8))]
        pub entries: Vec<TreeEntry>,
    }

    /// One file or folder directly inside the root.
    pub struct TreeEntry {
        /// The file or folder name, set in mono; a folder ends with "/".
        pub name: LineText,
        /// What the entry holds, a short phrase.
        pub body: LineText,
    }
}

impl SlideTree {
    /// The drawn tree: the root, then `├─ name  body` per entry (`└─ `
    /// for the last), names padded to the widest (wide glyphs count 2) and
    /// two spaces before the body.
    fn drawing(&self) -> String {
        let names: Vec<Cow<'_, str>> = self.entries.iter().map(|e| line(&e.name)).collect();
        let width = names.iter().map(|n| display_columns(n)).max().unwrap_or(0);
        let mut lines = vec![line(&self.root).into_owned()];
        for (index, (entry, name)) in self.entries.iter().zip(&names).enumerate() {
            let connector = if index + 1 == self.entries.len() {
                LAST_BRANCH
            } else {
                BRANCH
            };
            let pad = " ".repeat(width - display_columns(name));
            lines.push(format!("{connector}{name}{pad}  {}", line(&entry.body)));
        }
        lines.join("\n")
    }
}

impl SlideNode for SlideTree {
    /// Entries are one level deep: no `/` in a name but a folder's last
    /// character.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.name.trim_end_matches('/').contains('/'))
            .map(|(index, _)| Issue::new(format!("entries[{index}].name"), ONE_LEVEL))
            .collect()
    }

    /// Text: the drawn tree.
    fn text(&self, _scope: &Scope<'_>) -> String {
        self.drawing()
    }

    /// Markdown: the drawn tree in a `text` code block.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        code_markdown(None, "text", &self.drawing())
    }

    const NATIVE_HTML: bool = true;

    const CSS: &'static str = include_str!("slide_tree.css");

    /// HTML: `<div class="slide-tree">` with the root folder
    /// (`slide-tree-root`) over a `<ul>` of entries, each `<li>` a grid of
    /// the name (`slide-tree-name`, mono) and its note (`slide-tree-body`).
    /// The connectors are drawn, not typed: every row but the last has a
    /// full-height rail (`slide-tree-rail`, a `├`), the last a rail from
    /// its top to the tick (`slide-tree-rail-last`, a `└`), and each name a
    /// tick (`slide-tree-tick`), all `aria-hidden` borders.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let hidden = |class: &str| {
            Html::element(
                "span",
                &[("class", class), ("aria-hidden", "true")],
                Html::new(),
            )
        };
        let rows = Html::concat(self.entries.iter().enumerate().map(|(index, entry)| {
            let last = index + 1 == self.entries.len();
            let mut name = if last {
                hidden("slide-tree-rail-last")
            } else {
                Html::new()
            };
            name.push(hidden("slide-tree-tick"));
            name.push(Html::element("span", &[], line_html(&entry.name)));
            let mut row = if last {
                Html::new()
            } else {
                hidden("slide-tree-rail")
            };
            row.push(classed("span", "slide-tree-name", name));
            row.push(Html::text(" "));
            row.push(classed("span", "slide-tree-body", line_html(&entry.body)));
            Html::element("li", &[], row)
        }));
        classed(
            "div",
            "slide-tree",
            classed("div", "slide-tree-root", line_html(&self.root)).then(Html::element(
                "ul",
                &[],
                rows,
            )),
        )
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: the drawn tree as `rich_text_preformatted`
    /// ([`rich_preformatted`]), as written.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        vec![rich_preformatted(&self.drawing())]
    }
}
