//! `setmaxnreg` and the register count at a kernel's entry, as ptxas 13.0.88 treats them
//! (measured with `ptxas -arch sm_90a`): the instruction only means something when the count
//! the kernel starts with is known. With `.maxnreg N` it is N (the kernel's REGCOUNT is then N,
//! whatever the allocator used). Without any directive that fixes it (no `.maxnreg`; a
//! `.maxntid` alone does not), ptxas prints, once per kernel, the info
//! `(C7508) Potential Performance Loss: 'setmaxnreg' ignored; unable to determine register
//! count at entry.` and emits no code for the kernel's `setmaxnreg`s.
//!
//! Not supported yet (a located error): the count ptxas derives from `.maxntid`/`.reqntid`
//! with `.minnctapersm`, and `setmaxnreg` in a device function.
//!
//! Invariant: after [`resolve`], `setmaxnreg` remains only in kernels with `.maxnreg`.

use crate::ori::{FuncKind, Module, Opcode};
use crate::ptx::ast;

use super::LowerError;

/// ptxas's info, without its `ptxas info    : ` tag.
pub const C7508: &str =
    "(C7508) Potential Performance Loss: 'setmaxnreg' ignored; unable to determine register count at entry.";

/// The register count at the entry of kernel `f` when its directives fix it for
/// `setmaxnreg` (`.maxnreg`); `Err` for the forms not supported yet.
fn entry_count(f: &ast::Function) -> Result<Option<u32>, String> {
    let has = |p: fn(&ast::FuncDirective) -> bool| f.directives.iter().any(p);
    if let Some(n) = f.directives.iter().find_map(|d| match d {
        ast::FuncDirective::MaxNReg(n) => n.value().and_then(|v| u32::try_from(v).ok()),
        _ => None,
    }) {
        return Ok(Some(n));
    }
    let threads = has(|d| matches!(d, ast::FuncDirective::MaxNTid(_) | ast::FuncDirective::ReqNTid(_)));
    if threads && has(|d| matches!(d, ast::FuncDirective::MinNCtaPerSm(_))) {
        return Err(
            "`setmaxnreg` with the entry register count from .maxntid/.reqntid and .minnctapersm is not supported yet"
                .into(),
        );
    }
    Ok(None)
}

/// Drops the `setmaxnreg`s of kernels whose entry count is unknown; returns ptxas's info for
/// each such kernel, in module order.
pub fn resolve(m: &mut Module, module: &ast::Module) -> Result<Vec<String>, LowerError> {
    let mut infos = Vec::new();
    for f in &mut m.functions {
        let found: Vec<_> = f.insts.iter().filter(|(_, d)| d.opcode == Opcode::Setmaxnreg).map(|(i, _)| i).collect();
        if found.is_empty() {
            continue;
        }
        let fail = |message: String| LowerError { line: 0, column: 0, function: Some(f.name.clone()), message };
        if f.kind != FuncKind::Entry {
            return Err(fail("`setmaxnreg` in a device function is not supported yet".into()));
        }
        let decl = module.items.iter().find_map(|i| match i {
            ast::Item::Function(a) if a.name.name == f.name && a.body.is_some() => Some(a),
            _ => None,
        });
        let count = match decl {
            Some(a) => entry_count(a).map_err(fail)?,
            None => None,
        };
        if count.is_some() {
            continue;
        }
        infos.push(C7508.to_owned());
        for (_, b) in f.blocks.iter_mut() {
            b.insts.retain(|i| !found.contains(i));
        }
    }
    Ok(infos)
}
