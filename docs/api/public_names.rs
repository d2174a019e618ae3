//! The public names of a crate, read from its source with `syn`, and the check that its API
//! reference (`docs/api/<crate>.md`) lists exactly those. Each library crate's
//! `tests/api_reference.rs` includes this file and calls [`check`].
//!
//! A public name is a path a user of the crate can write: every item declared `pub` (not
//! `pub(crate)`, not `#[doc(hidden)]`, not `#[cfg(test)]`) in the crate root or in a `pub mod`
//! reached from it, every name a `pub use` there hands on (under its own name or its `as`
//! name; a glob as `path::*`), and every `#[macro_export]` macro (at the root, where it is
//! exported). A `#[doc(hidden)]` module, such as the macros' `__private` plumbing, is left out
//! whole. Nothing is built: the test needs no nightly toolchain and no `cargo doc` first.

use std::collections::BTreeSet;
use std::path::Path;

use syn::{Attribute, Item, Meta, UseTree, Visibility};

/// The public names of the crate whose sources are in `src` (`src/lib.rs` is the root), as
/// `module::Name` paths relative to the crate root, sorted.
pub fn public_names(src: &Path) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    walk_file(&src.join("lib.rs"), "", &mut names);
    names
}

/// Fails naming every public name missing from `docs/api/<crate_name>.md` and every listed
/// name the crate no longer has. `manifest_dir` is the crate's `CARGO_MANIFEST_DIR`; the list
/// is the lines of the file that read `` - `name` ``.
pub fn check(manifest_dir: &str, crate_name: &str) {
    let manifest_dir = Path::new(manifest_dir);
    let names = public_names(&manifest_dir.join("src"));
    let reference = manifest_dir.join(format!("../docs/api/{crate_name}.md"));
    let text = std::fs::read_to_string(&reference)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", reference.display()));
    let listed: BTreeSet<String> = text
        .lines()
        .filter_map(|line| line.strip_prefix("- `")?.strip_suffix('`'))
        .map(str::to_owned)
        .collect();
    let missing: Vec<&String> = names.difference(&listed).collect();
    let gone: Vec<&String> = listed.difference(&names).collect();
    assert!(
        missing.is_empty() && gone.is_empty(),
        "{} is out of date with the crate's public names\nexported but not listed (add them):\n{}\nlisted but no longer exported (remove them):\n{}",
        reference.display(),
        lines(&missing),
        lines(&gone),
    );
}

fn lines(names: &[&String]) -> String {
    names.iter().map(|name| format!("- `{name}`\n")).collect()
}

/// Reads the module in `file`, whose public items are named under `prefix`.
fn walk_file(file: &Path, prefix: &str, names: &mut BTreeSet<String>) {
    let text = std::fs::read_to_string(file)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", file.display()));
    let parsed = syn::parse_file(&text)
        .unwrap_or_else(|error| panic!("cannot parse {}: {error}", file.display()));
    // `lib.rs` and `mod.rs` keep their submodules beside them, `x.rs` in `x/`.
    let stem = file
        .file_stem()
        .and_then(|stem| stem.to_str())
        .unwrap_or_default();
    let parent = file.parent().unwrap_or(Path::new("."));
    let dir = if stem == "lib" || stem == "mod" {
        parent.to_path_buf()
    } else {
        parent.join(stem)
    };
    walk_items(&parsed.items, &dir, prefix, names);
}

fn walk_items(items: &[Item], dir: &Path, prefix: &str, names: &mut BTreeSet<String>) {
    for item in items {
        let (attrs, vis, ident) = match item {
            Item::Const(item) => (&item.attrs, &item.vis, item.ident.to_string()),
            Item::Enum(item) => (&item.attrs, &item.vis, item.ident.to_string()),
            Item::Fn(item) => (&item.attrs, &item.vis, item.sig.ident.to_string()),
            Item::Static(item) => (&item.attrs, &item.vis, item.ident.to_string()),
            Item::Struct(item) => (&item.attrs, &item.vis, item.ident.to_string()),
            Item::Trait(item) => (&item.attrs, &item.vis, item.ident.to_string()),
            Item::Type(item) => (&item.attrs, &item.vis, item.ident.to_string()),
            Item::Union(item) => (&item.attrs, &item.vis, item.ident.to_string()),
            Item::Macro(item) => {
                let exported = item
                    .attrs
                    .iter()
                    .any(|attr| attr.path().is_ident("macro_export"));
                if let Some(ident) = &item.ident
                    && exported
                    && !left_out(&item.attrs)
                {
                    names.insert(ident.to_string());
                }
                continue;
            }
            Item::Mod(item) => {
                if !matches!(item.vis, Visibility::Public(_)) || left_out(&item.attrs) {
                    continue;
                }
                let name = item.ident.to_string();
                let inner = format!("{prefix}{name}::");
                match &item.content {
                    Some((_, items)) => walk_items(items, &dir.join(&name), &inner, names),
                    None => {
                        let flat = dir.join(format!("{name}.rs"));
                        let file = if flat.exists() {
                            flat
                        } else {
                            dir.join(&name).join("mod.rs")
                        };
                        walk_file(&file, &inner, names);
                    }
                }
                continue;
            }
            Item::Use(item) => {
                if matches!(item.vis, Visibility::Public(_)) && !left_out(&item.attrs) {
                    use_names(&item.tree, String::new(), prefix, names);
                }
                continue;
            }
            _ => continue,
        };
        if matches!(vis, Visibility::Public(_)) && !left_out(attrs) {
            names.insert(format!("{prefix}{ident}"));
        }
    }
}

/// The names a `pub use` tree hands on; `path` is the part of the tree read so far.
fn use_names(tree: &UseTree, path: String, prefix: &str, names: &mut BTreeSet<String>) {
    match tree {
        UseTree::Path(step) => {
            use_names(&step.tree, format!("{path}{}::", step.ident), prefix, names)
        }
        UseTree::Name(name) if name.ident == "self" => {
            let module = path
                .trim_end_matches("::")
                .rsplit("::")
                .next()
                .unwrap_or_default();
            names.insert(format!("{prefix}{module}"));
        }
        UseTree::Name(name) => {
            names.insert(format!("{prefix}{}", name.ident));
        }
        UseTree::Rename(rename) => {
            names.insert(format!("{prefix}{}", rename.rename));
        }
        UseTree::Glob(_) => {
            names.insert(format!("{prefix}{path}*"));
        }
        UseTree::Group(group) => {
            for tree in &group.items {
                use_names(tree, path.clone(), prefix, names);
            }
        }
    }
}

/// `#[doc(hidden)]` and `#[cfg(test)]` items are not part of the API.
fn left_out(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|attr| match &attr.meta {
        Meta::List(list) if attr.path().is_ident("doc") || attr.path().is_ident("cfg") => {
            let tokens = list.tokens.to_string();
            tokens == "hidden" || tokens == "test"
        }
        _ => false,
    })
}
