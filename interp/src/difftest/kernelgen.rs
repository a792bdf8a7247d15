//! The kernel generator: bytes (an [`arbitrary::Unstructured`]) to a valid, UB-free sm_90 PTX
//! kernel and the launch spec that runs it.
//!
//! # The kernel's shape
//!
//! ```text
//! .visible .entry difft(.param .u64 out, .param .u64 in, .param .u64 inf, .param .u32 k)
//! ```
//!
//! - `out` (`u32`, [`SLOTS`] words per thread, all zero at launch) is the only output. Thread `g`
//!   (the global linear index `ctaid.x * ntid.x + tid.x`) owns words `g * SLOTS ..` and never
//!   touches another thread's words, so there are no races.
//! - `in` (`u32`) and `inf` (`f32`), [`IN_LEN`] elements each, are read-only inputs filled by the
//!   launch spec's `edge` generator (edge values: 0, ±1, the extremes, NaNs, infinities,
//!   denormals, ±0, mixed with random bits); `k` is a scalar.
//!
//! The body works on a fixed pool of registers: [`NR`] `b32` (`%r`), [`ND`] `b64` (`%rd`), [`NF`]
//! `f32` (`%f`) and [`NP`] predicates (`%p`). Every pool register is written in the prologue
//! (from `%tid.x`, `%ctaid.x`, the global index, `k`, a constant, or a load), before any
//! control flow, so every read sees an initialised value on every path. Statements then
//! overwrite pool registers; the epilogue stores the whole pool to the thread's words (a
//! predicate as 0/1, a float after replacing any NaN by `0x7fffffff`, because PTX leaves NaN
//! payloads unspecified).
//!
//! Statements: integer, 64-bit, float, conversion and predicate instructions (optionally under a
//! `@%p`/`@!%p` guard), loads from `in`/`inf` at masked (so in-bounds) data-dependent or constant
//! indices, stores and loads of the thread's scratch words, `if`/`else` on a (possibly
//! divergent) predicate, and do-while loops whose counter and bound live in registers the body
//! does not write (a bound of at most [`MAX_TRIP`] iterations, constant or data-dependent).
//!
//! # Why every kernel is free of undefined behaviour
//!
//! - every register is written before it is read (above);
//! - `div`/`rem` divide only by non-zero constants, and a signed division never by `-1`
//!   (`INT_MIN / -1` overflows);
//! - shifts take any amount: PTX clamps amounts larger than the width (`shl`/`shr.u` give 0,
//!   `shr.s` the sign fill), so every amount is defined;
//! - float-to-integer `cvt` saturates and maps NaN to 0 in PTX (defined for every input);
//! - memory accesses are aligned and in bounds (indices are masked to the buffer, scratch
//!   offsets are constants inside the thread's words);
//! - loops are bounded by registers the body cannot change; branches only go forward except a
//!   loop's back edge;
//! - no float bit pattern reaches an integer register except through `cvt` (value based), so a
//!   NaN's payload never shows.
//!
//! Constructs that expose a known backend bug are behind [`GenConfig`] flags (off by default)
//! whose docs name the bug.

use std::fmt::Write as _;

use arbitrary::Unstructured;

/// `b32` pool registers.
pub const NR: usize = 8;
/// `b64` pool registers.
pub const ND: usize = 4;
/// `f32` pool registers.
pub const NF: usize = 4;
/// Predicate pool registers.
pub const NP: usize = 3;
/// Output words per thread: the pool (`NR + 2 * ND + NF + NP` words) then scratch words.
pub const SLOTS: usize = 32;
/// First scratch word of a thread's slots (8-byte aligned).
pub const SCRATCH: usize = 24;
/// Elements of each input buffer (a power of two: indices are masked with `IN_LEN - 1`).
pub const IN_LEN: usize = 256;
/// The largest loop trip count.
pub const MAX_TRIP: u32 = 4;

/// What the generator may produce.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Most statements at the top level of the body.
    pub max_stmts: usize,
    /// Deepest nesting of `if`/loop.
    pub max_depth: usize,
    /// `.ftz` on float instructions.
    pub ftz: bool,
    /// `div.rn.f32` (IEEE division; a subroutine in ptxas's output).
    pub float_div: bool,
    /// 64-bit integer `div`/`rem` by constants.
    pub div64: bool,
    /// Also generate the constructs ptxas-rs's backend refused when this generator was written
    /// (2026-11-22; each refusal is a clean "not implemented"-class error, counted as a skip):
    /// `setp.le`/`setp.ls` (32 and 64 bits) and `setp.lt.s32` with an immediate (emission: no
    /// `ISETP.LE` form / no `.LT.AND` modifier entry for the immediate form), `setp.lt`/`setp.le`
    /// on f32 and every `.ftz` compare (`FSETP` modifier entries), `.ftz` float arithmetic
    /// (`FFMA`/`FADD`/`FMUL`/`FMNMX`/`F2I` with `FTZ`), `div`/`rem` by a constant and `mad.hi`
    /// (`IMAD.HI` with a non-zero addend), `shl.b64` (`SHF.L.U64`) and `cvt.rni/rzi/rmi/rpi.f32.f32`
    /// (`FRND`). Off: the generator avoids them so that most cases get compared.
    pub refused_too: bool,
}

impl Default for GenConfig {
    fn default() -> GenConfig {
        GenConfig { max_stmts: 24, max_depth: 2, ftz: false, float_div: false, div64: false, refused_too: false }
    }
}

/// A generated test case.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The PTX module text.
    pub ptx: String,
    /// The launch spec (TOML) that runs it.
    pub spec_toml: String,
}

/// The kernel's name.
pub const KERNEL: &str = "difft";

/// A never-failing view of the fuzzer's bytes: when they run out, every choice takes its first
/// option (so generation always terminates and small inputs give small kernels).
struct Src<'a, 'b> {
    u: &'a mut Unstructured<'b>,
}

impl Src<'_, '_> {
    /// A number in `0..n` (`n >= 1`).
    fn below(&mut self, n: usize) -> usize {
        if n <= 1 || self.u.is_empty() {
            return 0;
        }
        self.u.int_in_range(0..=n - 1).unwrap_or(0)
    }
    /// True with probability `num / den` (false once the bytes run out).
    fn chance(&mut self, num: usize, den: usize) -> bool {
        !self.u.is_empty() && self.below(den) < num
    }
    fn pick<'c, T>(&mut self, v: &'c [T]) -> &'c T {
        &v[self.below(v.len())]
    }
    fn bits32(&mut self) -> u32 {
        self.u.arbitrary::<u32>().unwrap_or(0)
    }
    fn bits64(&mut self) -> u64 {
        self.u.arbitrary::<u64>().unwrap_or(0)
    }
    /// An edge-biased 32-bit constant.
    fn const32(&mut self) -> u32 {
        match self.below(4) {
            0 => *self.pick(&[0, 1, 2, 31, 32, 33, u32::MAX, 0x8000_0000, 0x7fff_ffff, 0xffff, 0x1_0000]),
            1 => self.below(64) as u32,
            _ => self.bits32(),
        }
    }
    /// An edge-biased 64-bit constant.
    fn const64(&mut self) -> u64 {
        match self.below(4) {
            0 => *self.pick(&[0, 1, u64::MAX, 1 << 63, (1 << 63) - 1, 0xffff_ffff, 1 << 32]),
            1 => self.below(64) as u64,
            _ => self.bits64(),
        }
    }
    /// An edge-biased f32 bit pattern.
    fn constf(&mut self) -> u32 {
        match self.below(3) {
            0 => *self.pick(&[
                0x0000_0000,
                0x8000_0000,
                0x3f80_0000,
                0xbf80_0000,
                0x7f7f_ffff,
                0xff7f_ffff,
                0x7fc0_0000,
                0x7f80_0000,
                0xff80_0000,
                0x0000_0001,
                0x0080_0000,
                0x007f_ffff,
                0x3f00_0000,
                0x4b00_0000,
                0x4f00_0000,
                0xcf00_0000,
                0x5f00_0000,
            ]),
            1 => (self.below(2001) as f32 - 1000.0).to_bits(),
            _ => self.bits32(),
        }
    }
}

/// Generates a kernel and its launch spec from the fuzzer's bytes.
pub fn generate(u: &mut Unstructured<'_>, cfg: &GenConfig) -> Generated {
    let mut s = Src { u };
    let block = *s.pick(&[64u32, 32, 48, 96]);
    let grid = *s.pick(&[2u32, 1]);
    let k = s.const32();
    let seed_in = s.bits32() as u64;
    let seed_inf = s.bits32() as u64;
    let mut g = Gen { s, cfg, out: String::new(), labels: 0, depth: 0 };
    g.body();
    let threads = (block * grid) as usize;
    let ptx = g.finish();
    let spec_toml = format!(
        "kernel = \"{KERNEL}\"\ngrid = [{grid}, 1, 1]\nblock = [{block}, 1, 1]\n\n\
         [[param]]\nbuffer = \"out\"\n[[param]]\nbuffer = \"in\"\n[[param]]\nbuffer = \"inf\"\n\
         [[param]]\nscalar = {{ type = \"u32\", value = {k} }}\n\n\
         [buffer.out]\ntype = \"u32\"\nlen = {}\ninit = {{ fill = 0 }}\noutput = true\n\n\
         [buffer.in]\ntype = \"u32\"\nlen = {IN_LEN}\ninit = {{ edge = {{ seed = {seed_in} }} }}\n\n\
         [buffer.inf]\ntype = \"f32\"\nlen = {IN_LEN}\ninit = {{ edge = {{ seed = {seed_inf} }} }}\n",
        threads * SLOTS
    );
    Generated { ptx, spec_toml }
}

struct Gen<'a, 'b, 'c> {
    s: Src<'a, 'b>,
    cfg: &'c GenConfig,
    out: String,
    labels: usize,
    depth: usize,
}

const CMP_INT: &[&str] = &["eq", "ne", "lt", "le", "gt", "ge"];
const CMP_UNS: &[&str] = &["eq", "ne", "lo", "ls", "hi", "hs"];
const CMP_F: &[&str] = &["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"];
const RND_F: &[&str] = &[".rn", ".rz", ".rm", ".rp"];
const RND_I: &[&str] = &[".rni", ".rzi", ".rmi", ".rpi"];

impl Gen<'_, '_, '_> {
    fn line(&mut self, text: impl AsRef<str>) {
        self.out.push('\t');
        self.out.push_str(text.as_ref());
        self.out.push('\n');
    }
    fn label(&mut self) -> usize {
        self.labels += 1;
        self.labels
    }
    fn r(&mut self) -> String {
        format!("%r{}", self.s.below(NR))
    }
    fn rd(&mut self) -> String {
        format!("%rd{}", self.s.below(ND))
    }
    fn f(&mut self) -> String {
        format!("%f{}", self.s.below(NF))
    }
    fn p(&mut self) -> String {
        format!("%p{}", self.s.below(NP))
    }
    /// A b32 source: a register or (sometimes) an immediate.
    fn r_or_imm(&mut self) -> String {
        if self.s.chance(1, 4) { self.s.const32().to_string() } else { self.r() }
    }
    /// A bit position or length: a register (any value is defined: PTX clamps) or an
    /// immediate, which ptxas requires to be in `0..=255`.
    fn r_or_byte(&mut self) -> String {
        if self.s.chance(1, 3) { self.s.below(256).to_string() } else { self.r() }
    }
    fn rd_or_imm(&mut self) -> String {
        if self.s.chance(1, 5) { self.s.const64().to_string() } else { self.rd() }
    }
    fn f_or_imm(&mut self) -> String {
        if self.s.chance(1, 5) { format!("0f{:08X}", self.s.constf()) } else { self.f() }
    }
    fn ftz(&mut self) -> &'static str {
        if self.cfg.ftz && self.s.chance(1, 4) { ".ftz" } else { "" }
    }
    /// An optional guard for a single instruction.
    fn guard(&mut self) -> String {
        if self.s.chance(1, 5) {
            let neg = if self.s.chance(1, 2) { "!" } else { "" };
            format!("@{neg}{} ", self.p())
        } else {
            String::new()
        }
    }

    fn prologue(&mut self) {
        self.line("ld.param.u64 %rdo, [out];");
        self.line("cvta.to.global.u64 %rdo, %rdo;");
        self.line("ld.param.u64 %rdi, [in];");
        self.line("cvta.to.global.u64 %rdi, %rdi;");
        self.line("ld.param.u64 %rdf, [inf];");
        self.line("cvta.to.global.u64 %rdf, %rdf;");
        self.line("ld.param.u32 %k, [k];");
        self.line("mov.u32 %tx, %tid.x;");
        self.line("mov.u32 %cx, %ctaid.x;");
        self.line("mov.u32 %nx, %ntid.x;");
        self.line("mad.lo.u32 %gid, %cx, %nx, %tx;");
        self.line(format!("mul.wide.u32 %rda, %gid, {};", SLOTS * 4));
        self.line("add.s64 %rdo, %rdo, %rda;");
        for i in 0..NR {
            let src = *self.s.pick(&["%tx", "%gid", "%cx", "%k", "imm", "ld", "ldg"]);
            match src {
                "imm" => {
                    let c = self.s.const32();
                    self.line(format!("mov.u32 %r{i}, {c};"));
                }
                "ld" => {
                    let off = self.s.below(IN_LEN) * 4;
                    self.line(format!("ld.global.u32 %r{i}, [%rdi+{off}];"));
                }
                "ldg" => {
                    // A per-thread element: in[(gid + c) & (IN_LEN - 1)].
                    let c = self.s.below(IN_LEN);
                    self.line(format!("add.u32 %ta, %gid, {c};"));
                    self.load_indexed(&format!("%r{i}"), "u32", "%rdi", "%ta");
                }
                reg => self.line(format!("mov.u32 %r{i}, {reg};")),
            }
        }
        for i in 0..ND {
            match self.s.below(4) {
                0 => {
                    let c = self.s.const64();
                    self.line(format!("mov.u64 %rd{i}, {c};"));
                }
                1 => {
                    let off = self.s.below(IN_LEN / 2) * 8;
                    self.line(format!("ld.global.u64 %rd{i}, [%rdi+{off}];"));
                }
                2 => {
                    let c = self.s.const32();
                    self.line(format!("mul.wide.u32 %rd{i}, %gid, {c};"));
                }
                _ => {
                    let c = self.s.below(IN_LEN);
                    self.line(format!("add.u32 %ta, %gid, {c};"));
                    self.load_indexed(&format!("%rd{i}"), "u64", "%rdi", "%ta");
                }
            }
        }
        for i in 0..NF {
            match self.s.below(4) {
                0 => {
                    let c = self.s.constf();
                    self.line(format!("mov.f32 %f{i}, 0f{c:08X};"));
                }
                1 => {
                    let off = self.s.below(IN_LEN) * 4;
                    self.line(format!("ld.global.f32 %f{i}, [%rdf+{off}];"));
                }
                2 => self.line(format!("cvt.rn.f32.u32 %f{i}, %gid;")),
                _ => {
                    let c = self.s.below(IN_LEN);
                    self.line(format!("add.u32 %ta, %gid, {c};"));
                    self.load_indexed(&format!("%f{i}"), "f32", "%rdf", "%ta");
                }
            }
        }
        for i in 0..NP {
            let a = format!("%r{}", self.s.below(NR));
            let b = self.r_or_imm();
            let (c, t) = self.int_cmp(32, b.starts_with(|c: char| c.is_ascii_digit()));
            self.line(format!("setp.{c}.{t} %p{i}, {a}, {b};"));
        }
    }

    /// `dst = base[idx & (IN_LEN - 1)]` (element type `ty`, `u64` reads the first half).
    fn load_indexed(&mut self, dst: &str, ty: &str, base: &str, idx: &str) {
        let (mask, size) = if ty == "u64" { (IN_LEN / 2 - 1, 8) } else { (IN_LEN - 1, 4) };
        self.line(format!("and.b32 %ta, {idx}, {mask};"));
        self.line(format!("mul.wide.u32 %rda, %ta, {size};"));
        self.line(format!("add.s64 %rda, {base}, %rda;"));
        let g = self.guard();
        self.line(format!("{g}ld.global.{ty} {dst}, [%rda];"));
    }

    fn body(&mut self) {
        self.prologue();
        let n = 1 + self.s.below(self.cfg.max_stmts);
        for _ in 0..n {
            self.stmt();
        }
        self.epilogue();
    }

    fn stmt(&mut self) {
        let nested = self.depth < self.cfg.max_depth;
        match self.s.below(20) {
            0..=6 => self.int_op(),
            7..=9 => self.wide_op(),
            10..=12 => self.float_op(),
            13 => self.convert(),
            14 => self.pred_op(),
            15 => self.memory(),
            16 | 17 if nested => self.if_else(),
            18 if nested => self.do_loop(),
            _ => self.int_op(),
        }
    }

    fn block(&mut self) {
        self.depth += 1;
        let n = 1 + self.s.below(4);
        for _ in 0..n {
            self.stmt();
        }
        self.depth -= 1;
    }

    fn int_op(&mut self) {
        let g = self.guard();
        let d = self.r();
        let a = self.r();
        let b = self.r_or_imm();
        let text = match self.s.below(24) {
            0 => format!("add.u32 {d}, {a}, {b};"),
            1 => format!("sub.s32 {d}, {a}, {b};"),
            2 => format!("mul.lo.u32 {d}, {a}, {b};"),
            3 => format!("mul.hi.{} {d}, {a}, {b};", self.s.pick(&["u32", "s32"])),
            4 => {
                let c = self.r_or_imm();
                format!("mad.lo.u32 {d}, {a}, {b}, {c};")
            }
            5 if self.cfg.refused_too => {
                let c = self.r_or_imm();
                format!("mad.hi.{} {d}, {a}, {b}, {c};", self.s.pick(&["u32", "s32"]))
            }
            6 => format!("min.{} {d}, {a}, {b};", self.s.pick(&["u32", "s32"])),
            7 => format!("max.{} {d}, {a}, {b};", self.s.pick(&["u32", "s32"])),
            8 => format!("and.b32 {d}, {a}, {b};"),
            9 => format!("or.b32 {d}, {a}, {b};"),
            10 => format!("xor.b32 {d}, {a}, {b};"),
            11 => format!("not.b32 {d}, {a};"),
            12 => format!("shl.b32 {d}, {a}, {b};"),
            13 => format!("shr.{} {d}, {a}, {b};", self.s.pick(&["u32", "s32", "b32"])),
            14 => {
                let p = self.p();
                format!("selp.b32 {d}, {a}, {b}, {p};")
            }
            15 if self.cfg.refused_too => {
                let c = 1 + self.s.below(1000) as u32;
                let c = if self.s.chance(1, 3) { self.s.bits32().max(2) } else { c };
                format!("{}.u32 {d}, {a}, {c};", self.s.pick(&["div", "rem"]))
            }
            16 if self.cfg.refused_too => {
                // Never -1: INT_MIN / -1 overflows.
                let c = 2 + self.s.below(1000) as i64;
                let c = if self.s.chance(1, 2) { -c } else { c };
                format!("{}.s32 {d}, {a}, {c};", self.s.pick(&["div", "rem"]))
            }
            17 => format!("neg.s32 {d}, {a};"),
            18 => format!("abs.s32 {d}, {a};"),
            19 => format!("{}.b32 {d}, {a};", self.s.pick(&["popc", "clz", "brev"])),
            20 => {
                let (p, l) = (self.r_or_byte(), self.r_or_byte());
                format!("bfe.{} {d}, {a}, {p}, {l};", self.s.pick(&["u32", "s32"]))
            }
            21 => {
                let (p, l) = (self.r_or_byte(), self.r_or_byte());
                format!("bfi.b32 {d}, {a}, {b}, {p}, {l};")
            }
            22 => {
                let (c, t) = self.int_cmp(32, b.starts_with(|c: char| c.is_ascii_digit()));
                format!("set.{c}.u32.{t} {d}, {a}, {b};")
            }
            _ => format!("mov.b32 {d}, {b};"),
        };
        self.line(format!("{g}{text}"));
    }

    fn wide_op(&mut self) {
        let g = self.guard();
        let d = self.rd();
        let a = self.rd();
        let b = self.rd_or_imm();
        let text = match self.s.below(17) {
            0 => format!("add.u64 {d}, {a}, {b};"),
            1 => format!("sub.s64 {d}, {a}, {b};"),
            2 => format!("mul.lo.u64 {d}, {a}, {b};"),
            3 => format!("mul.hi.{} {d}, {a}, {b};", self.s.pick(&["u64", "s64"])),
            4 => {
                let c = self.rd_or_imm();
                format!("mad.lo.u64 {d}, {a}, {b}, {c};")
            }
            5 => format!("min.{} {d}, {a}, {b};", self.s.pick(&["u64", "s64"])),
            6 => format!("max.{} {d}, {a}, {b};", self.s.pick(&["u64", "s64"])),
            7 => format!("{}.b64 {d}, {a}, {b};", self.s.pick(&["and", "or", "xor"])),
            8 => format!("not.b64 {d}, {a};"),
            9 if self.cfg.refused_too => {
                let n = self.r_or_imm();
                format!("shl.b64 {d}, {a}, {n};")
            }
            10 => {
                let n = self.r_or_imm();
                format!("shr.{} {d}, {a}, {n};", self.s.pick(&["u64", "s64"]))
            }
            11 => {
                let p = self.p();
                format!("selp.b64 {d}, {a}, {b}, {p};")
            }
            12 => {
                let x = self.r();
                let y = self.r_or_imm();
                format!("mul.wide.{} {d}, {x}, {y};", self.s.pick(&["u32", "s32"]))
            }
            13 => {
                let x = self.r();
                format!("cvt.{}.{} {d}, {x};", self.s.pick(&["u64", "s64"]), self.s.pick(&["u32", "s32"]))
            }
            14 => {
                let x = self.r();
                format!("cvt.u32.u64 {x}, {a};")
            }
            15 if self.cfg.div64 => {
                let c = 2 + self.s.below(1000);
                format!("{}.u64 {d}, {a}, {c};", self.s.pick(&["div", "rem"]))
            }
            _ => format!("neg.s64 {d}, {a};"),
        };
        self.line(format!("{g}{text}"));
    }

    fn float_op(&mut self) {
        let g = self.guard();
        let d = self.f();
        let a = self.f();
        let b = self.f_or_imm();
        let ftz = self.ftz();
        let text = match self.s.below(12) {
            0 | 1 => {
                let op = *self.s.pick(&["add", "sub", "mul"]);
                let rnd = if self.s.chance(1, 2) { *self.s.pick(RND_F) } else { "" };
                format!("{op}{rnd}{ftz}.f32 {d}, {a}, {b};")
            }
            2 | 3 => {
                let c = self.f_or_imm();
                let rnd = *self.s.pick(RND_F);
                format!("fma{rnd}{ftz}.f32 {d}, {a}, {b}, {c};")
            }
            4 => format!("{}{ftz}.f32 {d}, {a}, {b};", self.s.pick(&["min", "max"])),
            5 => format!("abs{ftz}.f32 {d}, {a};"),
            6 => format!("neg{ftz}.f32 {d}, {a};"),
            7 => {
                let p = self.p();
                format!("selp.f32 {d}, {a}, {b}, {p};")
            }
            8 if self.cfg.float_div => format!("div.rn{ftz}.f32 {d}, {a}, {b};"),
            9 if self.cfg.refused_too => format!("cvt{}{ftz}.f32.f32 {d}, {a};", self.s.pick(RND_I)),
            10 => format!("mov.f32 {d}, {b};"),
            _ => {
                let c = self.f_or_imm();
                format!("mad.rn{ftz}.f32 {d}, {a}, {b}, {c};")
            }
        };
        self.line(format!("{g}{text}"));
    }

    fn convert(&mut self) {
        let g = self.guard();
        let text = match self.s.below(6) {
            0 => {
                let (d, x) = (self.f(), self.r());
                let rnd = *self.s.pick(RND_F);
                format!("cvt{rnd}.f32.{} {d}, {x};", self.s.pick(&["u32", "s32"]))
            }
            1 => {
                let (d, x) = (self.r(), self.f());
                let rnd = *self.s.pick(RND_I);
                let ftz = self.ftz();
                format!("cvt{rnd}{ftz}.{}.f32 {d}, {x};", self.s.pick(&["u32", "s32"]))
            }
            2 => {
                let (d, x) = (self.f(), self.rd());
                let rnd = *self.s.pick(RND_F);
                format!("cvt{rnd}.f32.{} {d}, {x};", self.s.pick(&["u64", "s64"]))
            }
            3 => {
                let (d, x) = (self.rd(), self.f());
                let rnd = *self.s.pick(RND_I);
                format!("cvt{rnd}.{}.f32 {d}, {x};", self.s.pick(&["u64", "s64"]))
            }
            4 => {
                let (d, x) = (self.r(), self.r());
                let t = *self.s.pick(&["u8", "s8", "u16", "s16"]);
                format!("cvt.u32.{t} {d}, {x};")
            }
            _ => {
                let (d, x) = (self.r(), self.r());
                let t = *self.s.pick(&["u8", "s8", "u16", "s16"]);
                format!("cvt.s32.{t} {d}, {x};")
            }
        };
        self.line(format!("{g}{text}"));
    }

    /// A compare and its type for `bits`-wide integers (`imm`: the second operand is an
    /// immediate), avoiding the refused ones unless `refused_too`.
    fn int_cmp(&mut self, bits: u32, imm: bool) -> (&'static str, String) {
        let signed = self.s.chance(1, 2);
        let c = *self.s.pick(if signed { CMP_INT } else { CMP_UNS });
        let refused = matches!(c, "le" | "ls") || (c == "lt" && imm && bits == 32);
        let c = if refused && !self.cfg.refused_too { if signed { "ge" } else { "hs" } } else { c };
        (c, format!("{}{bits}", if signed { "s" } else { "u" }))
    }

    fn pred_op(&mut self) {
        let d = self.p();
        let text = match self.s.below(7) {
            0 | 1 => {
                let (a, b) = (self.r(), self.r_or_imm());
                let (c, t) = self.int_cmp(32, b.starts_with(|c: char| c.is_ascii_digit()));
                format!("setp.{c}.{t} {d}, {a}, {b};")
            }
            2 => {
                let (a, b) = (self.rd(), self.rd_or_imm());
                let (c, t) = self.int_cmp(64, false);
                format!("setp.{c}.{t} {d}, {a}, {b};")
            }
            3 => {
                let (a, b) = (self.f(), self.f_or_imm());
                let mut c = *self.s.pick(CMP_F);
                if !self.cfg.refused_too && (c == "lt" || c == "le") {
                    c = "gt";
                }
                let ftz = self.ftz();
                format!("setp.{c}{ftz}.f32 {d}, {a}, {b};")
            }
            4 => {
                let (a, b) = (self.p(), self.p());
                format!("{}.pred {d}, {a}, {b};", self.s.pick(&["and", "or", "xor"]))
            }
            5 => {
                let a = self.p();
                format!("not.pred {d}, {a};")
            }
            _ => {
                let (a, b, q) = (self.r(), self.r_or_imm(), self.p());
                let (c, t) = self.int_cmp(32, b.starts_with(|c: char| c.is_ascii_digit()));
                let op = *self.s.pick(&["and", "or", "xor"]);
                format!("setp.{c}.{op}.{t} {d}, {a}, {b}, {q};")
            }
        };
        let g = self.guard();
        self.line(format!("{g}{text}"));
    }

    fn memory(&mut self) {
        match self.s.below(6) {
            0 => {
                let (d, i) = (self.r(), self.r());
                self.load_indexed(&d, "u32", "%rdi", &i);
            }
            1 => {
                let (d, i) = (self.f(), self.r());
                self.load_indexed(&d, "f32", "%rdf", &i);
            }
            2 => {
                let (d, i) = (self.rd(), self.r());
                self.load_indexed(&d, "u64", "%rdi", &i);
            }
            3 => {
                // A scratch store (b32 or b64); floats never go to memory raw (NaN payloads).
                let g = self.guard();
                if self.s.chance(1, 2) {
                    let (w, x) = (SCRATCH + self.s.below(SLOTS - SCRATCH), self.r());
                    self.line(format!("{g}st.global.u32 [%rdo+{}], {x};", w * 4));
                } else {
                    let (w, x) = (SCRATCH / 2 + self.s.below((SLOTS - SCRATCH) / 2), self.rd());
                    self.line(format!("{g}st.global.u64 [%rdo+{}], {x};", w * 8));
                }
            }
            _ => {
                let g = self.guard();
                match self.s.below(3) {
                    0 => {
                        let (w, d) = (SCRATCH + self.s.below(SLOTS - SCRATCH), self.r());
                        self.line(format!("{g}ld.global.u32 {d}, [%rdo+{}];", w * 4));
                    }
                    1 => {
                        let (w, d) = (SCRATCH + self.s.below(SLOTS - SCRATCH), self.f());
                        self.line(format!("{g}ld.global.f32 {d}, [%rdo+{}];", w * 4));
                    }
                    _ => {
                        let (w, d) = (SCRATCH / 2 + self.s.below((SLOTS - SCRATCH) / 2), self.rd());
                        self.line(format!("{g}ld.global.u64 {d}, [%rdo+{}];", w * 8));
                    }
                }
            }
        }
    }

    fn if_else(&mut self) {
        let n = self.label();
        let p = self.p();
        let neg = if self.s.chance(1, 2) { "!" } else { "" };
        let has_else = self.s.chance(1, 2);
        let target = if has_else { format!("$L_else{n}") } else { format!("$L_end{n}") };
        self.line(format!("@{neg}{p} bra {target};"));
        self.block();
        if has_else {
            self.line(format!("bra $L_end{n};"));
            self.out.push_str(&format!("$L_else{n}:\n"));
            self.block();
        }
        self.out.push_str(&format!("$L_end{n}:\n"));
    }

    fn do_loop(&mut self) {
        let n = self.label();
        let lvl = self.depth;
        self.line(format!("mov.u32 %lc{lvl}, 0;"));
        if self.s.chance(1, 2) {
            let x = self.r();
            self.line(format!("and.b32 %lb{lvl}, {x}, {};", MAX_TRIP - 1));
        } else {
            let c = 1 + self.s.below(MAX_TRIP as usize);
            self.line(format!("mov.u32 %lb{lvl}, {c};"));
        }
        self.out.push_str(&format!("$L_loop{n}:\n"));
        self.block();
        self.line(format!("add.u32 %lc{lvl}, %lc{lvl}, 1;"));
        self.line(format!("setp.lt.u32 %pl{lvl}, %lc{lvl}, %lb{lvl};"));
        self.line(format!("@%pl{lvl} bra $L_loop{n};"));
    }

    fn epilogue(&mut self) {
        for i in 0..NR {
            self.line(format!("st.global.u32 [%rdo+{}], %r{i};", i * 4));
        }
        for i in 0..ND {
            self.line(format!("st.global.u64 [%rdo+{}], %rd{i};", (NR + 2 * i) * 4));
        }
        for i in 0..NF {
            self.line(format!("setp.nan.f32 %pt, %f{i}, %f{i};"));
            self.line(format!("selp.f32 %f{i}, 0f7FFFFFFF, %f{i}, %pt;"));
            self.line(format!("st.global.f32 [%rdo+{}], %f{i};", (NR + 2 * ND + i) * 4));
        }
        for i in 0..NP {
            self.line(format!("selp.u32 %ta, 1, 0, %p{i};"));
            self.line(format!("st.global.u32 [%rdo+{}], %ta;", (NR + 2 * ND + NF + i) * 4));
        }
        self.line("ret;");
    }

    fn finish(self) -> String {
        let d = self.cfg.max_depth.max(1);
        let mut s = String::new();
        s.push_str(".version 9.0\n.target sm_90\n.address_size 64\n\n");
        let _ = writeln!(
            s,
            ".visible .entry {KERNEL}(\n\t.param .u64 out,\n\t.param .u64 in,\n\t.param .u64 inf,\n\t.param .u32 k\n)\n{{"
        );
        let _ =
            writeln!(s, "\t.reg .b32 %r<{NR}>;\n\t.reg .b64 %rd<{ND}>;\n\t.reg .f32 %f<{NF}>;\n\t.reg .pred %p<{NP}>;");
        let _ = writeln!(s, "\t.reg .b32 %lc<{d}>;\n\t.reg .b32 %lb<{d}>;\n\t.reg .pred %pl<{d}>;");
        s.push_str(
            "\t.reg .b32 %tx, %cx, %nx, %gid, %k, %ta;\n\t.reg .b64 %rdo, %rdi, %rdf, %rda;\n\t.reg .pred %pt;\n\n",
        );
        s.push_str(&self.out);
        s.push_str("}\n");
        s
    }
}
