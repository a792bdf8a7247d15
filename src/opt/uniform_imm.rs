//! ReplaceUniformsWithImm (12): uniform values that are compile-time constants of the target
//! become immediates, so that the optimizer folds what is computed from them.
//!
//! # What ptxas 13.0.88 folds (measured, `cuobjdump -sass`, one `mov` per special register)
//!
//! | PTX | sm_80/86/89 | sm_90 | sm_100 |
//! |---|---|---|---|
//! | `%reserved_smem_offset_begin` | `SR_SMEMSZ - c[0x0][0x114]` | **0** | **0** |
//! | `%reserved_smem_offset_cap` | `SR_SMEMSZ` | **0x400** | **0x400** |
//! | `%reserved_smem_offset_0` | `SR_SMEMSZ - c[0x0][0x114]` | **0** | **0x40** |
//! | `%reserved_smem_offset_end` | `c[0x0][0x120]` | `c[0x0][0x68]` | `c[0x0][SR_CgaSize * -0xa0 + 0x278]` |
//! | `%reserved_smem_offset_1` | `c[0x0][0x124]` | `c[0x0][0x6c]` | `c[0x0][SR_CgaSize * -0xa0 + 0x27c]` |
//!
//! (sm_75 rejects them: "requires .target sm_80 or higher".) The bold entries are immediates in
//! ptxas's code: those are what this phase substitutes. Nothing else the corpus reads is folded
//! by ptxas on sm_90: parameters, initialized `.const` variables, `%ntid` under `.reqntid` and
//! the cluster shape under `.reqnctapercluster` all stay constant-bank reads (see the phase
//! table's note), so they stay here too.
//!
//! ptxas's code has them as immediates but does not fold further what is computed from them
//! (sreg_reserved_smem: `MOV R4, 0x400; SHF.R.U32.HI R7, RZ, 0xa, R4` for `cap >> 10`), so ptxas
//! substitutes them late, after its optimizer; which of its phases does it is not established.
//! Here they become immediates in this phase, so GeneralOptimize folds what depends on them: a
//! difference from ptxas's code, not from its results.
//!
//! The backend generates sm_90 code only, so the constants are sm_90's
//! ([`reserved_smem_constant`]); the interpreter gives these registers the same values under the
//! sm_90 bank-0 layout, which is what translation validation checks.
//!
//! # Invariants
//!
//! - Only a source operand that is one of these special registers changes, into the immediate
//!   of the same value; every instruction keeps its place, opcode and other operands. Each
//!   replaced operand counts one change.
//! - SASS-stage functions are left alone (selection reads the registers itself).

use super::{Pass, PassError, PassKind};
use crate::ori::{Function, Imm, Operand, SpecialReg};

/// Phase 12.
pub struct ReplaceUniformsWithImm;

/// The value of a special register that is a compile-time constant on sm_90, if it is one:
/// `%reserved_smem_offset_begin` and `%reserved_smem_offset_0` (0, the reserved window opens the
/// CTA's shared memory) and `%reserved_smem_offset_cap` (0x400, its size).
pub fn reserved_smem_constant(sr: SpecialReg) -> Option<u32> {
    match sr {
        SpecialReg::ReservedSmemBegin | SpecialReg::ReservedSmem0 => Some(0),
        SpecialReg::ReservedSmemCap => Some(crate::cubin::writer::RESERVED_SHARED as u32),
        _ => None,
    }
}

impl Pass for ReplaceUniformsWithImm {
    fn kind(&self) -> PassKind {
        PassKind::Transform
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        if f.sass {
            return Ok(0);
        }
        let mut changes = 0;
        for (_, d) in f.insts.iter_mut() {
            for o in &mut d.srcs {
                if let Operand::SReg(sr) = *o
                    && let Some(v) = reserved_smem_constant(sr)
                {
                    *o = Operand::Imm(Imm::Int(v.into()));
                    changes += 1;
                }
            }
        }
        Ok(changes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ori::parse_function;

    #[test]
    fn folds_the_constant_reserved_registers_only() {
        let mut f = parse_function(
            "entry @k() {\nbb0:\n    %r0 = mov.u32 SR_RESERVED_SMEM_OFFSET_BEGIN\n    \
             %r1 = mov.u32 SR_RESERVED_SMEM_OFFSET_CAP\n    %r2 = mov.u32 SR_RESERVED_SMEM_OFFSET_0\n    \
             %r3 = mov.u32 SR_RESERVED_SMEM_OFFSET_END\n    %r4 = mov.u32 SR_RESERVED_SMEM_OFFSET_1\n    \
             %r5 = mov.u32 SR_TID.X\n    exit\n}\n",
        )
        .unwrap();
        assert_eq!(ReplaceUniformsWithImm.run_function(&mut f).unwrap(), 3);
        let srcs: Vec<&Operand> = f.insts.iter().filter_map(|(_, d)| d.srcs.first()).collect();
        assert_eq!(srcs[0], &Operand::Imm(Imm::Int(0)));
        assert_eq!(srcs[1], &Operand::Imm(Imm::Int(0x400)));
        assert_eq!(srcs[2], &Operand::Imm(Imm::Int(0)));
        assert_eq!(srcs[3], &Operand::SReg(SpecialReg::ReservedSmemEnd));
        assert_eq!(srcs[4], &Operand::SReg(SpecialReg::ReservedSmem1));
        assert_eq!(srcs[5], &Operand::SReg(SpecialReg::TidX));
        assert_eq!(ReplaceUniformsWithImm.run_function(&mut f).unwrap(), 0, "idempotent");
    }
}
