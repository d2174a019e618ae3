//! View input schemas: the JSON Schema (draft 2020-12) of a view's input
//! type, derived with schemars, nested types inlined.

use schemars::JsonSchema;
use serde_json::Value;

/// The input schema of `I`: draft 2020-12, nested types inlined (recursive
/// ones stay `$ref`s), optional fields without `null`, no Rust numeric
/// `format`s, no root `title` (the Rust type's name is no part of the
/// contract).
pub(crate) fn input_schema<I: JsonSchema>() -> Value {
    let mut schema = crate::schema::node::schema_settings()
        .with(|settings| settings.inline_subschemas = true)
        .into_generator()
        .into_root_schema_for::<I>()
        .to_value();
    crate::schema::node::normalize(&mut schema);
    if let Value::Object(root) = &mut schema {
        root.remove("title");
    }
    schema
}
