//! Pictures of Isomer compositions: the runtime's `snapshot` surface drawn
//! as PNG, SVG and PDF in-process with [takumi](https://docs.rs/takumi), no
//! browser and no Node.
//!
//! ```no_run
//! use isomer_pictures::Pictures;
//! use isomer_sdk::SnapshotOptions;
//!
//! let runtime = isomer_slides::runtime()?;
//! let pictures = Pictures::new()?; // fonts are registered here, once
//! let slide = serde_json::json!({"type": "view", "body": [
//!     {"type": "slideFrame", "body": [{"type": "slideStatement", "text": "Ship it."}]}
//! ]});
//! let snapshot = runtime.snapshot().expect("the slides runtime has a frame");
//! let render = snapshot.render(&slide, &SnapshotOptions::default())?;
//! let png: Vec<u8> = pictures.png(&render)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # How a page is drawn
//! The snapshot surface gives each page as the `html` surface's markup plus
//! one stylesheet (the `html` surface's, then the frame's). This crate hands
//! that markup to takumi's HTML parser and lays it out with that stylesheet
//! at the frame's size. The alternative, a takumi node tree built by code
//! per primitive, would be a second renderer of every primitive to keep
//! equal to the HTML one, and a new primitive would draw nothing until
//! someone wrote its tree; through the HTML, every primitive draws the
//! moment it has an HTML (or Markdown) renderer, and the look lives in one
//! stylesheet the frame owns.
//!
//! - PNG: takumi's raster backend, one bitmap of the page's size.
//! - SVG: takumi's vector backend, which draws glyphs as outlines (it writes
//!   no `<text>`). So the document also carries the page's words: its title
//!   as `<title>` and its words as drawn as `<desc>`, first in the root
//!   element, and a text layer last: every run of text takumi laid out, as
//!   an invisible `<text>` at the run's place and width (see
//!   [`Pictures::svg`]).
//! - PDF: takumi writes no PDF from Rust, so each page's SVG, text layer
//!   included, is converted by `svg2pdf` and the pages are assembled into
//!   one document, one page per composition, 1 px = 0.75 pt (96 dpi), with
//!   the first page's title as the document title and no creation date, so
//!   the bytes depend on the input alone. The outlines draw the page; the
//!   text layer becomes real PDF text in subsets of the faces, embedded, so
//!   the words can be selected, searched and extracted (`pdftotext`).
//!
//! Why a text layer from takumi's layout rather than the SVG's own text:
//! takumi's SVG backend has no `<text>` output, and the outlines are what
//! makes the SVG and the PDF look exactly like the PNG (same shaping, same
//! line breaks, no font needed by the reader). The layer takes each run's
//! characters and box from the same layout, so it lies over the outlines
//! it was drawn as.
//!
//! Fonts (Inter 400, 400 italic, 500, 600, 700 and 800; JetBrains Mono 400
//! and 700 without ligatures; Noto Sans Symbols 2 for ✓ ✕ and other
//! symbols, last) are compiled in as subsets and registered once per
//! [`Pictures`]; no system font is read. They cover Latin, Greek, Cyrillic
//! and common symbols; [`Pictures::register_face`] adds a host's face for
//! other scripts or emoji. A character no face has draws as an empty box
//! outline, without an error.
//!
//! Content longer than the page's body box is clipped by the frame's
//! stylesheet and reported by [`Pictures::overflow`] as an [`Overflow`]
//! finding, never drawn through the footer.
//! Every output is deterministic: two renders of one composition are
//! byte-identical.

#![forbid(unsafe_code)]

use std::sync::Arc;

use isomer_agent_tools::{FormatOutput, HostFormat, HostRenderOptions, RuntimeFailure};
use isomer_sdk::{Runtime, SnapshotOptions, SnapshotPage, SnapshotPages, SnapshotRender};
use takumi::prelude::{
    FontResource, Fonts, FromHtmlOptions, Node, OutputFormat, RenderOptions, StyleSheet,
    SvgOptions, Viewport,
};

mod overflow;
mod svg_text;

pub use overflow::{BODY_CLASS, Overflow};

/// The faces compiled into the crate, registered by [`Pictures::new`] in
/// this order, which is the fallback order: a character the element's own
/// family lacks is drawn from the first of these (then from faces a host
/// registers) that has it. Noto Sans Symbols 2 comes last and draws ✓ ✕ and
/// the other dingbats, which the Inter and JetBrains Mono subsets leave out
/// (`fonts/subset.py` cuts them, `fonts/README.md` lists them).
const FONTS: [(&str, &[u8]); 9] = [
    (
        "Inter-Regular.otf",
        include_bytes!("../fonts/Inter-Regular.otf"),
    ),
    (
        "Inter-Italic.otf",
        include_bytes!("../fonts/Inter-Italic.otf"),
    ),
    (
        "Inter-Medium.otf",
        include_bytes!("../fonts/Inter-Medium.otf"),
    ),
    (
        "Inter-SemiBold.otf",
        include_bytes!("../fonts/Inter-SemiBold.otf"),
    ),
    ("Inter-Bold.otf", include_bytes!("../fonts/Inter-Bold.otf")),
    (
        "Inter-ExtraBold.otf",
        include_bytes!("../fonts/Inter-ExtraBold.otf"),
    ),
    (
        "JetBrainsMono-Regular.ttf",
        include_bytes!("../fonts/JetBrainsMono-Regular.ttf"),
    ),
    (
        "JetBrainsMono-Bold.ttf",
        include_bytes!("../fonts/JetBrainsMono-Bold.ttf"),
    ),
    (
        "NotoSansSymbols2-Regular.ttf",
        include_bytes!("../fonts/NotoSansSymbols2-Regular.ttf"),
    ),
];

/// PDF points per CSS pixel (72 pt per inch over 96 px per inch).
const POINTS_PER_PIXEL: f32 = 0.75;

/// Why a picture could not be drawn.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PictureError {
    /// A compiled-in font did not load (a broken build, never input).
    #[error("the compiled-in font {file} did not load: {message}")]
    Font {
        /// The face's file name under the crate's `fonts/`.
        file: &'static str,
        /// takumi's reason.
        message: String,
    },
    /// A face given to [`Pictures::register_face`] is not a font takumi
    /// reads (TrueType, OpenType or a collection of them).
    #[error("the registered face does not load: {0}")]
    Face(String),
    /// The page markup nests deeper than takumi lays out.
    #[error("page {page} cannot be laid out: {message}")]
    Markup {
        /// The page, counted from 1.
        page: usize,
        /// takumi's reason.
        message: String,
    },
    /// The frame's stylesheet does not parse.
    #[error("the frame stylesheet does not parse: {0}")]
    Stylesheet(String),
    /// takumi failed to lay out or draw a page.
    #[error("page {page} could not be drawn: {message}")]
    Draw {
        /// The page, counted from 1.
        page: usize,
        /// takumi's reason.
        message: String,
    },
    /// A page's SVG could not be converted into a PDF page.
    #[error("page {page} could not be converted to PDF: {message}")]
    Pdf {
        /// The page, counted from 1.
        page: usize,
        /// The converter's reason.
        message: String,
    },
}

/// A rasterizer with its fonts registered. Build one and reuse it: every
/// render shares the registered faces. `Pictures` is `Send + Sync`.
pub struct Pictures {
    fonts: Fonts,
    /// The same faces for the PDF's text layer (svg2pdf reads the SVG's
    /// `<text>` with them and embeds the glyphs it uses).
    text_faces: Arc<svg2pdf::usvg::fontdb::Database>,
}

impl std::fmt::Debug for Pictures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pictures").finish_non_exhaustive()
    }
}

/// One page ready to lay out: its node tree, stylesheet and size.
struct Layout {
    node: Node,
    stylesheet: Arc<StyleSheet>,
    viewport: Viewport,
}

impl Pictures {
    /// Registers the compiled-in fonts.
    ///
    /// # Errors
    /// [`PictureError::Font`] when a face does not load, which only a
    /// broken build can cause.
    pub fn new() -> Result<Pictures, PictureError> {
        let mut fonts = Fonts::default();
        let mut text_faces = svg2pdf::usvg::fontdb::Database::new();
        for (file, face) in FONTS {
            fonts
                .register(FontResource::new(face))
                .map_err(|error| PictureError::Font {
                    file,
                    message: error.to_string(),
                })?;
            text_faces.load_font_source(svg2pdf::usvg::fontdb::Source::Binary(Arc::new(face)));
        }
        Ok(Pictures {
            fonts,
            text_faces: Arc::new(text_faces),
        })
    }

    /// Registers one more face (TrueType or OpenType bytes, or a collection
    /// of faces), after the compiled-in ones and any registered before it:
    /// a host adds a CJK, Arabic or emoji face this way, and text the
    /// compiled-in faces lack is then drawn from it. Returns the family
    /// names the face registered under (its typographic family name, else
    /// its family name), which CSS may also name directly.
    ///
    /// Fallback follows registration order, so a face registered earlier
    /// wins for a character two faces share.
    ///
    /// # Errors
    /// [`PictureError::Face`] when the bytes are not a font.
    pub fn register_face(&mut self, face: Vec<u8>) -> Result<Vec<String>, PictureError> {
        let face = Arc::new(face);
        let families = self
            .fonts
            .register(FontResource::new(face.as_slice()))
            .map_err(|error| PictureError::Face(error.to_string()))?;
        Arc::make_mut(&mut self.text_faces)
            .load_font_source(svg2pdf::usvg::fontdb::Source::Binary(face));
        Ok(families.into_iter().map(|family| family.name).collect())
    }

    /// The page as a PNG of `render.width` × `render.height` pixels.
    ///
    /// # Errors
    /// [`PictureError::Markup`], [`PictureError::Stylesheet`] or
    /// [`PictureError::Draw`].
    pub fn png(&self, render: &SnapshotRender) -> Result<Vec<u8>, PictureError> {
        let layout = layout(&render.page, &render.css, render.width, render.height, 1)?;
        let options = RenderOptions::builder()
            .viewport(layout.viewport)
            .fonts(&self.fonts)
            .node(layout.node)
            .stylesheet(layout.stylesheet)
            .build();
        let bitmap = takumi::render(options).map_err(|error| draw_error(1, error))?;
        let mut png = Vec::new();
        takumi::write_image(&bitmap, &mut png, OutputFormat::Png)
            .map_err(|error| draw_error(1, error))?;
        Ok(png)
    }

    /// The page as an SVG document of the page's size, with the page's
    /// title as `<title>`, its words as drawn as `<desc>` (one line per
    /// line of text, in the authored case but where the stylesheet
    /// upper-cases a label), and a text layer:
    /// a last `<g class="text-layer">` with one `<text>` per run of text as
    /// drawn (after `text-transform`), at the run's left edge and baseline,
    /// `textLength` its measured width, in Inter, with `fill="none"` (no paint: in the PDF, text rendering mode 3, invisible).
    /// The layer only carries the words (to select, search, read aloud, and
    /// for the PDF); the visible text is the glyph outlines. Runs the body's
    /// clip hides are left out.
    ///
    /// # Errors
    /// As [`Pictures::png`].
    pub fn svg(&self, render: &SnapshotRender) -> Result<String, PictureError> {
        self.page_svg(&render.page, &render.css, render.width, render.height, 1)
    }

    /// The pages as one PDF document, one page per composition, each
    /// `width × 0.75` by `height × 0.75` points: each page's SVG (see
    /// [`Pictures::svg`]) with its text layer as real, invisible PDF text in
    /// embedded subsets of the faces, so `pdftotext` prints the words. The
    /// document title (shown by viewers) is the first page title there is.
    ///
    /// # Errors
    /// As [`Pictures::png`], or [`PictureError::Pdf`] when a page's SVG
    /// does not convert.
    pub fn pdf(&self, pages: &SnapshotPages) -> Result<Vec<u8>, PictureError> {
        let svgs = pages
            .pages
            .iter()
            .enumerate()
            .map(|(index, page)| {
                self.page_svg(page, &pages.css, pages.width, pages.height, index + 1)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let title = pages.pages.iter().find_map(|page| page.title.as_deref());
        pdf::assemble(&svgs, pages.width, pages.height, &self.text_faces, title)
    }

    /// Where the page's content runs past its body box (the element with
    /// class [`BODY_CLASS`], which the slides stylesheet clips) or past the
    /// page, or `None` when it fits: the overflow finding of the picture,
    /// whose `Display` is its message. Boxes and text runs both count.
    ///
    /// # Errors
    /// [`PictureError::Markup`], [`PictureError::Stylesheet`] or
    /// [`PictureError::Draw`].
    pub fn overflow(&self, render: &SnapshotRender) -> Result<Option<Overflow>, PictureError> {
        let laid = layout(&render.page, &render.css, render.width, render.height, 1)?;
        Ok(overflow::of_page(&self.fonts, laid, render.width, render.height, 1)?.overflow)
    }

    /// The pages whose content runs past the page, counted from 1, each with
    /// where it overflows.
    ///
    /// # Errors
    /// As [`Pictures::overflow`].
    pub fn overflowing_pages(
        &self,
        pages: &SnapshotPages,
    ) -> Result<Vec<(usize, Overflow)>, PictureError> {
        let mut overflowing = Vec::new();
        for (index, page) in pages.pages.iter().enumerate() {
            let laid = layout(page, &pages.css, pages.width, pages.height, index + 1)?;
            let measure =
                overflow::of_page(&self.fonts, laid, pages.width, pages.height, index + 1)?;
            if let Some(overflow) = measure.overflow {
                overflowing.push((index + 1, overflow));
            }
        }
        Ok(overflowing)
    }

    fn page_svg(
        &self,
        page: &SnapshotPage,
        css: &str,
        width: u32,
        height: u32,
        number: usize,
    ) -> Result<String, PictureError> {
        let runs = overflow::of_page(
            &self.fonts,
            layout(page, css, width, height, number)?,
            width,
            height,
            number,
        )?
        .runs;
        let layout = layout(page, css, width, height, number)?;
        let options = SvgOptions::builder()
            .viewport(layout.viewport)
            .fonts(&self.fonts)
            .node(layout.node)
            .stylesheet(layout.stylesheet)
            .build();
        let svg = takumi::render_svg(options).map_err(|error| draw_error(number, error))?;
        let svg = svg_text::with_layer(&svg, &svg_text::text_layer(&runs));
        Ok(svg_text::with_title_and_desc(
            &svg,
            page.title.as_deref(),
            &svg_text::description(&runs),
        ))
    }
}

fn draw_error(page: usize, error: impl std::fmt::Display) -> PictureError {
    PictureError::Draw {
        page,
        message: error.to_string(),
    }
}

/// Parses the page markup and the stylesheet.
fn layout(
    page: &SnapshotPage,
    css: &str,
    width: u32,
    height: u32,
    number: usize,
) -> Result<Layout, PictureError> {
    let node = takumi::from_html(&page.html, FromHtmlOptions::default()).map_err(|error| {
        PictureError::Markup {
            page: number,
            message: error.to_string(),
        }
    })?;
    let stylesheet = StyleSheet::parse_list([css])
        .map_err(|error| PictureError::Stylesheet(error.to_string()))?;
    Ok(Layout {
        node,
        stylesheet: Arc::new(stylesheet),
        viewport: Viewport::new((width, height)),
    })
}

mod pdf;

/// The `png`, `svg` and `pdf` host formats of the agent tools, drawn from
/// `runtime`'s snapshot surface (default frame, the caller's theme when
/// given) by `pictures`, in that order:
/// - `png`: `image/png`, the PNG bytes (answers as an image block);
/// - `svg`: `image/svg+xml`, the SVG text (answers as an image block of its
///   UTF-8 bytes);
/// - `pdf`: `application/pdf`, one page (answers as an embedded resource
///   at `isomer://render/pdf`).
///
/// A render the snapshot surface refuses, or that does not draw, answers
/// as a failed call with its message. A runtime without frames has no
/// snapshot surface; its formats fail with `the runtime has no frames, so
/// no snapshot surface to draw`.
pub fn host_formats(runtime: Arc<Runtime>, pictures: Arc<Pictures>) -> Vec<(String, HostFormat)> {
    let format = |mime_type: &str,
                  draw: fn(
        &Pictures,
        &Runtime,
        &serde_json::Value,
        &SnapshotOptions,
    ) -> Result<FormatOutput, RuntimeFailure>| {
        let runtime = Arc::clone(&runtime);
        let pictures = Arc::clone(&pictures);
        HostFormat::from_fn(mime_type, move |composition, options: HostRenderOptions| {
            let options = SnapshotOptions {
                frame: None,
                theme: options.theme,
            };
            draw(&pictures, &runtime, &composition, &options)
        })
    };
    vec![
        (
            "png".to_owned(),
            format("image/png", |pictures, runtime, composition, options| {
                let render = snapshot(runtime)?.render(composition, options)?;
                Ok(FormatOutput::Bytes(pictures.png(&render)?))
            }),
        ),
        (
            "svg".to_owned(),
            format(
                "image/svg+xml",
                |pictures, runtime, composition, options| {
                    let render = snapshot(runtime)?.render(composition, options)?;
                    Ok(FormatOutput::Text(pictures.svg(&render)?))
                },
            ),
        ),
        (
            "pdf".to_owned(),
            format(
                "application/pdf",
                |pictures, runtime, composition, options| {
                    let pages = snapshot(runtime)?
                        .render_pages(std::slice::from_ref(composition), options)?;
                    Ok(FormatOutput::Bytes(pictures.pdf(&pages)?))
                },
            ),
        ),
    ]
}

fn snapshot(runtime: &Runtime) -> Result<isomer_sdk::Snapshot<'_>, RuntimeFailure> {
    runtime
        .snapshot()
        .ok_or_else(|| "the runtime has no frames, so no snapshot surface to draw".into())
}
