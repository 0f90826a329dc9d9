//! SQL's binary-string functions on `buffer` columns (Arrow `Binary`).
//!
//! DataFusion's `length`, `octet_length`, `substring` and `position` take only text: on a
//! binary value they fail, or read the bytes as UTF-8 and count characters. Here each is
//! replaced by a function of the same name that, given a binary string, answers as standard
//! SQL does for binary strings — in bytes, a substring being binary again — and given
//! text, is DataFusion's own function unchanged (`length` of a `ustring` still counts
//! characters). Concatenation (`||`), comparisons, `ORDER BY`, `min`/`max` and
//! `encode(b, 'hex')` already work on bytes in DataFusion and are left alone.
//!
//! | SQL | on a binary string |
//! | --- | --- |
//! | `octet_length(b)`, `length(b)` (also `char_length`, `character_length`) | its number of bytes |
//! | `substring(b FROM i FOR n)`, `substring(b, i, n)`, `substr(b, i)` | bytes `i` to `i + n - 1`, counted from 1, as binary; `n < 0` is an error |
//! | `position(x IN b)`, `strpos(b, x)`, `instr(b, x)` | where the bytes `x` first start in `b`, from 1; 0 if nowhere, 1 for an empty `x` |
//!
//! A text argument beside a binary one (`position('ab' IN b)`) stands for its UTF-8 bytes.

use std::any::Any;
use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, GenericBinaryArray, GenericBinaryBuilder, Int64Array,
    OffsetSizeTrait, PrimitiveArray,
};
use datafusion::arrow::compute::kernels::length::length;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Int32Type, Int64Type};
use datafusion::common::{exec_err, plan_err, Result};
use datafusion::execution::session_state::{SessionState, SessionStateBuilder};
use datafusion::execution::FunctionRegistry;
use datafusion::functions::utils::make_scalar_function;
use datafusion::functions::{string, unicode};
use datafusion::logical_expr::expr::ScalarFunction;
use datafusion::logical_expr::planner::{ExprPlanner, PlannerResult};
use datafusion::logical_expr::type_coercion::functions::fields_with_udf;
use datafusion::logical_expr::{
    ColumnarValue, Documentation, Expr, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDF,
    ScalarUDFImpl, Signature,
};
use datafusion::prelude::SessionContext;

/// The functions, each under the name (and aliases) of the DataFusion function it
/// replaces: `character_length` (`length`, `char_length`), `octet_length`, `substr`
/// (`substring`) and `strpos` (`instr`, `position`). A plan names its functions, so a
/// Ballista scheduler and its executors need the same ones to read it.
pub fn binary_string_functions() -> Vec<Arc<ScalarUDF>> {
    vec![
        length_udf(),
        octet_length_udf(),
        substring_udf(),
        position_udf(),
    ]
}

/// `state` with [`binary_string_functions`] in place of DataFusion's, and SQL's
/// `position(x IN b)` and `substring(b FROM i FOR n)` planned to them.
pub fn with_binary_strings(state: SessionState) -> SessionState {
    let session_id = state.session_id().to_owned();
    let mut builder = SessionStateBuilder::new_from_existing(state).with_session_id(session_id);
    // The SQL planner asks its expression planners in order and takes the first answer:
    // DataFusion's own plans `position` and `substring` to its text-only functions.
    builder
        .expr_planners()
        .get_or_insert_with(Vec::new)
        .insert(0, Arc::new(BinaryStringPlanner));
    let mut state = builder.build();
    for function in binary_string_functions() {
        // Registering a scalar function cannot fail.
        let _ = state.register_udf(function);
    }
    state
}

/// Gives `ctx` SQL's binary-string functions ([`with_binary_strings`]), once: a context
/// that has them keeps its state.
pub fn register_binary_strings(ctx: &SessionContext) {
    let state = ctx.state_ref();
    let mut state = state.write();
    let installed = state
        .scalar_functions()
        .get("octet_length")
        .is_some_and(|f| (f.inner().as_ref() as &dyn Any).is::<BinaryAware>());
    if !installed {
        *state = with_binary_strings(state.clone());
    }
}

fn length_udf() -> Arc<ScalarUDF> {
    BinaryAware::udf(unicode::character_length(), Op::Length)
}

fn octet_length_udf() -> Arc<ScalarUDF> {
    BinaryAware::udf(string::octet_length(), Op::Length)
}

fn substring_udf() -> Arc<ScalarUDF> {
    BinaryAware::udf(unicode::substr(), Op::Substring)
}

fn position_udf() -> Arc<ScalarUDF> {
    BinaryAware::udf(unicode::strpos(), Op::Position)
}

/// Plans `position(x IN b)` and `substring(b FROM i FOR n)` to the functions here.
#[derive(Debug)]
struct BinaryStringPlanner;

impl ExprPlanner for BinaryStringPlanner {
    fn plan_position(&self, args: Vec<Expr>) -> Result<PlannerResult<Vec<Expr>>> {
        Ok(PlannerResult::Planned(Expr::ScalarFunction(
            ScalarFunction::new_udf(position_udf(), args),
        )))
    }

    fn plan_substring(&self, args: Vec<Expr>) -> Result<PlannerResult<Vec<Expr>>> {
        Ok(PlannerResult::Planned(Expr::ScalarFunction(
            ScalarFunction::new_udf(substring_udf(), args),
        )))
    }
}

/// What a function does with a binary string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Op {
    /// Its number of bytes.
    Length,
    /// `(b, start[, count])`: its bytes from `start` (from 1), `count` of them.
    Substring,
    /// `(b, x)`: where `x` first starts in `b`, from 1; 0 if nowhere.
    Position,
}

/// A DataFusion text function (`inner`), with `op` for binary strings.
#[derive(Debug, PartialEq, Eq, Hash)]
struct BinaryAware {
    inner: Arc<ScalarUDF>,
    op: Op,
    signature: Signature,
}

impl BinaryAware {
    /// `inner`, with `op` for binary strings, as a function to register.
    fn udf(inner: Arc<ScalarUDF>, op: Op) -> Arc<ScalarUDF> {
        let signature = Signature::user_defined(inner.signature().volatility);
        Arc::new(ScalarUDF::new_from_impl(BinaryAware {
            inner,
            op,
            signature,
        }))
    }

    /// Whether a call with arguments of `types` is on binary strings: the string argument
    /// is binary (`position`: either one).
    fn on_binary(&self, types: &[DataType]) -> bool {
        let strings = match self.op {
            Op::Length | Op::Substring => 1,
            Op::Position => 2,
        };
        types.iter().take(strings).any(is_binary)
    }

    /// The result's type, for binary arguments of `types` (already coerced).
    fn binary_return_type(&self, types: &[DataType]) -> DataType {
        let large = matches!(types.first(), Some(DataType::LargeBinary));
        match (self.op, large) {
            (Op::Substring, _) => binary_type(&types[0]),
            (Op::Length | Op::Position, false) => DataType::Int32,
            (Op::Length | Op::Position, true) => DataType::Int64,
        }
    }
}

impl ScalarUDFImpl for BinaryAware {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn aliases(&self) -> &[String] {
        self.inner.aliases()
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, types: &[DataType]) -> Result<Vec<DataType>> {
        if !self.on_binary(types) {
            let fields: Vec<FieldRef> = types
                .iter()
                .map(|t| Arc::new(Field::new("", t.clone(), true)))
                .collect();
            return Ok(types_of(&fields_with_udf(&fields, self.inner.as_ref())?));
        }
        let name = self.name();
        match (self.op, types) {
            (Op::Length, [b]) => Ok(vec![binary_type(b)]),
            (Op::Substring, [b, rest @ ..]) if matches!(rest.len(), 1 | 2) => {
                let mut coerced = vec![binary_type(b)];
                for t in rest {
                    if !(t.is_integer() || t.is_null()) {
                        return plan_err!(
                            "{name}: a position or length must be an integer, not {t}"
                        );
                    }
                    coerced.push(DataType::Int64);
                }
                Ok(coerced)
            }
            (Op::Position, [b, x]) => {
                let large = [b, x]
                    .iter()
                    .any(|t| matches!(t, DataType::LargeBinary | DataType::LargeUtf8));
                let common = if large {
                    DataType::LargeBinary
                } else {
                    DataType::Binary
                };
                Ok(vec![common.clone(), common])
            }
            _ => plan_err!(
                "{name} of a binary string takes {}, not {} arguments",
                match self.op {
                    Op::Length => "one argument",
                    Op::Substring => "two or three arguments",
                    Op::Position => "two arguments",
                },
                types.len()
            ),
        }
    }

    fn return_type(&self, types: &[DataType]) -> Result<DataType> {
        if self.on_binary(types) {
            Ok(self.binary_return_type(types))
        } else {
            self.inner.return_type(types)
        }
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        let types = types_of(args.arg_fields);
        if !self.on_binary(&types) {
            return self.inner.return_field_from_args(args);
        }
        let nullable = args.arg_fields.iter().any(|f| f.is_nullable());
        Ok(Arc::new(Field::new(
            self.name(),
            self.binary_return_type(&types),
            nullable,
        )))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        if !self.on_binary(&types_of(&args.arg_fields)) {
            return self.inner.invoke_with_args(args);
        }
        let kernel: fn(&[ArrayRef]) -> Result<ArrayRef> = match self.op {
            Op::Length => |a: &[ArrayRef]| Ok(length(&a[0])?),
            Op::Substring => substring,
            Op::Position => position,
        };
        make_scalar_function(kernel, vec![])(&args.args)
    }

    fn documentation(&self) -> Option<&Documentation> {
        self.inner.documentation()
    }
}

fn types_of(fields: &[FieldRef]) -> Vec<DataType> {
    fields.iter().map(|f| f.data_type().clone()).collect()
}

fn is_binary(t: &DataType) -> bool {
    matches!(
        t,
        DataType::Binary
            | DataType::LargeBinary
            | DataType::BinaryView
            | DataType::FixedSizeBinary(_)
    )
}

/// The binary type the kernels take for a binary string of type `t`.
fn binary_type(t: &DataType) -> DataType {
    match t {
        DataType::LargeBinary => DataType::LargeBinary,
        _ => DataType::Binary,
    }
}

/// `substring(b, start[, count])` on `Binary` or `LargeBinary`.
fn substring(args: &[ArrayRef]) -> Result<ArrayRef> {
    let start = args[1].as_primitive::<Int64Type>();
    let count = args.get(2).map(|c| c.as_primitive::<Int64Type>());
    match args[0].data_type() {
        DataType::LargeBinary => substring_of(args[0].as_binary::<i64>(), start, count),
        _ => substring_of(args[0].as_binary::<i32>(), start, count),
    }
}

fn substring_of<O: OffsetSizeTrait>(
    bytes: &GenericBinaryArray<O>,
    start: &Int64Array,
    count: Option<&Int64Array>,
) -> Result<ArrayRef> {
    let mut out = GenericBinaryBuilder::<O>::with_capacity(bytes.len(), 0);
    for row in 0..bytes.len() {
        if bytes.is_null(row) || start.is_null(row) || count.is_some_and(|c| c.is_null(row)) {
            out.append_null();
            continue;
        }
        let value = bytes.value(row);
        let (from, to) = byte_range(value.len(), start.value(row), count.map(|c| c.value(row)))?;
        out.append_value(&value[from..to]);
    }
    Ok(Arc::new(out.finish()))
}

/// The bytes `start..start + count` (from 1) of a string of `len` bytes, as an index range:
/// SQL's substring, as DataFusion's text `substr` counts characters.
fn byte_range(len: usize, start: i64, count: Option<i64>) -> Result<(usize, usize)> {
    if let Some(count) = count.filter(|c| *c < 0) {
        return exec_err!("negative substring length not allowed: {count}");
    }
    let Some(start) = start.checked_sub(1) else {
        return exec_err!("substring start position overflow: {start}");
    };
    let end = match count {
        Some(count) => start.saturating_add(count),
        None => len as i64,
    };
    let clamp = |i: i64| i.clamp(0, len as i64) as usize;
    Ok((clamp(start), clamp(end)))
}

/// `position(x IN b)` (called as `strpos(b, x)`) on `Binary` or `LargeBinary`.
fn position(args: &[ArrayRef]) -> Result<ArrayRef> {
    Ok(match args[0].data_type() {
        DataType::LargeBinary => Arc::new(position_of::<i64, Int64Type>(
            args[0].as_binary(),
            args[1].as_binary(),
        )),
        _ => Arc::new(position_of::<i32, Int32Type>(
            args[0].as_binary(),
            args[1].as_binary(),
        )),
    })
}

fn position_of<O, T>(
    haystack: &GenericBinaryArray<O>,
    needle: &GenericBinaryArray<O>,
) -> PrimitiveArray<T>
where
    O: OffsetSizeTrait,
    T: datafusion::arrow::datatypes::ArrowPrimitiveType,
    T::Native: TryFrom<usize>,
{
    haystack
        .iter()
        .zip(needle.iter())
        .map(|(h, n)| {
            let (h, n) = (h?, n?);
            let at = memchr::memmem::find(h, n).map_or(0, |i| i + 1);
            // A position within a Binary (Int32) or LargeBinary (Int64) value fits.
            T::Native::try_from(at).ok()
        })
        .collect()
}
