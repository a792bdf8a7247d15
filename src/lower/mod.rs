//! Lowering: the checked PTX syntax tree to raw, PTX-stage Ori.
//!
//! [`lower_module`] turns every defined `.entry` and `.func` of a PTX module into an Ori
//! [`Function`](crate::ori::Function) of PTX-stage opcodes (not SSA: PTX registers become
//! virtual registers that may be written many times), and every module-scope (and
//! function-scope `.shared`/`.global`/`.const`) variable into an Ori
//! [`ModuleVar`](crate::ori::ModuleVar). One module per concern:
//!
//! | module | concern |
//! |---|---|
//! | [`types`] | PTX types, register classes, literals, constant expressions |
//! | [`mods`] | sorting an instruction's modifiers |
//! | [`vars`] | module variables: layout and initial bytes |
//! | [`func`] | one function: registers and scopes, blocks and labels, the frame, operands, guards |
//! | `arith` | integer, float, bit, compare/select and conversion instructions |
//! | `memory` | loads, stores, atomics, address-of, `cvta`, `isspacep`, hints |
//! | `control` | branches, `brx.idx`, calls and returns, barriers and fences |
//! | `warp` | shuffles, votes, match, redux, activemask |
//! | `mbarrier` | `mbarrier.*`, `cp.async.mbarrier.arrive`, bulk copies completing on an mbarrier |
//! | `tensor` | `ldmatrix`, `mma`, `wmma`, `cp.async`, SIMD video and packed 16-bit integer arithmetic |
//! | `video` | scalar video (`vadd` ... `vmad`), expanded into 64-bit integer arithmetic as ptxas does |
//! | `texture` | `tex`, `tld4`, `txq`, `suld.b`, `sust.b`, `suq` through bindless handles |
//! | `wgmma` | warpgroup MMA (sm_90a): `wgmma.fence`, `wgmma.mma_async`, `wgmma.commit_group`, `wgmma.wait_group` |
//!
//! # Blocks
//!
//! A label starts a block; a terminator (`bra`, `brx`, `ret`, `exit`) ends one. A guarded
//! terminator falls through to the next block of the layout, which is the code that follows
//! it in the source. A block that would fall into a label gets an explicit `bra`. A function
//! whose last statement is not an unguarded terminator ends with `ret` (`.func`) or `exit`.
//!
//! # The `.func` ABI (raw Ori)
//!
//! Every function has a frame in local memory: its `.local` variables and the `.param`
//! variables declared in its body (call arguments and results), at fixed offsets from its
//! frame base `%sp` (a 32-bit local address). A kernel's frame base is 0. A callee's frame
//! starts right after its caller's frame, so recursion works to any depth local memory allows.
//!
//! An Ori function lowered from `.func (rets) f (params)` takes, in order: its frame base;
//! for each `.reg` parameter and each `.param` scalar passed in registers ([`param_regs`]:
//! 4- and 8-byte scalars whose words fit in R4..R15, as ptxas passes them) its value, for each
//! other `.param` parameter the local address of the argument; for each `.param` return
//! parameter passed in memory the local address to store it to. Its Ori return values are its
//! `.reg` return parameters and its `.param` results passed in registers, in order. So
//! `ld.param [p+4]` of a memory-passed `p` in a callee is a `ld local[%p + 4]` and its
//! argument is passed by the address of the caller's variable (a register or immediate
//! argument for it is first stored in a fresh frame slot); a register-passed scalar's whole
//! `ld.param`/`st.param` is a `mov` of its register, on both sides, unless its name is used in
//! another way, in which case that side keeps it in a frame slot ([`param_regs`]). Which
//! passing a parameter gets depends on the signature only ([`Sig::of_func`]).
//!
//! Kernel parameters live in param space at their ABI offsets (each aligned to its size or its
//! `.align`): `ld.param [k_param_1]` is `ld param[8]`.
//!
//! Function addresses (`mov.u64 %rd, f`, initializers, indirect calls) are
//! [`Module::function_address`](crate::ori::Module::function_address) of the function's index.
//!
//! # Errors
//!
//! Nothing panics: a construct this lowering does not support is a [`LowerError`] with the
//! source line and column and the function it is in.

mod arith;
mod barrier;
mod control;
mod cvt_pack;
pub mod entry_regs;
pub mod func;
pub mod isel;
mod mbarrier;
mod memory;
pub mod mods;
pub mod param_regs;
mod tensor;
mod texture;
pub mod types;
pub mod vars;
mod video;
mod warp;
mod wgmma;

use std::collections::HashMap;
use std::fmt;

use crate::ori::{self, RegClass};
use crate::ptx::ast::{self, Item, Span};

/// A located lowering error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerError {
    /// 1-based source line (0 when unknown).
    pub line: u32,
    /// 1-based column (0 when unknown).
    pub column: u32,
    /// The function being lowered, if any.
    pub function: Option<String>,
    /// What is wrong or unsupported.
    pub message: String,
}

impl LowerError {
    /// An error at `span`.
    pub fn at(span: Span, message: impl Into<String>) -> LowerError {
        LowerError { line: span.line, column: span.column, function: None, message: message.into() }
    }
}

impl fmt::Display for LowerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, col {}", self.line, self.column)?;
        if let Some(func) = &self.function {
            write!(f, " (in `{func}`)")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for LowerError {}

/// The result type of lowering steps.
pub type Result<T> = std::result::Result<T, LowerError>;

/// How a parameter or return value travels across a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Passing {
    /// A `.param` variable in memory (a kernel's parameter, a `.func`'s aggregate, array,
    /// vector, 1- or 2-byte scalar, or a scalar past R15): its local address is passed.
    Mem {
        /// Size in bytes.
        size: u64,
        /// Alignment.
        align: u64,
    },
    /// A `.reg` value of this class and PTX type.
    Reg(RegClass, String),
    /// A `.param` scalar of a `.func` passed in registers of this class ([`param_regs`]):
    /// its size in bytes (4 or 8).
    ParamReg(RegClass, u64),
}

/// A function's calling signature.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Sig {
    /// Parameters, in order.
    pub params: Vec<Passing>,
    /// Return parameters, in order.
    pub rets: Vec<Passing>,
}

impl Sig {
    /// The signature of a parameter list pair, every `.param` in memory (a kernel's).
    pub fn of(rets: Option<&[ast::Param]>, params: Option<&[ast::Param]>) -> Result<Sig> {
        Sig::of_passing(rets, params, false)
    }

    /// The signature of a `.func` or `.callprototype`: [`Sig::of`] with the `.param` scalars
    /// of 4 and 8 bytes passed in registers ([`param_regs`]).
    pub fn of_func(rets: Option<&[ast::Param]>, params: Option<&[ast::Param]>) -> Result<Sig> {
        Sig::of_passing(rets, params, true)
    }

    fn of_passing(rets: Option<&[ast::Param]>, params: Option<&[ast::Param]>, regs: bool) -> Result<Sig> {
        let one = |p: &ast::Param| -> Result<Passing> {
            let size = types::size_of(&p.ty.text)
                .ok_or_else(|| LowerError::at(p.span, format!("parameter type `{}`", p.ty.text)))?;
            if p.space.text == ".reg" {
                let c = types::class_of(&p.ty.text)
                    .ok_or_else(|| LowerError::at(p.span, format!("register parameter type `{}`", p.ty.text)))?;
                return Ok(Passing::Reg(c, p.ty.text.trim_start_matches('.').to_owned()));
            }
            let n = vars::array_len(&p.decl.shape, p.span)?.unwrap_or(1);
            let mut align = size;
            for a in p.pre.iter().chain(&p.post) {
                if let ast::DeclAttr::Align(l) = a {
                    align = l.value().unwrap_or(size).max(1);
                }
                if let ast::DeclAttr::Vector(v) = a {
                    align = size * u64::from(*v);
                }
            }
            let vec = p.pre.iter().chain(&p.post).find_map(|a| match a {
                ast::DeclAttr::Vector(v) => Some(u64::from(*v)),
                _ => None,
            });
            let scalar = matches!(p.decl.shape, ast::Shape::Scalar) && vec.is_none();
            if regs
                && scalar
                && let Some(c) = param_regs::class_of_size(size)
            {
                return Ok(Passing::ParamReg(c, size));
            }
            Ok(Passing::Mem { size: size * n * vec.unwrap_or(1), align })
        };
        let mut sig = Sig {
            params: params.unwrap_or(&[]).iter().map(one).collect::<Result<_>>()?,
            rets: rets.unwrap_or(&[]).iter().map(one).collect::<Result<_>>()?,
        };
        param_regs::within_registers(&mut sig.params);
        param_regs::within_registers(&mut sig.rets);
        Ok(sig)
    }
}

/// What every function's lowering can see of the module.
#[derive(Debug, Default)]
pub struct ModCx {
    /// Signatures of every declared or defined function, by name (aliases included).
    pub sigs: HashMap<String, Sig>,
    /// The function each alias names.
    pub aliases: HashMap<String, String>,
    /// Index of each defined function in the Ori module.
    pub func_index: HashMap<String, usize>,
    /// Module variables (name → space).
    pub vars: HashMap<String, ori::Space>,
}

impl ModCx {
    /// The defined function `name` resolves to (through aliases).
    pub fn resolve<'a>(&'a self, name: &'a str) -> &'a str {
        self.aliases.get(name).map_or(name, String::as_str)
    }
}

/// Parses PTX source, checks it as ptxas's front end does for its own `.target` (the last name
/// listed, as `-arch`), and lowers it. The first error the front end reports is returned with
/// its line, so lowering only ever sees modules ptxas accepts.
pub fn lower_source(text: &str) -> Result<ori::Module> {
    let m = crate::ptx::parse(text, "input.ptx").map_err(|e| LowerError {
        line: 0,
        column: 0,
        function: None,
        message: format!("parse error: {e}"),
    })?;
    let arch = m.target.names.last().map_or_else(String::new, |n| n.name.clone());
    let report = crate::ptx::sema::check(&m, text.as_bytes(), &crate::ptx::sema::Options::new("input.ptx", &arch));
    if let Some(d) = report.diagnostics.iter().find(|d| d.severity.is_error()) {
        return Err(LowerError {
            line: d.location.as_ref().map_or(0, |l| l.line),
            column: 0,
            function: None,
            message: d.message.clone(),
        });
    }
    lower_module(&m)
}

/// Lowers a parsed (and checked) PTX module to raw PTX-stage Ori.
pub fn lower_module(m: &ast::Module) -> Result<ori::Module> {
    lower_module_framed(m).map(|(m, _)| m)
}

/// [`lower_module`], also returning each function's local frame size in bytes (in the order of
/// the module's functions; see [`func::lower_function_framed`]).
pub fn lower_module_framed(m: &ast::Module) -> Result<(ori::Module, Vec<u64>)> {
    let mut frames = Vec::new();
    let mut cx = ModCx::default();
    let mut defined = Vec::new();
    for item in &m.items {
        match item {
            Item::Function(f) => {
                let sig = match f.kind {
                    ast::FunctionKind::Func => Sig::of_func(f.returns.as_deref(), f.params.as_deref())?,
                    ast::FunctionKind::Entry => Sig::of(f.returns.as_deref(), f.params.as_deref())?,
                };
                cx.sigs.insert(f.name.name.clone(), sig);
                if f.body.is_some() {
                    cx.func_index.insert(f.name.name.clone(), defined.len());
                    defined.push(f);
                }
            }
            Item::Alias(a) => {
                cx.aliases.insert(a.alias.name.clone(), a.aliasee.name.clone());
            }
            _ => {}
        }
    }
    for (a, b) in cx.aliases.clone() {
        if let Some(s) = cx.sigs.get(&b).cloned() {
            cx.sigs.insert(a, s);
        }
    }
    // Names first, so that initializers can take the address of any module variable.
    for item in &m.items {
        if let Item::Var(v) = item
            && let Some(space) = vars::static_space(v)
        {
            for d in &v.decls {
                cx.vars.insert(d.name.name.clone(), space);
            }
        }
    }
    let mut out = ori::Module::default();
    for item in &m.items {
        if let Item::Var(v) = item {
            for var in vars::lower_var(v, &cx, None)? {
                cx.vars.insert(var.name.clone(), var.space);
                out.vars.push(var);
            }
        }
    }
    // Function-scope static variables (shared, global, const) become module variables, named
    // `function.variable`.
    for f in &defined {
        let mut found = Vec::new();
        vars::collect_static(f.body.as_deref().unwrap_or(&[]), &mut found);
        for v in found {
            for var in vars::lower_var(v, &cx, Some(&f.name.name))? {
                cx.vars.insert(var.name.clone(), var.space);
                out.vars.push(var);
            }
        }
    }
    for f in &defined {
        let (lowered, frame) = func::lower_function_framed(f, &cx).map_err(|mut e| {
            e.function.get_or_insert_with(|| f.name.name.clone());
            e
        })?;
        out.functions.push(lowered);
        frames.push(frame);
    }
    Ok((out, frames))
}
