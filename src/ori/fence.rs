//! Memory fences: which PTX `membar`/`fence` form an instruction is, and the SASS sequence
//! ptxas 13.0 gives each on sm_90/sm_90a.
//!
//! The PTX-stage [`super::Opcode::Membar`] carries the form as its immediate source
//! ([`Fence::code`]); instruction selection expands it into [`Fence::sass`]. The sequences were
//! measured with NVIDIA ptxas 13.0.88 (`-arch sm_90a -O0`, a probe kernel `st; FENCE; st`;
//! `tests/fence_forms.rs` compares them with the oracle):
//!
//! | PTX | SASS |
//! |---|---|
//! | `membar.cta`, `fence.sc.cta` | `MEMBAR.SC.CTA` |
//! | `fence.acq_rel.cta` (`fence.cta`) | `MEMBAR.ALL.CTA; NOP` |
//! | `membar.gl`, `fence.sc.gpu`, `fence.sc.cluster` | `MEMBAR.SC.GPU; ERRBAR; CGAERRBAR; CCTL.IVALL` |
//! | `membar.sys`, `fence.sc.sys` | `MEMBAR.SC.SYS; ERRBAR; CGAERRBAR; CCTL.IVALL` |
//! | `fence.acq_rel.gpu` / `.cluster` | `MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; CCTL.IVALL` |
//! | `fence.acq_rel.sys` | `MEMBAR.ALL.SYS; ERRBAR; CGAERRBAR; CCTL.IVALL` |
//! | `fence.proxy.async`, `fence.proxy.async.shared::cluster` | `MEMBAR.ALL.GPU; FENCE.VIEW.ASYNC.S` |
//! | `fence.proxy.async.shared::cta` | `MEMBAR.ALL.CTA; FENCE.VIEW.ASYNC.S` |
//! | `fence.proxy.async.global` | `FENCE.VIEW.ASYNC.G` |
//! | `fence.mbarrier_init.release.cluster` | `NOP` |
//! | `fence.acquire.cluster` | `CCTL.IVALL` |
//! | `fence.release.cluster` | `MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR` |
//! | `fence.proxy.tensormap::generic.release.{cta,cluster,gpu}` | `MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR` (the `.cta` scope too) |
//! | `fence.proxy.tensormap::generic.release.sys` | `MEMBAR.ALL.SYS; ERRBAR; CGAERRBAR` |
//! | `fence.proxy.alias` | `MEMBAR.SC.GPU; MEMBAR.SC.SYS; CCTL.IVALL` (ptxas picks one membar at run time from a driver flag; we issue both) |
//!
//! Invariant: [`Fence::from_code`] inverts [`Fence::code`]; every form has a sequence.

/// A PTX fence form (distinct SASS sequences only: forms ptxas treats alike share a value).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fence {
    /// `membar.cta`, `fence.sc.cta`.
    ScCta,
    /// `membar.gl`, `fence.sc.gpu`, `fence.sc.cluster`.
    ScGpu,
    /// `membar.sys`, `fence.sc.sys`.
    ScSys,
    /// `fence.acq_rel.cta`.
    AcqRelCta,
    /// `fence.acq_rel.gpu`, `fence.acq_rel.cluster`.
    AcqRelGpu,
    /// `fence.acq_rel.sys`.
    AcqRelSys,
    /// `fence.proxy.async`, `fence.proxy.async.shared::cluster`.
    ProxyAsync,
    /// `fence.proxy.async.shared::cta`.
    ProxyAsyncCta,
    /// `fence.proxy.async.global`.
    ProxyAsyncGlobal,
    /// `fence.mbarrier_init.release.cluster`.
    MbarrierInit,
    /// `fence.acquire.cluster`.
    AcquireCluster,
    /// `fence.release.cluster`.
    ReleaseCluster,
    /// `fence.proxy.alias`.
    ProxyAlias,
    /// `fence.proxy.tensormap::generic.release.{cta,cluster,gpu}`.
    TensormapRelease,
    /// `fence.proxy.tensormap::generic.release.sys`.
    TensormapReleaseSys,
}

/// A `MEMBAR`'s semantics and scope: `MEMBAR.{SC,ALL}.{CTA,GPU,SYS}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Membar {
    /// `.SC` (sequentially consistent) rather than `.ALL`.
    pub sc: bool,
    /// 0: `.CTA`, 1: `.GPU`, 2: `.SYS`.
    pub scope: u8,
}

impl Membar {
    /// The immediate of the SASS-stage [`super::Opcode::MEMBAR`].
    pub fn code(self) -> i64 {
        i64::from(self.scope) + if self.sc { 0 } else { 3 }
    }
    /// Inverse of [`Membar::code`].
    pub fn from_code(c: i64) -> Option<Membar> {
        (0..6).contains(&c).then_some(Membar { sc: c < 3, scope: (c % 3) as u8 })
    }
    /// The SASS mnemonic with modifiers (`MEMBAR.SC.GPU`).
    pub fn text(self) -> String {
        format!("MEMBAR.{}.{}", if self.sc { "SC" } else { "ALL" }, ["CTA", "GPU", "SYS"][self.scope as usize])
    }
}

/// One SASS instruction of a fence sequence.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// `MEMBAR.<sem>.<scope>`.
    Membar(Membar),
    /// `ERRBAR`.
    Errbar,
    /// `CGAERRBAR`.
    CgaErrbar,
    /// `CCTL.IVALL`: invalidate the L1 cache.
    CctlIvall,
    /// `FENCE.VIEW.ASYNC.S` (`false`) or `.G` (`true`).
    FenceView {
        /// `.G` rather than `.S`.
        global: bool,
    },
    /// `NOP`.
    Nop,
}

const ALL: [Fence; 15] = [
    Fence::ScCta,
    Fence::ScGpu,
    Fence::ScSys,
    Fence::AcqRelCta,
    Fence::AcqRelGpu,
    Fence::AcqRelSys,
    Fence::ProxyAsync,
    Fence::ProxyAsyncCta,
    Fence::ProxyAsyncGlobal,
    Fence::MbarrierInit,
    Fence::AcquireCluster,
    Fence::ReleaseCluster,
    Fence::ProxyAlias,
    Fence::TensormapRelease,
    Fence::TensormapReleaseSys,
];

impl Fence {
    /// The form of PTX `opcode` (`membar` or `fence`) with modifiers `mods` (without dots,
    /// e.g. `["proxy", "async", "shared::cta"]`), or why it is not one.
    pub fn from_ptx(opcode: &str, mods: &[&str]) -> Result<Fence, String> {
        let has = |w: &str| mods.contains(&w);
        let scope = if has("cta") {
            0
        } else if has("sys") {
            2
        } else if has("gpu") || has("gl") || has("cluster") {
            1
        } else {
            3
        };
        let bad = || format!("`{opcode}.{}` is not a fence form", mods.join("."));
        // `membar.scope` and `fence.sc.scope` are one form.
        let sc = [Fence::ScCta, Fence::ScGpu, Fence::ScSys].get(scope).copied();
        Ok(match opcode {
            "membar" => sc.ok_or_else(bad)?,
            "fence" if has("proxy") => {
                if has("alias") {
                    Fence::ProxyAlias
                } else if has("tensormap::generic") && has("release") {
                    // (`.acquire` takes an address: `lower::control` lowers it apart.)
                    if scope == 2 { Fence::TensormapReleaseSys } else { Fence::TensormapRelease }
                } else if has("async") && has("global") {
                    Fence::ProxyAsyncGlobal
                } else if has("async") && has("shared::cta") {
                    Fence::ProxyAsyncCta
                } else if has("async") {
                    Fence::ProxyAsync
                } else {
                    return Err(bad());
                }
            }
            "fence" if has("mbarrier_init") => Fence::MbarrierInit,
            "fence" if has("acquire") && !has("acq_rel") => Fence::AcquireCluster,
            "fence" if has("release") && !has("acq_rel") => Fence::ReleaseCluster,
            "fence" if has("sc") => sc.ok_or_else(bad)?,
            // `fence{.acq_rel}.scope`: `.acq_rel` is the default semantics.
            "fence" => match scope {
                0 => Fence::AcqRelCta,
                1 => Fence::AcqRelGpu,
                2 => Fence::AcqRelSys,
                _ => return Err(bad()),
            },
            _ => return Err(bad()),
        })
    }

    /// The immediate of the PTX-stage [`super::Opcode::Membar`].
    pub fn code(self) -> i64 {
        ALL.iter().position(|f| *f == self).unwrap_or(0) as i64
    }

    /// Inverse of [`Fence::code`].
    pub fn from_code(c: i64) -> Option<Fence> {
        usize::try_from(c).ok().and_then(|i| ALL.get(i).copied())
    }

    /// The SASS sequence ptxas gives this form (see the module table).
    pub fn sass(self) -> Vec<Step> {
        use Step::*;
        let mb = |sc: bool, scope: u8| Membar(self::Membar { sc, scope });
        let bars = [Errbar, CgaErrbar, CctlIvall];
        match self {
            Fence::ScCta => vec![mb(true, 0)],
            Fence::ScGpu => [&[mb(true, 1)][..], &bars].concat(),
            Fence::ScSys => [&[mb(true, 2)][..], &bars].concat(),
            Fence::AcqRelCta => vec![mb(false, 0), Nop],
            Fence::AcqRelGpu => [&[mb(false, 1)][..], &bars].concat(),
            Fence::AcqRelSys => [&[mb(false, 2)][..], &bars].concat(),
            Fence::ProxyAsync => vec![mb(false, 1), FenceView { global: false }],
            Fence::ProxyAsyncCta => vec![mb(false, 0), FenceView { global: false }],
            Fence::ProxyAsyncGlobal => vec![FenceView { global: true }],
            Fence::MbarrierInit => vec![Nop],
            Fence::AcquireCluster => vec![CctlIvall],
            Fence::ReleaseCluster => vec![mb(false, 1), Errbar, CgaErrbar],
            Fence::ProxyAlias => vec![mb(true, 1), mb(true, 2), CctlIvall],
            Fence::TensormapRelease => vec![mb(false, 1), Errbar, CgaErrbar],
            Fence::TensormapReleaseSys => vec![mb(false, 2), Errbar, CgaErrbar],
        }
    }

    /// Every form.
    pub fn all() -> &'static [Fence] {
        &ALL
    }
}

impl Step {
    /// The SASS text (nvdisasm's spelling, no operands).
    pub fn text(self) -> String {
        match self {
            Step::Membar(m) => m.text(),
            Step::Errbar => "ERRBAR".into(),
            Step::CgaErrbar => "CGAERRBAR".into(),
            Step::CctlIvall => "CCTL.IVALL".into(),
            Step::FenceView { global } => format!("FENCE.VIEW.ASYNC.{}", if global { "G" } else { "S" }),
            Step::Nop => "NOP".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for &f in Fence::all() {
            assert_eq!(Fence::from_code(f.code()), Some(f));
            assert!(!f.sass().is_empty());
        }
        for c in 0..6 {
            assert_eq!(Membar::from_code(c).map(Membar::code), Some(c));
        }
    }

    #[test]
    fn forms_parse() {
        let f = |op: &str, m: &str| Fence::from_ptx(op, &m.split('.').collect::<Vec<_>>()).unwrap();
        assert_eq!(f("membar", "gl"), Fence::ScGpu);
        assert_eq!(f("fence", "sc.cluster"), Fence::ScGpu);
        assert_eq!(f("fence", "cta"), Fence::AcqRelCta);
        assert_eq!(f("fence", "acq_rel.sys"), Fence::AcqRelSys);
        assert_eq!(f("fence", "proxy.async.shared::cta"), Fence::ProxyAsyncCta);
        assert_eq!(f("fence", "proxy.async.shared::cluster"), Fence::ProxyAsync);
        assert_eq!(f("fence", "mbarrier_init.release.cluster"), Fence::MbarrierInit);
        assert_eq!(f("fence", "acquire.cluster"), Fence::AcquireCluster);
        assert_eq!(f("fence", "release.cluster"), Fence::ReleaseCluster);
        assert!(Fence::from_ptx("fence", &["sc"]).is_err());
    }
}
