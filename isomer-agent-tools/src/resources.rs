//! [`create_isomer_resources`]: the guide and the composition JSON Schema as
//! readable resources (upstream `createIsomerResources`).

use std::sync::Arc;

use isomer_sdk::js_parity::compact_json;

use crate::guide::build_isomer_authoring_guide;
use crate::names::{ISOMER_AUTHORING_GUIDE_URI, ISOMER_COMPOSITION_SCHEMA_URI};
use crate::options::IsomerGuideOptions;
use crate::runtime::{RuntimeFailure, ToolsRuntime};

/// How a resource is read: afresh on every call.
pub type ResourceRead = Arc<dyn Fn() -> Result<String, RuntimeFailure> + Send + Sync>;

/// A resource a host serves (upstream `IsomerResource`), e.g. over MCP
/// `resources/read`, answering `{ uri, mimeType, text: read() }`.
#[derive(Clone)]
pub struct IsomerResource {
    /// The registration name, e.g. `isomer-authoring-guide`.
    pub name: String,
    /// The URI, e.g. `isomer://authoring-guide`.
    pub uri: String,
    /// A short human title.
    pub title: String,
    /// What it holds, for the model.
    pub description: String,
    /// The media type of the text.
    pub mime_type: String,
    /// Produces the text.
    pub read: ResourceRead,
}

impl IsomerResource {
    /// Reads the resource now.
    ///
    /// # Errors
    /// The runtime's failure to give its authoring context.
    pub fn read(&self) -> Result<String, RuntimeFailure> {
        (self.read)()
    }
}

impl std::fmt::Debug for IsomerResource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IsomerResource")
            .field("name", &self.name)
            .field("uri", &self.uri)
            .field("title", &self.title)
            .field("description", &self.description)
            .field("mime_type", &self.mime_type)
            .finish_non_exhaustive()
    }
}

/// The two resources, in this order:
/// 1. `isomer-authoring-guide` at `isomer://authoring-guide`, `text/markdown`:
///    the guide, rebuilt on every read (so views registered later appear);
/// 2. `isomer-composition-schema` at `isomer://composition-schema`,
///    `application/json`: the whole authoring JSON Schema of a composition,
///    printed compact (large: tens of kilobytes for the slides pack, so its
///    description sends a model to the index and the lookup tool instead).
pub fn create_isomer_resources<R>(options: IsomerGuideOptions<R>) -> Vec<IsomerResource>
where
    R: ToolsRuntime + ?Sized + 'static,
{
    let runtime = Arc::clone(&options.runtime);
    vec![
        IsomerResource {
            name: "isomer-authoring-guide".to_owned(),
            uri: ISOMER_AUTHORING_GUIDE_URI.to_owned(),
            title: "Isomer authoring guide".to_owned(),
            description: "How to write a composition for this host: the guide, its rules, the registered \
                          views and an index of the primitives."
                .to_owned(),
            mime_type: "text/markdown".to_owned(),
            read: Arc::new(move || build_isomer_authoring_guide(&options)),
        },
        IsomerResource {
            name: "isomer-composition-schema".to_owned(),
            uri: ISOMER_COMPOSITION_SCHEMA_URI.to_owned(),
            title: "Composition JSON Schema".to_owned(),
            description: "The complete JSON Schema of a composition, every primitive included. It is large: \
                          to write a composition, read the guide's index and look primitives up with \
                          isomer_describe_primitives instead."
                .to_owned(),
            mime_type: "application/json".to_owned(),
            read: Arc::new(move || Ok(compact_json(&runtime.authoring_context()?.schema))),
        },
    ]
}
