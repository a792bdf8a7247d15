//! The interpreter's side of the system functions: a `call` to `vprintf`, `malloc`, `free` or
//! `__assertfail` (the module has no body for them) performs [`crate::sysfn::Services::call`]
//! for each calling lane, in lane order, reading the lane's generic addresses as its own
//! loads would.

use super::*;
use crate::memory::GlobalMemory;
use crate::sysfn::{SysFn, SysMemory};

/// One lane's view of memory for a service call.
struct LaneMem<'x, 'a> {
    e: &'x mut Engine<'a>,
    cta: &'x mut Cta,
    w: &'x Warp,
    lane: u32,
}

impl SysMemory for LaneMem<'_, '_> {
    fn load(&mut self, addr: u64, size: u32) -> Result<u128, Fault> {
        let (space, a) = resolve_generic(addr);
        self.e.access(self.cta, self.w, space, a, size, self.lane, None)
    }
    fn global(&mut self) -> &mut GlobalMemory {
        &mut self.e.mem.global
    }
}

impl Engine<'_> {
    /// `CALLABS` (the selected call of [`ptxas_rs::lower::isel::call`]): sources the function's
    /// name, the callee's address, `R1`, `R20`, `R21`, then the argument registers in order; destinations the
    /// result's registers (low word first). The address is a system function's
    /// ([`crate::sysfn::address_of`], which the interpreter's address table holds).
    pub(super) fn system_call_abs(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        let dsts: Vec<Loc> = d.dsts.iter().map(|r| self.loc(*r)).collect::<Result<_, _>>()?;
        let args_of = |e: &mut Self, cta: &mut Cta, w: &mut Warp, l: u32| -> Result<(SysFn, Vec<u64>), Er> {
            let a = e.lane_val(w, cta, d, 1, l)?;
            let f = SysFn::at_address(a)
                .ok_or((ErrorKind::Unsupported(format!("CALL.ABS to {a:#x}, which is no system function")), Some(l)))?;
            let mut k = 5;
            let mut args = Vec::new();
            for &n in f.param_words() {
                let lo = e.lane_val(w, cta, d, k, l)? & 0xffff_ffff;
                let hi = if n == 2 { e.lane_val(w, cta, d, k + 1, l)? & 0xffff_ffff } else { 0 };
                args.push(lo | hi << 32);
                k += n;
            }
            Ok((f, args))
        };
        // The result's registers, low word first.
        let write = |e: &mut Self, w: &mut Warp, l: u32, v: u64| {
            for (i, loc) in dsts.iter().enumerate() {
                e.write(w, *loc, l, u128::from((v >> (32 * i)) as u32));
            }
        };
        self.each_lane_service(cta, w, exec, args_of, write)
    }

    /// `call f, (args)` for a system function `f`: the service per lane, its result (if any)
    /// in the first destination; then the warp moves on.
    pub(super) fn system_call(
        &mut self,
        cta: &mut Cta,
        w: &mut Warp,
        d: &InstData,
        exec: u32,
        f: SysFn,
    ) -> Result<(), Er> {
        let dst = match d.dsts.first() {
            Some(r) if f.returns() => Some(self.loc(*r)?),
            _ => None,
        };
        // srcs: the callee, the callee's frame pointer, then the arguments.
        let args_of = |e: &mut Self, cta: &mut Cta, w: &mut Warp, l: u32| -> Result<(SysFn, Vec<u64>), Er> {
            let args = (2..d.srcs.len()).map(|k| e.lane_val(w, cta, d, k, l)).collect::<Result<_, _>>()?;
            Ok((f, args))
        };
        let write = |e: &mut Self, w: &mut Warp, l: u32, v: u64| {
            if let Some(loc) = dst {
                e.write(w, loc, l, u128::from(v));
            }
        };
        self.each_lane_service(cta, w, exec, args_of, write)
    }

    /// Runs a system service for each lane of `exec` in lane order (`args_of` gives the lane's
    /// function and arguments, `write` stores its result), stopping at the first error; then the
    /// warp moves on.
    fn each_lane_service(
        &mut self,
        cta: &mut Cta,
        w: &mut Warp,
        exec: u32,
        mut args_of: impl FnMut(&mut Self, &mut Cta, &mut Warp, u32) -> Result<(SysFn, Vec<u64>), Er>,
        write: impl Fn(&mut Self, &mut Warp, u32, u64),
    ) -> Result<(), Er> {
        let mut services = std::mem::take(&mut self.services);
        let mut result = Ok(());
        for l in (0..WARP as u32).filter(|l| exec >> l & 1 == 1) {
            let (f, args) = match args_of(self, cta, w, l) {
                Ok(x) => x,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            let who = (cta.id, self.tid_of(w.id * 32 + l));
            let mut mem = LaneMem { e: self, cta, w, lane: l };
            match services.call(f, &args, who, &mut mem) {
                Ok(v) => write(self, w, l, v),
                Err(e) => {
                    result = Err((ErrorKind::System(e), Some(l)));
                    break;
                }
            }
        }
        self.services = services;
        result?;
        self.advance(w);
        Ok(())
    }
}
