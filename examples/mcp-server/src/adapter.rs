//! The MCP adapter: maps the three plain-data lists of `isomer-agent-tools`
//! (tools, resources, prompts) onto rmcp, the official MCP Rust SDK
//! (as upstream `registerIsomerTools` does: an adapter maps the three lists
//! onto a transport).
//!
//! The module depends on `isomer-agent-tools` (which re-exports the sdk's
//! `Tool`, `ToolResult` and `ToolContent`), `rmcp` (feature `server`) and
//! `serde_json` only, so a host can copy this one file into its own server. [`IsomerMcpServer`] implements rmcp's
//! [`ServerHandler`] by hand over the lists (the tools are data, not Rust
//! methods, so rmcp's `#[tool_router]` macros do not fit); the free functions
//! are the individual mappings, for a host that wires its own handler.
//!
//! | Isomer | MCP (rmcp) | function |
//! |---|---|---|
//! | [`Tool`] | `tools/list` entry ([`McpTool`]) | [`mcp_tool`] |
//! | `[Tool]` | `tools/list` answer ([`ListToolsResult`]) | [`list_tools_result`] |
//! | [`ToolResult`] | `tools/call` answer ([`CallToolResult`]) | [`call_tool_result`] |
//! | [`ToolContent`] | [`ContentBlock`] | [`content_block`] |
//! | [`IsomerResource`] | `resources/list` entry ([`Resource`]) | [`mcp_resource`] |
//! | [`IsomerResource::read`] | `resources/read` answer | [`read_resource_result`] |
//! | [`IsomerPrompt`] | `prompts/list` entry ([`Prompt`]) | [`mcp_prompt`] |
//! | [`IsomerPrompt::build`] | `prompts/get` answer | [`get_prompt_result`] |
//!
//! A host builds the lists and serves them (here on stdio):
//!
//! ```no_run
//! use std::sync::Arc;
//!
//! use isomer_agent_tools::{
//!     IsomerGuideOptions, IsomerToolsOptions, create_isomer_prompts, create_isomer_resources,
//!     create_isomer_tools,
//! };
//! use isomer_mcp_server::adapter::IsomerMcpServer;
//! use rmcp::ServiceExt as _;
//!
//! # async fn serve() -> Result<(), Box<dyn std::error::Error>> {
//! let runtime = Arc::new(isomer_slides::runtime()?);
//! let tools = create_isomer_tools(
//!     IsomerToolsOptions::new(Arc::clone(&runtime)).with_frame(isomer_slides::slide_deck_frame()),
//! )?;
//! let resources = create_isomer_resources(IsomerGuideOptions::new(Arc::clone(&runtime)));
//! let prompts = create_isomer_prompts(IsomerGuideOptions::new(runtime));
//! let server = IsomerMcpServer::new("my-host", "1.0.0", tools, resources, prompts);
//! server.serve(rmcp::transport::stdio()).await?.waiting().await?;
//! # Ok(())
//! # }
//! ```
//!
//! # Tools without input keys
//!
//! A tool whose input schema declares no property (`isomer_authoring_guide`,
//! `isomer_list_views`) is registered without its own schema: it is listed
//! with [`empty_object_schema`], `{"type":"object","properties":{}}` (what
//! the TypeScript MCP SDK lists for a tool registered without one), and a
//! call runs it on `{}` whatever `arguments` the call carries, including none
//! at all. Upstream does this because the TypeScript SDK rejects a call that
//! omits `arguments` against any input schema, even one with no keys
//! (upstream registers such a tool with no input schema).
//!
//! Every other tool is listed with its input schema as given, and a call
//! hands the arguments (`null` when omitted) to [`Tool::call`], which checks
//! them against that schema; input the schema refuses answers a failed result
//! (`isError: true`) that names each problem, never a protocol error.
//!
//! # Errors on the wire
//!
//! Failures a model can act on are tool results with `isError: true`, as the
//! tools answer them. JSON-RPC errors are kept for requests that cannot be
//! routed: an unknown tool or prompt (`-32602`, invalid params), an unknown
//! resource URI (`-32002`, resource not found; rmcp sends `-32602` to peers on
//! protocol 2026-07-28 or later), a prompt argument that is missing or not a
//! string (`-32602`), and a resource or prompt whose text the runtime failed
//! to build (`-32603`, internal error).

use std::sync::Arc;

use isomer_agent_tools::{IsomerPrompt, IsomerResource, Tool, ToolContent, ToolResult};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, Implementation, JsonObject, ListPromptsResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, Prompt,
    PromptArgument as McpPromptArgument, PromptMessage, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, Role, ServerCapabilities,
    ServerConfig, Tool as McpTool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::{Map, Value, json};

pub mod http;
pub mod stdio;

/// The input schema a tool without input keys is listed with:
/// `{"type":"object","properties":{}}`, the schema the TypeScript MCP SDK
/// lists for a tool registered without one (MCP requires every
/// `tools/list` entry to carry an object schema).
pub fn empty_object_schema() -> JsonObject {
    let mut schema = Map::new();
    schema.insert("type".to_owned(), json!("object"));
    schema.insert("properties".to_owned(), json!({}));
    schema
}

/// Whether `schema` declares at least one input key: a non-empty
/// `properties` object. A schema that is not an object, or has no
/// `properties`, or an empty one, has no keys (upstream:
/// `Object.keys(inputSchema.shape).length === 0`).
pub fn has_input_keys(schema: &Value) -> bool {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|properties| !properties.is_empty())
}

/// A [`Tool`] as an MCP `tools/list` entry: its name, title, description,
/// input schema, output schema and annotations (each optional one when the
/// tool has it). The input schema is the tool's own when it declares an
/// input key ([`has_input_keys`]); otherwise it is [`empty_object_schema`]
/// (see the module docs).
pub fn mcp_tool(tool: &Tool) -> McpTool {
    let input_schema = match (&tool.input_schema, has_input_keys(&tool.input_schema)) {
        (Value::Object(schema), true) => schema.clone(),
        _ => empty_object_schema(),
    };
    let mut listed = McpTool::new(
        tool.name.clone(),
        tool.description.clone(),
        Arc::new(input_schema),
    );
    if let Some(title) = &tool.title {
        listed = listed.with_title(title.clone());
    }
    if let Some(Value::Object(schema)) = &tool.output_schema {
        listed = listed.with_raw_output_schema(Arc::new(schema.clone()));
    }
    // Both types write MCP's camelCase annotation keys.
    let annotations = tool
        .annotations
        .as_ref()
        .and_then(|hints| serde_json::to_value(hints).ok())
        .and_then(|hints| serde_json::from_value(hints).ok());
    if let Some(annotations) = annotations {
        listed = listed.with_annotations(annotations);
    }
    listed
}

/// The `tools/list` answer for `tools`, in order, each mapped with
/// [`mcp_tool`] (`{"tools":[...]}`, no further pages).
pub fn list_tools_result(tools: &[Tool]) -> ListToolsResult {
    ListToolsResult::with_all_items(tools.iter().map(mcp_tool).collect())
}

/// Runs `tool` on a `tools/call`'s `arguments` and maps its answer with
/// [`call_tool_result`]. A tool without input keys runs on `{}` and ignores
/// `arguments`; any other tool receives them as given (`null` when omitted),
/// checked by [`Tool::call`] against its input schema. Never fails: every
/// failure is a result with `isError: true`.
pub async fn call_tool(tool: &Tool, arguments: Option<JsonObject>) -> CallToolResult {
    let input = if has_input_keys(&tool.input_schema) {
        arguments.map_or(Value::Null, Value::Object)
    } else {
        Value::Object(Map::new())
    };
    call_tool_result(tool.call(input).await)
}

/// A [`ToolResult`] as an MCP [`CallToolResult`]: every block mapped with
/// [`content_block`], in order, `structuredContent` when the result has
/// it, and `isError: true` on a failed call. A successful call carries no
/// `isError` key, as upstream's `toCallToolResult` copies `isError` only
/// when it is set.
pub fn call_tool_result(result: ToolResult) -> CallToolResult {
    let ToolResult {
        content,
        is_error,
        structured_content,
    } = result;
    let content: Vec<ContentBlock> = content.into_iter().map(content_block).collect();
    let mut answer = if is_error {
        CallToolResult::error(content)
    } else {
        let mut answer = CallToolResult::success(content);
        answer.is_error = None;
        answer
    };
    answer.structured_content = structured_content;
    answer
}

/// One [`ToolContent`] block as an MCP [`ContentBlock`], unchanged in
/// content:
/// - `text` → a text block;
/// - `image` → an image block with the same base64 `data` and `mimeType`;
/// - `resource` → an embedded resource block whose resource is
///   `{ uri, mimeType, blob }` (MCP's `BlobResourceContents`), base64 as is.
pub fn content_block(block: ToolContent) -> ContentBlock {
    match block {
        ToolContent::Text { text } => ContentBlock::text(text),
        ToolContent::Image { data, mime_type } => ContentBlock::image(data, mime_type),
        ToolContent::Resource { resource } => ContentBlock::resource(
            ResourceContents::blob(resource.blob, resource.uri).with_mime_type(resource.mime_type),
        ),
    }
}

/// An [`IsomerResource`] as an MCP `resources/list` entry: `uri`, `name`,
/// `title`, `description` and `mimeType`.
pub fn mcp_resource(resource: &IsomerResource) -> Resource {
    Resource::new(resource.uri.clone(), resource.name.clone())
        .with_title(resource.title.clone())
        .with_description(resource.description.clone())
        .with_mime_type(resource.mime_type.clone())
}

/// Reads `resource` now and answers a `resources/read` for `uri` (the URI as
/// the client requested it) with one text entry `{ uri, mimeType, text }`.
///
/// # Errors
/// Internal error (`-32603`) with the runtime's message when the text
/// cannot be built.
pub fn read_resource_result(
    resource: &IsomerResource,
    uri: &str,
) -> Result<ReadResourceResult, McpError> {
    let text = resource.read().map_err(|error| {
        McpError::internal_error(
            format!("reading resource {uri} failed: {error}"),
            Some(json!({ "uri": uri })),
        )
    })?;
    Ok(ReadResourceResult::new(vec![
        ResourceContents::text(text, uri).with_mime_type(resource.mime_type.clone()),
    ]))
}

/// An [`IsomerPrompt`] as an MCP `prompts/list` entry: `name`, `title`,
/// `description` and its arguments (`name`, `description`, `required`).
pub fn mcp_prompt(prompt: &IsomerPrompt) -> Prompt {
    let arguments = prompt
        .arguments
        .iter()
        .map(|argument| {
            McpPromptArgument::new(argument.name.clone())
                .with_description(argument.description.clone())
                .with_required(argument.required)
        })
        .collect();
    Prompt::new(
        prompt.name.clone(),
        Some(prompt.description.clone()),
        Some(arguments),
    )
    .with_title(prompt.title.clone())
}

/// Answers a `prompts/get` for `prompt`: checks `arguments` against the
/// prompt's declared arguments (MCP prompt arguments are strings; a required
/// one must be present; undeclared ones are ignored, as upstream's Zod
/// object strips them), builds the text and returns one message, role
/// `user`, holding it as a text block.
///
/// # Errors
/// Invalid params (`-32602`) when a declared argument is not a string or a
/// required one is missing; internal error (`-32603`) with the runtime's
/// message when the text cannot be built.
pub fn get_prompt_result(
    prompt: &IsomerPrompt,
    arguments: Option<JsonObject>,
) -> Result<GetPromptResult, McpError> {
    let arguments = arguments.unwrap_or_default();
    for declared in &prompt.arguments {
        match arguments.get(&declared.name) {
            Some(Value::String(_)) => {}
            None if !declared.required => {}
            None => {
                return Err(McpError::invalid_params(
                    format!(
                        "prompt {}: the argument {} is required",
                        prompt.name, declared.name
                    ),
                    None,
                ));
            }
            Some(other) => {
                return Err(McpError::invalid_params(
                    format!(
                        "prompt {}: the argument {} must be a string, got {other}",
                        prompt.name, declared.name
                    ),
                    None,
                ));
            }
        }
    }
    let text = prompt.build(&arguments).map_err(|error| {
        McpError::internal_error(format!("prompt {} failed: {error}", prompt.name), None)
    })?;
    Ok(GetPromptResult::new(vec![PromptMessage::new_text(
        Role::User,
        text,
    )]))
}

/// An rmcp [`ServerHandler`] serving agent tools, resources and prompts:
/// `tools/list` and `tools/call`, `resources/list` and `resources/read`,
/// `prompts/list` and `prompts/get`, each over the lists given at
/// construction, in their order, on one page.
///
/// Serve it on any rmcp transport, e.g. stdio:
/// `server.serve(rmcp::transport::stdio()).await?.waiting().await?`.
/// A host that wants a different `hostContext` per caller builds the tools,
/// and so a server, per caller: authorization stays with the host, which
/// decides the host context before the tools are built.
#[derive(Clone)]
pub struct IsomerMcpServer {
    tools: Vec<Tool>,
    resources: Vec<IsomerResource>,
    prompts: Vec<IsomerPrompt>,
    implementation: Implementation,
    instructions: Option<String>,
}

impl IsomerMcpServer {
    /// A server named `name` at `version` (its MCP `serverInfo`) over the
    /// three lists, with no instructions.
    pub fn new(
        name: impl Into<String>,
        version: impl Into<String>,
        tools: Vec<Tool>,
        resources: Vec<IsomerResource>,
        prompts: Vec<IsomerPrompt>,
    ) -> IsomerMcpServer {
        IsomerMcpServer {
            tools,
            resources,
            prompts,
            implementation: Implementation::new(name, version),
            instructions: None,
        }
    }

    /// Sets the human title of `serverInfo`.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> IsomerMcpServer {
        self.implementation = self.implementation.with_title(title);
        self
    }

    /// Sets the `instructions` the server hands a client at `initialize`.
    #[must_use]
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> IsomerMcpServer {
        self.instructions = Some(instructions.into());
        self
    }

    /// The tools, in the order they are listed.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// The resources, in the order they are listed.
    pub fn resources(&self) -> &[IsomerResource] {
        &self.resources
    }

    /// The prompts, in the order they are listed.
    pub fn prompts(&self) -> &[IsomerPrompt] {
        &self.prompts
    }
}

impl std::fmt::Debug for IsomerMcpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IsomerMcpServer")
            .field("tools", &self.tools)
            .field("resources", &self.resources)
            .field("prompts", &self.prompts)
            .field("implementation", &self.implementation)
            .field("instructions", &self.instructions)
            .finish()
    }
}

impl ServerHandler for IsomerMcpServer {
    /// Advertises the tools, resources and prompts capabilities (each only
    /// when its list is non-empty), `serverInfo` and the instructions.
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::default();
        if !self.tools.is_empty() {
            capabilities.tools = ServerCapabilities::builder().enable_tools().build().tools;
        }
        if !self.resources.is_empty() {
            capabilities.resources = ServerCapabilities::builder()
                .enable_resources()
                .build()
                .resources;
        }
        if !self.prompts.is_empty() {
            capabilities.prompts = ServerCapabilities::builder()
                .enable_prompts()
                .build()
                .prompts;
        }
        let config = ServerConfig::new(capabilities).with_server_info(self.implementation.clone());
        match &self.instructions {
            Some(instructions) => config.with_instructions(instructions.clone()),
            None => config,
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(list_tools_result(&self.tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let Some(tool) = self.tools.iter().find(|tool| tool.name == request.name) else {
            return Err(McpError::invalid_params(
                format!("tool {} not found", request.name),
                Some(json!({ "name": request.name })),
            ));
        };
        Ok(call_tool(tool, request.arguments).await.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Ok(ListResourcesResult::with_all_items(
            self.resources.iter().map(mcp_resource).collect(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let Some(resource) = self
            .resources
            .iter()
            .find(|resource| resource.uri == request.uri)
        else {
            return Err(McpError::resource_not_found(
                format!("resource {} not found", request.uri),
                Some(json!({ "uri": request.uri })),
            ));
        };
        Ok(read_resource_result(resource, &request.uri)?.into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        Ok(ListPromptsResult::with_all_items(
            self.prompts.iter().map(mcp_prompt).collect(),
        ))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        let Some(prompt) = self
            .prompts
            .iter()
            .find(|prompt| prompt.name == request.name)
        else {
            return Err(McpError::invalid_params(
                format!("prompt {} not found", request.name),
                Some(json!({ "name": request.name })),
            ));
        };
        Ok(get_prompt_result(prompt, request.arguments)?.into())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use isomer_agent_tools::PromptArgument;
    use serde_json::{Value, json};

    use super::*;

    /// A tool that answers its input as compact JSON text.
    fn echo(schema: Value) -> Tool {
        Tool::new("echo", "Answers its input.", schema, |input| {
            Box::pin(async move { ToolResult::text(input.to_string()) })
        })
    }

    fn keyed() -> Value {
        json!({
            "type": "object",
            "properties": { "word": { "type": "string" } },
            "required": ["word"]
        })
    }

    #[test]
    fn input_keys_are_the_schema_properties() {
        assert!(has_input_keys(&keyed()));
        assert!(!has_input_keys(
            &json!({"type": "object", "properties": {}})
        ));
        assert!(!has_input_keys(&json!({"type": "object"})));
        assert!(!has_input_keys(&json!({"properties": []})));
        assert!(!has_input_keys(&json!(true)));
    }

    #[test]
    fn a_keyless_tool_is_listed_with_the_empty_object_schema() {
        let tool = echo(json!({"type": "object", "properties": {}, "additionalProperties": false}));
        assert_eq!(
            serde_json::to_string(&mcp_tool(&tool)).unwrap(),
            r#"{"name":"echo","description":"Answers its input.","inputSchema":{"type":"object","properties":{}}}"#
        );
        let broken = echo(json!("not a schema"));
        assert_eq!(
            serde_json::to_value(mcp_tool(&broken)).unwrap()["inputSchema"],
            json!({"type": "object", "properties": {}})
        );
    }

    #[test]
    fn a_keyed_tool_is_listed_with_its_schema_and_title() {
        let tool = echo(keyed()).with_title("Echo");
        assert_eq!(
            serde_json::to_value(mcp_tool(&tool)).unwrap(),
            json!({
                "name": "echo",
                "title": "Echo",
                "description": "Answers its input.",
                "inputSchema": keyed()
            })
        );
    }

    #[tokio::test]
    async fn a_keyless_tool_runs_on_an_empty_object_whatever_it_is_sent() {
        let tool = echo(json!({"type": "object", "properties": {}}));
        for arguments in [None, Some(Map::new()), Some(object(json!({"stray": 1})))] {
            let answer = call_tool(&tool, arguments).await;
            assert_eq!(answer.content, [ContentBlock::text("{}")]);
            assert_eq!(answer.is_error, None);
        }
    }

    #[tokio::test]
    async fn a_keyed_tool_gets_the_arguments_checked_against_its_schema() {
        let tool = echo(keyed());
        let answer = call_tool(&tool, Some(object(json!({"word": "hi"})))).await;
        assert_eq!(answer.content, [ContentBlock::text(r#"{"word":"hi"}"#)]);
        let omitted = call_tool(&tool, None).await;
        assert_eq!(omitted.is_error, Some(true));
        assert_eq!(
            omitted.content,
            [ContentBlock::text(
                "the input does not match the input schema of tool \"echo\":\n\
                 - at the root: \"word\" is a required property"
            )]
        );
    }

    fn object(value: Value) -> JsonObject {
        match value {
            Value::Object(map) => map,
            other => panic!("not an object: {other}"),
        }
    }

    #[test]
    fn results_map_block_by_block_with_is_error_only_on_failure() {
        assert_eq!(
            serde_json::to_value(call_tool_result(ToolResult::text("done"))).unwrap(),
            json!({"resultType": "complete", "content": [{"type": "text", "text": "done"}]})
        );
        assert_eq!(
            serde_json::to_value(call_tool_result(ToolResult::error("no"))).unwrap(),
            json!({
                "resultType": "complete",
                "content": [{"type": "text", "text": "no"}],
                "isError": true
            })
        );
        assert_eq!(
            serde_json::to_value(call_tool_result(ToolResult::image(b"PNG", "image/png"))).unwrap()
                ["content"],
            json!([{"type": "image", "data": "UE5H", "mimeType": "image/png"}])
        );
        let pdf = ToolResult::resource("isomer://render/pdf", "application/pdf", b"%PDF");
        assert_eq!(
            serde_json::to_value(call_tool_result(pdf)).unwrap()["content"],
            json!([{
                "type": "resource",
                "resource": {"uri": "isomer://render/pdf", "mimeType": "application/pdf", "blob": "JVBERg=="}
            }])
        );
    }

    fn resource(read: Result<&'static str, &'static str>) -> IsomerResource {
        IsomerResource {
            name: "notes".to_owned(),
            uri: "isomer://notes".to_owned(),
            title: "Notes".to_owned(),
            description: "Some notes.".to_owned(),
            mime_type: "text/markdown".to_owned(),
            read: Arc::new(move || read.map(str::to_owned).map_err(Into::into)),
        }
    }

    #[test]
    fn resources_list_and_read_as_one_text_entry() {
        assert_eq!(
            serde_json::to_value(mcp_resource(&resource(Ok("# Notes")))).unwrap(),
            json!({
                "uri": "isomer://notes",
                "name": "notes",
                "title": "Notes",
                "description": "Some notes.",
                "mimeType": "text/markdown"
            })
        );
        let read = read_resource_result(&resource(Ok("# Notes")), "isomer://notes").unwrap();
        assert_eq!(
            read.contents,
            [ResourceContents::text("# Notes", "isomer://notes").with_mime_type("text/markdown")]
        );
        let failed =
            read_resource_result(&resource(Err("no catalog")), "isomer://notes").unwrap_err();
        assert_eq!(failed.code, rmcp::model::ErrorCode::INTERNAL_ERROR);
        assert_eq!(
            failed.message,
            "reading resource isomer://notes failed: no catalog"
        );
    }

    fn prompt(required: bool) -> IsomerPrompt {
        IsomerPrompt {
            name: "greet".to_owned(),
            title: "Greet".to_owned(),
            description: "A greeting.".to_owned(),
            arguments: vec![PromptArgument {
                name: "who".to_owned(),
                description: "Whom to greet.".to_owned(),
                required,
            }],
            args_schema: json!({"type": "object"}),
            build: Arc::new(|arguments| match arguments.get("who") {
                Some(Value::String(who)) if who == "nobody" => Err("nobody to greet".into()),
                Some(Value::String(who)) => Ok(format!("Hello, {who}.")),
                _ => Ok("Hello.".to_owned()),
            }),
        }
    }

    #[test]
    fn prompts_list_with_their_arguments() {
        assert_eq!(
            serde_json::to_value(mcp_prompt(&prompt(false))).unwrap(),
            json!({
                "name": "greet",
                "title": "Greet",
                "description": "A greeting.",
                "arguments": [{"name": "who", "description": "Whom to greet.", "required": false}]
            })
        );
    }

    #[test]
    fn a_prompt_answers_one_user_message_or_a_clear_error() {
        let text = |result: GetPromptResult| {
            assert_eq!(result.messages.len(), 1);
            assert_eq!(result.messages[0].role, Role::User);
            result.messages[0].content.as_text().unwrap().text.clone()
        };
        assert_eq!(
            text(get_prompt_result(&prompt(false), None).unwrap()),
            "Hello."
        );
        let ada = object(json!({"who": "Ada", "undeclared": 1}));
        assert_eq!(
            text(get_prompt_result(&prompt(false), Some(ada)).unwrap()),
            "Hello, Ada."
        );
        let missing = get_prompt_result(&prompt(true), None).unwrap_err();
        assert_eq!(missing.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        assert_eq!(
            missing.message,
            "prompt greet: the argument who is required"
        );
        let number =
            get_prompt_result(&prompt(false), Some(object(json!({"who": 7})))).unwrap_err();
        assert_eq!(number.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        assert_eq!(
            number.message,
            "prompt greet: the argument who must be a string, got 7"
        );
        let failed =
            get_prompt_result(&prompt(false), Some(object(json!({"who": "nobody"})))).unwrap_err();
        assert_eq!(failed.code, rmcp::model::ErrorCode::INTERNAL_ERROR);
        assert_eq!(failed.message, "prompt greet failed: nobody to greet");
    }
}
