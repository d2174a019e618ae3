//! What a host passes: [`IsomerGuideOptions`] (what the guide, resources and
//! prompt read) and [`IsomerToolsOptions`] (those plus the frame, host
//! formats, `heading` and host context), as upstream's
//! `IsomerToolsOptions` holds them.

use std::sync::Arc;

use isomer_sdk::AuthoringProfile;
use serde_json::Value;

use crate::check::ToolsFrame;
use crate::format::HostFormat;
use crate::runtime::ToolsRuntime;

/// The options the authoring guide is built from (upstream
/// `IsomerGuideOptions`). [`crate::create_isomer_resources`] and
/// [`crate::create_isomer_prompts`] take these.
pub struct IsomerGuideOptions<R: ToolsRuntime + ?Sized> {
    /// The runtime whose catalog, groups and views the guide indexes.
    pub runtime: Arc<R>,
    /// The prose under `## Guide`, printed as given; `None` uses
    /// [`crate::guide::DEFAULT_ISOMER_GUIDE`].
    pub guide: Option<String>,
    /// Host rules, one bullet each under `## Rules`, each collapsed to one
    /// line; the section is left out when empty.
    pub rules: Vec<String>,
    /// Host example compositions under `## Examples`, trimmed to the
    /// profile's budget (one, or none for the router profile), top-level
    /// `meta` removed.
    pub examples: Vec<Value>,
    /// The framing; default `compose-from-primitives` (not the sdk's
    /// default, `general`).
    pub profile: AuthoringProfile,
}

impl<R: ToolsRuntime + ?Sized> IsomerGuideOptions<R> {
    /// Guide options with every default: built-in guide, no rules, no
    /// examples, profile `compose-from-primitives`.
    pub fn new(runtime: Arc<R>) -> Self {
        IsomerGuideOptions {
            runtime,
            guide: None,
            rules: Vec::new(),
            examples: Vec::new(),
            profile: AuthoringProfile::ComposeFromPrimitives,
        }
    }

    /// Replaces the guide prose.
    pub fn with_guide(mut self, guide: impl Into<String>) -> Self {
        self.guide = Some(guide.into());
        self
    }

    /// Sets the host rules.
    pub fn with_rules<I: IntoIterator<Item = S>, S: Into<String>>(mut self, rules: I) -> Self {
        self.rules = rules.into_iter().map(Into::into).collect();
        self
    }

    /// Sets the host examples.
    pub fn with_examples(mut self, examples: Vec<Value>) -> Self {
        self.examples = examples;
        self
    }

    /// Sets the profile.
    pub fn with_profile(mut self, profile: AuthoringProfile) -> Self {
        self.profile = profile;
        self
    }
}

impl<R: ToolsRuntime + ?Sized> Clone for IsomerGuideOptions<R> {
    fn clone(&self) -> Self {
        IsomerGuideOptions {
            runtime: Arc::clone(&self.runtime),
            guide: self.guide.clone(),
            rules: self.rules.clone(),
            examples: self.examples.clone(),
            profile: self.profile,
        }
    }
}

/// Everything [`crate::create_isomer_tools`] reads (upstream
/// `IsomerToolsOptions`).
pub struct IsomerToolsOptions<R: ToolsRuntime + ?Sized> {
    /// The runtime and the guide options.
    pub authoring: IsomerGuideOptions<R>,
    /// An extra body rule, run on every validation, render and built view.
    pub frame: Option<Arc<dyn ToolsFrame>>,
    /// Host render formats, offered after the runtime's four in the order
    /// JavaScript gives an object's keys (integer-like names first, ascending;
    /// the rest in insertion order). A name that is a runtime format fails
    /// creation with `DUPLICATE_FORMAT`.
    pub formats: Vec<(String, HostFormat)>,
    /// Passed as `heading` to the text, markdown, html and slack renders
    /// (default true). Host formats never receive it.
    pub heading: bool,
    /// Handed to every view request (upstream `hostContext`).
    pub host_context: R::HostContext,
    /// How many errors, and how many warnings, a tool answer lists before it
    /// counts the rest (default [`DEFAULT_MAX_FINDINGS`], 100). See
    /// [`cap_findings`](crate::check::cap_findings).
    pub max_findings: usize,
}

/// The default of [`IsomerToolsOptions::max_findings`]: 100. A model fixes a
/// composition a few errors at a time; 9,990 unknown nodes would otherwise
/// answer 4 MB.
pub const DEFAULT_MAX_FINDINGS: usize = 100;

impl<R: ToolsRuntime + ?Sized> IsomerToolsOptions<R> {
    /// Options for a runtime whose host context has a default (`()` for
    /// most): no frame, no host formats, `heading: true`, at most
    /// [`DEFAULT_MAX_FINDINGS`] findings listed.
    pub fn new(runtime: Arc<R>) -> Self
    where
        R::HostContext: Default,
    {
        IsomerToolsOptions::with_host_context(runtime, R::HostContext::default())
    }

    /// Options that hand `host_context` to every view request. A runtime
    /// whose context type has no default can only be given tools this way
    /// (upstream: `hostContext` is required when the type excludes
    /// `undefined`).
    pub fn with_host_context(runtime: Arc<R>, host_context: R::HostContext) -> Self {
        IsomerToolsOptions {
            authoring: IsomerGuideOptions::new(runtime),
            frame: None,
            formats: Vec::new(),
            heading: true,
            host_context,
            max_findings: DEFAULT_MAX_FINDINGS,
        }
    }

    /// Sets how many errors and warnings a tool answer lists
    /// ([`IsomerToolsOptions::max_findings`]).
    pub fn with_max_findings(mut self, max_findings: usize) -> Self {
        self.max_findings = max_findings;
        self
    }

    /// Sets the frame whose body rule every check runs.
    pub fn with_frame(mut self, frame: impl ToolsFrame + 'static) -> Self {
        self.frame = Some(Arc::new(frame));
        self
    }

    /// Adds a host format; a name given twice keeps its first position and
    /// takes the newer format, as assigning an object key does.
    pub fn with_format(mut self, name: impl Into<String>, format: HostFormat) -> Self {
        let name = name.into();
        match self
            .formats
            .iter_mut()
            .find(|(existing, _)| *existing == name)
        {
            Some(slot) => slot.1 = format,
            None => self.formats.push((name, format)),
        }
        self
    }

    /// Sets `heading`.
    pub fn with_heading(mut self, heading: bool) -> Self {
        self.heading = heading;
        self
    }

    /// Replaces the guide prose.
    pub fn with_guide(mut self, guide: impl Into<String>) -> Self {
        self.authoring = self.authoring.with_guide(guide);
        self
    }

    /// Sets the host rules.
    pub fn with_rules<I: IntoIterator<Item = S>, S: Into<String>>(mut self, rules: I) -> Self {
        self.authoring = self.authoring.with_rules(rules);
        self
    }

    /// Sets the host examples.
    pub fn with_examples(mut self, examples: Vec<Value>) -> Self {
        self.authoring = self.authoring.with_examples(examples);
        self
    }

    /// Sets the profile.
    pub fn with_profile(mut self, profile: AuthoringProfile) -> Self {
        self.authoring = self.authoring.with_profile(profile);
        self
    }
}
