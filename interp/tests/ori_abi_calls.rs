//! The Ori interpreter runs a kernel with calls at every stage of the backend (issue 6): a
//! small module with a direct call, a recursive call (with `.param` scalars, passed in registers
//! after selection, `lower::param_regs`) and an indirect
//! call runs at raw Ori (PTX-stage `call`/`calli`), after instruction selection (the register
//! ABI of `ptxas_rs::lower::isel::call`: `CALL`/`RET`, arguments and results in R4.., frames
//! below R1) and after register allocation with the callee saves of
//! `ptxas_rs::regalloc::callee_save`; the outputs are equal at every stage.
//!
//! Negative checks (the comparison can fail): after allocation, a callee that overwrites every
//! general register it does not own right before its `RET`, without saving them, changes the
//! kernel's results (or makes it fault), since the caller's values live across the call in
//! those registers; the
//! same overwrites inserted before the callee saves are laid out are saved and restored, and
//! the results are equal again. An allocated callee whose epilogue does not release its frame
//! (R1 not back at the caller's value at `RET`) is reported as invalid.

use ptxas_rs::target::Target;
use std::collections::HashMap;

use interp::ExecConfig;
use interp::launch::LaunchSpec;
use interp::ori_exec::run_ori_with;
use interp::validate::param_addresses;
use ptxas_rs::lower;
use ptxas_rs::lower::isel::call::{module_abi, word_regs};
use ptxas_rs::ori::{FuncKind, Imm, InstData, Mods, Module, Opcode, Operand, PhysReg, Reg, RegFile};
use ptxas_rs::{ptx, regalloc};

const MODULE: &str = r#"
.version 8.0
.target sm_90
.address_size 64

.func (.reg .u32 r) twice(.reg .u32 a)
{
    .reg .u32 %t;
    mul.lo.u32 %t, a, 2;
    add.u32 r, %t, 1;
    ret;
}

.func (.param .b32 ret) sum(.param .b32 n, .param .b32 k)
{
    .reg .u32 %r<8>;
    .reg .pred %p;
    ld.param.u32 %r1, [n];
    ld.param.u32 %r2, [k];
    setp.eq.u32 %p, %r1, 0;
    mov.u32 %r5, 0;
    @%p bra DONE;
    add.u32 %r3, %r1, -1;
    {
    .param .b32 a0;
    .param .b32 a1;
    .param .b32 r0;
    st.param.b32 [a0], %r3;
    st.param.b32 [a1], %r2;
    call.uni (r0), sum, (a0, a1);
    ld.param.b32 %r4, [r0];
    }
    mul.lo.u32 %r6, %r1, %r2;
    add.u32 %r5, %r4, %r6;
DONE:
    st.param.b32 [ret], %r5;
    ret;
}

.func (.param .b32 r) add7(.param .b32 a)
{
    .reg .u32 %r<3>;
    ld.param.u32 %r1, [a];
    add.u32 %r2, %r1, 7;
    st.param.b32 [r], %r2;
    ret;
}

.func (.param .b32 r) mul3(.param .b32 a)
{
    .reg .u32 %r<3>;
    ld.param.u32 %r1, [a];
    mul.lo.u32 %r2, %r1, 3;
    st.param.b32 [r], %r2;
    ret;
}

.visible .entry k(.param .u64 out)
{
    .reg .u32 %r<16>;
    .reg .u64 %rd<8>;
    .reg .pred %p<2>;
    mov.u32 %r1, %tid.x;
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd1, %rd1;
    // values live across every call
    mul.lo.u32 %r2, %r1, 7;
    xor.b32 %r3, %r1, 0x55;
    // direct call
    call (%r4), twice, (%r1);
    // recursive call, depth differing per lane
    and.b32 %r5, %r1, 7;
    {
    .param .b32 a0;
    .param .b32 a1;
    .param .b32 r0;
    st.param.b32 [a0], %r5;
    st.param.b32 [a1], %r3;
    call.uni (r0), sum, (a0, a1);
    ld.param.b32 %r6, [r0];
    }
    // indirect call: add7 on even lanes, mul3 on odd ones
    and.b32 %r7, %r1, 1;
    setp.eq.u32 %p1, %r7, 0;
    mov.u64 %rd2, add7;
    mov.u64 %rd3, mul3;
    selp.b64 %rd4, %rd2, %rd3, %p1;
    {
    .param .b32 b0;
    .param .b32 s0;
    st.param.b32 [b0], %r4;
    proto: .callprototype (.param .b32 _) _ (.param .b32 _);
    call (s0), %rd4, (b0), proto;
    ld.param.b32 %r8, [s0];
    }
    add.u32 %r9, %r2, %r3;
    mul.wide.u32 %rd5, %r1, 16;
    add.u64 %rd6, %rd1, %rd5;
    st.global.u32 [%rd6], %r4;
    st.global.u32 [%rd6+4], %r6;
    st.global.u32 [%rd6+8], %r8;
    st.global.u32 [%rd6+12], %r9;
    ret;
}
"#;

const SPEC: &str = r#"
kernel = "k"
grid = [1, 1, 1]
block = [128, 1, 1]
[[param]]
buffer = "out"
[buffer.out]
type = "u32"
len = 512
init = { fill = 0 }
output = true
"#;

/// The raw and the selected module, with what selection and allocation need.
struct Stages {
    raw: Module,
    selected: Module,
    frames: Vec<u64>,
    addr: HashMap<String, Vec<bool>>,
}

fn stages() -> Stages {
    let ast = ptx::parse(MODULE, "abi_calls.ptx").expect("parses");
    let (raw, frames) = lower::lower_module_framed(&ast).expect("lowers");
    let addr = param_addresses(&ast);
    let mut selected = raw.clone();
    // Selection without the standard pipeline: the legalization bridge first, as isel needs.
    ptxas_rs::opt::Pipeline::before_selection()
        .run(&mut selected, &ptxas_rs::opt::PipelineOptions::default(), &mut [])
        .expect("the bridge runs");
    lower::isel::select_module_abi(&mut selected, &Target::default(), &frames, &addr).expect("selects");
    ptxas_rs::ori::verify_module(&selected).expect("the selection verifies");
    Stages { raw, selected, frames, addr }
}

/// General registers a callee does not own (its parameter and return words) nor the ABI
/// reserves (R1, the stack pointer): R0, R2.. up to R31.
fn foreign_regs(own: &[PhysReg]) -> Vec<PhysReg> {
    (0..32u16).filter(|&k| k != 1 && !own.iter().any(|o| o.index == k)).map(|k| PhysReg::new(RegFile::R, k)).collect()
}

/// Inserts `MOV Rk, 0xdead0000+k` for every register of `regs` right before every `RET` of `f`.
fn clobber_before_ret(f: &mut ptxas_rs::ori::Function, regs: &[PhysReg]) {
    let rets: Vec<_> = f.inst_order().filter(|&(_, i)| f.insts[i].opcode == Opcode::RET).collect();
    for (b, ret) in rets {
        let mut movs = Vec::new();
        for r in regs {
            let v = Operand::Imm(Imm::Int(0xdead_0000 + i64::from(r.index)));
            movs.push(f.insts.push(InstData::new(Opcode::MOV, Mods::new(), vec![Reg::Phys(*r)], vec![v])));
        }
        let pos = f.blocks[b].insts.iter().position(|&i| i == ret).unwrap();
        f.blocks[b].insts.splice(pos..pos, movs);
    }
}

/// Allocates every function of the selected module as the backend does; the device functions
/// get their callee saves. `clobber`: `Some(before_saves)` overwrites the foreign registers
/// in `twice` before its RET, before or after the saves are laid out.
fn allocate(s: &Stages, clobber: Option<bool>) -> Module {
    let mut m = s.selected.clone();
    let abis = module_abi(&s.raw, &s.addr);
    let opts = regalloc::Options::default();
    for (f, &locals) in m.functions.iter_mut().zip(&s.frames) {
        let before = f.clone();
        let report = regalloc::allocate_function(f, &opts).unwrap_or_else(|e| panic!("@{}: {e}", f.name));
        regalloc::check(&before, f).unwrap_or_else(|e| panic!("@{}: {e}", f.name));
        regalloc::split_components(f).unwrap_or_else(|e| panic!("@{}: {e}", f.name));
        if f.kind != FuncKind::Func {
            continue;
        }
        let abi = abis.get(&f.name).cloned().unwrap_or_default();
        let classes: Vec<_> = abi.params.iter().map(|p| p.0).collect();
        let mut own = word_regs(&classes).unwrap();
        own.extend(word_regs(&abi.rets).unwrap());
        let target = f.name == "twice";
        if target && clobber == Some(true) {
            clobber_before_ret(f, &foreign_regs(&own));
        }
        regalloc::callee_save::finish(f, locals as u32, report.frame_bytes, &own)
            .unwrap_or_else(|e| panic!("@{}: {e}", f.name));
        if target && clobber == Some(false) {
            clobber_before_ret(f, &foreign_regs(&own));
        }
    }
    m
}

/// The kernel's output buffer, or the interpreter's error.
fn try_run(m: &Module) -> Result<Vec<u8>, String> {
    let spec = LaunchSpec::from_toml_str(SPEC).unwrap();
    let exec = ExecConfig { local_bytes: 16 * 1024, ..ExecConfig::default() };
    let out = run_ori_with(m, &spec.kernel, &spec, &exec).map_err(|e| e.to_string())?;
    Ok(out.get("out").unwrap().to_vec())
}

fn run(m: &Module) -> Vec<u8> {
    try_run(m).unwrap_or_else(|e| panic!("{e}"))
}

fn word(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap())
}

#[test]
fn calls_give_the_same_results_at_every_stage() {
    let s = stages();
    let has = |m: &Module, op: Opcode| m.functions.iter().any(|f| f.inst_order().any(|(_, i)| f.insts[i].opcode == op));
    assert!(has(&s.raw, Opcode::Call) && has(&s.raw, Opcode::Calli), "raw Ori calls with call and calli");
    assert!(has(&s.selected, Opcode::CALL) && has(&s.selected, Opcode::RET), "selected code calls with CALL/RET");
    assert!(!has(&s.selected, Opcode::Call) && !has(&s.selected, Opcode::Calli));
    let raw = run(&s.raw);
    // The expected values, computed here: the interpreter runs the calls at all.
    for tid in 0..128u32 {
        let twice = tid * 2 + 1;
        let k = tid ^ 0x55;
        let n = tid & 7;
        let sum: u32 = (1..=n).map(|i| i * k).sum();
        let ind = if tid & 1 == 0 { twice + 7 } else { twice * 3 };
        let at = 4 * tid as usize;
        assert_eq!(
            [word(&raw, at), word(&raw, at + 1), word(&raw, at + 2), word(&raw, at + 3)],
            [twice, sum, ind, tid * 7 + k],
            "thread {tid}"
        );
    }
    assert_eq!(run(&s.selected), raw, "after instruction selection");
    let allocated = allocate(&s, None);
    assert!(allocated.functions.iter().all(|f| f.allocated));
    assert_eq!(run(&allocated), raw, "after register allocation");
}

#[test]
fn a_callee_that_clobbers_unsaved_registers_changes_the_results() {
    let s = stages();
    let raw = run(&s.raw);
    // Overwrites after the saves are laid out: nothing restores the caller's registers.
    // (A clobbered address may also fault: either way the run does not give the results.)
    let broken = try_run(&allocate(&s, Some(false)));
    assert_ne!(broken, Ok(raw.clone()), "a callee clobbering the caller's registers must change the results");
    // The same overwrites before the saves are laid out are saved and restored.
    assert_eq!(run(&allocate(&s, Some(true))), raw, "saved clobbers are invisible to the caller");
}

/// An allocated callee must release its frame: without the epilogue's `IADD3 R1, R1, F+S+Z`
/// the interpreter reports the unbalanced stack pointer at the return.
#[test]
fn an_allocated_callee_that_keeps_its_frame_is_refused() {
    let s = stages();
    let mut m = allocate(&s, None);
    let f = m.functions.iter_mut().find(|f| f.name == "sum").unwrap();
    let r1 = Reg::Phys(PhysReg::new(RegFile::R, 1));
    let mut removed = 0;
    for b in f.layout.clone() {
        let insts = f.blocks[b].insts.clone();
        let Some(ret) = insts.iter().position(|&i| f.insts[i].opcode == Opcode::RET) else { continue };
        let release = insts[..ret].iter().rposition(|&i| f.insts[i].opcode == Opcode::IADD3 && f.insts[i].dsts == [r1]);
        if let Some(k) = release {
            f.blocks[b].insts.remove(k);
            removed += 1;
        }
    }
    assert!(removed > 0, "@sum releases its frame before its RET");
    let e = try_run(&m).unwrap_err();
    assert!(e.contains("returned with the stack pointer R1"), "{e}");
}
