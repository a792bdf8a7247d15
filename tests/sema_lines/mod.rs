//! One-kernel modules for the front-end differential tests (`ptx_video.rs`,
//! `ptx_async_gates.rs`): every probed line in one `.entry`, so one ptxas run judges them all and
//! each verdict carries its own line number.

/// `header` (`.version`, `.target`, `.address_size` and module declarations), then one entry
/// `k` declaring `regs` and holding `lines` in order, one per line, before `ret`.
pub fn one_kernel<S: AsRef<str>>(header: &str, regs: &str, lines: &[S]) -> String {
    let mut text = format!("{header}.visible .entry k()\n{{\n{regs}");
    for l in lines {
        text.push('\t');
        text.push_str(l.as_ref());
        text.push('\n');
    }
    text.push_str("\tret;\n}\n");
    text
}
