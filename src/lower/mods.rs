//! A PTX instruction's dotted modifiers, sorted into the kinds lowering needs.
//!
//! Every modifier lands in exactly one place: a type, a comparison, a rounding mode, a flag, a
//! state space, a vector width, an ignored qualifier (memory-ordering semantics, scopes, cache
//! operators and hints, which do not change a single-threaded-per-lane result in this model),
//! or `rest` — the opcode-specific words (`.up`, `.add`, `.wrap`, ...), which each instruction
//! family consumes and whose leftovers are reported as unsupported.

use crate::ori::{Cmp, Rnd, Space};
use crate::ptx::ast::{Instruction, Span};

/// The sorted modifiers of one instruction.
#[derive(Clone, Debug, Default)]
pub struct PtxMods {
    /// Type keywords, in order, without the dot (`u32`, `f16x2`).
    pub types: Vec<String>,
    /// Comparison (`setp`, `set`).
    pub cmp: Option<Cmp>,
    /// Rounding.
    pub rnd: Option<Rnd>,
    /// State space.
    pub space: Option<Space>,
    /// Vector width (`.v2`, `.v4`).
    pub vec: u8,
    /// Flags, without the dot: ftz sat approx full cc uni sync aligned volatile wide lo hi to
    /// shiftamt relu, and `NaN` (exactly so spelled; lower-case `nan` is a comparison).
    pub flags: Vec<String>,
    /// Opcode-specific words, without the dot.
    pub rest: Vec<String>,
    /// Where the instruction is.
    pub span: Span,
}

const TYPES: &[&str] = &[
    "pred", "b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "f16", "f16x2",
    "bf16", "bf16x2", "f32", "f64", "tf32", "e4m3", "e5m2", "e4m3x2", "e5m2x2", "u4", "s4", "u2", "s2",
];
const FLAGS: &[&str] = &[
    "ftz", "sat", "approx", "full", "cc", "uni", "sync", "aligned", "volatile", "wide", "to", "shiftamt", "NaN", "relu",
];
const IGNORED: &[&str] = &[
    "relaxed", "acquire", "release", "acq_rel", "sc", "weak", "mmio", "cta", "gpu", "sys", "ca", "cg", "cs", "lu",
    "cv", "wb", "wt", "nc", "noftz", "unified",
];

impl PtxMods {
    /// Sorts `i`'s modifiers. `cmp_words`: whether `lo`/`hi`/`ls`/`hs` are comparisons here.
    pub fn of(i: &Instruction, cmp_words: bool) -> PtxMods {
        let mut m = PtxMods { span: i.span, ..PtxMods::default() };
        for md in &i.modifiers {
            let t = md.text.trim_start_matches('.');
            if TYPES.contains(&t) {
                m.types.push(t.to_owned());
            } else if t == "NaN" {
                // `min.NaN`/`max.NaN`: PTX's word for NaN propagation, which the comparison
                // `nan` (matched case-insensitively below) would otherwise take.
                m.flags.push(t.to_owned());
            } else if let Some(c) = Cmp::from_name(t).filter(|_| cmp_words || !matches!(t, "lo" | "hi" | "ls" | "hs")) {
                m.cmp = Some(c);
            } else if let Some(r) = Rnd::from_name(t) {
                m.rnd = Some(r);
            } else if t == "rna" {
                m.rest.push(t.to_owned());
            } else if let Some(s) = space_of(t) {
                m.space = Some(s);
            } else if let Some(v) = t.strip_prefix('v').and_then(|n| n.parse::<u8>().ok()) {
                m.vec = v;
            } else if FLAGS.contains(&t) || matches!(t, "lo" | "hi") {
                m.flags.push(t.to_owned());
            } else if IGNORED.contains(&t) || t.starts_with("L1::") || t.starts_with("L2::") || t.starts_with("level::")
            {
            } else {
                m.rest.push(t.to_owned());
            }
        }
        m
    }

    /// Whether flag `f` is present.
    pub fn has(&self, f: &str) -> bool {
        self.flags.iter().any(|x| x == f)
    }

    /// Removes and returns the first `rest` word that is in `words`.
    pub fn take(&mut self, words: &[&str]) -> Option<String> {
        let i = self.rest.iter().position(|w| words.contains(&w.as_str()))?;
        Some(self.rest.remove(i))
    }
}

/// The Ori space of a PTX state-space modifier (`shared::cta` and `shared::cluster` are shared
/// memory: a cluster here is one CTA).
pub fn space_of(t: &str) -> Option<Space> {
    Some(match t.trim_start_matches('.') {
        "global" => Space::Global,
        "shared" | "shared::cta" | "shared::cluster" => Space::Shared,
        "local" => Space::Local,
        "const" => Space::Const,
        "param" | "param::entry" | "param::func" => Space::Param,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(line: &str) -> String {
        format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.entry k() {{\n.reg .f32 %f<4>;\n.reg .f64 %d<4>;\n\
             .reg .b32 %r<4>;\n.reg .pred %p;\n{line}\n}}\n"
        )
    }

    fn mods_of(line: &str) -> PtxMods {
        let m = crate::ptx::parse(&kernel(line), "t.ptx").expect("parses");
        let Some(crate::ptx::ast::Item::Function(f)) = m.items.first() else { panic!("no function") };
        let body = f.body.as_deref().unwrap_or_default();
        let i = body
            .iter()
            .find_map(|s| match s {
                crate::ptx::ast::Statement::Instruction(i) => Some(i),
                _ => None,
            })
            .expect("an instruction");
        PtxMods::of(i, false)
    }

    /// `.NaN` is the min/max flag, `.nan` the setp comparison: the two differ in case only.
    #[test]
    fn nan_flag_and_nan_comparison() {
        let m = mods_of("min.NaN.f32 %f1, %f2, %f3;");
        assert!(m.has("NaN"), "{m:?}");
        assert_eq!(m.cmp, None);
        let m = mods_of("max.ftz.NaN.f32 %f1, %f2, %f3;");
        assert!(m.has("NaN") && m.has("ftz"), "{m:?}");
        let m = mods_of("setp.nan.f32 %p, %f2, %f3;");
        assert_eq!(m.cmp, Some(Cmp::Nan));
        assert!(!m.has("NaN"), "{m:?}");
    }

    /// The flag reaches the Ori `min`/`max` (f32 and the half types); PTX has no `.NaN` for
    /// f64 or integer min/max, and lowering says so.
    #[test]
    fn nan_flag_lowers_to_ori_min_max() {
        let ori = |line: &str| crate::lower::lower_source(&kernel(line)).map(|m| m.to_string());
        assert!(ori("min.NaN.f32 %f1, %f2, %f3;").unwrap().contains("min.NaN.f32"));
        assert!(ori("max.ftz.NaN.f32 %f1, %f2, %f3;").unwrap().contains("max.ftz.NaN.f32"));
        assert!(ori("max.NaN.bf16x2 %r1, %r2, %r3;").unwrap().contains("max.NaN.bf16x2"));
        assert!(ori("min.f32 %f1, %f2, %f3;").unwrap().contains("min.f32"));
        for bad in ["min.NaN.f64 %d1, %d2, %d3;", "max.NaN.s32 %r1, %r2, %r3;"] {
            let e = ori(bad).expect_err(bad);
            assert!(e.message.contains(".NaN` takes f32, f16, f16x2, bf16 or bf16x2"), "{bad}: {e:?}");
        }
    }
}
