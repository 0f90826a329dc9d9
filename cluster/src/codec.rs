//! The extension codecs that carry record-file scans, Delta tables and dataset writes
//! through Ballista: [`RecordLogicalCodec`] (client → scheduler: the table, the write) and
//! [`RecordPhysicalCodec`] (scheduler → executors: the scan with its file ranges and
//! projection, the write). Everything else goes to Ballista's own codecs.
//!
//! Our nodes start with a tag that no protobuf message starts with (field number 0 is
//! invalid in protobuf), so decoding tells them from Ballista's at the first bytes.

use std::sync::Arc;

use ballista_core::serde::{BallistaLogicalExtensionCodec, BallistaPhysicalExtensionCodec};
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::TableProvider;
use datafusion::common::{internal_datafusion_err, Result, TableReference};
use datafusion::datasource::file_format::FileFormat;
use datafusion::datasource::file_format::FileFormatFactory;
use datafusion::datasource::physical_plan::FileSource;
use datafusion::datasource::source::DataSourceExec;
use datafusion::datasource::table_schema::TableSchema;
use datafusion::execution::TaskContext;
use datafusion::logical_expr::{AggregateUDF, Extension, LogicalPlan, ScalarUDF, WindowUDF};
use datafusion::physical_plan::ExecutionPlan;
use datafusion_proto::logical_plan::LogicalExtensionCodec;
use datafusion_proto::physical_plan::from_proto::{
    parse_protobuf_file_scan_config, parse_table_schema_from_proto,
};
use datafusion_proto::physical_plan::to_proto::serialize_file_scan_config;
use datafusion_proto::physical_plan::{
    PhysicalExtensionCodec, PhysicalPlanDecodeContext, PhysicalProtoConverterExtension,
};
use datafusion_proto::protobuf::FileScanExecConf;
use hadoop_record_datafusion::write::{DatasetSpec, WriteExec, WriteNode};
use hadoop_record_datafusion::{RecordFormat, RecordSource, RecordTableOptions};
use hadoop_record_delta::DeltaTableProvider;
use prost::Message;

use crate::table::{RecordTable, TableSpec};

/// The tag of a serialized [`RecordTable`].
const TABLE_TAG: &[u8] = b"\0hadoop-record-table/1\0";
/// The tag of a serialized [`DeltaTableProvider`] (a version's schema and files, as its
/// log gives them; its scan is DataFusion's own Parquet scan).
const DELTA_TAG: &[u8] = b"\0hadoop-record-delta/1\0";
/// The tag of a serialized record-file scan (`DataSourceExec` over [`RecordSource`]).
const SCAN_TAG: &[u8] = b"\0hadoop-record-scan/1\0";
/// The tag of a serialized dataset write ([`WriteNode`] and [`WriteExec`]).
const WRITE_TAG: &[u8] = b"\0hadoop-record-write/1\0";

/// Defines a codec of ours: a struct around Ballista's codec of the same kind (`inner`),
/// which gets every node that is not ours.
macro_rules! around_ballista {
    ($(#[$doc:meta])* $name:ident: $codec:ident, $ballista:ident) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name {
            inner: Arc<dyn $codec>,
        }

        impl Default for $name {
            fn default() -> Self {
                $name {
                    inner: Arc::new($ballista::default()),
                }
            }
        }
    };
}

/// The user-defined function methods of either codec: Ballista's (`inner`) do them.
macro_rules! udfs_to_ballista {
    () => {
        fn try_decode_udf(&self, name: &str, buf: &[u8]) -> Result<Arc<ScalarUDF>> {
            self.inner.try_decode_udf(name, buf)
        }

        fn try_encode_udf(&self, node: &ScalarUDF, buf: &mut Vec<u8>) -> Result<()> {
            self.inner.try_encode_udf(node, buf)
        }

        fn try_decode_udaf(&self, name: &str, buf: &[u8]) -> Result<Arc<AggregateUDF>> {
            self.inner.try_decode_udaf(name, buf)
        }

        fn try_encode_udaf(&self, node: &AggregateUDF, buf: &mut Vec<u8>) -> Result<()> {
            self.inner.try_encode_udaf(node, buf)
        }

        fn try_decode_udwf(&self, name: &str, buf: &[u8]) -> Result<Arc<WindowUDF>> {
            self.inner.try_decode_udwf(name, buf)
        }

        fn try_encode_udwf(&self, node: &WindowUDF, buf: &mut Vec<u8>) -> Result<()> {
            self.inner.try_encode_udwf(node, buf)
        }
    };
}

around_ballista! {
    /// The logical codec: [`RecordTable`]s as their options and paths (JSON),
    /// [`DeltaTableProvider`]s as theirs ([`DeltaTableProvider::to_json`]); everything else as
    /// Ballista's [`BallistaLogicalExtensionCodec`] does it.
    RecordLogicalCodec: LogicalExtensionCodec, BallistaLogicalExtensionCodec
}

impl LogicalExtensionCodec for RecordLogicalCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[LogicalPlan],
        ctx: &TaskContext,
    ) -> Result<Extension> {
        let Some(json) = buf.strip_prefix(WRITE_TAG) else {
            return self.inner.try_decode(buf, inputs, ctx);
        };
        let node = WriteNode::new(write_input(inputs)?, write_spec(json)?)?;
        Ok(Extension {
            node: Arc::new(node),
        })
    }

    fn try_encode(&self, node: &Extension, buf: &mut Vec<u8>) -> Result<()> {
        let Some(write) = node.node.as_any().downcast_ref::<WriteNode>() else {
            return self.inner.try_encode(node, buf);
        };
        encode_write_spec(write.spec(), buf)
    }

    fn try_decode_table_provider(
        &self,
        buf: &[u8],
        table_ref: &TableReference,
        schema: SchemaRef,
        ctx: &TaskContext,
    ) -> Result<Arc<dyn TableProvider>> {
        if let Some(json) = buf.strip_prefix(DELTA_TAG) {
            return Ok(Arc::new(DeltaTableProvider::from_json(json)?));
        }
        let Some(json) = buf.strip_prefix(TABLE_TAG) else {
            return self
                .inner
                .try_decode_table_provider(buf, table_ref, schema, ctx);
        };
        let spec: TableSpec = serde_json::from_slice(json).map_err(|e| {
            internal_datafusion_err!("record table {table_ref}: bad serialized table: {e}")
        })?;
        Ok(Arc::new(RecordTable::from_spec(spec)?))
    }

    fn try_encode_table_provider(
        &self,
        table_ref: &TableReference,
        node: Arc<dyn TableProvider>,
        buf: &mut Vec<u8>,
    ) -> Result<()> {
        if let Some(delta) = node.downcast_ref::<DeltaTableProvider>() {
            buf.extend_from_slice(DELTA_TAG);
            buf.extend(delta.to_json()?);
            return Ok(());
        }
        let Some(table) = node.downcast_ref::<RecordTable>() else {
            return self.inner.try_encode_table_provider(table_ref, node, buf);
        };
        buf.extend_from_slice(TABLE_TAG);
        serde_json::to_writer(buf, &table.spec())
            .map_err(|e| internal_datafusion_err!("record table {table_ref}: {e}"))
    }

    fn try_decode_file_format(
        &self,
        buf: &[u8],
        ctx: &TaskContext,
    ) -> Result<Arc<dyn FileFormatFactory>> {
        self.inner.try_decode_file_format(buf, ctx)
    }

    fn try_encode_file_format(
        &self,
        buf: &mut Vec<u8>,
        node: Arc<dyn FileFormatFactory>,
    ) -> Result<()> {
        self.inner.try_encode_file_format(buf, node)
    }

    udfs_to_ballista!();
}

around_ballista! {
    /// The physical codec: scans of record files as their table options (JSON) and
    /// DataFusion's own `FileScanExecConf` (file groups with byte ranges, projection, limit,
    /// statistics); everything else as Ballista's [`BallistaPhysicalExtensionCodec`] does it.
    RecordPhysicalCodec: PhysicalExtensionCodec, BallistaPhysicalExtensionCodec
}

impl PhysicalExtensionCodec for RecordPhysicalCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[Arc<dyn ExecutionPlan>],
        ctx: &TaskContext,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        if let Some(json) = buf.strip_prefix(WRITE_TAG) {
            let input = write_input(inputs)?;
            return Ok(Arc::new(WriteExec::new(input, write_spec(json)?)));
        }
        let Some(body) = buf.strip_prefix(SCAN_TAG) else {
            return self.inner.try_decode(buf, inputs, ctx, proto_converter);
        };
        let bad = |what: &str| internal_datafusion_err!("record-file scan: {what}");
        let (len, body) = body
            .split_first_chunk::<4>()
            .ok_or_else(|| bad("truncated"))?;
        let len = u32::from_le_bytes(*len) as usize;
        if body.len() < len {
            return Err(bad("truncated options"));
        }
        let (json, conf) = body.split_at(len);
        let options: RecordTableOptions =
            serde_json::from_slice(json).map_err(|e| bad(&format!("bad options: {e}")))?;
        let conf =
            FileScanExecConf::decode(conf).map_err(|e| bad(&format!("bad scan config: {e}")))?;
        let format = RecordFormat::try_new(options)?;
        let table_schema: TableSchema = parse_table_schema_from_proto(&conf)?;
        let source: Arc<dyn FileSource> = format.file_source(table_schema);
        let decode = PhysicalPlanDecodeContext::new(ctx, self);
        let config = parse_protobuf_file_scan_config(&conf, &decode, proto_converter, source)?;
        Ok(DataSourceExec::from_data_source(config))
    }

    fn try_encode(
        &self,
        node: Arc<dyn ExecutionPlan>,
        buf: &mut Vec<u8>,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<()> {
        if let Some(write) = node.downcast_ref::<WriteExec>() {
            return encode_write_spec(write.spec(), buf);
        }
        let scan = node
            .downcast_ref::<DataSourceExec>()
            .and_then(|exec| exec.downcast_to_file_source::<RecordSource>());
        let Some((config, source)) = scan else {
            return self.inner.try_encode(node, buf, proto_converter);
        };
        let json = serde_json::to_vec(source.options())
            .map_err(|e| internal_datafusion_err!("record-file scan: {e}"))?;
        let conf = serialize_file_scan_config(config, self, proto_converter)?;
        buf.extend_from_slice(SCAN_TAG);
        let len = u32::try_from(json.len())
            .map_err(|_| internal_datafusion_err!("record-file scan: options too large"))?;
        buf.extend_from_slice(&len.to_le_bytes());
        buf.extend_from_slice(&json);
        conf.encode(buf)
            .map_err(|e| internal_datafusion_err!("record-file scan: {e}"))
    }

    udfs_to_ballista!();
}

/// A dataset write's one input (a logical or a physical plan).
fn write_input<T: Clone>(inputs: &[T]) -> Result<T> {
    match inputs {
        [input] => Ok(input.clone()),
        _ => Err(internal_datafusion_err!(
            "dataset write: one input, not {}",
            inputs.len()
        )),
    }
}

/// A dataset write's spec, after its tag.
fn write_spec(json: &[u8]) -> Result<DatasetSpec> {
    serde_json::from_slice(json)
        .map_err(|e| internal_datafusion_err!("dataset write: bad serialized spec: {e}"))
}

fn encode_write_spec(spec: &DatasetSpec, buf: &mut Vec<u8>) -> Result<()> {
    buf.extend_from_slice(WRITE_TAG);
    serde_json::to_writer(buf, spec).map_err(|e| internal_datafusion_err!("dataset write: {e}"))
}

/// Both codecs, shared: what the client, the scheduler and the executors install.
pub fn codecs() -> (Arc<RecordLogicalCodec>, Arc<RecordPhysicalCodec>) {
    (
        Arc::new(RecordLogicalCodec::default()),
        Arc::new(RecordPhysicalCodec::default()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_takes_exactly_one_input() {
        assert_eq!(write_input(&[7]).unwrap(), 7);
        for inputs in [&[][..], &[1, 2]] {
            let e = write_input(inputs).unwrap_err().to_string();
            let want = format!("dataset write: one input, not {}", inputs.len());
            assert!(e.contains(&want), "{e}");
        }
    }
}
