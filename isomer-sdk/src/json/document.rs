//! [`Document`]: one answer as every check takes it.

use std::ops::Deref;
use std::sync::Arc;

use serde_json::Value;

use super::{DeepValue, JsonRefusal, clone_deep, drop_deep, reader};
use crate::budget::{InputBudget, InputUsage, Meter};

/// A JSON document, as every check takes it
/// ([`Runtime::check`](crate::Runtime::check)): its tree, shared through an
/// [`Arc`], and what reading its text counted.
///
/// - **Shared.** The typed forms a check makes hold their child
///   [`Node`](crate::Node)s as borrows into the tree carried with its `Arc`
///   (see [`Node`](crate::Node)) instead of copies, so a container's typed
///   form does not copy its subtree.
/// - **Counted.** Read from text with [`Document::parse_within`], it keeps
///   what reading counted, in the input budget's units: every value read,
///   including one a repeated key later replaced, so the tree holds no more
///   than the count. A check under a budget the count is within does not
///   measure the tree again. The tree cannot change while shared, so the
///   count stays true.
/// - **Dropped at any depth.** When this is the tree's last holder, the tree
///   drops without recursion, as a [`DeepValue`] does. A node a check made
///   (and kept past it, say in a renderer's cache) also holds the tree, and
///   drops it by `Value`'s own recursive drop when it is the last holder; a
///   check makes nodes only of a document within its input budget, so that
///   drop recurses at most as deep as the budget allows (64 levels by
///   default).
///
/// Dereferences to the tree's value.
#[derive(Debug)]
pub struct Document {
    /// Always `Some`, until [`Document::into_value`] takes it.
    tree: Option<Arc<Value>>,
    /// What reading the value's text counted, when it was read from text.
    read: Option<InputUsage>,
}

impl Document {
    /// A document of `value`, with no count of its text (a check under a
    /// budget measures it).
    pub fn new(value: Value) -> Self {
        Document {
            tree: Some(Arc::new(value)),
            read: None,
        }
    }

    /// Reads untrusted JSON text of any nesting depth within `budget`: the
    /// input budget enforced while reading, so hostile text never becomes a
    /// large value.
    ///
    /// Every value is counted as it is read. At the first one over a limit
    /// (with the default budget: a container at the 65th level, the 20,001st
    /// value, the character past 1,000,000) nothing more is built and what
    /// was built is dropped; the rest of the text is read to check its
    /// syntax and count it (one byte per open container), then read once
    /// more without building to name the limit upstream's walk meets first.
    /// Memory stays within the text plus the budget: a 6 MB text nested
    /// 1,000,000 deep, or a 20 MB array of 2,000,000 numbers, is refused
    /// holding a few megabytes beside the text.
    ///
    /// Within the budget the document holds the value
    /// [`parse_json`](super::parse_json) reads and what reading counted
    /// ([`Document::read_usage`]), which is what
    /// [`check_input_budget`](crate::check_input_budget) measures of the
    /// value, with two differences:
    /// - every value read counts, including one that a repeated key later
    ///   replaces (`{"a":[…20,000 values…],"a":1}` is refused here, accepted
    ///   by the value check, which sees only `{"a":1}`);
    /// - when several limits are crossed, sibling entries are ranked in the
    ///   order the text gives them, where upstream visits array-index keys
    ///   (`"0"`, `"1"`, …) before the others; the refusal can then name
    ///   another of the crossed limits. Text whose objects have no
    ///   array-index keys is ranked exactly as upstream ranks its value.
    ///
    /// # Errors
    /// [`JsonRefusal::Syntax`] when the text is not JSON (a syntax error
    /// anywhere wins over the budget, as `JSON.parse` runs before upstream's
    /// budget check); [`JsonRefusal::OverBudget`] when it is JSON over
    /// `budget`.
    pub fn parse_within(text: &str, budget: InputBudget) -> Result<Self, JsonRefusal> {
        let mut meter = Meter::new(budget);
        if let Some(value) = reader::read(text, Some(&mut meter), true)? {
            return Ok(Document {
                tree: Some(Arc::new(value)),
                read: Some(meter.usage()),
            });
        }
        let mut ranker = meter.ranker();
        reader::read(text, Some(&mut ranker), false)?;
        Err(JsonRefusal::OverBudget(ranker.refusal()))
    }

    /// What reading the document's text counted; `None` for a document
    /// made with [`Document::new`].
    pub fn read_usage(&self) -> Option<InputUsage> {
        self.read
    }

    /// The shared tree, for the typed forms a check makes.
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

impl From<Value> for Document {
    fn from(value: Value) -> Self {
        Document::new(value)
    }
}

impl From<&Value> for Document {
    /// A document of a deep copy of `value` ([`clone_deep`], safe at any
    /// depth): what a check or render of a borrowed value reads. Pass an
    /// owned value or a [`Document`] to spare the copy.
    fn from(value: &Value) -> Self {
        Document::new(clone_deep(value))
    }
}

impl From<&Document> for Document {
    /// Another holder of the same tree (an `Arc` clone, no copy) and the same
    /// read count.
    fn from(document: &Document) -> Self {
        Document {
            tree: Some(Arc::clone(document.tree())),
            read: document.read,
        }
    }
}

impl From<DeepValue> for Document {
    fn from(value: DeepValue) -> Self {
        Document::new(value.into_inner())
    }
}

impl Deref for Document {
    type Target = Value;

    fn deref(&self) -> &Value {
        self.tree()
    }
}

impl AsRef<Value> for Document {
    fn as_ref(&self) -> &Value {
        self.tree()
    }
}

impl Drop for Document {
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

    const UNLIMITED: InputBudget = InputBudget {
        depth: usize::MAX,
        values: usize::MAX,
        characters: usize::MAX,
    };

    #[test]
    fn reading_counts_every_value_read() {
        let document = Document::parse_within(r#"{"a": [1, "xy"], "a": true}"#, UNLIMITED).unwrap();
        assert_eq!(*document, json!({"a": true}));
        // The replaced array counts: root, array, 1, "xy", true.
        assert_eq!(
            document.read_usage(),
            Some(InputUsage {
                depth: 2,
                values: 5,
                characters: 1 + 1 + 2 + 1 + 4,
            })
        );
        assert_eq!(Document::new(json!(1)).read_usage(), None);
        // The errors are the reader's, as `parse_json` gives them.
        let Err(JsonRefusal::Syntax(error)) = Document::parse_within("[1,", UNLIMITED) else {
            panic!("not JSON");
        };
        assert_eq!(
            error.message,
            "EOF while parsing a value at line 1 column 3"
        );
        assert_eq!(Some(error), super::super::parse_json("[1,").err());
    }

    #[test]
    fn a_deep_document_is_shared_and_dropped_without_recursion() {
        let depth = 200_000;
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let document = Document::parse_within(&text, UNLIMITED).unwrap();
        assert_eq!(document.read_usage().map(|usage| usage.depth), Some(depth));
        drop(document);
        let document = Document::parse_within(&text, UNLIMITED).unwrap();
        let value = document.into_value();
        assert!(value.is_array());
    }

    #[test]
    fn text_over_the_budget_is_refused_with_the_budgets_message() {
        let text = format!("{}{}", "[".repeat(1_000), "]".repeat(1_000));
        let refusal = Document::parse_within(&text, InputBudget::default()).unwrap_err();
        assert_eq!(refusal.to_string(), "input nests deeper than 64 levels");
    }
}
