//! What a page's layout says beyond its pixels: whether its content runs
//! past its body box, and where each run of text sits (the text layer of
//! the SVG and the PDF). One takumi layout answers both.
//!
//! The body box is the box of the page's first element whose class list
//! holds [`BODY_CLASS`] (the slides frame's body, which its stylesheet
//! clips); a page without one is measured against the page. Content runs
//! past it when any box or text run inside it ends below its bottom edge or
//! past its right edge, and past the page when anything at all does: the
//! measure covers text runs as well as boxes, so a word wider than its line
//! counts too.

use takumi::prelude::{Fonts, MeasuredNode, Node, NodeKind, RenderOptions};

use crate::{Layout, PictureError, draw_error};

/// The class of the element whose box the content must stay inside: the
/// slides frame's `div.slide-body`, between the page's padding and its
/// footer band.
pub const BODY_CLASS: &str = "slide-body";

/// How far a page's content runs past its body box (see [`BODY_CLASS`]), or
/// past the page when it has no body box, in pixels: each at least 0, one
/// of them above 0.5. The body clips what runs past it, so this content is
/// not drawn: a finding for the host to show (its `Display` is the
/// message), not ink through the footer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overflow {
    /// How far the lowest box or text run ends below the bottom edge.
    pub bottom: f32,
    /// How far the rightmost box or text run ends past the right edge.
    pub right: f32,
}

impl std::fmt::Display for Overflow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the content runs {:.0} px past the bottom and {:.0} px past the right edge of the slide body, so that part is clipped; shorten it or split it across slides",
            self.bottom, self.right
        )
    }
}

/// Boxes ending within this many pixels past an edge count as fitting
/// (layout rounds sub-pixel positions).
const TOLERANCE: f32 = 0.5;

/// One run of text as laid out: its characters as drawn and its box in
/// page pixels (top-left corner, advance width, ascent plus descent).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TextRun {
    pub text: String,
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

/// What one layout of a page says.
pub(crate) struct Measure {
    /// Where the content runs past the body box (or the page).
    pub overflow: Option<Overflow>,
    /// The text runs drawn: those inside the page and, inside the body, not
    /// wholly past the body's clip.
    pub runs: Vec<TextRun>,
}

/// An axis-aligned box: left, top, right, bottom.
#[derive(Debug, Clone, Copy)]
struct Edges {
    left: f32,
    top: f32,
    right: f32,
    bottom: f32,
}

impl Edges {
    fn of(x: f32, y: f32, width: f32, height: f32) -> Edges {
        Edges {
            left: x,
            top: y,
            right: x + width,
            bottom: y + height,
        }
    }
}

pub(crate) fn of_page(
    fonts: &Fonts,
    layout: Layout,
    width: u32,
    height: u32,
    number: usize,
) -> Result<Measure, PictureError> {
    let body_path = body_path(&layout.node);
    let options = RenderOptions::builder()
        .viewport(layout.viewport)
        .fonts(fonts)
        .node(layout.node)
        .stylesheet(layout.stylesheet)
        .build();
    let root = takumi::measure(options).map_err(|error| draw_error(number, error))?;
    let page = Edges::of(0.0, 0.0, width as f32, height as f32);
    let body = body_path.as_deref().and_then(|path| follow(&root, path));
    let clip = body.map(|body| {
        let [_, _, _, _, x, y] = body.transform;
        Edges::of(x, y, body.width, body.height)
    });

    let mut runs = Vec::new();
    // How far the boxes outside the body, and those inside it, reach.
    let (mut outside, mut inside) = ((0f32, 0f32), (0f32, 0f32));
    // (node, whether it is the body or inside it)
    let mut stack: Vec<(&MeasuredNode, bool)> = vec![(&root, false)];
    while let Some((node, in_body)) = stack.pop() {
        let in_body = in_body || body.is_some_and(|body| std::ptr::eq(body, node));
        // The transform is absolute: [a, b, c, d, e, f], e and f the
        // translation of the box's top-left corner.
        let [_, _, _, _, x, y] = node.transform;
        let reach = if in_body { &mut inside } else { &mut outside };
        let mut boxes = vec![Edges::of(x, y, node.width, node.height)];
        for run in &node.runs {
            let edges = Edges::of(x + run.x, y + run.y, run.width, run.height);
            boxes.push(edges);
            let bounds = match clip {
                Some(clip) if in_body => clip,
                _ => page,
            };
            let drawn = edges.top < bounds.bottom
                && edges.left < bounds.right
                && edges.bottom > bounds.top
                && edges.right > bounds.left;
            if drawn && !run.text.trim().is_empty() {
                runs.push(TextRun {
                    // A zero-width space marks where a line may break (after
                    // an address's `/` or `.`); it is no part of the words.
                    text: run.text.replace('\u{200B}', ""),
                    x: edges.left,
                    y: edges.top,
                    width: run.width,
                    height: run.height,
                });
            }
        }
        for edges in boxes {
            reach.0 = reach.0.max(edges.right);
            reach.1 = reach.1.max(edges.bottom);
        }
        stack.extend(node.children.iter().rev().map(|child| (child, in_body)));
    }
    let past = |(right, bottom): (f32, f32), edges: Edges| {
        (
            (right - edges.right).max(0.0),
            (bottom - edges.bottom).max(0.0),
        )
    };
    let (mut right, mut bottom) = past(outside, page);
    if let Some(clip) = clip {
        let (body_right, body_bottom) = past(inside, clip);
        right = right.max(body_right);
        bottom = bottom.max(body_bottom);
    }
    let overflow = Overflow { bottom, right };
    Ok(Measure {
        overflow: (overflow.bottom > TOLERANCE || overflow.right > TOLERANCE).then_some(overflow),
        runs,
    })
}

/// The child indexes from `root` down to the first element (in document
/// order) with [`BODY_CLASS`], counting element children only, with each
/// level's element count; `None` when there is none, or when the way down
/// passes an element holding text (whose measured children are inline
/// boxes, not its elements one for one).
fn body_path(root: &Node) -> Option<Vec<(usize, usize)>> {
    fn elements(node: &Node) -> Option<Vec<&Node>> {
        let NodeKind::Container { children } = &node.kind else {
            return None;
        };
        let mut elements = Vec::new();
        for child in children {
            match &child.kind {
                NodeKind::Container { .. } => elements.push(child),
                NodeKind::Text(_) => return None,
                _ => return None,
            }
        }
        Some(elements)
    }
    fn find(node: &Node, path: &mut Vec<(usize, usize)>) -> bool {
        if node.classes().any(|class| class == BODY_CLASS) {
            return true;
        }
        let Some(children) = elements(node) else {
            return false;
        };
        for (index, child) in children.iter().enumerate() {
            path.push((index, children.len()));
            if find(child, path) {
                return true;
            }
            path.pop();
        }
        false
    }
    let mut path = Vec::new();
    find(root, &mut path).then_some(path)
}

/// The measured node at `path`, when every level has as many measured
/// children as the markup has elements (so the indexes line up).
fn follow<'m>(root: &'m MeasuredNode, path: &[(usize, usize)]) -> Option<&'m MeasuredNode> {
    path.iter().try_fold(root, |node, &(index, count)| {
        (node.children.len() == count && node.runs.is_empty()).then(|| &node.children[index])
    })
}
