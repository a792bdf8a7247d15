//! The `.func` calling convention (phase `EnforceArgumentRestrictions`'s job at this stage):
//! non-inlined device functions called with `CALL.REL.NOINC` and returning with
//! `RET.REL.NODEC`, as ptxas does on sm_90 (digest-optimizer §4).
//!
//! # The convention
//!
//! - **Words.** A parameter or return value travels in 32-bit words: a 32-bit value or a
//!   predicate (as 0/1) in one, a 64-bit value in two (low first, from an even register). The
//!   values are the `.reg` parameters and results and the `.param` scalars of 4 and 8 bytes
//!   whose words fit in R4..R15 (`lower::param_regs`; ptxas 13.0.88 passes `.param` scalars the
//!   same way: `func_recursion`'s `fib(n)` takes `n` in R4 and returns in R4, `sumsq(n, acc)`
//!   takes R4 and R6:R7 and returns in R4:R5). Any other `.param`-space parameter or return
//!   slot (aggregates, arrays, vectors, 1- and 2-byte scalars, scalars past R15) is one word
//!   holding its *absolute* local address (the data itself stays in the caller's frame, where
//!   the PTX put it; ptxas passes the first 12 words in R4..R15 and the rest on the stack).
//! - **Registers.** Parameter words occupy consecutive registers from `R4` (R0–R3 are the
//!   ABI's reserved range), 64-bit words aligned to an even register; returned values start
//!   again at `R4` ([`words`]). The return address is `R2` (low word; `R3` = 0, the pair
//!   `RET.REL.NODEC R2` reads), the stack pointer is `R1`.
//! - **Caller.** `Rk = <arg>` for every word, `R2 = MOV 0` (emission writes the address of the
//!   instruction after the `CALL` there: it must immediately precede the `CALL`),
//!   `R3 = MOV 0`, `CALL f` reading `R1, R2, R3` and the argument registers and writing the
//!   return registers, then `v = MOV Rk` for every returned word. These physical registers are
//!   thus present in the caller, and the allocator never hands out a register present in the
//!   input: values live across the call sit elsewhere.
//! - **Callee.** Its prologue is `IADD3 R1, R1, -F, RZ` (F: its local frame, possibly 0),
//!   `base = MOV R1` (every local access is relative to `base`, as in a kernel), then the
//!   parameter registers are copied into the parameter's virtual registers (an address is
//!   made frame-relative: `p = a - base`; the frame pointer vreg of the PTX lowering is 0). A
//!   return copies the values into `R4..` and `RET` reads `R2, R3` and those registers.
//! - **Preservation** ([`clobbered`], measured on ptxas 13.0.88, see
//!   [`crate::regalloc::callee_save`]). The registers split into *scratch* (caller-saved) and
//!   *preserved* (callee-saved) ones. Scratch: R0, R4–R15, R32–R35, R40–R43, … (from R32 on,
//!   the groups of four `R4k..R4k+3` with `k` even), every predicate P0–P6, every uniform
//!   register UR0–UR62 and uniform predicate UP0–UP6 (ptxas's `-c` callees write UR4, UR5,
//!   UR62 without saving them; its callers keep the memory descriptor in UR36 across a
//!   `CALL.ABS`, we reload it after every call instead, see [`crate::sass::from_ori`]). Preserved:
//!   R1 (the stack pointer, restored by the epilogue), R2–R3 (the return address), R16–R31,
//!   R36–R39, R44–R47, … and the barrier registers (ptxas keeps B6 with `BMOV`; our device functions leave them alone). A `CALL` may change every scratch register besides its destinations: the
//!   allocator keeps the values live across it in preserved registers (or spills them, a
//!   predicate to an R register), [`crate::regalloc::check`] rejects anything else, and a
//!   callee stores only the preserved registers it writes (its own parameter and return words
//!   excepted) on entry and reloads them before each return.
//!
//! Invariants: an argument/return register assignment depends only on the callee's signature
//! ([`FuncAbi`]), so callers and callee agree; guarded calls and returns are refused with an
//! error (a guarded epilogue would need the guard predicate it restores).

use std::collections::HashMap;

use super::{R, Sel, imm, r, rz};
use crate::ori::{BoolOp, Cmp, InstData, Mods, Opcode, Operand, PhysReg, Reg, RegClass, RegFile, RegUse, Ty};

/// The first register of the parameter and return words.
pub const FIRST_WORD: u16 = 4;
/// Registers past the last one a word may use (R254 is the last general register; keep clear
/// of the top).
const WORD_LIMIT: u16 = 200;

/// What a caller needs of a callee's signature.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FuncAbi {
    /// The words of each parameter, in order (the PTX lowering's frame pointer excluded;
    /// `.param` return slots follow the parameters, as in the PTX-stage `call`): its class and
    /// whether it is a local address.
    pub params: Vec<(RegClass, bool)>,
    /// Classes of the values returned in registers.
    pub rets: Vec<RegClass>,
}

/// The first register of each value's words (see the module doc), or an error when they do
/// not fit.
pub fn words(classes: &[RegClass]) -> Result<Vec<u16>, String> {
    let mut k = FIRST_WORD;
    let mut out = Vec::new();
    for c in classes {
        let n = match (c.file, c.count) {
            (RegFile::R, 1) | (RegFile::P, 1) => 1,
            (RegFile::R, 2) => {
                k = k.next_multiple_of(2);
                2
            }
            _ => return Err(format!("a {c} value as a call parameter or result")),
        };
        out.push(k);
        k += n;
        if k > WORD_LIMIT {
            return Err("call parameters or results need more registers than the ABI has".into());
        }
    }
    Ok(out)
}

/// Whether a `CALL` may change the physical register `file`/`index` (a *scratch* register of
/// the convention, see the module doc); `false` for the preserved ones and for the zero
/// registers.
pub fn clobbered(file: RegFile, index: u16) -> bool {
    match file {
        RegFile::R => match index {
            0 => true,
            1..=3 => false,
            4..=15 => true,
            16..=31 => false,
            255.. => false,
            k => (k / 4) % 2 == 0,
        },
        RegFile::P => index < 7,
        // Every uniform register and predicate (not URZ/UPT): ptxas's ABI callees write them
        // unsaved (a `.visible .func` compiled with `-c` writes UR4, UR5 and UR62).
        RegFile::UR => index < 63,
        RegFile::UP => index < 7,
        _ => false,
    }
}

/// The physical registers holding the words of values of `classes` (32-bit each).
pub fn word_regs(classes: &[RegClass]) -> Result<Vec<PhysReg>, String> {
    let starts = words(classes)?;
    let mut out = Vec::new();
    for (c, s) in classes.iter().zip(starts) {
        for k in 0..u16::from(c.count.max(1)).min(2) {
            if c.file == RegFile::P && k > 0 {
                break;
            }
            out.push(PhysReg::new(RegFile::R, s + k));
        }
    }
    Ok(out)
}

fn phys(k: u16) -> Reg {
    Reg::Phys(PhysReg::new(RegFile::R, k))
}

impl Sel<'_> {
    /// Copies the value `v` of class `c` into the words from `Rk`.
    fn put_words(&mut self, k: u16, c: RegClass, v: &Operand) -> R<()> {
        match (c.file, c.count) {
            (RegFile::P, _) => {
                let p = self.pred_src(v)?;
                let np = match p {
                    Operand::Reg(u) => Operand::Reg(RegUse { not: !u.not, ..u }),
                    o => return Err(format!("a {} predicate argument", o.kind_name())),
                };
                // SEL Rk, RZ, 1, !p == p ? 1 : 0
                self.emit(Opcode::SEL, Mods::new(), vec![phys(k)], vec![rz(), imm(1), np]);
            }
            (_, 2) => {
                let (lo, hi) = self.halves(v)?;
                self.emit(Opcode::MOV, Mods::new(), vec![phys(k)], vec![lo]);
                self.emit(Opcode::MOV, Mods::new(), vec![phys(k + 1)], vec![hi]);
            }
            _ => {
                let a = self.src(v)?;
                self.emit(Opcode::MOV, Mods::new(), vec![phys(k)], vec![a]);
            }
        }
        Ok(())
    }

    /// Copies the words from `Rk` into `dst` of class `c`.
    fn take_words(&mut self, k: u16, c: RegClass, dst: Reg) {
        match (c.file, c.count) {
            (RegFile::P, _) => {
                let m = Mods { cmp: Some(Cmp::Ne), bop: Some(BoolOp::And), ..Mods::ty(Ty::U32) };
                let pt = super::pt_reg();
                self.emit(Opcode::ISETP, m, vec![dst, pt], vec![r(phys(k)), rz(), super::pt()]);
            }
            (_, 2) => {
                let (lo, hi) = (self.t32(), self.t32());
                self.emit(Opcode::MOV, Mods::new(), vec![lo.into()], vec![r(phys(k))]);
                self.emit(Opcode::MOV, Mods::new(), vec![hi.into()], vec![r(phys(k + 1))]);
                self.emit(Opcode::PACK64, Mods::new(), vec![dst], vec![r(lo), r(hi)]);
            }
            _ => self.emit(Opcode::MOV, Mods::new(), vec![dst], vec![r(phys(k))]),
        }
    }

    /// The callee's prologue (see the module doc): frame, frame base, parameters.
    pub(crate) fn func_prologue(&mut self, abi: &FuncAbi) -> R<()> {
        let r1 = phys(1);
        self.emit(Opcode::IADD3, Mods::new(), vec![r1], vec![r(r1), imm(-self.frame), rz()]);
        let base = self.t32();
        self.emit(Opcode::MOV, Mods::new(), vec![base.into()], vec![r(r1)]);
        self.local_base = Some(base);
        let params = self.old.params.clone();
        let Some((&sp, rest)) = params.split_first() else {
            return Err("a device function without its frame-pointer parameter".into());
        };
        self.emit(Opcode::MOV, Mods::new(), vec![sp], vec![imm(0)]);
        if rest.len() != abi.params.len() {
            return Err("the device function's parameters do not match its signature".into());
        }
        let classes: Vec<RegClass> = abi.params.iter().map(|p| p.0).collect();
        let starts = words(&classes)?;
        for ((&p, &(c, addr)), k) in rest.iter().zip(&abi.params).zip(starts) {
            if addr {
                let t = self.t32();
                self.emit(Opcode::MOV, Mods::new(), vec![t.into()], vec![r(phys(k))]);
                let nb = Operand::Reg(RegUse { neg: true, ..RegUse::new(base) });
                self.emit(Opcode::IADD3, Mods::new(), vec![p], vec![r(t), nb, rz()]);
            } else {
                self.take_words(k, c, p);
            }
        }
        self.f.params.clear();
        Ok(())
    }

    /// A `.func`'s `ret v..`: values into `R4..`, then `RET`.
    pub(crate) fn sel_func_ret(&mut self, d: &InstData) -> R<()> {
        if self.guard.is_some() {
            return Err("a guarded return from a device function is not selected yet".into());
        }
        let classes: Vec<RegClass> = self.f.rets.clone();
        if classes.len() != d.srcs.len() {
            return Err("the returned values do not match the function's results".into());
        }
        let starts = words(&classes)?;
        for ((c, k), v) in classes.iter().zip(&starts).zip(&d.srcs) {
            self.put_words(*k, *c, v)?;
        }
        let mut srcs = vec![r(phys(2)), r(phys(3))];
        srcs.extend(word_regs(&classes)?.into_iter().map(Operand::reg));
        self.emit(Opcode::RET, Mods::new(), vec![], srcs);
        Ok(())
    }

    /// A direct `call` (see the module doc).
    pub(crate) fn sel_call(&mut self, d: &InstData) -> R<()> {
        if self.guard.is_some() {
            return Err("a guarded call is not selected yet".into());
        }
        let Some(Operand::Func(name)) = d.srcs.first() else {
            return Err("a call without a callee".into());
        };
        if crate::ptx::sema::instr::SYSTEM_FUNCTIONS.contains(&name.as_str()) {
            return self.sel_system_call(d, name);
        }
        let abi = self.abi.get(name).cloned().ok_or_else(|| format!("call to `{name}`, which has no body here"))?;
        // srcs: callee, the callee's frame pointer (unused: the callee frames itself below R1),
        // then one operand per parameter word group.
        let args = d.srcs.get(2..).unwrap_or(&[]);
        if args.len() != abi.params.len() || d.dsts.len() != abi.rets.len() {
            return Err(format!("the call does not match the signature of `{name}`"));
        }
        let classes: Vec<RegClass> = abi.params.iter().map(|p| p.0).collect();
        let starts = words(&classes)?;
        for ((a, &(c, addr)), k) in args.iter().zip(&abi.params).zip(starts) {
            if addr {
                let base = self.local_base.ok_or("a local address passed by a function without a local frame")?;
                let v = self.reg_src(a)?;
                self.emit(Opcode::IADD3, Mods::new(), vec![phys(k)], vec![v, r(base), rz()]);
            } else {
                self.put_words(k, c, a)?;
            }
        }
        let mut srcs = vec![Operand::Func(name.clone()), r(phys(1)), r(phys(2)), r(phys(3))];
        srcs.extend(word_regs(&classes)?.into_iter().map(Operand::reg));
        let ret_regs = word_regs(&abi.rets)?;
        self.emit(Opcode::MOV, Mods::new(), vec![phys(3)], vec![imm(0)]);
        self.emit(Opcode::MOV, Mods::new(), vec![phys(2)], vec![imm(0)]);
        self.emit(Opcode::CALL, Mods::new(), ret_regs.into_iter().map(Reg::Phys).collect(), srcs);
        let starts = words(&abi.rets)?;
        for ((&c, k), &dst) in abi.rets.iter().zip(starts).zip(&d.dsts) {
            self.take_words(k, c, dst);
        }
        Ok(())
    }
}

/// The parameter and return word classes of a CUDA system function (its CUDA prototype:
/// `vprintf(.b64, .b64) -> .b32`, `malloc(.b64) -> .b64`, `free(.b64)`,
/// `__assertfail(.b64, .b64, .b32, .b64, .b64)`).
fn system_signature(name: &str) -> Option<(&'static [RegClass], &'static [RegClass])> {
    const W: RegClass = RegClass::R32;
    const D: RegClass = RegClass::R64;
    Some(match name {
        "vprintf" => (&[D, D], &[W]),
        "malloc" => (&[D], &[D]),
        "free" => (&[D], &[]),
        "__assertfail" => (&[D, D, W, D, D], &[]),
        _ => return None,
    })
}

/// The system functions `m` calls, each once, in `SYSTEM_FUNCTIONS` order.
pub fn system_functions_called(m: &crate::ori::Module) -> Vec<String> {
    let called = |n: &str| {
        m.functions.iter().any(|f| {
            f.insts.values().any(|d| {
                matches!(d.opcode, Opcode::Call | Opcode::CALLABS)
                    && matches!(d.srcs.first(), Some(Operand::Func(x)) if x == n)
            })
        })
    };
    crate::ptx::sema::instr::SYSTEM_FUNCTIONS.iter().filter(|n| called(n)).map(|n| n.to_string()).collect()
}

impl Sel<'_> {
    /// A call of a system function, as ptxas 13.0.88 makes it: the argument words in R4..
    /// (this module's word rule), the function's address loaded from its slot of the
    /// relocated address table (`LDC.64 Ra, c[0x4][slot]`), `LEPC R20` (the return address),
    /// `CALL.ABS.NOINC Ra`, the result from R4. The callee follows the ABI's preservation
    /// rule, so the `CALL` flag's clobbers apply.
    fn sel_system_call(&mut self, d: &InstData, name: &str) -> R<()> {
        let (params, rets) = system_signature(name).ok_or_else(|| format!("`{name}` is no system function"))?;
        let args = d.srcs.get(2..).unwrap_or(&[]);
        if args.len() != params.len() || d.dsts.len() != rets.len() {
            return Err(format!("the call does not match the prototype of `{name}`"));
        }
        let slot = self.data.address_slot(name).ok_or_else(|| format!("no address slot for `{name}`"))?;
        for (a, (&c, k)) in args.iter().zip(params.iter().zip(words(params)?)) {
            self.put_words(k, c, a)?;
        }
        let f = self.vreg(RegClass::R64);
        self.load_bank(
            f.into(),
            Ty::U64,
            crate::ori::CBank { bank: super::ADDRESS_TABLE_BANK, index: None, offset: slot },
        );
        self.emit(Opcode::LEPC, Mods::new(), vec![phys(20), phys(21)], vec![]);
        let mut srcs = vec![Operand::Func(name.to_string()), Operand::reg(f), r(phys(1)), r(phys(20)), r(phys(21))];
        srcs.extend(word_regs(params)?.into_iter().map(Operand::reg));
        let ret_regs = word_regs(rets)?;
        self.emit(Opcode::CALLABS, Mods::new(), ret_regs.into_iter().map(Reg::Phys).collect(), srcs);
        for ((&c, k), &dst) in rets.iter().zip(words(rets)?).zip(&d.dsts) {
            self.take_words(k, c, dst);
        }
        Ok(())
    }
}

/// The ABI of every `.func` of `m`, from the `.param`-passing flags of each signature
/// (`addr[name][i]`: whether parameter word group `i` is a local address).
pub fn module_abi(m: &crate::ori::Module, addr: &HashMap<String, Vec<bool>>) -> HashMap<String, FuncAbi> {
    let mut out = HashMap::new();
    for f in &m.functions {
        if f.kind != crate::ori::FuncKind::Func {
            continue;
        }
        let flags = addr.get(&f.name);
        let params = f
            .params
            .iter()
            .skip(1)
            .enumerate()
            .map(|(i, &p)| {
                let c = f.reg_class(p).unwrap_or(RegClass::R32);
                (c, flags.and_then(|v| v.get(i)).copied().unwrap_or(false))
            })
            .collect();
        out.insert(f.name.clone(), FuncAbi { params, rets: f.rets.clone() });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_start_at_r4_with_pairs_on_even_registers() {
        let (r32, r64, p) = (RegClass::R32, RegClass::R64, RegClass::P);
        assert_eq!(words(&[r32, r64, r32, p]).unwrap(), vec![4, 6, 8, 9]);
        assert_eq!(words(&[r64, r64]).unwrap(), vec![4, 6]);
        let regs: Vec<u16> = word_regs(&[r32, r64, p]).unwrap().iter().map(|r| r.index).collect();
        assert_eq!(regs, vec![4, 6, 7, 8]);
        // Too many words is an error, not a wrap-around.
        assert!(words(&vec![r64; 200]).is_err());
        assert!(words(&[RegClass::R128]).is_err());
    }
}
