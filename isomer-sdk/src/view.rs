//! Registered views: the trusted way to get a composition (upstream
//! `defineView` and the view registry).
//!
//! A view has an id, a title, a description, the questions it answers, an
//! optional input type (its JSON Schema is derived with schemars) and an
//! async builder that receives the host's context and the checked input.
//!
//! ```
//! use isomer_sdk::View;
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//! use serde_json::json;
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct Input { service: String }
//!
//! let view: View<()> = View::builder("latency", "Service latency")
//!     .answers(["How slow is checkout?"])
//!     .build_with_input(|_ctx: (), input: Input| async move {
//!         json!({ "type": "view", "title": input.service, "body": [] })
//!     });
//! assert_eq!(view.summary().id, "latency");
//! ```

use std::future::Future;
use std::sync::{Arc, RwLock};

use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::budget::{InputBudget, check_input_budget};
use crate::catalog::ViewSummary;
use crate::error::{IsomerError, ValidationError};
use crate::json::Document;
use crate::validate::CheckedValidation;

type Handler<C> =
    Arc<dyn Fn(C, Value) -> Result<BoxFuture<'static, Value>, Vec<ValidationError>> + Send + Sync>;

/// A registered view. Cheap to clone.
pub struct View<C> {
    summary: ViewSummary,
    input: Option<Arc<jsonschema::Validator>>,
    handler: Handler<C>,
}

impl<C> Clone for View<C> {
    fn clone(&self) -> Self {
        View {
            summary: self.summary.clone(),
            input: self.input.clone(),
            handler: Arc::clone(&self.handler),
        }
    }
}

impl<C> std::fmt::Debug for View<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("View")
            .field("summary", &self.summary)
            .finish_non_exhaustive()
    }
}

impl<C: Send + 'static> View<C> {
    /// Starts a view with this id and title (the description defaults to the
    /// title).
    pub fn builder(id: impl Into<String>, title: impl Into<String>) -> ViewBuilder<C> {
        ViewBuilder {
            id: id.into(),
            title: title.into(),
            description: None,
            answers: Vec::new(),
            _context: std::marker::PhantomData,
        }
    }

    /// The summary `list()` returns.
    pub fn summary(&self) -> &ViewSummary {
        &self.summary
    }
}

/// The builder [`View::builder`] returns.
#[must_use = "call .build(..) or .build_with_input(..) to get the view"]
pub struct ViewBuilder<C> {
    id: String,
    title: String,
    description: Option<String>,
    answers: Vec<String>,
    _context: std::marker::PhantomData<fn(C)>,
}

impl<C: Send + 'static> ViewBuilder<C> {
    /// What the view shows (defaults to the title).
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Natural-language questions the view answers (for routing).
    pub fn answers<I, S>(mut self, answers: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.answers = answers.into_iter().map(Into::into).collect();
        self
    }

    fn summary(&self, input_schema: Option<Value>) -> ViewSummary {
        ViewSummary {
            id: self.id.clone(),
            title: self.title.clone(),
            description: self
                .description
                .clone()
                .unwrap_or_else(|| self.title.clone()),
            answers: self.answers.clone(),
            input_schema,
        }
    }

    /// A view without input schema: the builder receives the input as given
    /// (after the budget check), `{}` when the request passes none.
    pub fn build<F, Fut>(self, builder: F) -> View<C>
    where
        F: Fn(C, Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Value> + Send + 'static,
    {
        View {
            summary: self.summary(None),
            input: None,
            handler: Arc::new(move |context, input| Ok(Box::pin(builder(context, input)))),
        }
    }

    /// A view whose input is `I`: its JSON Schema (draft 2020-12, nested
    /// types inlined) is the summary's `inputSchema`; a request's input must
    /// pass it and deserialize into `I`.
    pub fn build_with_input<I, F, Fut>(self, builder: F) -> View<C>
    where
        I: DeserializeOwned + JsonSchema + 'static,
        F: Fn(C, I) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Value> + Send + 'static,
    {
        let schema = crate::schema::input::input_schema::<I>();
        let compiled = crate::schema::node::compile(&schema).ok().map(Arc::new);
        View {
            summary: self.summary(Some(schema)),
            input: compiled,
            handler: Arc::new(move |context, input| {
                let typed = I::deserialize(&input).map_err(|error| {
                    vec![ValidationError::new("", format!("Invalid input: {error}"))]
                })?;
                Ok(Box::pin(builder(context, typed)))
            }),
        }
    }
}

/// The answer to a view request (upstream `ViewResponse`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ViewResponse {
    /// The view's summary.
    pub view: ViewSummary,
    /// The built composition (what the validation checked, and its checked
    /// copy when the budget did not refuse it).
    pub composition: Value,
    /// The validation of the built composition: reported, not enforced.
    pub validation: CheckedValidation,
}

/// The views of a runtime (upstream `viewRegistry`): registration is live,
/// so views added after construction are listed at once.
pub struct ViewRegistry<C> {
    views: RwLock<Vec<View<C>>>,
    budget: InputBudget,
}

impl<C: Send + 'static> ViewRegistry<C> {
    pub(crate) fn new(budget: InputBudget) -> Self {
        ViewRegistry {
            views: RwLock::new(Vec::new()),
            budget,
        }
    }

    /// Registers a view.
    ///
    /// # Errors
    /// [`IsomerError::DuplicateView`] (`View "<id>" is already registered`).
    pub fn register(&self, view: View<C>) -> Result<(), IsomerError> {
        let mut views = self
            .views
            .write()
            .unwrap_or_else(|poison| poison.into_inner());
        if views.iter().any(|v| v.summary.id == view.summary.id) {
            return Err(IsomerError::DuplicateView {
                id: view.summary.id.clone(),
            });
        }
        views.push(view);
        Ok(())
    }

    /// Every view's summary, registration order.
    pub fn list(&self) -> Vec<ViewSummary> {
        let views = self
            .views
            .read()
            .unwrap_or_else(|poison| poison.into_inner());
        views.iter().map(|view| view.summary.clone()).collect()
    }

    /// One view's summary.
    pub fn get(&self, id: &str) -> Option<ViewSummary> {
        let views = self
            .views
            .read()
            .unwrap_or_else(|poison| poison.into_inner());
        views
            .iter()
            .find(|view| view.summary.id == id)
            .map(|view| view.summary.clone())
    }

    fn find(&self, id: &str) -> Option<View<C>> {
        let views = self
            .views
            .read()
            .unwrap_or_else(|poison| poison.into_inner());
        views.iter().find(|view| view.summary.id == id).cloned()
    }

    /// Checks `input` and runs the view's builder; `validate` checks the
    /// built composition. Steps (upstream `request`): unknown id; input
    /// budget; input schema (translated messages, as in validation); `I`
    /// deserialization; build; validate (reported, not enforced).
    ///
    /// # Errors
    /// - [`IsomerError::UnknownView`] (`Unknown view "<id>"`);
    /// - [`IsomerError::ViewInputInvalid`] carrying the findings (a budget
    ///   refusal keeps its `INPUT_OVER_BUDGET` code).
    pub(crate) async fn request_with(
        &self,
        id: &str,
        context: C,
        input: Value,
        validate: impl FnOnce(&Document) -> CheckedValidation,
    ) -> Result<ViewResponse, IsomerError> {
        // The input is the model's and may nest without limit: the unknown id
        // and the budget refusal drop it flat; past the budget check it nests
        // at most the budget's depth.
        let Some(view) = self.find(id) else {
            crate::json::drop_deep(input);
            return Err(IsomerError::UnknownView { id: id.to_owned() });
        };
        let invalid = |errors| IsomerError::ViewInputInvalid {
            view_id: id.to_owned(),
            errors,
        };
        if let Err(refusal) = check_input_budget(&input, self.budget) {
            crate::json::drop_deep(input);
            return Err(invalid(vec![refusal]));
        }
        if let Some(schema) = &view.input {
            let schema_value = view.summary.input_schema.as_ref().unwrap_or(&Value::Null);
            let errors = crate::validate::messages::check_against(schema, schema_value, &input, "");
            if !errors.is_empty() {
                return Err(invalid(errors));
            }
        }
        let future = (view.handler)(context, input).map_err(invalid)?;
        // The check reads the built value as a document, sharing its nodes;
        // the response holds the value itself and the validation's copy.
        let built = Document::new(future.await);
        let validation = validate(&built);
        let composition = built.into_value().into_inner();
        Ok(ViewResponse {
            view: view.summary.clone(),
            composition,
            validation,
        })
    }
}
