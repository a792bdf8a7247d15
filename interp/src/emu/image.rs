//! The code image of a kernel as the driver loads it: the kernel's `.text.<kernel>` section and
//! every `.text.*` section its code reaches through relocations, each at a code address, with the
//! cubin's code relocations applied to the words.
//!
//! ptxas's `-O3` code keeps a kernel's subroutines in its own section (`CALL.REL`), but debug
//! code (`nvcc -G`, clang `-O0 -g`) calls functions in other sections with `CALL.ABS.NOINC`, whose
//! target the driver writes into the word (`R_CUDA_ABS55_16_34` on sm_90, `R_CUDA_ABS47_34`
//! before), and passes the return address in a register pair built by `MOV R20, 32@lo(...)` /
//! `MOV R21, 32@hi(...)` (`R_CUDA_ABS32_LO_32` / `R_CUDA_ABS32_HI_32`), which `RET.ABS` jumps
//! to. Function pointers in module data (`R_CUDA_64` against a function) reach code the same way.
//!
//! Invariants:
//! - The kernel's section is at code address 0 (so byte offsets in it are code addresses, as
//!   before, and `CALL.REL`/`BRA`/`LEPC` targets are unchanged); every other reached section
//!   follows in section-index order at its ELF alignment (at least 16), the gaps holding zero
//!   words. A code address is a byte offset in [`CodeImage::words`] (`/ 16`: the instruction
//!   index), so relative targets inside a section and absolute ones across sections agree.
//! - Code addresses stay below 2^32 and far below [`crate::sysfn::SYSFN_ADDRESS_BASE`]; no
//!   function but the kernel's own entry (to which nothing returns) sits at address 0, so a null
//!   function pointer is never a function.
//! - A relocation is applied as its type defines it (field, shift, width: [`apply`]); one whose
//!   type or symbol this model does not know leaves its instruction refused at execution
//!   ([`CodeImage::patch`]'s second result), never silently unrelocated.

use ptxas_rs::cubin::Cubin;

/// `R_CUDA_ABS32_32`: the 32-bit address at bit 32 (a `MOV`'s immediate).
const ABS32_32: u32 = 0x37;
/// `R_CUDA_ABS32_LO_32`: the low half of the address at bit 32 (`MOV R20, 32@lo(f)`).
const ABS32_LO_32: u32 = 0x38;
/// `R_CUDA_ABS32_HI_32`: the high half at bit 32 (`MOV R21, 32@hi(f)`).
const ABS32_HI_32: u32 = 0x39;
/// `R_CUDA_ABS47_34`: address bits [2:49) at bit 34 (sm_80 family's `CALL.ABS`; nvdisasm -b
/// SM80 prints bit 34 of the word as `CALL.ABS.NOINC 0x4`).
const ABS47_34: u32 = 0x3a;
/// `R_CUDA_ABS55_16_34`: address bits [2:10) at bit 16 and [10:57) at bit 34 (sm_90's
/// `CALL.ABS`, [`ptxas_rs::sass::form::TargetKind::SplitAbsolute`]).
const ABS55_16_34: u32 = 0x4b;

/// What a relocation's symbol stands for, resolved at launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RelocTarget {
    /// Code: the address is known at load (`base` of the symbol's section + symbol value).
    Code(u64),
    /// A data section (`.nv.global*`, a bank): resolved by the launch's memory layout.
    Data(String),
    /// An undefined system function (`vprintf`...): [`crate::sysfn::address_of`].
    SysFn(crate::sysfn::SysFn),
    /// Anything else (the reason), refused when its instruction executes.
    Unknown(String),
}

/// A relocation of one code word.
#[derive(Clone, Debug)]
pub struct CodeReloc {
    /// Code address of the word.
    pub at: u64,
    /// `R_CUDA_*` type.
    pub kind: u32,
    /// The symbol.
    pub target: RelocTarget,
    /// Symbol value (for [`RelocTarget::Data`]) plus addend.
    pub addend: u64,
    /// A REL relocation (no addend: the field holds it).
    pub rel: bool,
}

/// The loaded code: words at code addresses, and the relocations to apply at launch.
#[derive(Clone, Debug, Default)]
pub struct CodeImage {
    /// One word per 16 bytes of code address.
    pub words: Vec<u128>,
    /// Each placed section's name and code address.
    pub bases: Vec<(String, u64)>,
    /// The code relocations.
    pub relocs: Vec<CodeReloc>,
}

fn is_text(cubin: &Cubin, shndx: usize) -> bool {
    cubin.sections.get(shndx).is_some_and(|s| s.name.starts_with(".text."))
}

impl CodeImage {
    /// Lays out the kernel's section `kernel` and every code section reached from it, or from
    /// `roots` (sections that module data points at: function pointers).
    pub fn load(cubin: &Cubin, kernel: usize, roots: &[usize]) -> CodeImage {
        // The sections reached, through the code's relocations, from the kernel and the roots.
        let mut reached = vec![kernel];
        reached.extend(roots.iter().copied().filter(|&r| r != kernel && is_text(cubin, r)));
        let mut i = 0;
        while i < reached.len() {
            let sec = reached[i] as u32;
            for r in cubin.relocations.iter().filter(|r| r.target == sec) {
                let Some(sym) = cubin.symbols.get(r.symbol as usize) else { continue };
                let s = usize::from(sym.shndx);
                if is_text(cubin, s) && !reached.contains(&s) {
                    reached.push(s);
                }
            }
            i += 1;
        }
        reached[1..].sort_unstable();
        let mut img = CodeImage::default();
        for &s in &reached {
            let sec = &cubin.sections[s];
            let base = (img.words.len() as u64 * 16).next_multiple_of(sec.align.max(16));
            img.words.resize((base / 16) as usize, 0);
            img.words
                .extend(sec.data.chunks_exact(16).map(|c| c.iter().rev().fold(0u128, |a, &b| a << 8 | u128::from(b))));
            img.bases.push((sec.name.clone(), base));
        }
        for (&s, (_, base)) in reached.iter().zip(img.bases.clone()) {
            for r in cubin.relocations.iter().filter(|r| r.target == s as u32) {
                let sym = cubin.symbols.get(r.symbol as usize);
                let addend = r.addend.unwrap_or(0) as u64;
                let target = match sym {
                    None => RelocTarget::Unknown(format!("symbol {} missing", r.symbol)),
                    Some(sym) if sym.shndx == 0 => match crate::sysfn::SysFn::by_name(&sym.name) {
                        Some(f) => RelocTarget::SysFn(f),
                        None => RelocTarget::Unknown(format!("undefined symbol `{}`", sym.name)),
                    },
                    Some(sym) => match cubin.sections.get(usize::from(sym.shndx)) {
                        Some(t) if t.name.starts_with(".text.") => match img.base_of(&t.name) {
                            Some(b) => RelocTarget::Code(b.wrapping_add(sym.value)),
                            None => RelocTarget::Unknown(format!("code section {} not loaded", t.name)),
                        },
                        Some(t) if t.name.starts_with(".nv.global") => RelocTarget::Data(t.name.clone()),
                        Some(t) => RelocTarget::Unknown(format!("a symbol in {}", t.name)),
                        None => RelocTarget::Unknown(format!("section {} missing", sym.shndx)),
                    },
                };
                let addend = match (&target, sym) {
                    (RelocTarget::Data(_), Some(sym)) => sym.value.wrapping_add(addend),
                    _ => addend,
                };
                img.relocs.push(CodeReloc {
                    at: base + r.offset,
                    kind: r.kind,
                    target,
                    addend,
                    rel: r.addend.is_none(),
                });
            }
        }
        img
    }

    /// The code address of section `name`, if placed.
    pub fn base_of(&self, name: &str) -> Option<u64> {
        self.bases.iter().find(|(n, _)| n == name).map(|x| x.1)
    }

    /// `words` (this image's, [`CodeImage::words`], or a mutation of them) with every relocation
    /// applied; `data` resolves a data section's address. The
    /// second result lists the instructions (index, reason) whose relocation is not modelled.
    pub fn patch(&self, words: &[u128], data: impl Fn(&str) -> Option<u64>) -> (Vec<u128>, Vec<(usize, String)>) {
        let mut words = words.to_vec();
        let mut refused = Vec::new();
        for r in &self.relocs {
            let idx = (r.at / 16) as usize;
            let name = ptxas_rs::cubin::names::reloc_name(r.kind).unwrap_or_else(|| format!("type {:#x}", r.kind));
            let value = match &r.target {
                RelocTarget::Code(a) => Ok(a.wrapping_add(r.addend)),
                RelocTarget::SysFn(f) => Ok(crate::sysfn::address_of(*f).wrapping_add(r.addend)),
                RelocTarget::Data(n) => data(n).map(|b| b.wrapping_add(r.addend)).ok_or(format!("{n} not placed")),
                RelocTarget::Unknown(why) => Err(why.clone()),
            };
            let Some(w) = words.get_mut(idx) else { continue };
            let applied = value.and_then(|v| {
                if r.rel && field(r.kind, *w) != Some(0) {
                    return Err("a REL relocation with an addend in the field".into());
                }
                apply(r.kind, *w, v).ok_or(format!("type {name}"))
            });
            match applied {
                Ok(nw) => *w = nw,
                Err(why) => refused.push((idx, format!("not implemented: relocation {name} at {:#x}: {why}", r.at))),
            }
        }
        (words, refused)
    }
}

/// The bits of `word` a relocation of type `kind` writes, if the type is modelled.
fn field(kind: u32, word: u128) -> Option<u128> {
    let m = |at: u32, n: u32| ((1u128 << n) - 1) << at;
    let mask = match kind {
        ABS32_32 | ABS32_LO_32 | ABS32_HI_32 => m(32, 32),
        ABS47_34 => m(34, 47),
        ABS55_16_34 => m(16, 8) | m(34, 47),
        _ => return None,
    };
    Some(word & mask)
}

/// `word` with the address `v` written as relocation type `kind` defines, or `None` for a type
/// this model does not know.
pub fn apply(kind: u32, word: u128, v: u64) -> Option<u128> {
    let put = |w: u128, at: u32, n: u32, x: u64| {
        let mask = ((1u128 << n) - 1) << at;
        w & !mask | (u128::from(x) << at) & mask
    };
    Some(match kind {
        ABS32_32 | ABS32_LO_32 => put(word, 32, 32, v & 0xffff_ffff),
        ABS32_HI_32 => put(word, 32, 32, v >> 32),
        ABS47_34 => put(word, 34, 47, v >> 2),
        ABS55_16_34 => put(put(word, 16, 8, (v >> 2) & 0xff), 34, 47, v >> 10),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// sm_90's `CALL.ABS.NOINC` decodes the address `ABS55_16_34` writes, for random full-width
    /// addresses (57 bits, 4-aligned) and the edges.
    #[test]
    fn abs55_16_34_round_trips_through_the_sm90_decoder() {
        let t = ptxas_rs::sass::tables_for("sm_90").unwrap();
        let word = 0x003fde0003c00000_0000000000007943u128;
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut cases = vec![0u64, 4, 0x3fc, 0x400, (1 << 57) - 4];
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            cases.push(x & ((1 << 57) - 4));
        }
        for v in cases {
            let w = apply(ABS55_16_34, word, v).unwrap();
            let d = t.decode(w).unwrap();
            let got = d.operands.iter().find_map(|o| match o.value {
                ptxas_rs::sass::Value::Target(t) => Some(t),
                _ => None,
            });
            assert_eq!(got, Some(v as i64), "{w:#034x}");
            // The control bits and opcode stay.
            assert_eq!(w & !(((1u128 << 8) - 1) << 16 | ((1u128 << 47) - 1) << 34), word);
        }
    }

    /// The sm_80 family's `CALL.ABS.NOINC` decodes the address `ABS47_34` writes (bits [2:49),
    /// nvdisasm -b SM80: bit 34 of the word prints `0x4`, bit 63 `0x80000000`, bit 80
    /// `0x1000000000000`).
    #[test]
    fn abs47_34_round_trips_through_the_sm80_decoder() {
        let t = ptxas_rs::sass::tables_for("sm_80").unwrap();
        let word = 0x003fde0003c00000_0000000000007943u128;
        let target = |w: u128| {
            t.decode(w).unwrap().operands.iter().find_map(|o| match o.value {
                ptxas_rs::sass::Value::Target(t) => Some(t),
                _ => None,
            })
        };
        assert_eq!(target(word | 1 << 34), Some(4));
        assert_eq!(target(word | 1 << 63), Some(0x8000_0000));
        assert_eq!(target(word | 1 << 80), Some(0x1_0000_0000_0000));
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = x & ((1 << 49) - 4);
            assert_eq!(target(apply(ABS47_34, word, v).unwrap()), Some(v as i64));
        }
    }

    #[test]
    fn lo_hi_32_split_the_address() {
        let mov = 0x000fe20000000f00_0000000000147802u128;
        let v = 0x1234_5678_9abc_def0u64;
        assert_eq!(apply(ABS32_LO_32, mov, v).unwrap() >> 32 & 0xffff_ffff, 0x9abc_def0);
        assert_eq!(apply(ABS32_HI_32, mov, v).unwrap() >> 32 & 0xffff_ffff, 0x1234_5678);
        assert_eq!(apply(ABS32_LO_32, mov, v).unwrap() & 0xffff_ffff, mov & 0xffff_ffff);
        assert_eq!(apply(0x99, mov, v), None);
    }
}
