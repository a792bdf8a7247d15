//! [`Target`]: everything the compiler knows about the GPU it compiles for, made once from the
//! `-arch` name and carried by every backend stage (NAK's `ShaderModel`, Cranelift's
//! `TargetIsa`).
//!
//! A target holds:
//! - its SM number, its name and its suffix (`sm_90a`: arch-accelerated, `sm_100f`:
//!   family-specific; [`Suffix`]);
//! - constant bank 0 ([`Constant0Layout`]), and what is derived from it rather than restated:
//!   the parameter base ([`Target::param_base`]), the global-memory descriptor's slot
//!   ([`Target::desc_offset`]), the initial stack pointer's slot ([`Target::stack_pointer`]),
//!   the driver-filled slots ([`Target::driver_slots`]);
//! - the register-file bounds ([`RegBounds`]);
//! - the SASS tables ([`crate::sass::tables_for`]), when the ISA layer has them for this arch;
//! - the measured hardware facts ([`HwFacts`], [`hw`]), which the scheduler and the emulator's
//!   hazard checker read.
//!
//! Only some targets have a code generator: [`Target::backend`] is the one place that refuses
//! the others ("this target has no backend yet"), worded as the driver prints it. The stages
//! below the driver (isel, emission, the scheduler, the cubin writer) do not check the SM: they
//! read what they need from the target they are given.
//!
//! Invariants: [`Target::from_arch`] accepts exactly the real (`sm_*`) names `ptxas --help`
//! lists for `--gpu-name` ([`crate::cli`]'s table) and refuses others with ptxas's wording;
//! every field is a function of the name (two targets of one name are equal); the layout is
//! [`Constant0Layout::for_sm`] of the SM number, and the parameter base and descriptor offset
//! are read from it, never restated; [`Target::has_backend`] holds exactly for the names of
//! [`WITH_BACKEND`]: `sm_75`, the sm_80 family (`sm_80`, `sm_86`, `sm_89`), `sm_90`, `sm_90a`,
//! `sm_100`, `sm_100a`, `sm_120` and `sm_120a` (not the family names `sm_100f`/`sm_120f`, nor
//! sm_87, sm_88, sm_103, sm_110, sm_121).

pub mod hw;

pub use hw::HwFacts;

use crate::cubin::{Constant0Layout, DriverSlots};
use crate::ori::RegFile;
use crate::sass::Tables;

/// The suffix of an arch name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// No suffix (`sm_90`): code runs on this SM and later ones.
    Plain,
    /// `a` (`sm_90a`): arch-accelerated features (e.g. `wgmma`); the code runs on this SM only,
    /// and the cubin says so (`.nv.compat`).
    Accelerated,
    /// `f` (`sm_100f`): family-specific features; the code runs on the SMs of the family.
    Family,
}

/// The register-file bounds of a target: how many registers of each file the allocator may
/// use (the zero/true register excluded), and the most general registers a thread may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegBounds {
    /// Usable registers per file, indexed as [`RegFile::ALL`]: R0–R254, UR0–UR62, P0–P6,
    /// UP0–UP6, B0–B15, UB0–UB15 on every SM from sm_75 to sm_120 as the ISA layer models it
    /// ([`RegFile::usable`]; note `sass` keeps UR0–UR62 on sm_100 too).
    pub usable: [u16; 6],
    /// The architectural maximum of general registers per thread (`--maxrregcount` cannot go
    /// above it; `-maxrregcount archmax` is it): 255.
    pub max_per_thread: u32,
}

impl RegBounds {
    /// Usable registers of `file`.
    pub fn usable(&self, file: RegFile) -> u16 {
        let i = RegFile::ALL.iter().position(|f| *f == file).unwrap_or(0);
        self.usable[i]
    }
}

/// Why an arch name is not a target ([`Target::from_arch`]); displays as ptxas words it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    /// Not a name `--gpu-name` accepts.
    #[error("Value '{0}' is not defined for option 'gpu-name'")]
    Unknown(String),
    /// A virtual architecture (`compute_*`, `lto_*`): code generation is suppressed for it.
    #[error("'{0}' is a virtual architecture: no code is generated for it")]
    Virtual(String),
}

/// The one refusal of code generation ([`Target::backend`]): the target has no backend yet.
/// Displays as the part of the driver's fatal line between `ptxas-rs: ` and
/// ` is not supported yet`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("code generation for '{0}' (this target has no backend yet: only {list} have one)", list = backend_list())]
pub struct NoBackend(pub String);

/// The targets with a code generator, in the order the refusal names them.
pub const WITH_BACKEND: &[&str] =
    &["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a", "sm_120", "sm_120a"];

/// [`WITH_BACKEND`] as a sentence list (`sm_75, ..., sm_120 and sm_120a`).
fn backend_list() -> String {
    let (last, rest) = WITH_BACKEND.split_last().expect("some target has a backend");
    format!("{} and {last}", rest.join(", "))
}

/// The GPU a module is compiled for (see the module doc).
#[derive(Clone)]
pub struct Target {
    name: &'static str,
    sm: u32,
    suffix: Suffix,
    layout: Constant0Layout,
    registers: RegBounds,
    tables: Option<&'static Tables>,
    hw: HwFacts,
}

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The tables are large and a function of the name.
        f.debug_struct("Target")
            .field("name", &self.name)
            .field("sm", &self.sm)
            .field("suffix", &self.suffix)
            .field("layout", &self.layout)
            .field("registers", &self.registers)
            .field("tables", &self.tables.is_some())
            .field("hw", &self.hw)
            .finish()
    }
}

/// Every field is a function of the name.
impl PartialEq for Target {
    fn eq(&self, other: &Target) -> bool {
        self.name == other.name
    }
}

impl Eq for Target {}

/// The real (`sm_*`) arch names `--gpu-name` accepts, in the CLI table's order.
pub fn arch_names() -> impl Iterator<Item = &'static str> {
    crate::cli::spec(crate::cli::OptId::GpuName).allowed.iter().copied().filter(|n| n.starts_with("sm_"))
}

impl Target {
    /// The target named `arch` as `-arch` spells it (`sm_90`, `sm_90a`, `sm_100f`, ...).
    /// Errors: a virtual arch ([`TargetError::Virtual`]) or a name `--gpu-name` does not
    /// accept ([`TargetError::Unknown`], ptxas's wording).
    pub fn from_arch(arch: &str) -> Result<Target, TargetError> {
        let Some(name) = arch_names().find(|n| *n == arch) else {
            let spec = crate::cli::spec(crate::cli::OptId::GpuName);
            return Err(if spec.allowed.contains(&arch) {
                TargetError::Virtual(arch.to_owned())
            } else {
                TargetError::Unknown(arch.to_owned())
            });
        };
        let digits = name.trim_start_matches("sm_");
        let (number, suffix) = match digits.strip_suffix('a') {
            Some(n) => (n, Suffix::Accelerated),
            None => match digits.strip_suffix('f') {
                Some(n) => (n, Suffix::Family),
                None => (digits, Suffix::Plain),
            },
        };
        let sm: u32 = number.parse().map_err(|_| TargetError::Unknown(arch.to_owned()))?;
        Ok(Target {
            name,
            sm,
            suffix,
            layout: Constant0Layout::for_sm(sm),
            registers: RegBounds { usable: RegFile::ALL.map(RegFile::usable), max_per_thread: 255 },
            tables: crate::sass::tables_for(name),
            hw: HwFacts::for_sm(sm),
        })
    }

    /// The arch name (`sm_90a`).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The SM number (90 for `sm_90` and `sm_90a`).
    pub fn sm(&self) -> u32 {
        self.sm
    }

    /// The suffix of the name.
    pub fn suffix(&self) -> Suffix {
        self.suffix
    }

    /// Whether the name has the `a` suffix (the cubin is marked arch-accelerated).
    pub fn accelerated(&self) -> bool {
        self.suffix == Suffix::Accelerated
    }

    /// Constant bank 0's layout for this SM.
    pub fn layout(&self) -> &Constant0Layout {
        &self.layout
    }

    /// Where the kernel parameters start in constant bank 0 (the layout's).
    pub fn param_base(&self) -> u32 {
        self.layout.param_base
    }

    /// The 64-bit global memory descriptor's slot in constant bank 0 (`desc[UR]` addressing),
    /// `None` where the SM has none (sm_75).
    pub fn desc_offset(&self) -> Option<u32> {
        self.layout.global_desc
    }

    /// The initial stack pointer's slot in constant bank 0.
    pub fn stack_pointer(&self) -> u32 {
        self.layout.stack_pointer
    }

    /// The driver-filled slots of bank 0 that ptxas reads (generic windows, launch and cluster
    /// sizes), where known (sm_90).
    pub fn driver_slots(&self) -> Option<&DriverSlots> {
        self.layout.driver.as_ref()
    }

    /// The register-file bounds.
    pub fn registers(&self) -> &RegBounds {
        &self.registers
    }

    /// The SASS encoding tables, when the ISA layer has them for this arch.
    pub fn tables(&self) -> Option<&'static Tables> {
        self.tables
    }

    /// Whether the target's SASS has instructions named `base` (`SYNCS`, `HGMMA`, `UBLKCP`,
    /// ...): the opcode availability instruction selection checks before choosing a sequence
    /// that needs them, read from the tables, never from the SM number.
    pub fn has_sass(&self, base: &str) -> bool {
        self.tables.is_some_and(|t| t.forms.iter().any(|f| f.base == base))
    }

    /// The measured hardware facts.
    pub fn hw(&self) -> &HwFacts {
        &self.hw
    }

    /// Bytes reserved at the start of every CTA's shared window before the module's shared
    /// variables: 0x400 from sm_90 on (`.nv.shared.reserved.0`, `%reserved_smem_offset_cap`),
    /// none before (NVIDIA's sm_80 code of algo_block_scan stores its first array at
    /// `[R0.X4]`, the second at `[R0.X4+0x400]`, and its cubin has no reserved section).
    pub fn shared_reserved(&self) -> u64 {
        if self.has_clusters() { 0x400 } else { 0 }
    }

    /// Whether the SM has thread-block clusters (sm_90 on): a shared address then carries the
    /// CTA's slot in its cluster in bits 24 and up (`SR_CgaCtaId << 24`), cluster special
    /// registers and distributed shared memory exist. Before sm_90 a shared address is the
    /// window offset itself, and `SR_CgaCtaId` does not exist.
    pub fn has_clusters(&self) -> bool {
        self.sm >= 90
    }

    /// Whether ptxas-rs can generate code for this target.
    pub fn has_backend(&self) -> bool {
        WITH_BACKEND.contains(&self.name)
    }

    /// `Ok` when this target has a backend, else the one refusal of code generation.
    pub fn backend(&self) -> Result<(), NoBackend> {
        if self.has_backend() { Ok(()) } else { Err(NoBackend(self.name.to_owned())) }
    }
}

/// `sm_90`, the default of the library's option structs (the CLI's default is ptxas's, sm_75).
impl Default for Target {
    fn default() -> Target {
        Target::from_arch("sm_90").expect("sm_90 is a gpu-name")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_arch_the_cli_accepts_is_a_target() {
        let names: Vec<&str> = arch_names().collect();
        assert!(names.len() >= 20, "{names:?}");
        for n in names {
            let t = Target::from_arch(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            assert_eq!(t.name(), n);
            assert_eq!(format!("sm_{}", t.sm()), n.trim_end_matches(['a', 'f']));
            assert_eq!(t.accelerated(), n.ends_with('a'), "{n}");
            assert_eq!(t.suffix() == Suffix::Family, n.ends_with('f'), "{n}");
        }
    }

    #[test]
    fn other_names_are_refused_with_ptxas_wording() {
        let e = Target::from_arch("sm_60").unwrap_err();
        assert_eq!(e.to_string(), "Value 'sm_60' is not defined for option 'gpu-name'");
        assert!(matches!(Target::from_arch("sm_90b"), Err(TargetError::Unknown(_))));
        assert!(matches!(Target::from_arch(""), Err(TargetError::Unknown(_))));
        assert!(matches!(Target::from_arch("compute_90"), Err(TargetError::Virtual(_))));
        assert!(matches!(Target::from_arch("lto_80"), Err(TargetError::Virtual(_))));
    }

    /// Bank 0 per arch is the layout table's (`cubin::constbank`'s doc): parameter base,
    /// descriptor and stack pointer by family, and nothing restated.
    #[test]
    fn bank0_follows_the_layout_table() {
        for n in arch_names() {
            let t = Target::from_arch(n).unwrap();
            let (base, desc, sp) = match t.sm() {
                75 => (0x160, None, 0x28),
                80..=89 => (0x160, Some(0x118), 0x28),
                90 => (0x210, Some(0x208), 0x28),
                _ => (0x380, Some(0x358), 0x37c),
            };
            assert_eq!((t.param_base(), t.desc_offset(), t.stack_pointer()), (base, desc, sp), "{n}");
            assert_eq!(*t.layout(), Constant0Layout::for_sm(t.sm()), "{n}");
            assert_eq!(t.driver_slots().is_some(), t.sm() == 90, "{n}");
        }
    }

    #[test]
    fn sm75_the_sm80_family_sm90_sm100_and_sm120_have_a_backend() {
        let mut with: Vec<&str> = arch_names().filter(|n| Target::from_arch(n).unwrap().has_backend()).collect();
        with.sort_unstable();
        assert_eq!(
            with,
            ["sm_100", "sm_100a", "sm_120", "sm_120a", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"]
        );
        // sm_120 has no VABSDIFF4 (nvdisasm -b SM120 rejects it); sm_100 has.
        assert!(!Target::from_arch("sm_120").unwrap().has_sass("VABSDIFF4"));
        assert!(Target::from_arch("sm_100").unwrap().has_sass("VABSDIFF4"));
        // Blackwell: no ULDC (uniform constants through LDCU); clusters as on sm_90.
        let t100 = Target::from_arch("sm_100").unwrap();
        assert!(!t100.has_sass("ULDC") && t100.has_sass("LDCU"));
        assert_eq!((t100.shared_reserved(), t100.has_clusters()), (0x400, true));
        let e = Target::from_arch("sm_121").unwrap().backend().unwrap_err();
        assert_eq!(
            e.to_string(),
            "code generation for 'sm_121' (this target has no backend yet: only sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, sm_100a, sm_120 and sm_120a have one)"
        );
        assert_eq!(Target::from_arch("sm_90a").unwrap().backend(), Ok(()));
        for n in ["sm_75", "sm_80", "sm_86", "sm_89"] {
            let t = Target::from_arch(n).unwrap();
            assert_eq!((t.shared_reserved(), t.has_clusters()), (0, false), "{n}");
        }
        // Turing: no descriptor in bank 0, none of the sm_80 family's async copies or REDUX.
        let t75 = Target::from_arch("sm_75").unwrap();
        assert_eq!(t75.desc_offset(), None);
        for base in ["LDGSTS", "LDGDEPBAR", "REDUX", "SYNCS", "HGMMA"] {
            assert!(!t75.has_sass(base), "sm_75 has no {base}");
        }
        assert!(Target::from_arch("sm_80").unwrap().has_sass("LDGSTS"));
        let t = Target::from_arch("sm_90").unwrap();
        assert_eq!((t.shared_reserved(), t.has_clusters()), (0x400, true));
        for base in ["SYNCS", "UBLKCP", "HGMMA", "ELECT", "CGAERRBAR"] {
            assert!(t.has_sass(base), "sm_90 has {base}");
            assert!(!Target::from_arch("sm_86").unwrap().has_sass(base), "sm_86 has no {base}");
        }
        assert!(Target::from_arch("sm_89").unwrap().has_sass("RED"));
    }

    #[test]
    fn tables_and_facts_come_with_the_target() {
        for n in ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_120"] {
            let t = Target::from_arch(n).unwrap();
            assert!(t.tables().is_some(), "{n} has SASS tables");
            assert_eq!(*t.hw(), HwFacts::for_sm(t.sm()), "{n}");
        }
        assert!(Target::from_arch("sm_110").unwrap().tables().is_none());
        let t = Target::default();
        assert_eq!((t.name(), t.registers().usable(RegFile::R), t.registers().usable(RegFile::UR)), ("sm_90", 255, 63));
        assert_eq!(t.registers().usable(RegFile::P), 7);
    }
}
