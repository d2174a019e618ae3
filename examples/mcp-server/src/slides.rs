//! What this example serves: the slides runtime (the `isomer-slides` pack
//! and its `slideDeckFrame` frame) with one registered view, `title-slide`,
//! so all six agent tools are offered; the two resources; and the `compose`
//! prompt. The guide, resources and prompt carry the pack's own guide and
//! rules.

use std::sync::Arc;

use isomer_agent_tools::{
    IsomerGuideOptions, IsomerToolsOptions, create_isomer_prompts, create_isomer_resources,
    create_isomer_tools,
};
use isomer_sdk::{IsomerError, Runtime, View};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::adapter::IsomerMcpServer;

/// The server's MCP `serverInfo.name`.
pub const SERVER_NAME: &str = "isomer-mcp-server";

/// The server's MCP `serverInfo.title`.
pub const SERVER_TITLE: &str = "Isomer slides";

/// The id of the registered view.
pub const TITLE_SLIDE_VIEW: &str = "title-slide";

/// What the server tells a client at `initialize`: the order in which a
/// model uses the tools (the upstream server's default instructions, in
/// this project's words).
pub const INSTRUCTIONS: &str = "This server answers with slides written as Isomer compositions: typed JSON that the host validates and renders. Check isomer_list_views first and, when a registered view fits the request, build the slide with isomer_request_view. Otherwise read isomer_authoring_guide, look the primitives you pick up with isomer_describe_primitives, check your composition with isomer_validate until it is valid, and render it with isomer_render.";

/// The input of the `title-slide` view. Its schema's description, which a
/// model reads in `isomer_list_views`, is set apart from this comment.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(description = "The text of a deck's title slide.")]
pub struct TitleSlideInput {
    /// The subject's name, usually one or two words.
    pub title: String,
    /// One line on what the subject is.
    pub tagline: Option<String>,
}

/// The `title-slide` view: a deck's opening slide, one `slideFrame` of tone
/// `inverse` holding one `slideTitle` with the input's title (also the
/// composition's title) and tagline (left out when not given).
pub fn title_slide_view() -> View<()> {
    View::builder(TITLE_SLIDE_VIEW, "Title slide")
        .description("The opening slide of a deck: the subject's name and a one-line tagline.")
        .answers(["Open a deck about a subject", "Make a title slide"])
        .build_with_input(|_: (), input: TitleSlideInput| async move {
            let mut title = Map::new();
            title.insert("type".to_owned(), json!("slideTitle"));
            title.insert("title".to_owned(), json!(input.title));
            if let Some(tagline) = input.tagline {
                title.insert("tagline".to_owned(), json!(tagline));
            }
            json!({
                "type": "view",
                "title": input.title,
                "body": [{ "type": "slideFrame", "tone": "inverse", "body": [Value::Object(title)] }]
            })
        })
}

/// The slides runtime with [`title_slide_view`] registered.
///
/// # Errors
/// An [`IsomerError`] if the pack or the runtime cannot be built, or the
/// view id is taken.
pub fn slides_runtime() -> Result<Arc<Runtime>, IsomerError> {
    let runtime = isomer_slides::runtime()?;
    runtime.views().register(title_slide_view())?;
    Ok(Arc::new(runtime))
}

/// The pack's rules ([`isomer_slides::AUTHORING_RULES`]), one per line,
/// without their `N. ` numbering: the guide prints each as a bullet.
pub fn slides_rules() -> Vec<String> {
    isomer_slides::AUTHORING_RULES
        .lines()
        .map(|line| {
            let unnumbered = line
                .split_once(". ")
                .filter(|(number, _)| number.chars().all(|c| c.is_ascii_digit()))
                .map_or(line, |(_, rule)| rule);
            unnumbered.to_owned()
        })
        .collect()
}

/// The guide options of the slides server: [`slides_runtime`]'s runtime,
/// the pack's guide and [`slides_rules`].
fn guide_options(runtime: &Arc<Runtime>) -> IsomerGuideOptions<Runtime> {
    IsomerGuideOptions::new(Arc::clone(runtime))
        .with_guide(isomer_slides::AUTHORING_GUIDE)
        .with_rules(slides_rules())
}

/// The server this example runs: the six tools over [`slides_runtime`]
/// with the slides frame (so every check also wants one `slideFrame`),
/// `heading: false` (each slide prints its own heading) and the `png`,
/// `svg` and `pdf` host formats of `isomer-pictures`, the two resources
/// and the `compose` prompt, all built from the pack's guide and rules;
/// named [`SERVER_NAME`] at this crate's version, titled [`SERVER_TITLE`],
/// with [`INSTRUCTIONS`].
///
/// # Errors
/// An [`IsomerError`] if the runtime or the tools cannot be built.
pub fn slides_server() -> Result<IsomerMcpServer, IsomerError> {
    let runtime = slides_runtime()?;
    let options = IsomerToolsOptions::new(Arc::clone(&runtime))
        .with_frame(isomer_slides::slide_deck_frame())
        .with_heading(false)
        .with_guide(isomer_slides::AUTHORING_GUIDE)
        .with_rules(slides_rules());
    // The fonts are compiled into isomer-pictures: only a broken build fails here.
    let pictures = Arc::new(isomer_pictures::Pictures::new().expect("the compiled-in fonts load"));
    let options = isomer_pictures::host_formats(Arc::clone(&runtime), pictures)
        .into_iter()
        .fold(options, |options, (name, format)| {
            options.with_format(name, format)
        });
    let tools = create_isomer_tools(options)?;
    let resources = create_isomer_resources(guide_options(&runtime));
    let prompts = create_isomer_prompts(guide_options(&runtime));
    Ok(IsomerMcpServer::new(
        SERVER_NAME,
        env!("CARGO_PKG_VERSION"),
        tools,
        resources,
        prompts,
    )
    .with_title(SERVER_TITLE)
    .with_instructions(INSTRUCTIONS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_lose_their_numbers_only() {
        let rules = slides_rules();
        assert_eq!(rules.len(), 6);
        assert_eq!(
            rules[0],
            "The body of every composition is exactly one slideFrame. Frames never nest: no slideFrame inside another node."
        );
        assert_eq!(
            rules[5],
            "A tone on an item is either \"primary\" or \"accent\"."
        );
    }

    #[test]
    fn the_server_offers_six_tools_two_resources_and_one_prompt() {
        let server = slides_server().unwrap();
        let tools: Vec<&str> = server.tools().iter().map(|t| t.name.as_str()).collect();
        assert_eq!(tools, isomer_agent_tools::ISOMER_TOOL_NAMES.all());
        let uris: Vec<&str> = server.resources().iter().map(|r| r.uri.as_str()).collect();
        assert_eq!(
            uris,
            ["isomer://authoring-guide", "isomer://composition-schema"]
        );
        assert_eq!(server.prompts()[0].name, "compose");
    }
}
