//! Special registers (`%tid`, `%clusterid`, …) as data: which names exist, whether they take a
//! `.x/.y/.z` component, and their SM / PTX gates (`Feature '%clusterid' requires …`, PTX
//! message first, as ptxas prints them).

/// `(name, has components, min SM, min PTX ×10)`.
pub const SPECIAL_REGISTERS: &[(&str, bool, u32, u32)] = &[
    ("%tid", true, 0, 0),
    ("%ntid", true, 0, 0),
    ("%ctaid", true, 0, 0),
    ("%nctaid", true, 0, 0),
    ("%laneid", false, 0, 0),
    ("%warpid", false, 0, 0),
    ("%nwarpid", false, 0, 0),
    ("%smid", false, 0, 0),
    ("%nsmid", false, 0, 0),
    ("%gridid", false, 0, 0),
    ("%clock", false, 0, 0),
    ("%clock_hi", false, 0, 0),
    ("%clock64", false, 0, 0),
    ("%lanemask_eq", false, 0, 0),
    ("%lanemask_le", false, 0, 0),
    ("%lanemask_lt", false, 0, 0),
    ("%lanemask_ge", false, 0, 0),
    ("%lanemask_gt", false, 0, 0),
    ("%globaltimer", false, 30, 31),
    ("%globaltimer_lo", false, 30, 31),
    ("%globaltimer_hi", false, 30, 31),
    ("%total_smem_size", false, 0, 41),
    ("%dynamic_smem_size", false, 0, 41),
    ("%aggr_smem_size", false, 90, 81),
    ("%reserved_smem_offset_begin", false, 80, 76),
    ("%reserved_smem_offset_end", false, 80, 76),
    ("%reserved_smem_offset_cap", false, 80, 76),
    ("%reserved_smem_offset_0", false, 80, 76),
    ("%reserved_smem_offset_1", false, 80, 76),
    ("%is_explicit_cluster", false, 90, 78),
    ("%clusterid", true, 90, 78),
    ("%nclusterid", true, 90, 78),
    ("%cluster_ctaid", true, 90, 78),
    ("%cluster_nctaid", true, 90, 78),
    ("%cluster_ctarank", false, 90, 78),
    ("%cluster_nctarank", false, 90, 78),
    ("%current_graph_exec", false, 0, 0),
];

/// The entry for `name`, including the numbered families `%pm0..7`, `%pm0_64..`, `%envreg0..31`.
pub fn lookup(name: &str) -> Option<(&'static str, bool, u32, u32)> {
    if let Some(e) = SPECIAL_REGISTERS.iter().find(|e| e.0 == name) {
        return Some(*e);
    }
    let numbered = |prefix: &str, max: u32, suffix: &str| {
        name.strip_prefix(prefix)
            .and_then(|r| r.strip_suffix(suffix))
            .and_then(
                |d| if d.len() <= 2 && d.bytes().all(|c| c.is_ascii_digit()) { d.parse::<u32>().ok() } else { None },
            )
            .is_some_and(|n| n <= max)
    };
    (numbered("%pm", 7, "") || numbered("%pm", 7, "_64") || numbered("%envreg", 31, "")).then_some(("%pm", false, 0, 0))
}

/// The instruction type widths (bits) a `mov` may read special register `name` with, as ptxas
/// 13.0.88 checks them (probed with `mov.u16/.u32/.u64`); 1 stands for `.pred`. Another width
/// is `Arguments mismatch`. The launch-shape registers also read as 16 bits (PTX's old
/// `%tid` width), `%gridid` as any integer width.
pub fn mov_widths(name: &str) -> &'static [u32] {
    match name {
        "%tid" | "%ntid" | "%ctaid" | "%nctaid" => &[16, 32],
        "%gridid" => &[16, 32, 64],
        "%clock64" | "%globaltimer" | "%current_graph_exec" => &[64],
        "%is_explicit_cluster" => &[1],
        n if n.starts_with("%pm") && n.ends_with("_64") => &[64],
        _ => &[32],
    }
}
