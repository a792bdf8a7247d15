//! Register files, register classes, physical registers and the register operand.
//!
//! The files follow the hardware (spec p15): R (per-thread 32-bit GPRs, R0–R254, RZ = R255),
//! UR (warp-uniform 32-bit, UR0–UR62, URZ = UR63, sm_75+), P (1-bit predicates, P0–P6,
//! PT = P7), UP (uniform predicates, UP0–UP6, UPT = UP7), and the convergence-barrier files
//! B (B0–B15) and UB (UB0–UB15).
//!
//! A [`RegClass`] is a file plus a width in 32-bit components. Wide values are register tuples:
//! a 64-bit value is an even-aligned pair (R4:R5), a 128-bit value a 4-aligned quad
//! (R8:R11). Only R and UR have tuples; predicates and barriers are always single.
//!
//! Wide R tuples (an even count from 6 to 128 components) hold warpgroup MMA accumulators:
//! `HGMMA`/`IGMMA`/`QGMMA` keep theirs in N/2 (f32, s32) or N/4 (f16) consecutive registers,
//! 2 to 128 and not always a power of two (n24.f32: 12). Measured on ptxas 13.0.88
//! (`ptxas -arch sm_90a -O3`, nvdisasm, three live accumulators of one shape each, f16 and f32
//! accumulators, N 8..200; and the 17 Triton sm_90 wgmma kernels): the accumulator is always
//! contiguous and its base is aligned to 2 for 2 registers and to 4 for every wider tuple, not
//! to its width — 12-register accumulators at R24, R36, R48; 6 registers at R24, R32, R40;
//! 10 at R24, R36, R48; 32 at R24, R56, R88, R120. So a tuple's alignment
//! ([`RegClass::align`]) is 1, 2 or 4: its count up to 4, else 4.
//!
//! One IR serves before and after register allocation: a [`Reg`] is either a virtual register
//! (whose class lives in the function's vreg table) or a [`PhysReg`].
//!
//! Invariants (checked by the verifier, not by construction):
//! - A tuple's component count is 1, 2 or 4, and >1 only for R and UR; or an even count from 6
//!   to 128 in R (a wide tuple).
//! - A physical tuple's base is aligned to [`RegClass::align`] and its last component is usable
//!   (≤ R254 / UR62).
//! - The zero/true registers (RZ, URZ, PT, UPT) are the only physical registers allowed before
//!   allocation; they are width-polymorphic (RZ reads as zero at any width) and writes to
//!   them are discarded.

use std::fmt;

use super::entity::VReg;

/// A hardware register file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegFile {
    /// Per-thread 32-bit general-purpose registers.
    R,
    /// Warp-uniform 32-bit registers (sm_75+).
    UR,
    /// Per-thread predicates.
    P,
    /// Warp-uniform predicates (sm_75+).
    UP,
    /// Convergence-barrier registers (BSSY/BSYNC).
    B,
    /// Uniform convergence-barrier registers.
    UB,
}

impl RegFile {
    /// All files, in a fixed order.
    pub const ALL: [RegFile; 6] = [RegFile::R, RegFile::UR, RegFile::P, RegFile::UP, RegFile::B, RegFile::UB];

    /// Whether every thread of a warp sees the same value.
    pub fn is_uniform(self) -> bool {
        matches!(self, RegFile::UR | RegFile::UP | RegFile::UB)
    }
    /// Whether this is a predicate file.
    pub fn is_pred(self) -> bool {
        matches!(self, RegFile::P | RegFile::UP)
    }
    /// Whether this is a 32-bit data file (R or UR).
    pub fn is_data(self) -> bool {
        matches!(self, RegFile::R | RegFile::UR)
    }
    /// Whether this is a barrier file.
    pub fn is_barrier(self) -> bool {
        matches!(self, RegFile::B | RegFile::UB)
    }
    /// Number of usable (allocatable) registers: R0–R254, UR0–UR62, P0–P6, B0–B15.
    pub fn usable(self) -> u16 {
        match self {
            RegFile::R => 255,
            RegFile::UR => 63,
            RegFile::P | RegFile::UP => 7,
            RegFile::B | RegFile::UB => 16,
        }
    }
    /// The hardware index of the zero (R/UR) or always-true (P/UP) register.
    pub fn zero_index(self) -> Option<u16> {
        match self {
            RegFile::R => Some(255),
            RegFile::UR => Some(63),
            RegFile::P | RegFile::UP => Some(7),
            RegFile::B | RegFile::UB => None,
        }
    }
    /// The uniform counterpart of a per-thread file, or the file itself.
    pub fn uniform(self) -> RegFile {
        match self {
            RegFile::R => RegFile::UR,
            RegFile::P => RegFile::UP,
            RegFile::B => RegFile::UB,
            f => f,
        }
    }
    /// The physical register name prefix (`R`, `UR`, `P`, `UP`, `B`, `UB`).
    pub fn phys_prefix(self) -> &'static str {
        match self {
            RegFile::R => "R",
            RegFile::UR => "UR",
            RegFile::P => "P",
            RegFile::UP => "UP",
            RegFile::B => "B",
            RegFile::UB => "UB",
        }
    }
    /// The name of the zero/true register (`RZ`, `URZ`, `PT`, `UPT`).
    pub fn zero_name(self) -> Option<&'static str> {
        match self {
            RegFile::R => Some("RZ"),
            RegFile::UR => Some("URZ"),
            RegFile::P => Some("PT"),
            RegFile::UP => Some("UPT"),
            _ => None,
        }
    }
}

/// A register class: a file and a width in 32-bit components (1, 2 or 4; wide R tuples an even
/// count from 6 to 128).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegClass {
    /// The register file.
    pub file: RegFile,
    /// Number of consecutive 32-bit components (1 for predicates and barriers).
    pub count: u8,
}

/// Text names of register classes, used in signatures (`-> (r32, p)`) and derived vreg
/// prefixes (`%r`, `%rd`, ...). Declared once; printer and parser both use it.
const CLASS_NAMES: &[(RegClass, &str, &str)] = &[
    (RegClass::R32, "r32", "r"),
    (RegClass::R64, "r64", "rd"),
    (RegClass::R128, "r128", "rq"),
    (RegClass::UR32, "ur32", "ur"),
    (RegClass::UR64, "ur64", "urd"),
    (RegClass::UR128, "ur128", "urq"),
    (RegClass::P, "p", "p"),
    (RegClass::UP, "up", "up"),
    (RegClass::B, "b", "b"),
    (RegClass::UB, "ub", "ub"),
];

impl RegClass {
    /// 32-bit R.
    pub const R32: RegClass = RegClass { file: RegFile::R, count: 1 };
    /// 64-bit R pair.
    pub const R64: RegClass = RegClass { file: RegFile::R, count: 2 };
    /// 128-bit R quad.
    pub const R128: RegClass = RegClass { file: RegFile::R, count: 4 };
    /// 32-bit UR.
    pub const UR32: RegClass = RegClass { file: RegFile::UR, count: 1 };
    /// 64-bit UR pair.
    pub const UR64: RegClass = RegClass { file: RegFile::UR, count: 2 };
    /// 128-bit UR quad.
    pub const UR128: RegClass = RegClass { file: RegFile::UR, count: 4 };
    /// Predicate.
    pub const P: RegClass = RegClass { file: RegFile::P, count: 1 };
    /// Uniform predicate.
    pub const UP: RegClass = RegClass { file: RegFile::UP, count: 1 };
    /// Convergence barrier.
    pub const B: RegClass = RegClass { file: RegFile::B, count: 1 };
    /// Uniform convergence barrier.
    pub const UB: RegClass = RegClass { file: RegFile::UB, count: 1 };

    /// The widest tuple (a wgmma m64n256 f32 accumulator: 128 registers per lane).
    pub const MAX_WIDE: u8 = 128;

    /// All classes: the narrow ones, then the wide R tuples by width.
    pub fn all() -> impl Iterator<Item = RegClass> {
        CLASS_NAMES.iter().map(|c| c.0).chain(wide_names().iter().map(|c| c.0))
    }
    /// A wide R tuple of `count` components (an even count from 6 to 128), or the narrow class
    /// of that width (1, 2, 4).
    pub fn wide(count: u8) -> Option<RegClass> {
        let c = RegClass { file: RegFile::R, count };
        c.is_valid().then_some(c)
    }
    /// Whether this is a wide R tuple (more than 4 components).
    pub fn is_wide(self) -> bool {
        self.count > 4
    }
    /// The alignment of a physical tuple's base (module doc): the count up to 4, else 4.
    pub fn align(self) -> u8 {
        match self.count {
            0..=2 => self.count.max(1),
            _ => 4,
        }
    }
    /// A data class of `file` (R/UR) with `count` components.
    pub fn data(file: RegFile, count: u8) -> RegClass {
        RegClass { file, count }
    }
    /// Whether this class is well formed (count 1/2/4, tuples only in R/UR; wide tuples an even
    /// count from 6 to 128, only in R).
    pub fn is_valid(self) -> bool {
        match self.count {
            1 => true,
            2 | 4 => self.file.is_data(),
            n => self.file == RegFile::R && n.is_multiple_of(2) && (6..=Self::MAX_WIDE).contains(&n),
        }
    }
    /// Width in bits (1 for predicates, 0 for barriers).
    pub fn bits(self) -> u32 {
        if self.file.is_pred() {
            1
        } else if self.file.is_barrier() {
            0
        } else {
            32 * u32::from(self.count)
        }
    }
    /// The class name (`r32`, `r64`, `ur32`, `p`, ...; a wide tuple `r<32 x count>`: `r384`).
    pub fn name(self) -> &'static str {
        names().find(|c| c.0 == self).map_or("?", |c| c.1)
    }
    /// The class with this name.
    pub fn from_name(s: &str) -> Option<RegClass> {
        names().find(|c| c.1 == s).map(|c| c.0)
    }
    /// The prefix of virtual registers of this class (`r`, `rd`, `rq`, `ur`, `p`, ...; a wide
    /// tuple `rw<count>_`: `%rw12_7` is v7, a 12-register tuple).
    pub fn vreg_prefix(self) -> &'static str {
        names().find(|c| c.0 == self).map_or("?", |c| c.2)
    }
    /// The class whose virtual registers have this prefix.
    pub fn from_vreg_prefix(s: &str) -> Option<RegClass> {
        names().find(|c| c.2 == s).map(|c| c.0)
    }
    /// Splits a virtual register name (without `%`) into its class and its number's digits:
    /// the prefix runs to the first digit, except for a wide tuple's `rw<count>_`.
    pub fn split_vreg_name(name: &str) -> Option<(RegClass, &str)> {
        if let Some(rest) = name.strip_prefix("rw") {
            let (count, digits) = rest.split_once('_')?;
            let class = RegClass::wide(count.parse().ok()?).filter(|c| c.is_wide())?;
            return Some((class, digits));
        }
        let split = name.find(|c: char| c.is_ascii_digit()).unwrap_or(name.len());
        let (prefix, digits) = name.split_at(split);
        Some((RegClass::from_vreg_prefix(prefix)?, digits))
    }
}

/// The names of the wide R tuples (built once: `r<bits>` and `rw<count>_`).
fn wide_names() -> &'static [(RegClass, String, String)] {
    static WIDE: std::sync::LazyLock<Vec<(RegClass, String, String)>> = std::sync::LazyLock::new(|| {
        (6..=RegClass::MAX_WIDE)
            .step_by(2)
            .map(|n| (RegClass { file: RegFile::R, count: n }, format!("r{}", 32 * u32::from(n)), format!("rw{n}_")))
            .collect()
    });
    &WIDE
}

/// Every class with its name and virtual register prefix.
fn names() -> impl Iterator<Item = (RegClass, &'static str, &'static str)> {
    CLASS_NAMES.iter().map(|c| (c.0, c.1, c.2)).chain(wide_names().iter().map(|c| (c.0, c.1.as_str(), c.2.as_str())))
}

impl fmt::Display for RegClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A physical register or aligned tuple: `index` is the hardware number of its first
/// component.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PhysReg {
    /// The register file.
    pub file: RegFile,
    /// Hardware index of the first component (255 = RZ, 63 = URZ, 7 = PT/UPT).
    pub index: u16,
    /// Number of components (1, 2 or 4; wide R tuples up to 128).
    pub count: u8,
}

impl PhysReg {
    /// A single register.
    pub fn new(file: RegFile, index: u16) -> PhysReg {
        PhysReg { file, index, count: 1 }
    }
    /// The zero (RZ/URZ) or always-true (PT/UPT) register of `file`, if it has one.
    pub fn zero(file: RegFile) -> Option<PhysReg> {
        file.zero_index().map(|index| PhysReg { file, index, count: 1 })
    }
    /// RZ.
    pub const RZ: PhysReg = PhysReg { file: RegFile::R, index: 255, count: 1 };
    /// URZ.
    pub const URZ: PhysReg = PhysReg { file: RegFile::UR, index: 63, count: 1 };
    /// PT.
    pub const PT: PhysReg = PhysReg { file: RegFile::P, index: 7, count: 1 };
    /// UPT.
    pub const UPT: PhysReg = PhysReg { file: RegFile::UP, index: 7, count: 1 };

    /// Whether this is RZ, URZ, PT or UPT.
    pub fn is_zero(self) -> bool {
        self.count == 1 && self.file.zero_index() == Some(self.index)
    }
    /// The class of this register (a zero register reports width 1).
    pub fn class(self) -> RegClass {
        RegClass { file: self.file, count: self.count }
    }
    /// Why this register is not a legal hardware register or tuple, if it is not.
    pub fn check(self) -> Result<(), String> {
        if self.is_zero() {
            return Ok(());
        }
        if !self.class().is_valid() {
            return Err(format!("{} tuples of {} registers do not exist", self.file.phys_prefix(), self.count));
        }
        let last = u32::from(self.index) + u32::from(self.count) - 1;
        if last >= u32::from(self.file.usable()) {
            return Err(format!(
                "{self} is out of range ({}0-{}{} are usable)",
                self.file.phys_prefix(),
                self.file.phys_prefix(),
                self.file.usable() - 1
            ));
        }
        let align = self.class().align();
        if !self.index.is_multiple_of(u16::from(align)) {
            return Err(format!("{self} is not aligned to {align} registers"));
        }
        Ok(())
    }
}

impl fmt::Display for PhysReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero()
            && let Some(z) = self.file.zero_name()
        {
            return f.write_str(z);
        }
        let p = self.file.phys_prefix();
        if self.count == 1 {
            write!(f, "{p}{}", self.index)
        } else {
            write!(f, "{p}{}:{p}{}", self.index, u32::from(self.index) + u32::from(self.count) - 1)
        }
    }
}

/// A register operand: virtual (before allocation) or physical.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reg {
    /// A virtual register; its class is in [`super::Function::vregs`].
    Virt(VReg),
    /// A physical register or tuple.
    Phys(PhysReg),
}

impl Reg {
    /// The virtual register, if this is one.
    pub fn as_virt(self) -> Option<VReg> {
        match self {
            Reg::Virt(v) => Some(v),
            Reg::Phys(_) => None,
        }
    }
    /// Whether this is a zero/true register.
    pub fn is_zero(self) -> bool {
        matches!(self, Reg::Phys(p) if p.is_zero())
    }
}

impl From<VReg> for Reg {
    fn from(v: VReg) -> Reg {
        Reg::Virt(v)
    }
}

impl From<PhysReg> for Reg {
    fn from(p: PhysReg) -> Reg {
        Reg::Phys(p)
    }
}

/// What the function records about one virtual register.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct VRegData {
    /// Its class: file and width.
    pub class: RegClass,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wide classes: every even count from 6 to 128 in R, named `r<bits>` and `%rw<n>_`, both
    /// ways; aligned to 4 (the module doc's measurement).
    #[test]
    fn wide_classes_name_and_align() {
        let wide: Vec<RegClass> = RegClass::all().filter(|c| c.is_wide()).collect();
        assert_eq!(wide.len(), 62);
        for c in &wide {
            assert!(c.is_valid() && c.file == RegFile::R && c.count % 2 == 0);
            assert_eq!(RegClass::from_name(c.name()), Some(*c));
            assert_eq!(c.name(), format!("r{}", 32 * u32::from(c.count)));
            let v = format!("{}17", c.vreg_prefix());
            assert_eq!(RegClass::split_vreg_name(&v), Some((*c, "17")));
            assert_eq!(c.align(), 4);
        }
        assert_eq!(RegClass::split_vreg_name("rd5"), Some((RegClass::R64, "5")));
        for bad in ["rw7_1", "rw4_1", "rw130_1", "rw12", "rw_1"] {
            assert_eq!(RegClass::split_vreg_name(bad), None, "{bad}");
        }
        for n in [3u8, 5, 7, 129, 130, 255] {
            assert!(RegClass::wide(n).is_none(), "{n}");
        }
        assert!(!RegClass { file: RegFile::UR, count: 8 }.is_valid());
        assert_eq!((RegClass::R32.align(), RegClass::R64.align(), RegClass::R128.align()), (1, 2, 4));
        // Physical tuples: 4-aligned bases, the last component at most R254.
        let p = |index, count| PhysReg { file: RegFile::R, index, count };
        assert!(p(36, 12).check().is_ok());
        assert!(p(34, 12).check().is_err());
        assert!(p(128, 128).check().is_err());
        assert!(p(124, 128).check().is_ok());
        assert_eq!(p(24, 32).to_string(), "R24:R55");
    }
}
