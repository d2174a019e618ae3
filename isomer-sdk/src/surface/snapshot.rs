//! The `snapshot` surface: a composition laid out on a frame's fixed-size
//! page, as markup and one stylesheet, ready for a rasterizer.
//!
//! The surface exists only when the runtime has frames
//! ([`Runtime::snapshot`] is `None` otherwise), as upstream's does. It stops
//! at markup: drawing pixels, vectors or PDF pages is a host capability (the
//! `isomer-pictures` crate does it with takumi), so this crate depends on no
//! rasterizer.
//!
//! A render:
//! 1. validates the composition; any finding refuses the render
//!    ([`SnapshotError::Invalid`]), as the `text` surface's default does;
//! 2. resolves the frame (the option, else the runtime's default frame;
//!    [`SnapshotError::Frame`] with `UNKNOWN_FRAME` otherwise);
//! 3. runs the frame's body rule; any message refuses the render
//!    ([`SnapshotError::InvalidFrameBody`]);
//! 4. resolves the theme: the option, else the composition's, `auto` and
//!    absent drawing `light` (a picture has one colour scheme);
//! 5. renders the body on the `html` surface (so every primitive draws
//!    through the one HTML renderer it already has, and a new primitive
//!    draws without code here), the title and subtitle only when the frame
//!    [draws its heading](Frame::draws_heading);
//! 6. returns that section, without its `<style>` and with no frame
//!    class (`framed` off), as the page's markup, with the `html` surface's
//!    stylesheet followed by the frame's, and the frame's size.
//!
//! [`Snapshot::render_pages`] renders several compositions as the pages of
//! one document (a PDF), against one stylesheet and one theme.

use serde_json::Value;

use crate::composition::{Composition, Theme};
use crate::error::{CompositionValidationError, ErrorCode, IsomerError};
use crate::frame::Frame;
use crate::runtime::{RenderOptions, Runtime, ValidationMode};

/// Options of a snapshot render.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SnapshotOptions {
    /// The frame to draw in, by name; `None` is the runtime's default frame.
    pub frame: Option<String>,
    /// The colour scheme; `None` keeps the composition's own (`auto` and
    /// absent draw `light`).
    pub theme: Option<Theme>,
}

/// One page: the composition's markup, a `section.isomer` whose
/// `data-theme` is `light` or `dark`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotPage {
    /// The page markup, without any `<style>` element.
    pub html: String,
    /// The composition's title, when it has one (what a picture's
    /// accessible name is).
    pub title: Option<String>,
    /// The composition's text surface, with the title and subtitle only
    /// when the frame draws them: what the picture says, for formats that
    /// carry text beside their drawing (an SVG's `<desc>`).
    pub text: String,
}

/// What [`Snapshot::render`] returns: one page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotRender {
    /// The page.
    pub page: SnapshotPage,
    /// The stylesheet: the `html` surface's, then the frame's.
    pub css: String,
    /// The page width in pixels (the frame's).
    pub width: u32,
    /// The page height in pixels (the frame's).
    pub height: u32,
    /// The colour scheme drawn: [`Theme::Light`] or [`Theme::Dark`].
    pub theme: Theme,
}

/// What [`Snapshot::render_pages`] returns: the pages of one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotPages {
    /// One page per composition, in the order given.
    pub pages: Vec<SnapshotPage>,
    /// The one stylesheet of every page.
    pub css: String,
    /// The page width in pixels.
    pub width: u32,
    /// The page height in pixels.
    pub height: u32,
    /// The colour scheme of every page.
    pub theme: Theme,
}

/// Why the snapshot surface refused a render.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SnapshotError {
    /// The composition is invalid (or the input budget refused it).
    #[error("{}{source}", page_prefix(*page))]
    Invalid {
        /// The page, counted from 1, in a [`Snapshot::render_pages`] call.
        page: Option<usize>,
        /// The findings.
        source: CompositionValidationError,
    },
    /// The frame named is not registered.
    #[error(transparent)]
    Frame(IsomerError),
    /// The frame's body rule refused the composition; `messages` are the
    /// rule's, joined by `; ` in the message.
    #[error(
        "{}frame \"{frame}\" cannot draw this composition: {}",
        page_prefix(*page),
        messages.join("; ")
    )]
    InvalidFrameBody {
        /// The frame's name.
        frame: String,
        /// The page, counted from 1, in a [`Snapshot::render_pages`] call.
        page: Option<usize>,
        /// The rule's messages, e.g. `a snapshot render needs exactly one
        /// "slideFrame" node, got 2 nodes; render one slide per spec`.
        messages: Vec<String>,
    },
    /// [`Snapshot::render_pages`] was given no composition.
    #[error("a paged snapshot needs at least one composition")]
    EmptyPages,
}

fn page_prefix(page: Option<usize>) -> String {
    page.map(|page| format!("page {page}: "))
        .unwrap_or_default()
}

impl SnapshotError {
    /// The upstream code: `COMPOSITION_INVALID`, `UNKNOWN_FRAME`,
    /// `INVALID_FRAME_BODY` or `EMPTY_PAGES`.
    pub fn code(&self) -> ErrorCode {
        match self {
            SnapshotError::Invalid { source, .. } => source.code(),
            SnapshotError::Frame(error) => error.code(),
            SnapshotError::InvalidFrameBody { .. } => ErrorCode::InvalidFrameBody,
            SnapshotError::EmptyPages => ErrorCode::EmptyPages,
        }
    }
}

/// The `snapshot` surface of a runtime; see the [module docs](self).
#[derive(Debug)]
pub struct Snapshot<'r, C = ()> {
    runtime: &'r Runtime<C>,
}

impl<C: Send + 'static> Runtime<C> {
    /// The `snapshot` surface, present only when the runtime has frames.
    pub fn snapshot(&self) -> Option<Snapshot<'_, C>> {
        (!self.frames().is_empty()).then_some(Snapshot { runtime: self })
    }
}

impl<'r, C: Send + 'static> Snapshot<'r, C> {
    /// Renders one composition on one page; the steps are in the
    /// [module docs](self).
    ///
    /// # Errors
    /// [`SnapshotError::Invalid`], [`SnapshotError::Frame`] or
    /// [`SnapshotError::InvalidFrameBody`], as those steps say.
    pub fn render(
        &self,
        composition: &Value,
        options: &SnapshotOptions,
    ) -> Result<SnapshotRender, SnapshotError> {
        let frame = self.frame(options)?;
        let theme = drawn_theme(options.theme, composition);
        let page = self.page(frame, composition, theme, None)?;
        let (width, height) = frame.page_size();
        Ok(SnapshotRender {
            page,
            css: stylesheet(frame),
            width,
            height,
            theme,
        })
    }

    /// Renders each composition as one page of one document: one frame,
    /// one stylesheet, and one theme (the option, else the first
    /// composition's).
    ///
    /// # Errors
    /// [`SnapshotError::EmptyPages`] for an empty list; otherwise as
    /// [`Snapshot::render`], naming the first page refused (counted from 1).
    pub fn render_pages(
        &self,
        compositions: &[Value],
        options: &SnapshotOptions,
    ) -> Result<SnapshotPages, SnapshotError> {
        let first = compositions.first().ok_or(SnapshotError::EmptyPages)?;
        let frame = self.frame(options)?;
        let theme = drawn_theme(options.theme, first);
        let pages = compositions
            .iter()
            .enumerate()
            .map(|(index, composition)| self.page(frame, composition, theme, Some(index + 1)))
            .collect::<Result<Vec<_>, _>>()?;
        let (width, height) = frame.page_size();
        Ok(SnapshotPages {
            pages,
            css: stylesheet(frame),
            width,
            height,
            theme,
        })
    }

    fn frame(&self, options: &SnapshotOptions) -> Result<&'r Frame, SnapshotError> {
        self.runtime
            .frame(options.frame.as_deref())
            .map_err(SnapshotError::Frame)
    }

    fn page(
        &self,
        frame: &Frame,
        composition: &Value,
        theme: Theme,
        page: Option<usize>,
    ) -> Result<SnapshotPage, SnapshotError> {
        let options = RenderOptions {
            heading: frame.draws_heading(),
            on_validation_error: Some(ValidationMode::Throw),
            theme: Some(theme),
            minify: true,
            framed: false,
            ..RenderOptions::default()
        };
        let html = self
            .runtime
            .render_html(composition, &options)
            .map_err(|source| SnapshotError::Invalid { page, source })?;
        let body = Composition::from_value(composition).map_or(&[][..], |root| root.body());
        let messages = frame.validate_body(body);
        if !messages.is_empty() {
            return Err(SnapshotError::InvalidFrameBody {
                frame: frame.name().to_owned(),
                page,
                messages,
            });
        }
        let text = self
            .runtime
            .render_text(
                composition,
                &RenderOptions {
                    heading: frame.draws_heading(),
                    ..RenderOptions::default()
                },
            )
            .map_err(|source| SnapshotError::Invalid { page, source })?;
        // The page carries no `<style>`: the stylesheet is the render's own.
        let markup = html.html_without_style();
        let title =
            Composition::from_value(composition).and_then(|view| view.title().map(str::to_owned));
        Ok(SnapshotPage {
            html: markup,
            title,
            text,
        })
    }
}

/// The theme a picture draws: the option, else the composition's; `auto`
/// and absent are `light`.
fn drawn_theme(option: Option<Theme>, composition: &Value) -> Theme {
    let asked = option.or_else(|| Composition::from_value(composition).and_then(|v| v.theme()));
    match asked {
        Some(Theme::Dark) => Theme::Dark,
        _ => Theme::Light,
    }
}

/// The `html` surface's stylesheet, then the frame's.
fn stylesheet(frame: &Frame) -> String {
    format!("{}{}", crate::surface::html::HTML_CSS, frame.css())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_numbers_prefix_messages() {
        let error = SnapshotError::InvalidFrameBody {
            frame: "slide".to_owned(),
            page: Some(2),
            messages: vec!["needs one node".to_owned(), "got two".to_owned()],
        };
        assert_eq!(
            error.to_string(),
            "page 2: frame \"slide\" cannot draw this composition: needs one node; got two"
        );
        assert_eq!(error.code(), ErrorCode::InvalidFrameBody);
        assert_eq!(
            SnapshotError::EmptyPages.to_string(),
            "a paged snapshot needs at least one composition"
        );
    }
}
