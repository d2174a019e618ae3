//! `isomer-gallery OUT_DIR`: a PNG of every slides primitive's catalog
//! example and of every golden of the recorded slides corpus.
//!
//! ```text
//! cargo run -p isomer-pictures --example isomer-gallery -- out/
//! ```
//!
//! It is an example of this crate, not a binary, so that the slides pack
//! stays a dev-dependency here: the library draws any pack's snapshot
//! surface and depends on none, and the slides pack no longer compiles
//! takumi in every build of its own.
//!
//! Writes `OUT_DIR/catalog/<type>.png` (each example alone on a slide; a
//! `slideFrame` example is the slide itself), `OUT_DIR/README.md` showing
//! them in catalog order, and `OUT_DIR/corpus/<id>.png`, drawn from the
//! runtime's `snapshot` surface by `isomer-pictures`, and prints one line
//! per picture: its path, and `overflows by N px` when its content runs
//! past the slide. The corpus is read from the workspace's `corpus/slides`,
//! or from the directory given as a second argument. Exits 1 when a picture cannot be drawn (every other picture is
//! still written), 2 on a usage error.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use isomer_pictures::Pictures;
use isomer_sdk::{Runtime, SnapshotOptions};
use serde_json::{Value, json};

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let Some(out) = args.next().map(PathBuf::from) else {
        eprintln!("usage: isomer-gallery OUT_DIR [CORPUS_DIR]");
        return ExitCode::from(2);
    };
    let corpus = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/slides"));
    match run(&out, &corpus) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("isomer-gallery: {error}");
            ExitCode::from(2)
        }
    }
}

/// Draws every picture; `Ok(false)` when at least one could not be drawn.
fn run(out: &Path, corpus: &Path) -> Result<bool, Box<dyn std::error::Error>> {
    let runtime = isomer_slides::runtime()?;
    let pictures = Pictures::new()?;
    let catalog = runtime.catalog();
    let mut slides: Vec<(PathBuf, Value)> = catalog
        .iter()
        .map(|entry| {
            let slide = catalog_slide(&entry.type_name, &entry.example);
            (
                out.join("catalog").join(format!("{}.png", entry.type_name)),
                slide,
            )
        })
        .collect();
    let cases: Value = serde_json::from_str(
        &std::fs::read_to_string(corpus.join("corpus.json"))
            .map_err(|error| format!("{}: {error}", corpus.join("corpus.json").display()))?,
    )?;
    for case in cases["cases"].as_array().into_iter().flatten() {
        if let (Some(id), Some(golden)) = (case["id"].as_str(), case.get("golden")) {
            slides.push((out.join("corpus").join(format!("{id}.png")), golden.clone()));
        }
    }
    std::fs::create_dir_all(out.join("catalog"))?;
    std::fs::create_dir_all(out.join("corpus"))?;
    let mut all_drawn = true;
    for (path, slide) in &slides {
        match draw(&runtime, &pictures, slide) {
            Ok((png, overflow)) => {
                std::fs::write(path, png)?;
                match overflow {
                    Some(overflow) => println!(
                        "{}: overflows by {:.0} px down, {:.0} px right",
                        path.display(),
                        overflow.bottom,
                        overflow.right
                    ),
                    None => println!("{}", path.display()),
                }
            }
            Err(error) => {
                all_drawn = false;
                eprintln!("{}: {error}", path.display());
            }
        }
    }
    std::fs::write(out.join("README.md"), index(&catalog))?;
    Ok(all_drawn)
}

/// `OUT_DIR/README.md`: each primitive's name, purpose and picture, in
/// catalog order.
fn index(catalog: &[isomer_sdk::CatalogEntry]) -> String {
    let mut out = String::from(
        "# The slides pack, drawn\n\nEach primitive's catalog example on a 1920x1080 slide, drawn from the \
         runtime's `snapshot` surface by `isomer-pictures`. Regenerate with \
         `cargo run -p isomer-pictures --example isomer-gallery -- docs/gallery` (the corpus pictures \
         it also writes under `corpus/` are not committed).\n",
    );
    for entry in catalog {
        out.push_str(&format!(
            "\n## `{name}`\n\n{purpose}\n\n![{name}](catalog/{name}.png)\n",
            name = entry.type_name,
            purpose = entry.purpose,
        ));
    }
    out
}

/// The slide a catalog example is drawn on: a `slideFrame` example is the
/// slide; any other node is the body of a page-toned frame whose footer
/// names the primitive.
fn catalog_slide(type_name: &str, example: &Value) -> Value {
    if type_name == isomer_slides::check::SLIDE_FRAME {
        return json!({"type": "view", "title": type_name, "body": [example]});
    }
    json!({
        "type": "view",
        "title": type_name,
        "body": [{
            "type": "slideFrame",
            "brand": "Isomer slides",
            "section": type_name,
            "logo": false,
            "body": [example],
        }],
    })
}

type Drawn = (Vec<u8>, Option<isomer_pictures::Overflow>);

fn draw(
    runtime: &Runtime,
    pictures: &Pictures,
    slide: &Value,
) -> Result<Drawn, Box<dyn std::error::Error>> {
    let snapshot = runtime
        .snapshot()
        .ok_or("the slides runtime has no frame")?;
    let render = snapshot.render(slide, &SnapshotOptions::default())?;
    Ok((pictures.png(&render)?, pictures.overflow(&render)?))
}
