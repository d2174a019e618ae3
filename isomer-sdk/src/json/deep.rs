//! Deep values: [`DeepValue`], which drops its value without recursion,
//! and the iterative copy, comparison and drop of any owned `Value`
//! (`Value`'s own `Clone`, `PartialEq` and `Drop` recurse once per level).

use std::ops::{Deref, DerefMut};

use serde_json::Value;

/// A `serde_json::Value` of any depth that is dropped without recursion.
///
/// Dereferences to the value. [`DeepValue::into_inner`] gives the value back
/// (its owner is then responsible for dropping it safely, e.g. with
/// [`drop_deep`]).
///
/// Cloning, comparing and debug-printing are iterative too (`Value`'s own
/// `Clone`, `PartialEq` and `Debug` recurse once per level); `Debug` prints
/// the compact JSON text: `DeepValue([1,{"a":null}])`.
#[derive(Default)]
pub struct DeepValue(Value);

impl Clone for DeepValue {
    fn clone(&self) -> Self {
        DeepValue(clone_deep(&self.0))
    }
}

impl PartialEq for DeepValue {
    fn eq(&self, other: &Self) -> bool {
        eq_deep(&self.0, &other.0)
    }
}

impl PartialEq<Value> for DeepValue {
    fn eq(&self, other: &Value) -> bool {
        eq_deep(&self.0, other)
    }
}

impl std::fmt::Debug for DeepValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DeepValue({})", crate::js::json_stringify(&self.0))
    }
}

/// A copy of `value` made without recursion (`Value::clone` recurses once
/// per level). Objects keep their key order.
pub fn clone_deep(value: &Value) -> Value {
    enum Task<'a> {
        Copy(&'a Value),
        Array(usize),
        Object(Vec<&'a String>),
    }
    let mut tasks = vec![Task::Copy(value)];
    let mut done: Vec<Value> = Vec::new();
    while let Some(task) = tasks.pop() {
        match task {
            Task::Copy(Value::Array(items)) => {
                tasks.push(Task::Array(items.len()));
                tasks.extend(items.iter().rev().map(Task::Copy));
            }
            Task::Copy(Value::Object(map)) => {
                tasks.push(Task::Object(map.keys().collect()));
                tasks.extend(map.values().rev().map(Task::Copy));
            }
            Task::Copy(leaf) => done.push(leaf.clone()),
            Task::Array(len) => {
                let items = done.split_off(done.len() - len);
                done.push(Value::Array(items));
            }
            Task::Object(keys) => {
                let items = done.split_off(done.len() - keys.len());
                done.push(Value::Object(
                    keys.into_iter().cloned().zip(items).collect(),
                ));
            }
        }
    }
    done.pop().unwrap_or(Value::Null)
}

/// `a == b` computed without recursion, with `Value`'s meaning: arrays
/// equal element-wise, objects equal as key sets with equal values (key
/// order ignored), numbers equal as `serde_json::Number`s.
pub(crate) fn eq_deep(a: &Value, b: &Value) -> bool {
    // Pairs of containers still to compare: scalars are compared as they
    // are met, so a node whose fields are all scalars needs no stack.
    let mut pending = Vec::new();
    if !compare_or_defer(a, b, &mut pending) {
        return false;
    }
    while let Some((a, b)) = pending.pop() {
        // A value is equal to itself; no need to read it.
        if std::ptr::eq(a, b) {
            continue;
        }
        match (a, b) {
            (Value::Array(left), Value::Array(right)) => {
                if left.len() != right.len() {
                    return false;
                }
                for (item, other) in left.iter().zip(right) {
                    if !compare_or_defer(item, other, &mut pending) {
                        return false;
                    }
                }
            }
            (Value::Object(left), Value::Object(right)) => {
                if left.len() != right.len() {
                    return false;
                }
                // A copy lists its keys in its original's order: pair the
                // entries by position while the keys line up, then look the
                // rest up by key. A key left over cannot be one already
                // paired, since keys are unique.
                let mut entries = left.iter().zip(right);
                let mut unpaired = None;
                for ((key, item), (other_key, other)) in entries.by_ref() {
                    if key != other_key {
                        unpaired = Some((key, item));
                        break;
                    }
                    if !compare_or_defer(item, other, &mut pending) {
                        return false;
                    }
                }
                let rest = unpaired.into_iter().chain(entries.map(|(entry, _)| entry));
                for (key, item) in rest {
                    match right.get(key) {
                        Some(other) if compare_or_defer(item, other, &mut pending) => {}
                        _ => return false,
                    }
                }
            }
            // A container against a scalar, or an array against an object.
            _ => return false,
        }
    }
    true
}

/// Compares `a` and `b` now when neither is a container, else leaves the
/// pair in `pending` (what a container holds is compared when it is
/// popped); false when the comparison made now finds them different.
fn compare_or_defer<'v>(
    a: &'v Value,
    b: &'v Value,
    pending: &mut Vec<(&'v Value, &'v Value)>,
) -> bool {
    match (a, b) {
        (Value::Array(_) | Value::Object(_), _) | (_, Value::Array(_) | Value::Object(_)) => {
            pending.push((a, b));
            true
        }
        (left, right) => left == right,
    }
}

impl DeepValue {
    /// Wraps an owned value so that dropping it cannot overflow the stack.
    pub fn new(value: Value) -> Self {
        DeepValue(value)
    }

    /// The value, unwrapped. Dropping the result recurses once per level;
    /// pass it to [`drop_deep`] when it may be deep.
    pub fn into_inner(mut self) -> Value {
        std::mem::take(&mut self.0)
    }
}

impl From<Value> for DeepValue {
    fn from(value: Value) -> Self {
        DeepValue(value)
    }
}

impl Deref for DeepValue {
    type Target = Value;

    fn deref(&self) -> &Value {
        &self.0
    }
}

impl DerefMut for DeepValue {
    fn deref_mut(&mut self) -> &mut Value {
        &mut self.0
    }
}

impl AsRef<Value> for DeepValue {
    fn as_ref(&self) -> &Value {
        &self.0
    }
}

impl Drop for DeepValue {
    fn drop(&mut self) {
        drop_deep(std::mem::take(&mut self.0));
    }
}

/// Drops `value` without recursion: containers are emptied onto a heap stack
/// before they are freed, so no drop nests more than one level. Safe for any
/// depth on any thread; costs one pass over the value.
pub fn drop_deep(value: Value) {
    let flat = match &value {
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
        _ => true,
    };
    if flat {
        // A leaf or an empty container drops without nesting as it is, and
        // needs no stack (an unwrapped `DeepValue` leaves a `null` here).
        return;
    }
    let mut pending = vec![value];
    while let Some(mut value) = pending.pop() {
        match &mut value {
            Value::Array(items) => pending.append(items),
            Value::Object(map) => {
                pending.extend(std::mem::take(map).into_iter().map(|(_, item)| item));
            }
            _ => {}
        }
        // `value` is now a leaf or an empty container: dropping it is flat.
    }
}
