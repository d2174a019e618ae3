//! A pack: a vocabulary of primitives under one id (upstream
//! `definePrimitivePack`).
//!
//! ```
//! # use isomer_sdk::{Markdown, Pack, Primitive};
//! # use serde_json::json;
//! # let note = Primitive::builder::<serde_json::Value>("note")
//! #     .schema_json(json!({"type": "object", "properties": {"text": {"type": "string"}}}))
//! #     .purpose("A note.").example(json!({"type": "note", "text": "x"}))
//! #     .text(|_, _| String::new()).markdown(|_, _| Markdown::new()).build().unwrap();
//! let pack = Pack::new("notes").primitive(note).group("Text", ["note"]).build().unwrap();
//! assert_eq!(pack.id(), "notes");
//! ```

use std::collections::HashSet;

use crate::catalog::PrimitiveGroup;
use crate::error::IsomerError;
use crate::primitive::Primitive;
use crate::schema::authoring::AuthoringOptions;

/// A checked vocabulary: an id, at least one primitive (unique types), its
/// catalog groups and its authoring contributions. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Pack {
    id: String,
    primitives: Vec<Primitive>,
    groups: Vec<PrimitiveGroup>,
    authoring: AuthoringOptions,
}

impl Pack {
    /// Starts a pack with this id (ids are unique within a runtime).
    #[allow(clippy::new_ret_no_self)]
    pub fn new(id: impl Into<String>) -> PackBuilder {
        PackBuilder {
            id: id.into(),
            primitives: Vec::new(),
            groups: Vec::new(),
            authoring: AuthoringOptions::default(),
        }
    }

    /// The pack's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The primitives, in declaration order.
    pub fn primitives(&self) -> &[Primitive] {
        &self.primitives
    }

    /// The catalog groups: the explicit ones, or else one per distinct
    /// primitive `group` in first-seen order.
    pub fn groups(&self) -> &[PrimitiveGroup] {
        &self.groups
    }

    /// `(def id, description)` pairs applied to the authoring schema.
    pub fn describe(&self) -> &[(String, String)] {
        &self.authoring.describe
    }

    /// `"<def id>.<property>"` entries removed from the authoring schema.
    pub fn omit_properties(&self) -> &[String] {
        &self.authoring.omit_properties
    }

    /// Both lists above, as a runtime merges them.
    pub(crate) fn authoring(&self) -> &AuthoringOptions {
        &self.authoring
    }
}

/// The builder [`Pack::new`] returns.
#[must_use = "call .build() to get the pack"]
pub struct PackBuilder {
    id: String,
    primitives: Vec<Primitive>,
    groups: Vec<PrimitiveGroup>,
    authoring: AuthoringOptions,
}

impl PackBuilder {
    /// Adds a primitive.
    pub fn primitive(mut self, primitive: Primitive) -> Self {
        self.primitives.push(primitive);
        self
    }

    /// Adds several primitives.
    pub fn primitives<I: IntoIterator<Item = Primitive>>(mut self, primitives: I) -> Self {
        self.primitives.extend(primitives);
        self
    }

    /// Adds a catalog group: a title and its types, in index order.
    pub fn group<I, S>(mut self, title: impl Into<String>, types: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.groups.push(PrimitiveGroup {
            title: title.into(),
            types: types.into_iter().map(Into::into).collect(),
        });
        self
    }

    /// Sets the description of an authoring-schema def (a primitive type or
    /// a nested def name), applied last, after every other
    /// step of the authoring projection, as upstream does. Use it to state
    /// rules the JSON Schema cannot carry (refinements).
    pub fn describe(mut self, def_id: impl Into<String>, description: impl Into<String>) -> Self {
        self.authoring.describe(def_id, description);
        self
    }

    /// Removes `"<def id>.<property>"` from the authoring schema (the
    /// validator still accepts it).
    pub fn omit_property(mut self, entry: impl Into<String>) -> Self {
        self.authoring.omit_property(entry);
        self
    }

    /// Checks and builds the pack.
    ///
    /// # Errors
    /// - [`IsomerError::EmptyPack`] when no primitive was added;
    /// - [`IsomerError::DuplicatePrimitiveType`] naming every type declared
    ///   twice (each once, first-seen order);
    /// - [`IsomerError::InvalidPackGroups`] when a group names a type the
    ///   pack does not declare, or a type sits in two groups.
    pub fn build(self) -> Result<Pack, IsomerError> {
        if self.primitives.is_empty() {
            return Err(IsomerError::EmptyPack { pack: self.id });
        }
        let duplicates = repeated_names(self.primitives.iter().map(Primitive::type_name));
        if !duplicates.is_empty() {
            return Err(IsomerError::DuplicatePrimitiveType { types: duplicates });
        }
        let declared: HashSet<&str> = self.primitives.iter().map(Primitive::type_name).collect();
        let mut grouped: HashSet<&str> = HashSet::new();
        for group in &self.groups {
            for type_name in &group.types {
                if !declared.contains(type_name.as_str()) {
                    return Err(IsomerError::InvalidPackGroups {
                        pack: self.id.clone(),
                        reason: format!(
                            "group {} names the unknown type {}",
                            crate::js::quote_text(&group.title),
                            crate::js::quote_text(type_name)
                        ),
                    });
                }
                if !grouped.insert(type_name) {
                    return Err(IsomerError::InvalidPackGroups {
                        pack: self.id.clone(),
                        reason: format!(
                            "type {} sits in more than one group",
                            crate::js::quote_text(type_name)
                        ),
                    });
                }
            }
        }
        let groups = if self.groups.is_empty() {
            groups_from_catalog(&self.primitives)
        } else {
            self.groups
        };
        Ok(Pack {
            id: self.id,
            primitives: self.primitives,
            groups,
            authoring: self.authoring,
        })
    }
}

/// Every name that occurs more than once, once each, in first-seen order:
/// the repeated primitive types of a pack or a runtime, the repeated pack
/// ids of a runtime.
pub(crate) fn repeated_names<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut seen = HashSet::new();
    let mut repeated: Vec<String> = Vec::new();
    for name in names {
        if !seen.insert(name) && !repeated.iter().any(|r| r == name) {
            repeated.push(name.to_owned());
        }
    }
    repeated
}

fn groups_from_catalog(primitives: &[Primitive]) -> Vec<PrimitiveGroup> {
    let mut groups: Vec<PrimitiveGroup> = Vec::new();
    for primitive in primitives {
        let Some(title) = &primitive.catalog_entry().group else {
            continue;
        };
        let type_name = primitive.type_name().to_owned();
        match groups.iter_mut().find(|group| &group.title == title) {
            Some(group) => group.types.push(type_name),
            None => groups.push(PrimitiveGroup {
                title: title.clone(),
                types: vec![type_name],
            }),
        }
    }
    groups
}
