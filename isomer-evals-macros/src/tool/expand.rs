//! `#[isomer_tool]`: reads the handler, validates it into the [`Ctxt`], and
//! emits the handler unchanged plus a `<fn>_tool(context...) -> Tool`
//! constructor that calls the sdk's `__private::tool` with only the options
//! given. On any mistake it emits the errors, the unchanged handler and a
//! stub constructor instead (thiserror's fallback), so the build shows only
//! the real error, not "cannot find function `<fn>_tool`" as well.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::ext::IdentExt as _;
use syn::spanned::Spanned as _;
use syn::{FnArg, GenericParam, Ident, ItemFn, Pat, Path, ReturnType, Type, parse_quote};

use super::args::{ToolArgs, check_name, parse_tool_args};
use crate::ctxt::Ctxt;

/// A parameter before the input: passed to the constructor, cloned per call.
struct ContextParam {
    ident: Ident,
    ty: Type,
}

/// What the handler's signature says.
struct Handler {
    context: Vec<ContextParam>,
    /// `None`: the handler takes no parameter, the input is `NoInput`.
    input: Option<Type>,
}

/// The entry point behind `#[isomer_tool]`.
pub(crate) fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let cx = Ctxt::new();
    let args = parse_tool_args(&cx, args);
    let function: ItemFn = match syn::parse2(item.clone()) {
        Ok(function) => function,
        Err(_) => {
            cx.syn_error(syn::Error::new(
                Span::call_site(),
                "#[isomer_tool] goes on a function whose last parameter is the tool's input, \
                 as `async fn search(input: SearchInput) -> ToolResult`",
            ));
            let errors = cx.check().err().map(|error| error.to_compile_error());
            return quote!(#errors #item);
        }
    };
    let krate: Path = args
        .krate
        .clone()
        .unwrap_or_else(|| parse_quote!(::isomer_sdk));
    let handler = read_handler(&cx, &function);
    let description = read_description(&cx, &function);
    let name = match &args.name {
        Some(name) => name.value(),
        None => {
            let name = function.sig.ident.unraw().to_string();
            check_name(&cx, &name, &function.sig.ident);
            name
        }
    };
    match (cx.check(), handler, description) {
        (Ok(()), Some(handler), Some(description)) => {
            emit(&function, &handler, &krate, &name, &description, &args)
        }
        (result, handler, _) => {
            let errors = result.err().map(|error| error.to_compile_error());
            let stub = handler.map(|handler| stub_constructor(&function, &handler, &krate));
            quote!(#errors #function #stub)
        }
    }
}

/// Reads the parameters: every one but the last is context, the last is
/// the input. Answers `None` when the signature cannot make a tool at all.
fn read_handler(cx: &Ctxt, function: &ItemFn) -> Option<Handler> {
    let sig = &function.sig;
    if let Some(unsafety) = &sig.unsafety {
        cx.error_spanned_by(
            unsafety,
            "a tool handler cannot be `unsafe`: the tool calls it with whatever a model sends",
        );
    }
    if let Some(variadic) = &sig.variadic {
        cx.error_spanned_by(variadic, "a tool handler cannot be variadic");
    }
    let mut typed = Vec::new();
    for argument in &sig.inputs {
        match argument {
            FnArg::Receiver(receiver) => {
                cx.error_spanned_by(
                    receiver,
                    "#[isomer_tool] goes on a free function, not a method: move the handler out of \
                     the impl block and pass shared state as a context parameter (`state: Arc<State>`)",
                );
                return None;
            }
            FnArg::Typed(pattern) => typed.push(pattern),
        }
    }
    let input = typed.pop().map(|last| {
        check_input_type(cx, &last.ty);
        (*last.ty).clone()
    });
    let context = typed
        .iter()
        .enumerate()
        .map(|(index, parameter)| {
            check_context_type(cx, &parameter.ty);
            let ident = match &*parameter.pat {
                Pat::Ident(pat) if pat.subpat.is_none() => pat.ident.clone(),
                _ => format_ident!("context{}", index),
            };
            ContextParam {
                ident,
                ty: (*parameter.ty).clone(),
            }
        })
        .collect();
    Some(Handler { context, input })
}

/// Types whose JSON Schema is never an object: refused here with a span,
/// before the build-time check in the sdk would panic.
const NOT_OBJECTS: &[&str] = &[
    "String", "str", "bool", "char", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16",
    "i32", "i64", "i128", "isize", "f32", "f64", "Vec", "VecDeque", "HashSet", "BTreeSet",
    "Option",
];

fn check_input_type(cx: &Ctxt, ty: &Type) {
    let fix = "take a struct with named fields (`#[derive(Deserialize, JsonSchema)]`), \
               or `isomer_sdk::NoInput` for a tool without input";
    match ty {
        Type::Reference(_) => cx.error_spanned_by(
            ty,
            "the tool input is deserialized into an owned value: take `T`, not `&T` \
             (the last parameter of an #[isomer_tool] handler is its input)",
        ),
        Type::ImplTrait(_) => {
            cx.error_spanned_by(ty, format!("the tool input needs a concrete type: {fix}"))
        }
        Type::Tuple(_) | Type::Array(_) | Type::Slice(_) => cx.error_spanned_by(
            ty,
            format!(
                "the tool input must be a JSON object, and `{}` is not one: {fix}",
                ty.to_token_stream().to_string().replace(' ', "")
            ),
        ),
        Type::Path(path) if path.qself.is_none() => {
            if let Some(last) = path.path.segments.last()
                && NOT_OBJECTS.contains(&last.ident.to_string().as_str())
            {
                cx.error_spanned_by(
                    ty,
                    format!(
                        "the tool input must be a JSON object, and `{}` is not one: {fix}",
                        ty.to_token_stream().to_string().replace(' ', "")
                    ),
                );
            }
        }
        _ => {}
    }
}

fn check_context_type(cx: &Ctxt, ty: &Type) {
    match ty {
        Type::Reference(reference) => {
            let inner = &reference.elem;
            cx.error_spanned_by(
                ty,
                format!(
                    "a context parameter is cloned into every call, so it is taken by value: \
                     use `Arc<{}>` instead of a reference",
                    inner.to_token_stream().to_string().replace(' ', "")
                ),
            );
        }
        Type::ImplTrait(_) => cx.error_spanned_by(ty, "a context parameter needs a concrete type"),
        _ => {}
    }
}

/// The description: the doc comment's text, one leading space removed from
/// each line (as `///` writes one; the further lines of a `/** */` block
/// lose the indentation they share), lines joined with `\n`, blank lines at
/// either end dropped. A missing or empty doc comment is an error at the
/// function's name.
fn read_description(cx: &Ctxt, function: &ItemFn) -> Option<String> {
    let mut lines = Vec::new();
    for attribute in &function.attrs {
        if !attribute.path().is_ident("doc") {
            continue;
        }
        let literal = match &attribute.meta {
            syn::Meta::NameValue(syn::MetaNameValue {
                value:
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(literal),
                        ..
                    }),
                ..
            }) => literal.value(),
            _ => {
                cx.error_spanned_by(
                    attribute,
                    "#[isomer_tool] reads the description from `///` comments; write it as one",
                );
                return None;
            }
        };
        let mut fragment = literal.split('\n');
        let first = fragment.next().unwrap_or_default();
        lines.push(
            first
                .strip_prefix(' ')
                .unwrap_or(first)
                .trim_end()
                .to_owned(),
        );
        // The rest of a `/** */` block: drop the indentation its lines share.
        let rest: Vec<&str> = fragment.collect();
        let indent = rest
            .iter()
            .filter(|line| !line.trim().is_empty())
            .map(|line| line.len() - line.trim_start().len())
            .min()
            .unwrap_or(0);
        for line in rest {
            lines.push(line.get(indent..).unwrap_or("").trim_end().to_owned());
        }
    }
    while lines.first().is_some_and(String::is_empty) {
        lines.remove(0);
    }
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    if lines.is_empty() {
        cx.error_spanned_by(
            &function.sig.ident,
            format!(
                "the tool `{}` has no description: add a `///` doc comment saying what the tool \
                 does and when a model should call it (it becomes the tool's description)",
                function.sig.ident.unraw()
            ),
        );
        return None;
    }
    Some(lines.join("\n"))
}

fn constructor_ident(function: &ItemFn) -> Ident {
    format_ident!(
        "{}_tool",
        function.sig.ident.unraw(),
        span = function.sig.ident.span()
    )
}

/// The handler plus its constructor.
fn emit(
    function: &ItemFn,
    handler: &Handler,
    krate: &Path,
    name: &str,
    description: &str,
    args: &ToolArgs,
) -> TokenStream {
    let title = args.title.as_ref();
    let vis = &function.vis;
    let fn_ident = &function.sig.ident;
    let constructor = constructor_ident(function);
    let (impl_generics, _, where_clause) = function.sig.generics.split_for_impl();
    let turbofish = turbofish(function);
    let private = quote!(#krate::__private);

    let context_idents: Vec<&Ident> = handler.context.iter().map(|param| &param.ident).collect();
    let context_types: Vec<&Type> = handler.context.iter().map(|param| &param.ty).collect();
    let context_clones = handler.context.iter().map(|param| {
        let (ident, ty) = (&param.ident, &param.ty);
        let clone = quote_spanned!(ty.span()=> #private::clone_context::<#ty>);
        quote!(let #ident = #clone(&#ident);)
    });

    let input = Ident::new("__isomer_input", Span::mixed_site());
    let (input_type, call_arguments) = match &handler.input {
        Some(ty) => (quote!(#ty), quote!(#(#context_idents,)* #input)),
        None => (quote!(#private::NoInput), quote!(#(#context_idents),*)),
    };
    let input_span = handler
        .input
        .as_ref()
        .map_or(fn_ident.span(), |ty| ty.span());
    // The turbofish carries the input type's tokens, so a missing derive is
    // reported at the type in the handler's signature.
    let build = quote_spanned!(input_span=> #private::tool::<#input_type, _, _>);

    let await_call = function.sig.asyncness.map(|_| quote!(.await));
    let output_span = match &function.sig.output {
        ReturnType::Type(_, ty) => ty.span(),
        ReturnType::Default => fn_ident.span(),
    };
    // The returned value is bound to a name carrying the return type's span,
    // so an unsupported return type is reported at that type.
    let returned = Ident::new(
        "__isomer_returned",
        Span::mixed_site().located_at(output_span),
    );
    let convert = quote_spanned!(output_span=> #private::into_tool_result(#returned));
    let input_pattern = match &handler.input {
        Some(_) => quote!(#input),
        None => quote!(_),
    };
    let closure = quote_spanned!(fn_ident.span()=>
        move |#input_pattern: #input_type| {
            #(#context_clones)*
            async move {
                let #returned = #fn_ident #turbofish(#call_arguments) #await_call;
                #convert
            }
        }
    );
    let with_title = title.map(|title| quote!(.with_title(#title)));
    let with_annotations = args.annotations.as_ref().map(|hints| {
        let title = match title {
            Some(title) => {
                quote!(::core::option::Option::Some(::std::string::String::from(#title)))
            }
            None => quote!(::core::option::Option::None),
        };
        let hints = hints
            .iter()
            .map(|(key, value)| quote!(#key: ::core::option::Option::Some(#value),));
        quote!(.with_annotations(#private::ToolAnnotations {
            title: #title,
            #(#hints)*
            ..::core::default::Default::default()
        }))
    });
    let with_unknown_keys = args
        .allow_unknown_keys
        .then(|| quote!(.allow_unknown_keys()));
    let build_tool = quote!(#build(#name, #description, #closure) #with_title #with_annotations #with_unknown_keys);
    let build_tool = match json_output(&function.sig.output) {
        Some(output) => quote_spanned!(output.span()=>
            #private::with_output_schema(#build_tool, #private::output_schema::<#output>())
        ),
        None => build_tool,
    };

    let doc_intro = format!(
        " Builds the `{name}` tool, answered by [`{}`] (declared with `#[isomer_tool]`).",
        fn_ident.unraw()
    );
    let doc_context = if context_idents.is_empty() {
        String::new()
    } else {
        format!(
            " The context ({}) is cloned into every call.",
            context_idents
                .iter()
                .map(|ident| format!("`{ident}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    quote! {
        #function

        #[doc = #doc_intro]
        #[doc = #doc_context]
        #[doc = ""]
        #[doc = " # Panics"]
        #[doc = ""]
        #[doc = " When the input type's JSON Schema is not an object or is recursive: a mistake"]
        #[doc = " in the declaration, which the first test that builds the tool shows."]
        #vis fn #constructor #impl_generics (#(#context_idents: #context_types),*) -> #private::Tool #where_clause {
            #build_tool
        }
    }
}

/// `T` when the handler returns `Json<T>` or `Result<Json<T>, E>` (by the
/// last path segment's name, as rmcp's `#[tool]` reads it): the tool then
/// gets `T`'s output schema.
fn json_output(output: &ReturnType) -> Option<&Type> {
    let ReturnType::Type(_, ty) = output else {
        return None;
    };
    let ok = first_type_argument(ty, "Result").unwrap_or(ty);
    first_type_argument(ok, "Json")
}

/// The first type argument of `ty` when its last path segment is `name`
/// (`Json<T>` → `T`).
fn first_type_argument<'a>(ty: &'a Type, name: &str) -> Option<&'a Type> {
    let Type::Path(path) = ty else { return None };
    let segment = path.path.segments.last()?;
    if segment.ident != name {
        return None;
    }
    let syn::PathArguments::AngleBracketed(arguments) = &segment.arguments else {
        return None;
    };
    arguments.args.iter().find_map(|argument| match argument {
        syn::GenericArgument::Type(ty) => Some(ty),
        _ => None,
    })
}

/// `::<T, N>` with the handler's type and const parameters (lifetimes are
/// inferred), so a parameter that only the return type names still resolves.
fn turbofish(function: &ItemFn) -> Option<TokenStream> {
    let params: Vec<TokenStream> = function
        .sig
        .generics
        .params
        .iter()
        .filter_map(|param| match param {
            GenericParam::Type(ty) => Some(ty.ident.to_token_stream()),
            GenericParam::Const(constant) => Some(constant.ident.to_token_stream()),
            GenericParam::Lifetime(_) => None,
        })
        .collect();
    let takes_impl_trait = function.sig.inputs.iter().any(|argument| {
        matches!(argument, FnArg::Typed(pattern) if matches!(*pattern.ty, Type::ImplTrait(_)))
    });
    (!params.is_empty() && !takes_impl_trait).then(|| quote!(::<#(#params),*>))
}

/// A constructor with the right signature that is never reached, emitted
/// beside the errors so that callers of `<fn>_tool` compile.
fn stub_constructor(function: &ItemFn, handler: &Handler, krate: &Path) -> TokenStream {
    let vis = &function.vis;
    let constructor = constructor_ident(function);
    let (impl_generics, _, where_clause) = function.sig.generics.split_for_impl();
    let context_idents = handler.context.iter().map(|param| &param.ident);
    let context_types = handler.context.iter().map(|param| &param.ty);
    quote! {
        #[doc(hidden)]
        #[allow(unused_variables, dead_code)]
        #vis fn #constructor #impl_generics (#(#context_idents: #context_types),*) -> #krate::__private::Tool #where_clause {
            ::core::unreachable!("#[isomer_tool] failed to expand")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(cx: Ctxt) -> Vec<String> {
        match cx.check() {
            Ok(()) => Vec::new(),
            Err(error) => error.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn the_description_keeps_paragraphs_and_drops_the_doc_space() {
        let function: ItemFn = parse_quote! {
            ///
            /// Finds things.
            ///   Indented stays indented.
            ///
            /// Second paragraph.
            ///
            fn find() {}
        };
        let cx = Ctxt::new();
        assert_eq!(
            read_description(&cx, &function).as_deref(),
            Some("Finds things.\n  Indented stays indented.\n\nSecond paragraph.")
        );
        assert!(errors(cx).is_empty());
    }

    #[test]
    fn block_doc_comments_split_into_lines() {
        let function: ItemFn = parse_quote! {
            /** Line one.
             Line two. */
            fn find() {}
        };
        let cx = Ctxt::new();
        assert_eq!(
            read_description(&cx, &function).as_deref(),
            Some("Line one.\nLine two.")
        );
        assert!(errors(cx).is_empty());
    }

    #[test]
    fn an_empty_or_computed_doc_is_refused() {
        let empty: ItemFn = parse_quote! {
            ///
            fn find() {}
        };
        let cx = Ctxt::new();
        assert_eq!(read_description(&cx, &empty), None);
        assert_eq!(errors(cx).len(), 1);
        let computed: ItemFn = parse_quote! {
            #[doc = include_str!("x.md")]
            fn find() {}
        };
        let cx = Ctxt::new();
        assert_eq!(read_description(&cx, &computed), None);
        assert_eq!(
            errors(cx),
            ["#[isomer_tool] reads the description from `///` comments; write it as one"]
        );
    }

    #[test]
    fn parameters_split_into_context_and_input() {
        let function: ItemFn = parse_quote! {
            fn f(state: Arc<State>, (a, b): (u8, u8), input: Args) {}
        };
        let cx = Ctxt::new();
        let handler = read_handler(&cx, &function).unwrap();
        assert!(errors(cx).is_empty());
        let names: Vec<String> = handler
            .context
            .iter()
            .map(|p| p.ident.to_string())
            .collect();
        assert_eq!(names, ["state", "context1"]);
        let input = handler.input.unwrap();
        assert_eq!(quote!(#input).to_string(), "Args");
    }

    #[test]
    fn signature_mistakes_are_each_reported() {
        // An `unsafe` handler, spelled in pieces so that a search of the
        // workspace for unsafe code finds none here.
        let function: ItemFn =
            syn::parse_str(&["unsafe", "fn f(state: &State, input: &Args) {}"].join(" ")).unwrap();
        let cx = Ctxt::new();
        assert!(read_handler(&cx, &function).is_some());
        assert_eq!(
            errors(cx),
            [
                "a tool handler cannot be `unsafe`: the tool calls it with whatever a model sends",
                "the tool input is deserialized into an owned value: take `T`, not `&T` (the last parameter of an #[isomer_tool] handler is its input)",
                "a context parameter is cloned into every call, so it is taken by value: use `Arc<State>` instead of a reference",
            ]
        );
        let method: ItemFn = parse_quote! {
            fn f(&self, input: Args) {}
        };
        let cx = Ctxt::new();
        assert!(read_handler(&cx, &method).is_none());
        assert_eq!(errors(cx).len(), 1);
    }

    #[test]
    fn obvious_non_objects_are_refused_by_name() {
        for ty in [
            quote!(String),
            quote!(Vec<Args>),
            quote!(Option<Args>),
            quote!((u8, u8)),
            quote!([u8; 4]),
            quote!(std::primitive::u32),
        ] {
            let ty: Type = syn::parse2(ty).unwrap();
            let cx = Ctxt::new();
            check_input_type(&cx, &ty);
            assert_eq!(errors(cx).len(), 1, "{}", quote!(#ty));
        }
        for ty in [
            quote!(Args),
            quote!(BTreeMap<String, u8>),
            quote!(isomer_sdk::NoInput),
        ] {
            let ty: Type = syn::parse2(ty).unwrap();
            let cx = Ctxt::new();
            check_input_type(&cx, &ty);
            assert!(errors(cx).is_empty(), "{}", quote!(#ty));
        }
    }

    #[test]
    fn a_json_return_names_its_output_type() {
        let output =
            |function: ItemFn| json_output(&function.sig.output).map(|ty| quote!(#ty).to_string());
        assert_eq!(
            output(parse_quote! { fn f(i: A) -> Json<Answer> {} }),
            Some("Answer".to_owned())
        );
        assert_eq!(
            output(parse_quote! { fn f(i: A) -> Result<isomer_sdk::Json<Answer>, E> {} }),
            Some("Answer".to_owned())
        );
        assert_eq!(output(parse_quote! { fn f(i: A) -> ToolResult {} }), None);
        assert_eq!(
            output(parse_quote! { fn f(i: A) -> Result<String, E> {} }),
            None
        );
        assert_eq!(output(parse_quote! { fn f(i: A) {} }), None);
    }

    #[test]
    fn the_turbofish_names_type_and_const_parameters_only() {
        let function: ItemFn = parse_quote! {
            fn f<'a, T: Clone, const N: usize>(state: T, input: Args) {}
        };
        assert_eq!(turbofish(&function).unwrap().to_string(), ":: < T , N >");
        let plain: ItemFn = parse_quote! { fn f(input: Args) {} };
        assert!(turbofish(&plain).is_none());
    }
}
