//! The emulator's side of the system functions ([`crate::sysfn`], the service the Ori
//! interpreter shares): `CALL.ABS Ra` to the address the emulated driver relocated into a
//! system function's `.nv.constant4` slot ([`crate::sysfn::address_of`]) performs the service
//! for each calling lane, in lane order, with the arguments where ptxas's ABI puts them
//! (parameter words from R4, a 64-bit one at an even register: `vprintf` R4:R5, R6:R7;
//! `__assertfail` R4:R5, R6:R7, R8, R10:R11, R12:R13), the result in R4 (R4:R5 for `malloc`),
//! and resumes after the `CALL` (where the preceding `LEPC` pointed the return address). A
//! `CALL.ABS` elsewhere is refused. As a real callee may, the call then overwrites every
//! register the ABI lets a callee change (R0, R4–R15 but the result, R32–R35, R40–R43, … up
//! to R63, predicates P0–P6: [`ptxas_rs::lower::isel::call::clobbered`], measured on ptxas's
//! code) with garbage, so code that keeps a value there across the call computes wrong
//! results here too.

use super::*;
use crate::sysfn::{SysFn, SysMemory};

/// One lane's view of memory for a service call.
struct LaneMem<'x, 'l> {
    l: &'x Launch<'l>,
    st: &'x mut State,
    cta: &'x Cta,
    w: &'x Warp,
    lane: usize,
}

impl SysMemory for LaneMem<'_, '_> {
    fn load(&mut self, addr: u64, size: u32) -> Result<u128, Fault> {
        mem_load(self.l, self.st, self.cta, self.w, Space::Generic, addr, size, self.lane)
    }
    fn global(&mut self) -> &mut GlobalMemory {
        &mut self.st.global
    }
}

/// The parameter words' first registers and widths (in registers) of `f`.
fn params(f: SysFn) -> &'static [(usize, usize)] {
    match f {
        SysFn::Vprintf => &[(4, 2), (6, 2)],
        SysFn::Malloc | SysFn::Free => &[(4, 2)],
        SysFn::AssertFail => &[(4, 2), (6, 2), (8, 1), (10, 2), (12, 2)],
    }
}

/// Overwrites lane `lane`'s caller-saved registers (see the module doc).
fn clobber(w: &mut Warp, lane: usize) {
    use ptxas_rs::lower::isel::call::clobbered;
    use ptxas_rs::ori::RegFile;
    for k in 0..64u16 {
        if clobbered(RegFile::R, k) {
            w.r[usize::from(k)][lane] = 0xdead_0000 | u32::from(k);
        }
    }
    w.r_hi = w.r_hi.max(64);
    for k in 0..7u16 {
        if clobbered(RegFile::P, k) {
            w.p[usize::from(k)] ^= 1 << lane;
        }
    }
}

/// `CALL.ABS Ra` by the lanes `g`.
pub(super) fn call_abs(
    l: &Launch,
    st: &mut State,
    cta: &mut Cta,
    w: &mut Warp,
    target: &Arg,
    g: u32,
) -> Result<(), StepErr> {
    let addrs = w.reg64(target).map_err(|e| (None, e))?;
    let mut services = std::mem::take(&mut st.services);
    let mut result = Ok(());
    for lane in lanes(g) {
        let Some(f) = SysFn::at_address(addrs[lane]) else {
            result = Err((
                Some(lane),
                EmuErrorKind::Unsupported(format!("CALL.ABS to {:#x}, which is no system function", addrs[lane])),
            ));
            break;
        };
        let args: Vec<u64> = params(f)
            .iter()
            .map(|&(r, n)| {
                let lo = u64::from(w.r[r][lane]);
                if n == 2 { lo | u64::from(w.r[r + 1][lane]) << 32 } else { lo }
            })
            .collect();
        let who = (cta.id, w.tid[lane]);
        let mut mem = LaneMem { l, st, cta, w, lane };
        match services.call(f, &args, who, &mut mem) {
            Ok(v) => {
                clobber(w, lane);
                if f.returns() {
                    w.r[4][lane] = v as u32;
                    if f == SysFn::Malloc {
                        w.r[5][lane] = (v >> 32) as u32;
                    }
                }
            }
            Err(e) => {
                result = Err((Some(lane), EmuErrorKind::System(e)));
                break;
            }
        }
    }
    st.services = services;
    result
}
