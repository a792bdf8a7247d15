//! CTA barriers with counts: `bar`/`BAR` (sync), `bararrive`/`BARARV`, `barred`/`BARRED` and
//! `B2R`.
//!
//! Model: each of the 16 barrier ids counts arriving warps (a warp counts as 32 threads, as the
//! ISA says: "the arrival count is incremented by the warp size, not the number of active
//! threads"). A barrier with a thread count completes when that many threads arrived (at the
//! arrival); one without (all threads) completes when every live warp of the CTA arrived
//! ([`Barriers::complete_all`], when no warp can run). A waiting warp re-executes its barrier
//! instruction on release and only then moves on, writing the reduction result: `barred`'s
//! destination, or (`BARRED`) the warp's result register that `B2R` reads. `arrive` never
//! waits. The reduction combines the predicate of every active lane of every warp arriving with
//! a reduction (`.popc` the count, `.and`/`.or` 1 or 0).
//!
//! Invariant: a barrier's arrivals in one phase agree on the thread count (a mismatch is an
//! `Invalid` error, the ISA leaves it undefined); the warp is converged at the barrier (else
//! [`ErrorKind::DivergentBarrier`]).

use super::*;
use ptxas_rs::ori::SubOp;

/// The combined predicate of one phase.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct RedResult {
    popc: u32,
    /// Some lane's predicate was false.
    any_false: bool,
    any_true: bool,
}

#[derive(Clone, Debug, Default)]
struct Phase {
    /// Warps arrived.
    arrived: u32,
    /// Threads expected (`None`: all live warps).
    expected: Option<u32>,
    waiters: Vec<u32>,
    red: RedResult,
}

/// The barriers of one CTA.
#[derive(Debug)]
pub(super) struct Barriers {
    phases: [Phase; 16],
    /// Per warp: the result of the phase that released it (taken when it resumes).
    released: Vec<Option<RedResult>>,
    /// Per warp: the last `BARRED` result, which `B2R` reads.
    b2r: Vec<Option<u32>>,
}

impl Barriers {
    pub(super) fn new(nwarps: u32) -> Barriers {
        Barriers { phases: Default::default(), released: vec![None; nwarps as usize], b2r: vec![None; nwarps as usize] }
    }

    /// Whether warp `w` was released and waits to resume.
    pub(super) fn is_released(&self, w: u32) -> bool {
        self.released.get(w as usize).is_some_and(Option::is_some)
    }

    fn complete(&mut self, id: usize) {
        let ph = std::mem::take(&mut self.phases[id]);
        for w in ph.waiters {
            self.released[w as usize] = Some(ph.red);
        }
    }

    /// Completes every all-threads barrier that `live` warps (those not done) all reached.
    /// Returns whether one completed.
    pub(super) fn complete_all(&mut self, live: u32) -> bool {
        let mut any = false;
        for id in 0..16 {
            let ph = &self.phases[id];
            if ph.arrived > 0 && ph.expected.is_none() && ph.arrived >= live {
                self.complete(id);
                any = true;
            }
        }
        any
    }

    /// The ids with waiting warps (for deadlock reports).
    pub(super) fn waiting(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (id, ph) in self.phases.iter().enumerate().filter(|(_, p)| p.arrived > 0) {
            let n = ph.expected.map_or("all".to_string(), |e| e.to_string());
            out.push(format!("barrier {id}: {} warp(s) of {n} threads arrived, waiting {:?}", ph.arrived, ph.waiters));
        }
        out
    }
}

impl Engine<'_> {
    /// A barrier instruction (see the module doc). Returns the barrier id when the warp waits.
    pub(super) fn barrier(&mut self, cta: &mut Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<Option<u32>, Er> {
        use Opcode::*;
        let red_op = matches!(d.opcode, BarRed | BARRED);
        if let Some(res) = cta.bars.released.get_mut(w.id as usize).and_then(Option::take) {
            if red_op {
                let v = match d.mods.sub {
                    Some(SubOp::PopcOp) => res.popc,
                    Some(SubOp::AndOp) => u32::from(!res.any_false),
                    Some(SubOp::OrOp) => u32::from(res.any_true),
                    s => return Err((ErrorKind::Invalid(format!("barrier reduction {s:?}")), None)),
                };
                if d.opcode == BarRed {
                    let loc = self.loc(d.dsts[0])?;
                    for l in 0..WARP as u32 {
                        if exec >> l & 1 == 1 {
                            self.write(w, loc, l, u128::from(v));
                        }
                    }
                } else {
                    cta.bars.b2r[w.id as usize] = Some(v);
                }
            }
            return Ok(None);
        }
        let live = w.live_init & !w.exited;
        if exec != live {
            return Err((ErrorKind::DivergentBarrier { active: exec, live }, None));
        }
        let lane = exec.trailing_zeros();
        let val = |s: &Self, w: &Warp, cta: &Cta, i: usize| -> Result<Option<u32>, Er> {
            match d.srcs.get(i) {
                None => Ok(None),
                Some(o) => Ok(Some(s.src(w, cta, d, i, o, lane)?.val.bits() as u32)),
            }
        };
        // Operand positions: id, [p,] count.
        let ci = if red_op { 2 } else { 1 };
        let (a, b) = (val(self, w, cta, 0)?.unwrap_or(0), val(self, w, cta, ci)?);
        let packed = d.opcode.info().stage == ptxas_rs::ori::Stage::Sass
            && matches!((d.srcs.first(), d.srcs.get(ci)), (Some(Operand::Reg(_)), Some(Operand::Reg(_))));
        let (id, count) = if packed { (a & 0xf, Some(a >> 16 & 0xfff)) } else { (a, b) };
        if id > 15 {
            return Err((ErrorKind::Invalid(format!("barrier id {id} out of range")), Some(lane)));
        }
        let count = count.filter(|&c| c != 0);
        let mut red = RedResult::default();
        if red_op {
            for l in 0..WARP as u32 {
                if exec >> l & 1 == 1 {
                    let o = &d.srcs[1];
                    let a = self.src(w, cta, d, 1, o, l)?;
                    let p = match a.val {
                        Val::Pred(p) => p != a.not,
                        Val::Bits(b) => b != 0,
                    };
                    red.popc += u32::from(p);
                    red.any_true |= p;
                    red.any_false |= !p;
                }
            }
        }
        let ph = &mut cta.bars.phases[id as usize];
        if ph.arrived == 0 {
            ph.expected = count;
        } else if ph.expected != count {
            let m = format!("barrier {id} reached with thread counts {:?} and {count:?} in one phase", ph.expected);
            return Err((ErrorKind::Invalid(m), Some(lane)));
        }
        ph.arrived += 1;
        ph.red.popc += red.popc;
        ph.red.any_true |= red.any_true;
        ph.red.any_false |= red.any_false;
        let wait = !matches!(d.opcode, BarArrive | BARARV);
        if wait {
            ph.waiters.push(w.id);
        }
        if count.is_some_and(|c| ph.arrived * 32 >= c) {
            cta.bars.complete(id as usize);
        }
        Ok(wait.then_some(id))
    }

    /// `B2R.RESULT d, q`: the warp's last `BAR.RED` result.
    pub(super) fn b2r(&mut self, cta: &Cta, w: &mut Warp, d: &InstData, exec: u32) -> Result<(), Er> {
        let v =
            cta.bars.b2r[w.id as usize].ok_or((ErrorKind::Invalid("B2R without an earlier BAR.RED".into()), None))?;
        let locs: Vec<Loc> = d.dsts.iter().map(|r| self.loc(*r)).collect::<Result<_, _>>()?;
        for l in 0..WARP as u32 {
            if exec >> l & 1 == 1 {
                self.write(w, locs[0], l, u128::from(v));
                if let Some(p) = locs.get(1) {
                    self.write(w, *p, l, u128::from(v != 0));
                }
            }
        }
        Ok(())
    }
}
