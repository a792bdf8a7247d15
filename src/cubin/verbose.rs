//! The `ptxas -v` resource report of an [`Image`], line for line as ptxas 13.0.88 prints it.
//! [`lines`] leaves out the `Compile time = … ms` lines, which measure the compiler, not the
//! code; [`lines_timed`] puts them where ptxas does, after each kernel's `Used` line and before
//! its device functions' lines, from times the caller measured.
//!
//! ```text
//! ptxas info    : 0 bytes gmem
//! ptxas info    : Compiling entry function 'k' for 'sm_90'
//! ptxas info    : Function properties for k
//!     8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//! ptxas info    : Used 24 registers, used 1 barriers, 8 bytes cumulative stack size, 1024 bytes smem
//! ptxas info    : Compile time = 18.019 ms
//! ptxas info    : Function properties for _Z6helperi
//!     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//! ```
//!
//! Where each figure comes from: gmem = `.nv.global.init` + `.nv.global` sizes; registers = EIATTR_REGCOUNT; barriers = EIATTR_NUM_BARRIERS
//! (0 when absent); stack frame = EIATTR_FRAME_SIZE; `cumulative stack size` =
//! EIATTR_MIN_STACK_SIZE, printed only when non-zero; `smem` = `.nv.shared.<k>`'s size less the
//! 0x400 bytes sm_90 reserves, printed only when the kernel has that section; spills and device
//! functions come from [`super::image::Report`] (the cubin does not record them).
//! Invariant: the output is a pure function of the image (and the given times).

use super::image::Image;

const INFO: &str = "ptxas info    : ";

/// The `-v` lines for `image`, without trailing newlines.
pub fn lines(image: &Image) -> Vec<String> {
    lines_timed(image, &[])
}

/// [`lines`] with ptxas's `Compile time = <ms> ms` line (three decimals) after each kernel's
/// `Used ...` line, `times[i]` being kernel `i`'s; kernels without a time get none.
pub fn lines_timed(image: &Image, times: &[std::time::Duration]) -> Vec<String> {
    let arch = format!("sm_{}{}", image.target.sm(), if image.accelerated { "a" } else { "" });
    let mut out = vec![format!("{INFO}{} bytes gmem", image.data.gmem())];
    for (i, k) in image.kernels.iter().enumerate() {
        out.push(format!("{INFO}Compiling entry function '{}' for '{arch}'", k.name));
        out.push(format!("{INFO}Function properties for {}", k.name));
        out.push(format!(
            "    {} bytes stack frame, {} bytes spill stores, {} bytes spill loads",
            k.frame_size, k.report.spill_stores, k.report.spill_loads
        ));
        let mut used = format!("{INFO}Used {} registers, used {} barriers", k.registers, k.num_barriers.unwrap_or(0));
        if k.min_stack_size != 0 {
            used.push_str(&format!(", {} bytes cumulative stack size", k.min_stack_size));
        }
        if let Some(s) = k.shared.filter(|s| s.size > image.target.shared_reserved()) {
            used.push_str(&format!(", {} bytes smem", s.size.saturating_sub(image.target.shared_reserved())));
        }
        out.push(used);
        if let Some(t) = times.get(i) {
            out.push(format!("{INFO}Compile time = {:.3} ms", t.as_secs_f64() * 1e3));
        }
        for (name, frame, stores, loads) in &k.report.functions {
            out.push(format!("{INFO}Function properties for {name}"));
            out.push(format!("    {frame} bytes stack frame, {stores} bytes spill stores, {loads} bytes spill loads"));
        }
    }
    out
}
