//! [`RuntimeBuilder`]: packs, frames, views, formats and authoring-schema
//! edits gathered, then checked and assembled into a [`Runtime`] in
//! upstream's order.

use std::sync::OnceLock;

use crate::budget::InputBudget;
use crate::error::IsomerError;
use crate::frame::Frame;
use crate::inventory::Inventory;
use crate::pack::{Pack, repeated_names};
use crate::primitive::Primitive;
use crate::schema::authoring::AuthoringOptions;
use crate::surface::RUNTIME_SURFACES;
use crate::view::{View, ViewRegistry};

use super::assembled::Runtime;

impl Runtime<()> {
    /// Starts a runtime whose views take no host context. For a context
    /// type, use [`RuntimeBuilder::new`] (`RuntimeBuilder::<MyContext>::new()`).
    pub fn builder() -> RuntimeBuilder<()> {
        RuntimeBuilder::new()
    }
}

/// The builder of a [`Runtime`].
#[must_use = "call .build() to get the runtime"]
pub struct RuntimeBuilder<C> {
    packs: Vec<Pack>,
    frames: Option<Vec<Frame>>,
    default_frame: Option<String>,
    views: Vec<View<C>>,
    budget: InputBudget,
    formats: Vec<String>,
    authoring: AuthoringOptions,
}

impl<C: Send + 'static> Default for RuntimeBuilder<C> {
    fn default() -> Self {
        RuntimeBuilder::new()
    }
}

impl<C: Send + 'static> RuntimeBuilder<C> {
    /// An empty builder.
    pub fn new() -> Self {
        RuntimeBuilder {
            packs: Vec::new(),
            frames: None,
            default_frame: None,
            views: Vec::new(),
            budget: InputBudget::default(),
            formats: Vec::new(),
            authoring: AuthoringOptions::default(),
        }
    }

    /// Adds a pack (packs are additive: their types are merged).
    pub fn pack(mut self, pack: Pack) -> Self {
        self.packs.push(pack);
        self
    }

    /// Adds several packs.
    pub fn packs<I: IntoIterator<Item = Pack>>(mut self, packs: I) -> Self {
        self.packs.extend(packs);
        self
    }

    /// Registers a frame under its name (a later frame of the same name
    /// replaces the earlier one, as a JS object literal would).
    pub fn frame(mut self, frame: Frame) -> Self {
        let frames = self.frames.get_or_insert_with(Vec::new);
        frames.retain(|existing| existing.name() != frame.name());
        frames.push(frame);
        self
    }

    /// Registers a frame map at once; an empty one is refused at build
    /// ([`IsomerError::EmptyFrames`]).
    pub fn frames<I: IntoIterator<Item = Frame>>(mut self, frames: I) -> Self {
        self.frames.get_or_insert_with(Vec::new);
        for frame in frames {
            self = self.frame(frame);
        }
        self
    }

    /// Names the frame used when a render names none (required with two or
    /// more frames).
    pub fn default_frame(mut self, name: impl Into<String>) -> Self {
        self.default_frame = Some(name.into());
        self
    }

    /// Registers a view.
    pub fn view(mut self, view: View<C>) -> Self {
        self.views.push(view);
        self
    }

    /// Overrides the input budget of `parse`, `validate`, every surface and
    /// view input (default 64 / 20,000 / 1,000,000).
    pub fn input_budget(mut self, budget: InputBudget) -> Self {
        self.budget = budget;
        self
    }

    /// Adds a format the host ships besides the runtime's surfaces (for
    /// example a rasterizer's `png`), reported by capabilities.
    pub fn format(mut self, name: impl Into<String>) -> Self {
        self.formats.push(name.into());
        self
    }

    /// Sets an authoring-schema def description; wins over the packs'.
    pub fn describe(mut self, def_id: impl Into<String>, description: impl Into<String>) -> Self {
        self.authoring.describe(def_id, description);
        self
    }

    /// Removes `"<def id>.<property>"` from the authoring schema.
    pub fn omit_property(mut self, entry: impl Into<String>) -> Self {
        self.authoring.omit_property(entry);
        self
    }

    /// Checks and assembles the runtime, in upstream's order.
    ///
    /// # Errors
    /// - [`IsomerError::EmptyPacks`] without packs;
    /// - [`IsomerError::EmptyFrames`] for an empty frame map;
    /// - [`IsomerError::UnknownFrame`] when the default frame is not
    ///   registered (or named without frames);
    /// - [`IsomerError::AmbiguousFrame`] with two or more frames and no
    ///   default;
    /// - [`IsomerError::DuplicatePackId`] naming every repeated id;
    /// - [`IsomerError::DuplicatePrimitiveType`] naming every type two packs
    ///   declare;
    /// - [`IsomerError::DuplicateView`] for a repeated view id;
    /// - [`IsomerError::DuplicateFormat`] for a host format named like a
    ///   runtime surface or given twice.
    pub fn build(self) -> Result<Runtime<C>, IsomerError> {
        if self.packs.is_empty() {
            return Err(IsomerError::EmptyPacks);
        }
        let frames = match self.frames {
            Some(frames) if frames.is_empty() => return Err(IsomerError::EmptyFrames),
            Some(frames) => frames,
            None => Vec::new(),
        };
        let default_frame = match (&self.default_frame, frames.len()) {
            (Some(name), _) => {
                if !frames.iter().any(|frame| frame.name() == name) {
                    return Err(IsomerError::UnknownFrame { name: name.clone() });
                }
                Some(name.clone())
            }
            (None, 0) => None,
            (None, 1) => Some(frames[0].name().to_owned()),
            (None, count) => return Err(IsomerError::AmbiguousFrame { count }),
        };
        let duplicate_ids = repeated_names(self.packs.iter().map(Pack::id));
        if !duplicate_ids.is_empty() {
            return Err(IsomerError::DuplicatePackId { ids: duplicate_ids });
        }
        let duplicates = repeated_names(
            self.packs
                .iter()
                .flat_map(|pack| pack.primitives())
                .map(Primitive::type_name),
        );
        if !duplicates.is_empty() {
            return Err(IsomerError::DuplicatePrimitiveType { types: duplicates });
        }
        let mut formats: Vec<String> = RUNTIME_SURFACES.iter().map(|s| (*s).to_owned()).collect();
        for format in self.formats {
            if formats.contains(&format) {
                return Err(IsomerError::DuplicateFormat { name: format });
            }
            formats.push(format);
        }
        let primitives: Vec<Primitive> = self
            .packs
            .iter()
            .flat_map(|pack| pack.primitives().iter().cloned())
            .collect();
        let inventory = Inventory::new(primitives);
        let groups = self
            .packs
            .iter()
            .flat_map(|pack| pack.groups().iter().cloned())
            .collect();
        let mut authoring = AuthoringOptions::default();
        for pack in &self.packs {
            authoring.extend(pack.authoring());
        }
        authoring.extend(&self.authoring);
        let views = ViewRegistry::new(self.budget);
        for view in self.views {
            views.register(view)?;
        }
        Ok(Runtime {
            packs: self.packs,
            inventory,
            groups,
            frames,
            default_frame,
            views,
            budget: self.budget,
            formats,
            composition_schema: OnceLock::new(),
            authoring_schema: OnceLock::new(),
            authoring,
        })
    }
}
