//! Constant bank 0 (`.nv.constant0.<fn>`): the driver-filled slots and the kernel parameters.
//!
//! The section is all zeros; its size is `param_base + Σ params`. The driver fills the reserved
//! area and the parameters at launch. Per SM (digest-backend §4.6):
//!
//! | slot | sm_75–sm_89 | sm_90 | sm_100+ |
//! |---|---|---|---|
//! | ntid.x/y/z | 0x0/0x4/0x8 | same | 0x360/0x364/0x368 |
//! | nctaid.x/y/z | 0xc/0x10/0x14 | same | 0x370/0x374/0x378 |
//! | initial stack pointer | 0x28 | 0x28 | 0x37c |
//! | global memory descriptor (64-bit) | 0x118 (sm_80+) | 0x208 | 0x358 |
//! | parameter base | 0x160 | 0x210 | 0x380 |
//!
//! sm_90 also has the [`DriverSlots`] that ptxas reads for generic windows and launch sizes,
//! found from ptxas's code and confirmed on the H200 goldens (unknown for the other families).
//!
//! Invariant: [`Constant0Layout::for_sm`] is total (every SM number gets the layout of its
//! family); the per-kernel [`Constant0`] takes the parameter base and size from the kernel's
//! `EIATTR_PARAM_CBANK` when present, which the corpus test checks against the table.

use super::eiattr::{KParamInfo, Table, Value, code};
use super::elf::Cubin;

/// Where the driver-filled values live in constant bank 0 for one SM family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Constant0Layout {
    /// `%ntid.x/y/z`.
    pub ntid: [u32; 3],
    /// `%nctaid.x/y/z`.
    pub nctaid: [u32; 3],
    /// The initial stack pointer (R1).
    pub stack_pointer: u32,
    /// The 64-bit global memory descriptor used by `desc[UR]` addressing (none on sm_75).
    pub global_desc: Option<u32>,
    /// Offset of the first kernel parameter.
    pub param_base: u32,
    /// Further driver-filled slots, where known.
    pub driver: Option<DriverSlots>,
}

/// Driver-filled slots of constant bank 0 that ptxas reads on sm_90, each inferred from the code
/// ptxas emits and confirmed by a corpus kernel's H200 golden (the notes are silent on them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DriverSlots {
    /// 64-bit generic address of local address 0: `cvta.local` is `R1 + c[0x0][0x20]` with the
    /// carry into 0x24 (addr_exprs).
    pub local_window: u32,
    /// The launch's dynamic shared size: `%dynamic_smem_size` is `LDC c[0x0][0x2c]`
    /// (dyn_smem_extern).
    pub dynamic_smem: u32,
    /// `%nsmid` (sreg_geometry, compared with `SR_VIRTUALSMID`).
    pub sm_count: u32,
    /// `%gridid` (64-bit): ptxas reads it with `LDC.64 c[0x0][0x30]`.
    pub grid_id: u32,
    /// 64-bit generic address of constant bank 3: `cvta.const` adds `c[0x0][0xd0]` (addr_exprs).
    pub const_window: u32,
    /// 64-bit generic address of the parameter block (`cvta.param`), followed by the 64-bit
    /// end of that window, which `isspacep.param` compares with (addr_exprs).
    pub param_window: u32,
    /// The cluster shape, read by ptxas's sequences for the cluster special registers
    /// (sreg_cluster_smem, whose SASS computes them from these slots):
    /// `%cluster_nctaid.{x,y,z}` (three words from here); `%clusterid` is
    /// `trunc(%ctaid * c[cluster_rcp + 4d])` (f32 reciprocals of the cluster dims) and
    /// `%cluster_ctaid` `%ctaid - %clusterid * %cluster_nctaid`.
    pub cluster_dims: u32,
    /// Three f32 reciprocals of the cluster dims.
    pub cluster_rcp: u32,
    /// `%nclusterid.{x,y,z}` (three words).
    pub nclusters: u32,
    /// `%cluster_nctarank`: CTAs per cluster.
    pub cluster_size: u32,
    /// `%is_explicit_cluster` is this word `== 1`.
    pub explicit_cluster: u32,
    /// `%total_smem_size` is `SR_SMEMSZ` minus this word.
    pub smem_total_sub: u32,
    /// `%aggr_smem_size` is `min(this word, SR_SMEMSZ)`.
    pub aggr_smem: u32,
    /// `%reserved_smem_offset_end` (`%reserved_smem_offset_begin` is the constant 0).
    pub reserved_smem_end: u32,
    /// `%reserved_smem_offset_1` (`%reserved_smem_offset_0` is the constant 0); the word after
    /// `reserved_smem_end` (ptxas 13.0.88, sm_90: `LDC c[0x0][0x6c]`).
    pub reserved_smem_1: u32,
}

impl Constant0Layout {
    /// The layout for SM number `sm` (75, 80, …, 90, 100, 120).
    pub const fn for_sm(sm: u32) -> Constant0Layout {
        match sm {
            100.. => Constant0Layout {
                ntid: [0x360, 0x364, 0x368],
                nctaid: [0x370, 0x374, 0x378],
                stack_pointer: 0x37c,
                global_desc: Some(0x358),
                param_base: 0x380,
                driver: None,
            },
            90..=99 => Constant0Layout {
                ntid: [0x0, 0x4, 0x8],
                nctaid: [0xc, 0x10, 0x14],
                stack_pointer: 0x28,
                global_desc: Some(0x208),
                param_base: 0x210,
                driver: Some(DriverSlots {
                    local_window: 0x20,
                    dynamic_smem: 0x2c,
                    sm_count: 0x10c,
                    grid_id: 0x30,
                    const_window: 0xd0,
                    param_window: 0x198,
                    cluster_dims: 0x144,
                    cluster_rcp: 0x150,
                    nclusters: 0x15c,
                    cluster_size: 0x188,
                    explicit_cluster: 0x140,
                    smem_total_sub: 0x114,
                    aggr_smem: 0x13c,
                    reserved_smem_end: 0x68,
                    reserved_smem_1: 0x6c,
                }),
            },
            _ => Constant0Layout {
                ntid: [0x0, 0x4, 0x8],
                nctaid: [0xc, 0x10, 0x14],
                stack_pointer: 0x28,
                global_desc: if sm >= 80 { Some(0x118) } else { None },
                param_base: 0x160,
                driver: None,
            },
        }
    }
}

/// One kernel's constant bank 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constant0 {
    /// Index of `.nv.constant0.<fn>`.
    pub section: u32,
    /// Its size in bytes.
    pub size: u64,
    /// The SM family's fixed slots.
    pub layout: Constant0Layout,
    /// Parameter base: from `EIATTR_PARAM_CBANK` if present, else the layout's.
    pub param_base: u32,
    /// Parameter bytes: from `EIATTR_PARAM_CBANK`, else `EIATTR_CBANK_PARAM_SIZE`, else
    /// `size - param_base`.
    pub param_size: u32,
    /// The parameters (`EIATTR_KPARAM_INFO`), in ordinal order.
    pub params: Vec<KParamInfo>,
}

impl Cubin {
    /// The constant bank 0 of `function`, if it has a `.nv.constant0.<function>` section.
    pub fn constant0(&self, function: &str) -> Option<Constant0> {
        let sec = self.section(&format!(".nv.constant0.{function}"))?;
        let layout = Constant0Layout::for_sm(self.sm());
        let info = self.function_info(function);
        let records = info.map(|i| i.records.as_slice()).unwrap_or_default();
        let mut cbank = None;
        let mut cbank_size = None;
        let mut params = Vec::new();
        for r in records {
            match r.value(Table::Info) {
                Value::ParamCbank { base, size, .. } if r.code == code::PARAM_CBANK => cbank = Some((base, size)),
                Value::Half(n) if r.code == code::CBANK_PARAM_SIZE => cbank_size = Some(u32::from(n)),
                Value::KParam(k) => params.push(k),
                _ => {}
            }
        }
        params.sort_by_key(|k| k.ordinal);
        let param_base = cbank.map_or(layout.param_base, |(b, _)| u32::from(b));
        let param_size = cbank
            .map(|(_, s)| u32::from(s))
            .or(cbank_size)
            .unwrap_or_else(|| (sec.size as u32).saturating_sub(param_base));
        Some(Constant0 { section: sec.index, size: sec.size, layout, param_base, param_size, params })
    }
}
