//! The instruction-form sweep (issue 22): PTX micro-kernels generated from the PTX instruction
//! table ([`ptxas_rs::ptx::isa`]) × types × modifier combinations × operand kinds, each with a
//! launch spec, so that NVIDIA ptxas's code for every form can be decoded, emulated and
//! compared with the Ori interpreter.
//!
//! A [`Case`] is one instruction in one form: its sources are read from one input buffer each
//! (`edge`-initialised: random full-width values mixed with the type's edge values), the
//! instruction executes once per thread (128 threads, 4 warps), and every result is stored to
//! an output buffer of its own. Operand kinds ([`OperandKind`]): all registers, a small or a
//! full-width immediate in one source position, or the instruction guarded by a per-lane
//! predicate (`@%pg`, odd lanes) with the destinations zeroed first.
//!
//! [`families`] enumerates the cases; [`module_text`] batches cases into one PTX module (one
//! `.entry` per case) for one target and records which lines belong to which case, so a ptxas
//! run that rejects some cases names them by line.
//!
//! Invariants:
//! - Deterministic: the same build enumerates the same cases in the same order with the same
//!   text and launch specs (seeds come from a hash of the case name, not from a clock).
//! - Case names are unique and valid PTX identifiers.
//! - A case's PTX text does not depend on the target except in the `.target` line.

pub mod families;

use std::fmt::Write as _;

use crate::launch::{ElemType, LaunchSpec};

/// Threads per micro-kernel launch (one CTA of 4 warps); also every buffer's length.
pub const THREADS: usize = 128;

/// The targets of the sweep, as `.target` and ptxas's `-arch` spell them.
pub const ARCHS: &[&str] = &["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_120"];

/// The PTX ISA version every micro-kernel declares (ptxas 13.0 reads up to 9.0).
pub const PTX_VERSION: &str = "9.0";

/// A value slot of an instruction: a register of some width holding a value of a PTX type, or
/// a predicate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slot {
    /// A `.b16`/`.b32`/`.b64` register holding a value of PTX type `ty` (no dot; `u8`/`s8`
    /// live in 16-bit registers, packed types such as `f16x2` in 32-bit ones).
    Reg {
        /// The PTX type.
        ty: String,
    },
    /// A predicate (read from / written to a `u32` buffer as 0 or 1).
    Pred,
}

impl Slot {
    /// A register slot of PTX type `ty`.
    pub fn reg(ty: &str) -> Slot {
        Slot::Reg { ty: ty.to_string() }
    }
    /// The register width in bits (predicates: 1).
    pub fn width(&self) -> u32 {
        match self {
            Slot::Pred => 1,
            Slot::Reg { ty } => reg_width(ty),
        }
    }
    /// The buffer element type that holds this slot's values.
    pub fn elem(&self) -> ElemType {
        match self {
            Slot::Pred => ElemType::U32,
            Slot::Reg { ty } => elem_of(ty),
        }
    }
    fn decl(&self) -> String {
        match self {
            Slot::Pred => ".pred".into(),
            Slot::Reg { .. } => format!(".b{}", self.width()),
        }
    }
}

/// The register width of PTX type `ty` (8-bit types use 16-bit registers).
pub fn reg_width(ty: &str) -> u32 {
    match ty {
        "u8" | "s8" | "b8" | "u16" | "s16" | "b16" | "f16" | "bf16" => 16,
        "u64" | "s64" | "b64" | "f64" => 64,
        _ => 32,
    }
}

/// The buffer element type for values of PTX type `ty`.
pub fn elem_of(ty: &str) -> ElemType {
    match ty {
        "u8" => ElemType::U8,
        "s8" => ElemType::S8,
        "u16" => ElemType::U16,
        "s16" => ElemType::S16,
        "u32" => ElemType::U32,
        "s32" => ElemType::S32,
        "u64" => ElemType::U64,
        "s64" => ElemType::S64,
        "f16" => ElemType::F16,
        "bf16" => ElemType::Bf16,
        "f32" => ElemType::F32,
        "f64" => ElemType::F64,
        "b8" => ElemType::B8,
        "b16" => ElemType::B16,
        "b64" => ElemType::B64,
        _ => ElemType::B32,
    }
}

/// How the sources reach the instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OperandKind {
    /// Every source a register.
    Reg,
    /// Source `i` a small immediate (1 for integers, 1.5 for floats).
    SmallImm(usize),
    /// Source `i` a full-width immediate (a 32/64-bit pattern with every byte nonzero; π for
    /// floats).
    FullImm(usize),
    /// Every source a register, the instruction guarded by `@%pg` (odd lanes), destinations
    /// zeroed before.
    Guard,
}

impl OperandKind {
    /// The suffix of case names (`r`, `i1`, `I2`, `g`).
    pub fn tag(self) -> String {
        match self {
            OperandKind::Reg => "r".into(),
            OperandKind::SmallImm(i) => format!("i{i}"),
            OperandKind::FullImm(i) => format!("I{i}"),
            OperandKind::Guard => "g".into(),
        }
    }
}

/// One instruction form and its micro-kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// Entry name (unique, a PTX identifier).
    pub name: String,
    /// The family it belongs to (one PTX file per family and target).
    pub family: &'static str,
    /// The instruction without operands (`add.rn.ftz.f32`).
    pub opcode: String,
    /// Destination slots, in operand order (a `p|q` pair is two).
    pub dests: Vec<Slot>,
    /// Source slots, in operand order.
    pub srcs: Vec<Slot>,
    /// Trailing operands that are fixed immediates (`lop3`'s truth table, `prmt`'s selector
    /// when it is a literal), printed after the sources.
    pub fixed: Vec<String>,
    /// How the sources are given.
    pub kind: OperandKind,
    /// Destinations joined as `p|q` (setp's two-predicate form).
    pub pair_dest: bool,
}

impl Case {
    /// The PTX source operand for source `i`: a register or this case's immediate.
    fn src_text(&self, i: usize) -> String {
        match self.kind {
            OperandKind::SmallImm(j) | OperandKind::FullImm(j) if j == i => {
                immediate(&self.srcs[i], matches!(self.kind, OperandKind::FullImm(_)))
            }
            _ => format!("%s{i}"),
        }
    }

    /// Whether source `i` is read from its buffer (not an immediate).
    pub fn reads(&self, i: usize) -> bool {
        !matches!(self.kind, OperandKind::SmallImm(j) | OperandKind::FullImm(j) if j == i)
    }

    /// The instruction line as it appears in the kernel.
    pub fn instruction(&self) -> String {
        let mut ops: Vec<String> = Vec::new();
        if self.pair_dest {
            ops.push("%d0|%d1".into());
        } else {
            ops.extend((0..self.dests.len()).map(|i| format!("%d{i}")));
        }
        ops.extend((0..self.srcs.len()).map(|i| self.src_text(i)));
        ops.extend(self.fixed.iter().cloned());
        let guard = if self.kind == OperandKind::Guard { "@%pg " } else { "" };
        format!("{guard}{} {};", self.opcode, ops.join(", "))
    }

    /// The kernel's `.entry` (parameters: one global address per read source, then one per
    /// destination).
    pub fn entry_text(&self) -> String {
        let reads: Vec<usize> = (0..self.srcs.len()).filter(|&i| self.reads(i)).collect();
        let mut params: Vec<String> = reads.iter().map(|i| format!(".param .u64 pa{i}")).collect();
        params.extend((0..self.dests.len()).map(|i| format!(".param .u64 pd{i}")));
        let mut t = String::new();
        let _ = writeln!(t, ".visible .entry {}(\n\t{}\n)\n{{", self.name, params.join(",\n\t"));
        t.push_str("\t.reg .b32 %t;\n\t.reg .b64 %off8, %base, %addr;\n\t.reg .b32 %w;\n\t.reg .pred %pg;\n");
        for (i, s) in self.srcs.iter().enumerate() {
            let _ = writeln!(t, "\t.reg {} %s{i};", s.decl());
        }
        for (i, s) in self.dests.iter().enumerate() {
            let _ = writeln!(t, "\t.reg {} %d{i};", s.decl());
        }
        t.push_str("\tmov.u32 %t, %tid.x;\n");
        for &i in &reads {
            load(&mut t, &format!("pa{i}"), &format!("%s{i}"), &self.srcs[i]);
        }
        if self.kind == OperandKind::Guard {
            t.push_str("\tand.b32 %w, %t, 1;\n\tsetp.ne.b32 %pg, %w, 0;\n");
            for (i, d) in self.dests.iter().enumerate() {
                match d {
                    Slot::Pred => {
                        let _ = writeln!(t, "\tsetp.eq.b32 %d{i}, %t, 4096;");
                    }
                    _ => {
                        let _ = writeln!(t, "\tmov.b{} %d{i}, 0;", d.width());
                    }
                }
            }
        }
        let _ = writeln!(t, "\t{}", self.instruction());
        for (i, d) in self.dests.iter().enumerate() {
            store(&mut t, &format!("pd{i}"), &format!("%d{i}"), d);
        }
        t.push_str("\tret;\n}\n");
        t
    }

    /// A standalone PTX module of this case for `arch` (what the interpreter runs, and the
    /// reproducer a disagreement points at).
    pub fn module_text(&self, arch: &str) -> String {
        format!("{}{}", header(arch), self.entry_text())
    }

    /// The launch spec (TOML, the contract of `shared/notes/launch-spec.md`).
    pub fn spec_toml(&self) -> String {
        let mut t = format!("kernel = \"{}\"\ngrid = [1, 1, 1]\nblock = [{THREADS}, 1, 1]\n", self.name);
        let reads: Vec<usize> = (0..self.srcs.len()).filter(|&i| self.reads(i)).collect();
        for &i in &reads {
            let _ = writeln!(t, "\n[[param]]\nbuffer = \"a{i}\"");
        }
        for i in 0..self.dests.len() {
            let _ = writeln!(t, "\n[[param]]\nbuffer = \"d{i}\"");
        }
        let seed = fnv1a(self.name.as_bytes());
        for &i in &reads {
            let s = &self.srcs[i];
            let init = match s {
                // Predicates: 0 or 1, mixed.
                Slot::Pred => "{ values = [0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1] }".to_string(),
                _ => format!("{{ edge = {{ seed = {} }} }}", (seed ^ (i as u64 * 0x9e37_79b9)) & 0xffff_ffff),
            };
            let _ = writeln!(t, "\n[buffer.a{i}]\ntype = \"{}\"\nlen = {THREADS}\ninit = {init}", s.elem().name());
        }
        for (i, d) in self.dests.iter().enumerate() {
            let _ = writeln!(
                t,
                "\n[buffer.d{i}]\ntype = \"{}\"\nlen = {THREADS}\ninit = {{ fill = 0 }}\noutput = true",
                d.elem().name()
            );
        }
        t
    }

    /// The parsed launch spec.
    pub fn spec(&self) -> LaunchSpec {
        LaunchSpec::from_toml_str_named(&self.spec_toml(), &format!("{}.run.toml", self.name))
            .unwrap_or_else(|e| panic!("the generated spec of {} does not parse: {e}", self.name))
    }
}

/// The module header for `arch`.
pub fn header(arch: &str) -> String {
    format!(".version {PTX_VERSION}\n.target {arch}\n.address_size 64\n\n")
}

/// A batch of cases as one PTX module for `arch`, with the 1-based line range of each case's
/// entry (`lines[i]` belongs to `cases[i]`).
pub fn module_text(cases: &[&Case], arch: &str) -> (String, Vec<(u32, u32)>) {
    let entries: Vec<String> = cases.iter().map(|c| c.entry_text()).collect();
    module_of_entries(&entries, arch)
}

/// Module-level texts (each an `.entry` with any module-scope declarations it needs) as one PTX
/// module for `arch`, with the 1-based line range of each (`lines[i]` belongs to `entries[i]`).
pub fn module_of_entries(entries: &[String], arch: &str) -> (String, Vec<(u32, u32)>) {
    let mut text = header(arch);
    let mut ranges = Vec::with_capacity(entries.len());
    let mut lines = text.lines().count() as u32 + 1;
    for e in entries {
        let n = e.lines().count() as u32;
        text.push_str(e);
        text.push('\n');
        ranges.push((lines, lines + n - 1));
        lines += n + 1;
    }
    (text, ranges)
}

/// FNV-1a, 64 bits (seeds and cache keys; stable across builds and platforms).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

fn load(t: &mut String, param: &str, reg: &str, s: &Slot) {
    let size = s.elem().size();
    let _ = writeln!(t, "\tld.param.u64 %base, [{param}];\n\tcvta.to.global.u64 %base, %base;");
    let _ = writeln!(t, "\tmul.wide.u32 %off8, %t, {size};\n\tadd.s64 %addr, %base, %off8;");
    match s {
        Slot::Pred => {
            let _ = writeln!(t, "\tld.global.u32 %w, [%addr];\n\tsetp.ne.b32 {reg}, %w, 0;");
        }
        Slot::Reg { ty } => {
            let _ = writeln!(t, "\tld.global.{} {reg}, [%addr];", mem_type(ty));
        }
    }
}

fn store(t: &mut String, param: &str, reg: &str, s: &Slot) {
    let size = s.elem().size();
    let _ = writeln!(t, "\tld.param.u64 %base, [{param}];\n\tcvta.to.global.u64 %base, %base;");
    let _ = writeln!(t, "\tmul.wide.u32 %off8, %t, {size};\n\tadd.s64 %addr, %base, %off8;");
    match s {
        Slot::Pred => {
            let _ = writeln!(t, "\tselp.u32 %w, 1, 0, {reg};\n\tst.global.u32 [%addr], %w;");
        }
        Slot::Reg { ty } => {
            let _ = writeln!(t, "\tst.global.{} [%addr], {reg};", mem_type(ty));
        }
    }
}

/// The `ld`/`st` type moving a value of PTX type `ty` in its register.
fn mem_type(ty: &str) -> String {
    match ty {
        "u8" | "s8" => ty.to_string(),
        "b8" => "u8".into(),
        _ => format!("b{}", reg_width(ty)),
    }
}

/// An immediate for a source slot.
fn immediate(s: &Slot, full: bool) -> String {
    let Slot::Reg { ty } = s else { return if full { "1".into() } else { "0".into() } };
    match (ty.as_str(), full) {
        ("f32", false) => "0f3FC00000".into(),
        ("f32", true) => "0f40490FDB".into(),
        ("f64", false) => "0d3FF8000000000000".into(),
        ("f64", true) => "0d400921FB54442D18".into(),
        (_, false) => "1".into(),
        (t, true) => match reg_width(t) {
            16 => "0x9E37".into(),
            64 => "0x9E3779B97F4A7C15".into(),
            _ => "0x9E3779B9".into(),
        },
    }
}
