//! What the picture tests share: the slides runtime, a slide around a
//! body, a page of hand-written markup on the slides stylesheet, and a
//! drawn picture's pixels (decoded from its PNG) with the measures the
//! tests read off them.

#![allow(dead_code)]

use std::ops::Range;

use isomer_pictures::Pictures;
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
    render_in(composition, None)
}

/// `composition` drawn on the slides frame in `theme` (the composition's
/// own scheme when `None`).
pub fn render_in(composition: &Value, theme: Option<Theme>) -> SnapshotRender {
    isomer_slides::runtime()
        .expect("the slides runtime builds")
        .snapshot()
        .expect("the slides runtime has a frame")
        .render(
            composition,
            &SnapshotOptions {
                theme,
                ..SnapshotOptions::default()
            },
        )
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

/// A decoded picture: its size and RGB pixels, row by row.
pub struct Picture {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<u8>,
}

impl Picture {
    /// Decodes a PNG (takumi writes a palette when the colours fit one).
    pub fn of_png(bytes: &[u8]) -> Picture {
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
        Picture {
            width: info.width,
            height: info.height,
            rgb,
        }
    }

    /// `composition` rendered on the slides frame (see [`render`]), drawn
    /// as PNG and decoded.
    pub fn of_composition(composition: &Value) -> Picture {
        let png = Pictures::new()
            .expect("the fonts load")
            .png(&render(composition))
            .expect("the slide draws");
        Picture::of_png(&png)
    }

    pub fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let at = ((y * self.width + x) * 3) as usize;
        [self.rgb[at], self.rgb[at + 1], self.rgb[at + 2]]
    }

    /// Whether the pixel is `colour`, give or take 6 per channel.
    pub fn is(&self, x: u32, y: u32, colour: [u8; 3]) -> bool {
        near(self.pixel(x, y), colour)
    }

    /// Whether the pixel differs from the page background.
    pub fn inked(&self, x: u32, y: u32) -> bool {
        self.pixel(x, y) != PAGE
    }

    /// How many pixels of the box `xs` × `ys` `matches` holds for.
    pub fn count(
        &self,
        xs: Range<u32>,
        ys: Range<u32>,
        matches: impl Fn([u8; 3]) -> bool,
    ) -> usize {
        ys.flat_map(|y| xs.clone().map(move |x| (x, y)))
            .filter(|&(x, y)| matches(self.pixel(x, y)))
            .count()
    }

    /// The pixels that differ from the page background in the rectangle
    /// `x0..x1` × `y0..y1`.
    pub fn ink(&self, x0: u32, y0: u32, x1: u32, y1: u32) -> usize {
        self.count(x0..x1, y0..y1, |pixel| pixel != PAGE)
    }

    /// The smallest rectangle holding every inked pixel, as (left, top,
    /// right, bottom), right and bottom exclusive.
    pub fn ink_box(&self) -> Option<(u32, u32, u32, u32)> {
        self.extent(|pixel| pixel != PAGE)
            .map(|(left, top, right, bottom)| (left, top, right + 1, bottom + 1))
    }

    /// The smallest rectangle holding every pixel that is exactly
    /// `colour`, as (left, top, right, bottom), all inclusive.
    pub fn bounds(&self, colour: [u8; 3]) -> Option<(u32, u32, u32, u32)> {
        self.extent(|pixel| pixel == colour)
    }

    /// The smallest rectangle holding every pixel `matches` holds for, as
    /// (left, top, right, bottom), all inclusive.
    fn extent(&self, matches: impl Fn([u8; 3]) -> bool) -> Option<(u32, u32, u32, u32)> {
        let mut found: Option<(u32, u32, u32, u32)> = None;
        for y in 0..self.height {
            for x in 0..self.width {
                if matches(self.pixel(x, y)) {
                    let (l, t, r, b) = found.unwrap_or((x, y, x, y));
                    found = Some((l.min(x), t.min(y), r.max(x), b.max(y)));
                }
            }
        }
        found
    }

    /// Whether the `size` × `size` square centred on (x, y) is exactly
    /// `colour`.
    pub fn solid(&self, x: u32, y: u32, size: u32, colour: [u8; 3]) -> bool {
        let half = size / 2;
        (y - half..=y + half).all(|yy| (x - half..=x + half).all(|xx| self.pixel(xx, yy) == colour))
    }

    /// How many pixels of row `y` are exactly `colour`.
    pub fn count_in_row(&self, y: u32, colour: [u8; 3]) -> u32 {
        self.count(0..self.width, y..y + 1, |pixel| pixel == colour) as u32
    }

    /// The rows holding more than `min` pixels that are exactly `colour`.
    pub fn rows_with(&self, colour: [u8; 3], min: u32) -> Vec<u32> {
        (0..self.height)
            .filter(|&y| self.count_in_row(y, colour) > min)
            .collect()
    }

    /// The stretches of row `y`, left to right, as (exactly `colour` or
    /// not, length).
    pub fn row_stretches(&self, y: u32, colour: [u8; 3]) -> Vec<(bool, u32)> {
        let mut stretches: Vec<(bool, u32)> = Vec::new();
        for x in 0..self.width {
            let inside = self.pixel(x, y) == colour;
            match stretches.last_mut() {
                Some((kind, length)) if *kind == inside => *length += 1,
                _ => stretches.push((inside, 1)),
            }
        }
        stretches
    }

    /// The longest run of pixels exactly `colour` in row `y`: (first x,
    /// length), the leftmost of equal ones; (0, 0) when there is none.
    pub fn longest_run(&self, y: u32, colour: [u8; 3]) -> (u32, u32) {
        let mut best = (0, 0);
        let mut x = 0;
        for (inside, length) in self.row_stretches(y, colour) {
            if inside && length > best.1 {
                best = (x, length);
            }
            x += length;
        }
        best
    }

    /// The runs of `colour` (give or take 6) along row `y`: `(first x,
    /// length)`.
    pub fn row_runs(&self, y: u32, colour: [u8; 3]) -> Vec<(u32, u32)> {
        runs((0..self.width).map(|x| self.is(x, y, colour)))
    }

    /// The runs of `colour` (give or take 6) down column `x`: `(first y,
    /// length)`.
    pub fn column_runs(&self, x: u32, colour: [u8; 3]) -> Vec<(u32, u32)> {
        runs((0..self.height).map(|y| self.is(x, y, colour)))
    }

    /// The columns holding a vertical run of `colour` at least `length`
    /// long, neighbouring columns (one stroke's width) merged into their
    /// first: `(x, first y, length)`.
    pub fn vertical_lines(&self, colour: [u8; 3], length: u32) -> Vec<(u32, u32, u32)> {
        lines(self.width, length, |x| self.column_runs(x, colour))
    }

    /// The rows holding a horizontal run of `colour` at least `length`
    /// long, neighbouring rows merged into their first: `(y, first x,
    /// length)`.
    pub fn horizontal_lines(&self, colour: [u8; 3], length: u32) -> Vec<(u32, u32, u32)> {
        lines(self.height, length, |y| self.row_runs(y, colour))
    }
}

/// The places `0..count` whose `runs_at` holds a run at least `length`
/// long, places within 4 of the last one kept merged into it: `(place,
/// the run's first index, its length)`.
fn lines(
    count: u32,
    length: u32,
    runs_at: impl Fn(u32) -> Vec<(u32, u32)>,
) -> Vec<(u32, u32, u32)> {
    let mut lines: Vec<(u32, u32, u32)> = Vec::new();
    for place in 0..count {
        let Some(&(first, len)) = runs_at(place).iter().find(|&&(_, len)| len >= length) else {
            continue;
        };
        match lines.last() {
            Some(&(last, _, _)) if place - last <= 4 => {}
            _ => lines.push((place, first, len)),
        }
    }
    lines
}

/// Whether `pixel` is `colour`, give or take 6 per channel.
pub fn near(pixel: [u8; 3], colour: [u8; 3]) -> bool {
    (0..3).all(|c| pixel[c].abs_diff(colour[c]) <= 6)
}

/// The runs of `true` in `flags`: `(first index, length)`.
pub fn runs(flags: impl Iterator<Item = bool>) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut start = None;
    let mut last = 0;
    for (index, flag) in (0..).zip(flags) {
        last = index;
        match (flag, start) {
            (true, None) => start = Some(index),
            (false, Some(first)) => {
                out.push((first, index - first));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(first) = start {
        out.push((first, last + 1 - first));
    }
    out
}
