//! The one mapping of Hadoop record types to Arrow types, which the decoder, the encoder
//! and everything above them use.
//!
//! | Hadoop | Arrow |
//! | --- | --- |
//! | `byte` | `Int8` |
//! | `boolean` | `Boolean` |
//! | `int` | `Int32` |
//! | `long` | `Int64` |
//! | `float` | `Float32` |
//! | `double` | `Float64` |
//! | `ustring` | `Utf8` (`Utf8View` at the top of a record with [`MappingOptions::string_view`]) |
//! | `buffer` | `Binary` |
//! | `vector<T>` | `List<T>` (item field `item`) |
//! | `map<K, V>` | `Map<K, V>` (entries `entries`, fields `key` and `value`), entries in Hadoop's key order |
//! | record | `Struct`, one field per record field, named as in the DDL |
//!
//! **Nulls.** Hadoop has none: every field is non-nullable. With
//! [`MappingOptions::nullable`] (jute's nullable types, what `rcc --nullable` means), `ustring`,
//! `buffer` and `vector` are nullable wherever they stand, except as map keys, which Arrow
//! (and Java's `TreeMap`) never allows to be null.
//!
//! **Map order.** The entries of every map are in Hadoop's key order, Java's `compareTo` of the
//! key type as the runtime's writers order them (strings by UTF-16 units, `float`/`double`
//! keys by `Float.compare`, record keys by their generated `compareTo`), without duplicate
//! keys. The decoder puts input that is out of order into that order as Java's `TreeMap`
//! would (the last value of a repeated key wins); the encoder refuses maps that are not in
//! it. The Arrow type says `keys_sorted: false`, because Arrow's own order of keys is not
//! Hadoop's.
//!
//! **Recursive records.** Arrow has no recursive types. A record type that holds itself
//! (through a vector or a map, the only way the DDL allows) maps as a `Struct` down to the
//! first place where it would repeat inside itself; there the field (or the vector item, map
//! key or map value) is `Binary`, each value one whole record in Hadoop's binary encoding (in
//! jute's with [`MappingOptions::nullable`], which can hold the nulls). The field's metadata
//! says so: [`TYPE_KEY`] is the record's full name and [`ENCODING_KEY`] the encoding. The
//! decoder writes those bytes and the encoder reads them back, so such records round-trip
//! byte for byte like any other.
//!
//! **Metadata.** Every field carries [`TYPE_KEY`]: its Hadoop type as the DDL spells it
//! (`map<ustring, vector<m.Point>>`). The schema carries [`RECORD_KEY`] (the record type's
//! full name), [`SIGNATURE_KEY`] (Hadoop's type signature) and, with nullable types,
//! [`NULLABLE_KEY`]. A file read back can so be checked against the schema.
//!
//! ```
//! use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
//! use hadoop_record_arrow::mapping::{arrow_schema, MappingOptions, TYPE_KEY};
//! use arrow_schema::DataType;
//!
//! let mut schema = Schema::new();
//! let id = schema.add(RecordType::new("m", "R", vec![
//!     FieldDef::new("n", FieldType::Int),
//!     FieldDef::new("tags", FieldType::Vector(Box::new(FieldType::String))),
//! ]))?;
//! let arrow = arrow_schema(&schema, id, MappingOptions::default())?;
//! assert_eq!(arrow.field(0).data_type(), &DataType::Int32);
//! assert!(!arrow.field(0).is_nullable());
//! assert_eq!(arrow.field(1).metadata()[TYPE_KEY], "vector<ustring>");
//! assert_eq!(arrow.metadata()["hadoop.record"], "m.R");
//! # Ok::<(), hadoop_record::Error>(())
//! ```

use std::collections::HashMap;
use std::sync::Arc;

use arrow_schema::{DataType, Field, Fields};
use hadoop_record::schema::{FieldType, RecordId, RecordType, Schema};
use hadoop_record::Format;

/// Field metadata: the field's Hadoop type as the DDL spells it.
pub const TYPE_KEY: &str = "hadoop.type";
/// Field metadata of a recursive record reference stored as `Binary`: the encoding of the
/// bytes, `binary` or `jute`.
pub const ENCODING_KEY: &str = "hadoop.encoding";
/// Schema metadata: the full name (`module.Class`) of the record type.
pub const RECORD_KEY: &str = "hadoop.record";
/// Schema metadata: Hadoop's type signature of the record type.
pub const SIGNATURE_KEY: &str = "hadoop.signature";
/// Schema metadata, present (`true`) when jute's nullable types map to nullable fields.
pub const NULLABLE_KEY: &str = "hadoop.nullable";

hadoop_record::__options! {
    /// Options of the mapping.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct MappingOptions {
        /// jute's nullable types: `ustring`, `buffer` and `vector` map to nullable fields
        /// (never as map keys).
        nullable / with_nullable: copy bool = false;
        /// The record's own `ustring` fields map to `Utf8View` (Arrow's string views, which
        /// hold a string of up to 12 bytes in the view itself) rather than `Utf8`: what
        /// DataFusion and Polars compare, hash and group fastest, and DataFusion's own
        /// choice for Parquet. Strings inside vectors, maps and nested records stay `Utf8`.
        string_view / with_string_view: copy bool = false;
    }
}

impl MappingOptions {
    /// The encoding in which a recursive record reference is stored: Hadoop's binary, or
    /// jute's when nulls must be held.
    pub fn recursive_encoding(self) -> Format {
        if self.nullable {
            Format::Jute
        } else {
            Format::Binary
        }
    }
}

/// The Arrow schema of record type `record`: one field per record field. An
/// [`ErrorKind::Schema`](hadoop_record::ErrorKind::Schema) error when the schema has no
/// record `record`.
pub fn arrow_schema(
    schema: &Schema,
    record: RecordId,
    options: MappingOptions,
) -> Result<arrow_schema::Schema, hadoop_record::Error> {
    let signature = schema.signature(record)?;
    let mut mapper = Mapper::new(schema, options);
    let fields: Fields = mapper
        .record_fields(record)
        .iter()
        .map(|f| top_level(f.as_ref().clone(), options))
        .collect();
    let mut metadata = HashMap::from([
        (
            RECORD_KEY.to_owned(),
            record_type(schema, record).full_name(),
        ),
        (SIGNATURE_KEY.to_owned(), signature.into()),
    ]);
    if options.nullable {
        metadata.insert(NULLABLE_KEY.to_owned(), "true".to_owned());
    }
    Ok(arrow_schema::Schema::new_with_metadata(fields, metadata))
}

/// The Arrow type of a value of Hadoop type `ty` at the top of a record (see the module
/// documentation); a record type that holds itself is cut where it repeats. An
/// [`ErrorKind::Schema`](hadoop_record::ErrorKind::Schema) error when `ty` names a record the
/// schema lacks.
pub fn data_type(
    schema: &Schema,
    ty: &FieldType,
    options: MappingOptions,
) -> Result<DataType, hadoop_record::Error> {
    schema.check(ty)?;
    let field = Mapper::new(schema, options).field("", ty, false);
    Ok(top_level(field, options).data_type().clone())
}

/// Record `id` of `schema`, for an id the crate checked where it came in (the public
/// functions that take one return an error for an id the schema lacks) or one of the
/// schema's own fields names (a schema holds every record its fields name).
pub(crate) fn record_type(schema: &Schema, id: RecordId) -> &RecordType {
    schema
        .record(id)
        .expect("record ids are checked where they enter the crate")
}

/// The DDL spelling of `ty`, for messages (a type of the schema's own fields).
pub(crate) fn type_name(schema: &Schema, ty: &FieldType) -> String {
    schema.type_name(ty).unwrap_or_else(|e| e.to_string())
}

/// `field` as it stands at the top of a record: a string as a view under
/// [`MappingOptions::string_view`].
fn top_level(field: Field, options: MappingOptions) -> Field {
    if options.string_view && field.data_type() == &DataType::Utf8 {
        field.with_data_type(DataType::Utf8View)
    } else {
        field
    }
}

/// Whether a value of type `ty` can be null under `options`.
pub fn is_nullable(ty: &FieldType, options: MappingOptions) -> bool {
    options.nullable
        && matches!(
            ty,
            FieldType::String | FieldType::Buffer | FieldType::Vector(_)
        )
}

/// Walks the schema, keeping the records open above the current type to cut recursion.
struct Mapper<'a> {
    schema: &'a Schema,
    options: MappingOptions,
    open: Vec<RecordId>,
}

impl<'a> Mapper<'a> {
    fn new(schema: &'a Schema, options: MappingOptions) -> Self {
        Mapper {
            schema,
            options,
            open: Vec::new(),
        }
    }

    fn record_fields(&mut self, record: RecordId) -> Fields {
        self.open.push(record);
        let fields: Vec<Field> = record_type(self.schema, record)
            .fields
            .iter()
            .map(|f| self.field(&f.name, &f.ty, false))
            .collect();
        self.open.pop();
        fields.into()
    }

    /// The field named `name` of type `ty`; a map key when `key`.
    fn field(&mut self, name: &str, ty: &FieldType, key: bool) -> Field {
        let mut metadata = HashMap::from([(TYPE_KEY.to_owned(), type_name(self.schema, ty))]);
        let data_type = match ty {
            FieldType::Byte => DataType::Int8,
            FieldType::Bool => DataType::Boolean,
            FieldType::Int => DataType::Int32,
            FieldType::Long => DataType::Int64,
            FieldType::Float => DataType::Float32,
            FieldType::Double => DataType::Float64,
            FieldType::String => DataType::Utf8,
            FieldType::Buffer => DataType::Binary,
            FieldType::Vector(element) => {
                DataType::List(Arc::new(self.field("item", element, false)))
            }
            FieldType::Map(k, v) => {
                let entries = Fields::from(vec![
                    self.field("key", k, true),
                    self.field("value", v, false),
                ]);
                DataType::Map(
                    Arc::new(Field::new("entries", DataType::Struct(entries), false)),
                    false,
                )
            }
            FieldType::Record(id) if self.open.contains(id) => {
                metadata.insert(
                    ENCODING_KEY.to_owned(),
                    self.options.recursive_encoding().name().to_owned(),
                );
                DataType::Binary
            }
            FieldType::Record(id) => DataType::Struct(self.record_fields(*id)),
        };
        let nullable = !key && is_nullable(ty, self.options);
        Field::new(name, data_type, nullable).with_metadata(metadata)
    }
}

/// The recursive record a `Binary` field holds, when its metadata says it holds one: the
/// encoding of its bytes.
pub fn recursive_encoding(field: &Field) -> Option<Format> {
    field.metadata().get(ENCODING_KEY)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hadoop_record::schema::FieldDef;

    /// `Tree { label: ustring, kids: vector<Tree>, by_name: map<ustring, Tree> }` inside
    /// `Forest { root: Tree }`.
    fn forest() -> (Schema, RecordId) {
        let mut s = Schema::new();
        let forest = s.declare("t", "Forest");
        let tree = s.declare("t", "Tree");
        let tree_fields = vec![
            FieldDef::new("label", FieldType::String),
            FieldDef::new("kids", FieldType::Vector(Box::new(FieldType::Record(tree)))),
            FieldDef::new(
                "by_name",
                FieldType::Map(
                    Box::new(FieldType::String),
                    Box::new(FieldType::Record(tree)),
                ),
            ),
        ];
        s.define(tree, tree_fields).unwrap();
        s.define(forest, vec![FieldDef::new("root", FieldType::Record(tree))])
            .unwrap();
        (s, forest)
    }

    #[test]
    fn recursion_is_cut_where_the_record_repeats() {
        let (s, forest) = forest();
        let arrow = arrow_schema(&s, forest, MappingOptions::default()).unwrap();
        let DataType::Struct(tree) = arrow.field(0).data_type() else {
            panic!("root is a struct: {arrow:?}");
        };
        let DataType::List(item) = tree[1].data_type() else {
            panic!("kids is a list");
        };
        assert_eq!(item.data_type(), &DataType::Binary);
        assert_eq!(item.metadata()[TYPE_KEY], "t.Tree");
        assert_eq!(recursive_encoding(item), Some(Format::Binary));
        let options = MappingOptions::default().with_nullable(true);
        let nullable = arrow_schema(&s, forest, options).unwrap();
        let DataType::Struct(tree) = nullable.field(0).data_type() else {
            panic!()
        };
        let DataType::Map(entries, false) = tree[2].data_type() else {
            panic!("by_name is a map")
        };
        let DataType::Struct(kv) = entries.data_type() else {
            panic!()
        };
        assert!(!kv[0].is_nullable(), "map keys are never null");
        assert_eq!(recursive_encoding(&kv[1]), Some(Format::Jute));
        assert!(tree[0].is_nullable() && tree[1].is_nullable());
        assert_eq!(nullable.metadata()[NULLABLE_KEY], "true");
        assert_eq!(
            nullable.metadata()[SIGNATURE_KEY],
            "LForest(LTree(s[LTree]{sLTree}))"
        );
    }

    #[test]
    fn string_views_are_for_the_records_own_strings() {
        let (mut s, forest) = forest();
        let tree = s.find("t.Tree").unwrap();
        let mut fields = s.record(forest).unwrap().fields.clone();
        fields.push(FieldDef::new("name", FieldType::String));
        s.define(forest, fields).unwrap();
        let views = MappingOptions::default().with_string_view(true);
        let arrow = arrow_schema(&s, forest, views).unwrap();
        assert_eq!(arrow.field(1).data_type(), &DataType::Utf8View);
        assert_eq!(arrow.field(1).metadata()[TYPE_KEY], "ustring");
        let DataType::Struct(fields) = arrow.field(0).data_type() else {
            panic!("root is a struct")
        };
        assert_eq!(fields[0].data_type(), &DataType::Utf8, "nested: not a view");
        assert_eq!(
            data_type(&s, &FieldType::String, views).unwrap(),
            DataType::Utf8View
        );
        assert_eq!(
            arrow_schema(&s, tree, MappingOptions::default())
                .unwrap()
                .field(0)
                .data_type(),
            &DataType::Utf8
        );
    }

    #[test]
    fn a_record_the_schema_lacks_is_an_error() {
        let (big, forest) = forest();
        let tree = big.find("t.Tree").unwrap();
        let mut small = Schema::new();
        small.declare("t", "Only");
        let options = MappingOptions::default();
        for e in [
            arrow_schema(&small, tree, options).unwrap_err(),
            data_type(&small, &FieldType::Record(tree), options).unwrap_err(),
        ] {
            assert_eq!(e.kind(), hadoop_record::ErrorKind::Schema, "{e}");
        }
        assert!(arrow_schema(&big, forest, options).is_ok());
    }
}
