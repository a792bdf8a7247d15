//! Texture and surface objects of a launch spec (bindless handles, `cudaTextureObject_t` and
//! `cudaSurfaceObject_t`), and the handle convention every executor shares.
//!
//! A spec declares objects in `[texture.NAME]` and `[surface.NAME]` tables and passes one to the
//! kernel with a `[[param]]` of `texture = "NAME"` or `surface = "NAME"` (a `.u64` parameter).
//! An object's texels live in a declared buffer (`buffer = "B"`), so its initial contents come
//! from that buffer's `init` and a surface written by the kernel is compared through that
//! buffer's `output`. Keys of both tables:
//!
//! | key | value | default |
//! |---|---|---|
//! | `buffer` | the buffer holding the texels | required |
//! | `format` | a channel's type: `u8 s8 u16 s16 u32 s32 f16 f32` | required |
//! | `channels` | 1, 2 or 4 | 1 |
//! | `width`, `height`, `depth` | extent in texels (`depth` for 3D arrays) | `width` required, others 1 |
//! | `layers` | layers of a layered array (`a1d`/`a2d`); 0: not layered | 0 |
//!
//! and of a texture only (the sampler):
//!
//! | key | value | default |
//! |---|---|---|
//! | `address` | `clamp wrap mirror border`, one for all dimensions or an array of 1 to 3 | `clamp` |
//! | `filter` | `point` or `linear` | `point` |
//! | `normalized_coords` | coordinates in [0, 1) instead of texels | `false` |
//! | `read_mode` | `element` or `normalized_float` | `element` |
//!
//! Texel layout in the buffer: channels of a texel adjacent, then x fastest, then y, then z (3D)
//! or the layer (layered); a layer of an `a2d` array is `width * height` texels, of an `a1d`
//! array `width` texels. The buffer must hold at least that many bytes.
//!
//! The parser refuses what CUDA's `cudaCreateTextureObject` refuses: `wrap`/`mirror` without
//! normalized coordinates, `normalized_float` on 32-bit or float formats, `linear` filtering of
//! integer elements, `depth > 1` together with `layers`.
//!
//! # Handles
//!
//! The value of an object parameter is its handle: texture `i` (in name order of the
//! `[texture]` table) is `TEXTURE_HANDLE_BASE + i`, surface `i` is `SURFACE_HANDLE_BASE + i`;
//! the upper 32 bits are zero. NVIDIA's sm_90 code passes only the low 32 bits of a bindless
//! handle to `TEX`/`SULD`/`SUST` (`ULDC UR4, c[0x0][param]`), so executors map a 32-bit value
//! back to the object with [`Objects::texture`] and [`Objects::surface`]; any other value is an
//! invalid handle (an error, as an invalid handle is on the GPU).
//!
//! Invariants of a parsed [`TextureSpec`]/[`SurfaceSpec`]: its buffer exists and is large enough,
//! every dimension is at least 1, the sampler combination is one CUDA accepts.

use std::collections::BTreeMap;

use super::error::{Located, Problem};
use super::spec::{BufferSpec, check_keys, expect_table, join, parse_u64, required, wrong_type};
use super::types::ElemType;

/// The handle of texture 0; texture `i` is `TEXTURE_HANDLE_BASE + i`.
pub const TEXTURE_HANDLE_BASE: u64 = 0x7E00_0000;
/// The handle of surface 0; surface `i` is `SURFACE_HANDLE_BASE + i`.
pub const SURFACE_HANDLE_BASE: u64 = 0x5F00_0000;
/// The most objects of one kind a spec declares.
pub const MAX_OBJECTS: usize = 1 << 16;
/// The largest extent of one dimension.
pub const MAX_EXTENT: u32 = 1 << 16;

/// How a coordinate outside the array is brought back (`cudaTextureAddressMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressMode {
    /// To the nearest edge texel.
    Clamp,
    /// Periodically (normalized coordinates only).
    Wrap,
    /// Periodically mirrored (normalized coordinates only).
    Mirror,
    /// Outside texels read as zero.
    Border,
}

/// Point or linear filtering (`cudaTextureFilterMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilterMode {
    /// The texel containing the coordinate.
    Point,
    /// Weighted by the position between the 2^d nearest texel centres (9-bit fixed point).
    Linear,
}

/// How integer elements are returned (`cudaTextureReadMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadMode {
    /// As stored (integers as integers, floats as floats).
    Element,
    /// 8- and 16-bit integers mapped to [0, 1] (unsigned) or [-1, 1] (signed) floats.
    NormalizedFloat,
}

/// The array behind a texture or a surface.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArraySpec {
    /// The buffer holding the texels.
    pub buffer: String,
    /// A channel's type.
    pub format: ElemType,
    /// Channels per texel: 1, 2 or 4.
    pub channels: u32,
    /// Width in texels.
    pub width: u32,
    /// Height in texels (1 for 1D).
    pub height: u32,
    /// Depth in texels (1 unless 3D).
    pub depth: u32,
    /// Layers (0: not layered).
    pub layers: u32,
}

impl ArraySpec {
    /// Bytes per texel.
    pub fn texel_bytes(&self) -> usize {
        self.format.size() * self.channels as usize
    }
    /// Texels in the whole array.
    pub fn texels(&self) -> usize {
        self.width as usize * self.height as usize * self.depth as usize * self.layers.max(1) as usize
    }
}

/// A texture object: its array and its sampler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureSpec {
    /// The texels.
    pub array: ArraySpec,
    /// Per dimension (x, y, z).
    pub address: [AddressMode; 3],
    /// Point or linear.
    pub filter: FilterMode,
    /// Coordinates in [0, 1).
    pub normalized_coords: bool,
    /// Element or normalized float.
    pub read_mode: ReadMode,
}

/// A surface object: its array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SurfaceSpec {
    /// The texels.
    pub array: ArraySpec,
}

/// Which kind of object a parameter passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    /// `[texture.NAME]`.
    Texture,
    /// `[surface.NAME]`.
    Surface,
}

impl ObjectKind {
    /// `texture` or `surface`.
    pub fn name(self) -> &'static str {
        match self {
            ObjectKind::Texture => "texture",
            ObjectKind::Surface => "surface",
        }
    }
}

/// A parameter passing an object: its kind, name and handle value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectRef {
    /// Texture or surface.
    pub kind: ObjectKind,
    /// The object's name in its table.
    pub name: String,
    /// The handle (see the module documentation).
    pub handle: u64,
}

/// A spec's object tables, indexed by handle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Objects {
    /// Textures by name (handle order).
    pub textures: BTreeMap<String, TextureSpec>,
    /// Surfaces by name (handle order).
    pub surfaces: BTreeMap<String, SurfaceSpec>,
}

impl Objects {
    /// Whether the spec declares no object.
    pub fn is_empty(&self) -> bool {
        self.textures.is_empty() && self.surfaces.is_empty()
    }
    /// The handle of object `name` of `kind`.
    pub fn handle(&self, kind: ObjectKind, name: &str) -> Option<u64> {
        let (base, index) = match kind {
            ObjectKind::Texture => (TEXTURE_HANDLE_BASE, self.textures.keys().position(|k| k == name)?),
            ObjectKind::Surface => (SURFACE_HANDLE_BASE, self.surfaces.keys().position(|k| k == name)?),
        };
        Some(base + index as u64)
    }
    /// The texture a handle's low 32 bits name.
    pub fn texture(&self, handle: u32) -> Option<&TextureSpec> {
        let i = u64::from(handle).checked_sub(TEXTURE_HANDLE_BASE)?;
        self.textures.values().nth(usize::try_from(i).ok()?)
    }
    /// The surface a handle's low 32 bits name.
    pub fn surface(&self, handle: u32) -> Option<&SurfaceSpec> {
        let i = u64::from(handle).checked_sub(SURFACE_HANDLE_BASE)?;
        self.surfaces.values().nth(usize::try_from(i).ok()?)
    }
}

const ARRAY_KEYS: &[&str] = &["buffer", "format", "channels", "width", "height", "depth", "layers"];
const TEXTURE_KEYS: &[&str] = &[
    "buffer",
    "format",
    "channels",
    "width",
    "height",
    "depth",
    "layers",
    "address",
    "filter",
    "normalized_coords",
    "read_mode",
];
const FORMATS: &str = "u8 s8 u16 s16 u32 s32 f16 f32";

fn invalid(key: impl Into<String>, why: String) -> Located {
    Located::new(key, Problem::Invalid(why))
}

fn word<'a>(t: &'a toml::Table, path: &str, key: &str, default: &'a str) -> Result<&'a str, Located> {
    match t.get(key) {
        None => Ok(default),
        Some(v) => v.as_str().ok_or_else(|| wrong_type(&join(path, key), "a string", v)),
    }
}

fn extent(t: &toml::Table, path: &str, key: &str, default: Option<u32>, min: u32) -> Result<u32, Located> {
    let k = join(path, key);
    let n = match (t.get(key), default) {
        (Some(v), _) => parse_u64(v, &k)?,
        (None, Some(d)) => return Ok(d),
        (None, None) => parse_u64(required(t, path, key)?, &k)?,
    };
    match u32::try_from(n) {
        Ok(n) if (min..=MAX_EXTENT).contains(&n) => Ok(n),
        _ => Err(Located::new(
            &k,
            Problem::OutOfRange { value: n.to_string(), target: k.clone(), range: format!("{min} ..= {MAX_EXTENT}") },
        )),
    }
}

fn parse_array(t: &toml::Table, path: &str, buffers: &BTreeMap<String, BufferSpec>) -> Result<ArraySpec, Located> {
    let bkey = join(path, "buffer");
    let bv = required(t, path, "buffer")?;
    let buffer = bv.as_str().ok_or_else(|| wrong_type(&bkey, "a buffer name (string)", bv))?;
    let b = buffers.get(buffer).ok_or_else(|| Located::new(&bkey, Problem::MissingBuffer(buffer.to_owned())))?;
    let fkey = join(path, "format");
    let fv = required(t, path, "format")?;
    let fname = fv.as_str().ok_or_else(|| wrong_type(&fkey, "a type name", fv))?;
    let format = match ElemType::from_name(fname) {
        Some(
            ty @ (ElemType::U8
            | ElemType::S8
            | ElemType::U16
            | ElemType::S16
            | ElemType::U32
            | ElemType::S32
            | ElemType::F16
            | ElemType::F32),
        ) => ty,
        _ => return Err(Located::new(&fkey, Problem::UnknownType { name: fname.to_owned(), expected: FORMATS })),
    };
    let channels = extent(t, path, "channels", Some(1), 1)?;
    if !matches!(channels, 1 | 2 | 4) {
        return Err(invalid(join(path, "channels"), format!("{channels} channels; expected 1, 2 or 4")));
    }
    let array = ArraySpec {
        buffer: buffer.to_owned(),
        format,
        channels,
        width: extent(t, path, "width", None, 1)?,
        height: extent(t, path, "height", Some(1), 1)?,
        depth: extent(t, path, "depth", Some(1), 1)?,
        layers: extent(t, path, "layers", Some(0), 0)?,
    };
    if array.depth > 1 && array.layers > 0 {
        return Err(invalid(path, "a layered array has no depth (give `depth` or `layers`, not both)".into()));
    }
    let need = array.texels() * array.texel_bytes();
    if b.byte_len() < need {
        return Err(invalid(bkey, format!("buffer `{buffer}` holds {} bytes; the array needs {need}", b.byte_len())));
    }
    Ok(array)
}

fn address_mode(v: &toml::Value, key: &str) -> Result<AddressMode, Located> {
    match v.as_str() {
        Some("clamp") => Ok(AddressMode::Clamp),
        Some("wrap") => Ok(AddressMode::Wrap),
        Some("mirror") => Ok(AddressMode::Mirror),
        Some("border") => Ok(AddressMode::Border),
        Some(other) => Err(invalid(key, format!("address mode {other:?}; expected clamp, wrap, mirror or border"))),
        None => Err(wrong_type(key, "an address mode (string)", v)),
    }
}

fn parse_texture(t: &toml::Table, path: &str, buffers: &BTreeMap<String, BufferSpec>) -> Result<TextureSpec, Located> {
    check_keys(t, path, TEXTURE_KEYS)?;
    let array = parse_array(t, path, buffers)?;
    let akey = join(path, "address");
    let address = match t.get("address") {
        None => [AddressMode::Clamp; 3],
        Some(toml::Value::Array(items)) if (1..=3).contains(&items.len()) => {
            let mut modes = [AddressMode::Clamp; 3];
            for (i, item) in items.iter().enumerate() {
                modes[i] = address_mode(item, &format!("{akey}[{i}]"))?;
            }
            modes
        }
        Some(v @ toml::Value::String(_)) => [address_mode(v, &akey)?; 3],
        Some(v) => return Err(wrong_type(&akey, "an address mode or an array of 1 to 3", v)),
    };
    let filter = match word(t, path, "filter", "point")? {
        "point" => FilterMode::Point,
        "linear" => FilterMode::Linear,
        other => return Err(invalid(join(path, "filter"), format!("filter {other:?}; expected point or linear"))),
    };
    let normalized_coords = match t.get("normalized_coords") {
        None => false,
        Some(v) => v.as_bool().ok_or_else(|| wrong_type(&join(path, "normalized_coords"), "true or false", v))?,
    };
    let rkey = join(path, "read_mode");
    let read_mode = match word(t, path, "read_mode", "element")? {
        "element" => ReadMode::Element,
        "normalized_float" => ReadMode::NormalizedFloat,
        other => return Err(invalid(&rkey, format!("read mode {other:?}; expected element or normalized_float"))),
    };
    let small_int = matches!(array.format, ElemType::U8 | ElemType::S8 | ElemType::U16 | ElemType::S16);
    if read_mode == ReadMode::NormalizedFloat && !small_int {
        return Err(invalid(rkey, format!("normalized_float applies to 8- and 16-bit integers, not {}", array.format)));
    }
    if filter == FilterMode::Linear && !array.format.is_float() && read_mode == ReadMode::Element {
        return Err(invalid(
            join(path, "filter"),
            format!(
                "linear filtering needs float results; {} elements need read_mode = \"normalized_float\"",
                array.format
            ),
        ));
    }
    if !normalized_coords && address.iter().any(|m| matches!(m, AddressMode::Wrap | AddressMode::Mirror)) {
        return Err(invalid(akey, "wrap and mirror need normalized_coords = true".into()));
    }
    Ok(TextureSpec { array, address, filter, normalized_coords, read_mode })
}

/// Parses the `texture` and `surface` tables of a spec document.
pub(crate) fn parse_objects(doc: &toml::Table, buffers: &BTreeMap<String, BufferSpec>) -> Result<Objects, Located> {
    let mut objects = Objects::default();
    if let Some(v) = doc.get("texture") {
        for (name, t) in expect_table(v, "texture")? {
            let path = format!("texture.{name}");
            let spec = parse_texture(expect_table(t, &path)?, &path, buffers)?;
            objects.textures.insert(name.clone(), spec);
        }
    }
    if let Some(v) = doc.get("surface") {
        for (name, t) in expect_table(v, "surface")? {
            let path = format!("surface.{name}");
            let t = expect_table(t, &path)?;
            check_keys(t, &path, ARRAY_KEYS)?;
            objects.surfaces.insert(name.clone(), SurfaceSpec { array: parse_array(t, &path, buffers)? });
        }
    }
    if objects.textures.len() > MAX_OBJECTS || objects.surfaces.len() > MAX_OBJECTS {
        return Err(invalid("texture", format!("at most {MAX_OBJECTS} objects of a kind")));
    }
    Ok(objects)
}

/// The object parameter `param[i].texture = "NAME"` (or `surface`).
pub(crate) fn parse_object_param(
    path: &str,
    kind: ObjectKind,
    v: &toml::Value,
    objects: &Objects,
) -> Result<ObjectRef, Located> {
    let key = join(path, kind.name());
    let name = v.as_str().ok_or_else(|| wrong_type(&key, "an object name (string)", v))?;
    let handle = objects.handle(kind, name).ok_or_else(|| {
        invalid(&key, format!("{} `{name}` is not declared (no [{}.{name}] table)", kind.name(), kind.name()))
    })?;
    Ok(ObjectRef { kind, name: name.to_owned(), handle })
}

#[cfg(test)]
mod tests;
