//! Probe templates for the rows the ALU form sweep does not cover: data movement across the
//! warp, memory and async copies, barriers and mbarriers, atomics, texture and surface, control
//! flow, tensor cores, video and the miscellaneous rows.
//!
//! Every template writes a kernel body for the common [`frame`]: parameters `pin` and `pout`
//! (`.u64` global pointers to the input and output buffers of [`spec_toml`]), 128 threads, and
//! these registers set before the body: `%r0` = `%tid.x`, `%rd0`/`%rd1` the buffers' global
//! addresses, `%rd3`/`%rd4` this thread's 16-byte input/output slot, `%r1`, `%r2` (32-bit) and
//! `%rd5` (64-bit) values loaded from the input slot, `%p7` = thread 0. Free scratch registers:
//! `%h0..7`, `%r3..15`, `%rd6..15`, `%f0..15`, `%fd0..7`, `%p0..6`. A `$` in a template's text
//! is replaced by the probe's name (module-scope symbols and shared buffers are named `$_...`).
//!
//! Invariants: a body stores at least one value derived from the probed instruction, or the
//! instruction has no value (fences, hints, barriers) and the probe stores the input to show
//! it ran; every body runs to completion in one CTA of 128 threads (loops wait only on
//! mbarriers the probe itself completes); [`template`] returns `None` only for rows the ALU
//! sweep or the operand pattern handles.

use std::fmt::Write as _;

use super::{Row, SLOT, THREADS};

/// A kernel body in the common frame.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Framed {
    /// The probed instruction as written (for the report).
    pub instruction: String,
    /// Module-scope declarations (functions, texture references, constants).
    pub decls: String,
    /// Kernel-scope declarations (extra registers, `.shared`/`.local` buffers).
    pub regs: String,
    /// The body.
    pub body: String,
    /// The target, when not the row's ([`super::Row::arch`]).
    pub arch: Option<&'static str>,
}

fn fr(instruction: &str, body: impl Into<String>) -> Framed {
    Framed { instruction: instruction.to_string(), body: body.into(), ..Framed::default() }
}

impl Framed {
    fn decls(mut self, d: &str) -> Self {
        self.decls.push_str(d);
        self
    }
    fn regs(mut self, r: &str) -> Self {
        self.regs.push_str(r);
        self
    }
    fn arch(mut self, a: &'static str) -> Self {
        self.arch = Some(a);
        self
    }
}

/// The `.entry` of a framed probe named `name`.
pub fn frame(name: &str, f: &Framed) -> String {
    let mut t = String::new();
    if !f.decls.is_empty() {
        let _ = writeln!(t, "{}", f.decls.replace('$', name));
    }
    let _ = writeln!(t, ".visible .entry {name}(\n\t.param .u64 pin,\n\t.param .u64 pout\n)\n{{");
    t.push_str("\t.reg .b16 %h<8>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n\t.reg .f32 %f<16>;\n");
    t.push_str("\t.reg .f64 %fd<8>;\n\t.reg .pred %p<8>;\n");
    for l in f.regs.replace('$', name).lines() {
        let _ = writeln!(t, "\t{}", l.trim());
    }
    t.push_str("\tmov.u32 %r0, %tid.x;\n\tld.param.u64 %rd0, [pin];\n\tcvta.to.global.u64 %rd0, %rd0;\n");
    t.push_str("\tld.param.u64 %rd1, [pout];\n\tcvta.to.global.u64 %rd1, %rd1;\n");
    let _ = writeln!(t, "\tmul.wide.u32 %rd2, %r0, {SLOT};");
    t.push_str("\tadd.s64 %rd3, %rd0, %rd2;\n\tadd.s64 %rd4, %rd1, %rd2;\n");
    t.push_str("\tld.global.u32 %r1, [%rd3];\n\tld.global.u32 %r2, [%rd3+4];\n\tld.global.u64 %rd5, [%rd3+8];\n");
    t.push_str("\tsetp.eq.u32 %p7, %r0, 0;\n");
    for l in f.body.replace('$', name).lines() {
        let l = l.trim();
        if l.ends_with(':') {
            let _ = writeln!(t, "{l}");
        } else if !l.is_empty() {
            let _ = writeln!(t, "\t{l}");
        }
    }
    t.push_str("\tret;\n}\n");
    t
}

/// The launch spec of a framed probe: one CTA of [`THREADS`], the input edge-initialised (seeded
/// by the name), the output zeroed.
pub fn spec_toml(name: &str) -> String {
    let words = THREADS * SLOT / 4;
    let seed = crate::forms::fnv1a(name.as_bytes()) & 0xffff_ffff;
    format!(
        "kernel = \"{name}\"\ngrid = [1, 1, 1]\nblock = [{THREADS}, 1, 1]\n\n[[param]]\nbuffer = \"in\"\n\n\
         [[param]]\nbuffer = \"out\"\n\n[buffer.in]\ntype = \"u32\"\nlen = {words}\ninit = {{ edge = {{ seed = {seed} }} }}\n\n\
         [buffer.out]\ntype = \"u32\"\nlen = {words}\ninit = {{ fill = 0 }}\noutput = true\n"
    )
}

/// Stores `%r3` to the output slot.
const OUT_R3: &str = "st.global.u32 [%rd4], %r3;";

/// The template of `row` with type `ty`: `None` when the ALU sweep or the operand pattern makes
/// the probe; `Some(Err(why))` for a form without a probe.
pub fn template(row: &Row, ty: &str) -> Option<Result<Vec<Framed>, String>> {
    let m = row.mnemonic.as_str();
    let t = ty.trim_start_matches('.');
    let one = |f: Framed| Some(Ok(vec![f]));
    match row.main_category() {
        "Data Movement" => warp(m, t).or_else(|| if m == "mov" && t == "b128" { one(mov128()) } else { None }),
        "Load, Store, and Memory" => Some(memory(m, t).map(|f| vec![f])),
        "Conversion" if m == "cvt.pack" => one(cvt_pack(t)),
        "Integer Arithmetic" if m.starts_with("dp") => {
            let i = format!("{m}{ty} %r3, %r1, %r2, %r4;");
            one(fr(&i, format!("mov.u32 %r4, 7;\n{i}\n{OUT_R3}")))
        }
        "szext -- Sign/Zero Extend" => {
            let i = "szext.wrap.s32 %r3, %r1, %r2;";
            one(fr(i, format!("{i}\n{OUT_R3}")))
        }
        "Texture and Surface" => Some(texture(m, t).map(|f| vec![f])),
        "Control Flow" => Some(control(m).map(|f| vec![f])),
        "Synchronization and Barriers" => Some(sync(m, t).map(|f| vec![f])),
        "Atomic and Reduction" => one(atomic(m, t)),
        "Matrix (MMA / Tensor Core)" | "Matrix Utility Instructions" => Some(matrix(m, t).map(|f| vec![f])),
        "SIMD Video Instructions" => one(video(m, t)),
        "Miscellaneous" | "Register and Shared Memory Control" => Some(misc(m, t).map(|f| vec![f])),
        _ => None,
    }
}

fn mov128() -> Framed {
    let i = "mov.b128 %q1, %q0;";
    fr(i, format!("mov.b128 %q0, {{%rd5, %rd5}};\n{i}\nmov.b128 {{%rd6, %rd7}}, %q1;\nst.global.u64 [%rd4], %rd6;"))
        .regs(".reg .b128 %q<2>;")
}

fn warp(m: &str, t: &str) -> Option<Result<Vec<Framed>, String>> {
    let store_p = "selp.u32 %r3, 1, 0, %p1;\nst.global.u32 [%rd4], %r3;";
    let f = match (m, t) {
        // Without `.sync`: ptxas accepts it only below sm_70, which ptxas 13 no longer targets.
        ("shfl", _) => {
            let i = "shfl.bfly.b32 %r3|%p1, %r1, 1, 31;";
            fr(i, format!("{i}\n{OUT_R3}"))
        }
        ("shfl.sync", _) => {
            let i = "shfl.sync.bfly.b32 %r3|%p1, %r1, 1, 31, -1;";
            fr(i, format!("{i}\n{OUT_R3}"))
        }
        ("vote", _) => {
            let i = "vote.any.pred %p1, %p0;";
            fr(i, format!("setp.ne.u32 %p0, %r1, 0;\n{i}\n{store_p}"))
        }
        ("vote.sync", "pred") => {
            let i = "vote.sync.any.pred %p1, %p0, -1;";
            fr(i, format!("setp.ne.u32 %p0, %r1, 0;\n{i}\n{store_p}"))
        }
        ("vote.sync", _) => {
            let i = "vote.sync.ballot.b32 %r3, %p0, -1;";
            fr(i, format!("setp.ne.u32 %p0, %r1, 0;\n{i}\n{OUT_R3}"))
        }
        ("match" | "match.sync", _) => {
            let sync = if m == "match" { "" } else { ".sync" };
            let (src, mask) = if t == "b64" { ("%rd5", "") } else { ("%r1", "") };
            let i = format!("match.any{sync}.{t} %r3, {src}{}{mask};", if sync.is_empty() { "" } else { ", -1" });
            fr(&i, format!("and.b32 %r1, %r1, 3;\ncvt.u64.u32 %rd5, %r1;\n{i}\n{OUT_R3}"))
        }
        ("redux" | "redux.sync", _) => {
            let i = if m == "redux" {
                format!("redux.add.{t} %r3, %r1;")
            } else {
                format!("redux.sync.add.{t} %r3, %r1, -1;")
            };
            fr(&i, format!("{i}\n{OUT_R3}"))
        }
        ("activemask", _) => {
            let i = "activemask.b32 %r3;";
            fr(i, format!("{i}\n{OUT_R3}"))
        }
        ("elect", _) => {
            let i = "elect.sync %r3|%p1, -1;";
            fr(i, format!("{i}\nselp.u32 %r4, 1, 0, %p1;\nadd.u32 %r3, %r3, %r4;\n{OUT_R3}"))
        }
        ("elect.one", _) => {
            let i = "elect.sync _|%p1, -1;";
            fr(i, format!("{i}\n{store_p}"))
        }
        _ => return None,
    };
    Some(Ok(vec![f]))
}

/// The register class holding a value of memory type `t`.
fn reg_for(t: &str) -> (&'static str, &'static str) {
    match t {
        "b8" | "u8" | "s8" | "b16" | "u16" | "s16" | "f16" => ("%h1", ""),
        "b64" | "u64" | "s64" => ("%rd6", ""),
        "f64" => ("%fd1", ""),
        "f32" => ("%f1", ""),
        "b128" => ("%q0", ".reg .b128 %q<2>;"),
        _ => ("%r3", ""),
    }
}

/// A 16-byte-aligned shared buffer `$_s` of 2048 bytes, `%r5` = this thread's 16-byte slot in
/// it, filled from the input slot; then a CTA barrier.
const SHARED_SLOT: &str = "mov.u32 %r5, $_s;\nmul.lo.u32 %r6, %r0, 16;\nadd.u32 %r5, %r5, %r6;\n\
st.shared.u32 [%r5], %r1;\nst.shared.u32 [%r5+4], %r2;\nst.shared.u64 [%r5+8], %rd5;\nbar.sync 0;";
const SHARED_DECL: &str = ".shared .align 128 .b8 $_s[2048];";

/// An mbarrier `$_mb` for all 128 threads, initialised by thread 0 (then a CTA barrier).
const MBAR_DECL: &str = ".shared .align 8 .b64 $_mb;";
const MBAR_INIT: &str = "@%p7 mbarrier.init.shared.b64 [$_mb], 128;\nbar.sync 0;";
/// Arrive (state in `%rd9`) and wait with `test_wait` until the phase completes.
const MBAR_ARRIVE_WAIT: &str =
    "mbarrier.arrive.shared.b64 %rd9, [$_mb];\n$_w:\nmbarrier.test_wait.shared.b64 %p6, [$_mb], %rd9;\n@!%p6 bra $_w;";
const PARITY_WAIT: &str = "$_w:\nmbarrier.try_wait.parity.shared.b64 %p6, [$_mb], 0;\n@!%p6 bra $_w;";

fn memory(m: &str, t: &str) -> Result<Framed, String> {
    let (r, rdecl) = reg_for(t);
    let f = match m {
        "ld" | "st" | "ld.nc" | "ldu" => {
            let ld = match m {
                "ld.nc" => format!("ld.global.nc.{t} {r}, [%rd3];"),
                "ldu" => format!("ldu.global.{t} {r}, [%rd3];"),
                _ => format!("ld.global.{t} {r}, [%rd3];"),
            };
            let st = format!("st.global.{t} [%rd4], {r};");
            fr(if m == "st" { &st } else { &ld }, format!("{ld}\n{st}")).regs(rdecl)
        }
        "ld.param" if t == "b128" => return Err("needs a 16-byte kernel parameter (the frame's are 8 bytes)".into()),
        "ld.param" => {
            let i = format!("ld.param.{t} {r}, [pin];");
            fr(&i, format!("{i}\nst.global.{t} [%rd4], {r};"))
        }
        "prefetch" => {
            let i = format!("prefetch.global.{t} [%rd3];");
            fr(&i, format!("{i}\nst.global.u32 [%rd4], %r1;"))
        }
        "prefetchu" => {
            let i = "prefetchu.L1 [%rd3];";
            fr(i, "cvta.global.u64 %rd6, %rd3;\nprefetchu.L1 [%rd6];\nst.global.u32 [%rd4], %r1;")
        }
        "isspacep" => {
            let i = format!("isspacep.{t} %p1, %rd6;");
            fr(&i, format!("cvta.global.u64 %rd6, %rd3;\n{i}\nselp.u32 %r3, 1, 0, %p1;\n{OUT_R3}"))
        }
        "cvta" => {
            let i = "cvta.global.u64 %rd6, %rd3;";
            fr(i, format!("{i}\nld.u32 %r3, [%rd6];\n{OUT_R3}"))
        }
        "cvta.to" => cvta_to(t),
        "cp.async" => {
            let i = format!("cp.async.{t}.shared.global [%r5], [%rd3], 16;");
            fr(&i, format!("{SHARED_SLOT}\n{i}\ncp.async.commit_group;\ncp.async.wait_group 0;\nbar.sync 0;\nld.shared.u32 %r3, [%r5+4];\n{OUT_R3}"))
                .regs(SHARED_DECL)
        }
        "cp.async.commit_group" | "cp.async.wait_group" | "cp.async.wait_all" => {
            let wait = if m == "cp.async.wait_all" { "cp.async.wait_all;" } else { "cp.async.wait_group 0;" };
            let i = match m {
                "cp.async.commit_group" => "cp.async.commit_group;",
                _ => wait,
            };
            fr(i, format!("{SHARED_SLOT}\ncp.async.cg.shared.global [%r5], [%rd3], 16;\ncp.async.commit_group;\n{wait}\nbar.sync 0;\nld.shared.u32 %r3, [%r5];\n{OUT_R3}"))
                .regs(SHARED_DECL)
        }
        "cp.async.mbarrier.arrive" => {
            let i = "cp.async.mbarrier.arrive.noinc.shared.b64 [$_mb];";
            fr(i, format!("{MBAR_INIT}\n{SHARED_SLOT}\ncp.async.ca.shared.global [%r5], [%rd3], 16;\n{i}\n$_w:\nmbarrier.test_wait.parity.shared.b64 %p6, [$_mb], 0;\n@!%p6 bra $_w;\nld.shared.u32 %r3, [%r5];\n{OUT_R3}"))
                .regs(&format!("{SHARED_DECL}\n{MBAR_DECL}"))
        }
        "cp.async.bulk" => {
            let i = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$_s], [%rd0], 2048, [$_mb];";
            fr(i, format!("{MBAR_INIT}\n@%p7 mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [$_mb], 2048;\n@%p7 {i}\n{MBAR_ARRIVE_WAIT}\nmov.u32 %r5, $_s;\nmul.lo.u32 %r6, %r0, 16;\nadd.u32 %r5, %r5, %r6;\nld.shared.u32 %r3, [%r5];\n{OUT_R3}"))
                .regs(&format!("{SHARED_DECL}\n{MBAR_DECL}"))
        }
        "cp.async.bulk.prefetch" => {
            let i = "cp.async.bulk.prefetch.L2.global [%rd0], 2048;";
            fr(i, format!("@%p7 {i}\nst.global.u32 [%rd4], %r1;"))
        }
        "cp.async.bulk.commit_group" | "cp.async.bulk.wait_group" => bulk_store(
            if m == "cp.async.bulk.commit_group" {
                "cp.async.bulk.commit_group;"
            } else {
                "cp.async.bulk.wait_group 0;"
            },
            "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [$_s], 2048;",
        ),
        "cp.reduce.async.bulk" => {
            let ty = match t {
                "and" | "or" | "xor" => "b32",
                _ => "u32",
            };
            bulk_store("", &format!("cp.reduce.async.bulk.global.shared::cta.bulk_group.{t}.{ty} [%rd1], [$_s], 2048;"))
        }
        // Tensor copies read their tensor map from the input buffer: ptxas and our compile
        // stages judge the form; the interpreter meets a map of edge values (its honest fail).
        "cp.async.bulk.tensor" => {
            let i = "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$_s], [%rd6, {%r4}], [$_mb];";
            fr(i, format!("{MBAR_INIT}\ncvta.global.u64 %rd6, %rd0;\nmov.u32 %r4, 0;\n@%p7 mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [$_mb], 128;\n@%p7 {i}\n{MBAR_ARRIVE_WAIT}\nld.shared.u32 %r3, [$_s];\n{OUT_R3}"))
                .regs(&format!("{SHARED_DECL}\n{MBAR_DECL}"))
        }
        "cp.async.bulk.prefetch.tensor" => {
            let i = "cp.async.bulk.prefetch.tensor.1d.L2.global.tile [%rd6, {%r4}];";
            fr(i, format!("cvta.global.u64 %rd6, %rd0;\nmov.u32 %r4, 0;\n@%p7 {i}\nst.global.u32 [%rd4], %r1;"))
        }
        "cp.reduce.async.bulk.tensor" => {
            let i = format!(
                "cp.reduce.async.bulk.tensor.1d.global.shared::cta.{t}.tile.bulk_group [%rd6, {{%r4}}], [$_s];"
            );
            let mut f = bulk_store("", &format!("cvta.global.u64 %rd6, %rd0;\nmov.u32 %r4, 0;\n{i}"));
            f.instruction = i;
            f
        }
        "st.async" => {
            let (v, bytes, d) = match t {
                "b64" => ("%rd5", 8, ""),
                "b128" => ("%q0", 16, ".reg .b128 %q<2>;"),
                _ => ("%r1", 4, ""),
            };
            let pre = if t == "b128" { "mov.b128 %q0, {%rd5, %rd5};\n" } else { "" };
            let i = format!("st.async.shared::cluster.mbarrier::complete_tx::bytes.{t} [%r5], {v}, [$_mb];");
            fr(&i, format!("{MBAR_INIT}\n{SHARED_SLOT}\n{pre}mbarrier.arrive.expect_tx.shared.b64 %rd9, [$_mb], {bytes};\n{i}\n{PARITY_WAIT}\nld.shared.u32 %r3, [%r5];\n{OUT_R3}"))
                .regs(&format!("{SHARED_DECL}\n{MBAR_DECL}\n{d}"))
        }
        // Catalogued as sm_90; ptxas 13.0.88 wants sm_100.
        "st.bulk" => {
            let i = "st.bulk.weak.shared::cta [%r5], 16, 0;";
            fr(i, format!("{SHARED_SLOT}\n{i}\nbar.sync 0;\nld.shared.u32 %r3, [%r5];\n{OUT_R3}"))
                .regs(SHARED_DECL)
                .arch("sm_100a")
        }
        "red.async" => {
            let ty = match t {
                "and" | "or" | "xor" => "b32",
                _ => "u32",
            };
            let i = format!(
                "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.{t}.{ty} [%r5], %r2, [$_mb];"
            );
            fr(&i, format!("{MBAR_INIT}\n{SHARED_SLOT}\nmbarrier.arrive.expect_tx.shared.b64 %rd9, [$_mb], 4;\n{i}\n{PARITY_WAIT}\nld.shared.u32 %r3, [%r5];\n{OUT_R3}"))
                .regs(&format!("{SHARED_DECL}\n{MBAR_DECL}"))
        }
        "multimem.ld_reduce" | "multimem.st" | "multimem.red" => multimem(m, t),
        "discard" => {
            let i = "discard.global.L2 [%rd0], 128;";
            fr(i, format!("@%p7 {i}\nst.global.u32 [%rd4], %r1;"))
        }
        "applypriority" => {
            let i = "applypriority.global.L2::evict_normal [%rd0], 128;";
            fr(i, format!("@%p7 {i}\nst.global.u32 [%rd4], %r1;"))
        }
        "createpolicy.cvt" => {
            let i = "createpolicy.cvt.L2.b64 %rd6, %rd5;";
            fr(i, format!("{i}\nst.global.u64 [%rd4], %rd6;"))
        }
        "createpolicy.fractional" => {
            let i = "createpolicy.fractional.L2::evict_last.b64 %rd6, 1.0;";
            fr(i, format!("{i}\nld.global.L2::cache_hint.u32 %r3, [%rd3], %rd6;\n{OUT_R3}"))
        }
        "createpolicy.range" => {
            let i = "createpolicy.range.L2::evict_last.L2::evict_unchanged.b64 %rd6, [%rd0], 1024, 2048;";
            fr(i, format!("{i}\nld.global.L2::cache_hint.u32 %r3, [%rd3], %rd6;\n{OUT_R3}"))
        }
        _ => return Err(format!("no template for `{m}`")),
    };
    Ok(f)
}

fn cvta_to(t: &str) -> Framed {
    let i = format!("cvta.to.{t}.u64 %rd7, %rd6;");
    match t {
        "global" => fr(&i, format!("cvta.global.u64 %rd6, %rd3;\n{i}\nld.global.u32 %r3, [%rd7];\n{OUT_R3}")),
        "shared" => fr(
            &i,
            format!(
                "cvta.shared.u64 %rd6, $_s;\n{i}\nst.shared.u32 [%rd7], %r1;\nld.shared.u32 %r3, [%rd7];\n{OUT_R3}"
            ),
        )
        .regs(".shared .align 8 .b8 $_s[16];"),
        "local" => fr(
            &i,
            format!("cvta.local.u64 %rd6, $_l;\n{i}\nst.local.u32 [%rd7], %r1;\nld.local.u32 %r3, [%rd7];\n{OUT_R3}"),
        )
        .regs(".local .align 8 .b8 $_l[16];"),
        _ => fr(&i, format!("cvta.const.u64 %rd6, $_c;\n{i}\nld.const.u32 %r3, [%rd7+4];\n{OUT_R3}"))
            .decls(".const .align 4 .u32 $_c[4] = {3, 5, 7, 11};"),
    }
}

/// Every thread fills its shared slot, thread 0 bulk-copies the 2048 bytes to the output with
/// `op` (a bulk copy or reduction), then commits and waits; `probed` names the probed line
/// (the op itself when empty).
fn bulk_store(probed: &str, op: &str) -> Framed {
    let i = if probed.is_empty() { op } else { probed };
    fr(i, format!("{SHARED_SLOT}\nfence.proxy.async.shared::cta;\nbar.sync 0;\n@!%p7 bra $_end;\n{op}\ncp.async.bulk.commit_group;\ncp.async.bulk.wait_group 0;\n$_end:"))
        .regs(SHARED_DECL)
}

fn multimem(m: &str, t: &str) -> Framed {
    let (r, st) = match t {
        "f16" | "bf16" => ("%r3", "u32"),
        "u64" => ("%rd6", "u64"),
        "f32" => ("%f1", "f32"),
        _ => ("%r3", "u32"),
    };
    let vt = match t {
        "f16" => "f16x2",
        "bf16" => "bf16x2",
        _ => t,
    };
    let i = match m {
        "multimem.ld_reduce" => format!("multimem.ld_reduce.relaxed.sys.global.add.{vt} {r}, [%rd3];"),
        "multimem.st" => format!("multimem.st.relaxed.sys.global.{vt} [%rd3], {r};"),
        _ => format!("multimem.red.relaxed.sys.global.add.{vt} [%rd3], {r};"),
    };
    let pre = match st {
        "u64" => "mov.b64 %rd6, %rd5;",
        "f32" => "mov.b32 %f1, %r1;",
        _ => "mov.b32 %r3, %r1;",
    };
    fr(&i, format!("{pre}\n{i}\nst.global.{st} [%rd4], {r};"))
}

fn cvt_pack(t: &str) -> Framed {
    let i = if t == "b16.b32" {
        "cvt.pack.sat.s16.s32 %r3, %r1, %r2;"
    } else {
        "cvt.pack.sat.u8.s32.b32 %r3, %r1, %r2, %r4;"
    };
    fr(i, format!("mov.u32 %r4, 0;\n{i}\n{OUT_R3}"))
}

fn texture(m: &str, t: &str) -> Result<Framed, String> {
    let v4 = "{%f1, %f2, %f3, %f4}";
    let coords = |t: &str| -> &'static str {
        match t {
            "1d" => "{%r1}",
            "2d" | "a1d" => "{%r1, %r2}",
            _ => "{%r1, %r2, %r4, %r4}",
        }
    };
    // Float coordinates; an array's first element is its `.u32` index.
    let fcoords = |t: &str| -> &'static str {
        match t {
            "1d" => "{%f5}",
            "2d" => "{%f5, %f6}",
            "a1d" => "{%r4, %f5}",
            "a2d" | "acube" => "{%r4, %f5, %f6, %f7}",
            _ => "{%f5, %f6, %f7, %f7}",
        }
    };
    let grad = |t: &str| -> &'static str {
        match t {
            "1d" | "a1d" => "{%f5}",
            "2d" | "a2d" => "{%f5, %f6}",
            _ => "{%f5, %f6, %f7, %f7}",
        }
    };
    let setup = "mov.u32 %r4, 0;\nmov.b32 %f5, %r1;\nmov.b32 %f6, %r2;\nmov.f32 %f7, 0f00000000;";
    let out_v4 = "st.global.f32 [%rd4], %f1;\nst.global.f32 [%rd4+4], %f4;";
    let tex = ".global .texref $_t;";
    let surf = ".global .surfref $_sf;";
    let f = match m {
        "tex" | "tex.base" if t.ends_with("cube") => {
            let i = format!("tex.{t}.v4.f32.f32 {v4}, [$_t, {}];", fcoords(t));
            fr(&i, format!("{setup}\n{i}\n{out_v4}")).decls(tex)
        }
        "tex" | "tex.base" => {
            let i = format!("tex.{t}.v4.f32.s32 {v4}, [$_t, {}];", coords(t));
            fr(&i, format!("{setup}\n{i}\n{out_v4}")).decls(tex)
        }
        "tex.level" => {
            let i = format!("tex.level.{t}.v4.f32.f32 {v4}, [$_t, {}], %f7;", fcoords(t));
            fr(&i, format!("{setup}\n{i}\n{out_v4}")).decls(tex)
        }
        "tex.grad" => {
            let i = format!("tex.grad.{t}.v4.f32.f32 {v4}, [$_t, {}], {}, {};", fcoords(t), grad(t), grad(t));
            fr(&i, format!("{setup}\n{i}\n{out_v4}")).decls(tex)
        }
        "tld4" => {
            let i = format!("tld4.r.{t}.v4.f32.f32 {v4}, [$_t, {}];", fcoords(t));
            fr(&i, format!("{setup}\n{i}\n{out_v4}")).decls(tex)
        }
        "txq" => {
            // The catalogue's `.num_mip_levels` is spelled `.num_mipmap_levels` in PTX.
            let q = if t == "num_mip_levels" { "num_mipmap_levels" } else { t };
            let i = format!("txq.{q}.b32 %r3, [$_t];");
            fr(&i, format!("{i}\n{OUT_R3}")).decls(tex)
        }
        "suld.b" => {
            let i = format!("suld.b.{t}.b32.trap {{%r3}}, [$_sf, {}];", coords(t));
            fr(&i, format!("mov.u32 %r4, 0;\n{i}\n{OUT_R3}")).decls(surf)
        }
        "sust.b" | "sust.p" => {
            let i = format!("{m}.{t}.b32.trap [$_sf, {}], {{%r2}};", coords(t));
            fr(&i, format!("mov.u32 %r4, 0;\n{i}\nst.global.u32 [%rd4], %r1;")).decls(surf)
        }
        "sured.b" => {
            let i = format!("sured.b.add.{t}.u32.trap [$_sf, {}], %r2;", coords(t));
            fr(&i, format!("mov.u32 %r4, 0;\n{i}\nst.global.u32 [%rd4], %r1;")).decls(surf)
        }
        "suq" => {
            let i = format!("suq.{t}.b32 %r3, [$_sf];");
            fr(&i, format!("{i}\n{OUT_R3}")).decls(surf)
        }
        // The tensor map lives in the output buffer (thread 0 edits or copies it).
        "tensormap.replace" => {
            let i = format!("tensormap.replace.{t}.global_address.global.b1024.b64 [%rd1], %rd5;");
            fr(&i, format!("@%p7 {i}"))
        }
        "tensormap.cp_fenceproxy" => {
            let i = "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd6], [$_s], 128;";
            fr(
                i,
                format!(
                    "{SHARED_SLOT}\ncvta.global.u64 %rd6, %rd1;\nsetp.lt.u32 %p1, %r0, 32;\n@!%p1 bra $_e;\n{i}\n$_e:"
                ),
            )
            .regs(SHARED_DECL)
        }
        _ => return Err(format!("no template for `{m}`")),
    };
    Ok(f)
}

fn control(m: &str) -> Result<Framed, String> {
    let never = "setp.gt.u32 %p1, %r0, 4096;";
    let f = match m {
        "bra" | "bra.uni" => {
            let i = if m == "bra" { "@%p1 bra $_l;" } else { "bra.uni $_l;" };
            fr(i, format!("setp.eq.u32 %p1, %r1, 0;\nmov.u32 %r3, %r1;\n{i}\nadd.u32 %r3, %r3, 1;\n$_l:\n{OUT_R3}"))
        }
        "brx.idx" => {
            let i = "brx.idx %r4, $_ts;";
            fr(
                i,
                format!(
                    "and.b32 %r4, %r1, 1;\n$_ts: .branchtargets $_a, $_b;\n{i}\n$_a:\nmov.u32 %r3, 1;\nbra.uni $_j;\n$_b:\nmov.u32 %r3, 2;\n$_j:\n{OUT_R3}"
                ),
            )
        }
        "call" => {
            let i = "call.uni (pr), $_f, (pa);";
            fr(i, format!("{{\n.param .b32 pa;\n.param .b32 pr;\nst.param.b32 [pa], %r1;\n{i}\nld.param.b32 %r3, [pr];\n}}\n{OUT_R3}"))
                .decls(".func (.param .b32 r) $_f(.param .b32 a)\n{\n\t.reg .b32 %x;\n\tld.param.b32 %x, [a];\n\tadd.u32 %x, %x, 1;\n\tst.param.b32 [r], %x;\n\tret;\n}")
        }
        "ret" | "exit" => {
            let i = if m == "ret" { "@%p1 ret;" } else { "@%p1 exit;" };
            fr(i, format!("setp.eq.u32 %p1, %r1, 0;\nst.global.u32 [%rd4], %r1;\n{i}\nst.global.u32 [%rd4+4], %r2;"))
        }
        "trap" | "brkpt" => {
            let i = format!("@%p1 {m};");
            fr(&i, format!("{never}\n{i}\nst.global.u32 [%rd4], %r1;"))
        }
        "pmevent" | "pmevent.mask" => {
            let i = format!("{m} 1;");
            fr(&i, format!("{i}\nst.global.u32 [%rd4], %r1;"))
        }
        "nanosleep" => {
            let i = "nanosleep.u32 10;";
            fr(i, format!("{i}\nst.global.u32 [%rd4], %r1;"))
        }
        _ => return Err(format!("no template for `{m}`")),
    };
    Ok(f)
}

/// Warps 0-1 wait at barrier 1 on what warps 2-3 `arrive` (as `arrive`, e.g. `bar.arrive`).
fn split_arrive(arrive: &str, sync: &str) -> Framed {
    let i = format!("{arrive} 1, 128;");
    fr(
        &i,
        format!(
            "setp.lt.u32 %p1, %r0, 64;\n@%p1 bra $_s;\n{i}\nbra.uni $_e;\n$_s:\n{sync} 1, 128;\n$_e:\nst.global.u32 [%rd4], %r1;"
        ),
    )
}

fn sync(m: &str, t: &str) -> Result<Framed, String> {
    let mb = |i: &str, body: String| fr(i, format!("{MBAR_INIT}\n{body}\nst.global.u32 [%rd4], %r3;")).regs(MBAR_DECL);
    let f = match m {
        "bar.sync" | "barrier" | "bar.cta" | "barrier.cta" => {
            let i = match m {
                "barrier" => "barrier.sync 0;".to_string(),
                "bar.sync" => "bar.sync 0;".to_string(),
                _ => format!("{m}.sync 0;"),
            };
            fr(&i, format!("st.global.u32 [%rd4], %r1;\n{i}\nst.global.u32 [%rd4+4], %r2;"))
        }
        "bar.arrive" => split_arrive("bar.arrive", "bar.sync"),
        "barrier.arrive" => split_arrive("barrier.arrive", "barrier.sync"),
        "bar.cta.arrive" => split_arrive("bar.cta.arrive", "bar.cta.sync"),
        "barrier.cta.arrive" => split_arrive("barrier.cta.arrive", "barrier.cta.sync"),
        "bar.red" | "barrier.red" | "bar.cta.red" | "barrier.cta.red" => {
            let i =
                if t == "popc" { format!("{m}.popc.u32 %r3, 0, %p1;") } else { format!("{m}.{t}.pred %p2, 0, %p1;") };
            let store = if t == "popc" { OUT_R3.to_string() } else { format!("selp.u32 %r3, 1, 0, %p2;\n{OUT_R3}") };
            fr(&i, format!("setp.ne.u32 %p1, %r1, 0;\n{i}\n{store}"))
        }
        "bar.warp" => {
            let i = "bar.warp.sync -1;";
            fr(i, format!("{i}\nst.global.u32 [%rd4], %r1;"))
        }
        "barrier.cluster.arrive" | "barrier.cluster.wait" => {
            let i = format!("{m};");
            fr(
                &i,
                "st.global.u32 [%rd4], %r1;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\nst.global.u32 [%rd4+4], %r2;",
            )
        }
        "mbarrier.init.shared" | "mbarrier.arrive.shared" | "mbarrier.test_wait.shared" => {
            mb("mbarrier.init.shared.b64 [$_mb], 128;", format!("{MBAR_ARRIVE_WAIT}\nmov.u32 %r3, %r1;"))
        }
        "mbarrier.inval.shared" => {
            let i = "mbarrier.inval.shared.b64 [$_mb];";
            mb(i, format!("{MBAR_ARRIVE_WAIT}\nbar.sync 0;\n@%p7 {i}\nmov.u32 %r3, %r1;"))
        }
        "mbarrier.arrive_drop.shared" => {
            let i = "mbarrier.arrive_drop.shared.b64 %rd9, [$_mb];";
            mb(
                i,
                format!(
                    "{i}\n$_w:\nmbarrier.test_wait.shared.b64 %p6, [$_mb], %rd9;\n@!%p6 bra $_w;\nmov.u32 %r3, %r1;"
                ),
            )
        }
        "mbarrier.test_wait.parity.shared" | "mbarrier.try_wait.shared" | "mbarrier.try_wait.parity.shared" => {
            let (op, arg) = match m {
                "mbarrier.test_wait.parity.shared" => ("test_wait.parity", "0"),
                "mbarrier.try_wait.shared" => ("try_wait", "%rd9"),
                _ => ("try_wait.parity", "0"),
            };
            let i = format!("mbarrier.{op}.shared.b64 %p6, [$_mb], {arg};");
            mb(&i, format!("mbarrier.arrive.shared.b64 %rd9, [$_mb];\n$_w:\n{i}\n@!%p6 bra $_w;\nmov.u32 %r3, %r1;"))
        }
        "mbarrier.pending_count" => {
            let i = "mbarrier.pending_count.b64 %r3, %rd9;";
            mb(
                i,
                format!(
                    "mbarrier.arrive.shared.b64 %rd9, [$_mb];\n{i}\n$_w:\nmbarrier.test_wait.shared.b64 %p6, [$_mb], %rd9;\n@!%p6 bra $_w;"
                ),
            )
        }
        "mbarrier.complete_tx.shared" | "mbarrier.expect_tx.shared" | "mbarrier.tx" => {
            let i = match m {
                "mbarrier.complete_tx.shared" => "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [$_mb], 4;",
                "mbarrier.expect_tx.shared" => "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [$_mb], 4;",
                _ => "mbarrier.tx.shared.b64 [$_mb], 4;",
            };
            mb(i, format!("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [$_mb], 4;\nmbarrier.complete_tx.relaxed.cta.shared::cta.b64 [$_mb], 4;\n{MBAR_ARRIVE_WAIT}\nmov.u32 %r3, %r1;").replace(
                if m == "mbarrier.tx" { "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [$_mb], 4;" } else { "\u{0}" },
                i,
            ))
        }
        "mbarrier.arrive.expect_tx.shared" | "mbarrier.arrive_drop.expect_tx.shared" => {
            let op = m.trim_start_matches("mbarrier.").trim_end_matches(".shared");
            let i = format!("mbarrier.{op}.shared.b64 %rd9, [$_mb], 4;");
            mb(
                &i,
                format!(
                    "{i}\nmbarrier.complete_tx.relaxed.cta.shared::cta.b64 [$_mb], 4;\n{PARITY_WAIT}\nmov.u32 %r3, %r1;"
                ),
            )
        }
        "membar" | "membar.proxy" | "fence.proxy" => {
            let i = format!("{m}.{t};");
            fr(&i, format!("st.global.u32 [%rd4], %r1;\n{i}\nst.global.u32 [%rd4+4], %r2;"))
        }
        "fence.proxy.tensormap" => {
            let i = "fence.proxy.tensormap::generic.acquire.gpu [%rd6], 128;";
            fr(i, format!("cvta.global.u64 %rd6, %rd0;\n{i}\nst.global.u32 [%rd4], %r1;"))
        }
        "griddepcontrol" => {
            let i = format!("griddepcontrol.{t};");
            fr(&i, format!("{i}\nst.global.u32 [%rd4], %r1;"))
        }
        _ => return Err(format!("no template for `{m}`")),
    };
    Ok(f)
}

fn atomic(m: &str, t: &str) -> Framed {
    let (op, r, b, st) = match t {
        "f16x2" | "bf16x2" => (format!("add.noftz.{t}"), "%r3", "%r1", "u32"),
        "b32" => (if m.starts_with("red") { "and.b32" } else { "exch.b32" }.into(), "%r3", "%r1", "u32"),
        "b64" => (if m.starts_with("red") { "and.b64" } else { "exch.b64" }.into(), "%rd6", "%rd5", "u64"),
        "u64" => ("add.u64".into(), "%rd6", "%rd5", "u64"),
        "f32" => ("add.f32".into(), "%f1", "%f2", "f32"),
        "f64" => ("add.f64".into(), "%fd1", "%fd2", "f64"),
        _ => (format!("add.{t}"), "%r3", "%r1", "u32"),
    };
    let pre = "mov.b32 %f2, %r2;\nmov.b64 %fd2, %rd5;";
    match m {
        "atom.shared" => {
            let i = format!("atom.shared.{op} {r}, [$_v], {b};");
            fr(&i, format!("{pre}\n@%p7 st.shared.u64 [$_v], 0;\nbar.sync 0;\n{i}\nst.global.{st} [%rd4], {r};"))
                .regs(".shared .align 8 .b64 $_v;")
        }
        "red" | "red.global" => {
            let sp = if m == "red" { "" } else { ".global" };
            let addr = if m == "red" { "%rd6" } else { "%rd1" };
            let i = format!("red{sp}.{op} [{addr}], {b};");
            fr(&i, format!("{pre}\ncvta.global.u64 %rd6, %rd1;\n{i}"))
        }
        _ => {
            let sp = if m == "atom" { "" } else { ".global" };
            let addr = if m == "atom" { "%rd7" } else { "%rd1" };
            let i = format!("atom{sp}.{op} {r}, [{addr}], {b};");
            fr(&i, format!("{pre}\ncvta.global.u64 %rd7, %rd1;\n{i}\nst.global.{st} [%rd4+8], {r};"))
        }
    }
}

fn regs(prefix: &str, n: usize) -> String {
    format!("{{{}}}", (0..n).map(|i| format!("{prefix}{i}")).collect::<Vec<_>>().join(", "))
}

fn matrix(m: &str, t: &str) -> Result<Framed, String> {
    let _ = t;
    let f = match m {
        "wmma.load.a" | "wmma.load.b" | "wmma.load.c" | "wmma.store.d" | "wmma.mma" => wmma(m),
        "mma" => {
            let i = format!(
                "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {}, {}, {}, {};",
                regs("%f", 4),
                "{%r1, %r2, %r1, %r2}",
                "{%r1, %r2}",
                regs("%f", 4)
            );
            fr(
                &i,
                format!(
                    "mov.f32 %f0, 0f00000000;\nmov.f32 %f1, 0f3F800000;\nmov.f32 %f2, %f0;\nmov.f32 %f3, %f1;\n{i}\nst.global.f32 [%rd4], %f0;\nst.global.f32 [%rd4+4], %f3;"
                ),
            )
        }
        "wgmma.mma_async" | "wgmma.fence" | "wgmma.commit_group" | "wgmma.wait_group" => wgmma(m),
        m if m.starts_with("tcgen05") => return tcgen05(m),
        "ldmatrix" => {
            let i = "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r3}, [%r5];";
            fr(i, format!("{SHARED_SLOT}\n{i}\n{OUT_R3}")).regs(SHARED_DECL)
        }
        "stmatrix" => {
            let i = "stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r5], {%r1};";
            fr(i, format!("{SHARED_SLOT}\n{i}\nbar.sync 0;\nld.shared.u32 %r3, [%r5];\n{OUT_R3}")).regs(SHARED_DECL)
        }
        "movmatrix" => {
            let i = "movmatrix.sync.aligned.m8n8.trans.b16 %r3, %r1;";
            fr(i, format!("{i}\n{OUT_R3}"))
        }
        _ => return Err(format!("no template for `{m}`")),
    };
    Ok(f)
}

/// A whole m16n16k16 f16×f16+f32 wmma in every warp (A at the input, B 512 bytes in, C 1024
/// bytes in; D to the output), the probed row's instruction named.
fn wmma(m: &str) -> Framed {
    let la = format!("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {}, [%rd0], 16;", regs("%wa", 8));
    let lb = format!("wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {}, [%rd6], 16;", regs("%wb", 8));
    let lc = format!("wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {}, [%rd7], 16;", regs("%wc", 8));
    let mma = format!(
        "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {}, {}, {}, {};",
        regs("%wd", 8),
        regs("%wa", 8),
        regs("%wb", 8),
        regs("%wc", 8)
    );
    let sd = format!("wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd1], {}, 16;", regs("%wd", 8));
    let i = match m {
        "wmma.load.a" => &la,
        "wmma.load.b" => &lb,
        "wmma.load.c" => &lc,
        "wmma.mma" => &mma,
        _ => &sd,
    };
    fr(i, format!("add.s64 %rd6, %rd0, 512;\nadd.s64 %rd7, %rd0, 1024;\n{la}\n{lb}\n{lc}\n{mma}\n{sd}"))
        .regs(".reg .b32 %wa<8>, %wb<8>;\n.reg .f32 %wc<8>, %wd<8>;")
}

/// One `wgmma.mma_async` m64n8k16 f32 += f16×f16 from shared memory (the input copied there),
/// fenced, committed and waited, the accumulators stored.
fn wgmma(m: &str) -> Framed {
    let mma = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd6, %rd7, %p1, 1, 1, 0, 0;";
    let i = match m {
        "wgmma.mma_async" => mma,
        "wgmma.fence" => "wgmma.fence.sync.aligned;",
        "wgmma.commit_group" => "wgmma.commit_group.sync.aligned;",
        _ => "wgmma.wait_group.sync.aligned 0;",
    };
    // Descriptor: start address >> 4 in bits 0..14, leading byte offset 128 (>> 4) at bit 16,
    // stride byte offset 256 (>> 4) at bit 32, no swizzle.
    let desc = "mov.u32 %r7, $_s;\nshr.u32 %r7, %r7, 4;\ncvt.u64.u32 %rd6, %r7;\nor.b64 %rd6, %rd6, 0x100080000;\n\
                add.u32 %r8, %r7, 64;\ncvt.u64.u32 %rd7, %r8;\nor.b64 %rd7, %rd7, 0x100080000;";
    fr(i, format!("{SHARED_SLOT}\nfence.proxy.async.shared::cta;\nmov.f32 %f0, 0f00000000;\nmov.f32 %f1, %f0;\nmov.f32 %f2, %f0;\nmov.f32 %f3, %f0;\nsetp.ne.u32 %p1, %r0, 4096;\n{desc}\nwgmma.fence.sync.aligned;\n{mma}\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\nst.global.f32 [%rd4], %f0;\nst.global.f32 [%rd4+4], %f3;"))
        .regs(SHARED_DECL)
}

/// Warp 0 allocates 32 tensor-memory columns, runs the row's operation, deallocates and gives up
/// the permit; the allocated address is stored.
fn tcgen05(m: &str) -> Result<Framed, String> {
    let op = match m {
        "tcgen05.alloc" => "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [$_ta], 32;",
        "tcgen05.dealloc" => "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r5, 32;",
        "tcgen05.relinquish_alloc_permit" => "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;",
        "tcgen05.fence" => "tcgen05.fence::before_thread_sync;",
        "tcgen05.wait" => "tcgen05.wait::st.sync.aligned;",
        "tcgen05.st" => "tcgen05.st.sync.aligned.32x32b.x1.b32 [%r5], {%r1};",
        "tcgen05.ld" => "tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r3}, [%r5];",
        "tcgen05.shift" => "tcgen05.shift.cta_group::1.down [%r5];",
        "tcgen05.commit" => "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [$_mb];",
        _ => return Err("needs tensor-memory matrix descriptors this generator does not build yet".into()),
    };
    let body = format!(
        "{MBAR_INIT}\nsetp.ge.u32 %p1, %r0, 32;\nmov.u32 %r3, 0;\n@%p1 bra $_end;\n\
         tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [$_ta], 32;\nld.shared.u32 %r5, [$_ta];\n\
         tcgen05.st.sync.aligned.32x32b.x1.b32 [%r5], {{%r1}};\ntcgen05.wait::st.sync.aligned;\n{}\n\
         tcgen05.ld.sync.aligned.32x32b.x1.b32 {{%r3}}, [%r5];\ntcgen05.wait::ld.sync.aligned;\n\
         tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r5, 32;\ntcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n$_end:\n{OUT_R3}",
        if matches!(
            m,
            "tcgen05.alloc" | "tcgen05.dealloc" | "tcgen05.relinquish_alloc_permit" | "tcgen05.st" | "tcgen05.ld"
        ) {
            ""
        } else {
            op
        }
    );
    Ok(fr(op, body).regs(&format!(".shared .align 4 .b32 $_ta;\n{MBAR_DECL}")))
}

fn video(m: &str, t: &str) -> Framed {
    let ab = if t.starts_with('(') { "u32.u32" } else { t };
    let i = match m {
        "vmad" => format!("vmad.s32.{ab} %r3, %r1.h0, %r2.h1, %r4;"),
        "vset" => format!("vset.{ab}.lt.add %r3, %r1.b0, %r2.b1, %r4;"),
        "vshl.u32" => format!("vshl.u32.u32.{ab}.clamp.add %r3, %r1, %r2, %r4;"),
        "vshr" => format!("vshr.u32.{ab}.clamp.add %r3, %r1, %r2, %r4;"),
        "vset2" | "vset4" => format!("{m}.u32.u32.lt.add %r3, %r1, %r2, %r4;"),
        _ if m.ends_with('2') || m.ends_with('4') => format!("{m}.u32.u32.u32.add %r3, %r1, %r2, %r4;"),
        _ => format!("{m}.u32.{ab}.add %r3, %r1.b0, %r2.b1, %r4;"),
    };
    fr(&i, format!("and.b32 %r4, %r2, 255;\n{i}\n{OUT_R3}"))
}

fn misc(m: &str, t: &str) -> Result<Framed, String> {
    let f = match m {
        "getctarank" => {
            let i =
                if t == "shared" { "getctarank.shared::cluster.u32 %r3, %r5;" } else { "getctarank.u64 %r3, %rd6;" };
            fr(i, format!("mov.u32 %r5, $_s;\ncvta.shared.u64 %rd6, $_s;\n{i}\n{OUT_R3}"))
                .regs(".shared .align 8 .b8 $_s[16];")
        }
        "istypep" => {
            let (d, v) = match t {
                "texref" => (".global .texref $_x;", "texref"),
                "samplerref" => (".global .samplerref $_x;", "samplerref"),
                _ => (".global .surfref $_x;", "surfref"),
            };
            let i = format!("istypep.{v} %p1, $_x;");
            fr(&i, format!("{i}\nselp.u32 %r3, 1, 0, %p1;\n{OUT_R3}")).decls(d)
        }
        "preexit" => fr("preexit;", "st.global.u32 [%rd4], %r1;\npreexit;"),
        "stacksave" | "stackrestore" => {
            let i = if m == "stacksave" { "stacksave.u64 %rd6;" } else { "stackrestore.u64 %rd6;" };
            fr(
                i,
                "stacksave.u64 %rd6;\nalloca.u64 %rd7, 16;\nst.local.u32 [%rd7], %r1;\nld.local.u32 %r3, [%rd7];\nstackrestore.u64 %rd6;\nst.global.u32 [%rd4], %r3;",
            )
        }
        "alloca" => {
            let i = "alloca.u64 %rd7, 16;";
            fr(i, format!("{i}\nst.local.u32 [%rd7], %r1;\nld.local.u32 %r3, [%rd7];\n{OUT_R3}"))
        }
        "setmaxnreg.inc" | "setmaxnreg.dec" => {
            let i = format!("{m}.sync.aligned.u32 {};", if m.ends_with("inc") { 232 } else { 40 });
            fr(&i, format!("{i}\nst.global.u32 [%rd4], %r1;"))
        }
        "setmaxreg.alloc"
        | "setmaxreg.dealloc"
        | "setmaxreg.try_alloc"
        | "setsmemsize"
        | "setsmemsize.flush"
        | "getnextworkid" => {
            return Err("not in the PTX ISA 9.0 manual; the catalogued syntax is not known well enough to probe".into());
        }
        "clusterlaunchcontrol.try_cancel.async" | "clusterlaunchcontrol.query_cancel" => {
            return Err("needs a 16-byte shared response and a cluster launch this generator does not build yet".into());
        }
        _ => return Err(format!("no template for `{m}`")),
    };
    Ok(f)
}
