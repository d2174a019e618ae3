//! `isomer-gallery`: a PNG of every slides primitive's catalog example and
//! of every golden of the recorded slides corpus.
//!
//! ```text
//! cargo run -p isomer-gallery -- OUT_DIR [CORPUS_DIR]
//!
//! Arguments:
//!   <OUT_DIR>     The directory the pictures and README.md are written into (created when missing)
//!   [CORPUS_DIR]  The corpus whose goldens are drawn [default: corpus/slides of this repository]
//!
//! Options:
//!   -h, --help     Print help
//!   -V, --version  Print version
//! ```
//!
//! Writes `OUT_DIR/catalog/<type>.png` (each example alone on a slide; a
//! `slideFrame` example is the slide itself), `OUT_DIR/README.md` showing
//! them in catalog order, and `OUT_DIR/corpus/<id>.png`, drawn from the
//! runtime's `snapshot` surface by `isomer-pictures`, and prints one line
//! per picture: its path, and `overflows by N px` when its content runs
//! past the slide. The corpus is read with `isomer_corpus`.
//!
//! Exit status: `0` when every picture is drawn; `1` when a picture cannot
//! be drawn or a case has no golden (every other picture is still written);
//! `2` for a command line clap refuses (one `error:` line, the short usage
//! and "For more information, try '--help'."), a corpus that does not read
//! or parse, or an output path that cannot be written. Every error names its
//! path.
//!
//! It is its own crate rather than a binary of `isomer-pictures` (whose
//! library draws any pack and depends on none, and is published while the
//! slides pack is not) or of `isomer-slides` (which would then compile
//! takumi in every build of its own).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use isomer_pictures::Pictures;
use isomer_sdk::{Runtime, SnapshotOptions};
use serde_json::{Value, json};

/// What `--help` prints after the options: the exit status, as the module docs give it.
const EXIT_STATUS: &str = "\
Exit status:
  0  every picture is drawn
  1  a picture cannot be drawn or a case has no golden (every other picture is still written)
  2  a bad argument, a corpus that does not read or parse, or an output path that cannot be written";

/// The command line of `isomer-gallery`.
#[derive(Debug, Parser)]
#[command(
    name = "isomer-gallery",
    version,
    about = "Draws a PNG of every slides primitive's catalog example and of every golden of a slides corpus.",
    after_help = EXIT_STATUS
)]
struct Cli {
    /// The directory the pictures and README.md are written into (created when missing)
    #[arg(value_name = "OUT_DIR")]
    out: PathBuf,
    /// The corpus whose goldens are drawn [default: corpus/slides of this repository]
    #[arg(value_name = "CORPUS_DIR")]
    corpus: Option<PathBuf>,
}

/// The recorded slides corpus of this repository, found from this crate's
/// manifest directory at build time.
const DEFAULT_CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/slides");

fn main() -> ExitCode {
    let cli = Cli::parse();
    let corpus = cli.corpus.unwrap_or_else(|| PathBuf::from(DEFAULT_CORPUS));
    match run(&cli.out, &corpus) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("error: {error}");
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
    let (goldens, missing) = corpus_goldens(corpus)?;
    let golden_ids: Vec<String> = goldens.iter().map(|(id, _)| id.clone()).collect();
    for (id, golden) in goldens {
        slides.push((out.join("corpus").join(format!("{id}.png")), golden));
    }
    for dir in [out.join("catalog"), out.join("corpus")] {
        std::fs::create_dir_all(&dir)
            .map_err(|error| format!("{}: cannot create the directory: {error}", dir.display()))?;
    }
    let mut all_drawn = missing.is_empty();
    for (path, slide) in &slides {
        match draw(&runtime, &pictures, slide) {
            Ok((png, overflow)) => {
                std::fs::write(path, png)
                    .map_err(|error| format!("{}: {error}", path.display()))?;
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
    let readme = out.join("README.md");
    std::fs::write(&readme, index(&catalog, &golden_ids))
        .map_err(|error| format!("{}: {error}", readme.display()))?;
    Ok(all_drawn)
}

/// A corpus's `(id, golden)` pairs and the ids of its cases without one.
type Goldens = (Vec<(String, Value)>, Vec<String>);

/// The goldens of the corpus in `dir` (its `corpus.json`, read by
/// `isomer_corpus`, the one reader of that format), in file order, and the
/// ids of the cases without one, each reported on stderr as not drawn.
/// Errors name the file: unreadable, or every fault the reader finds.
fn corpus_goldens(dir: &Path) -> Result<Goldens, String> {
    let path = dir.join(isomer_corpus::MANIFEST_FILE);
    let text = std::fs::read_to_string(&path)
        .map_err(|error| format!("{}: cannot read the corpus: {error}", path.display()))?;
    let manifest = isomer_corpus::parse_manifest(&text).map_err(|faults| {
        faults
            .iter()
            .map(|fault| format!("{}:{fault}", path.display()))
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    let (mut goldens, mut missing) = (Vec::new(), Vec::new());
    for case in manifest.cases {
        match case.golden {
            Some(golden) => goldens.push((case.id, golden)),
            None => {
                eprintln!(
                    "{}:{}: case \"{}\" has no golden, so no picture",
                    path.display(),
                    case.position,
                    case.id
                );
                missing.push(case.id);
            }
        }
    }
    Ok((goldens, missing))
}

/// `OUT_DIR/README.md`: each primitive's name, purpose and picture, in
/// catalog order, then the corpus's goldens by case id.
fn index(catalog: &[isomer_sdk::CatalogEntry], golden_ids: &[String]) -> String {
    let mut out = String::from(
        "# The slides pack, drawn\n\nEach primitive's catalog example on a 1920x1080 slide, drawn from the \
         runtime's `snapshot` surface by `isomer-pictures`, then the golden of each recorded \
         corpus case. Regenerate with `cargo run -p isomer-gallery -- docs/gallery`.\n",
    );
    for entry in catalog {
        out.push_str(&format!(
            "\n## `{name}`\n\n{purpose}\n\n![{name}](catalog/{name}.png)\n",
            name = entry.type_name,
            purpose = entry.purpose,
        ));
    }
    if !golden_ids.is_empty() {
        out.push_str("\n## The corpus goldens\n\n");
        for id in golden_ids {
            out.push_str(&format!("![{id}](corpus/{id}.png)\n"));
        }
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
