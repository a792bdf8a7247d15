//! Video selectors and secondary operations against ptxas (`ptx::sema::video`): one module
//! holds every (instruction form × operand position × selector) line, so one ptxas run
//! reports every verdict with its line, and our stderr must equal ptxas's byte for byte.
//! Without the tools the test still checks that exactly the lines with a selector ptxas's
//! rules refuse fail (counted from the rules' own unit tests, so it cannot pass vacuously).

mod sema_lines;

use ptxas_rs::ptx::sema;

/// Instruction forms with `{0}`…`{3}` marking the operand positions.
const FORMS: &[&str] = &[
    "vadd.u32.u32.u32 %r1{0}, %r2{1}, %r3{2};",
    "vadd.u32.u32.u32 %r1{0}, %r2{1}, %r3{2}, %r4{3};",
    "vmin.s32.u32.s32.add %r1{0}, %r2{1}, %r3{2}, %r4{3};",
    "vmad.u32.u32.u32 %r1{0}, %r2{1}, %r3{2}, %r4{3};",
    "vset.u32.u32.lt %r1{0}, %r2{1}, %r3{2}, %r4{3};",
    "vshl.u32.u32.u32.wrap %r1{0}, %r2{1}, %r3{2};",
    "vadd2.u32.u32.u32 %r1{0}, %r2{1}, %r3{2}, %r4{3};",
    "vavrg2.s32.s32.s32.add %r1{0}, %r2{1}, %r3{2}, %r4{3};",
    "vset2.u32.u32.ne %r1{0}, %r2{1}, %r3{2}, %r4{3};",
    "vabsdiff4.u32.u32.u32.add %r1{0}, %r2{1}, %r3{2}, %r4{3};",
    "vmax4.s32.s32.s32 %r1{0}, %r2{1}, %r3{2}, %r4{3};",
    "vset4.u32.u32.lt %r1{0}, %r2{1}, %r3{2}, %r4{3};",
    "add.u32 %r1{0}, %r2{1}, %r3{2};",
    "mov.b32 %r1{0}, %r2{1};",
];

const SELECTORS: &[&str] = &[
    "b0", "b3", "b4", "b7", "h0", "h1", "h2", "h3", "b", "h", "b10", "b20", "b31", "h10", "h01", "h22", "h32", "b012",
    "b0123", "b3210", "b7654", "b4444", "h012", "b01234", "bb", "h4", "x", "w",
];

/// Whole-instruction forms: operand counts and secondary operations.
const WHOLE: &[&str] = &[
    "vadd.u32.u32.u32 %r1, %r2;",
    "vadd.u32.u32.u32.add %r1, %r2, %r3;",
    "vmad.u32.u32.u32 %r1, %r2, %r3;",
    "vadd2.u32.u32.u32 %r1, %r2, %r3;",
    "vset4.u32.u32.lt %r1, %r2, %r3, %r4, %r5;",
    "vmax2.u32.u32.u32.max %r1, %r2, %r3, %r4;",
    "vset2.u32.u32.lt.min %r1, %r2, %r3, %r4;",
    "vadd4.u32.u32.u32.sat.add %r1, %r2, %r3, %r4;",
    "vadd.u32.u32.u32.sat.add %r1, %r2, %r3, %r4;",
    "vmax2.u32.u32.u32.max %r1, %r2, %r3, %r4.h10;",
];

fn lines() -> Vec<String> {
    let mut out: Vec<String> = WHOLE.iter().map(|s| s.to_string()).collect();
    for form in FORMS {
        let positions = (0..4).filter(|k| form.contains(&format!("{{{k}}}")));
        for k in positions {
            for sel in SELECTORS {
                let mut line = form.to_string();
                for j in 0..4 {
                    let with = if j == k { format!(".{sel}") } else { String::new() };
                    line = line.replace(&format!("{{{j}}}"), &with);
                }
                out.push(line);
            }
        }
    }
    out
}

fn module(lines: &[String]) -> String {
    sema_lines::one_kernel(".version 8.0\n.target sm_90\n.address_size 64\n", "\t.reg .b32 %r<9>;\n", lines)
}

#[test]
fn video_selectors_match_ptxas() {
    let lines = lines();
    let text = module(&lines);
    let ours = sema::check_source(text.as_bytes(), &sema::Options::new("v.ptx", "sm_90"));
    // Every selector outside `b0`–`b3`/`h0`/`h1` is refused on some position of a scalar
    // form, and every line of a non-video form with a selector is refused.
    let failing_lines: std::collections::BTreeSet<u32> =
        ours.diagnostics.iter().filter_map(|d| d.location.as_ref().map(|l| l.line)).collect();
    let plain = FORMS.iter().filter(|f| !f.starts_with('v')).map(|f| f.matches('{').count()).sum::<usize>();
    assert!(failing_lines.len() > plain * SELECTORS.len(), "{} lines refused", failing_lines.len());
    let Some(tools) = oracle::tools_or_skip("video_selectors_match_ptxas") else { return };
    let theirs = tools
        .ptxas_run(oracle::PtxInput::Text { name: "v.ptx", text: &text }, &["-arch", "sm_90"])
        .expect("ptxas runs");
    let (ours, theirs) = (ours.stderr(), theirs.stderr);
    if ours != theirs {
        let diff: Vec<String> = ours
            .lines()
            .zip(theirs.lines())
            .filter(|(a, b)| a != b)
            .take(10)
            .map(|(a, b)| format!("ours:   {a}\nptxas:  {b}"))
            .collect();
        panic!(
            "{} lines of ours, {} of ptxas; first differences:\n{}",
            ours.lines().count(),
            theirs.lines().count(),
            diff.join("\n")
        );
    }
}
