//! [`SharedValue`]: a value shared through an `Arc` while it is checked.

use std::ops::Deref;
use std::sync::Arc;

use serde_json::Value;

use super::{DeepValue, JsonSyntaxError, clone_deep, drop_deep, reader};
use crate::budget::{InputBudget, InputUsage, Meter};

/// A JSON value shared through an [`Arc`] for checking: the typed forms a
/// [`Runtime::check`](crate::Runtime::check) of it makes hold their child
/// [`Node`](crate::Node)s as pointers into it instead of copies (see
/// [`CheckInput`](crate::CheckInput)).
///
/// Read from text with [`SharedValue::parse`], it also keeps what reading
/// counted, in the input budget's units: every value read, including one a
/// repeated key later replaced, so the value holds no more than the count.
/// A check under a budget the count is within then does not measure the
/// value again. The value cannot change while shared, so the count stays
/// true.
///
/// Any depth: when this is the value's last holder, the value drops
/// without recursion, as a [`DeepValue`] does. A node a check made (and
/// kept past it, say in a renderer's cache) also holds the value, and
/// drops it by `Value`'s own recursive drop when it is the last holder;
/// a check makes nodes only of a value within its input budget, so that
/// drop recurses at most as deep as the budget allows. Dereferences to the
/// value.
#[derive(Debug)]
pub struct SharedValue {
    /// Always `Some`, until [`SharedValue::into_value`] takes it.
    tree: Option<Arc<Value>>,
    /// What reading the value's text counted, when it was read from text.
    read: Option<InputUsage>,
}

/// No limit: reading counts without refusing.
const UNLIMITED: InputBudget = InputBudget {
    depth: usize::MAX,
    values: usize::MAX,
    characters: usize::MAX,
};

impl SharedValue {
    /// Shares `value`, with no count of its text.
    pub fn new(value: Value) -> Self {
        SharedValue {
            tree: Some(Arc::new(value)),
            read: None,
        }
    }

    /// Reads JSON text as [`parse_json`](super::parse_json) does (any
    /// depth, the same value, the same errors), counting every value read.
    ///
    /// # Errors
    /// [`JsonSyntaxError`] when the text is not JSON.
    pub fn parse(text: &str) -> Result<Self, JsonSyntaxError> {
        let mut meter = Meter::new(UNLIMITED);
        let value = reader::read(text, Some(&mut meter), true)?.unwrap_or_default();
        Ok(SharedValue {
            tree: Some(Arc::new(value)),
            read: Some(meter.usage()),
        })
    }

    /// What reading the value's text counted; `None` for a value shared
    /// with [`SharedValue::new`].
    pub fn read_usage(&self) -> Option<InputUsage> {
        self.read
    }

    /// The shared value, for [`CheckInput`](crate::CheckInput).
    pub(crate) fn tree(&self) -> &Arc<Value> {
        self.tree
            .as_ref()
            .unwrap_or_else(|| unreachable!("only `into_value` takes the tree"))
    }

    /// The value, no longer shared: itself once nothing a check made holds
    /// it, else a copy.
    pub fn into_value(mut self) -> DeepValue {
        let tree = self
            .tree
            .take()
            .unwrap_or_else(|| unreachable!("only `into_value` takes the tree"));
        match Arc::try_unwrap(tree) {
            Ok(value) => DeepValue::new(value),
            Err(tree) => DeepValue::new(clone_deep(&tree)),
        }
    }
}

impl From<DeepValue> for SharedValue {
    fn from(value: DeepValue) -> Self {
        SharedValue::new(value.into_inner())
    }
}

impl Deref for SharedValue {
    type Target = Value;

    fn deref(&self) -> &Value {
        self.tree()
    }
}

impl Drop for SharedValue {
    /// Drops the value without recursion when this is its last holder.
    fn drop(&mut self) {
        if let Some(value) = self.tree.take().and_then(|tree| Arc::try_unwrap(tree).ok()) {
            drop_deep(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parsing_counts_every_value_read() {
        let shared = SharedValue::parse(r#"{"a": [1, "xy"], "a": true}"#).unwrap();
        assert_eq!(*shared, json!({"a": true}));
        // The replaced array counts: root, array, 1, "xy", true.
        assert_eq!(
            shared.read_usage(),
            Some(InputUsage {
                depth: 2,
                values: 5,
                characters: 1 + 1 + 2 + 1 + 4,
            })
        );
        assert_eq!(SharedValue::new(json!(1)).read_usage(), None);
        // The errors are the reader's, as `parse_json` gives them.
        let error = SharedValue::parse("[1,").unwrap_err();
        assert_eq!(
            error.message,
            "EOF while parsing a value at line 1 column 3"
        );
        assert_eq!(Some(error), super::super::parse_json("[1,").err());
    }

    #[test]
    fn a_deep_value_is_shared_and_dropped_without_recursion() {
        let depth = 200_000;
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let shared = SharedValue::parse(&text).unwrap();
        assert_eq!(shared.read_usage().map(|usage| usage.depth), Some(depth));
        drop(shared);
        let shared = SharedValue::parse(&text).unwrap();
        let value = shared.into_value();
        assert!(value.is_array());
    }
}
