//! Instruction checks: recognition through the instruction table ([`crate::ptx::isa`]),
//! modifiers and types, operand counts, symbol resolution of operands, special-register and
//! instruction gates, and the few value checks ptxas makes while parsing (barrier numbers,
//! non-`.sync` shfl/vote, `.aligned` on wmma/mma).
//!
//! A parenthesised operand list outside `call` is ptxas's syntax error (fatal) at its first
//! token that cannot continue a constant expression, reported right after the unknown
//! modifiers (the parser keeps such lists for `call`).
//!
//! Order within one instruction (as ptxas prints): unknown opcode; unknown modifiers; illegal
//! types; operand symbols (an unknown register gives `Arguments mismatch` now and `Unknown
//! symbol` at the end of the function); operand count; value checks; gates.

use super::decls::{Late, Module};
use super::messages as msg;
use super::scope::{FuncScope, Global};
use super::{Ctx, Fatal, Sink, sreg};
use crate::ptx::ast::*;
use crate::ptx::isa::{GateStyle, Isa, OperandKind, WmmaType};

/// The extern functions ptxas 13.0.88 resolves itself (probed: any prototype; other names,
/// `memcpy`, `__trap`, `cudaGetParameterBufferV2`, stay unresolved).
pub const SYSTEM_FUNCTIONS: &[&str] = &["vprintf", "malloc", "free", "__assertfail"];

/// Checks one instruction.
pub fn check(
    ins: &Instruction,
    ctx: &Ctx<'_>,
    sink: &mut Sink,
    md: &Module,
    fs: &FuncScope,
    deferred: &mut Vec<(u32, String)>,
    late: &mut Late,
) -> Result<(), Fatal> {
    check_instruction(ins, ctx, sink, md, fs, deferred, late)?;
    // A `.vN` after the type (`ld.global.u32.v2`): accepted with a warning after the line's
    // other diagnostics (probed on ld, st, mov).
    let isa = Isa::get();
    let mods: Vec<&str> = ins.modifiers.iter().map(|m| m.text.as_str()).collect();
    let vector_at = mods.iter().position(|m| m.strip_prefix(".v").is_some_and(|n| n.parse::<u32>().is_ok()));
    if let Some(v) = vector_at
        && mods[..v].iter().any(|m| isa.is_type(m))
    {
        sink.at(ins.opcode.span.line, msg::VECTOR_TYPE_ORDER, &[])?;
    }
    Ok(())
}

fn check_instruction(
    ins: &Instruction,
    ctx: &Ctx<'_>,
    sink: &mut Sink,
    md: &Module,
    fs: &FuncScope,
    deferred: &mut Vec<(u32, String)>,
    late: &mut Late,
) -> Result<(), Fatal> {
    let isa = Isa::get();
    let line = ins.opcode.span.line;
    let all_mods: Vec<&str> = ins.modifiers.iter().map(|m| m.text.as_str()).collect();
    // A compound opcode of the table (`st.async`, `red.async`, `cvt.pack`): ptxas names the
    // instruction by both words; its first modifier is part of the opcode. Gates still match
    // on the opcode and every modifier.
    let compound = all_mods.first().map(|m| format!("{}{m}", ins.opcode.name)).filter(|c| isa.lookup(c).is_some());
    let op = compound.as_deref().unwrap_or(ins.opcode.name.as_str());
    let mods: Vec<&str> = all_mods[usize::from(compound.is_some())..].to_vec();
    let (gate_op, gate_mods) = (ins.opcode.name.as_str(), &all_mods);
    let spec = isa.lookup(op);
    // Modifiers known only to other opcodes' vocabularies (for opcodes without one; the
    // others are reported with the vocabulary check below), and for an unknown opcode every
    // unknown modifier: all before `Not a name of any known instruction`.
    let mut unknown = false;
    if spec.is_none_or(|s| s.vocab.is_none()) {
        let unknown_here =
            |m: &&&str| isa.unknown_outside_vocab(spec, m) || (spec.is_none() && !isa.is_known_modifier(m));
        for m in mods.iter().filter(unknown_here) {
            unknown = true;
            sink.at(line, msg::UNKNOWN_MODIFIER, &[m])?;
        }
    }
    if spec.is_none() {
        list_syntax(ins, sink)?;
    }
    let Some(spec) = spec else {
        return sink.at(line, msg::UNKNOWN_INSTRUCTION, &[op]);
    };
    gates(gate_op, gate_mods, line, ctx, sink, true)?;
    for (words, key) in isa.exclusive_groups(op) {
        if mods.iter().filter(|m| words.iter().any(|w| m.get(1..) == Some(*w))).count() > 1
            && let Some(m) = msg::by_key(key)
        {
            sink.at(line, m, &[])?;
        }
    }
    // A known modifier outside the opcode's vocabulary, with its class (see
    // `table::MODIFIER_CLASSES`; `?` when unclassified).
    let single_type = {
        let mut t = mods.iter().filter(|m| isa.is_type(m));
        match (t.next(), t.next()) {
            (Some(t), None) => t.get(1..),
            _ => None,
        }
    };
    // All type suffixes, dot-joined without the leading dot (`f32.s32`), for vocabulary
    // conditions of multi-type opcodes.
    let joined_types = {
        let t: Vec<&str> = mods.iter().filter(|m| isa.is_type(m)).filter_map(|m| m.get(1..)).collect();
        (!t.is_empty()).then(|| t.join("."))
    };
    let vocab_type = single_type.or(joined_types.as_deref());
    let outside = |m: &str| -> Option<char> {
        spec.vocab.as_ref()?;
        let inside = !isa.is_known_modifier(m) || isa.is_type(m) || spec.accepts(m, vocab_type);
        // A vocabulary word refused only for this type is an illegal modifier.
        let word_known = spec.accepts(m, None);
        let class = isa.modifier_class(m);
        (!inside).then(|| if word_known && class != Some('R') { 'I' } else { class.unwrap_or('I') })
    };
    for m in &mods {
        if !isa.is_known_modifier(m) || outside(m) == Some('U') {
            unknown = true;
            sink.at(line, msg::UNKNOWN_MODIFIER, &[m])?;
        }
    }
    list_syntax(ins, sink)?;
    let dname = spec.display_name(&mods);
    if mods.iter().filter(|m| **m == ".ftz").count() > 1 {
        sink.at(line, msg::DUPLICATE_FTZ, &[])?;
    }
    // Two size modes (`mul.wide.u32.hi`).
    if isa.has_size_modes(op) {
        let modes: Vec<&str> = mods.iter().copied().filter(|m| matches!(*m, ".hi" | ".lo" | ".wide")).collect();
        if let [first, second, ..] = modes[..] {
            let name = format!("{op}{first}");
            if second == ".wide" {
                sink.at(line, msg::UNKNOWN_MODIFIER, &[second])?;
                return sink.at(line, msg::ARGUMENTS_MISMATCH, &[&name]);
            }
            return sink.at(line, msg::COMPARISON_NOT_ALLOWED, &[&name]);
        }
    }
    // `-reg` on anything but a 32-bit integer register is refused while parsing.
    let mut negated = false;
    for o in &ins.operands {
        if let Operand::Expr(Expr { kind: ExprKind::Unary(UnOp::Neg, inner), .. }) = o
            && let ExprKind::Sym(id, _) = &inner.kind
            && id.name != "WARP_SZ"
        {
            negated = true;
            let ok = match classify_sym(id, fs) {
                Val::Reg(Some(t)) => matches!(t, "b32" | "u32" | "s32"),
                Val::NonReg => false,
                _ => true,
            };
            if !ok {
                sink.at(line, msg::UNARY_MINUS, &[])?;
            }
        }
    }
    let types: Vec<&str> = mods.iter().copied().filter(|m| isa.is_type(m)).collect();
    let legal = spec.types_for(&mods);
    // An opcode with a vocabulary takes a single type suffix.
    let too_many = match isa.type_count(op) {
        Some(n) => types.len() != n,
        None => spec.vocab.is_some() && types.len() > 1,
    };
    let types_bad = (isa.type_count(op).is_some() && too_many)
        || types.iter().any(|t| isa.illegal_type(op, t))
        || !legal.is_empty()
            && (too_many || types.iter().any(|t| !legal.contains(&&t[1..])) || (unknown && types.is_empty()));
    if types_bad {
        sink.at(line, msg::UNEXPECTED_TYPES, &[&dname])?;
    }
    // wmma.load/wmma.store: the type against the matrix (before the operands) and the shape
    // (after them).
    let wmma = wmma_parts(op, &mods).zip(single_type).map(|((matrix, shape), ty)| isa.wmma_type(matrix, shape, ty));
    let types_bad =
        types_bad || matches!(wmma, Some(WmmaType::Illegal | WmmaType::Unexpected | WmmaType::UnexpectedTwice));
    match wmma {
        Some(WmmaType::Illegal) => return sink.at(line, msg::WMMA_ILLEGAL_TYPE, &[&dname]),
        Some(WmmaType::Unexpected) => sink.at(line, msg::UNEXPECTED_TYPES, &[&dname])?,
        Some(WmmaType::UnexpectedTwice) => {
            sink.at(line, msg::UNEXPECTED_TYPES, &[&dname])?;
            sink.at(line, msg::UNEXPECTED_TYPES, &[&dname])?;
        }
        _ => {}
    }
    let roundings = mods.iter().filter(|m| isa.modifier_class(m) == Some('R')).count();
    if roundings > 1 {
        sink.at(line, msg::MULTIPLE_ROUNDING, &[])?;
    }
    if spec.vocab.as_ref().is_some_and(|v| v.iter().any(|w| is_state_space(&format!(".{w}"))))
        && mods.iter().filter(|m| is_state_space(m)).count() > 1
    {
        sink.at(line, msg::MULTIPLE_SPACES, &[&dname])?;
    }
    // Modifiers outside the vocabulary, by class: an illegal one ends the instruction's
    // checks; spaces, roundings, queries and comparisons are reported after the operands
    // (and only when they fit).
    let mut late_classes: Vec<char> = Vec::new();
    if !types_bad {
        let classes: Vec<(&str, char)> = mods.iter().filter_map(|m| outside(m).map(|c| (*m, c))).collect();
        if let Some((m, c)) = classes.iter().find(|(_, c)| matches!(c, 'I' | 'K' | 'D')) {
            let m = if *c == 'K' { "Clamp" } else { m };
            if *c == 'D' {
                sink.at(line, msg::ILLEGAL_MODIFIER, &[m, &dname])?;
            }
            return sink.at(line, msg::ILLEGAL_MODIFIER, &[m, &dname]);
        }
        late_classes = classes.iter().map(|(_, c)| *c).collect();
    }
    // A branch target that names a register, variable or function.
    if op == "bra"
        && let [Operand::Expr(Expr { kind: ExprKind::Sym(id, None), .. })] = &ins.operands[..]
        && !fs.has_label(id.name.as_str())
    {
        let name = id.name.as_str();
        let var = matches!(md.globals.get(name), Some(Global::Var { .. }));
        if fs.lookup(name).is_some() || md.globals.contains_key(name) {
            sink.at(line, msg::LABEL_EXPECTED, &["0", op])?;
            if var && fs.lookup(name).is_none() {
                sink.at(line, msg::MUST_BE_REGISTER, &["0", op])?;
            }
            return Ok(());
        }
    }
    // An indirect call (a register target) without a prototype or target list after its
    // argument list (probed: `call %rd1, ();`, `call (%r1), %rd1, ();`, `call %rd1;` are
    // `Label expected for argument 0`, whatever the position of the target, then the fatal
    // `Call target not recognized`).
    if op == "call"
        && let Some(t) = (0..ins.operands.len()).find(|&i| is_call_target(ins, i))
        && let Some(Operand::Expr(Expr { kind: ExprKind::Sym(id, None), .. })) = ins.operands.get(t)
        && fs.lookup(&id.name).is_some()
        && !fs.has_label(id.name.as_str())
        && (t + 1 == ins.operands.len() || matches!(ins.operands.last(), Some(Operand::List(..))))
    {
        sink.at(line, msg::LABEL_EXPECTED, &["0", op])?;
        return sink.at(line, msg::CALL_TARGET_UNRECOGNIZED, &[]);
    }
    // A special register as the destination of an instruction that reads them.
    if isa.sreg_dest_checked(op)
        && spec.operands.is_none_or(|(lo, hi)| (lo..=hi).contains(&ins.operands.len()))
        && let Some(Operand::Expr(Expr { kind: ExprKind::Sym(id, _), .. })) = ins.operands.first()
        && sreg::lookup(&id.name).is_some()
    {
        sink.at(line, msg::READONLY_SREG, &[])?;
    }
    if isa.result_register_checked(op)
        && spec.operands.is_none_or(|(lo, hi)| (lo..=hi).contains(&ins.operands.len()))
        && let Some(Operand::Expr(Expr { kind: ExprKind::Int(_) | ExprKind::Float(_), .. })) = ins.operands.first()
    {
        return sink.at(line, msg::RESULT_REGISTER, &[&dname]);
    }
    if op == "mov" && mov_vectors_and_special(ins, &mods, fs, line, &dname, sink)? {
        return Ok(());
    }
    // A vector special register (`%tid`) used without a component.
    if ins.operands.iter().any(|o| {
        matches!(o, Operand::Expr(Expr { kind: ExprKind::Sym(id, None), .. })
            if sreg::lookup(&id.name).is_some_and(|(_, comps, ..)| comps))
    }) {
        return sink.at(line, msg::VECTOR_SIZE, &[&dname]);
    }
    // Operands.
    let is_branch = matches!(op, "bra" | "call" | "brx");
    let mut mismatch = false;
    let mut illegal_operand = false;
    for (i, o) in ins.operands.iter().enumerate() {
        let mut syms: Vec<(&Ident, bool)> = Vec::new();
        operand_symbols(o, &mut syms);
        for (id, in_address) in syms {
            let name = id.name.as_str();
            if name == "WARP_SZ" {
                continue;
            }
            if name.starts_with('%')
                && let Some((_, comps, sm, ptx)) = sreg::lookup(name)
            {
                let _ = comps;
                if ptx > ctx.version {
                    sink.at(line, msg::FEATURE_PTX, &[name, &super::header::version_text(ptx)])?;
                }
                if sm > ctx.sm() {
                    sink.at(line, msg::FEATURE_SM, &[name, &format!("sm_{sm}")])?;
                }
                continue;
            }
            if fs.lookup(name).is_some() || fs.has_label(name) || md.globals.contains_key(name) {
                if op == "call" && i == 0 || (op == "call" && ins.operands.len() > 1 && is_call_target(ins, i)) {
                    call_target(ins, name, line, sink, md, fs, late)?;
                }
                continue;
            }
            if fs.declared_somewhere(name) {
                if !mismatch {
                    sink.at(line, msg::ARGUMENTS_MISMATCH, &[op])?;
                }
                return sink.at(line, msg::FORWARD_REFERENCE, &[name]);
            }
            if is_branch && is_call_target(ins, i) {
                if op == "call" {
                    sink.at(line, msg::CALL_NEEDS_PROTOTYPE, &[name])?;
                }
            } else if in_address {
                if !illegal_operand {
                    illegal_operand = true;
                    sink.at(line, msg::ILLEGAL_OPERAND_TYPE, &[op])?;
                }
            } else if !mismatch {
                // After `Unexpected instruction types` the unknown symbol is only reported at
                // the end of the function (probed: add, popc, mbarrier.test_wait).
                mismatch = true;
                if !types_bad {
                    sink.at(line, msg::ARGUMENTS_MISMATCH, &[&dname])?;
                }
            }
            deferred.push((line, name.to_string()));
        }
    }
    if let Some((lo, hi)) = spec.operands
        && !mismatch
        && !types_bad
        && !(lo..=hi).contains(&ins.operands.len())
    {
        mismatch = true;
        sink.at(line, msg::ARGUMENTS_MISMATCH, &[&dname])?;
    }
    if !mismatch
        && !types_bad
        && let Some(sig) = spec.signature(&mods)
        && (ins.operands.len() < spec.required_operands(&mods) || !operands_fit(ins, sig, &types, fs))
    {
        mismatch = true;
        sink.at(line, msg::ARGUMENTS_MISMATCH, &[&dname])?;
    }
    // Two mov shapes ptxas refuses as `Arguments mismatch`: a variable's address moved as a
    // float or predicate (probed: `mov.f64`, `mov.f32`, `mov.pred` of a `.shared` array; a
    // function's address only warns), and a packing or unpacking move without a bit type
    // (probed: `mov.u64 {%r1, %r2}, %rd1`, `mov.f64 %rd1, {%r1, %r2}`, `mov.u32 {%h1, %h2}, %r1`).
    if !mismatch
        && !types_bad
        && op == "mov"
        && let [t] = &types[..]
    {
        let packs = !t.starts_with(".b")
            && !mods.iter().any(|m| m.starts_with(".v"))
            && ins.operands.iter().any(|o| matches!(o, Operand::Vector(..)));
        let float_address = (t.starts_with(".f") || *t == ".pred")
            && matches!(ins.operands.get(1), Some(Operand::Expr(Expr { kind: ExprKind::Sym(id, None), .. }))
                if fs.lookup(&id.name).is_some_and(|d| d.contains(' '))
                    || matches!(md.globals.get(id.name.as_str()), Some(Global::Var { .. })));
        if packs || float_address {
            mismatch = true;
            sink.at(line, msg::ARGUMENTS_MISMATCH, &[&dname])?;
        }
    }
    if !mismatch
        && !types_bad
        && let Some(rule) = isa.operand_count_rule(op, &mods)
    {
        let n = ins.operands.len();
        let (lo, hi) = rule.unwrap_or((0, spec.signature(&mods).map_or(usize::MAX, <[OperandKind]>::len)));
        if !(lo..=hi).contains(&n) {
            mismatch = true;
            sink.at(line, msg::ARGUMENTS_MISMATCH, &[&dname])?;
        }
    }
    if !mismatch
        && !types_bad
        && let Some(kind) = isa.last_operand_kind(op, &mods)
        && !ins.operands.is_empty()
    {
        let n = ins.operands.len();
        let sig: Vec<OperandKind> = (0..n).map(|i| if i + 1 == n { kind } else { OperandKind::Any }).collect();
        if !operands_fit(ins, &sig, &types, fs) {
            mismatch = true;
            sink.at(line, msg::ARGUMENTS_MISMATCH, &[&dname])?;
        }
    }
    // `mma`'s fragments: each register against its fragment's element type.
    if !mismatch && !types_bad && op == "mma" && !mma_registers_fit(ins, &types, fs) {
        mismatch = true;
        sink.at(line, msg::ARGUMENTS_MISMATCH, &[&dname])?;
    }
    // Destination and source types (`cvt`): each operand against its own type.
    if !mismatch
        && !types_bad
        && isa.split_type_operands(op)
        && let [d, s] = types[..]
    {
        let scalar_dest = type_class(&d[1..]).is_some_and(|(k, _)| k != 'x');
        let fits = |o: &Operand, t: &str| match o {
            Operand::Expr(e) => match classify(e, fs) {
                Val::Reg(Some(r)) => mem_fits(r, t),
                Val::NonReg => false,
                _ => true,
            },
            _ => true,
        };
        let bad = (scalar_dest && ins.operands.len() > 2)
            || ins.operands.iter().enumerate().any(|(i, o)| !fits(o, if i == 0 { &d[1..] } else { &s[1..] }));
        if bad {
            mismatch = true;
            sink.at(line, msg::ARGUMENTS_MISMATCH, &[&dname])?;
        } else if has(&mods, ".sat") && isa.cvt_sat_pointless(&d[1..], &s[1..]) {
            sink.at(line, msg::ILLEGAL_MODIFIER, &[".sat", &dname])?;
        }
    }
    if !mismatch
        && !types_bad
        && let Some(ty) = single_type
    {
        if isa.needs_noftz(op, ty) && !has(&mods, ".noftz") {
            sink.at(line, msg::NOFTZ_REQUIRED, &[op, &format!(".{ty}")])?;
        }
        if let Some((name, (legal, words))) =
            mods.iter().find_map(|m| m.get(1..).and_then(|n| isa.atomic_op(op, n).map(|r| (n, r))))
            && !legal.contains(&ty)
        {
            sink.at(line, msg::ATOMIC_OP_TYPE, &[name, words, op])?;
        }
    }
    // wmma.load/wmma.store: operand count, then the fragment's length.
    let wmma_move = if op == "wmma" {
        match (has(&mods, ".load"), has(&mods, ".store")) {
            (true, _) => Some(0),
            (_, true) => Some(1),
            _ => None,
        }
    } else {
        None
    };
    if !mismatch
        && !types_bad
        && let Some(idx) = wmma_move
    {
        if !(2..=3).contains(&ins.operands.len()) {
            mismatch = true;
            sink.at(line, msg::ARGUMENTS_MISMATCH, &[&dname])?;
        } else if let Operand::Vector(elems, _) = &ins.operands[idx]
            && let Some(matrix) = ["a", "b", "c", "d"].into_iter().find(|m| mods.iter().any(|x| x.get(1..) == Some(*m)))
            && let Some(shape) = mods
                .iter()
                .filter_map(|m| m.get(1..))
                .find(|m| m.starts_with('m') && m.contains('n') && m.contains('k'))
            && let Some(ty) = single_type
            && let Some(n) = isa.wmma_fragment(matrix, shape, ty)
            && elems.len() != n
        {
            sink.at(line, msg::VECTOR_SIZE, &[&dname])?;
        }
    }
    if !mismatch
        && !types_bad
        && wmma_move.is_some()
        && let Some(((_, shape), w)) = wmma_parts(op, &mods).zip(wmma)
    {
        match w {
            WmmaType::WrongForShape => sink.at(line, msg::WMMA_SHAPE_TYPE, &[&dname, &format!(".{shape}")])?,
            WmmaType::VectorSize => sink.at(line, msg::VECTOR_SIZE, &[&dname])?,
            _ => {}
        }
    }
    if !mismatch
        && isa.vector_moves(op)
        && let Some(n) = mods.iter().find_map(|m| m.strip_prefix(".v").and_then(|n| n.parse::<usize>().ok()))
    {
        for o in &ins.operands {
            if matches!(o, Operand::Vector(elems, _) if elems.len() != n) {
                sink.at(line, msg::VECTOR_SIZE, &[&dname])?;
            }
        }
    }
    if !mismatch
        && let Some((idx, dest)) = isa.vector_operand(op)
        && let Some(data) = ins.operands.get(idx)
    {
        let want = mods.iter().find_map(|m| m.strip_prefix(".v").and_then(|n| n.parse::<usize>().ok()));
        match data {
            Operand::Vector(elems, _) if elems.len() != want.unwrap_or(1) => {
                sink.at(line, msg::VECTOR_SIZE, &[&dname])?;
                if dest && want.is_some() {
                    sink.at(line, msg::VECTOR_SIZE, &[&dname])?;
                }
            }
            Operand::Vector(..) => {}
            Operand::Expr(Expr { kind: ExprKind::Sym(id, None), .. }) if fs.is_vector(&id.name) => {}
            _ if want.is_some_and(|n| n > 1) => {
                if dest {
                    sink.at(line, msg::RESULT_VECTOR, &[])?;
                    sink.at(line, msg::VECTOR_SIZE, &[&dname])?;
                }
                sink.at(line, msg::VECTOR_SIZE, &[&dname])?;
            }
            _ => {}
        }
    }
    // Special registers as operands of instructions that do not read them.
    if !mismatch && !types_bad {
        let int = |t: &&str| type_class(&t[1..]).is_some_and(|(k, _)| matches!(k, 'b' | 'u' | 's'));
        let allowed = isa.sreg_operands_allowed(op) && (op != "cvt" || (types.len() == 2 && types.iter().all(int)));
        let readers = isa.sreg_dest_checked(op);
        for (i, o) in ins.operands.iter().enumerate() {
            if let Operand::Expr(Expr { kind: ExprKind::Sym(id, _), .. }) = o
                && id.name.starts_with('%')
                && sreg::lookup(&id.name).is_some()
                && !allowed
                && !(readers && i == 0)
            {
                sink.at(line, msg::SREG_NOT_ALLOWED, &[&dname])?;
            }
        }
    }
    if !mismatch && isa.no_discard(op) && matches!(ins.operands.first(), Some(Operand::Sink(_))) {
        return sink.at(line, msg::RESULT_DISCARD, &[op]);
    }
    if negated && !mismatch && !isa.negation_allowed(op) {
        sink.at(line, msg::NEGATION, &[&dname])?;
    }
    if !mismatch {
        for (a, b, key) in isa.conflicts(op, &mods) {
            if let Some(m) = msg::by_key(key) {
                // SAT_TYPE names the type; the others name the modifier and the space.
                let args: [&str; 2] = if key == "SAT_TYPE" { [b, a] } else { [a, b] };
                sink.at(line, m, &args)?;
            }
        }
        if mods.iter().any(|m| isa.illegal_space(op, m)) {
            sink.at(line, msg::STATE_SPACE, &[&dname])?;
        }
        address_space(ins, op, &mods, &dname, line, sink, md, fs)?;
        for (w, key) in isa.unmet_requirements(op, &mods) {
            if let Some(m) = msg::by_key(key) {
                sink.at(line, m, &[&format!(".{w}"), op])?;
            }
        }
    }
    if !mismatch {
        // An opcode without a vocabulary that takes no state space reports one like a
        // vocabulary outsider of class `S`.
        if !types_bad && isa.takes_no_space(op) && mods.iter().any(|m| is_state_space(m)) {
            late_classes.push('S');
        }
        for (class, m) in [
            ('S', msg::NO_STATE_SPACE),
            ('R', msg::ILLEGAL_ROUNDING),
            ('Q', msg::ILLEGAL_QUERY),
            ('C', msg::COMPARISON_NOT_ALLOWED),
        ] {
            if late_classes.contains(&class) {
                sink.at(line, m, &[&dname])?;
                if class == 'C' && comparison_misfits(&mods, &types) {
                    sink.at(line, msg::COMPARE_MISMATCH, &[])?;
                }
            }
        }
    }
    if !mismatch
        && !types_bad
        && let Some(ty) = single_type
        && let Some(rule) = isa.rounding_rule(op, ty)
    {
        let approx = has(&mods, ".approx");
        let full = has(&mods, ".full");
        match rule {
            "R" if roundings == 0 => sink.at(line, msg::ROUNDING_REQUIRED, &[&dname])?,
            "A" if roundings + usize::from(approx) + usize::from(full) != 1 => {
                sink.at(line, msg::ROUNDING_OR_APPROX, &[&dname])?
            }
            "AR" if roundings == 0 && !approx => {
                sink.at(line, msg::ROUNDING_OR_APPROX, &[&dname])?;
                sink.at(line, msg::ROUNDING_REQUIRED, &[&dname])?;
            }
            "X" if !approx => sink.at(line, msg::APPROX_REQUIRED, &[&dname])?,
            _ if approx && !has(&mods, ".ftz") && isa.approx_needs_ftz(op, ty) => {
                sink.at(line, msg::FTZ_REQUIRED, &[&format!("{dname}.approx.{ty}")])?
            }
            _ => {}
        }
    }
    // The packing conversions' roundings: `cvt_pack::check`.
    if !mismatch
        && !(op == "cvt" && super::cvt_pack::is_packing(&mods))
        && let [d, s] = types[..]
        && isa.rounding_rule(op, "pair") == Some("C")
        && let Some(rule) = isa.cvt_rounding(&d[1..], &s[1..])
    {
        let int_rnd = |m: &&&str| matches!(**m, ".rni" | ".rzi" | ".rmi" | ".rpi");
        let ints = mods.iter().filter(int_rnd).count();
        let floats = roundings - ints;
        let wrong = match rule {
            'N' => roundings > 0,
            'I' | 'i' => floats > 0,
            _ => ints > 0,
        };
        if wrong {
            sink.at(line, msg::ILLEGAL_ROUNDING, &[&dname])?;
        } else if roundings == 0 && matches!(rule, 'I' | 'F') {
            sink.at(line, msg::ROUNDING_REQUIRED, &[&dname])?;
        }
    }
    if !mismatch
        && let Some(ty) = types.last()
        && let Some(legal) = isa.comparisons(op, &ty[1..])
    {
        let cmps: Vec<&&str> = mods.iter().filter(|m| isa.modifier_class(m) == Some('C')).collect();
        match cmps.first() {
            None => sink.at(line, msg::COMPARISON_REQUIRED, &[&dname])?,
            Some(c) if cmps.len() == 1 && !legal.iter().any(|w| c.get(1..) == Some(*w)) => {
                sink.at(line, msg::COMPARE_MISMATCH, &[])?
            }
            _ => {}
        }
    }
    // Operand k's declared register width (the packing conversions' checks).
    let reg_bits = |k: usize| match ins.operands.get(k) {
        Some(Operand::Expr(e)) => match classify(e, fs) {
            Val::Reg(Some(t)) => type_class(t).map(|(_, w)| w),
            _ => None,
        },
        _ => None,
    };
    // Feature gates before the value checks: ptxas reports `Feature 'cp.async' requires PTX ISA
    // .version 7.0` before an out-of-range cp.async size (differential sample, 2 of 5,000).
    if op == "cvt" && !mismatch && !types_bad && super::cvt_pack::is_packing(&mods) {
        super::cvt_pack::check(&mods, ins.operands.len(), &reg_bits, line, sink)?;
    }
    if op == "cvt.pack" {
        super::cvt_pack::check_int(&mods, ins.operands.len(), &reg_bits, line, sink)?;
    }
    if !mismatch {
        super::video::check(ins, op, &mods, fs, line, sink)?;
    }
    gates(gate_op, gate_mods, line, ctx, sink, false)?;
    value_checks(ins, op, &mods, line, ctx, sink)?;
    // Operation types and required modifiers: after the gates (probed on redux).
    if !mismatch {
        if !types_bad
            && let Some(ty) = single_type
            && let Some((name, legal)) =
                mods.iter().find_map(|m| m.get(1..).and_then(|n| isa.operation_types(op, n).map(|r| (n, r))))
            && !legal.contains(&ty)
        {
            sink.at(line, msg::OPERATION_TYPE, &[&format!(".{ty}"), &format!(".{name}"), &dname])?;
        }
        for key in isa.missing_modifiers(op, &mods) {
            if let Some(m) = msg::by_key(key) {
                sink.at(line, m, &[&dname])?;
            }
        }
    }
    if !sink.failed && isa.expands_macro_util(op, &mods, single_type, ctx.arch_sm.unwrap_or(ctx.sm())) {
        late.macro_util = true;
    }
    Ok(())
}

/// `mov`'s own checks of a `.vN` shape and of a special-register source, as ptxas 13.0.88
/// makes them (probed): a `.vN` move into a scalar is `Result vector expected` and `Argument
/// vector size mismatch`; a special register read as a float is `Special register argument not
/// allowed`, at a width it does not have ([`sreg::mov_widths`]) `Arguments mismatch`; a vector
/// register without a component (`%tid`) fills a `.v4` brace list of four. Returns whether the
/// instruction is fully checked (the caller stops).
fn mov_vectors_and_special(
    ins: &Instruction,
    mods: &[&str],
    fs: &FuncScope,
    line: u32,
    dname: &str,
    sink: &mut Sink,
) -> Result<bool, Fatal> {
    let vec = mods.iter().find_map(|m| m.strip_prefix(".v").and_then(|n| n.parse::<usize>().ok()));
    let dest = ins.operands.first();
    let dest_len = match dest {
        Some(Operand::Vector(elems, _)) => Some(elems.len()),
        Some(Operand::Expr(Expr { kind: ExprKind::Sym(id, None), .. })) if fs.is_vector(&id.name) => vec,
        _ => None,
    };
    if vec.is_some() && dest_len.is_none() && dest.is_some() && ins.operands.len() == 2 {
        sink.at(line, msg::RESULT_VECTOR, &[])?;
        sink.at(line, msg::VECTOR_SIZE, &[dname])?;
        return Ok(true);
    }
    let Some(Operand::Expr(Expr { kind: ExprKind::Sym(id, comp), .. })) = ins.operands.get(1) else { return Ok(false) };
    let Some((_, comps, ..)) = sreg::lookup(&id.name) else { return Ok(false) };
    let Some(ty) = mods.iter().copied().find(|m| type_class(&m[1..]).is_some() || *m == ".pred") else {
        return Ok(false);
    };
    let width = if ty == ".pred" { 1 } else { type_class(&ty[1..]).map_or(0, |(_, w)| w) };
    if type_class(&ty[1..]).is_some_and(|(k, _)| k == 'f') {
        sink.at(line, msg::SREG_NOT_ALLOWED, &[dname])?;
        return Ok(true);
    }
    if !sreg::mov_widths(&id.name).contains(&width) {
        sink.at(line, msg::ARGUMENTS_MISMATCH, &[dname])?;
        return Ok(true);
    }
    // `mov.v4.u32 {a, b, c, d}, %tid`: the whole vector register.
    Ok(comps && comp.is_none() && vec == Some(4) && dest_len == Some(4))
}

/// What an operand expression is, as far as type checking goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Val<'a> {
    /// A register; its type without the dot when known (`None` for special registers and
    /// vector components).
    Reg(Option<&'a str>),
    /// A variable, parameter, label or function name.
    NonReg,
    /// An integer immediate.
    Int,
    /// A floating-point immediate and its width in bits (`0f…` 32; `0d…` and decimal 64).
    Float(u32),
    /// Something not checked (undeclared names, expressions).
    Other,
}

fn classify_sym<'a>(id: &Ident, fs: &'a FuncScope) -> Val<'a> {
    let name = id.name.as_str();
    // The warp size constant (probed: `mov.u32 %r1, WARP_SZ*2` is accepted).
    if name == "WARP_SZ" {
        return Val::Int;
    }
    if name.starts_with('%') && sreg::lookup(name).is_some() {
        return Val::Reg(None);
    }
    match fs.lookup(name) {
        Some(t) if t.contains(' ') => Val::NonReg,
        Some(t) => Val::Reg(t.strip_prefix('.')),
        None if fs.has_label(name) => Val::NonReg,
        None => Val::Other,
    }
}

fn classify<'a>(e: &Expr, fs: &'a FuncScope) -> Val<'a> {
    match &e.kind {
        ExprKind::Int(_) => Val::Int,
        ExprKind::Float(f) => Val::Float(if f.text.starts_with("0f") || f.text.starts_with("0F") { 32 } else { 64 }),
        ExprKind::Sym(id, None) => classify_sym(id, fs),
        ExprKind::Sym(..) => Val::Reg(None),
        ExprKind::Unary(UnOp::Neg, a) => match classify(a, fs) {
            Val::Int => Val::Int,
            Val::Reg(t) => Val::Reg(t),
            _ => Val::Other,
        },
        ExprKind::Unary(UnOp::Not | UnOp::BitNot, a) if classify(a, fs) == Val::Int => Val::Int,
        _ => Val::Other,
    }
}

/// Kind letter and width in bits of a type suffix (without the dot): `b`, `u`, `s`, `f`
/// (scalar float), `x` (packed pair), `p` (predicate).
fn type_class(t: &str) -> Option<(char, u32)> {
    Some(match t {
        "pred" => ('p', 1),
        "f16x2" | "bf16x2" | "s16x2" | "u16x2" => ('x', 32),
        "f16" | "bf16" => ('f', 16),
        "f32" | "tf32" => ('f', 32),
        "f64" => ('f', 64),
        _ => {
            let k = t.chars().next()?;
            let n: u32 = t.get(1..)?.parse().ok()?;
            if !matches!(k, 'b' | 'u' | 's') {
                return None;
            }
            (k, n)
        }
    })
}

/// Whether a register of type `reg` may stand where instruction type `ins` is expected
/// (probed: same width; bit types take any kind; integers take bits or integers; floats and
/// packed types take bits or exactly their own type; predicates only predicates).
fn reg_fits(reg: &str, ins: &str) -> bool {
    let (Some((rk, rn)), Some((ik, i_n))) = (type_class(reg), type_class(ins)) else { return true };
    if reg == ins {
        return true;
    }
    if rk == 'p' || ik == 'p' || rn != i_n {
        return false;
    }
    match ik {
        'b' => true,
        'u' | 's' => matches!(rk, 'b' | 'u' | 's'),
        _ => rk == 'b',
    }
}

/// Whether the registers of `mma`'s D, A, B and C brace lists fit the types (D, A, B, C order,
/// as written) as ptxas 13.0.88 checks them (probed, `[reg_fits]` against the register type
/// one fragment register holds): packed f16 elements take `.b32` or `.f16x2`; bf16, tf32 and
/// the 8-bit float elements only `.b32`; integer elements (`.s8`, `.u4`, `.b1`, ...) any
/// 32-bit integer or bit register; `.f32`/`.f64`/`.s32` accumulators their own type or bits.
/// A form with other than four types is not checked here.
fn mma_registers_fit(ins: &Instruction, types: &[&str], fs: &FuncScope) -> bool {
    let [d, a, b, c] = types[..] else { return true };
    fn held(t: &str) -> &str {
        match &t[1..] {
            "f16" => "f16x2",
            "bf16" | "tf32" | "e4m3" | "e5m2" | "e3m2" | "e2m3" | "e2m1" => "bf16x2",
            "s8" | "u8" | "s4" | "u4" | "b1" => "u32",
            other => other,
        }
    }
    [d, a, b, c].iter().zip(&ins.operands).all(|(t, o)| {
        let want = held(t);
        let Operand::Vector(elems, _) = o else { return true };
        elems.iter().all(|e| match e {
            VecElem::Expr(e) => match classify(e, fs) {
                Val::Reg(Some(r)) => reg_fits(r, want),
                _ => true,
            },
            VecElem::Sink(_) => true,
        })
    })
}

/// Whether a register of type `reg` may hold `ld`/`st` data of type `ins`: as [`reg_fits`], or
/// a wider integer/bit register (probed: `ld.param.f32 %rd1` is accepted, a float register
/// of another type is not).
fn mem_fits(reg: &str, ins: &str) -> bool {
    if reg_fits(reg, ins) {
        return true;
    }
    match (type_class(reg), type_class(ins)) {
        // A wider float register fits a bit type only (probed: `st.global.b32 [a], %fd`,
        // `ld.global.b16 %f, [a]` are accepted; `.u32`/`.s8`/`.f32` with `%fd` are not).
        (Some((rk, rn)), Some((ik, i_n))) => {
            rn > i_n && (matches!(rk, 'b' | 'u' | 's') && ik != 'p' || rk == 'f' && ik == 'b')
        }
        _ => true,
    }
}

/// Whether an immediate of kind `v` fits instruction type `ins` (probed: integers fit integer,
/// bit and predicate types; floats fit `.f32`/`.f64` and the bit type of their own width).
fn imm_fits(v: Val<'_>, ins: &str) -> bool {
    match (v, type_class(ins)) {
        (_, None) => true,
        (Val::Int, Some((k, _))) => matches!(k, 'b' | 'u' | 's' | 'p'),
        (Val::Float(n), Some((k, w))) => matches!(ins, "f32" | "f64") || (k == 'b' && w == n),
        _ => true,
    }
}

/// The type twice as wide as `t`, for `.wide` forms.
fn widened(t: &str) -> Option<String> {
    let (k, n) = type_class(t)?;
    matches!(k, 'b' | 'u' | 's' | 'f').then(|| format!("{k}{}", n * 2))
}

/// Whether every operand matches the signature's kind for its position.
fn operands_fit(ins: &Instruction, sig: &[OperandKind], types: &[&str], fs: &FuncScope) -> bool {
    let ty = match types {
        [t] => t.get(1..),
        _ => None,
    };
    let wide = ty.and_then(widened);
    let pred_reg = |e: &Expr| match classify(e, fs) {
        Val::Reg(Some(t)) => t == "pred",
        Val::NonReg => false,
        _ => true,
    };
    for (o, k) in ins.operands.iter().zip(sig) {
        if *k == OperandKind::Address {
            if !matches!(o, Operand::Address(..) | Operand::Indexed(..)) {
                return false;
            }
            continue;
        }
        if *k == OperandKind::MemData {
            let fits = |e: &Expr| match (classify(e, fs), ty) {
                (Val::Reg(Some(r)), Some(t)) => mem_fits(r, t),
                (Val::NonReg, _) => false,
                _ => true,
            };
            let ok = match o {
                Operand::Expr(e) => fits(e),
                Operand::Vector(v, _) => v.iter().all(|x| match x {
                    VecElem::Expr(e) => fits(e),
                    _ => true,
                }),
                Operand::Address(..) => false,
                _ => true,
            };
            if !ok {
                return false;
            }
            continue;
        }
        let e = match o {
            Operand::Expr(e) => e,
            Operand::Address(..) if *k != OperandKind::Any => return false,
            Operand::Dual(a, b) => {
                let pred = |x: &VecElem| match x {
                    VecElem::Expr(e) => pred_reg(e),
                    VecElem::Sink(_) => true,
                };
                if *k == OperandKind::Pred && !(pred(a) && pred(b)) {
                    return false;
                }
                continue;
            }
            _ => continue,
        };
        let not_of = match &e.kind {
            ExprKind::Unary(UnOp::Not, a) if classify(a, fs) != Val::Int => Some(a.as_ref()),
            _ => None,
        };
        let v = classify(e, fs);
        let ok = match k {
            OperandKind::Any | OperandKind::MemData | OperandKind::Address => true,
            OperandKind::Dest | OperandKind::Src | OperandKind::WideDest | OperandKind::WideSrc => {
                let want = if matches!(k, OperandKind::WideDest | OperandKind::WideSrc) { wide.as_deref() } else { ty };
                let src = matches!(k, OperandKind::Src | OperandKind::WideSrc);
                match (want, not_of) {
                    (None, _) => true,
                    (Some(w), Some(a)) => src && w == "pred" && pred_reg(a),
                    (Some(w), None) => match v {
                        Val::Reg(Some(r)) => reg_fits(r, w),
                        Val::NonReg => !(src && fs.has_label(sym_name(e))),
                        Val::Int | Val::Float(_) => !src || imm_fits(v, w),
                        _ => true,
                    },
                }
            }
            OperandKind::IntImm => matches!(v, Val::Int | Val::Other),
            OperandKind::Pred => not_of.is_none() && pred_reg(e),
            OperandKind::PredSrc => match not_of {
                Some(a) => pred_reg(a),
                None => !matches!(v, Val::Float(_)) && (matches!(v, Val::Int) || pred_reg(e)),
            },
            OperandKind::U32Src | OperandKind::U32Dest => {
                let src = *k == OperandKind::U32Src;
                not_of.is_none()
                    && match v {
                        Val::Reg(Some(r)) => {
                            type_class(r).is_some_and(|(c, n)| n == 32 && matches!(c, 'b' | 'u' | 's'))
                        }
                        Val::Int => src,
                        Val::Float(_) => false,
                        _ => true,
                    }
            }
        };
        if !ok {
            return false;
        }
    }
    true
}

/// The variable an address (or `cvta` source) names: `[v]`, `[v+4]`.
fn address_var(o: &Operand) -> Option<&Ident> {
    let base = match o {
        Operand::Address(elems, _) => match elems.first()? {
            AddrElem::Term { base, .. } => base,
            AddrElem::Vector(..) => return None,
        },
        Operand::Expr(e) => e,
        _ => return None,
    };
    match &base.kind {
        ExprKind::Sym(id, None) => Some(id),
        ExprKind::Binary(_, a, _) => match &a.kind {
            ExprKind::Sym(id, None) => Some(id),
            _ => None,
        },
        _ => None,
    }
}

/// State space of an address's variable against the instruction's, and writes to input
/// parameters ([`crate::ptx::isa::table::ADDRESS_SPACE_CHECKED`],
/// [`crate::ptx::isa::table::WRITES_MEMORY`]).
#[allow(clippy::too_many_arguments)]
fn address_space(
    ins: &Instruction,
    op: &str,
    mods: &[&str],
    dname: &str,
    line: u32,
    sink: &mut Sink,
    md: &Module,
    fs: &FuncScope,
) -> Result<(), Fatal> {
    let isa = Isa::get();
    let base = |s: &str| s.split("::").next().unwrap_or(s).to_string();
    let space = mods.iter().find(|m| is_state_space(m)).map(|m| base(m)).unwrap_or_default();
    if isa.immediate_address_local_only(op)
        && space != ".local"
        && ins.operands.iter().any(|o| {
            matches!(o, Operand::Address(elems, _)
                if matches!(elems.first(), Some(AddrElem::Term { base: Expr { kind: ExprKind::Int(_), .. }, .. })))
        })
    {
        sink.at(line, msg::IMMEDIATE_ADDRESS, &[])?;
    }
    let checked = isa.address_space_checked(op) && !(op == "cvta" && has(mods, ".to"));
    let writes = isa.writes_memory(op);
    if !checked && !writes {
        return Ok(());
    }
    for (i, o) in ins.operands.iter().enumerate() {
        let is_addr = matches!(o, Operand::Address(..)) || (op == "cvta" && i == 1);
        let Some(id) = is_addr.then(|| address_var(o)).flatten() else { continue };
        let name = id.name.as_str();
        let var_space = match fs.lookup(name) {
            Some(t) => t.split_once(' ').map(|(sp, _)| base(sp)),
            None => match md.globals.get(name) {
                Some(Global::Var { space, .. }) => Some(base(space)),
                _ => None,
            },
        };
        let Some(var_space) = var_space.filter(|_| !space.is_empty()) else { continue };
        if writes && i == 0 && var_space == ".param" && space == ".param" && fs.input_params.contains(name) {
            sink.at(line, msg::WRITE_INPUT_PARAM, &[name])?;
        }
        if op == "ld" && i == 1 && var_space == ".param" && space == ".param" && fs.return_params.contains(name) {
            sink.at(line, msg::READ_RETURN_PARAM, &[name])?;
        }
        if checked && var_space != space {
            sink.at(line, msg::SPACE_MISMATCH, &[dname])?;
        }
    }
    Ok(())
}

/// Whether a comparison modifier on an instruction that takes none also misfits its type (the
/// setp rules of [`crate::ptx::isa::table::COMPARISONS`]; always without a type or with
/// `.pred`; probed on and/copysign/redux/match/bar).
fn comparison_misfits(mods: &[&str], types: &[&str]) -> bool {
    let isa = Isa::get();
    let Some(cmp) = mods.iter().find(|m| isa.modifier_class(m) == Some('C')) else { return false };
    match types.last().and_then(|t| t.get(1..)) {
        None | Some("pred") => true,
        Some(t) => isa.comparisons("setp", t).is_some_and(|legal| !legal.iter().any(|w| cmp.get(1..) == Some(*w))),
    }
}

/// The matrix (`a` … `d`) and shape (`m16n16k16`) of a `wmma.load`/`wmma.store`, without dots.
fn wmma_parts<'a>(op: &str, mods: &[&'a str]) -> Option<(&'a str, &'a str)> {
    if op != "wmma" || !mods.iter().any(|m| matches!(*m, ".load" | ".store")) {
        return None;
    }
    let matrix = mods.iter().filter_map(|m| m.get(1..)).find(|m| matches!(*m, "a" | "b" | "c" | "d"))?;
    let shape =
        mods.iter().filter_map(|m| m.get(1..)).find(|m| m.starts_with('m') && m.contains('n') && m.contains('k'))?;
    Some((matrix, shape))
}

fn sym_name(e: &Expr) -> &str {
    match &e.kind {
        ExprKind::Sym(id, _) => id.name.as_str(),
        _ => "",
    }
}

/// A parenthesised operand list outside `call` is, to ptxas's grammar, one parenthesised
/// constant expression: the first token that cannot continue one is a syntax error (fatal).
/// Probed: `(%r2)`, `(1+%r2)`, `(-%r2)`, `(gk+4)` are errors at the symbol (`(%tid.x)` at
/// `%tid`), `()` at `)`, `(1, 2)` at `,`, `({%r1,%r2})` at `{`; `(1)`, `(WARP_SZ)` and
/// `(0f3F800000)` are fine. Reported after the unknown modifiers and before every check of the
/// whole instruction (`Not a name of any known instruction` included), on the line of the
/// offending token (of the `(` for `)` and `,`).
fn list_syntax(ins: &Instruction, sink: &mut Sink) -> Result<(), Fatal> {
    /// The first symbol in source order (`WARP_SZ` is a constant), with its line.
    fn first_symbol(e: &Expr) -> Option<(&str, u32)> {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Float(_) => None,
            ExprKind::Sym(id, _) => (id.name != "WARP_SZ").then_some((id.name.as_str(), id.span.line)),
            ExprKind::Generic(_) => Some(("generic", e.span.line)),
            ExprKind::Unary(_, a) => first_symbol(a),
            ExprKind::Binary(_, a, b) => first_symbol(a).or_else(|| first_symbol(b)),
            ExprKind::Cond(c, a, b) => first_symbol(c).or_else(|| first_symbol(a)).or_else(|| first_symbol(b)),
        }
    }
    if ins.opcode.name == "call" {
        return Ok(());
    }
    for o in &ins.operands {
        let Operand::List(elems, span) = o else { continue };
        let near = match elems.first() {
            None => Some((")", span.line)),
            Some(ListElem::Vector(_, v)) => Some(("{", v.line)),
            Some(ListElem::Expr(e)) => first_symbol(e).or((elems.len() > 1).then_some((",", span.line))),
        };
        if let Some((near, line)) = near {
            return sink.at(line, msg::SYNTAX_ERROR, &[near]);
        }
    }
    Ok(())
}

/// State-space modifiers (an opcode whose vocabulary lacks them says `No state space …`).
fn is_state_space(m: &str) -> bool {
    matches!(
        m,
        ".global"
            | ".shared"
            | ".local"
            | ".const"
            | ".param"
            | ".tex"
            | ".surf"
            | ".generic"
            | ".shared::cta"
            | ".shared::cluster"
            | ".param::entry"
            | ".param::func"
    )
}

/// Whether operand `i` is the branch/call target (`call (ret), f, (args)` or `call f, …`).
fn is_call_target(ins: &Instruction, i: usize) -> bool {
    let first_list = matches!(ins.operands.first(), Some(Operand::List(..)));
    i == usize::from(ins.opcode.name == "call" && first_list)
}

fn call_target(
    ins: &Instruction,
    name: &str,
    line: u32,
    sink: &mut Sink,
    md: &Module,
    fs: &FuncScope,
    late: &mut Late,
) -> Result<(), Fatal> {
    let Some(Global::Func(f)) = md.globals.get(name) else { return Ok(()) };
    if f.entry {
        return sink.at(line, msg::CALL_ENTRY, &[]);
    }
    let first_list = matches!(ins.operands.first(), Some(Operand::List(..)));
    let lists: Vec<usize> =
        ins.operands.iter().filter_map(|o| if let Operand::List(v, _) = o { Some(v.len()) } else { None }).collect();
    let (rets, args) = if first_list {
        (lists.first().copied().unwrap_or(0), lists.get(1).copied().unwrap_or(0))
    } else {
        (0, lists.first().copied().unwrap_or(0))
    };
    if rets != f.returns.len() || args != f.params.len() {
        sink.at(line, msg::CALL_PARAM_COUNT, &[])?;
    } else if let Some(Operand::List(list, _)) =
        ins.operands.iter().filter(|o| matches!(o, Operand::List(..))).nth(usize::from(first_list))
    {
        // Scalar arguments against scalar formals without `.align` (probed: same size, and
        // a `.b` type on either side or both integers or the same type; another size also
        // answers the alignment message).
        for ((elem, (formal, align)), pname) in list.iter().zip(&f.params).zip(&f.param_names) {
            let ListElem::Expr(Expr { kind: ExprKind::Sym(id, None), .. }) = elem else { continue };
            let Some(decl) = fs.lookup(&id.name) else { continue };
            let arg = match decl.split_once(' ') {
                Some((".param", t)) => t,
                Some(_) => continue,
                None => decl,
            };
            if *align != 0 || formal.contains('[') || arg.contains('[') {
                continue;
            }
            let (fs_, as_) = (super::decls::type_size(formal), super::decls::type_size(arg));
            let class = |t: &str| {
                if t.starts_with(".bf") { 'f' } else { t.get(1..).and_then(|c| c.chars().next()).unwrap_or('?') }
            };
            let (fc, ac) = (class(formal), class(arg));
            let scalar = |t: &str, c: char| matches!(c, 'b' | 'u' | 's' | 'f') && t.len() <= 7 && !t.contains(' ');
            if !scalar(formal, fc) || !scalar(arg, ac) {
                continue;
            }
            let same = fs_ == as_ && (fc == 'b' || ac == 'b' || (fc != 'f' && ac != 'f') || formal == arg);
            if !same {
                sink.at(line, msg::CALL_ARG_TYPE, &[pname])?;
                if fs_ != as_ {
                    sink.at(line, msg::CALL_ARG_ALIGN, &[pname])?;
                }
            }
        }
    }
    // ptxas resolves the CUDA system functions itself, whatever prototype declares them.
    if f.is_extern && !f.defined && !SYSTEM_FUNCTIONS.contains(&name) && !late.called_externs.iter().any(|c| c == name)
    {
        late.called_externs.push(name.to_string());
    }
    Ok(())
}

/// Every identifier an operand names, with whether it sits inside an address.
fn operand_symbols<'a>(o: &'a Operand, out: &mut Vec<(&'a Ident, bool)>) {
    fn expr<'a>(e: &'a Expr, addr: bool, out: &mut Vec<(&'a Ident, bool)>) {
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            match &e.kind {
                ExprKind::Sym(id, _) | ExprKind::Generic(id) => out.push((id, addr)),
                ExprKind::Unary(_, a) => stack.push(a),
                ExprKind::Binary(_, a, b) => {
                    stack.push(b);
                    stack.push(a);
                }
                ExprKind::Cond(a, b, c) => stack.extend([c.as_ref(), b.as_ref(), a.as_ref()]),
                _ => {}
            }
        }
    }
    let vec = |v: &'a [VecElem], addr: bool, out: &mut Vec<(&'a Ident, bool)>| {
        for e in v {
            if let VecElem::Expr(e) = e {
                expr(e, addr, out);
            }
        }
    };
    match o {
        Operand::Expr(e) => expr(e, false, out),
        Operand::Dual(a, b) => {
            vec(std::slice::from_ref(a), false, out);
            vec(std::slice::from_ref(b), false, out);
        }
        Operand::Vector(v, _) => vec(v, false, out),
        Operand::Address(elems, _) => {
            for a in elems {
                match a {
                    AddrElem::Term { base, offset } => {
                        expr(base, true, out);
                        if let Some(o) = offset {
                            expr(o, true, out);
                        }
                    }
                    AddrElem::Vector(v, _) => vec(v, true, out),
                }
            }
        }
        Operand::List(elems, _) => {
            for e in elems {
                match e {
                    ListElem::Expr(e) => expr(e, false, out),
                    ListElem::Vector(v, _) => vec(v, false, out),
                }
            }
        }
        Operand::Indexed(id, e) => {
            out.push((id, false));
            expr(e, false, out);
        }
        Operand::Sink(_) => {}
    }
}

fn has(mods: &[&str], m: &str) -> bool {
    mods.contains(&m)
}

fn value_checks(
    ins: &Instruction,
    op: &str,
    mods: &[&str],
    line: u32,
    ctx: &Ctx<'_>,
    sink: &mut Sink,
) -> Result<(), Fatal> {
    // Barrier numbers.
    if matches!(op, "bar" | "barrier")
        && !has(mods, ".warp")
        && !has(mods, ".cluster")
        && let Some(Operand::Expr(Expr { kind: ExprKind::Int(n), .. })) = ins.operands.first()
        && let Some(v) = n.value()
        && v > 15
    {
        sink.at(line, msg::BARRIER_RANGE, &[&v.to_string()])?;
    }
    // Non-.sync shfl / vote.
    if matches!(op, "shfl" | "vote") && !has(mods, ".sync") && ctx.sm() >= 70 {
        if ctx.version >= 64 {
            sink.at(line, msg::NOSYNC_ERROR, &[op])?;
        } else {
            sink.at(line, msg::NOSYNC_UNPREDICTABLE, &[op])?;
            if ctx.version >= 60 {
                sink.at(line, msg::NOSYNC_DEPRECATED, &[op])?;
            }
        }
    }
    // wmma / mma need .aligned.
    let isa = Isa::get();
    let dname = isa.lookup(op).map_or_else(|| op.to_string(), |s| s.display_name(mods));
    for r in isa.immediate_rules(op, mods) {
        // A literal, or a negated one (probed: `bfe.u32 %r1, %r2, -1, 4` prints value '-1').
        let literal = match ins.operands.get(r.pos) {
            Some(Operand::Expr(Expr { kind: ExprKind::Int(n), .. })) => n.value().map(i128::from),
            Some(Operand::Expr(Expr { kind: ExprKind::Unary(UnOp::Neg, a), .. })) => match &a.kind {
                ExprKind::Int(n) => n.value().map(|v| -i128::from(v)),
                _ => None,
            },
            _ => None,
        };
        if let Some(v) = literal {
            let name = r.name.unwrap_or(&dname);
            if !r.values.is_empty() {
                if !r.values.contains(&v) {
                    let want: Vec<String> = r.values.iter().map(i128::to_string).collect();
                    sink.at(line, msg::IMM_EXPECTED, &[r.shown, name, &v.to_string(), &want.join(" or ")])?;
                }
                continue;
            }
            if let Some(m) = r.multiple
                && m != 0
                && v % m != 0
            {
                sink.at(line, msg::IMM_MULTIPLE, &[r.shown, name, &v.to_string(), &m.to_string()])?;
            }
            if v < r.lo || v > r.hi {
                sink.at(line, msg::IMM_RANGE, &[r.shown, name, &v.to_string(), &r.lo.to_string(), &r.hi.to_string()])?;
            }
        }
    }
    if isa.needs_aligned(op, has(mods, ".sync")) && !has(mods, ".aligned") {
        let name = if op == "wmma" {
            let parts: Vec<&str> = mods
                .iter()
                .take_while(|m| matches!(**m, ".load" | ".store" | ".mma" | ".a" | ".b" | ".c" | ".d"))
                .copied()
                .collect();
            format!("wmma{}", parts.concat())
        } else {
            dname.clone()
        };
        sink.at(line, msg::ALIGNED_REQUIRED, &[&name])?;
    }
    if op == "abs" && mods.iter().any(|m| matches!(*m, ".u16" | ".u32" | ".u64" | ".b16" | ".b32" | ".b64")) {
        sink.at(line, msg::ABS_SIGNED, &[])?;
    }
    if op == "neg" && mods.iter().any(|m| matches!(*m, ".u16" | ".u32" | ".u64")) {
        sink.at(line, msg::NEG_SIGNED, &[])?;
    }
    Ok(())
}

/// The gates of `op` with `mods`: the token gates (`.bf16`) when `token`, else the others.
fn gates(op: &str, mods: &[&str], line: u32, ctx: &Ctx<'_>, sink: &mut Sink, token: bool) -> Result<(), Fatal> {
    let isa = Isa::get();
    let matched: Vec<_> = isa.gates_for(op, mods).filter(|g| g.is_token() == token).collect();
    // One feature is reported once per instruction (`mma` with `.e4m3` and `.e5m2`; the
    // any-opcode `*.shared::cluster` after `st.async`'s own `::cluster` row; probed).
    let mut reported: Vec<(&str, u32, u32)> = Vec::new();
    for g in &matched {
        if reported.contains(&(g.feature, g.sm, g.ptx)) {
            continue;
        }
        let structural = |p: &str| !p.starts_with('.');
        // A more specific non-modifier row suppresses its prefix.
        if structural(g.pattern)
            && g.style != GateStyle::Modifier
            && matched.iter().any(|h| {
                h.style != GateStyle::Modifier
                    && !h.additive
                    && h.pattern.len() > g.pattern.len()
                    && h.pattern.starts_with(g.pattern)
                    && h.pattern.as_bytes()[g.pattern.len()] == b'.'
            })
        {
            continue;
        }
        reported.push((g.feature, g.sm, g.ptx));
        let feature = g.feature.replace("{op}", op);
        let sm_fail = g.sm > ctx.sm();
        let ptx_fail = g.ptx > ctx.version;
        let ptx_v = super::header::version_text(g.ptx);
        let sm_t = format!("sm_{}", g.sm);
        match g.style {
            GateStyle::FeatureSmFirst => {
                if sm_fail {
                    sink.at(line, msg::FEATURE_SM, &[&feature, &sm_t])?;
                }
                if ptx_fail {
                    sink.at(line, msg::FEATURE_PTX, &[&feature, &ptx_v])?;
                }
            }
            GateStyle::FeaturePtxFirst => {
                if ptx_fail {
                    sink.at(line, msg::FEATURE_PTX, &[&feature, &ptx_v])?;
                }
                if sm_fail {
                    sink.at(line, msg::FEATURE_SM, &[&feature, &sm_t])?;
                }
            }
            GateStyle::Instruction => {
                if ptx_fail {
                    sink.at(line, msg::FEATURE_PTX, &[&feature, &ptx_v])?;
                }
                if sm_fail {
                    sink.at(line, msg::INSTR_SM, &[&feature, &sm_t])?;
                }
            }
            GateStyle::InstructionSmFirst => {
                if sm_fail {
                    sink.at(line, msg::INSTR_SM, &[&feature, &sm_t])?;
                }
                if ptx_fail {
                    sink.at(line, msg::INSTR_PTX, &[&feature, &ptx_v])?;
                }
            }
            GateStyle::Modifier => {
                if sm_fail {
                    sink.at(line, msg::MODIFIER_SM, &[&feature, &sm_t])?;
                }
                if ptx_fail {
                    sink.at(line, msg::MODIFIER_PTX, &[&feature, &ptx_v])?;
                }
            }
            GateStyle::ArchSpecific => {
                let specific = ctx.target.is_some_and(|t| t.suffix != super::header::Suffix::None && t.sm >= g.sm);
                if ptx_fail {
                    sink.at(line, msg::FEATURE_PTX, &[&feature, &ptx_v])?;
                }
                if !specific {
                    sink.at(line, msg::NOT_SUPPORTED_ON_TARGET, &[g.instruction, &ctx.target_name])?;
                }
            }
        }
    }
    Ok(())
}
