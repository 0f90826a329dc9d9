//! [`SchemaBuilder`]: the schema of Rust record types, as `#[derive(Record)]` describes them.

use std::any::TypeId;
use std::collections::HashMap;

use super::{FieldDef, RecordId, Schema};
use crate::error::{Error, Result};

/// Builds the [`Schema`] of Rust record types, each registered once even when it refers to
/// itself; used by `#[derive(Record)]`.
#[derive(Debug, Default)]
pub struct SchemaBuilder {
    schema: Schema,
    seen: HashMap<TypeId, RecordId>,
    /// The first record whose fields name a record not registered here.
    error: Option<Error>,
}

impl SchemaBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        SchemaBuilder::default()
    }

    /// Registers the record type `T` named `name`, describing its fields with `fields`
    /// unless it is already registered (or being registered, for recursive types).
    pub fn record<T: ?Sized + 'static>(
        &mut self,
        name: &str,
        fields: impl FnOnce(&mut SchemaBuilder) -> Vec<FieldDef>,
    ) -> RecordId {
        self.record_in::<T>("", name, fields)
    }

    /// As [`SchemaBuilder::record`], for a record type declared in the dotted DDL `module`
    /// (`#[record(module = "a.b")]`); the module shows in [`super::RecordType::full_name`], never
    /// in the signature.
    pub fn record_in<T: ?Sized + 'static>(
        &mut self,
        module: &str,
        name: &str,
        fields: impl FnOnce(&mut SchemaBuilder) -> Vec<FieldDef>,
    ) -> RecordId {
        if let Some(&id) = self.seen.get(&TypeId::of::<T>()) {
            return id;
        }
        let id = self.schema.declare(module, name);
        self.seen.insert(TypeId::of::<T>(), id);
        let fields = fields(self);
        // Derived fields refer only to records registered here (each field's `field_type`
        // goes through this builder); a hand-written `describe` may name others.
        if let Err(e) = self.schema.define(id, fields) {
            self.error.get_or_insert(e);
        }
        id
    }

    /// The finished schema; an [`ErrorKind::Schema`](crate::ErrorKind::Schema) error when a
    /// record's fields named a record not registered with this builder (as a hand-written
    /// [`crate::Record::describe`] can; a derived one cannot).
    pub fn finish(self) -> Result<Schema> {
        match self.error {
            None => Ok(self.schema),
            Some(e) => Err(e),
        }
    }
}
