//! The typed launch spec and its TOML parser.
//!
//! The format is the contract in `shared/notes/launch-spec.md`; this module reads it and checks
//! every rule it can see without the kernel. The checks, each reported with the file and the
//! dotted key of the offending value:
//!
//! - every key is known (`kernel grid block shared_bytes cluster param buffer texture surface`
//!   at the top; `scalar buffer texture surface` in a `[[param]]`; `type value align` in a scalar; `type len init output
//!   tolerance` in a buffer; the init and tolerance forms below);
//! - `shared_bytes` is at most [`MAX_SHARED_BYTES`] (227 KiB, the most any target gives a
//!   block; executors check their own target's limit with [`super::limits::check_shared`]);
//! - `kernel` is a PTX identifier; `grid`, `block` and `cluster` are arrays of 1 to 3 positive
//!   integers (missing trailing dimensions are 1) within CUDA's limits (grid x < 2^31, grid y, z
//!   <= 65535; block x, y <= 1024, z <= 64, at most 1024 threads per block); every grid
//!   dimension is a multiple of the cluster's;
//! - each `[[param]]` has exactly one of `scalar`, `buffer`, `texture` and `surface`; a buffer
//!   parameter names a declared buffer, an object parameter a declared object (the texture and
//!   surface tables are checked by [`super::texture`]); a scalar's value fits its type (see [`super::scalar`]); `align` only on
//!   `bytes` scalars;
//! - buffer names are non-empty ASCII letters, digits, `_` and `-` (they become file names
//!   `<buffer>.bin`); `len` is at least 1 and a buffer is at most [`MAX_BUFFER_BYTES`];
//! - `init` is exactly one of `fill`, `ramp`, `values`, `random`, `edge` (absent: all-zero
//!   bytes) and its numbers fit the element type (see [`super::init`]);
//! - `tolerance` is exactly one of `ulp` (integer >= 0), `abs`, `rel` (finite numbers >= 0),
//!   and only on float buffers.
//!
//! Unused buffers, buffers without `output`, and the PTX side (does the kernel exist, do the
//! parameters match) are not checked here: a spec is valid on its own.
//!
//! Invariants of a parsed [`LaunchSpec`]: all of the above hold, so generating buffers and laying
//! out parameters cannot fail.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use super::compare::Tolerance;
use super::error::{Located, Problem, SpecError};
use super::init::{self, Init, Plan};
use super::limits::MAX_SHARED_BYTES;
use super::scalar::{self, ParamLayout, ParamMismatch, Scalar, Value};
use super::texture::{self, ObjectKind, ObjectRef, Objects};
use super::types::{ELEM_TYPE_NAMES, ElemType, ScalarType};

/// The file name used in errors for a spec parsed from a string.
pub const IN_MEMORY: &str = "<launch spec>";

/// The largest buffer, in bytes (1 GiB).
pub const MAX_BUFFER_BYTES: usize = 1 << 30;

/// A parsed and validated launch spec.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchSpec {
    /// The entry to run.
    pub kernel: String,
    /// CTAs per grid dimension (each >= 1).
    pub grid: [u32; 3],
    /// Threads per CTA dimension (each >= 1).
    pub block: [u32; 3],
    /// Dynamic shared memory in bytes.
    pub shared_bytes: u32,
    /// CTAs per cluster dimension, when the spec gives a cluster.
    pub cluster: Option<[u32; 3]>,
    /// Kernel parameters in declaration order.
    pub params: Vec<Param>,
    /// Buffers by name.
    pub buffers: BTreeMap<String, BufferSpec>,
    /// Texture and surface objects ([`super::texture`]).
    pub objects: Objects,
}

/// One kernel parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Param {
    /// A value passed by value.
    Scalar(Scalar),
    /// The device address of the named buffer.
    Buffer(String),
    /// The handle of a texture or surface object ([`super::texture`]).
    Object(ObjectRef),
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Param::Scalar(s) => write!(f, "{s}"),
            Param::Buffer(b) => write!(f, "buffer {b}"),
            Param::Object(o) => write!(f, "{} {}", o.kind.name(), o.name),
        }
    }
}

/// One buffer: its element type, length, initial contents, and how it is checked.
///
/// Invariants (kept by construction): `len >= 1`, `len * ty.size() <= MAX_BUFFER_BYTES`, the
/// init fits the type, a tolerance other than [`Tolerance::Exact`] only on float types.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferSpec {
    name: String,
    ty: ElemType,
    len: usize,
    init: Init,
    plan: Plan,
    output: bool,
    tolerance: Tolerance,
}

impl BufferSpec {
    /// A buffer that is not an output, compared bit-exactly. Errors name the key as it would
    /// appear in a spec (`buffer.NAME.init.random.min`).
    pub fn new(name: &str, ty: ElemType, len: usize, init: Init) -> Result<BufferSpec, SpecError> {
        BufferSpec::build(name, ty, len, init).map_err(|e| e.in_file(IN_MEMORY))
    }

    fn build(name: &str, ty: ElemType, len: usize, init: Init) -> Result<BufferSpec, Located> {
        let path = format!("buffer.{name}");
        check_buffer_name(name).map_err(|p| Located::new(&path, p))?;
        if len == 0 || len.checked_mul(ty.size()).is_none_or(|b| b > MAX_BUFFER_BYTES) {
            return Err(Located::new(
                join(&path, "len"),
                Problem::OutOfRange {
                    value: len.to_string(),
                    target: format!("a {ty} buffer"),
                    range: format!("1 ..= {} elements", MAX_BUFFER_BYTES / ty.size()),
                },
            ));
        }
        let plan = init::plan(ty, &init).map_err(|l| Located::new(join(&join(&path, "init"), &l.key), l.problem))?;
        Ok(BufferSpec { name: name.to_owned(), ty, len, init, plan, output: false, tolerance: Tolerance::Exact })
    }

    /// Marks the buffer as an output (or not).
    pub fn with_output(mut self, output: bool) -> BufferSpec {
        self.output = output;
        self
    }

    /// Sets the comparison tolerance; anything but [`Tolerance::Exact`] needs a float type and
    /// finite non-negative bounds.
    pub fn with_tolerance(mut self, tolerance: Tolerance) -> Result<BufferSpec, SpecError> {
        check_tolerance(self.ty, tolerance)
            .map_err(|p| Located::new(format!("buffer.{}.tolerance", self.name), p).in_file(IN_MEMORY))?;
        self.tolerance = tolerance;
        Ok(self)
    }

    /// The buffer's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The element type.
    pub fn ty(&self) -> ElemType {
        self.ty
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false (a buffer has at least one element); present for API symmetry.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The size in bytes (`len * ty.size()`).
    pub fn byte_len(&self) -> usize {
        self.len * self.ty.size()
    }

    /// The initial contents as written in the spec.
    pub fn init(&self) -> &Init {
        &self.init
    }

    /// Whether the buffer is written out and compared after the run.
    pub fn is_output(&self) -> bool {
        self.output
    }

    /// How outputs are compared.
    pub fn tolerance(&self) -> Tolerance {
        self.tolerance
    }

    /// The initial contents: `len` little-endian elements (see [`super::init`] for the rules).
    pub fn generate(&self) -> Vec<u8> {
        init::generate(&self.plan, self.ty, self.len)
    }
}

impl LaunchSpec {
    /// Parses a spec from TOML text; errors name the file as `<launch spec>`.
    pub fn from_toml_str(text: &str) -> Result<LaunchSpec, SpecError> {
        LaunchSpec::from_toml_str_named(text, IN_MEMORY)
    }

    /// Parses a spec from TOML text; errors name the file as `file`.
    pub fn from_toml_str_named(text: &str, file: &str) -> Result<LaunchSpec, SpecError> {
        let doc: toml::Table = text.parse().map_err(|e: toml::de::Error| SpecError::Toml {
            file: file.to_owned(),
            message: e.to_string().trim_end().to_owned(),
        })?;
        parse_doc(&doc).map_err(|l| l.in_file(file))
    }

    /// Reads and parses a spec file.
    pub fn from_path(path: &Path) -> Result<LaunchSpec, SpecError> {
        let text = std::fs::read_to_string(path).map_err(|source| SpecError::Io { file: path.to_owned(), source })?;
        LaunchSpec::from_toml_str_named(&text, &path.display().to_string())
    }

    /// Threads per CTA.
    pub fn threads_per_block(&self) -> u64 {
        self.block.iter().map(|&d| u64::from(d)).product()
    }

    /// CTAs in the grid.
    pub fn blocks(&self) -> u64 {
        self.grid.iter().map(|&d| u64::from(d)).product()
    }

    /// Threads in the whole launch.
    pub fn total_threads(&self) -> u64 {
        self.blocks() * self.threads_per_block()
    }

    /// The buffer named `name`.
    pub fn buffer(&self, name: &str) -> Option<&BufferSpec> {
        self.buffers.get(name)
    }

    /// The output buffers, by name.
    pub fn outputs(&self) -> impl Iterator<Item = &BufferSpec> {
        self.buffers.values().filter(|b| b.is_output())
    }

    /// The parameter block layout (see [`super::scalar`]).
    pub fn param_layout(&self) -> ParamLayout {
        scalar::param_layout(&self.params)
    }

    /// The parameter block in the spec's own layout, given each buffer's device address. Prefer
    /// [`param_block_in`](Self::param_block_in) when the kernel's declarations are known.
    pub fn param_block(&self, address_of: impl FnMut(&str) -> u64) -> Vec<u8> {
        scalar::param_block(&self.params, address_of)
    }

    /// The parameter block in the layout the kernel declares, checking count and sizes.
    pub fn param_block_in(
        &self,
        layout: &ParamLayout,
        address_of: impl FnMut(&str) -> u64,
    ) -> Result<Vec<u8>, ParamMismatch> {
        scalar::param_block_in(&self.params, layout, address_of)
    }

    /// The initial contents of every buffer, by name.
    pub fn generate_buffers(&self) -> BTreeMap<String, Vec<u8>> {
        self.buffers.iter().map(|(name, b)| (name.clone(), b.generate())).collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing.

const TOP_KEYS: &[&str] =
    &["kernel", "grid", "block", "shared_bytes", "cluster", "param", "buffer", "texture", "surface"];
const PARAM_KEYS: &[&str] = &["scalar", "buffer", "texture", "surface"];
const SCALAR_KEYS: &[&str] = &["type", "value", "align"];
const BUFFER_KEYS: &[&str] = &["type", "len", "init", "output", "tolerance"];
const TOLERANCE_KEYS: &[&str] = &["ulp", "abs", "rel"];

/// `path.key`, or `key` at the top level.
pub(crate) fn join(path: &str, key: &str) -> String {
    match (path.is_empty(), key.is_empty()) {
        (true, _) => key.to_owned(),
        (_, true) => path.to_owned(),
        _ => format!("{path}.{key}"),
    }
}

/// Rejects keys of `table` not in `allowed`.
pub(crate) fn check_keys(table: &toml::Table, path: &str, allowed: &[&str]) -> Result<(), Located> {
    match table.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(Located::new(join(path, k), Problem::UnknownKey { expected: allowed.join(", ") })),
        None => Ok(()),
    }
}

/// `v` as a table holding exactly one of `allowed` (`init = { fill = 0 }`, `tolerance = { ulp = 2 }`):
/// that key and its value.
pub(crate) fn one_of<'a>(
    v: &'a toml::Value,
    path: &str,
    allowed: &'static [&'static str],
    expected: &'static str,
) -> Result<(&'a str, &'a toml::Value), Located> {
    let t = expect_table(v, path)?;
    check_keys(t, path, allowed)?;
    let mut entries = t.iter();
    match (entries.next(), entries.next()) {
        (Some((k, v)), None) => Ok((k.as_str(), v)),
        _ => {
            let found = if t.is_empty() { "none".to_owned() } else { t.keys().cloned().collect::<Vec<_>>().join(", ") };
            Err(Located::new(path, Problem::OneOf { expected, found }))
        }
    }
}

/// `v` as a table.
pub(crate) fn expect_table<'a>(v: &'a toml::Value, key: &str) -> Result<&'a toml::Table, Located> {
    v.as_table().ok_or_else(|| wrong_type(key, "a table", v))
}

pub(crate) fn wrong_type(key: &str, expected: &'static str, v: &toml::Value) -> Located {
    Located::new(key, Problem::WrongType { expected, found: v.type_str() })
}

/// A required key.
pub(crate) fn required<'a>(table: &'a toml::Table, path: &str, key: &str) -> Result<&'a toml::Value, Located> {
    table.get(key).ok_or_else(|| Located::new(join(path, key), Problem::Missing))
}

/// A non-negative integer that fits `u64` (TOML integer, or a decimal or `0x` string).
pub(crate) fn parse_u64(v: &toml::Value, key: &str) -> Result<u64, Located> {
    let located = |p| Located::new(key, p);
    let value = Value::from_toml(v).map_err(located)?;
    let out_of_range = || {
        located(Problem::OutOfRange {
            value: value.to_string(),
            target: key.to_owned(),
            range: format!("0 ..= {}", u64::MAX),
        })
    };
    match value {
        Value::Int(i) => u64::try_from(i).map_err(|_| out_of_range()),
        Value::Bits(b) => Ok(b),
        Value::Float(_) => Err(wrong_type(key, "an integer", v)),
    }
}

fn parse_doc(doc: &toml::Table) -> Result<LaunchSpec, Located> {
    check_keys(doc, "", TOP_KEYS)?;
    let kernel = match required(doc, "", "kernel")? {
        toml::Value::String(s) => s.clone(),
        other => return Err(wrong_type("kernel", "a string", other)),
    };
    check_identifier(&kernel).map_err(|p| Located::new("kernel", p))?;
    let grid = parse_dims(required(doc, "", "grid")?, "grid")?;
    let block = parse_dims(required(doc, "", "block")?, "block")?;
    check_grid(grid)?;
    check_block(block)?;
    let shared_bytes = match doc.get("shared_bytes") {
        None => 0,
        Some(v) => {
            let n = parse_u64(v, "shared_bytes")?;
            match u32::try_from(n) {
                Ok(n) if n <= MAX_SHARED_BYTES => n,
                _ => {
                    return Err(Located::new(
                        "shared_bytes",
                        Problem::OutOfRange {
                            value: n.to_string(),
                            target: "shared_bytes".into(),
                            range: format!(
                                "0 ..= {MAX_SHARED_BYTES}, the most shared memory a block has on any target"
                            ),
                        },
                    ));
                }
            }
        }
    };
    let cluster = doc.get("cluster").map(|v| parse_dims(v, "cluster")).transpose()?;
    if let Some(c) = cluster {
        for (axis, (g, c)) in ["x", "y", "z"].iter().zip(grid.iter().zip(c)) {
            if g % c != 0 {
                return Err(Located::new(
                    "cluster",
                    Problem::Invalid(format!("grid {axis} = {g} is not a multiple of cluster {axis} = {c}")),
                ));
            }
        }
    }

    let mut buffers = BTreeMap::new();
    if let Some(v) = doc.get("buffer") {
        for (name, b) in expect_table(v, "buffer")? {
            buffers.insert(name.clone(), parse_buffer(name, b)?);
        }
    }

    let objects = texture::parse_objects(doc, &buffers)?;
    let params = match doc.get("param") {
        None => Vec::new(),
        Some(toml::Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, p)| parse_param(&format!("param[{i}]"), p, &buffers, &objects))
            .collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(wrong_type("param", "an array of tables ([[param]])", other));
        }
    };

    Ok(LaunchSpec { kernel, grid, block, shared_bytes, cluster, params, buffers, objects })
}

/// PTX identifiers: `[A-Za-z][A-Za-z0-9_$]*` or `[_$%][A-Za-z0-9_$]+`.
fn check_identifier(name: &str) -> Result<(), Problem> {
    let follow = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut chars = name.chars();
    let ok = match chars.next() {
        Some(c) if c.is_ascii_alphabetic() => chars.all(follow),
        Some('_' | '$' | '%') => {
            let rest = chars.as_str();
            !rest.is_empty() && rest.chars().all(follow)
        }
        _ => false,
    };
    if ok { Ok(()) } else { Err(Problem::Invalid(format!("{name:?} is not a PTX identifier"))) }
}

fn check_buffer_name(name: &str) -> Result<(), Problem> {
    if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        Ok(())
    } else {
        Err(Problem::Invalid(format!(
            "buffer name {name:?} must be non-empty ASCII letters, digits, `_` or `-` (it names \
             the file <buffer>.bin)"
        )))
    }
}

/// An array of 1 to 3 positive integers; missing trailing dimensions are 1.
fn parse_dims(v: &toml::Value, key: &str) -> Result<[u32; 3], Located> {
    let items = v.as_array().ok_or_else(|| wrong_type(key, "an array of 1 to 3 integers", v))?;
    if items.is_empty() || items.len() > 3 {
        return Err(Located::new(key, Problem::Invalid(format!("expected 1 to 3 dimensions, found {}", items.len()))));
    }
    let mut dims = [1u32; 3];
    for (i, item) in items.iter().enumerate() {
        let ikey = format!("{key}[{i}]");
        let n = parse_u64(item, &ikey)?;
        dims[i] = u32::try_from(n).ok().filter(|&d| d >= 1).ok_or_else(|| {
            Located::new(
                &ikey,
                Problem::OutOfRange {
                    value: n.to_string(),
                    target: ikey.clone(),
                    range: format!("1 ..= {}", u32::MAX),
                },
            )
        })?;
    }
    Ok(dims)
}

fn dim_limit(key: &str, axis: usize, value: u32, max: u32) -> Result<(), Located> {
    if value <= max {
        return Ok(());
    }
    let k = format!("{key}[{axis}]");
    Err(Located::new(
        &k,
        Problem::OutOfRange { value: value.to_string(), target: k.clone(), range: format!("1 ..= {max}") },
    ))
}

fn check_grid(grid: [u32; 3]) -> Result<(), Located> {
    dim_limit("grid", 0, grid[0], i32::MAX as u32)?;
    dim_limit("grid", 1, grid[1], 65535)?;
    dim_limit("grid", 2, grid[2], 65535)
}

fn check_block(block: [u32; 3]) -> Result<(), Located> {
    dim_limit("block", 0, block[0], 1024)?;
    dim_limit("block", 1, block[1], 1024)?;
    dim_limit("block", 2, block[2], 64)?;
    let threads: u64 = block.iter().map(|&d| u64::from(d)).product();
    if threads > 1024 {
        return Err(Located::new("block", Problem::Invalid(format!("{threads} threads per block; at most 1024"))));
    }
    Ok(())
}

fn parse_param(
    path: &str,
    v: &toml::Value,
    buffers: &BTreeMap<String, BufferSpec>,
    objects: &Objects,
) -> Result<Param, Located> {
    let t = expect_table(v, path)?;
    check_keys(t, path, PARAM_KEYS)?;
    let kinds = ["scalar", "buffer", "texture", "surface"].iter().filter(|k| t.contains_key(**k)).count();
    if kinds > 1 {
        return Err(Located::new(path, Problem::ParamKind(if kinds == 2 { "both" } else { "several" })));
    }
    for kind in [ObjectKind::Texture, ObjectKind::Surface] {
        if let Some(v) = t.get(kind.name()) {
            return texture::parse_object_param(path, kind, v, objects).map(Param::Object);
        }
    }
    match (t.get("scalar"), t.get("buffer")) {
        (Some(_), Some(_)) => Err(Located::new(path, Problem::ParamKind("both"))),
        (None, None) => Err(Located::new(path, Problem::ParamKind("neither"))),
        (None, Some(b)) => {
            let key = join(path, "buffer");
            let name = b.as_str().ok_or_else(|| wrong_type(&key, "a buffer name (string)", b))?;
            if buffers.contains_key(name) {
                Ok(Param::Buffer(name.to_owned()))
            } else {
                Err(Located::new(key, Problem::MissingBuffer(name.to_owned())))
            }
        }
        (Some(s), None) => parse_scalar(&join(path, "scalar"), s).map(Param::Scalar),
    }
}

fn parse_scalar(path: &str, v: &toml::Value) -> Result<Scalar, Located> {
    let t = expect_table(v, path)?;
    check_keys(t, path, SCALAR_KEYS)?;
    let type_key = join(path, "type");
    let ty_value = required(t, path, "type")?;
    let ty_name = ty_value.as_str().ok_or_else(|| wrong_type(&type_key, "a type name", ty_value))?;
    let ty = ScalarType::from_name(ty_name).ok_or_else(|| {
        Located::new(
            &type_key,
            Problem::UnknownType {
                name: ty_name.to_owned(),
                expected: "u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 f64 b8 b16 b32 b64 bytes",
            },
        )
    })?;
    let value_key = join(path, "value");
    let value = required(t, path, "value")?;
    let align_key = join(path, "align");
    match ty {
        ScalarType::Elem(elem) => {
            if t.contains_key("align") {
                return Err(Located::new(
                    align_key,
                    Problem::Invalid(format!(
                        "`align` applies only to type = \"bytes\"; {elem} is aligned to its size"
                    )),
                ));
            }
            Value::from_toml(value).and_then(|v| Scalar::new(elem, v)).map_err(|p| Located::new(value_key, p))
        }
        ScalarType::Bytes => {
            let hex = value.as_str().ok_or_else(|| wrong_type(&value_key, "a hex string of bytes", value))?;
            let bytes = Scalar::parse_hex(hex).map_err(|p| Located::new(&value_key, p))?;
            let align = match t.get("align") {
                None => 1,
                Some(a) => usize::try_from(parse_u64(a, &align_key)?).unwrap_or(usize::MAX),
            };
            Scalar::from_bytes(bytes, align).map_err(|p| match p {
                Problem::OutOfRange { .. } => Located::new(align_key, p),
                _ => Located::new(value_key, p),
            })
        }
    }
}

fn parse_buffer(name: &str, v: &toml::Value) -> Result<BufferSpec, Located> {
    let path = format!("buffer.{name}");
    check_buffer_name(name).map_err(|p| Located::new(&path, p))?;
    let t = expect_table(v, &path)?;
    check_keys(t, &path, BUFFER_KEYS)?;
    let type_key = join(&path, "type");
    let ty_value = required(t, &path, "type")?;
    let ty_name = ty_value.as_str().ok_or_else(|| wrong_type(&type_key, "a type name", ty_value))?;
    let ty = ElemType::from_name(ty_name).ok_or_else(|| {
        Located::new(&type_key, Problem::UnknownType { name: ty_name.to_owned(), expected: ELEM_TYPE_NAMES })
    })?;
    let len_key = join(&path, "len");
    let len = parse_u64(required(t, &path, "len")?, &len_key)?;
    let len = usize::try_from(len).unwrap_or(usize::MAX);
    let init = match t.get("init") {
        None => Init::default(),
        Some(v) => init::parse(v, &join(&path, "init"))?,
    };
    let mut buffer = BufferSpec::build(name, ty, len, init)?;
    if let Some(v) = t.get("output") {
        buffer.output = v.as_bool().ok_or_else(|| wrong_type(&join(&path, "output"), "true or false", v))?;
    }
    if let Some(v) = t.get("tolerance") {
        let key = join(&path, "tolerance");
        let tolerance = parse_tolerance(v, &key)?;
        check_tolerance(ty, tolerance).map_err(|p| Located::new(&key, p))?;
        buffer.tolerance = tolerance;
    }
    Ok(buffer)
}

fn parse_tolerance(v: &toml::Value, path: &str) -> Result<Tolerance, Located> {
    let (key, value) = one_of(v, path, TOLERANCE_KEYS, "ulp, abs, rel")?;
    let key_path = join(path, key);
    if key == "ulp" {
        return Ok(Tolerance::Ulp(parse_u64(value, &key_path)?));
    }
    let x = match value {
        toml::Value::Integer(i) => *i as f64,
        toml::Value::Float(f) => *f,
        other => return Err(wrong_type(&key_path, "a number", other)),
    };
    let tolerance = if key == "abs" { Tolerance::Abs(x) } else { Tolerance::Rel(x) };
    if !(x.is_finite() && x >= 0.0) {
        return Err(Located::new(
            key_path,
            Problem::OutOfRange {
                value: format!("{x:?}"),
                target: key.to_owned(),
                range: "a finite number >= 0".into(),
            },
        ));
    }
    Ok(tolerance)
}

fn check_tolerance(ty: ElemType, tolerance: Tolerance) -> Result<(), Problem> {
    match tolerance {
        Tolerance::Exact => Ok(()),
        _ if !ty.is_float() => Err(Problem::Invalid(format!(
            "a tolerance applies only to float buffers (f16 bf16 f32 f64); {ty} outputs are \
             compared bit-exactly"
        ))),
        Tolerance::Ulp(_) => Ok(()),
        Tolerance::Abs(x) | Tolerance::Rel(x) if x.is_finite() && x >= 0.0 => Ok(()),
        Tolerance::Abs(x) | Tolerance::Rel(x) => Err(Problem::OutOfRange {
            value: format!("{x:?}"),
            target: "tolerance".into(),
            range: "a finite number >= 0".into(),
        }),
    }
}

#[cfg(test)]
mod tests;
