//! The agent `step` adapter: an eval's conversation and tools in Chat Completions form,
//! and one turn's answer back.

use isomer_evals::BoxError;
use isomer_evals::agent::{
    AgentMessage, AgentStep, AgentStepRequest, AgentStepResult, AgentToolCall, AgentToolSpec,
};
use serde_json::{Value, json};

use crate::ChatClient;

pub(crate) fn step(client: ChatClient) -> AgentStep<'static> {
    AgentStep::new(move |request: AgentStepRequest| {
        let client = client.clone();
        async move {
            let tools: Vec<Value> = request.tools.iter().map(tool).collect();
            let messages = messages(&request.system, &request.messages);
            let completion = client.complete(messages, tools).await?;
            Ok::<_, BoxError>(AgentStepResult {
                text: completion.text,
                tool_calls: completion
                    .tool_calls
                    .into_iter()
                    .map(|call| AgentToolCall {
                        id: call.id,
                        name: call.name,
                        input: call.input,
                    })
                    .collect(),
                usage: crate::agent_usage(completion.usage),
                raw: None,
            })
        }
    })
}

/// `{"type":"function","function":{"name","description","parameters"}}`.
fn tool(spec: &AgentToolSpec) -> Value {
    json!({
        "type": "function",
        "function": {
            "name": spec.name,
            "description": spec.description,
            "parameters": spec.parameters,
        },
    })
}

/// The system message, then each message of the conversation: the user's request, each
/// assistant turn with its `tool_calls` (arguments as JSON text), and one `tool` message
/// per result.
fn messages(system: &str, conversation: &[AgentMessage]) -> Vec<Value> {
    let mut messages = vec![json!({"role": "system", "content": system})];
    for message in conversation {
        match message {
            AgentMessage::User { content } => {
                messages.push(json!({"role": "user", "content": content}));
            }
            AgentMessage::Assistant {
                text, tool_calls, ..
            } => {
                let calls: Vec<Value> = tool_calls
                    .iter()
                    .map(|call| {
                        json!({
                            "id": call.id,
                            "type": "function",
                            "function": {"name": call.name, "arguments": call.input.to_string()},
                        })
                    })
                    .collect();
                let mut turn = json!({"role": "assistant", "content": text});
                if !calls.is_empty() {
                    turn["tool_calls"] = Value::Array(calls);
                }
                messages.push(turn);
            }
            AgentMessage::Tool { results } => {
                for result in results {
                    messages.push(json!({
                        "role": "tool",
                        "tool_call_id": result.call_id,
                        "content": result.text(),
                    }));
                }
            }
        }
    }
    messages
}

#[cfg(test)]
mod tests {
    use super::*;
    use isomer_evals::agent::AgentToolResult;
    use isomer_sdk::ToolContent;

    #[test]
    fn a_conversation_becomes_chat_messages() {
        let conversation = [
            AgentMessage::User {
                content: "Show the queue.".to_owned(),
            },
            AgentMessage::Assistant {
                text: String::new(),
                tool_calls: vec![AgentToolCall {
                    id: "c1".to_owned(),
                    name: "isomer_guide".to_owned(),
                    input: json!({}),
                }],
                raw: None,
            },
            AgentMessage::Tool {
                results: vec![AgentToolResult {
                    call_id: "c1".to_owned(),
                    name: "isomer_guide".to_owned(),
                    content: vec![
                        ToolContent::Text {
                            text: "a".to_owned(),
                        },
                        ToolContent::Text {
                            text: "b".to_owned(),
                        },
                    ],
                    is_error: false,
                }],
            },
        ];
        assert_eq!(
            messages("sys", &conversation),
            [
                json!({"role": "system", "content": "sys"}),
                json!({"role": "user", "content": "Show the queue."}),
                json!({"role": "assistant", "content": "", "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "isomer_guide", "arguments": "{}"}}
                ]}),
                json!({"role": "tool", "tool_call_id": "c1", "content": "a\nb"}),
            ]
        );
    }
}
