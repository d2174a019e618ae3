//! The keys of `#[isomer_tool(...)]`, parsed into [`ToolArgs`] with every
//! mistake recorded in the [`Ctxt`] at the token it is about.
//!
//! | key | value | default |
//! |---|---|---|
//! | `name` | the tool's name: 1 to 64 of `A-Z a-z 0-9 _ -` | the function's name |
//! | `title` | a short human title, not empty | none |
//! | `crate` | the path of the sdk, as a string (`"my_sdk"`) | `::isomer_sdk` |
//! | `annotations(...)` | MCP hints, each a `bool`: `read_only_hint`, `destructive_hint`, `idempotent_hint`, `open_world_hint` | none |
//! | `allow_unknown_keys` | a flag: calls may carry keys the input does not declare | unknown keys refused |

use proc_macro2::TokenStream;
use syn::meta::ParseNestedMeta;
use syn::parse::Parser as _;
use syn::{Ident, LitStr, Path};

use crate::ctxt::Ctxt;

/// What the attribute said; `None` where a key was absent or wrong.
#[derive(Default)]
pub(crate) struct ToolArgs {
    /// `name = "..."`.
    pub(crate) name: Option<LitStr>,
    /// `title = "..."`.
    pub(crate) title: Option<LitStr>,
    /// `crate = "..."`, parsed as a path.
    pub(crate) krate: Option<Path>,
    /// `annotations(...)`: each hint given, by its key, in order.
    pub(crate) annotations: Option<Vec<(Ident, syn::LitBool)>>,
    /// `allow_unknown_keys`.
    pub(crate) allow_unknown_keys: bool,
}

/// The hints `annotations(...)` takes.
const HINTS: [&str; 4] = [
    "read_only_hint",
    "destructive_hint",
    "idempotent_hint",
    "open_world_hint",
];

/// The keys, for the message that names them.
const KEYS: &str = "`name = \"...\"`, `title = \"...\"`, `crate = \"path\"`, \
                    `annotations(read_only_hint = true, ...)` and `allow_unknown_keys`";

/// Parses the attribute's tokens. Never fails: problems go to `cx`.
pub(crate) fn parse_tool_args(cx: &Ctxt, tokens: TokenStream) -> ToolArgs {
    let mut args = ToolArgs::default();
    let parser = syn::meta::parser(|meta| parse_key(cx, &mut args, &meta));
    if let Err(error) = parser.parse2(tokens) {
        cx.syn_error(error);
    }
    args
}

fn parse_key(cx: &Ctxt, args: &mut ToolArgs, meta: &ParseNestedMeta) -> syn::Result<()> {
    let key = meta.path.get_ident().map(Ident::to_string);
    match key.as_deref() {
        Some("name") => {
            if let Some(name) = string_value(cx, meta, "name", "name = \"search_docs\"")? {
                check_name(cx, &name.value(), &name);
                set_once(cx, meta, &mut args.name, name);
            }
        }
        Some("title") => {
            if let Some(title) = string_value(cx, meta, "title", "title = \"Search the docs\"")? {
                if title.value().trim().is_empty() {
                    cx.error_spanned_by(
                        &title,
                        "the title is empty; give a short human title or leave `title` out",
                    );
                }
                set_once(cx, meta, &mut args.title, title);
            }
        }
        Some("annotations") => {
            let mut hints: Vec<(Ident, syn::LitBool)> = Vec::new();
            meta.parse_nested_meta(|hint| {
                let key = hint.path.get_ident().cloned();
                let Some(key) = key.filter(|key| HINTS.contains(&key.to_string().as_str())) else {
                    let path = &hint.path;
                    cx.error_spanned_by(
                        path,
                        format!(
                            "unknown hint `{}`; annotations(...) takes {}",
                            quote::quote!(#path).to_string().replace(' ', ""),
                            HINTS.map(|hint| format!("`{hint}`")).join(", ")
                        ),
                    );
                    if hint.input.peek(syn::Token![=]) {
                        hint.value()?.parse::<syn::Expr>()?;
                    }
                    return Ok(());
                };
                let value: syn::Expr = hint.value()?.parse()?;
                match value {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Bool(flag),
                        ..
                    }) => {
                        if hints.iter().any(|(seen, _)| *seen == key) {
                            cx.error_spanned_by(
                                &key,
                                format!("duplicate hint `{key}`; give it once"),
                            );
                        } else {
                            hints.push((key, flag));
                        }
                    }
                    other => {
                        cx.error_spanned_by(&other, format!("`{key}` takes `true` or `false`"))
                    }
                }
                Ok(())
            })?;
            set_once(cx, meta, &mut args.annotations, hints);
        }
        Some("allow_unknown_keys") => {
            if args.allow_unknown_keys {
                cx.error_spanned_by(
                    &meta.path,
                    "duplicate key `allow_unknown_keys`; give it once",
                );
            }
            args.allow_unknown_keys = true;
        }
        Some("crate") => {
            if let Some(path) = string_value(cx, meta, "crate", "crate = \"isomer_sdk\"")? {
                match path.parse::<Path>() {
                    Ok(parsed) => set_once(cx, meta, &mut args.krate, parsed),
                    Err(_) => cx.error_spanned_by(
                        &path,
                        format!(
                            "`{}` is not a path; write the sdk's path, as `crate = \"isomer_sdk\"`",
                            path.value()
                        ),
                    ),
                }
            }
        }
        _ => {
            let path = &meta.path;
            let written = quote::quote!(#path).to_string().replace(' ', "");
            let hint = match closest_key(&written) {
                Some(key) => format!("did you mean `{key}`? "),
                None => String::new(),
            };
            cx.error_spanned_by(
                path,
                format!(
                    "unknown key `{written}`; {hint}#[isomer_tool] takes {KEYS} \
                     (the description is the doc comment)"
                ),
            );
            // Skip the value so the keys after it are still read.
            if meta.input.peek(syn::Token![=]) {
                meta.value()?.parse::<syn::Expr>()?;
            } else if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
                let _: TokenStream = meta.input.parse()?;
            }
        }
    }
    Ok(())
}

/// Reads `= "..."` after a key; a missing or non-string value is recorded
/// and answers `None`.
fn string_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
    example: &str,
) -> syn::Result<Option<LitStr>> {
    if !meta.input.peek(syn::Token![=]) {
        cx.error_spanned_by(
            &meta.path,
            format!("`{key}` takes a string, as `{example}`"),
        );
        if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
            let _: TokenStream = meta.input.parse()?;
        }
        return Ok(None);
    }
    let value: syn::Expr = meta.value()?.parse()?;
    match value {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(literal),
            ..
        }) => Ok(Some(literal)),
        other => {
            cx.error_spanned_by(
                &other,
                format!("`{key}` takes a string literal, as `{example}`"),
            );
            Ok(None)
        }
    }
}

/// The key `written` was probably meant to be: one at most two edits away.
fn closest_key(written: &str) -> Option<&'static str> {
    [
        "name",
        "title",
        "crate",
        "annotations",
        "allow_unknown_keys",
    ]
    .into_iter()
    .map(|key| (edit_distance(written, key), key))
    .filter(|(distance, _)| *distance <= 2)
    .min_by_key(|(distance, _)| *distance)
    .map(|(_, key)| key)
}

/// Levenshtein distance over chars.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

fn set_once<T>(cx: &Ctxt, meta: &ParseNestedMeta, slot: &mut Option<T>, value: T) {
    if slot.is_some() {
        let path = &meta.path;
        cx.error_spanned_by(
            path,
            format!("duplicate key `{}`; give it once", quote::quote!(#path)),
        );
    } else {
        *slot = Some(value);
    }
}

/// The longest tool name OpenAI and Anthropic accept.
const MAX_NAME_LEN: usize = 64;

/// Records an error at `at` unless `name` is 1 to 64 of `A-Z a-z 0-9 _ -`:
/// the names every major provider accepts (OpenAI and Anthropic both use
/// `^[a-zA-Z0-9_-]{1,64}$`).
pub(crate) fn check_name<A: quote::ToTokens>(cx: &Ctxt, name: &str, at: A) {
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if name.is_empty() || name.len() > MAX_NAME_LEN || !name.chars().all(allowed) {
        cx.error_spanned_by(
            at,
            format!(
                "the tool name `{name}` is not one every provider accepts: \
                 use 1 to {MAX_NAME_LEN} ASCII letters, digits, `_` or `-`"
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;

    fn parse(tokens: TokenStream) -> (ToolArgs, Vec<String>) {
        let cx = Ctxt::new();
        let args = parse_tool_args(&cx, tokens);
        let errors = match cx.check() {
            Ok(()) => Vec::new(),
            Err(error) => error.into_iter().map(|e| e.to_string()).collect(),
        };
        (args, errors)
    }

    #[test]
    fn every_key_is_read() {
        let (args, errors) = parse(quote!(
            name = "find-it",
            title = "Find it",
            crate = "my::sdk"
        ));
        assert_eq!(errors, Vec::<String>::new());
        assert_eq!(args.name.unwrap().value(), "find-it");
        assert_eq!(args.title.unwrap().value(), "Find it");
        let path = args.krate.unwrap();
        assert_eq!(quote!(#path).to_string(), "my :: sdk");
    }

    #[test]
    fn nothing_is_fine() {
        let (args, errors) = parse(quote!());
        assert!(errors.is_empty() && args.name.is_none() && args.title.is_none());
    }

    #[test]
    fn every_mistake_is_reported_in_one_pass() {
        let (args, errors) = parse(quote!(
            nme = "x",
            name = "has space",
            title = 3,
            title = "",
            description = "no",
            name = "again",
            crate = "not a path"
        ));
        assert_eq!(
            errors,
            [
                "unknown key `nme`; did you mean `name`? #[isomer_tool] takes `name = \"...\"`, `title = \"...\"`, `crate = \"path\"`, `annotations(read_only_hint = true, ...)` and `allow_unknown_keys` (the description is the doc comment)",
                "the tool name `has space` is not one every provider accepts: use 1 to 64 ASCII letters, digits, `_` or `-`",
                "`title` takes a string literal, as `title = \"Search the docs\"`",
                "the title is empty; give a short human title or leave `title` out",
                "unknown key `description`; #[isomer_tool] takes `name = \"...\"`, `title = \"...\"`, `crate = \"path\"`, `annotations(read_only_hint = true, ...)` and `allow_unknown_keys` (the description is the doc comment)",
                "duplicate key `name`; give it once",
                "`not a path` is not a path; write the sdk's path, as `crate = \"isomer_sdk\"`",
            ]
        );
        assert_eq!(args.name.unwrap().value(), "has space");
    }

    #[test]
    fn annotations_and_the_leniency_flag_are_read() {
        let (args, errors) = parse(quote!(
            annotations(read_only_hint = true, open_world_hint = false),
            allow_unknown_keys
        ));
        assert_eq!(errors, Vec::<String>::new());
        let hints: Vec<String> = args
            .annotations
            .unwrap()
            .iter()
            .map(|(key, value)| format!("{key}={}", value.value))
            .collect();
        assert_eq!(hints, ["read_only_hint=true", "open_world_hint=false"]);
        assert!(args.allow_unknown_keys);
        let (_, errors) = parse(quote!(annotations(
            readonly = true,
            idempotent_hint = 1,
            idempotent_hint = true,
            idempotent_hint = false
        )));
        assert_eq!(
            errors,
            [
                "unknown hint `readonly`; annotations(...) takes `read_only_hint`, `destructive_hint`, `idempotent_hint`, `open_world_hint`",
                "`idempotent_hint` takes `true` or `false`",
                "duplicate hint `idempotent_hint`; give it once",
            ]
        );
    }

    #[test]
    fn a_key_without_value_is_reported() {
        let (_, errors) = parse(quote!(name, title = "T"));
        assert_eq!(
            errors,
            ["`name` takes a string, as `name = \"search_docs\"`"]
        );
    }

    #[test]
    fn near_misses_get_a_suggestion() {
        assert_eq!(closest_key("titel"), Some("title"));
        assert_eq!(closest_key("krate"), Some("crate"));
        assert_eq!(closest_key("description"), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn long_names_are_refused() {
        let cx = Ctxt::new();
        check_name(&cx, &"a".repeat(64), quote!(x));
        assert!(cx.check().is_ok());
        let cx = Ctxt::new();
        check_name(&cx, &"a".repeat(65), quote!(x));
        assert!(cx.check().is_err());
    }
}
