//! Texture and surface semantics: what a texture fetch, a gather, a query and a surface access
//! return for a launch spec's objects ([`crate::launch::texture`]). One module, shared by the
//! Ori interpreter and (once it executes `TEX`/`SULD`/`SUST`) the SASS emulator, so both compute
//! exactly the same bits; it is checked against hand-derived expectations in its tests, not
//! against a GPU (no GPU ran these rules yet).
//!
//! Rules (CUDA programming guide, "Texture Fetching"):
//!
//! - A float coordinate `x` is scaled by the extent under normalized coordinates, after the
//!   `wrap` (`x - floor(x)`) or `mirror` (the same, reflected on odd periods) address mode.
//! - Point filtering reads texel `floor(x)`; linear filtering reads texels `i = floor(x - 0.5)`
//!   and `i + 1` with weight `a = frac(x - 0.5)` rounded to 8 fraction bits (the hardware's
//!   9-bit fixed-point weight, so `a` is `k / 256`, `0 <= k <= 256`), per dimension, and
//!   returns `sum w_t * T[t]` in f32, accumulated in the order texel (i, j, k) with x fastest.
//! - A texel index outside the array is clamped (`clamp`, and `wrap`/`mirror`, which leave
//!   only the edge neighbours of linear filtering outside) or reads as all zero (`border`).
//! - Integer coordinates (`tex.*.s32`: `tex1Dfetch`) name a texel directly: no scaling, no
//!   filtering; the address mode still applies to an index outside the array.
//! - A layer index is an unsigned integer clamped to `[0, layers - 1]`.
//! - Elements: float formats as f32 (f16 widened exactly); integers sign- or zero-extended to 32
//!   bits under `read_mode = element`, mapped to `[0, 1]` (`u8`: `v / 255`) or `[-1, 1]`
//!   (`s8`: `max(v / 127, -1)`) under `normalized_float`. Channels the format lacks read as 0,
//!   except the fourth, which reads as 1 (1.0 for float results).
//! - `tld4` (gather) returns component `c` of the four texels of the 2x2 linear footprint in
//!   the order (i, j+1), (i+1, j+1), (i+1, j), (i, j).
//! - Surfaces (`suld.b`/`sust.b`) address bytes: `x` is a byte offset in a row, `y`, `z` and the
//!   layer are element indices; an access of `n` bytes is in range when `0 <= x`, `x + n <=
//!   width * texel bytes` and the others are within their extents. Out of range, `.trap`
//!   faults, `.clamp` moves `x` (then the others) to the nearest in-range position, `.zero`
//!   loads zeros and drops stores. An `x` that is not a multiple of `n` faults in every mode.
//!
//! Invariant: no function here panics on any coordinate bits or object shape a parsed spec
//! allows; a texel buffer shorter than the spec's array reads as zero past its end.

use crate::launch::float::f16_to_f64;
use crate::launch::texture::{AddressMode, ArraySpec, FilterMode, ReadMode, SurfaceSpec, TextureSpec};
use crate::launch::types::ElemType;

/// The shape a texture or surface instruction addresses (PTX's `.1d .2d .3d .a1d .a2d`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Geom {
    /// `.1d`: x.
    D1,
    /// `.2d`: x, y.
    D2,
    /// `.3d`: x, y, z.
    D3,
    /// `.a1d`: layer, x.
    A1,
    /// `.a2d`: layer, x, y.
    A2,
}

impl Geom {
    /// From PTX's geometry modifier.
    pub fn from_name(name: &str) -> Option<Geom> {
        Some(match name {
            "1d" => Geom::D1,
            "2d" => Geom::D2,
            "3d" => Geom::D3,
            "a1d" => Geom::A1,
            "a2d" => Geom::A2,
            _ => return None,
        })
    }
    /// PTX's spelling.
    pub fn name(self) -> &'static str {
        match self {
            Geom::D1 => "1d",
            Geom::D2 => "2d",
            Geom::D3 => "3d",
            Geom::A1 => "a1d",
            Geom::A2 => "a2d",
        }
    }
    /// Spatial dimensions (1 to 3).
    pub fn dims(self) -> usize {
        match self {
            Geom::D1 | Geom::A1 => 1,
            Geom::D2 | Geom::A2 => 2,
            Geom::D3 => 3,
        }
    }
    /// Whether a layer index comes first.
    pub fn layered(self) -> bool {
        matches!(self, Geom::A1 | Geom::A2)
    }
    /// Coordinate operands in PTX (a 3D or a2d vector has 4, its last one ignored).
    pub fn ptx_coords(self) -> usize {
        match self {
            Geom::D1 => 1,
            Geom::D2 | Geom::A1 => 2,
            Geom::D3 | Geom::A2 => 4,
        }
    }
    /// A small code for an immediate operand (its inverse is [`Geom::from_code`]).
    pub fn code(self) -> u32 {
        self as u32
    }
    /// The inverse of [`Geom::code`].
    pub fn from_code(code: u32) -> Option<Geom> {
        [Geom::D1, Geom::D2, Geom::D3, Geom::A1, Geom::A2].get(code as usize).copied()
    }
}

/// A fetch's coordinates: spatial coordinates (f32 bits or s32 values) and the layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coords {
    /// x, y, z as 32-bit words (unused ones ignored).
    pub xyz: [u32; 3],
    /// Whether `xyz` are s32 texel indices (else f32).
    pub int: bool,
    /// The layer index (layered geometries).
    pub layer: u32,
}

/// Why an access failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TexFault {
    /// A geometry the object's shape does not have (e.g. `.3d` on a 2D array).
    #[error("{0}")]
    Shape(String),
    /// A surface access out of range under `.trap`, or misaligned.
    #[error("{0}")]
    OutOfRange(String),
}

fn check_geom(a: &ArraySpec, geom: Geom) -> Result<(), TexFault> {
    let ok = match geom {
        Geom::D1 => a.height == 1 && a.depth == 1 && a.layers == 0,
        Geom::D2 => a.depth == 1 && a.layers == 0,
        Geom::D3 => a.layers == 0,
        Geom::A1 => a.height == 1 && a.layers > 0,
        Geom::A2 => a.layers > 0,
    };
    if ok {
        Ok(())
    } else {
        Err(TexFault::Shape(format!(
            "a .{} access of a {}x{}x{} array with {} layers",
            geom.name(),
            a.width,
            a.height,
            a.depth,
            a.layers
        )))
    }
}

/// The extents of the spatial dimensions.
fn extents(a: &ArraySpec) -> [u32; 3] {
    [a.width, a.height, a.depth]
}

/// One channel value of a texel as f32 or as an integer word, by read mode.
fn channel(t: &TextureSpec, texels: &[u8], texel: usize, c: usize) -> Value {
    let a = &t.array;
    let size = a.format.size();
    let off = texel * a.texel_bytes() + c * size;
    let mut raw = [0u8; 4];
    if let Some(src) = texels.get(off..off + size) {
        raw[..size].copy_from_slice(src);
    }
    let bits = u32::from_le_bytes(raw);
    let normalized = t.read_mode == ReadMode::NormalizedFloat;
    match a.format {
        ElemType::F32 => Value::F(f32::from_bits(bits)),
        ElemType::F16 => Value::F(f16_to_f64(bits as u16) as f32),
        ElemType::U8 if normalized => Value::F(bits as f32 / 255.0),
        ElemType::U16 if normalized => Value::F(bits as f32 / 65535.0),
        ElemType::S8 if normalized => Value::F((f32::from(bits as u8 as i8) / 127.0).max(-1.0)),
        ElemType::S16 if normalized => Value::F((f32::from(bits as u16 as i16) / 32767.0).max(-1.0)),
        ElemType::S8 => Value::I(bits as u8 as i8 as i32 as u32),
        ElemType::S16 => Value::I(bits as u16 as i16 as i32 as u32),
        _ => Value::I(bits),
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Value {
    F(f32),
    I(u32),
}

impl Value {
    fn bits(self) -> u32 {
        match self {
            Value::F(f) => f.to_bits(),
            Value::I(i) => i,
        }
    }
}

/// Whether the texture returns floats (float formats or normalized integers).
pub fn returns_float(t: &TextureSpec) -> bool {
    t.array.format.is_float() || t.read_mode == ReadMode::NormalizedFloat
}

/// An index along one dimension after the address mode; `None` reads as a zero (border) texel.
fn address(mode: AddressMode, i: i64, n: u32) -> Option<u32> {
    let n = i64::from(n);
    if (0..n).contains(&i) {
        return Some(i as u32);
    }
    match mode {
        AddressMode::Border => None,
        // Wrap and mirror act on the coordinate; an index outside is a linear neighbour.
        AddressMode::Clamp | AddressMode::Wrap | AddressMode::Mirror => Some(i.clamp(0, n - 1) as u32),
    }
}

/// A float coordinate after normalization and the wrap/mirror modes, in texel units.
fn texel_coord(t: &TextureSpec, x: f32, n: u32, mode: AddressMode) -> f32 {
    if !t.normalized_coords {
        return x;
    }
    let x = match mode {
        AddressMode::Wrap => x - x.floor(),
        AddressMode::Mirror => {
            let f = x - x.floor();
            if (x.floor() as i64).rem_euclid(2) == 1 { 1.0 - f } else { f }
        }
        AddressMode::Clamp | AddressMode::Border => x,
    };
    x * n as f32
}

/// `floor(x)` as an index, saturating for huge and NaN coordinates.
fn floor_index(x: f32) -> i64 {
    if x.is_nan() { 0 } else { x.floor().clamp(-1e12, 1e12) as i64 }
}

/// The linear-filter weight of `x`'s fraction, in 256ths.
pub fn weight_256(frac: f32) -> u32 {
    if frac.is_nan() { 0 } else { (frac * 256.0).round().clamp(0.0, 256.0) as u32 }
}

/// The layer a layered fetch reads: the index clamped to the array's layers.
fn layer_of(a: &ArraySpec, geom: Geom, layer: u32) -> usize {
    if geom.layered() { layer.min(a.layers.saturating_sub(1)) as usize } else { 0 }
}

/// The linear texel index of (x, y, z) in `layer`.
fn texel_index(a: &ArraySpec, layer: usize, p: [u32; 3]) -> usize {
    let plane = a.width as usize * a.height as usize * a.depth as usize;
    layer * plane + (p[2] as usize * a.height as usize + p[1] as usize) * a.width as usize + p[0] as usize
}

/// The four result words of a texel (missing channels filled), or of the border.
fn texel_words(t: &TextureSpec, texels: &[u8], index: Option<usize>) -> [Value; 4] {
    let float = returns_float(t);
    let zero = if float { Value::F(0.0) } else { Value::I(0) };
    let one = if float { Value::F(1.0) } else { Value::I(1) };
    let mut out = [zero, zero, zero, one];
    let Some(index) = index else {
        out[3] = zero;
        return out;
    };
    for (c, o) in out.iter_mut().enumerate().take(t.array.channels as usize) {
        *o = channel(t, texels, index, c);
    }
    out
}

/// `tex.GEOM.v4.T.{f32,s32}`: the four result words of a fetch from texture `t`, whose texels
/// are `texels`.
pub fn fetch(t: &TextureSpec, texels: &[u8], geom: Geom, c: Coords) -> Result<[u32; 4], TexFault> {
    let a = &t.array;
    check_geom(a, geom)?;
    let d = geom.dims();
    let ext = extents(a);
    let layer = layer_of(a, geom, c.layer);
    let locate = |p: [i64; 3]| -> Option<usize> {
        let mut q = [0u32; 3];
        for k in 0..d {
            q[k] = address(t.address[k], p[k], ext[k])?;
        }
        Some(texel_index(a, layer, q))
    };
    if c.int {
        let p = [c.xyz[0] as i32 as i64, c.xyz[1] as i32 as i64, c.xyz[2] as i32 as i64];
        return Ok(texel_words(t, texels, locate(p)).map(Value::bits));
    }
    let x: Vec<f32> = (0..d).map(|k| texel_coord(t, f32::from_bits(c.xyz[k]), ext[k], t.address[k])).collect();
    if t.filter == FilterMode::Point {
        let mut p = [0i64; 3];
        for k in 0..d {
            p[k] = floor_index(x[k]);
        }
        return Ok(texel_words(t, texels, locate(p)).map(Value::bits));
    }
    // Linear: 2^d texels, weights in 256ths per dimension.
    let mut base = [0i64; 3];
    let mut w = [0u32; 3];
    for k in 0..d {
        let xb = x[k] - 0.5;
        base[k] = floor_index(xb);
        w[k] = weight_256(xb - xb.floor());
    }
    let mut acc = [0f32; 4];
    for corner in 0..(1usize << d) {
        let mut p = base;
        let mut weight = 1f32;
        for k in 0..d {
            let hi = corner >> k & 1 == 1;
            p[k] += i64::from(hi);
            weight *= if hi { w[k] as f32 } else { (256 - w[k]) as f32 } / 256.0;
        }
        let v = texel_words(t, texels, locate(p));
        for ch in 0..4 {
            if let Value::F(f) = v[ch] {
                acc[ch] += weight * f;
            }
        }
    }
    Ok(acc.map(f32::to_bits))
}

/// `tld4.COMP.2d.v4.T.f32`: component `comp` (0 = r ... 3 = a) of the 2x2 footprint.
pub fn gather(t: &TextureSpec, texels: &[u8], geom: Geom, c: Coords, comp: usize) -> Result<[u32; 4], TexFault> {
    let a = &t.array;
    check_geom(a, geom)?;
    if geom.dims() != 2 || c.int {
        return Err(TexFault::Shape(format!("tld4 of a .{} geometry", geom.name())));
    }
    let ext = extents(a);
    let layer = layer_of(a, geom, c.layer);
    let mut base = [0i64; 2];
    for k in 0..2 {
        base[k] = floor_index(texel_coord(t, f32::from_bits(c.xyz[k]), ext[k], t.address[k]) - 0.5);
    }
    let order = [(0, 1), (1, 1), (1, 0), (0, 0)];
    Ok(order.map(|(dx, dy)| {
        let at = address(t.address[0], base[0] + dx, ext[0])
            .zip(address(t.address[1], base[1] + dy, ext[1]))
            .map(|(x, y)| texel_index(a, layer, [x, y, 0]));
        texel_words(t, texels, at)[comp.min(3)].bits()
    }))
}

/// What `txq`/`suq` asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// `.width`.
    Width,
    /// `.height`.
    Height,
    /// `.depth`.
    Depth,
    /// `.array_size`.
    ArraySize,
    /// `.normalized_coords` (textures).
    NormalizedCoords,
    /// `.filter_mode` (textures): 0 point, 1 linear.
    FilterMode,
}

impl Query {
    /// From PTX's query modifier; the others are not supported yet.
    pub fn from_name(name: &str) -> Option<Query> {
        Some(match name {
            "width" => Query::Width,
            "height" => Query::Height,
            "depth" => Query::Depth,
            "array_size" => Query::ArraySize,
            "normalized_coords" => Query::NormalizedCoords,
            "filter_mode" => Query::FilterMode,
            _ => return None,
        })
    }
    /// A small code for an immediate operand.
    pub fn code(self) -> u32 {
        self as u32
    }
    /// The inverse of [`Query::code`].
    pub fn from_code(code: u32) -> Option<Query> {
        use Query::*;
        [Width, Height, Depth, ArraySize, NormalizedCoords, FilterMode].get(code as usize).copied()
    }
}

/// `txq`/`suq` of an array (and of a texture's sampler, `sampler` given).
pub fn query(a: &ArraySpec, sampler: Option<&TextureSpec>, q: Query) -> Result<u32, TexFault> {
    Ok(match q {
        Query::Width => a.width,
        Query::Height => a.height,
        Query::Depth => a.depth,
        Query::ArraySize => a.layers,
        Query::NormalizedCoords | Query::FilterMode => {
            let t = sampler.ok_or_else(|| TexFault::Shape("a sampler query of a surface".into()))?;
            match q {
                Query::NormalizedCoords => u32::from(t.normalized_coords),
                _ => u32::from(t.filter == FilterMode::Linear),
            }
        }
    })
}

/// A surface instruction's out-of-range mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clamp {
    /// `.trap`.
    Trap,
    /// `.clamp`.
    Clamp,
    /// `.zero`.
    Zero,
}

impl Clamp {
    /// From PTX's modifier.
    pub fn from_name(name: &str) -> Option<Clamp> {
        Some(match name {
            "trap" => Clamp::Trap,
            "clamp" => Clamp::Clamp,
            "zero" => Clamp::Zero,
            _ => return None,
        })
    }
    /// A small code for an immediate operand.
    pub fn code(self) -> u32 {
        self as u32
    }
    /// The inverse of [`Clamp::code`].
    pub fn from_code(code: u32) -> Option<Clamp> {
        [Clamp::Trap, Clamp::Clamp, Clamp::Zero].get(code as usize).copied()
    }
}

/// Where a surface access of `bytes` bytes goes: the byte offset in the surface's buffer, or
/// `None` for a `.zero` access out of range (loads read zeros, stores do nothing).
pub fn surface_offset(
    s: &SurfaceSpec,
    geom: Geom,
    c: [u32; 3],
    layer: u32,
    bytes: usize,
    mode: Clamp,
) -> Result<Option<usize>, TexFault> {
    let a = &s.array;
    check_geom(a, geom)?;
    let x = c[0] as i32 as i64;
    let n = bytes as i64;
    if x.rem_euclid(n) != 0 {
        return Err(TexFault::OutOfRange(format!("surface x = {x} is not a multiple of the {bytes}-byte access")));
    }
    let row = i64::from(a.width) * a.texel_bytes() as i64;
    let ext = extents(a);
    let mut p = [x, 0, 0];
    let mut lim = [row - n, 0, 0];
    for k in 1..geom.dims() {
        p[k] = c[k] as i32 as i64;
        lim[k] = i64::from(ext[k]) - 1;
    }
    let mut l = 0i64;
    let mut llim = 0i64;
    if geom.layered() {
        l = i64::from(layer);
        llim = i64::from(a.layers) - 1;
    }
    let inside = (0..3).all(|k| (0..=lim[k]).contains(&p[k])) && (0..=llim).contains(&l);
    if !inside {
        match mode {
            Clamp::Trap => {
                return Err(TexFault::OutOfRange(format!(
                    "surface access at x = {x} bytes, ({}, {}), layer {l} outside a {}x{}x{} array ({} layers, {row}-byte rows)",
                    p[1], p[2], a.width, a.height, a.depth, a.layers
                )));
            }
            Clamp::Zero => return Ok(None),
            Clamp::Clamp => {
                for k in 0..3 {
                    p[k] = p[k].clamp(0, lim[k].max(0));
                }
                l = l.clamp(0, llim.max(0));
                p[0] -= p[0] % n;
            }
        }
    }
    let plane = row as usize * a.height as usize * a.depth as usize;
    Ok(Some(l as usize * plane + (p[2] as usize * a.height as usize + p[1] as usize) * row as usize + p[0] as usize))
}

#[cfg(test)]
mod tests;
