//! What the agent tests share: the slides runtime and the real agent tools
//! over it, configured as the slides MCP server configures them (the deck
//! frame, headings off, the pack's guide and rules).

#![allow(dead_code)]

use std::sync::Arc;

use isomer_agent_tools::{IsomerToolsOptions, create_isomer_tools};
use isomer_sdk::{Runtime, Tool};

/// The slides runtime, shared by the tools and the scorer.
pub fn slides_runtime() -> Arc<Runtime> {
    Arc::new(isomer_slides::runtime().expect("the slides runtime builds"))
}

/// The pack's rules, one per line, without their `N. ` numbers (the guide
/// prints each as a bullet).
pub fn slides_rules() -> Vec<String> {
    isomer_slides::AUTHORING_RULES
        .lines()
        .map(|line| match line.split_once(". ") {
            Some((number, rule)) if number.chars().all(|c| c.is_ascii_digit()) => rule.to_owned(),
            _ => line.to_owned(),
        })
        .collect()
}

/// The agent tools over `runtime`: `isomer_authoring_guide`,
/// `isomer_describe_primitives`, `isomer_validate`, `isomer_render`.
pub fn slides_tools(runtime: &Arc<Runtime>) -> Vec<Tool> {
    let options = IsomerToolsOptions::new(Arc::clone(runtime))
        .with_frame(isomer_slides::slide_deck_frame())
        .with_heading(false)
        .with_guide(isomer_slides::AUTHORING_GUIDE)
        .with_rules(slides_rules());
    create_isomer_tools(options).expect("the slides tools build")
}
