//! Whether a page's content runs past the page, measured by laying the page
//! out with takumi.
//!
//! The measure is of boxes: takumi's layout gives each box's size, not the
//! width of the text set inside it, so a word wider than its box would not
//! show here. The frame's stylesheet is what keeps text inside its box (the
//! slides frame sets `overflow-wrap: anywhere`, so an unbreakable word wraps
//! instead of running past the right edge).

use takumi::prelude::{Fonts, MeasuredNode, RenderOptions};

use crate::{Layout, PictureError, draw_error};

/// How far a page's content runs past the page, in pixels (each at least
/// 0; one of them above 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overflow {
    /// How far the lowest box ends below the page's bottom edge.
    pub bottom: f32,
    /// How far the rightmost box ends past the page's right edge.
    pub right: f32,
}

/// Boxes ending within this many pixels past an edge count as fitting
/// (layout rounds sub-pixel positions).
const TOLERANCE: f32 = 0.5;

pub(crate) fn of_page(
    fonts: &Fonts,
    layout: Layout,
    width: u32,
    height: u32,
) -> Result<Option<Overflow>, PictureError> {
    let options = RenderOptions::builder()
        .viewport(layout.viewport)
        .fonts(fonts)
        .node(layout.node)
        .stylesheet(layout.stylesheet)
        .build();
    let root = takumi::measure(options).map_err(|error| draw_error(1, error))?;
    let (mut right, mut bottom) = (0f32, 0f32);
    let mut stack: Vec<&MeasuredNode> = vec![&root];
    while let Some(node) = stack.pop() {
        // The transform is absolute: [a, b, c, d, e, f], e and f the
        // translation of the box's top-left corner.
        let [_, _, _, _, x, y] = node.transform;
        right = right.max(x + node.width);
        bottom = bottom.max(y + node.height);
        stack.extend(node.children.iter());
    }
    let overflow = Overflow {
        bottom: (bottom - height as f32).max(0.0),
        right: (right - width as f32).max(0.0),
    };
    Ok((overflow.bottom > TOLERANCE || overflow.right > TOLERANCE).then_some(overflow))
}
