//! [`create_isomer_prompts`]: the `compose` prompt (upstream
//! `createIsomerPrompts`).

use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::guide::build_isomer_authoring_guide;
use crate::names::ISOMER_COMPOSE_PROMPT;
use crate::options::IsomerGuideOptions;
use crate::runtime::{RuntimeFailure, ToolsRuntime};

/// One argument of a prompt, as MCP `prompts/list` describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptArgument {
    /// The argument's name.
    pub name: String,
    /// What to pass.
    pub description: String,
    /// Whether a call must give it.
    pub required: bool,
}

/// How a prompt's text is built from its arguments.
pub type PromptBuild =
    Arc<dyn Fn(&Map<String, Value>) -> Result<String, RuntimeFailure> + Send + Sync>;

/// A prompt a host serves (upstream `IsomerPrompt`), e.g. over MCP
/// `prompts/get` as one `user` message holding `build(arguments)`.
#[derive(Clone)]
pub struct IsomerPrompt {
    /// The name, `compose`.
    pub name: String,
    /// A short human title.
    pub title: String,
    /// What the prompt holds.
    pub description: String,
    /// The arguments, for hosts that list them.
    pub arguments: Vec<PromptArgument>,
    /// The arguments as a JSON Schema object (`{"type":"object","properties":…}`).
    pub args_schema: Value,
    /// Builds the text.
    pub build: PromptBuild,
}

impl IsomerPrompt {
    /// Builds the prompt's text from `arguments`.
    ///
    /// # Errors
    /// An argument of the wrong type (`request` must be a string), or the
    /// runtime's failure to give its authoring context.
    pub fn build(&self, arguments: &Map<String, Value>) -> Result<String, RuntimeFailure> {
        (self.build)(arguments)
    }
}

impl std::fmt::Debug for IsomerPrompt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IsomerPrompt")
            .field("name", &self.name)
            .field("title", &self.title)
            .field("description", &self.description)
            .field("arguments", &self.arguments)
            .field("args_schema", &self.args_schema)
            .finish_non_exhaustive()
    }
}

/// The one prompt, `compose` (title `Compose a view`), with an optional
/// string argument `request`. Without it the text is exactly the guide
/// resource's; with it (even empty) the guide, then
/// `"\n\n## Request\n\n"` and the request unchanged. The guide is rebuilt on
/// every call.
pub fn create_isomer_prompts<R>(options: IsomerGuideOptions<R>) -> Vec<IsomerPrompt>
where
    R: ToolsRuntime + ?Sized + 'static,
{
    let request_description = "What the view should answer.";
    vec![IsomerPrompt {
        name: ISOMER_COMPOSE_PROMPT.to_owned(),
        title: "Compose a view".to_owned(),
        description: "The authoring guide, followed by what the view should show.".to_owned(),
        arguments: vec![PromptArgument {
            name: "request".to_owned(),
            description: request_description.to_owned(),
            required: false,
        }],
        args_schema: json!({
            "type": "object",
            "properties": { "request": { "type": "string", "description": request_description } }
        }),
        build: Arc::new(move |arguments| {
            let guide = build_isomer_authoring_guide(&options)?;
            match arguments.get("request") {
                None | Some(Value::Null) => Ok(guide),
                Some(Value::String(request)) => Ok(format!("{guide}\n\n## Request\n\n{request}")),
                Some(_) => Err("compose: the request argument must be a string".into()),
            }
        }),
    }]
}
