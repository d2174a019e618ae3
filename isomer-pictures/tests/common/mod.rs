//! What the picture tests share: the slides runtime, a slide around a
//! body, a page of hand-written markup on the slides stylesheet, and PNG
//! decoding.

#![allow(dead_code)]

use isomer_sdk::composition::Theme;
use isomer_sdk::{SnapshotOptions, SnapshotPage, SnapshotRender};
use serde_json::{Value, json};

/// The slides page background, `#F7F6F1`.
pub const PAGE: [u8; 3] = [0xF7, 0xF6, 0xF1];

/// A slide with a heading and `body`, on a frame whose footer says
/// "Northwind · Ledger".
pub fn slide(title: &str, body: Value) -> Value {
    json!({
        "type": "view",
        "title": title,
        "body": [{
            "type": "slideFrame",
            "brand": "Northwind",
            "section": "Ledger",
            "logo": false,
            "body": [{"type": "slideHeading", "title": title}, body],
        }],
    })
}

/// `composition` drawn on the slides frame.
pub fn render(composition: &Value) -> SnapshotRender {
    isomer_slides::runtime()
        .expect("the slides runtime builds")
        .snapshot()
        .expect("the slides runtime has a frame")
        .render(composition, &SnapshotOptions::default())
        .expect("the slide renders")
}

/// A 1920x1080 page of `body` markup inside the slides frame's page and
/// body elements, with the slides stylesheet, for drawing exact text.
pub fn page_of(body: &str) -> SnapshotRender {
    let css = render(&slide("x", json!({"type": "slideStatement", "text": "x"}))).css;
    SnapshotRender {
        page: SnapshotPage {
            html: format!(
                "<section class=\"isomer\" data-theme=\"light\"><div class=\"slide\"><div class=\"slide-body\">{body}</div></div></section>"
            ),
            title: None,
            text: String::new(),
        },
        css,
        width: 1920,
        height: 1080,
        theme: Theme::Light,
    }
}

/// Decodes a PNG (takumi writes a palette when the colours fit one) into
/// its size and RGB pixels.
pub fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a buffer size")];
    let info = reader.next_frame(&mut pixels).expect("a PNG frame");
    pixels.truncate(info.buffer_size());
    let rgb = match info.color_type {
        png::ColorType::Rgb => pixels,
        png::ColorType::Rgba => pixels
            .chunks_exact(4)
            .flat_map(|px| [px[0], px[1], px[2]])
            .collect(),
        other => panic!("an RGB or RGBA page, not {other:?}"),
    };
    (info.width, info.height, rgb)
}

/// A decoded picture.
pub struct Picture {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<u8>,
}

impl Picture {
    pub fn of_png(bytes: &[u8]) -> Picture {
        let (width, height, rgb) = decode_png(bytes);
        Picture { width, height, rgb }
    }

    pub fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let at = ((y * self.width + x) * 3) as usize;
        [self.rgb[at], self.rgb[at + 1], self.rgb[at + 2]]
    }

    /// Whether the pixel differs from the page background.
    pub fn inked(&self, x: u32, y: u32) -> bool {
        self.pixel(x, y) != PAGE
    }

    /// The pixels that differ from the page background in the rectangle
    /// `x0..x1` × `y0..y1`.
    pub fn ink(&self, x0: u32, y0: u32, x1: u32, y1: u32) -> usize {
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| self.inked(x, y))
            .count()
    }

    /// The smallest rectangle holding every inked pixel, as (left, top,
    /// right, bottom), right and bottom exclusive.
    pub fn ink_box(&self) -> Option<(u32, u32, u32, u32)> {
        let mut found: Option<(u32, u32, u32, u32)> = None;
        for y in 0..self.height {
            for x in 0..self.width {
                if self.inked(x, y) {
                    let (l, t, r, b) = found.unwrap_or((x, y, x + 1, y + 1));
                    found = Some((l.min(x), t.min(y), r.max(x + 1), b.max(y + 1)));
                }
            }
        }
        found
    }
}
