//! The authoring guide a model reads first (upstream
//! `buildIsomerAuthoringGuide`): the sdk's authoring
//! prompt with the catalog as an index, plus a closing "Before you write"
//! section that sends the model to `isomer_describe_primitives`.

use isomer_sdk::js_parity::one_line;
use isomer_sdk::{CatalogMode, PromptContext, build_authoring_prompt};

use crate::names::ISOMER_TOOL_NAMES;
use crate::options::IsomerGuideOptions;
use crate::runtime::{RuntimeFailure, ToolsRuntime};

/// The guide prose used when the host gives none. Its points: answer with
/// one composition made only of the listed primitives; prefer one primitive
/// that says everything over several partial ones; prefer a registered view
/// when `isomer_list_views` offers one that answers; validate with
/// `isomer_validate` and fix every error before rendering.
pub const DEFAULT_ISOMER_GUIDE: &str = "Answer with one composition, built only from the primitives listed below. \
When a single primitive can carry the whole answer, use it rather than several that each carry part of it. \
If `isomer_list_views` is available and one of its views answers the question, request that view instead of composing. \
Check the composition with `isomer_validate` before rendering it, and fix every error it reports.";

/// Builds the guide from the runtime's authoring context, read afresh on
/// every call so views registered later appear:
///
/// `# View authoring`, the profile's intro, `## Guide`, `## Rules` (when
/// any), `## Registered views` (when any), `## Primitive catalog` (an index:
/// `- `type` — purpose` per group, then `### Other`), `## Examples` (within
/// the profile's budget), and `## Before you write`. No JSON Schema and no
/// full catalog entry is ever inlined; those come from
/// `isomer_describe_primitives`. Sections are separated by a blank line.
///
/// # Errors
/// The runtime's failure to give its authoring context.
pub fn build_isomer_authoring_guide<R>(
    options: &IsomerGuideOptions<R>,
) -> Result<String, RuntimeFailure>
where
    R: ToolsRuntime + ?Sized,
{
    let context = options.runtime.authoring_context()?;
    let rules = options
        .rules
        .iter()
        .map(|rule| format!("- {}", one_line(rule)))
        .collect::<Vec<_>>()
        .join("\n");
    let prompt = build_authoring_prompt(
        options.profile,
        &PromptContext {
            guide: options.guide.as_deref().unwrap_or(DEFAULT_ISOMER_GUIDE),
            rules: Some(rules.as_str()).filter(|rules| !rules.is_empty()),
            schema: None,
            primitives: &context.primitives,
            catalog: CatalogMode::Index,
            groups: &context.groups,
            examples: &options.examples,
            views: &context.views,
            heading: None,
            intro: None,
        },
    );
    Ok(format!("{prompt}\n\n{}", before_you_write()))
}

/// The closing section: look up every type before writing, and look up the
/// primitive an error names when repairing.
fn before_you_write() -> String {
    format!(
        "## Before you write\n\n\
         The index above gives only each primitive's purpose. Call `{describe}` once with every type you \
         plan to use, the containers you nest others in included, to get each one's full catalog entry and \
         JSON Schema. Each validation error names the primitive it sits in, so when you repair one, look that \
         primitive up too.",
        describe = ISOMER_TOOL_NAMES.describe_primitives
    )
}
