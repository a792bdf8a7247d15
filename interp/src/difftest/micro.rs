//! Micro-kernels for semantic checks: one short PTX body run by many threads on words read from
//! a buffer, its results stored to another, so one instruction's meaning can be compared between
//! the interpreter (the PTX) and the SASS emulator (a cubin of the same PTX, NVIDIA's or ours).
//!
//! A [`Micro`] names its body, the number of 32-bit input words per thread (`%a0..`, `.b32`,
//! loaded before the body) and of 32-bit results (`%o0..`, `.b32`, stored after it), and any
//! extra declarations. The launch is 2 CTAs of 64 threads (4 warps); the inputs are the launch
//! spec's `edge` generator (random full-width words mixed with 0, 1, -1, the signed extremes),
//! or fixed values when [`Micro::values`] is set (repeated over the threads).
//!
//! Invariant: [`Micro::ptx`] and [`Micro::spec_toml`] depend only on the `Micro`, so every
//! executor sees the same kernel and the same input bytes.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::emu::{EmuConfig, Kernel};
use crate::launch::{LaunchSpec, compare::compare};
use crate::{ExecConfig, Outputs};

/// The kernel's entry name.
pub const KERNEL: &str = "micro";
/// Threads per CTA.
pub const BLOCK: u32 = 64;
/// CTAs.
pub const GRID: u32 = 2;

/// One micro-kernel.
#[derive(Clone, Debug)]
pub struct Micro {
    /// The target (`sm_90`, `sm_80`, ...).
    pub target: &'static str,
    /// Input words per thread, in `%a0..%a{inputs-1}`.
    pub inputs: usize,
    /// Result words per thread, from `%o0..%o{outputs-1}`.
    pub outputs: usize,
    /// Declarations the body needs (`.reg .b64 %x;` ...).
    pub decls: String,
    /// The instructions.
    pub body: String,
    /// The input generator's seed.
    pub seed: u64,
    /// Fixed input words (repeated cyclically) instead of the edge generator.
    pub values: Option<Vec<u32>>,
}

impl Micro {
    /// An sm_90 micro-kernel with the edge generator.
    pub fn new(inputs: usize, outputs: usize, decls: &str, body: &str, seed: u64) -> Micro {
        Micro { target: "sm_90", inputs, outputs, decls: decls.to_string(), body: body.to_string(), seed, values: None }
    }

    /// The PTX module.
    pub fn ptx(&self) -> String {
        let (ni, no) = (self.inputs.max(1), self.outputs.max(1));
        let mut s = format!(
            ".version 8.7\n.target {}\n.address_size 64\n\n.visible .entry {KERNEL}(\n\t.param .u64 pin,\n\t.param .u64 pout\n)\n{{\n",
            self.target
        );
        let _ = writeln!(s, "\t.reg .b32 %a<{ni}>;\n\t.reg .b32 %o<{no}>;\n\t.reg .b32 %mi<4>;\n\t.reg .b64 %mrd<6>;");
        s.push_str(&self.decls);
        s.push('\n');
        s.push_str("\tld.param.u64 %mrd0, [pin];\n\tld.param.u64 %mrd1, [pout];\n");
        s.push_str("\tcvta.to.global.u64 %mrd0, %mrd0;\n\tcvta.to.global.u64 %mrd1, %mrd1;\n");
        s.push_str("\tmov.u32 %mi0, %tid.x;\n\tmov.u32 %mi1, %ctaid.x;\n\tmov.u32 %mi2, %ntid.x;\n");
        s.push_str("\tmad.lo.u32 %mi3, %mi1, %mi2, %mi0;\n");
        let _ = writeln!(s, "\tmul.wide.u32 %mrd2, %mi3, {};\n\tadd.s64 %mrd3, %mrd0, %mrd2;", 4 * self.inputs);
        for k in 0..self.inputs {
            let _ = writeln!(s, "\tld.global.u32 %a{k}, [%mrd3+{}];", 4 * k);
        }
        s.push_str(&self.body);
        s.push('\n');
        let _ = writeln!(s, "\tmul.wide.u32 %mrd4, %mi3, {};\n\tadd.s64 %mrd5, %mrd1, %mrd4;", 4 * self.outputs);
        for k in 0..self.outputs {
            let _ = writeln!(s, "\tst.global.u32 [%mrd5+{}], %o{k};", 4 * k);
        }
        s.push_str("\tret;\n}\n");
        s
    }

    /// The launch spec.
    pub fn spec_toml(&self) -> String {
        let n = (GRID * BLOCK) as usize;
        let init = match &self.values {
            Some(v) => format!("{{ values = [{}] }}", v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")),
            None => format!("{{ edge = {{ seed = {} }} }}", self.seed),
        };
        format!(
            "kernel = \"{KERNEL}\"\ngrid = [{GRID}, 1, 1]\nblock = [{BLOCK}, 1, 1]\n\n[[param]]\nbuffer = \"in\"\n\
             [[param]]\nbuffer = \"out\"\n\n[buffer.in]\ntype = \"u32\"\nlen = {}\ninit = {init}\n\n\
             [buffer.out]\ntype = \"u32\"\nlen = {}\ninit = {{ fill = 0 }}\noutput = true\n",
            n * self.inputs.max(1),
            n * self.outputs.max(1)
        )
    }

    /// The parsed launch spec.
    pub fn spec(&self) -> Result<LaunchSpec, String> {
        LaunchSpec::from_toml_str(&self.spec_toml()).map_err(|e| format!("launch spec: {e}"))
    }

    /// The interpreter's outputs on the PTX.
    pub fn interpret(&self) -> Result<Outputs, String> {
        let module = ptxas_rs::lower::lower_source(&self.ptx()).map_err(|e| format!("lowering: {e}"))?;
        let exec = ExecConfig { step_limit: 10_000_000, ..ExecConfig::default() };
        crate::run_ori_with(&module, KERNEL, &self.spec()?, &exec).map_err(|e| format!("interpreter: {e}"))
    }

    /// The emulator's outputs on `cubin` (hazards checked), with nvdisasm's modifier text
    /// `suffixes` where the decoder's tables lack names (empty for our own cubins).
    pub fn emulate(&self, cubin: &[u8], suffixes: &BTreeMap<u32, String>) -> Result<Outputs, String> {
        let kernel = Kernel::load(cubin, KERNEL).map_err(|e| format!("load: {e}"))?;
        let cfg = EmuConfig { hazards: true, step_limit: 10_000_000, ..EmuConfig::default() };
        let run = kernel.run_with_suffixes(&self.spec()?, &cfg, suffixes).map_err(|e| format!("emulator: {e}"))?;
        Ok(run.outputs)
    }

    /// ptxas-rs's cubin of the PTX at `-O{level}`.
    pub fn our_cubin(&self, level: u8) -> Result<Vec<u8>, String> {
        let ast = ptxas_rs::ptx::parse(&self.ptx(), "micro.ptx").map_err(|e| format!("parse: {e}"))?;
        let opts = ptxas_rs::backend::Options { opt_level: level, ..ptxas_rs::backend::Options::default() };
        ptxas_rs::backend::compile(&ast, &opts).map(|c| c.cubin).map_err(|e| format!("ptxas-rs: {e}"))
    }

    /// The differing output words, `expected` against `actual`, per thread: one line each for
    /// the first few, with the thread's inputs. Empty when they agree.
    pub fn diff(&self, expected: &Outputs, actual: &Outputs) -> Vec<String> {
        let Ok(spec) = self.spec() else { return vec!["launch spec".into()] };
        let inputs = spec.generate_buffers();
        let words = |b: &[u8]| b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect::<Vec<_>>();
        let input = words(&inputs["in"]);
        let mut v = Vec::new();
        for buf in spec.outputs() {
            let (Some(e), Some(a)) = (expected.get(buf.name()), actual.get(buf.name())) else {
                v.push(format!("{}: missing", buf.name()));
                continue;
            };
            if compare(buf, e, a).is_ok() {
                continue;
            }
            let (e, a) = (words(e), words(a));
            let no = self.outputs.max(1);
            let ni = self.inputs.max(1);
            for t in 0..e.len() / no {
                let (es, as_) = (&e[t * no..(t + 1) * no], &a[t * no..(t + 1) * no]);
                if es != as_ {
                    let ins = &input[t * ni..(t + 1) * ni];
                    v.push(format!("thread {t}: inputs {ins:08x?}: expected {es:08x?}, got {as_:08x?}"));
                }
            }
        }
        let n = v.len();
        v.truncate(6);
        if n > 6 {
            v.push(format!("... {n} threads differ"));
        }
        v
    }
}
