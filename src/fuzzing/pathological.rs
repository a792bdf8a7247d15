//! Pathological inputs: parameterised PTX modules that stress one dimension of the compiler
//! each (issue 28's "Resource bounds").
//!
//! Every [`Shape`] generates, for any size `n >= 1`, one complete sm_90 module that NVIDIA
//! ptxas 13.0 accepts (checked at small `n` by `tests/pathological.rs`). The size is the count
//! of the repeated construct (branch pairs, labels, `brx.idx` targets, live registers, lines,
//! brace levels, kernels, initialiser elements), so the text grows linearly in `n` and a
//! compiler that is linear in its input is linear in `n`. [`Shape::issue_size`] is the size
//! the issue measures at; `benches/pathological.rs` times ours against ptxas there.
//!
//! Invariants: generation is deterministic (the same shape and `n` give the same text); each
//! module stores a value depending on the repeated construct to global memory, so no shape is
//! trivially dead code; the entry kernel is named `patho`.

use std::fmt::Write as _;

/// One dimension of stress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `n` pairs `bra Li; Li:` in a row.
    BranchChain,
    /// `n` consecutive labels before one instruction.
    LabelRun,
    /// A `brx.idx` over a `.branchtargets` table of `n` labels, each target its own block.
    BrxTable,
    /// `n` registers loaded from memory and all live at once (summed after the last load).
    LiveRegisters,
    /// `n` lines of dependent straight-line arithmetic.
    StraightLine,
    /// One instruction inside `n` nested `{ }` blocks.
    DeepNesting,
    /// `n` kernels in one module (`patho` and `patho_1` ... `patho_{n-1}`).
    ManyKernels,
    /// A `.global .u32` array of `n` initialised elements, read by the kernel.
    HugeInitializer,
}

impl Shape {
    /// Every shape, in a stable order.
    pub const ALL: [Shape; 8] = [
        Shape::BranchChain,
        Shape::LabelRun,
        Shape::BrxTable,
        Shape::LiveRegisters,
        Shape::StraightLine,
        Shape::DeepNesting,
        Shape::ManyKernels,
        Shape::HugeInitializer,
    ];

    /// A short stable name (bench rows, test messages).
    pub fn name(self) -> &'static str {
        match self {
            Shape::BranchChain => "branch_chain",
            Shape::LabelRun => "label_run",
            Shape::BrxTable => "brx_table",
            Shape::LiveRegisters => "live_registers",
            Shape::StraightLine => "straight_line",
            Shape::DeepNesting => "deep_nesting",
            Shape::ManyKernels => "many_kernels",
            Shape::HugeInitializer => "huge_initializer",
        }
    }

    /// The size issue 28 names for this shape (or, where it names none, one at which ptxas
    /// takes on the order of a second or more).
    pub fn issue_size(self) -> usize {
        match self {
            Shape::BranchChain => 20_000,
            Shape::LabelRun => 50_000,
            Shape::BrxTable => 10_000,
            Shape::LiveRegisters => 65_536,
            Shape::StraightLine => 100_000,
            Shape::DeepNesting => 1_000,
            Shape::ManyKernels => 2_000,
            Shape::HugeInitializer => 1_000_000,
        }
    }

    /// The PTX module of size `n` (`n` of 0 is taken as 1).
    pub fn generate(self, n: usize) -> String {
        let n = n.max(1);
        let mut s = String::from(HEADER);
        match self {
            Shape::BranchChain => branch_chain(&mut s, n),
            Shape::LabelRun => label_run(&mut s, n),
            Shape::BrxTable => brx_table(&mut s, n),
            Shape::LiveRegisters => live_registers(&mut s, n),
            Shape::StraightLine => straight_line(&mut s, n),
            Shape::DeepNesting => deep_nesting(&mut s, n),
            Shape::ManyKernels => many_kernels(&mut s, n),
            Shape::HugeInitializer => huge_initializer(&mut s, n),
        }
        s
    }
}

const HEADER: &str = ".version 9.0\n.target sm_90\n.address_size 64\n\n";

/// Opens kernel `name` with one `.u64` output pointer: `%rd1` is the global address, `%r1`
/// is `%tid.x`; `regs` `.b32` registers are declared.
fn open_kernel(s: &mut String, name: &str, regs: usize) {
    let _ = write!(
        s,
        ".visible .entry {name}(\n\t.param .u64 {name}_out\n)\n{{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<{}>;\n\t.reg .b64 %rd<4>;\n\n\
         \tld.param.u64 %rd2, [{name}_out];\n\tcvta.to.global.u64 %rd1, %rd2;\n\tmov.u32 %r1, %tid.x;\n",
        regs.max(3) + 1
    );
}

/// Stores `%r{reg}` to the output and closes the kernel.
fn close_kernel(s: &mut String, reg: usize) {
    let _ = write!(s, "\tst.global.u32 [%rd1], %r{reg};\n\tret;\n}}\n");
}

fn branch_chain(s: &mut String, n: usize) {
    open_kernel(s, "patho", 2);
    for i in 0..n {
        let _ = write!(s, "\tbra L{i};\nL{i}:\n");
    }
    close_kernel(s, 1);
}

fn label_run(s: &mut String, n: usize) {
    open_kernel(s, "patho", 2);
    for i in 0..n {
        let _ = writeln!(s, "L{i}:");
    }
    s.push_str("\tadd.u32 %r2, %r1, 1;\n");
    close_kernel(s, 2);
}

fn brx_table(s: &mut String, n: usize) {
    open_kernel(s, "patho", 3);
    let _ = writeln!(s, "\trem.u32 %r2, %r1, {n};");
    s.push_str("\tts: .branchtargets ");
    for i in 0..n {
        let _ = write!(s, "{}T{i}", if i == 0 { "" } else { ", " });
    }
    s.push_str(";\n\tbrx.idx %r2, ts;\n");
    for i in 0..n {
        let _ = write!(s, "T{i}:\n\tmov.u32 %r3, {i};\n\tbra.uni DONE;\n");
    }
    s.push_str("DONE:\n");
    close_kernel(s, 3);
}

fn live_registers(s: &mut String, n: usize) {
    // %r3 .. %r{n+2} are loaded, then summed into %r2 last-loaded first.
    open_kernel(s, "patho", n + 2);
    for i in 0..n {
        let _ = writeln!(s, "\tld.global.u32 %r{}, [%rd1+{}];", i + 3, 4 * i);
    }
    s.push_str("\tmov.u32 %r2, 0;\n");
    for i in (0..n).rev() {
        let _ = writeln!(s, "\tadd.u32 %r2, %r2, %r{};", i + 3);
    }
    close_kernel(s, 2);
}

fn straight_line(s: &mut String, n: usize) {
    open_kernel(s, "patho", 2);
    s.push_str("\tmov.u32 %r2, %r1;\n");
    for i in 0..n {
        let _ = writeln!(s, "\tmad.lo.u32 %r2, %r2, {}, %r1;", 2 * (i % 1000) + 3);
    }
    close_kernel(s, 2);
}

fn deep_nesting(s: &mut String, n: usize) {
    open_kernel(s, "patho", 2);
    for _ in 0..n {
        s.push_str("{\n");
    }
    s.push_str("\tadd.u32 %r1, %r1, 7;\n");
    for _ in 0..n {
        s.push_str("}\n");
    }
    close_kernel(s, 1);
}

fn many_kernels(s: &mut String, n: usize) {
    for k in 0..n {
        let name = if k == 0 { "patho".to_string() } else { format!("patho_{k}") };
        open_kernel(s, &name, 2);
        let _ = writeln!(s, "\tadd.u32 %r2, %r1, {k};");
        close_kernel(s, 2);
        s.push('\n');
    }
}

fn huge_initializer(s: &mut String, n: usize) {
    let _ = write!(s, ".global .align 4 .u32 tab[{n}] = {{");
    for i in 0..n {
        if i % 16 == 0 {
            s.push_str("\n\t");
        }
        let _ = write!(s, "{}{}", i.wrapping_mul(2_654_435_761) as u32, if i + 1 < n { ", " } else { "" });
    }
    s.push_str("\n};\n\n");
    open_kernel(s, "patho", 3);
    let _ = write!(
        s,
        "\trem.u32 %r2, %r1, {n};\n\tmul.wide.u32 %rd3, %r2, 4;\n\tmov.u64 %rd2, tab;\n\tadd.u64 %rd2, %rd2, %rd3;\n\
         \tld.global.u32 %r3, [%rd2];\n"
    );
    close_kernel(s, 3);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_parses_at_small_sizes() {
        for shape in Shape::ALL {
            for n in [1, 2, 17] {
                let text = shape.generate(n);
                crate::ptx::parse(&text, "patho.ptx").unwrap_or_else(|d| panic!("{} n={n}: {d}\n{text}", shape.name()));
            }
        }
    }

    #[test]
    fn text_grows_linearly() {
        for shape in Shape::ALL {
            let (a, b) = (shape.generate(100).len(), shape.generate(200).len());
            // Doubling n must not much more than double the text (numbers grow a digit).
            assert!(b < 3 * a && b > a, "{}: {a} -> {b}", shape.name());
        }
    }
}
