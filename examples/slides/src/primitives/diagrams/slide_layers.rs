//! `slideLayers`: an ordered stack of three to six layers, each with an
//! owner (group "Diagrams").

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Inline, Markdown, Scope};
use serde_json::{Value, json};

use crate::authored::{LineText, Tone, WrappedText, display_columns, tone_glyph};
use crate::check::Issue;
use crate::html::{classed, line_html, marks_html, size_class, tone_name};
use crate::list::size_for_load;
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::slack::{bold_run, italic_run, mark_runs, rich_list, run};
use crate::text::{DASH, SEPARATOR, caption, join_lines, line, plain_text};

/// The message for a layer with both or neither of `body` and `chips`.
pub const BODY_OR_CHIPS: &str = "a layer has exactly one of `body` or `chips`";

slide_node! {
    catalog "slideLayers" in "Diagrams" {
        purpose: "Three to six layers stacked in a fixed order, each resting on the one below, each with a sentence or a few chips and its owner.",
        use_when: [
            "Parts stacked in a fixed order, each built on the one below, with who owns each.",
            "A platform's layers from the product down to the infrastructure.",
        ],
        avoid_when: [
            "Owners side by side rather than stacked: use slideTerritoryGroup.",
            "Steps in time order: use slidePipeline.",
        ],
        example: {
            "type": "slideLayers",
            "layers": [
                { "name": "Checkout", "body": "Takes the refund order.", "owner": "Shop team" },
                { "name": "Ledger", "body": "Settles refunds **nightly**.", "owner": "Ledger team", "tone": "primary" },
                { "name": "Rails", "chips": ["SEPA", "ACH", "Cards"], "owner": "Banks", "tone": "accent" }
            ]
        },
    }

    /// The fields of a `slideLayers` node.
    pub struct SlideLayers sized {
        /// Three to six layers, top first; each rests on the one below.
        #[schemars(length(min = 3, max = 6))]
        pub layers: Vec<Layer>,
    }

    /// One layer of the stack.
    pub struct Layer {
        /// The layer's name, e.g. "Storage".
        pub name: LineText,
        /// What the layer does, one sentence. Accepts inline marks. Give body
        /// or chips, not both.
        pub body: Option<WrappedText>,
        /// One to six parts of the layer, each a short mono chip. Give body or
        /// chips, not both.
        #[schemars(length(min = 1, max = 6))]
        pub chips: Option<Vec<LineText>>,
        /// Who owns the layer (printed upper-case).
        pub owner: LineText,
        /// "primary" for your side, "accent" for the host or another party.
        pub tone: Option<Tone>,
    }
}

/// What joins a layer's chips on every string surface: `, `.
const CHIP_JOIN: &str = ", ";

impl Layer {
    /// `[●/○ ]OWNER`.
    fn owner(&self) -> String {
        format!("{}{}", tone_glyph(self.tone), caption(&self.owner))
    }

    /// The chips joined with [`CHIP_JOIN`], for the text surface.
    fn chip_line(&self) -> String {
        self.chips
            .iter()
            .flatten()
            .map(|c| line(c))
            .collect::<Vec<_>>()
            .join(CHIP_JOIN)
    }
}

/// The estimated lines across the bands the `l` and `m` steps hold: a
/// band is one line, more when its body runs past [`BODY_LINE_COLUMNS`].
/// This pack's estimate, not upstream's measured one.
const LAYERS_FIT: [usize; 2] = [6, 8];

/// The characters of body text one band's line holds at the `l` step:
/// the 1,664 px content width less the name and owner columns and the
/// band's padding, at about 14 px a character.
const BODY_LINE_COLUMNS: usize = 64;

impl SlideLayers {
    /// The estimated lines of every band added up.
    fn lines(&self) -> usize {
        self.layers
            .iter()
            .map(|layer| {
                let columns = layer
                    .body
                    .as_deref()
                    .map_or(0, |body| display_columns(&plain_text(body)));
                columns.div_ceil(BODY_LINE_COLUMNS).max(1)
            })
            .sum()
    }
}

impl SlideNode for SlideLayers {
    /// Each layer has exactly one of `body` and `chips`.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        self.layers
            .iter()
            .enumerate()
            .filter(|(_, l)| l.body.is_some() == l.chips.is_some())
            .map(|(index, _)| Issue::new(format!("layers[{index}]"), BODY_OR_CHIPS))
            .collect()
    }

    /// Text: `Name — body · [●/○ ]OWNER` per layer (chips comma-joined).
    fn text(&self, _scope: &Scope<'_>) -> String {
        join_lines(self.layers.iter().map(|layer| {
            let detail = layer
                .body
                .as_deref()
                .map_or_else(|| layer.chip_line().into(), plain_text);
            format!(
                "{}{DASH}{detail}{SEPARATOR}{}",
                line(&layer.name),
                layer.owner()
            )
        }))
    }

    /// Markdown: an ordered list of `**Name** — body · [●/○ ]_OWNER_`
    /// (chips as code spans joined with `, `).
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        Markdown::ordered_list(self.layers.iter().map(|layer| {
            let detail = match &layer.body {
                Some(body) => marks_inline(body),
                None => Inline::join(
                    layer.chips.iter().flatten().map(|c| Inline::code(line(c))),
                    CHIP_JOIN,
                ),
            };
            Inline::strong(line(&layer.name))
                .then(DASH)
                .then(detail)
                .then(SEPARATOR)
                .then(tone_glyph(layer.tone))
                .then(Inline::emphasis(caption(&layer.owner)))
        }))
    }

    const NATIVE_HTML: bool = true;

    const CSS: &'static str = include_str!("slide_layers.css");

    /// HTML: `<ol class="slide-layers slide-size-…">`, one band `<li>` per
    /// layer, top first: a grid of the name (`<strong>`), the body (`<p>`)
    /// or the chips (a `<ul>` of mono chips), and the owner
    /// (`slide-layers-owner`, upper-cased by the stylesheet, coloured and
    /// cued by `data-tone`). The size step is the author's, else `l` up
    /// to six estimated lines across the bands (a band is one line, more
    /// when its body runs past about 64 characters), `m` up to eight, else
    /// `s`.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let size = size_for_load(self.size, self.lines(), LAYERS_FIT);
        let bands = Html::concat(self.layers.iter().map(|layer| {
            let detail = match &layer.chips {
                Some(chips) => Html::element(
                    "ul",
                    &[],
                    Html::concat(
                        chips
                            .iter()
                            .map(|chip| Html::element("li", &[], line_html(chip))),
                    ),
                ),
                None => Html::element(
                    "p",
                    &[],
                    marks_html(layer.body.as_deref().unwrap_or_default()),
                ),
            };
            let owner = match tone_name(layer.tone) {
                Some(tone) => Html::element(
                    "span",
                    &[("class", "slide-layers-owner"), ("data-tone", tone)],
                    line_html(&layer.owner),
                ),
                None => classed("span", "slide-layers-owner", line_html(&layer.owner)),
            };
            Html::element(
                "li",
                &[],
                Html::element("strong", &[], line_html(&layer.name))
                    .then(detail)
                    .then(owner),
            )
        }));
        Html::element(
            "ol",
            &[("class", &format!("slide-layers {}", size_class(size)))],
            bands,
        )
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: a `rich_text` ordered list: bold name, ` — `, body (chips as
    /// code runs apart by `, ` runs), ` · `, the tone cue (`● ` / `○ `) in
    /// a plain run of its own when there is one, the owner upper-cased in
    /// italics.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let items = self
            .layers
            .iter()
            .map(|layer| {
                let mut runs = vec![bold_run(&line(&layer.name)), run(DASH)];
                match &layer.body {
                    Some(body) => runs.extend(mark_runs(body)),
                    None => {
                        for (index, chip) in layer.chips.iter().flatten().enumerate() {
                            if index > 0 {
                                runs.push(run(CHIP_JOIN));
                            }
                            runs.push(json!({ "type": "text", "text": line(chip), "style": { "code": true } }));
                        }
                    }
                }
                runs.push(run(SEPARATOR));
                let cue = tone_glyph(layer.tone);
                if !cue.is_empty() {
                    runs.push(run(cue));
                }
                runs.push(italic_run(&caption(&layer.owner)));
                runs
            })
            .collect();
        vec![rich_list("ordered", items)]
    }
}
