//! The slides pack's pictures in its evals: the pack scorer `fits_frame` (does the
//! answer's slide stay inside its 1920×1080 frame when drawn) and the slide picture the
//! HTML report shows beside each answer and golden. Both draw through the runtime's
//! `snapshot` surface with `isomer-pictures` (its fonts registered once per process, on
//! first use).

use std::sync::OnceLock;

use isomer_evals::scorer::{Scored, Scorer};
use isomer_pictures::Pictures;
use isomer_sdk::{Runtime, SnapshotOptions, SnapshotRender};
use serde_json::Value;

/// The name of the slides pack's overflow scorer.
pub const FITS_FRAME: &str = "fits_frame";

/// The runtime and the registered fonts every picture is drawn with, built once.
struct Drawer {
    runtime: Runtime,
    pictures: Pictures,
}

/// The process's [`Drawer`], or why it could not be built.
fn drawer() -> Result<&'static Drawer, String> {
    static DRAWER: OnceLock<Result<Drawer, String>> = OnceLock::new();
    DRAWER
        .get_or_init(|| {
            let runtime = crate::runtime()
                .map_err(|error| format!("the slides runtime does not build: {error}"))?;
            let pictures = Pictures::new().map_err(|error| error.to_string())?;
            Ok(Drawer { runtime, pictures })
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The slide of `composition` on the snapshot surface, in the default frame and theme.
fn render(drawer: &Drawer, composition: &Value) -> Result<SnapshotRender, String> {
    let snapshot = drawer
        .runtime
        .snapshot()
        .ok_or("the slides runtime has no snapshot surface")?;
    snapshot
        .render(composition, &SnapshotOptions::default())
        .map_err(|error| format!("the snapshot surface refused it: {error}"))
}

/// Where the slide of `composition` runs past its body box (the part of the 1920×1080
/// frame above its footer, which clips what runs past it): `None` when it fits, else
/// `bottom <b> px, right <r> px past the slide body` (whole pixels, rounded up).
///
/// # Errors
/// Why the slide could not be drawn (a composition the snapshot surface refuses, a page
/// takumi cannot lay out).
pub fn overflow(composition: &Value) -> Result<Option<String>, String> {
    let drawer = drawer()?;
    let render = render(drawer, composition)?;
    let overflow = drawer
        .pictures
        .overflow(&render)
        .map_err(|error| error.to_string())?;
    Ok(overflow.map(|overflow| {
        format!(
            "bottom {} px, right {} px past the slide body",
            overflow.bottom.ceil(),
            overflow.right.ceil()
        )
    }))
}

/// The slide of `composition` as a PNG of 1920×1080 pixels, for the HTML report
/// (`ReportPage::pictures`).
///
/// # Errors
/// As [`overflow`].
pub fn slide_png(composition: &Value) -> Result<Vec<u8>, String> {
    let drawer = drawer()?;
    let render = render(drawer, composition)?;
    drawer
        .pictures
        .png(&render)
        .map_err(|error| error.to_string())
}

/// The pack scorer `fits_frame`: a flag per run, whether the composition that validated
/// stays inside the 1920×1080 frame when drawn (isomer-pictures lays the slide out and
/// measures its boxes; see `isomer_pictures::Overflow`). A run without a valid
/// composition is not scored; a slide that cannot be drawn does not fit, and says why.
/// The detail of a slide that overflows says by how much:
/// `bottom 212 px, right 0 px past the slide body`.
///
/// Drawing costs a layout per run (no raster); add it to a suite with
/// `Suite::scorer(isomer_slides::pictures::fits_frame().required())`.
pub fn fits_frame() -> Scorer {
    Scorer::flag(FITS_FRAME, |input| {
        let composition = input.result.validity.composition.as_ref()?;
        Some(match overflow(composition) {
            Ok(None) => Scored::flag(true),
            Ok(Some(past)) => Scored::flag(false).with_detail(past),
            Err(why) => Scored::flag(false).with_detail(format!("cannot be drawn: {why}")),
        })
    })
}
