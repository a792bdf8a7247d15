//! Census of fixed-latency producer → consumer distances in cubins (cycles between issue of the
//! producer and issue of the first instruction reading its result, along the layout order,
//! restarting after every control transfer).
//!
//! `cargo run --release -p interp --example latency_census -- KERNEL=CUBIN ...` prints, per
//! (producer base, consumer base), the minimum distance and the number of pairs under 8
//! cycles. Run on NVIDIA's cubins it measures the latencies ptxas relies on.
use std::collections::BTreeMap;

use interp::emu::hazard::{Reg, guard_reg, is_branch, regs, variable_latency};
use interp::emu::{Banks, Kernel};

fn main() {
    let mut min: BTreeMap<(String, String), (u64, usize, String)> = BTreeMap::new();
    for arg in std::env::args().skip(1) {
        let (name, path) = arg.split_once('=').expect("KERNEL=CUBIN");
        let bytes = std::fs::read(path).unwrap_or_else(|e| {
            eprintln!("latency_census: {path}: {e}");
            std::process::exit(2)
        });
        let Ok(kernel) = Kernel::load(&bytes, name) else { continue };
        let mut banks = Banks::new();
        banks.insert(0, vec![0; 0x400]);
        let program = kernel.program(&banks);
        let mut t = 0u64;
        let mut writer: BTreeMap<Reg, (u64, String)> = BTreeMap::new();
        for inst in &program.insts {
            let (rd, wr) = regs(inst);
            let guarded_off = inst.guard.idx == 7 && inst.guard.not;
            if !guarded_off {
                let guard = guard_reg(inst);
                for (j, r) in rd.iter().enumerate() {
                    let consumer =
                        if j == 0 && guard == Some(*r) { format!("@{}", inst.base) } else { inst.base.to_string() };
                    if let Some((tw, b)) = writer.get(r) {
                        let d = t - tw;
                        if d < 8 {
                            let e = min.entry((b.clone(), consumer)).or_insert((99, 0, String::new()));
                            e.1 += 1;
                            if d < e.0 {
                                e.0 = d;
                                e.2 = format!("{name}:{:#06x}", inst.offset);
                            }
                        }
                    }
                }
                for r in wr {
                    if variable_latency(inst) {
                        writer.remove(&r);
                    } else {
                        writer.insert(r, (t, inst.base.to_string()));
                    }
                }
            }
            t += u64::from(inst.control.stall.max(1));
            if is_branch(inst) {
                writer.clear();
            }
        }
    }
    for ((p, c), (d, n, ex)) in &min {
        println!("{p:>10} -> {c:<10} min {d}  pairs<8: {n:<5} e.g. {ex}");
    }
}
