//! Translation validation over random executable Ori kernels: for every generated kernel, the
//! interpreter's results are equal before and after every phase of the full pipeline, and the
//! verifier accepts every phase's output.
//!
//! The generator (same idea as `tests/ori_proptest.rs`, but aimed at programs that run) writes
//! non-SSA PTX-stage kernels with a few SASS-stage operations mixed in: each thread loads 8
//! edge-biased words (and 4 double words) from `in`, computes with integer, 64-bit, float,
//! conversion, select and predicate operations (register and immediate operands, negated
//! sources, guarded redefinitions, copies, constants, dead values), through if/else diamonds
//! on data-dependent and constant predicates, counted loops with constant and data-dependent
//! trip counts, branch chains, unreachable blocks and early exits, and stores 12 values to
//! its slots of `out`. Odd seeds generate SSA kernels instead: single definitions, no guarded
//! definitions, phis at every merge (if/else, if-then with a redundant conditional jump,
//! unreachable predecessors) and loop-carried phis for counters and accumulators.
//!
//! `PTXAS_RS_VALIDATE_CASES=N` sets the number of kernels (default 200 at -O3, plus a quarter
//! of that at each of -O0..-O2).

use interp::ExecConfig;
use interp::launch::LaunchSpec;
use interp::validate::{ValidateOptions, validate};
use ptxas_rs::opt::{Pipeline, PipelineOptions};
use ptxas_rs::ori::parse_module;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, pct: u64) -> bool {
        self.next() % 100 < pct
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum K {
    R32,
    R64,
    P,
}

struct Gen {
    rng: Rng,
    lines: Vec<String>,
    next_reg: u32,
    next_block: u32,
    pool: Vec<(String, K)>,
    depth: u32,
    /// SSA form: every register defined once, merges through phis, no guarded definitions.
    ssa: bool,
    /// The block being written.
    cur: String,
}

const OUT_SLOTS: usize = 12;

impl Gen {
    fn reg(&mut self, k: K) -> String {
        let n = self.next_reg;
        self.next_reg += 1;
        match k {
            K::R32 => format!("%r{n}"),
            K::R64 => format!("%rd{n}"),
            K::P => format!("%p{n}"),
        }
    }
    fn block(&mut self) -> String {
        let n = self.next_block;
        self.next_block += 1;
        format!("bb{n}")
    }
    fn emit(&mut self, s: String) {
        self.lines.push(format!("    {s}"));
    }
    fn label(&mut self, b: &str) {
        self.cur = b.to_string();
        self.lines.push(format!("{b}:"));
    }
    fn pick_reg(&mut self, k: K) -> Option<String> {
        let c: Vec<String> = self.pool.iter().filter(|(_, kk)| *kk == k).map(|(n, _)| n.clone()).collect();
        if c.is_empty() { None } else { Some(c[self.rng.below(c.len())].clone()) }
    }
    fn imm32(&mut self) -> String {
        match self.rng.below(5) {
            0 => self.rng.pick(&["0", "1", "-1", "2", "31", "32", "0x7fffffff", "-0x80000000", "0xffff"]).to_string(),
            1 => format!("{}", self.rng.below(64)),
            _ => format!("{:#x}", self.rng.next() as u32),
        }
    }
    fn f32imm(&mut self) -> String {
        let bits = match self.rng.below(3) {
            0 => {
                self.rng.pick(&[0x3f80_0000u32, 0xbf80_0000, 0, 0x8000_0000, 0x7f80_0000, 0x7fc0_0000, 1, 0x4049_0fdb])
            }
            _ => self.rng.next() as u32,
        };
        format!("0f{bits:08X}")
    }
    /// A source of kind `k`: a register (maybe negated) or, if `imm`, sometimes an immediate.
    fn src(&mut self, k: K, imm: bool, float: bool) -> String {
        if imm && self.rng.chance(30) {
            return match k {
                K::R64 => format!("{:#x}", self.rng.next() >> self.rng.below(64)),
                _ if float => self.f32imm(),
                _ => self.imm32(),
            };
        }
        match self.pick_reg(k) {
            Some(r) => r,
            None => {
                if k == K::P {
                    "PT".into()
                } else {
                    "0".into()
                }
            }
        }
    }
    fn dst(&mut self, k: K) -> String {
        if !self.ssa
            && self.rng.chance(35)
            && let Some(r) = self.pick_reg(k)
        {
            return r;
        }
        let r = self.reg(k);
        self.pool.push((r.clone(), k));
        r
    }
    fn guard(&mut self) -> String {
        if !self.ssa
            && self.rng.chance(10)
            && let Some(p) = self.pick_reg(K::P)
        {
            return format!("@{}{p} ", if self.rng.chance(50) { "!" } else { "" });
        }
        String::new()
    }

    fn op(&mut self) {
        let g = self.guard();
        match self.rng.below(22) {
            0..=4 => {
                let (op, ty) = self.rng.pick(&[
                    ("add", "u32"),
                    ("sub", "s32"),
                    ("mul.lo", "u32"),
                    ("mul.hi", "s32"),
                    ("mul.hi", "u32"),
                    ("and", "b32"),
                    ("or", "b32"),
                    ("xor", "b32"),
                    ("min", "s32"),
                    ("max", "u32"),
                    ("div", "u32"),
                    ("rem", "s32"),
                    ("add.sat", "s32"),
                    ("sub", "u32"),
                    ("min", "u32"),
                ]);
                let a = self.src(K::R32, true, false);
                let a =
                    if self.rng.chance(8) && a.starts_with('%') && ty.starts_with('s') { format!("-{a}") } else { a };
                let b = self.src(K::R32, true, false);
                let d = self.dst(K::R32);
                self.emit(format!("{g}{d} = {op}.{ty} {a}, {b}"));
            }
            5 => {
                let (op, ty) = self.rng.pick(&[("shl", "b32"), ("shr", "u32"), ("shr", "s32")]);
                let a = self.src(K::R32, true, false);
                let b = if self.rng.chance(50) {
                    format!("{}", self.rng.below(40))
                } else {
                    self.src(K::R32, false, false)
                };
                let d = self.dst(K::R32);
                self.emit(format!("{g}{d} = {op}.{ty} {a}, {b}"));
            }
            6 => {
                let op = self.rng.pick(&["popc.b32", "clz.b32", "brev.b32", "not.b32"]);
                let a = if op == "not.b32" { self.src(K::R32, false, false) } else { self.src(K::R32, true, false) };
                let d = self.dst(K::R32);
                self.emit(format!("{g}{d} = {op} {a}"));
            }
            7 => {
                let ty = self.rng.pick(&["u32", "s32"]);
                let (a, b) = (self.src(K::R32, true, false), self.src(K::R32, true, false));
                if self.rng.chance(50) {
                    let c = self.src(K::R32, true, false);
                    let d = self.dst(K::R32);
                    self.emit(format!("{g}{d} = mad.lo.{ty} {a}, {b}, {c}"));
                } else {
                    let d = self.dst(K::R64);
                    self.emit(format!("{g}{d} = mul.wide.{ty} {a}, {b}"));
                }
            }
            8 => {
                let (op, ty) =
                    self.rng.pick(&[("add", "u64"), ("sub", "s64"), ("xor", "b64"), ("mul.lo", "u64"), ("and", "b64")]);
                let (a, b) = (self.src(K::R64, true, false), self.src(K::R64, true, false));
                let d = self.dst(K::R64);
                self.emit(format!("{g}{d} = {op}.{ty} {a}, {b}"));
            }
            9 => {
                let ty = self.rng.pick(&["u64", "s64"]);
                let a = self.src(K::R64, false, false);
                let b = format!("{}", self.rng.below(70));
                let d = self.dst(K::R64);
                self.emit(format!("{g}{d} = shr.{ty} {a}, {b}"));
            }
            10 => {
                let (ty, cmp, float) = self.rng.pick(&[
                    ("u32", "lt", false),
                    ("s32", "ge", false),
                    ("u32", "eq", false),
                    ("s32", "ne", false),
                    ("u32", "hi", false),
                    ("f32", "lt", true),
                    ("f32", "equ", true),
                    ("f32", "ge", true),
                ]);
                let (a, b) = (self.src(K::R32, true, float), self.src(K::R32, true, float));
                let d = self.dst(K::P);
                self.emit(format!("{g}{d} = setp.{cmp}.{ty} {a}, {b}"));
            }
            11 => {
                let (a, b) = (self.src(K::R32, true, false), self.src(K::R32, true, false));
                let p = self.src(K::P, false, false);
                let d = self.dst(K::R32);
                self.emit(format!("{g}{d} = selp.b32 {a}, {b}, {p}"));
            }
            12 => {
                let op = self.rng.pick(&["and", "or", "xor"]);
                let (a, b) = (self.src(K::P, false, false), self.src(K::P, false, false));
                let b = if self.rng.chance(30) { format!("!{b}") } else { b };
                let d = self.dst(K::P);
                self.emit(format!("{g}{d} = {op}.pred {a}, {b}"));
            }
            13 => {
                let (conv, from, to) = self.rng.pick(&[
                    ("cvt.u64.u32", K::R32, K::R64),
                    ("cvt.s64.s32", K::R32, K::R64),
                    ("cvt.u32.u64", K::R64, K::R32),
                    ("cvt.rn.f32.s32", K::R32, K::R32),
                    ("cvt.rzi.s32.f32", K::R32, K::R32),
                    ("cvt.rm.f32.u32", K::R32, K::R32),
                    ("cvt.u16.u32", K::R32, K::R32),
                    ("cvt.s8.s32", K::R32, K::R32),
                ]);
                let a = self.src(from, true, conv.contains(".f32") && conv.ends_with("f32"));
                let d = self.dst(to);
                self.emit(format!("{g}{d} = {conv} {a}"));
            }
            14 | 15 if self.rng.chance(40) => {
                // A pair phase 9 contracts: an unguarded `mul` into a fresh register read only
                // by one `add`/`sub` (either operand), `.ftz` on both or neither.
                let ftz = if self.rng.chance(20) { ".ftz" } else { "" };
                let (a, b) = (self.src(K::R32, true, true), self.src(K::R32, true, true));
                let t = self.reg(K::R32);
                self.emit(format!("{t} = mul{ftz}.f32 {a}, {b}"));
                let c = self.src(K::R32, true, true);
                let op = self.rng.pick(&["add", "sub"]);
                let srcs = if self.rng.chance(50) { format!("{t}, {c}") } else { format!("{c}, {t}") };
                let d = self.dst(K::R32);
                self.emit(format!("{g}{d} = {op}{ftz}.f32 {srcs}"));
            }
            14 | 15 => {
                let (op, nsrc) = self.rng.pick(&[("add", 2), ("sub", 2), ("mul", 2), ("fma", 3)]);
                // No rounding modifier (`add.f32`, which phase 9 may contract) or one; `fma`
                // requires one.
                let rnd = match self.rng.pick(&[".rn", ".rz", ".rm", ".rp", ""]) {
                    "" if op == "fma" => ".rn",
                    r => r,
                };
                let ftz = if self.rng.chance(20) { ".ftz" } else { "" };
                let srcs: Vec<String> = (0..nsrc).map(|_| self.src(K::R32, true, true)).collect();
                let d = self.dst(K::R32);
                self.emit(format!("{g}{d} = {op}{rnd}{ftz}.f32 {}", srcs.join(", ")));
            }
            16 => {
                let (a, b) = (self.src(K::R64, true, false), self.src(K::R64, true, false));
                let d = self.dst(K::R64);
                self.emit(format!("{g}{d} = add.rn.f64 {a}, {b}"));
            }
            17 => {
                // Copies and constants.
                match self.rng.below(3) {
                    0 => {
                        let a = self.src(K::R32, false, false);
                        let d = self.dst(K::R32);
                        self.emit(format!("{g}{d} = mov.u32 {a}"));
                    }
                    1 => {
                        let a = self.imm32();
                        let d = self.dst(K::R32);
                        self.emit(format!("{g}{d} = mov.u32 {a}"));
                    }
                    _ => {
                        let a = self.src(K::R64, true, false);
                        let d = self.dst(K::R64);
                        self.emit(format!("{g}{d} = mov.b64 {a}"));
                    }
                }
            }
            18 => {
                let a = self.src(K::P, false, false);
                let d = self.dst(K::P);
                self.emit(format!("{g}{d} = mov.pred {a}"));
            }
            19 => {
                let (a, b, c) =
                    (self.src(K::R32, true, false), self.src(K::R32, true, false), self.src(K::R32, true, false));
                let a = if a.starts_with('%') { a } else { self.src(K::R32, false, false) };
                let d = self.dst(K::R32);
                if self.rng.chance(50) {
                    self.emit(format!("{g}{d} = IADD3 {a}, {b}, {c}"));
                } else {
                    let lut = self.rng.below(256);
                    self.emit(format!("{g}{d} = LOP3 {a}, {b}, {c}, {lut:#x}"));
                }
            }
            20 => {
                let a = self.src(K::R32, false, false);
                let b = self.src(K::R32, true, false);
                let cmp = self.rng.pick(&["LT", "GE", "EQ", "NE"]);
                let ty = self.rng.pick(&["U32", "S32"]);
                let p = self.src(K::P, false, false);
                let (d1, d2) = (self.dst(K::P), self.dst(K::P));
                if d1 != d2 {
                    self.emit(format!("{g}{d1}, {d2} = ISETP.{cmp}.{ty}.AND {a}, {b}, {p}"));
                }
            }
            _ => {
                let a = self.src(K::R32, false, false);
                let b = self.src(K::R32, true, false);
                let p = self.src(K::P, false, false);
                let d = self.dst(K::R32);
                self.emit(format!("{g}{d} = SEL {a}, {b}, {p}"));
            }
        }
    }

    fn cond(&mut self) -> String {
        match self.rng.below(6) {
            0 => {
                // A constant predicate, computed from immediates.
                let p = self.reg(K::P);
                let (a, b) = (self.imm32(), self.imm32());
                self.emit(format!("{p} = setp.lt.s32 {a}, {b}"));
                p
            }
            1 => "PT".into(),
            _ => self.pick_reg(K::P).unwrap_or_else(|| "PT".into()),
        }
    }

    fn ops(&mut self, n: usize) {
        for _ in 0..n {
            self.op();
        }
    }

    fn region(&mut self) {
        let n = 1 + self.rng.below(5);
        self.ops(n);
        if self.depth >= 3 {
            return;
        }
        self.depth += 1;
        match self.rng.below(8) {
            0 | 1 => self.diamond(),
            2 => self.if_then(),
            3 => self.counted_loop(),
            4 => self.chain(),
            5 => self.early_exit(),
            _ => {}
        }
        self.depth -= 1;
        let n = self.rng.below(4);
        self.ops(n);
    }

    /// Runs `f` with a scoped pool: registers first defined inside are dropped afterwards.
    fn scoped(&mut self, f: impl FnOnce(&mut Gen)) {
        self.scoped_capture(f);
    }

    /// Like [`Gen::scoped`], returning the last new register of each kind (for phis).
    fn scoped_capture(&mut self, f: impl FnOnce(&mut Gen)) -> Vec<Option<String>> {
        let keep = self.pool.len();
        f(self);
        let new: Vec<Option<String>> = [K::R32, K::R64, K::P]
            .iter()
            .map(|k| self.pool[keep..].iter().rev().find(|(_, kk)| kk == k).map(|(n, _)| n.clone()))
            .collect();
        self.pool.truncate(keep);
        new
    }

    /// Phis at the top of a join block: one per kind, from `(value per kind, pred block)`
    /// incoming lists (missing values read the zero register).
    fn phis(&mut self, incoming: &[(Vec<Option<String>>, String)]) {
        for (ki, k) in [K::R32, K::R64, K::P].into_iter().enumerate() {
            if incoming.iter().all(|(v, _)| v[ki].is_none()) || self.rng.chance(20) {
                continue;
            }
            let zero = if k == K::P { "PT" } else { "RZ" };
            let pairs: Vec<String> = incoming
                .iter()
                .map(|(v, b)| format!("{}, {b}", v[ki].clone().unwrap_or_else(|| zero.to_string())))
                .collect();
            let d = self.reg(k);
            self.emit(format!("{d} = phi {}", pairs.join(", ")));
            self.pool.push((d, k));
        }
    }

    fn diamond(&mut self) {
        let c = self.cond();
        let neg = if self.rng.chance(30) { "!" } else { "" };
        let (then_b, else_b, join) = (self.block(), self.block(), self.block());
        self.emit(format!("@{neg}{c} bra {else_b}"));
        self.label(&then_b);
        let mut incoming = Vec::new();
        let v = self.scoped_capture(|g| g.region());
        incoming.push((v, self.cur.clone()));
        self.emit(format!("bra {join}"));
        if self.rng.chance(20) {
            // An unreachable block.
            let u = self.block();
            self.label(&u);
            let v = self.scoped_capture(|g| g.ops(2));
            incoming.push((v, u));
            self.emit(format!("bra {join}"));
        }
        self.label(&else_b);
        let v = self.scoped_capture(|g| g.region());
        incoming.push((v, self.cur.clone()));
        self.emit(format!("bra {join}"));
        self.label(&join);
        if self.ssa {
            self.phis(&incoming);
        }
    }

    fn if_then(&mut self) {
        let c = self.cond();
        let (body, join) = (self.block(), self.block());
        let before: Vec<Option<String>> = [K::R32, K::R64, K::P].iter().map(|&k| self.pick_reg(k)).collect();
        let mut incoming = vec![(before, self.cur.clone())];
        self.emit(format!("@{c} bra {join}"));
        self.label(&body);
        let v = self.scoped_capture(|g| g.region());
        // Sometimes a redundant conditional jump to the join (both ways lead there).
        if self.rng.chance(30) {
            let c2 = self.cond();
            incoming.push((v.clone(), self.cur.clone()));
            self.emit(format!("@{c2} bra {join}"));
            let t = self.block();
            self.label(&t);
            incoming.push((v, t));
            self.emit(format!("bra {join}"));
        } else {
            incoming.push((v, self.cur.clone()));
            self.emit(format!("bra {join}"));
        }
        self.label(&join);
        if self.ssa {
            self.phis(&incoming);
        }
    }

    fn counted_loop(&mut self) {
        if self.ssa {
            return self.counted_loop_ssa();
        }
        let ctr = self.reg(K::R32);
        let lim = self.reg(K::R32);
        if self.rng.chance(50) {
            let n = self.rng.below(5);
            self.emit(format!("{lim} = mov.u32 {n}"));
        } else {
            let src = self.pick_reg(K::R32).unwrap_or_else(|| "0".into());
            self.emit(format!("{lim} = and.b32 {src}, 3"));
        }
        self.emit(format!("{ctr} = mov.u32 0"));
        let (pre, head, exit) = (self.block(), self.block(), self.block());
        let p0 = self.reg(K::P);
        self.emit(format!("{p0} = setp.ge.u32 {ctr}, {lim}"));
        self.emit(format!("@{p0} bra {exit}"));
        self.label(&pre);
        self.emit(format!("bra {head}"));
        self.label(&head);
        self.scoped(|g| {
            let n = 1 + g.rng.below(5);
            g.ops(n)
        });
        let p = self.reg(K::P);
        self.emit(format!("{ctr} = add.u32 {ctr}, 1"));
        self.emit(format!("{p} = setp.lt.u32 {ctr}, {lim}"));
        self.emit(format!("@{p} bra {head}"));
        self.label(&exit);
    }

    /// A loop in SSA form: the counter and an accumulator are phis of the header.
    fn counted_loop_ssa(&mut self) {
        let lim = self.reg(K::R32);
        if self.rng.chance(50) {
            let n = self.rng.below(5);
            self.emit(format!("{lim} = mov.u32 {n}"));
        } else {
            let src = self.pick_reg(K::R32).unwrap_or_else(|| "0".into());
            self.emit(format!("{lim} = and.b32 {src}, 3"));
        }
        let init = self.pick_reg(K::R32).unwrap_or_else(|| "RZ".into());
        let (pre, head, exit) = (self.block(), self.block(), self.block());
        let p0 = self.reg(K::P);
        self.emit(format!("{p0} = setp.eq.u32 {lim}, 0"));
        let entry = self.cur.clone();
        self.emit(format!("@{p0} bra {exit}"));
        self.label(&pre);
        self.emit(format!("bra {head}"));
        self.label(&head);
        let (ctr, ctr2, acc, acc2, p) =
            (self.reg(K::R32), self.reg(K::R32), self.reg(K::R32), self.reg(K::R32), self.reg(K::P));
        self.emit(format!("{ctr} = phi RZ, {pre}, {ctr2}, {head}"));
        self.emit(format!("{acc} = phi {init}, {pre}, {acc2}, {head}"));
        self.pool.push((acc.clone(), K::R32));
        let v = self.scoped_capture(|g| {
            let n = 1 + g.rng.below(5);
            g.ops(n)
        });
        let last = v[0].clone().unwrap_or_else(|| acc.clone());
        self.pool.retain(|(n, _)| *n != acc);
        self.emit(format!("{acc2} = xor.b32 {acc}, {last}"));
        self.emit(format!("{ctr2} = add.u32 {ctr}, 1"));
        self.emit(format!("{p} = setp.lt.u32 {ctr2}, {lim}"));
        self.emit(format!("@{p} bra {head}"));
        self.label(&exit);
        let r = self.reg(K::R32);
        self.emit(format!("{r} = phi {init}, {entry}, {acc2}, {head}"));
        self.pool.push((r, K::R32));
    }

    fn chain(&mut self) {
        let (a, b, c) = (self.block(), self.block(), self.block());
        self.emit(format!("bra {b}"));
        self.label(&a);
        self.emit(format!("bra {c}"));
        self.label(&b);
        self.emit(format!("bra {a}"));
        self.label(&c);
    }

    fn early_exit(&mut self) {
        let Some(p) = self.pick_reg(K::P) else { return };
        let nb = self.block();
        self.emit(format!("@{p} exit"));
        self.label(&nb);
    }
}

/// A random kernel `@rnd` and its launch spec.
fn random_kernel(seed: u64, ssa: bool) -> (String, String) {
    let mut g = Gen {
        rng: Rng(seed),
        lines: Vec::new(),
        next_reg: 20,
        next_block: 1,
        pool: Vec::new(),
        depth: 0,
        ssa,
        cur: String::new(),
    };
    g.lines.push(format!("entry @rnd(){} {{", if ssa { " ssa" } else { "" }));
    g.label("bb0");
    for l in [
        "%r0 = mov.u32 SR_TID.X",
        "%r1 = mov.u32 SR_CTAID.X",
        "%r2 = mov.u32 SR_NTID.X",
        "%r3 = mad.lo.u32 %r1, %r2, %r0",
        "%rd4 = ld.u64 param[0]",
        "%rd5 = ld.u64 param[8]",
        "%rd6 = mul.wide.u32 %r3, 64",
        "%rd7 = add.u64 %rd4, %rd6",
        "%rd8 = mul.wide.u32 %r3, 96",
        "%rd9 = add.u64 %rd5, %rd8",
    ] {
        g.emit(l.to_string());
    }
    for k in 0..8 {
        let r = g.reg(K::R32);
        g.emit(format!("{r} = ld.u32 global[%rd7+{}]", 4 * k));
        g.pool.push((r, K::R32));
    }
    for k in 0..4 {
        let r = g.reg(K::R64);
        g.emit(format!("{r} = ld.u64 global[%rd7+{}]", 32 + 8 * k));
        g.pool.push((r, K::R64));
    }
    let p = g.reg(K::P);
    g.emit(format!("{p} = setp.lt.u32 %r0, 17"));
    g.pool.push((p, K::P));
    for _ in 0..1 + g.rng.below(4) {
        g.region();
    }
    // Store the most recent values (and a predicate).
    let mut stored = 0;
    let vals: Vec<(String, K)> = g.pool.iter().rev().filter(|(_, k)| *k != K::P).take(OUT_SLOTS - 1).cloned().collect();
    for (r, k) in vals {
        let ty = if k == K::R64 { "u64" } else { "u32" };
        g.emit(format!("st.{ty} global[%rd9+{}], {r}", 8 * stored));
        stored += 1;
    }
    if let Some(pr) = g.pick_reg(K::P) {
        let s = g.reg(K::R32);
        g.emit(format!("{s} = selp.u32 1, 2, {pr}"));
        g.emit(format!("st.u32 global[%rd9+{}], {s}", 8 * stored));
    }
    g.emit("exit".into());
    g.lines.push("}".into());
    let spec = format!(
        r#"
kernel = "rnd"
grid = [2]
block = [64]
[[param]]
buffer = "in"
[[param]]
buffer = "out"
[buffer.in]
type = "u32"
len = 2048
init = {{ edge = {{ seed = {seed} }} }}
[buffer.out]
type = "u32"
len = 3072
output = true
"#
    );
    (g.lines.join("\n") + "\n", spec)
}

fn cases() -> u64 {
    std::env::var("PTXAS_RS_VALIDATE_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(200)
}

#[test]
fn random_kernels_survive_every_phase() {
    let pipeline = Pipeline::standard();
    let n = cases();
    let (mut kernels, mut phase_checks, mut executed, mut changed, mut insts_before, mut insts_after) =
        (0, 0, 0, 0, 0, 0);
    let mut per_phase: std::collections::BTreeMap<(usize, String), (usize, usize)> = Default::default();
    for seed in 0..n {
        let (text, spec_text) = random_kernel(seed, seed % 2 == 1);
        let m = parse_module(&text).unwrap_or_else(|e| panic!("seed {seed}: generator wrote bad text: {e:?}\n{text}"));
        ptxas_rs::ori::verify_module(&m)
            .unwrap_or_else(|e| panic!("seed {seed}: generator wrote invalid IR: {e}\n{text}"));
        let spec = LaunchSpec::from_toml_str(&spec_text).unwrap();
        let levels: &[u8] = if seed % 4 == 0 { &[0, 1, 2, 3] } else { &[3] };
        for &level in levels {
            let opts = ValidateOptions {
                pipeline: PipelineOptions { opt_level: level, verify: true, ..PipelineOptions::default() },
                exec: ExecConfig::default(),
            };
            let v = validate(&m, "rnd", &spec, &pipeline, &opts)
                .unwrap_or_else(|e| panic!("seed {seed}: the generated kernel does not run: {e}\n{text}"));
            if let Some(f) = &v.failure {
                panic!("seed {seed} at -O{level}: {f}\nkernel:\n{text}");
            }
            kernels += 1;
            phase_checks += v.checks.len();
            executed += v.executed();
            changed += v.changed();
            for c in v.checks.iter().filter(|c| c.changed > 0) {
                let e = per_phase.entry((c.index.unwrap_or(999), c.name.clone())).or_default();
                e.0 += 1;
                e.1 += c.changed;
            }
            if level == 3 {
                insts_before += ptxas_rs::opt::util::inst_count(&m.functions[0]);
                insts_after += ptxas_rs::opt::util::inst_count(&v.module.functions[0]);
            }
        }
    }
    eprintln!(
        "validated {kernels} kernel runs ({n} kernels): {phase_checks} phase checks, {executed} executed, {changed} changes; -O3 instructions {insts_before} -> {insts_after}"
    );
    for ((i, name), (runs, n)) in &per_phase {
        eprintln!("  {i:>3} {name:<28} changed {runs:>5} kernel runs, {n:>7} changes");
    }
    assert!(executed > n as usize, "the passes changed too little to be exercised");
    assert!(insts_after < insts_before);
}

/// Prints one generated kernel and its -O3 result (for debugging the generator).
/// `cargo test -p interp --test validate_random show_kernel -- --ignored --nocapture`
#[test]
#[ignore]
fn show_kernel() {
    let seed = std::env::var("SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let (text, spec_text) = random_kernel(seed, std::env::var("SSA").is_ok());
    println!("{text}");
    let m = parse_module(&text).unwrap();
    let spec = LaunchSpec::from_toml_str(&spec_text).unwrap();
    let v = validate(&m, "rnd", &spec, &Pipeline::standard(), &ValidateOptions::default()).unwrap();
    println!("{}", v.module);
    if let Some(r) = &v.report {
        println!("{}", r.timing_table());
    }
    if let Some(f) = v.failure {
        println!("{f}");
    }
}
