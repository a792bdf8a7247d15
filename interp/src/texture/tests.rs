//! Hand-derived expectations: every value below is worked out from the rules in the module
//! documentation, not from the code.

use super::*;
use crate::launch::SplitMix64;
use crate::launch::texture::{ArraySpec, SurfaceSpec};

fn array(format: ElemType, channels: u32, w: u32, h: u32, d: u32, layers: u32) -> ArraySpec {
    ArraySpec { buffer: "b".into(), format, channels, width: w, height: h, depth: d, layers }
}

fn tex(a: ArraySpec, mode: AddressMode, filter: FilterMode, norm: bool) -> TextureSpec {
    TextureSpec { array: a, address: [mode; 3], filter, normalized_coords: norm, read_mode: ReadMode::Element }
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn fc(x: &[f32]) -> Coords {
    let mut xyz = [0u32; 3];
    for (k, v) in x.iter().enumerate() {
        xyz[k] = v.to_bits();
    }
    Coords { xyz, int: false, layer: 0 }
}

fn r(v: [u32; 4]) -> [f32; 4] {
    v.map(f32::from_bits)
}

/// 1D f32 texture 10, 20, 30, 40.
fn line(mode: AddressMode, filter: FilterMode, norm: bool) -> (TextureSpec, Vec<u8>) {
    (tex(array(ElemType::F32, 1, 4, 1, 1, 0), mode, filter, norm), f32s(&[10.0, 20.0, 30.0, 40.0]))
}

#[test]
fn point_sampling_at_centres_edges_and_outside() {
    let (t, b) = line(AddressMode::Clamp, FilterMode::Point, false);
    let at = |x: f32| r(fetch(&t, &b, Geom::D1, fc(&[x])).unwrap())[0];
    // Centres, the left edge of a texel (inclusive), just below the right edge (exclusive).
    assert_eq!([at(0.5), at(1.5), at(2.5), at(3.5)], [10.0, 20.0, 30.0, 40.0]);
    assert_eq!([at(1.0), at(1.999_999), at(2.0)], [20.0, 20.0, 30.0]);
    // Clamp outside, both sides; NaN reads texel 0.
    assert_eq!([at(-0.001), at(-100.0), at(4.0), at(1e30), at(f32::NAN)], [10.0, 10.0, 40.0, 40.0, 10.0]);
    // Missing channels: y, z = 0, w = 1.
    assert_eq!(r(fetch(&t, &b, Geom::D1, fc(&[2.5])).unwrap()), [30.0, 0.0, 0.0, 1.0]);
    // Border: zero outside, including w.
    let (t, b) = line(AddressMode::Border, FilterMode::Point, false);
    assert_eq!(r(fetch(&t, &b, Geom::D1, fc(&[-0.5])).unwrap()), [0.0; 4]);
    assert_eq!(r(fetch(&t, &b, Geom::D1, fc(&[3.9])).unwrap()), [40.0, 0.0, 0.0, 1.0]);
    assert_eq!(r(fetch(&t, &b, Geom::D1, fc(&[4.0])).unwrap()), [0.0; 4]);
}

#[test]
fn normalized_coordinates_and_wrap_mirror() {
    let (t, b) = line(AddressMode::Wrap, FilterMode::Point, true);
    let at = |t: &TextureSpec, x: f32| r(fetch(t, &b, Geom::D1, fc(&[x])).unwrap())[0];
    // x * 4: 0.125 -> 0.5 (texel 0), 0.375 -> texel 1, 0.99 -> texel 3.
    assert_eq!([at(&t, 0.125), at(&t, 0.375), at(&t, 0.99)], [10.0, 20.0, 40.0]);
    // Wrap: 1.125 -> 0.125, -0.125 -> 0.875 (texel 3), 2.6 -> 0.6 (texel 2).
    assert_eq!([at(&t, 1.125), at(&t, -0.125), at(&t, 2.6)], [10.0, 40.0, 30.0]);
    // Mirror: 1.125 (odd period) -> 1 - 0.125 = 0.875 (texel 3); 2.125 -> 0.125; -0.125 -> 0.125.
    let (m, _) = line(AddressMode::Mirror, FilterMode::Point, true);
    assert_eq!([at(&m, 1.125), at(&m, 2.125), at(&m, -0.125)], [40.0, 10.0, 10.0]);
    // Clamp with normalized coordinates: 1.5 -> 6.0 -> texel 3.
    let (c, _) = line(AddressMode::Clamp, FilterMode::Point, true);
    assert_eq!([at(&c, 1.5), at(&c, -3.0)], [40.0, 10.0]);
}

#[test]
fn linear_weights_are_256ths() {
    let (t, b) = line(AddressMode::Clamp, FilterMode::Linear, false);
    let at = |x: f32| r(fetch(&t, &b, Geom::D1, fc(&[x])).unwrap())[0];
    // At a centre: one texel. Half way between centres 1.5 and 2.5 (x = 2.0): the mean.
    assert_eq!([at(0.5), at(2.0), at(3.5)], [10.0, 25.0, 40.0]);
    // x = 1.75: xb = 1.25, i = 1, a = 0.25 = 64/256: 20 * 0.75 + 30 * 0.25 = 22.5.
    assert_eq!(at(1.75), 22.5);
    // Below the first centre and past the last: clamped neighbours.
    assert_eq!([at(0.0), at(-5.0), at(4.0)], [10.0, 10.0, 40.0]);
    // The fraction is quantised: a = 0.1 -> round(25.6) = 26/256.
    let x = 1.6f32; // xb = 1.1 (f32), i = 1
    let a = 26.0f32 / 256.0;
    assert_eq!(at(x), (1.0 - a) * 20.0 + a * 30.0);
    assert_eq!(weight_256(0.0), 0);
    assert_eq!(weight_256(0.999), 256);
    assert_eq!(weight_256(0.5), 128);
    assert_eq!(weight_256(1.0 / 512.0 - 1e-6), 0);
    // Border: the neighbour outside is zero: x = 0.25, xb = -0.25, i = -1, a = 0.75.
    let (t, b) = line(AddressMode::Border, FilterMode::Linear, false);
    assert_eq!(r(fetch(&t, &b, Geom::D1, fc(&[0.25])).unwrap())[0], 0.75 * 10.0);
}

#[test]
fn bilinear_2d_and_trilinear_3d() {
    // 2x2: [[1, 2], [3, 4]] (row y = 0 first).
    let t = tex(array(ElemType::F32, 1, 2, 2, 1, 0), AddressMode::Clamp, FilterMode::Linear, false);
    let b = f32s(&[1.0, 2.0, 3.0, 4.0]);
    let at = |x: f32, y: f32| r(fetch(&t, &b, Geom::D2, fc(&[x, y])).unwrap())[0];
    assert_eq!(at(1.0, 1.0), 2.5);
    // x = 1.25 (a = 0.75), y = 0.5 (b = 0): 1 * 0.25 + 2 * 0.75 = 1.75.
    assert_eq!(at(1.25, 0.5), 1.75);
    // x = 0.5, y = 1.25: 1 * 0.25 + 3 * 0.75 = 2.5.
    assert_eq!(at(0.5, 1.25), 2.5);
    // 2x2x2 with values 0..8 at x + 2y + 4z: the centre of the cube is their mean 3.5.
    let t3 = tex(array(ElemType::F32, 1, 2, 2, 2, 0), AddressMode::Clamp, FilterMode::Linear, false);
    let b3 = f32s(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    assert_eq!(r(fetch(&t3, &b3, Geom::D3, fc(&[1.0, 1.0, 1.0])).unwrap())[0], 3.5);
    let p3 = tex(array(ElemType::F32, 1, 2, 2, 2, 0), AddressMode::Clamp, FilterMode::Point, false);
    assert_eq!(r(fetch(&p3, &b3, Geom::D3, fc(&[1.5, 0.5, 1.5])).unwrap())[0], 5.0);
}

#[test]
fn layers_are_clamped_indices() {
    // a2d: 2x1 texels, 3 layers: layer l holds 10l, 10l + 1.
    let t = tex(array(ElemType::F32, 1, 2, 1, 1, 3), AddressMode::Clamp, FilterMode::Point, false);
    let b = f32s(&[0.0, 1.0, 10.0, 11.0, 20.0, 21.0]);
    let at = |layer: u32, x: f32| {
        let mut c = fc(&[x, 0.5]);
        c.layer = layer;
        r(fetch(&t, &b, Geom::A2, c).unwrap())[0]
    };
    assert_eq!([at(0, 0.5), at(1, 1.5), at(2, 0.5), at(7, 1.5), at(u32::MAX, 0.5)], [0.0, 11.0, 20.0, 21.0, 20.0]);
    // a1d of the same buffer as 2 texels x 3 layers.
    let t1 = tex(array(ElemType::F32, 1, 2, 1, 1, 3), AddressMode::Clamp, FilterMode::Point, false);
    let c = Coords { xyz: [1.5f32.to_bits(), 0, 0], int: false, layer: 1 };
    assert_eq!(r(fetch(&t1, &b, Geom::A1, c).unwrap())[0], 11.0);
    // A .2d fetch of a layered array is a shape error.
    assert!(fetch(&t, &b, Geom::D2, fc(&[0.5, 0.5])).is_err());
}

#[test]
fn integer_fetch_elements_and_normalized_reads() {
    // s8 x 4 channels: one texel (-128, -1, 0, 127).
    let a = array(ElemType::S8, 4, 1, 1, 1, 0);
    let b = vec![0x80, 0xff, 0x00, 0x7f];
    let ti = tex(a.clone(), AddressMode::Border, FilterMode::Point, false);
    let c = Coords { xyz: [0, 0, 0], int: true, layer: 0 };
    assert_eq!(fetch(&ti, &b, Geom::D1, c).unwrap(), [(-128i32) as u32, u32::MAX, 0, 127]);
    // Integer index outside with border: zeros.
    let c1 = Coords { xyz: [1, 0, 0], int: true, layer: 0 };
    assert_eq!(fetch(&ti, &b, Geom::D1, c1).unwrap(), [0; 4]);
    let cm = Coords { xyz: [u32::MAX, 0, 0], int: true, layer: 0 };
    assert_eq!(fetch(&ti, &b, Geom::D1, cm).unwrap(), [0; 4]);
    // Normalized float: -128/127 -> -1 (clamped), -1/127, 0, 1.
    let tn = TextureSpec { read_mode: ReadMode::NormalizedFloat, ..ti.clone() };
    assert_eq!(r(fetch(&tn, &b, Geom::D1, c).unwrap()), [-1.0, -1.0 / 127.0, 0.0, 1.0]);
    // u8: 255 -> 1.0, 51 -> 0.2; a 1-channel unsigned integer texture fills w with 1.
    let u = tex(array(ElemType::U8, 2, 1, 1, 1, 0), AddressMode::Clamp, FilterMode::Point, false);
    let un = TextureSpec { read_mode: ReadMode::NormalizedFloat, ..u.clone() };
    assert_eq!(r(fetch(&un, &[255, 51], Geom::D1, c).unwrap()), [1.0, 51.0 / 255.0, 0.0, 1.0]);
    assert_eq!(fetch(&u, &[255, 51], Geom::D1, c).unwrap(), [255, 51, 0, 1]);
    // f16: 1.5 = 0x3e00.
    let h = tex(array(ElemType::F16, 1, 1, 1, 1, 0), AddressMode::Clamp, FilterMode::Point, false);
    assert_eq!(r(fetch(&h, &[0x00, 0x3e], Geom::D1, c).unwrap())[0], 1.5);
}

#[test]
fn gather_order() {
    // 3x2 f32: row 0 = 1 2 3, row 1 = 4 5 6. At (1.0, 1.0): i = 0, j = 0:
    // (i, j+1) = 4, (i+1, j+1) = 5, (i+1, j) = 2, (i, j) = 1.
    let t = tex(array(ElemType::F32, 1, 3, 2, 1, 0), AddressMode::Clamp, FilterMode::Point, false);
    let b = f32s(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(r(gather(&t, &b, Geom::D2, fc(&[1.0, 1.0]), 0).unwrap()), [4.0, 5.0, 2.0, 1.0]);
    // Component 3 of a 1-channel texture is 1.
    assert_eq!(r(gather(&t, &b, Geom::D2, fc(&[1.0, 1.0]), 3).unwrap()), [1.0; 4]);
    // At the right edge (3.0, 0.5): i = 2, j = 0, i + 1 clamped to 2: (2,1)=6, (2,1)=6, (2,0)=3, (2,0)=3.
    assert_eq!(r(gather(&t, &b, Geom::D2, fc(&[3.0, 0.5]), 0).unwrap()), [6.0, 6.0, 3.0, 3.0]);
    // (3.0, 0.25): j = -1, both rows clamp to 0: all 3.
    assert_eq!(r(gather(&t, &b, Geom::D2, fc(&[3.0, 0.25]), 0).unwrap()), [3.0; 4]);
}

#[test]
fn random_point_fetches_match_the_nearest_texel() {
    // Random 5x3 textures and coordinates: point sampling with clamp equals the texel at the
    // clamped floor, integer fetches the texel at the index.
    let mut rng = SplitMix64::new(23);
    for _ in 0..500 {
        let vals: Vec<f32> = (0..15).map(|_| (rng.next() % 1000) as f32).collect();
        let b = f32s(&vals);
        let t = tex(array(ElemType::F32, 1, 5, 3, 1, 0), AddressMode::Clamp, FilterMode::Point, false);
        let x = (rng.next() % 2000) as f32 / 100.0 - 7.0;
        let y = (rng.next() % 2000) as f32 / 100.0 - 7.0;
        let i = (x.floor() as i64).clamp(0, 4) as usize;
        let j = (y.floor() as i64).clamp(0, 2) as usize;
        assert_eq!(r(fetch(&t, &b, Geom::D2, fc(&[x, y])).unwrap())[0], vals[j * 5 + i], "({x}, {y})");
        // Linear at random points stays within the texel values' range.
        let l = TextureSpec { filter: FilterMode::Linear, ..t.clone() };
        let v = r(fetch(&l, &b, Geom::D2, fc(&[x, y])).unwrap())[0];
        let (lo, hi) = vals.iter().fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
        assert!(v >= lo && v <= hi * 1.000_001, "{v}");
    }
}

fn surface(w: u32, h: u32, layers: u32) -> SurfaceSpec {
    SurfaceSpec { array: array(ElemType::U32, 1, w, h, 1, layers) }
}

#[test]
fn surface_offsets_and_modes() {
    let s = surface(4, 3, 0); // rows of 16 bytes
    let at =
        |x: i32, y: i32, bytes: usize, m: Clamp| surface_offset(&s, Geom::D2, [x as u32, y as u32, 0], 0, bytes, m);
    assert_eq!(at(0, 0, 4, Clamp::Trap), Ok(Some(0)));
    assert_eq!(at(12, 2, 4, Clamp::Trap), Ok(Some(2 * 16 + 12)));
    assert_eq!(at(8, 1, 8, Clamp::Trap), Ok(Some(24)));
    // Outside: trap faults, zero gives None, clamp moves to the edge.
    assert!(at(16, 0, 4, Clamp::Trap).is_err());
    assert!(at(-4, 0, 4, Clamp::Trap).is_err());
    assert!(at(0, 3, 4, Clamp::Trap).is_err());
    assert_eq!(at(16, 0, 4, Clamp::Zero), Ok(None));
    assert_eq!(at(0, -1, 4, Clamp::Zero), Ok(None));
    assert_eq!(at(400, 9, 4, Clamp::Clamp), Ok(Some(2 * 16 + 12)));
    assert_eq!(at(-8, -2, 4, Clamp::Clamp), Ok(Some(0)));
    // Misaligned x faults in every mode.
    for m in [Clamp::Trap, Clamp::Clamp, Clamp::Zero] {
        assert!(at(2, 0, 4, m).is_err());
    }
    // Layered: layer 1 of 2 starts after 48 bytes; layer 2 is outside.
    let l = surface(4, 3, 2);
    assert_eq!(surface_offset(&l, Geom::A2, [4, 1, 0], 1, 4, Clamp::Trap), Ok(Some(48 + 16 + 4)));
    assert!(surface_offset(&l, Geom::A2, [4, 1, 0], 2, 4, Clamp::Trap).is_err());
    assert_eq!(surface_offset(&l, Geom::A2, [4, 1, 0], 2, 4, Clamp::Clamp), Ok(Some(48 + 16 + 4)));
    // 1D of a 2D surface is a shape error.
    assert!(surface_offset(&s, Geom::D1, [0; 3], 0, 4, Clamp::Trap).is_err());
}

#[test]
fn queries() {
    let t = tex(array(ElemType::F32, 1, 7, 5, 1, 3), AddressMode::Clamp, FilterMode::Linear, true);
    let q = |x| query(&t.array, Some(&t), x).unwrap();
    assert_eq!(
        [
            q(Query::Width),
            q(Query::Height),
            q(Query::Depth),
            q(Query::ArraySize),
            q(Query::NormalizedCoords),
            q(Query::FilterMode)
        ],
        [7, 5, 1, 3, 1, 1]
    );
    assert!(query(&t.array, None, Query::FilterMode).is_err());
    for n in ["width", "height", "depth", "array_size", "normalized_coords", "filter_mode"] {
        let q = Query::from_name(n).unwrap();
        assert_eq!(Query::from_code(q.code()), Some(q));
    }
    assert_eq!(Query::from_name("channel_order"), None);
}

#[test]
fn codes_agree_with_the_compiler() {
    use ptxas_rs::ori::texture::{CLAMPS, GEOMS, QUERIES};
    for (i, g) in GEOMS.iter().enumerate() {
        assert_eq!(Geom::from_name(g).map(Geom::code), Some(i as u32), "{g}");
        assert_eq!(Geom::from_code(i as u32).map(Geom::name), Some(*g));
        assert_eq!(Geom::from_name(g).unwrap().ptx_coords(), ptxas_rs::ori::texture::ptx_coords(i as u32));
    }
    for (i, c) in CLAMPS.iter().enumerate() {
        assert_eq!(Clamp::from_name(c).map(Clamp::code), Some(i as u32), "{c}");
    }
    for (i, q) in QUERIES.iter().enumerate() {
        assert_eq!(Query::from_name(q).map(Query::code), Some(i as u32), "{q}");
    }
}
