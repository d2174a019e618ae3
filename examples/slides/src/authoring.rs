//! The pack's authoring guide and rules: the prose a model reads before it
//! writes slides. Hosts pass them to the authoring prompt
//! (`PromptContext::guide` / `PromptContext::rules`), the eval harness and
//! the agent tools' guide.

/// How to write a deck with this pack: the five kinds of slide, what each
/// holds, and the house style for titles, footers and numbers.
pub const AUTHORING_GUIDE: &str = "\
Each composition is one slide: its body is a single slideFrame, and the slideFrame body holds the slide's nodes from top to bottom. A deck is a list of such compositions.

Write one of five kinds of slide:
- Title slide: tone \"inverse\", holding one slideTitle. Its aside may carry one compact node, such as a short slideBulletList, a slideFanout, or a slideStack of two small nodes.
- Section divider: tone \"inverse\", holding one slideSection whose contents are the titles of the slides in that section, in order, each under about 40 characters. The closing slide belongs to no section.
- Content slide: tone \"page\", opening with a slideHeading, then the one primitive that carries the idea. Use slideSplit to put two things side by side, and end with a slideSource when the slide shows real figures.
- Statement or quote slide: tone \"page\", holding a lone slideStatement or slideQuote and no heading.
- Closing slide: tone \"inverse\", holding one slideClosing.

Give each composition a title: the short form of its slide's heading. Write headings as claims, in full sentences. Footers carry the deck's identity: the same brand and url on every slide, and the section number and name on every slide except the title slide (a deck with one section still numbers it \"01\"). Prefer typographic punctuation: ’ “ ” – —. Never invent numbers, quotes or screenshots; leave a value out and the slide shows a placeholder.";

/// The rules every slide composition must follow. Rule 1 is checked by the
/// `slideDeckFrame` frame, nesting and the footer url by the schemas; the
/// others are guidance the schema cannot express.
pub const AUTHORING_RULES: &str = "\
1. The body of every composition is exactly one slideFrame. Frames never nest: no slideFrame inside another node.
2. Use only the primitives in the catalog, and only the fields their schemas declare.
3. A page-tone slide opens with a slideHeading, or holds a lone slideStatement or slideQuote. Title, section and closing slides use tone \"inverse\" and no heading.
4. A slideSource, when a slide has one, is the last node of the slideFrame body.
5. brand, url and logo are the same on every slide of a deck; url is absolute, with its https:// or http:// scheme.
6. A tone on an item is either \"primary\" or \"accent\".";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_are_six_numbered_lines() {
        let numbers: Vec<&str> = AUTHORING_RULES.lines().map(|l| &l[..2]).collect();
        assert_eq!(numbers, ["1.", "2.", "3.", "4.", "5.", "6."]);
    }

    #[test]
    fn the_guide_names_the_five_slide_kinds() {
        for kind in [
            "Title slide",
            "Section divider",
            "Content slide",
            "Statement or quote slide",
            "Closing slide",
        ] {
            assert!(AUTHORING_GUIDE.contains(&format!("- {kind}:")), "{kind}");
        }
    }
}
