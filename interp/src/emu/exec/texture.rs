//! The emulator's surface loads and stores through bindless handles (`SULD.D.BA`,
//! `SUST.D.BA`): per lane, the handle register's value names a surface of the launch spec
//! ([`crate::launch::texture`]); `[Ra]` holds x in bytes, then y and z, the layer last (what
//! ptxas 13.0.88 builds: `suld.b.a2d {l, x, y}` is `[R8]` with R8 = x, R9 = y, R10 = l); the
//! addressing is [`crate::texture::surface_offset`], shared with the interpreter. `.S8`/`.S16`
//! loads sign-extend; a `.64`/`.128` access moves 2/4 consecutive registers.

use super::*;
use crate::texture::{Clamp, Geom};

#[allow(clippy::too_many_arguments)]
pub(super) fn surface(
    l: &Launch,
    st: &mut State,
    w: &mut Warp,
    a: &[Arg],
    g: u32,
    store: bool,
    geom: Geom,
    bytes: i32,
    clamp: Clamp,
) -> Result<(), StepErr> {
    let size = bytes.unsigned_abs() as usize;
    let regs = size.div_ceil(4);
    let Opnd::Mem { ra, .. } = a[if store { 0 } else { 1 }].o else {
        return Err((None, EmuErrorKind::Invalid("a surface access without [Ra]".into())));
    };
    let handle = lift(w.reg32(&a[2]))?;
    let reg = |w: &Warp, r: usize, lane: usize| if r >= 255 { 0 } else { w.r[r][lane] };
    let mut out = vec![[0u32; 32]; regs];
    for lane in lanes(g) {
        let h = handle[lane];
        let s = l.objects.surface(h).ok_or_else(|| {
            (
                Some(lane),
                EmuErrorKind::Unsupported(format!("surface handle {h:#x} names no surface of the launch spec")),
            )
        })?;
        let base = ra as usize;
        let mut c = [0u32; 3];
        for (k, x) in c.iter_mut().enumerate().take(geom.dims()) {
            *x = reg(w, base + k, lane);
        }
        let layer = if geom.layered() { reg(w, base + geom.dims(), lane) } else { 0 };
        let at = crate::texture::surface_offset(s, geom, c, layer, size, clamp)
            .map_err(|f| (Some(lane), EmuErrorKind::Unsupported(format!("surface fault: {f}"))))?;
        let buf = st.global.address_of(&s.array.buffer).unwrap_or(0);
        let fault = |f| (Some(lane), EmuErrorKind::Fault(f));
        if store {
            let Opnd::R(rb) = a[1].o else { return Err((None, EmuErrorKind::Invalid("SUST data".into()))) };
            if let Some(o) = at {
                for k in 0..regs {
                    let v = reg(w, rb as usize + k, lane);
                    let n = size.min(4);
                    let v = if n == 4 { v } else { v & ((1u32 << (8 * n)) - 1) };
                    st.global.store(buf + (o + 4 * k) as u64, n as u32, u128::from(v)).map_err(fault)?;
                }
            }
        } else if let Some(o) = at {
            for (k, row) in out.iter_mut().enumerate() {
                let n = size.min(4);
                let v = st.global.load(buf + (o + 4 * k) as u64, n as u32).map_err(fault)? as u32;
                row[lane] = match bytes {
                    -1 => v as u8 as i8 as i32 as u32,
                    -2 => v as u16 as i16 as i32 as u32,
                    _ => v,
                };
            }
        }
    }
    if !store {
        let Opnd::R(rd) = a[0].o else { return Err((None, EmuErrorKind::Invalid("SULD destination".into()))) };
        for (k, row) in out.iter().enumerate() {
            if usize::from(rd) + k >= 255 {
                break;
            }
            let mut ak = a[0].clone();
            ak.o = Opnd::R(rd + k as u8);
            ak.n = 1;
            lift(w.write32(&ak, row, g))?;
        }
    }
    Ok(())
}
