//! The emulator's CTA barriers: `BAR.SYNC`, `BAR.ARV` and `BAR.RED` with ids and thread counts,
//! and `B2R.RESULT`.
//!
//! Model (the interpreter's, `ori_exec`): each of the 16 ids counts arriving warps, 32 threads
//! each (the ISA: the count grows by the warp size, not the number of active threads). With a
//! thread count the barrier completes at the arrival that reaches it; without one (0: all) once
//! every live warp arrived ([`Bars::complete_all`], when no warp can run). `BAR.ARV` never
//! waits. `BAR.RED` combines the predicate of every active lane of the arriving warps; each
//! waiting warp gets its combiner's result (`.POPC` the count, `.AND`/`.OR` 1 or 0), which its
//! next `B2R.RESULT` reads. With two register operands (the same register) the id is bits 0..4
//! and the count bits 16..28 of it, as ptxas packs them.
//!
//! Invariant: one phase's arrivals agree on the count (a mismatch is an `Invalid` error).

use super::{Arg, Opnd, R, Warp};

#[derive(Clone, Debug, Default)]
struct Phase {
    arrived: u32,
    expected: Option<u32>,
    /// Waiting warps and their combiner.
    waiters: Vec<(u32, Option<u8>)>,
    popc: u32,
    any_true: bool,
    any_false: bool,
}

/// The barriers of one CTA.
#[derive(Debug)]
pub(super) struct Bars {
    phases: [Phase; 16],
    /// Per warp: released, with its reduction result.
    released: Vec<Option<u32>>,
    /// Per warp: the last `BAR.RED` result.
    b2r: Vec<Option<u32>>,
    /// How many barrier phases (any id) have completed in this CTA: an epoch that orders a
    /// warp's stores before another warp's later proxy fence (`Cta::async_read`).
    pub(super) completed: u32,
}

impl Bars {
    pub(super) fn new(nwarps: u32) -> Bars {
        Bars {
            phases: Default::default(),
            released: vec![None; nwarps as usize],
            b2r: vec![None; nwarps as usize],
            completed: 0,
        }
    }

    fn complete(&mut self, id: usize) {
        self.completed += 1;
        let ph = std::mem::take(&mut self.phases[id]);
        for (w, red) in ph.waiters {
            let v = match red {
                Some(0) => ph.popc,
                Some(1) => u32::from(!ph.any_false),
                Some(_) => u32::from(ph.any_true),
                None => 0,
            };
            self.released[w as usize] = Some(v);
        }
    }

    /// Completes the all-threads barriers every one of the `live` warps reached.
    pub(super) fn complete_all(&mut self, live: u32) {
        for id in 0..16 {
            let ph = &self.phases[id];
            if ph.arrived > 0 && ph.expected.is_none() && ph.arrived >= live {
                self.complete(id);
            }
        }
    }

    /// Whether warp `w` was released (consumed: its result becomes what `B2R` reads).
    pub(super) fn take_release(&mut self, w: u32) -> bool {
        match self.released.get_mut(w as usize).and_then(Option::take) {
            Some(v) => {
                self.b2r[w as usize] = Some(v);
                true
            }
            None => false,
        }
    }

    /// The last `BAR.RED` result of warp `w`.
    pub(super) fn b2r(&self, w: u32) -> Option<u32> {
        self.b2r.get(w as usize).copied().flatten()
    }

    /// Warp `w` arrives at barrier `id` with `count` (`None`: all threads); `pred` the lanes
    /// whose reduction predicate holds among `g` for `BAR.RED`. `wait`: the warp waits.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn arrive(
        &mut self,
        w: u32,
        g: u32,
        id: u32,
        count: Option<u32>,
        red: Option<u8>,
        pred: u32,
        wait: bool,
    ) -> Result<(), String> {
        let ph = self.phases.get_mut(id as usize).ok_or_else(|| format!("barrier id {id} out of range"))?;
        if ph.arrived == 0 {
            ph.expected = count;
        } else if ph.expected != count {
            return Err(format!(
                "barrier {id} reached with thread counts {:?} and {count:?} in one phase",
                ph.expected
            ));
        }
        ph.arrived += 1;
        if red.is_some() {
            ph.popc += (pred & g).count_ones();
            ph.any_true |= pred & g != 0;
            ph.any_false |= !pred & g != 0;
        }
        if wait {
            ph.waiters.push((w, red));
        }
        if count.is_some_and(|c| ph.arrived * 32 >= c) {
            self.complete(id as usize);
        }
        Ok(())
    }
}

/// The id and count (`None`: all threads) of a `BAR` with operands `a` (`[id, count]`; for
/// `BAR.RED` the predicate is not among them).
pub(super) fn operands(w: &Warp, a: &[Arg], lane: usize) -> R<(u32, Option<u32>)> {
    let id = match a.first() {
        Some(x) => w.reg32(x)?[lane],
        None => 0,
    };
    let count = match a.get(1) {
        Some(x) => Some(w.reg32(x)?[lane]),
        None => None,
    };
    let packed = matches!((a.first().map(|x| &x.o), a.get(1).map(|x| &x.o)), (Some(Opnd::R(_)), Some(Opnd::R(_))));
    let (id, count) = if packed { (id & 0xf, count.map(|c| c >> 16 & 0xfff)) } else { (id, count) };
    Ok((id, count.filter(|&c| c != 0)))
}
