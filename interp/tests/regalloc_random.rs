//! Register allocation on random executable kernels, and mutation tests of the checker.
//!
//! The kernel generator is the one of `validate_random.rs` (copied: test files cannot share
//! code without a support module): non-SSA PTX-stage kernels with guarded redefinitions,
//! loops, diamonds and early exits for even seeds, SSA kernels with phis for odd seeds.
//!
//! - Every kernel, allocated with the full budget and with budgets of 12 and 8 registers
//!   (which spill R values to local memory and predicates to R registers), passes the
//!   checker, keeps every tuple aligned (pairs even, quads on multiples of 4), stays within
//!   its budget, and computes the same outputs in the Ori interpreter.
//! - The checker catches corrupted allocations: two registers swapped at one instruction,
//!   a definition redirected into a register whose value is still live, a dropped spill
//!   reload (caught unless the register still holds the value, which the interpreter then
//!   confirms), and a dropped spill store.
//!
//! `PTXAS_RS_REGALLOC_CASES=N` sets the number of kernels (default 48).

use interp::ExecConfig;
use interp::launch::LaunchSpec;
use interp::ori_exec::run_ori_with;
use ptxas_rs::ori::{Function, Inst, Module, Opcode, Operand, PhysReg, Reg, RegFile, parse_module};
use ptxas_rs::regalloc::{self, Options};

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
            14 | 15 => {
                let (op, nsrc) = self.rng.pick(&[("add", 2), ("sub", 2), ("mul", 2), ("fma", 3)]);
                let rnd = self.rng.pick(&["rn", "rz", "rm", "rp"]);
                let ftz = if self.rng.chance(20) { ".ftz" } else { "" };
                let srcs: Vec<String> = (0..nsrc).map(|_| self.src(K::R32, true, true)).collect();
                let d = self.dst(K::R32);
                self.emit(format!("{g}{d} = {op}.{rnd}{ftz}.f32 {}", srcs.join(", ")));
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
    std::env::var("PTXAS_RS_REGALLOC_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(48)
}

type Outputs = std::collections::BTreeMap<String, Vec<u8>>;

fn kernel(seed: u64) -> (Module, LaunchSpec) {
    let (text, spec_text) = random_kernel(seed, seed % 2 == 1);
    let m = parse_module(&text).unwrap_or_else(|e| panic!("seed {seed}: generator wrote bad text: {e:?}\n{text}"));
    (m, LaunchSpec::from_toml_str(&spec_text).unwrap())
}

fn run(m: &Module, spec: &LaunchSpec) -> Result<Outputs, String> {
    run_ori_with(m, "rnd", spec, &ExecConfig::default()).map(|o| o.buffers).map_err(|e| e.to_string())
}

fn opts(budget: u32) -> Options {
    Options { max_regs: budget, local_top: ExecConfig::default().local_bytes, ..Options::default() }
}

fn allocated(m: &Module, budget: u32) -> Result<(Module, regalloc::Report), regalloc::Error> {
    let mut a = m.clone();
    let r = regalloc::allocate_function(&mut a.functions[0], &opts(budget))?;
    Ok((a, r))
}

/// Every physical register operand of `f`, with whether it is written.
fn phys_regs(f: &Function) -> Vec<PhysReg> {
    let mut out = Vec::new();
    for (_, i) in f.inst_order() {
        let d = &f.insts[i];
        for r in d.dsts.iter().copied().chain(d.uses()) {
            if let Reg::Phys(p) = r {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn random_kernels_allocate_check_and_run() {
    let n = cases();
    let (mut runs, mut spilled_runs, mut refused) = (0, 0, Vec::new());
    let (mut pairs, mut quads) = (0, 0);
    for seed in 0..n {
        let (m, spec) = kernel(seed);
        let reference = run(&m, &spec).unwrap_or_else(|e| panic!("seed {seed}: the kernel does not run: {e}"));
        for budget in [255u32, 12, 8] {
            let (a, r) = match allocated(&m, budget) {
                Ok(x) => x,
                Err(e) if budget < 255 => {
                    refused.push(format!("seed {seed} budget {budget}: {e}"));
                    continue;
                }
                Err(e) => panic!("seed {seed}: allocation fails: {e}\n{m}"),
            };
            let f = &a.functions[0];
            regalloc::check(&m.functions[0], f)
                .unwrap_or_else(|e| panic!("seed {seed} budget {budget}: the checker rejects: {e}\n{a}"));
            ptxas_rs::ori::verify_module(&a).unwrap_or_else(|e| panic!("seed {seed} budget {budget}: {e}\n{a}"));
            assert!(f.allocated && !f.ssa);
            for p in phys_regs(f) {
                if p.is_zero() {
                    continue;
                }
                assert_eq!(p.index % u16::from(p.count), 0, "seed {seed}: {p} is not aligned");
                if p.file == RegFile::R {
                    assert!(
                        u32::from(p.index) + u32::from(p.count) <= budget,
                        "seed {seed}: {p} is over budget {budget}"
                    );
                    pairs += (p.count == 2) as usize;
                    quads += (p.count == 4) as usize;
                }
                if p.file == RegFile::P {
                    assert!(p.index < 7);
                }
            }
            assert!(r.regs <= budget);
            let out = run(&a, &spec).unwrap_or_else(|e| panic!("seed {seed} budget {budget}: {e}\n{a}"));
            assert!(out == reference, "seed {seed} budget {budget}: outputs differ after allocation\n{m}\n{a}");
            runs += 1;
            spilled_runs += (r.spilled > 0 || r.frame_bytes > 0) as usize;
        }
    }
    eprintln!(
        "{runs} allocations checked and run ({spilled_runs} spill), {pairs} pair and {quads} quad operands aligned; refused: {}",
        refused.len()
    );
    for r in &refused {
        eprintln!("  {r}");
    }
    assert!(spilled_runs > n as usize, "the tiny budgets spilled too rarely");
    assert!(refused.len() * 10 <= n as usize, "too many allocations refused");
}

/// The original (laid out in `before`) non-phi instructions of `after`, by block.
fn originals(before: &Function, after: &Function) -> Vec<(usize, Vec<Inst>)> {
    let orig: std::collections::HashSet<Inst> = before.inst_order().map(|(_, i)| i).collect();
    after
        .layout
        .iter()
        .enumerate()
        .map(|(bi, &b)| (bi, after.block_insts(b).iter().copied().filter(|i| orig.contains(i)).collect::<Vec<_>>()))
        .collect()
}

fn src_reg_mut(d: &mut ptxas_rs::ori::InstData, k: usize) -> Option<&mut Reg> {
    match d.srcs.get_mut(k) {
        Some(Operand::Reg(u)) => Some(&mut u.reg),
        _ => None,
    }
}

#[test]
fn checker_catches_swapped_registers() {
    let (mut tried, mut caught) = (0, 0);
    for seed in (1..cases().max(8)).step_by(2) {
        let (m, _) = kernel(seed);
        let (a, _) = allocated(&m, 255).unwrap();
        let (bf, af) = (&m.functions[0], &a.functions[0]);
        let mut done = false;
        for (_, insts) in originals(bf, af) {
            for &i in &insts {
                let (bd, ad) = (&bf.insts[i], &af.insts[i]);
                if bd.opcode == Opcode::Phi || done {
                    continue;
                }
                // Two register sources: distinct vregs of one class in distinct registers.
                let regs: Vec<(usize, Reg, Reg)> = (0..bd.srcs.len())
                    .filter_map(|k| match (&bd.srcs[k], &ad.srcs[k]) {
                        (Operand::Reg(x), Operand::Reg(y)) if x.reg.as_virt().is_some() => Some((k, x.reg, y.reg)),
                        _ => None,
                    })
                    .collect();
                for x in 0..regs.len() {
                    for y in x + 1..regs.len() {
                        let ((k1, b1, a1), (k2, b2, a2)) = (regs[x], regs[y]);
                        if done || b1 == b2 || a1 == a2 || bf.reg_class(b1) != bf.reg_class(b2) {
                            continue;
                        }
                        let mut bad = a.clone();
                        let d = &mut bad.functions[0].insts[i];
                        *src_reg_mut(d, k1).unwrap() = a2;
                        *src_reg_mut(d, k2).unwrap() = a1;
                        tried += 1;
                        match regalloc::check(bf, &bad.functions[0]) {
                            Err(e) => {
                                caught += 1;
                                if caught == 1 {
                                    eprintln!("example: {e}");
                                }
                            }
                            Ok(()) => panic!("seed {seed}: swapping {a1:?} and {a2:?} is not caught\n{bad}"),
                        }
                        done = true;
                    }
                }
            }
        }
    }
    eprintln!("swapped registers: {caught}/{tried} caught");
    assert!(tried >= 4 && caught == tried);
}

#[test]
fn checker_catches_clobbered_live_values() {
    let (mut tried, mut caught) = (0, 0);
    for seed in (1..cases().max(8)).step_by(2) {
        let (m, _) = kernel(seed);
        let (a, _) = allocated(&m, 255).unwrap();
        let (bf, af) = (&m.functions[0], &a.functions[0]);
        'found: for (bi, _) in originals(bf, af) {
            let blk = af.layout[bi];
            let insts = af.block_insts(blk).to_vec();
            for (x, &i) in insts.iter().enumerate() {
                let (bd, ad) = (&bf.insts[i], &af.insts[i]);
                if bd.opcode == Opcode::Phi || bd.guard.is_some() {
                    continue;
                }
                let ([Reg::Virt(dv)], [Reg::Phys(pd)]) = (&bd.dsts[..], &ad.dsts[..]) else { continue };
                if *pd == PhysReg::RZ || pd.count != 1 || pd.file != RegFile::R {
                    continue;
                }
                // A later read, in this block, of another value in another R register q that
                // nothing writes in between.
                for (y, &j) in insts.iter().enumerate().skip(x + 1) {
                    let (bj, aj) = (&bf.insts[j], &af.insts[j]);
                    let hit = bj.srcs.iter().zip(&aj.srcs).find_map(|(s, t)| match (s, t) {
                        (Operand::Reg(s), Operand::Reg(t))
                            if s.reg.as_virt().is_some_and(|v| v != *dv)
                                && matches!(t.reg, Reg::Phys(q) if q.count == 1 && q.file == RegFile::R && q != *pd && !q.is_zero()) =>
                        {
                            Some(t.reg)
                        }
                        _ => None,
                    });
                    let Some(q) = hit else { continue };
                    let written_between = insts[x + 1..y].iter().any(|&k| af.insts[k].dsts.contains(&q));
                    if written_between || bj.opcode == Opcode::Phi {
                        continue;
                    }
                    let mut bad = a.clone();
                    bad.functions[0].insts[i].dsts[0] = q;
                    tried += 1;
                    match regalloc::check(bf, &bad.functions[0]) {
                        Err(e) => {
                            caught += 1;
                            if caught == 1 {
                                eprintln!("example: {e}");
                            }
                        }
                        Ok(()) => panic!("seed {seed}: redirecting a definition into live {q:?} is not caught\n{bad}"),
                    }
                    break 'found;
                }
            }
        }
    }
    eprintln!("definitions redirected into live registers: {caught}/{tried} caught");
    assert!(tried >= 4 && caught == tried);
}

/// Removes one inserted instruction of `opcode` (the `pick`-th, modulo their number).
fn drop_inserted(before: &Function, a: &Module, opcode: Opcode, pick: usize) -> Option<Module> {
    let orig: std::collections::HashSet<Inst> = before.inst_order().map(|(_, i)| i).collect();
    let f = &a.functions[0];
    let cands: Vec<(ptxas_rs::ori::Block, usize)> = f
        .layout
        .iter()
        .flat_map(|&b| f.block_insts(b).iter().enumerate().map(move |(k, &i)| (b, k, i)))
        .filter(|&(_, _, i)| !orig.contains(&i) && f.insts[i].opcode == opcode)
        .map(|(b, k, _)| (b, k))
        .collect();
    if cands.is_empty() {
        return None;
    }
    let (b, k) = cands[pick % cands.len()];
    let mut bad = a.clone();
    bad.functions[0].blocks[b].insts.remove(k);
    Some(bad)
}

/// Dropping spill code is caught, or harmless: when the checker accepts the mutant, the
/// interpreter must agree with the original (the checker is sound).
fn dropped_spill_code(opcode: Opcode) -> (usize, usize) {
    let (mut tried, mut caught) = (0, 0);
    for seed in 0..cases() {
        let (m, spec) = kernel(seed);
        let Ok((a, _)) = allocated(&m, 8) else { continue };
        for pick in [0usize, 7, 13] {
            let Some(bad) = drop_inserted(&m.functions[0], &a, opcode, pick + seed as usize) else { continue };
            tried += 1;
            match regalloc::check(&m.functions[0], &bad.functions[0]) {
                Err(_) => caught += 1,
                Ok(()) => {
                    let reference = run(&m, &spec).unwrap();
                    let out = run(&bad, &spec);
                    assert!(
                        out.as_ref() == Ok(&reference),
                        "seed {seed}: the checker accepts a broken mutant ({opcode:?} dropped)\n{bad}"
                    );
                }
            }
        }
    }
    (tried, caught)
}

#[test]
fn checker_catches_dropped_reloads() {
    let (tried, caught) = dropped_spill_code(Opcode::Ld);
    eprintln!("dropped reloads: {caught}/{tried} caught (the rest proven harmless by the interpreter)");
    assert!(tried >= 20 && caught * 10 >= tried * 8, "only {caught}/{tried} caught");
}

#[test]
fn checker_catches_dropped_spill_stores() {
    let (tried, caught) = dropped_spill_code(Opcode::St);
    eprintln!("dropped spill stores: {caught}/{tried} caught (the rest proven harmless by the interpreter)");
    assert!(tried >= 20 && caught * 10 >= tried * 8, "only {caught}/{tried} caught");
}

/// Any single register operand changed to another register of its class: caught, or the
/// interpreter confirms the mutant computes the same (soundness of the checker).
#[test]
fn checker_is_sound_on_random_register_mutations() {
    let (mut tried, mut caught) = (0usize, 0usize);
    for seed in 0..cases() {
        let (m, spec) = kernel(seed);
        let reference = run(&m, &spec).unwrap();
        for budget in [255u32, 8] {
            let Ok((a, _)) = allocated(&m, budget) else { continue };
            let f = &a.functions[0];
            let all: Vec<Inst> = f.inst_order().map(|(_, i)| i).collect();
            let mut rng = Rng(seed * 31 + u64::from(budget));
            for _ in 0..6 {
                let i = all[rng.below(all.len())];
                let mut bad = a.clone();
                let d = &mut bad.functions[0].insts[i];
                let mut slots: Vec<&mut Reg> = Vec::new();
                slots.extend(d.dsts.iter_mut());
                for o in d.srcs.iter_mut() {
                    match o {
                        Operand::Reg(u) => slots.push(&mut u.reg),
                        Operand::Mem(mr) => slots.extend(mr.base.as_mut()),
                        _ => {}
                    }
                }
                slots.retain(|r| matches!(r, Reg::Phys(p) if !p.is_zero()));
                if slots.is_empty() {
                    continue;
                }
                let k = rng.below(slots.len());
                let Reg::Phys(p) = *slots[k] else { continue };
                let limit = if p.file == RegFile::R { 24 } else { 7 };
                let idx = (rng.below(limit / usize::from(p.count)) * usize::from(p.count)) as u16;
                if idx == p.index {
                    continue;
                }
                *slots[k] = Reg::Phys(PhysReg { index: idx, ..p });
                tried += 1;
                match regalloc::check(&m.functions[0], &bad.functions[0]) {
                    Err(_) => caught += 1,
                    Ok(()) => {
                        let out = run(&bad, &spec);
                        assert!(
                            out.as_ref() == Ok(&reference),
                            "seed {seed} budget {budget}: the checker accepts a mutant that computes differently\n{bad}"
                        );
                    }
                }
            }
        }
    }
    eprintln!("random register mutations: {caught}/{tried} caught, the rest proven harmless by the interpreter");
    assert!(tried >= 100 && caught * 2 >= tried);
}
