//! One PDF from the SVGs of its pages: each page's SVG converted by
//! `svg2pdf` into a form XObject drawn over the whole page.
//!
//! The drawing is the SVG's glyph outlines; the words are its text layer,
//! which svg2pdf writes as real PDF text (invisible, over the outlines) in
//! the faces `text_faces` holds, each embedded as a subset of the glyphs
//! used. So the text can be selected, searched and extracted, and no
//! reader needs a font installed. The document info carries the title.

use std::collections::HashMap;
use std::sync::Arc;

use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, TextStr};
use svg2pdf::usvg::fontdb::Database;

use crate::{POINTS_PER_PIXEL, PictureError};

/// The PDF of `svgs`, one page each, every page `width` × `height` pixels
/// at [`POINTS_PER_PIXEL`], titled `title` when given.
pub(crate) fn assemble(
    svgs: &[String],
    width: u32,
    height: u32,
    text_faces: &Arc<Database>,
    title: Option<&str>,
) -> Result<Vec<u8>, PictureError> {
    let mut next = 1;
    let mut alloc = || {
        let id = Ref::new(next);
        next += 1;
        id
    };
    let catalog = alloc();
    let page_tree = alloc();
    let (page_width, page_height) = (
        width as f32 * POINTS_PER_PIXEL,
        height as f32 * POINTS_PER_PIXEL,
    );
    let mut pdf = Pdf::new();
    let mut page_ids = Vec::with_capacity(svgs.len());
    let options = svg2pdf::usvg::Options {
        fontdb: Arc::clone(text_faces),
        ..svg2pdf::usvg::Options::default()
    };
    for (index, svg) in svgs.iter().enumerate() {
        let number = index + 1;
        let pdf_error = |message: String| PictureError::Pdf {
            page: number,
            message,
        };
        let tree = svg2pdf::usvg::Tree::from_str(svg, &options)
            .map_err(|error| pdf_error(error.to_string()))?;
        let (chunk, svg_id) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
            .map_err(|error| pdf_error(error.to_string()))?;
        let mut map = HashMap::new();
        let chunk = chunk.renumber(|old| *map.entry(old).or_insert_with(&mut alloc));
        let svg_id = map[&svg_id];
        let page_id = alloc();
        let content_id = alloc();
        let svg_name = Name(b"S1");
        let mut page = pdf.page(page_id);
        page.media_box(Rect::new(0.0, 0.0, page_width, page_height));
        page.parent(page_tree);
        page.contents(content_id);
        page.resources().x_objects().pair(svg_name, svg_id);
        page.finish();
        let mut content = Content::new();
        content
            .transform([page_width, 0.0, 0.0, page_height, 0.0, 0.0])
            .x_object(svg_name);
        pdf.stream(content_id, &content.finish());
        pdf.extend(&chunk);
        page_ids.push(page_id);
    }
    let mut root = pdf.catalog(catalog);
    root.pages(page_tree);
    if title.is_some() {
        root.viewer_preferences().display_doc_title(true);
    }
    root.finish();
    if let Some(title) = title {
        let info = alloc();
        pdf.document_info(info).title(TextStr(title));
    }
    let count = i32::try_from(page_ids.len()).unwrap_or(i32::MAX);
    pdf.pages(page_tree).kids(page_ids).count(count);
    Ok(pdf.finish())
}
