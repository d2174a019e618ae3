//! Translating `jsonschema` error kinds into Isomer findings:
//! the message catalogue, paths and custom messages. jsonschema's own
//! English never reaches a finding.

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::paths::LocationSegment;
use serde_json::Value;

use crate::error::ValidationError;
use crate::js::{format_json_number, name_text};
use crate::schema::node::{ERROR_MESSAGE_KEYWORD, MAX_LENGTH_MARK, MIN_LENGTH_MARK};
use crate::validate::order::{Seg, key_for};

/// One translated issue with its traversal-order key (relative to the
/// schema's root value).
pub(crate) struct Issue {
    pub key: Vec<u64>,
    pub segments: Vec<Seg>,
    pub message: String,
}

/// What the translation needs to know about the value being checked.
pub(crate) struct Subject<'a> {
    /// The schema document (refs resolve inside it).
    pub schema: &'a Value,
    /// The checked value.
    pub instance: &'a Value,
    /// For a body node: its declared fields (for `; its fields are …`).
    pub node_fields: Option<&'a [String]>,
}

/// Every issue of `instance` against `compiled`, translated, in traversal
/// order (schema key order; an object's unrecognized keys after its
/// fields).
pub(crate) fn issues(compiled: &jsonschema::Validator, subject: &Subject<'_>) -> Vec<Issue> {
    // The common case (a valid value) costs one boolean check: jsonschema's
    // `is_valid` skips building errors and locations, and answers exactly
    // when `iter_errors` yields nothing.
    if compiled.is_valid(subject.instance) {
        return Vec::new();
    }
    let raw: Vec<jsonschema::ValidationError<'_>> =
        compiled.iter_errors(subject.instance).collect();
    // Zod reports a literal/enum mismatch alone: a type error at the same
    // place is not a separate issue.
    let enum_paths: Vec<String> = raw
        .iter()
        .filter(|e| {
            matches!(
                e.kind(),
                ValidationErrorKind::Enum { .. } | ValidationErrorKind::Constant { .. }
            )
        })
        .map(|e| e.instance_path().as_str().to_owned())
        .collect();
    let mut out = Vec::new();
    for error in &raw {
        if matches!(error.kind(), ValidationErrorKind::Type { .. })
            && enum_paths
                .iter()
                .any(|p| p == error.instance_path().as_str())
        {
            continue;
        }
        let mut segments: Vec<Seg> = error
            .instance_path()
            .segments()
            .map(|segment| match segment {
                LocationSegment::Property(name) => Seg::Key(name.into_owned()),
                LocationSegment::Index(index) => Seg::Index(index),
            })
            .collect();
        let schema_path: Vec<String> = error
            .schema_path()
            .segments()
            .map(|segment| match segment {
                LocationSegment::Property(name) => name.into_owned(),
                LocationSegment::Index(index) => index.to_string(),
            })
            .collect();
        let keyword_schema = resolve_pointer(
            subject.schema,
            &schema_path[..schema_path.len().saturating_sub(1)],
        );
        let custom = |keyword: &str| keyword_schema.and_then(|s| custom_message(s, keyword));
        // Zod runs an array's or object's own checks after its elements
        // and fields: those issues sort after everything inside.
        let mut terminal: Option<u64> = match error.kind() {
            ValidationErrorKind::MinItems { .. }
            | ValidationErrorKind::MaxItems { .. }
            | ValidationErrorKind::UniqueItems
            | ValidationErrorKind::Contains
            | ValidationErrorKind::MinProperties { .. }
            | ValidationErrorKind::MaxProperties { .. } => Some(u64::MAX - 1),
            _ => None,
        };
        let message = match error.kind() {
            ValidationErrorKind::Required { property } => {
                let name = property.as_str().unwrap_or_default().to_owned();
                let property_schema = keyword_schema
                    .and_then(|s| s.get("properties"))
                    .and_then(|p| p.get(&name))
                    .map(|s| crate::schema::resolve_refs(subject.schema, s));
                segments.push(Seg::Key(name));
                match property_schema.and_then(allowed_values) {
                    Some(values) => one_of(&values),
                    None => "is required".to_owned(),
                }
            }
            ValidationErrorKind::Enum { options } => {
                one_of(options.as_array().map(Vec::as_slice).unwrap_or(&[]))
            }
            ValidationErrorKind::Constant { expected_value } => {
                one_of(std::slice::from_ref(expected_value.as_ref()))
            }
            ValidationErrorKind::AdditionalProperties { unexpected } => {
                terminal = Some(u64::MAX - 1);
                let at_node = segments.is_empty();
                let object = error.instance();
                let mut keys: Vec<&String> = unexpected.iter().collect();
                if let Value::Object(map) = object.as_ref() {
                    let order: Vec<&String> =
                        crate::js::js_property_order(map).map(|(k, _)| k).collect();
                    keys.sort_by_key(|key| order.iter().position(|k| k == key));
                }
                let listed: Vec<String> = keys.iter().map(|k| name_text(k)).collect();
                let mut message = format!("has unrecognized key(s): {}", listed.join(", "));
                if at_node && let Some(fields) = subject.node_fields {
                    if fields.is_empty() {
                        message.push_str("; it declares no fields");
                    } else {
                        let fields: Vec<String> = fields.iter().map(|f| name_text(f)).collect();
                        message.push_str(&format!("; its fields are {}", fields.join(", ")));
                    }
                }
                message
            }
            ValidationErrorKind::Custom { message, .. }
                if let Some(limit) = message.strip_prefix(MIN_LENGTH_MARK) =>
            {
                custom("minLength").unwrap_or_else(|| match limit {
                    "1" => "must not be empty".to_owned(),
                    n => format!("must be at least {n} characters"),
                })
            }
            ValidationErrorKind::Custom { message, .. }
                if let Some(limit) = message.strip_prefix(MAX_LENGTH_MARK) =>
            {
                custom("maxLength").unwrap_or_else(|| format!("must be at most {limit} characters"))
            }
            kind => {
                custom(kind.keyword()).unwrap_or_else(|| default_message(kind, error.instance()))
            }
        };
        let mut key = key_for(subject.schema, &segments);
        if let Some(terminal) = terminal {
            key.push(terminal);
        }
        out.push(Issue {
            key,
            segments,
            message,
        });
    }
    out.sort_by(|a, b| a.key.cmp(&b.key));
    out
}

/// Checks a standalone value (a view input) against a schema, as findings
/// with paths under `base`, in traversal order.
pub(crate) fn check_against(
    compiled: &jsonschema::Validator,
    schema: &Value,
    instance: &Value,
    base: &str,
) -> Vec<ValidationError> {
    let subject = Subject {
        schema,
        instance,
        node_fields: None,
    };
    issues(compiled, &subject)
        .into_iter()
        .map(|issue| ValidationError::new(format_path(base, &issue.segments), issue.message))
        .collect()
}

/// Upstream `formatPath(segments, base)`: an index appends `[n]`; a key
/// appends `.<key>`, or just `<key>` when the path so far is empty. Keys are
/// printed raw.
pub(crate) fn format_path(base: &str, segments: &[Seg]) -> String {
    let mut out = base.to_owned();
    for segment in segments {
        match segment {
            Seg::Index(index) => out.push_str(&format!("[{index}]")),
            Seg::Key(key) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
        }
    }
    out
}

/// `must be one of: a, b` with strings through `nameText` and other values
/// as JS `String()` prints them.
fn one_of(values: &[Value]) -> String {
    let listed: Vec<String> = values.iter().map(js_string).collect();
    format!("must be one of: {}", listed.join(", "))
}

fn js_string(value: &Value) -> String {
    match value {
        Value::String(text) => name_text(text),
        Value::Number(number) => format_json_number(number),
        Value::Bool(flag) => flag.to_string(),
        Value::Null => "null".to_owned(),
        Value::Array(items) => items.iter().map(js_string).collect::<Vec<_>>().join(","),
        Value::Object(_) => "[object Object]".to_owned(),
    }
}

/// The allowed values of a literal/enum schema (`const` or `enum`).
fn allowed_values(schema: &Value) -> Option<Vec<Value>> {
    if let Some(constant) = schema.get("const") {
        return Some(vec![constant.clone()]);
    }
    schema.get("enum").and_then(Value::as_array).cloned()
}

/// Zod's name of a JSON value's type, for `received <type>`.
fn received(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn limit_text(limit: &Value) -> String {
    match limit {
        Value::Number(number) => format_json_number(number),
        other => other.to_string(),
    }
}

/// The catalogue entry of a kind without custom message.
fn default_message(kind: &ValidationErrorKind, instance: &Value) -> String {
    match kind {
        ValidationErrorKind::Type { kind } => match kind {
            TypeKind::Single(expected) => {
                let expected = expected.to_string();
                let expected = match (expected.as_str(), instance) {
                    ("integer", Value::Number(_)) => "int".to_owned(),
                    ("integer", _) => "number".to_owned(),
                    _ => expected,
                };
                format!(
                    "Invalid input: expected {expected}, received {}",
                    received(instance)
                )
            }
            TypeKind::Multiple(_) => "Invalid input".to_owned(),
        },
        ValidationErrorKind::MinLength { limit } => match limit {
            1 => "must not be empty".to_owned(),
            n => format!("must be at least {n} characters"),
        },
        ValidationErrorKind::MaxLength { limit } => format!("must be at most {limit} characters"),
        ValidationErrorKind::MinItems { limit } => match limit {
            1 => "must not be empty".to_owned(),
            n => format!("must have at least {n} items"),
        },
        ValidationErrorKind::MaxItems { limit } => format!("must have at most {limit} items"),
        ValidationErrorKind::Minimum { limit }
        | ValidationErrorKind::ExclusiveMinimum { limit } => {
            format!("must be at least {}", limit_text(limit))
        }
        ValidationErrorKind::Maximum { limit }
        | ValidationErrorKind::ExclusiveMaximum { limit } => {
            format!("must be at most {}", limit_text(limit))
        }
        ValidationErrorKind::Format { format } => format!("Invalid {}", format_name(format)),
        ValidationErrorKind::Pattern { pattern } => {
            format!("Invalid string: must match pattern /{pattern}/")
        }
        ValidationErrorKind::MultipleOf { multiple_of } => {
            format!(
                "Invalid number: must be a multiple of {}",
                crate::js::format_js_number(*multiple_of)
            )
        }
        _ => "Invalid input".to_owned(),
    }
}

/// Zod 4's display names of string formats.
fn format_name(format: &str) -> &str {
    match format {
        "email" => "email address",
        "uri" | "url" => "URL",
        "uuid" => "UUID",
        "date-time" => "ISO datetime",
        "date" => "ISO date",
        "time" => "ISO time",
        "duration" => "ISO duration",
        "ipv4" => "IPv4 address",
        "ipv6" => "IPv6 address",
        other => other,
    }
}

/// A custom message the schema set for `keyword` (`errorMessage` as a
/// string applies to every keyword; as an object, per keyword).
fn custom_message(schema: &Value, keyword: &str) -> Option<String> {
    match schema.get(ERROR_MESSAGE_KEYWORD)? {
        Value::String(message) => Some(message.clone()),
        Value::Object(per_keyword) => per_keyword
            .get(keyword)
            .and_then(Value::as_str)
            .map(str::to_owned),
        _ => None,
    }
}

/// Follows a schema location (keyword steps, possibly through `$ref`)
/// inside the document.
fn resolve_pointer<'a>(document: &'a Value, steps: &[String]) -> Option<&'a Value> {
    let mut current = document;
    for step in steps {
        if step == "$ref" {
            current = crate::schema::follow_ref(document, current)?;
            continue;
        }
        current = match current {
            Value::Object(map) => map.get(step)?,
            Value::Array(items) => items.get(step.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(current)
}
