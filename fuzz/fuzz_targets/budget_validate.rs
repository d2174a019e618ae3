//! Arbitrary JSON text through the budget enforced while reading
//! (`Document::parse_within`, `Runtime::validate_json`), and its value (parsed
//! by the deep-safe parser) through `check_input_budget`, the runtime's
//! `parse` and `validate`, and every surface in `collect` mode (so invalid
//! input reaches the renderers too), on the slides runtime.

#![no_main]

use std::sync::OnceLock;

use isomer_sdk::{
    Document, InputBudget, JsonRefusal, RenderOptions, Runtime, Surface, ValidationMode,
    check_input_budget, parse_json,
};
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};

fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| isomer_slides::runtime().expect("the slides runtime builds"))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Seeds are recorded model answers, most of them fenced: read the
    // fence's content, as the eval pipeline does.
    let text = isomer_evals::strip_code_fence(text);
    let tight = InputBudget {
        depth: 4,
        values: 16,
        characters: 64,
    };
    let runtime = runtime();
    // Read within the budget: a syntax error exactly where parse_json has
    // one, and within the budget the value parse_json builds.
    let read = Document::parse_within(text, InputBudget::default());
    let read_tight = Document::parse_within(text, tight).is_ok();
    let validated_json = runtime.validate_json(text);
    let Ok(value) = parse_json(text) else {
        assert!(matches!(read, Err(JsonRefusal::Syntax(_))), "{read:?}");
        return;
    };
    match &read {
        Ok(within) => assert!(**within == *value),
        Err(JsonRefusal::OverBudget(_)) => {}
        Err(JsonRefusal::Syntax(error)) => {
            panic!("parse_json read what the budgeted reader did not: {error}")
        }
    }
    // A value the reader accepts is within the budget by its own measure
    // too, so validate_json does not measure it again and equals validate.
    let within = check_input_budget(&value, InputBudget::default()).is_ok();
    assert!(
        within || read.is_err(),
        "the reader accepted a value over the budget"
    );
    let within_tight = check_input_budget(&value, tight).is_ok();
    assert!(
        within_tight || !read_tight,
        "the reader accepted a value over the tight budget"
    );
    let parsed = runtime.parse(&*value);
    if let Some(composition) = &parsed.composition {
        let _ = runtime.validate(composition);
    }
    let validated = runtime.validate(&*value);
    if read.is_ok() {
        assert!(
            validated_json.as_ref().ok() == Some(&validated),
            "validate_json differs"
        );
    }
    drop(read);
    let options = RenderOptions {
        on_validation_error: Some(ValidationMode::Collect),
        ..RenderOptions::default()
    };
    for surface in Surface::ALL {
        let _ = runtime.render(surface, &*value, &options);
    }
    // The value as a lone body node as well: most fuzz inputs are not a
    // whole composition, and this puts them under the node schemas.
    // Built by moving the copy in: `json!` would serialize an interpolated
    // value again, recursively, which overflows the stack on deep input.
    let mut view = Map::new();
    view.insert("type".to_owned(), Value::from("view"));
    view.insert(
        "body".to_owned(),
        Value::Array(vec![isomer_sdk::clone_deep(&value)]),
    );
    let wrapped = Value::Object(view);
    let _ = runtime.validate(&wrapped);
    let _ = runtime.render(Surface::Html, &wrapped, &options);
    isomer_sdk::drop_deep(wrapped);
});
