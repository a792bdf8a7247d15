//! Scalar video instructions (`vadd vsub vabsdiff vmin vmax vset vshl vshr vmad`) over random
//! forms: every type combination, selector, `.sat`, secondary operation, merge, shift mode,
//! `vmad` negation / `.po` / scaling, on edge-biased full-width operands.
//!
//! One generated kernel holds `FORMS` random forms; each of 64 threads applies all of them to
//! its own three input words. Four results per element must agree:
//! 1. the Ori interpreter on our lowering (`src/lower/video.rs`, 64-bit expansions),
//! 2. the SASS emulator on our -O3 cubin (hazard check on),
//! 3. the SASS emulator on NVIDIA ptxas's -O3 cubin of the same PTX (the emulator is checked
//!    against the GPU by `gpu_golden`; the corpus's `video_scalar` golden is GPU-recorded),
//! 4. a reference written here from the PTX ISA's pseudo-code in 128-bit arithmetic, with the
//!    deviations ptxas 13.0's code shows (merge-form `.sat`, shift saturation, `.h1` merges,
//!    64-bit secondary `.min`/`.max`, `vmad`'s signed products and c; the list is in
//!    `src/lower/video.rs`, each read off NVIDIA's SASS after this test found it).
//!
//! Without NVIDIA's tools (oracle not required) only 1, 2 and 4 run.

#[path = "support/words.rs"]
mod words;
use std::fmt::Write as _;
use words::u32s;

use interp::emu::{EmuConfig, Kernel};
use interp::launch::LaunchSpec;
use interp::launch::builder::SpecBuilder;
use interp::{ExecConfig, run_ori_with};
use ptxas_rs::backend;

const FORMS: usize = 160;
const THREADS: usize = 64;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Op {
    Add,
    Sub,
    Absdiff,
    Min,
    Max,
    Set,
    Shl,
    Shr,
    Mad,
}

/// A byte/half selector: (position, width).
type Sel = Option<(u32, u32)>;
const SELS: [Sel; 7] = [None, Some((0, 8)), Some((8, 8)), Some((16, 8)), Some((24, 8)), Some((0, 16)), Some((16, 16))];

fn sel_name(s: Sel) -> &'static str {
    match s {
        None => "",
        Some((0, 8)) => ".b0",
        Some((8, 8)) => ".b1",
        Some((16, 8)) => ".b2",
        Some((24, 8)) => ".b3",
        Some((0, 16)) => ".h0",
        _ => ".h1",
    }
}

#[derive(Clone, Debug)]
struct Form {
    op: Op,
    d_signed: bool,
    a_signed: bool,
    b_signed: bool,
    asel: Sel,
    bsel: Sel,
    sat: bool,
    /// Secondary operation: "add", "min", "max".
    op2: Option<&'static str>,
    /// Merge selector of the destination.
    dsel: Sel,
    cmp: &'static str,
    clamp: bool,
    /// vmad: negations of a, b, c; `.po`; scale shift.
    neg: (bool, bool, bool),
    po: bool,
    shr: u32,
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[(self.next() % xs.len() as u64) as usize]
    }
    fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }
}

fn random_form(r: &mut Rng) -> Form {
    let op = r.pick(&[Op::Add, Op::Sub, Op::Absdiff, Op::Min, Op::Max, Op::Set, Op::Shl, Op::Shr, Op::Mad]);
    let mut f = Form {
        op,
        d_signed: r.coin(),
        a_signed: r.coin(),
        b_signed: r.coin(),
        asel: r.pick(&SELS),
        bsel: r.pick(&SELS),
        sat: r.coin(),
        op2: None,
        dsel: None,
        cmp: r.pick(&["eq", "ne", "lt", "le", "gt", "ge"]),
        clamp: r.coin(),
        neg: (false, false, false),
        po: false,
        shr: r.pick(&[0, 0, 7, 15]),
    };
    if matches!(op, Op::Shl | Op::Shr) {
        f.b_signed = false;
    }
    if op == Op::Set {
        f.sat = false;
        f.d_signed = false;
    }
    if op == Op::Mad {
        match r.next() % 6 {
            0 => {}
            1 => f.neg.0 = true,
            2 => f.neg.1 = true,
            3 => f.neg = (true, true, false),
            4 => f.neg.2 = true,
            _ => f.po = true,
        }
        // The final result's signedness is the destination type's.
        f.d_signed = f.a_signed || f.b_signed || (f.neg.0 != f.neg.1) || f.neg.2;
    } else {
        match r.next() % 3 {
            0 => {}
            1 => f.op2 = Some(r.pick(&["add", "min", "max"])),
            _ => f.dsel = r.pick(&SELS[1..]),
        }
    }
    f
}

fn ty(s: bool) -> &'static str {
    if s { ".s32" } else { ".u32" }
}

impl Form {
    /// The instruction writing `%r10` from `%r2`, `%r3`, `%r4`.
    fn ptx(&self) -> String {
        let name = match self.op {
            Op::Add => "vadd",
            Op::Sub => "vsub",
            Op::Absdiff => "vabsdiff",
            Op::Min => "vmin",
            Op::Max => "vmax",
            Op::Set => "vset",
            Op::Shl => "vshl",
            Op::Shr => "vshr",
            Op::Mad => "vmad",
        };
        let mut s = name.to_string();
        if self.op != Op::Set {
            s += ty(self.d_signed);
        }
        s += ty(self.a_signed);
        s += ty(self.b_signed);
        if self.op == Op::Set {
            s += &format!(".{}", self.cmp);
        }
        if self.op == Op::Mad && self.po {
            s += ".po";
        }
        if self.sat {
            s += ".sat";
        }
        if matches!(self.op, Op::Shl | Op::Shr) {
            s += if self.clamp { ".clamp" } else { ".wrap" };
        }
        if self.op == Op::Mad && self.shr != 0 {
            s += &format!(".shr{}", self.shr);
        }
        if let Some(o) = self.op2 {
            s += &format!(".{o}");
        }
        let n = |b: bool| if b { "-" } else { "" };
        let (na, nb, nc) = self.neg;
        let mut t = format!(
            "{s} %r10{}, {}%r2{}, {}%r3{}",
            sel_name(self.dsel),
            n(na),
            sel_name(self.asel),
            n(nb),
            sel_name(self.bsel)
        );
        if self.op == Op::Mad || self.op2.is_some() || self.dsel.is_some() {
            t += &format!(", {}%r4", n(nc));
        }
        t + ";"
    }

    /// The PTX ISA's semantics in 128-bit arithmetic (see the module doc for the deviation).
    fn eval(&self, a: u32, b: u32, c: u32) -> u32 {
        let part = |x: u32, s: Sel, signed: bool| -> i128 {
            let (pos, w) = s.unwrap_or((0, 32));
            let v = (u64::from(x) >> pos) & ((1u64 << w) - 1);
            if signed && (v >> (w - 1)) & 1 == 1 { v as i128 - (1i128 << w) } else { v as i128 }
        };
        let ta = part(a, self.asel, self.a_signed);
        if self.op == Op::Mad {
            let tb = part(b, self.bsel, self.b_signed);
            let (na, nb, nc) = self.neg;
            let signed = self.a_signed || self.b_signed || (na != nb) || nc;
            // ptxas multiplies the 32-bit extracted values as signed (`IMAD.WIDE`), a full
            // `.u32` word included.
            let mut prod = i128::from(ta as u32 as i32) * i128::from(tb as u32 as i32);
            let mut c = c;
            let lsb = if self.po {
                1
            } else if na != nb {
                prod = !prod;
                1
            } else if nc {
                c = !c;
                1
            } else {
                0
            };
            // ptxas sign-extends c whatever the types (measured: `vmad.u32.u32.u32`).
            let c128 = i128::from(c as i32);
            let tmp = (prod + c128 + lsb) as i64;
            let res = if signed { (tmp >> self.shr) as u64 } else { (tmp as u64) >> self.shr };
            let res = if self.sat {
                if signed {
                    (res as i64).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as u64
                } else {
                    (res as i64).clamp(0, i64::from(u32::MAX)) as u64
                }
            } else {
                res
            };
            return res as u32;
        }
        let tmp: i128 = match self.op {
            Op::Shl | Op::Shr => {
                let tb = part(b, self.bsel, false);
                let n = if self.clamp { tb.min(32) } else { tb & 31 };
                if self.op == Op::Shl { ta << n } else { ta >> n }
            }
            _ => {
                let tb = part(b, self.bsel, self.b_signed);
                match self.op {
                    Op::Add => ta + tb,
                    Op::Sub => ta - tb,
                    Op::Absdiff => (ta - tb).abs(),
                    Op::Min => ta.min(tb),
                    Op::Max => ta.max(tb),
                    _ => {
                        let r = match self.cmp {
                            "eq" => ta == tb,
                            "ne" => ta != tb,
                            "lt" => ta < tb,
                            "le" => ta <= tb,
                            "gt" => ta > tb,
                            _ => ta >= tb,
                        };
                        i128::from(r)
                    }
                }
            }
        };
        let shift = matches!(self.op, Op::Shl | Op::Shr);
        let tmp = match (self.sat, self.dsel) {
            // Shifts saturate a 34-bit signed view of the result to the 32-bit range, whatever
            // the merge selector.
            (true, _) if shift => {
                let t = ((tmp & ((1 << 34) - 1)) ^ (1 << 33)) - (1 << 33);
                if self.d_signed {
                    t.clamp(i128::from(i32::MIN), i128::from(i32::MAX))
                } else {
                    t.clamp(0, i128::from(u32::MAX))
                }
            }
            (true, None) if self.d_signed => tmp.clamp(i128::from(i32::MIN), i128::from(i32::MAX)),
            (true, None) => tmp.clamp(0, i128::from(u32::MAX)),
            (true, Some((_, w))) => {
                let hi = if self.d_signed { (1i128 << (w - 1)) - 1 } else { (1i128 << w) - 1 };
                if tmp < 0 { hi } else { tmp.min(hi) }
            }
            // Unsaturated sums and differences are 32-bit results, sign-extended.
            (false, _) if matches!(self.op, Op::Add | Op::Sub) => i128::from(tmp as u32 as i32),
            (false, _) => tmp,
        };
        // The secondary operation in the intermediate's precision, c extended by the
        // destination's signedness (vset: a's), compared with that signedness in 64 bits.
        let c_signed = if self.op == Op::Set { self.a_signed } else { self.d_signed };
        let (t, cx) =
            if c_signed { (tmp as i64 as i128, i128::from(c as i32)) } else { (i128::from(tmp as u64), i128::from(c)) };
        match (self.op2, self.dsel) {
            (Some("add"), _) => (tmp + cx) as u32,
            (Some("min"), _) => t.min(cx) as u32,
            (Some(_), _) => t.max(cx) as u32,
            // `.h1` keeps the result's own high half (ptxas: `PRMT d, tmp, 0x3254, c`).
            (None, Some((16, 16))) => (c & 0xffff) | (tmp as u32 & 0xffff_0000),
            (None, Some((pos, w))) => {
                let m = ((1u64 << w) - 1) as u32;
                (c & !(m << pos)) | ((tmp as u32 & m) << pos)
            }
            (None, None) => tmp as u32,
        }
    }
}

fn kernel(forms: &[Form]) -> String {
    let mut s = String::from(
        ".version 9.0\n.target sm_90\n.address_size 64\n\n.visible .entry vk(\n\t.param .u64 vk_out,\n\t.param .u64 vk_in\n)\n{\n\
         \t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n\tld.param.u64 %rd1, [vk_out];\n\tld.param.u64 %rd2, [vk_in];\n\
         \tcvta.to.global.u64 %rd1, %rd1;\n\tcvta.to.global.u64 %rd2, %rd2;\n\tmov.u32 %r1, %tid.x;\n\
         \tmul.wide.u32 %rd3, %r1, 12;\n\tadd.s64 %rd4, %rd2, %rd3;\n\tld.global.u32 %r2, [%rd4];\n\
         \tld.global.u32 %r3, [%rd4+4];\n\tld.global.u32 %r4, [%rd4+8];\n",
    );
    writeln!(s, "\tmul.wide.u32 %rd5, %r1, {};\n\tadd.s64 %rd6, %rd1, %rd5;", 4 * forms.len()).unwrap();
    for (k, f) in forms.iter().enumerate() {
        writeln!(s, "\t{}\n\tst.global.u32 [%rd6+{}], %r10;", f.ptx(), 4 * k).unwrap();
    }
    s + "\tret;\n}\n"
}

fn spec(n: usize) -> LaunchSpec {
    SpecBuilder::new("vk")
        .block([THREADS as u32, 1, 1])
        .output_init("out", "u32", THREADS * n, "{ fill = 0 }")
        .input("in", "u32", THREADS * 3, "{ edge = { seed = 7 } }")
        .build()
        .unwrap()
}

/// Elements of `got` that differ from `want`, as readable lines (the first few).
fn diffs(what: &str, forms: &[Form], input: &[u32], want: &[u32], got: &[u32]) -> Vec<String> {
    let n = forms.len();
    let mut out = Vec::new();
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        if w != g {
            let (t, k) = (i / n, i % n);
            let (a, b, c) = (input[3 * t], input[3 * t + 1], input[3 * t + 2]);
            out.push(format!("{what}: `{}` a={a:#x} b={b:#x} c={c:#x}: expected {w:#x}, got {g:#x}", forms[k].ptx()));
        }
    }
    out
}

#[test]
fn random_scalar_video_forms_agree() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let forms: Vec<Form> = (0..FORMS).map(|_| random_form(&mut r)).collect();
    let text = kernel(&forms);
    let spec = spec(forms.len());
    let input = u32s(&spec.generate_buffers()["in"]);
    let reference: Vec<u32> = (0..THREADS * FORMS)
        .map(|i| {
            let (t, k) = (i / FORMS, i % FORMS);
            forms[k].eval(input[3 * t], input[3 * t + 1], input[3 * t + 2])
        })
        .collect();
    let mut bad = Vec::new();
    // 1. The interpreter on our lowering.
    let module = ptxas_rs::lower::lower_source(&text).unwrap_or_else(|e| panic!("lowering: {e}\n{text}"));
    let run = run_ori_with(&module, "vk", &spec, &ExecConfig::default()).unwrap();
    let interp_out = u32s(&run.buffers["out"]);
    bad.extend(diffs("interpreter vs reference", &forms, &input, &reference, &interp_out));
    // 2. Our -O3 cubin in the emulator.
    let ast = ptxas_rs::ptx::parse(&text, "vk.ptx").unwrap();
    let opts = backend::Options { opt_level: 3, ..backend::Options::default() };
    let cubin = backend::compile(&ast, &opts).unwrap_or_else(|e| panic!("compile: {e:?}")).cubin;
    let cfg = EmuConfig { hazards: true, ..EmuConfig::default() };
    let ours = Kernel::load(&cubin, "vk").unwrap().run(&spec, &cfg).unwrap();
    bad.extend(diffs("our cubin vs interpreter", &forms, &input, &interp_out, &u32s(&ours.outputs.buffers["out"])));
    // 3. NVIDIA's cubin in the emulator.
    let mut checked = "interpreter, our cubin and the reference";
    if let Some(t) = oracle::tools_or_skip("random_scalar_video_forms_agree") {
        let out =
            t.ptxas_run(oracle::PtxInput::Text { name: "vk.ptx", text: &text }, &["-arch", "sm_90", "-O3"]).unwrap();
        let cubin = out.cubin.unwrap_or_else(|| panic!("ptxas refuses the kernel: {}\n{text}", out.stderr));
        let nv = Kernel::load(&cubin, "vk").unwrap().run(&spec, &cfg).unwrap();
        bad.extend(diffs("reference vs NVIDIA's cubin", &forms, &input, &u32s(&nv.outputs.buffers["out"]), &reference));
        checked = "interpreter, our cubin, NVIDIA's cubin and the reference";
    }
    let shown: Vec<&String> =
        bad.iter().take(if std::env::var("VIDEO_ALL").is_ok() { usize::MAX } else { 20 }).collect();
    assert!(
        bad.is_empty(),
        "{} disagreements, first:\n{}",
        bad.len(),
        shown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
    println!("{FORMS} scalar video forms x {THREADS} threads: {checked} agree");
}
