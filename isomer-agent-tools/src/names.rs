//! The names hosts and tests refer to: tool names, resource URIs and the
//! prompt name (upstream `src/names.ts`).

/// The six tool names, in the order the tools are offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IsomerToolNames {
    /// `isomer_authoring_guide`.
    pub authoring_guide: &'static str,
    /// `isomer_describe_primitives`.
    pub describe_primitives: &'static str,
    /// `isomer_validate`.
    pub validate: &'static str,
    /// `isomer_render`.
    pub render: &'static str,
    /// `isomer_list_views` (offered only when the runtime lists a view).
    pub list_views: &'static str,
    /// `isomer_request_view` (offered only when the runtime lists a view).
    pub request_view: &'static str,
}

impl IsomerToolNames {
    /// The names in offer order.
    pub fn all(&self) -> [&'static str; 6] {
        [
            self.authoring_guide,
            self.describe_primitives,
            self.validate,
            self.render,
            self.list_views,
            self.request_view,
        ]
    }
}

/// The tool names (upstream `ISOMER_TOOL_NAMES`).
pub const ISOMER_TOOL_NAMES: IsomerToolNames = IsomerToolNames {
    authoring_guide: "isomer_authoring_guide",
    describe_primitives: "isomer_describe_primitives",
    validate: "isomer_validate",
    render: "isomer_render",
    list_views: "isomer_list_views",
    request_view: "isomer_request_view",
};

/// The guide resource's URI.
pub const ISOMER_AUTHORING_GUIDE_URI: &str = "isomer://authoring-guide";

/// The composition JSON Schema resource's URI.
pub const ISOMER_COMPOSITION_SCHEMA_URI: &str = "isomer://composition-schema";

/// The compose prompt's name.
pub const ISOMER_COMPOSE_PROMPT: &str = "compose";
