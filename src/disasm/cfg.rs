//! `-cfg` and `-bbcfg`: the control-flow graph as Graphviz DOT, laid out as nvdisasm's.
//!
//! One `subgraph "cluster_<function>"` per function symbol of each code section; one
//! `Mrecord` node per basic block, named after the function (its first block), its label
//! (`.L_x_N`) or `BB<n>` (numbered file-wide in address order). A block starts at a function
//! symbol, a label, or after a control instruction (`BRA`, `BRX`, `JMP`, `JMX`, `EXIT`, `RET`, a
//! direct `CALL`), which is printed as the block's `exit0` port. Edges: a branch's targets leave `exit0`
//! eastwards, the fall-through (after a predicated exit, a `BRA` with a condition operand, or a
//! call) southwards, and a block that
//! ends without a control instruction continues from its `entry` port. `BRA.DIV` and `BRA.CONV`
//! are conditional. A `CALL` has an edge to its target only inside one cluster (recursion, a
//! local subroutine at a label). With `-cfg` a node is a hyperblock: a block starting at a symbol
//! or label with the unnamed blocks after it merged in; the exits inside it are numbered
//! (`exit0`, `exit1`, ...), the instruction after exit K opens port `exitpostK` (unless it is an
//! exit itself), and a merged
//! block's fall-through leaves from that port. The section's tail after the last real
//! instruction (the self-branch and the `NOP` padding) is not part of the graph.
//!
//! Invariant: node names and texts are the listing's ([`super::Code`]), escaped for record
//! labels (`\ ` for spaces, `\[`, `\]`, `\<`, `\>`, `\{`, `\}`, `\|`, `\"`), never recomputed.

use super::Code;
use crate::cubin::{Cubin, Symbol};
use crate::sass::Value;
use std::fmt::Write;

/// Escapes a record label's text.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if matches!(c, ' ' | '[' | ']' | '<' | '>' | '{' | '}' | '|' | '"') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Whether an instruction ends a basic block: a branch, exit, return or direct call (a call
/// through a register, `CALL.REL.NOINC R28 \`(k)`, does not: call_fnptr).
fn control(code: &Code, i: usize) -> bool {
    let Some(d) = code.decoded[i].as_ref() else { return false };
    match d.form.base {
        "BRA" | "BRX" | "JMP" | "JMX" | "EXIT" | "RET" => true,
        "CALL" => {
            let text = code.lines[i].text.trim_start_matches(|c| c != ' ' && code.lines[i].text.starts_with('@'));
            let operand = text.split_whitespace().nth(1).unwrap_or("");
            !(operand.starts_with('R') && operand[1..].starts_with(|c: char| c.is_ascii_digit()))
        }
        _ => false,
    }
}

/// Which graph: nvdisasm's `-bbcfg` (a node per basic block) or `-cfg` (a node per hyperblock).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `-bbcfg`.
    BasicBlocks,
    /// `-cfg`.
    Hyperblocks,
}

/// A block: first and one-past-last instruction index, its node name, and whether it starts at
/// neither a symbol nor a label (`BB<n>`).
struct Block {
    start: usize,
    end: usize,
    name: String,
    anonymous: bool,
}

/// The DOT text of `codes`.
pub fn dot(cubin: &Cubin, codes: &[Code], kind: Kind) -> String {
    let mut out = String::from("digraph f {\n");
    let mut bb = 0usize;
    for code in codes {
        section(&mut out, cubin, code, kind, &mut bb);
    }
    out.push_str("}\n");
    out
}

/// The index one past the section's last real instruction: trailing `NOP`s and the self-branch
/// before them are left out.
fn code_end(code: &Code) -> usize {
    let base = |i: usize| code.decoded[i].as_ref().map(|d| d.form.base);
    let mut end = code.lines.len().min(code.decoded.len());
    while end > 0 && base(end - 1) == Some("NOP") {
        end -= 1;
    }
    let to_self = |i: usize| {
        code.decoded[i]
            .as_ref()
            .is_some_and(|d| d.form.base == "BRA" && d.operands.iter().any(|o| matches!(o.value, Value::Target(-16))))
    };
    if end > 0 && to_self(end - 1) {
        end -= 1;
    }
    end
}

/// The targets of instruction `i` (absolute byte addresses) as the listing names them.
fn targets(code: &Code, i: usize) -> Vec<i64> {
    let Some(d) = code.decoded[i].as_ref() else { return Vec::new() };
    d.operands
        .iter()
        .filter_map(|o| match o.value {
            Value::Target(off) => Some(16 * i as i64 + 16 + off),
            _ => None,
        })
        .collect()
}

fn section(out: &mut String, cubin: &Cubin, code: &Code, kind: Kind, bb: &mut usize) {
    let end = code_end(code);
    let name_at = |addr: i64| code.name_at(addr);
    // Leaders and blocks.
    let mut leaders = std::collections::BTreeSet::from([0usize]);
    for &a in code.symbols.keys().chain(code.labels.keys()) {
        if a >= 0 && (a as usize) / 16 < end {
            leaders.insert(a as usize / 16);
        }
    }
    for i in 0..end {
        if control(code, i) && i + 1 < end {
            leaders.insert(i + 1);
        }
    }
    let starts: Vec<usize> = leaders.into_iter().collect();
    let mut blocks = Vec::with_capacity(starts.len());
    for (k, &start) in starts.iter().enumerate() {
        let stop = starts.get(k + 1).copied().unwrap_or(end);
        let named = name_at(16 * start as i64);
        let anonymous = named.is_none();
        let name = named.unwrap_or_else(|| {
            *bb += 1;
            format!("BB{}", *bb - 1)
        });
        blocks.push(Block { start, end: stop, name, anonymous });
    }
    // Clusters: each function symbol up to the next.
    let funcs: Vec<(usize, &Symbol)> =
        code.symbols.iter().filter_map(|(&a, v)| Some((a as usize / 16, *v.last()?))).collect();
    let cluster_of = |i: usize| funcs.iter().rposition(|(s, _)| *s <= i).unwrap_or(0);
    let sec_name = cubin.sections.iter().find(|s| s.index == code.f.section).map_or("", |s| s.name.as_str());
    // Nodes: with -bbcfg each block; with -cfg (hyperblocks) a block that starts at a symbol or
    // label, with the unnamed blocks after it merged in (each follows an exit of the node).
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (k, b) in blocks.iter().enumerate() {
        match groups.last_mut() {
            Some(g)
                if kind == Kind::Hyperblocks
                    && b.anonymous
                    && cluster_of(b.start) == cluster_of(blocks[g[0]].start) =>
            {
                g.push(k)
            }
            _ => groups.push(vec![k]),
        }
    }
    let mut current = usize::MAX;
    for members in &groups {
        let first = &blocks[members[0]];
        let c = cluster_of(first.start);
        if c != current {
            if current != usize::MAX {
                out.push_str("}\n");
            }
            current = c;
            let fname = funcs.get(c).map_or(code.f.name.as_str(), |(_, s)| s.name.as_str());
            let _ = writeln!(out, "subgraph \"cluster_{fname}\" {{");
        }
        let mut label = String::from("{<entry>");
        let addr = 16 * first.start as i64;
        if let Some(syms) = code.symbols.get(&addr) {
            for s in syms {
                symbol_lines(&mut label, s, &name_at);
            }
            if first.start == 0 {
                let _ = write!(label, "{sec_name}:\\l");
            }
        }
        if let Some(l) = code.labels.get(&addr) {
            let _ = write!(label, "{l}:\\l");
        }
        // Each member's exit port number (`exitK`), when it ends in a control instruction.
        let mut exits: Vec<Option<usize>> = Vec::with_capacity(members.len());
        let mut k = 0;
        for (j, &m) in members.iter().enumerate() {
            let b = &blocks[m];
            let last_control = control(code, b.end - 1);
            for i in b.start..b.end {
                // An exit's port wins over the `exitpost` port of the same line.
                let port = if i == b.end - 1 && last_control {
                    format!("|<exit{k}>")
                } else if j > 0 && i == b.start {
                    format!("|<exitpost{}>", k - 1)
                } else {
                    String::new()
                };
                let line = &code.lines[i];
                let text = match line.text.split_once("(*\"") {
                    Some((head, tail)) => format!("{}  (*\"{tail}", head.trim_end()),
                    None => line.text.clone(),
                };
                let close = super::text::close(line);
                let _ = write!(label, "{port}\\ \\ {}{}\\l", esc(&text), esc(close));
            }
            exits.push(last_control.then(|| {
                k += 1;
                k - 1
            }));
        }
        label.push('}');
        let _ = writeln!(
            out,
            "node [fontname=\"Courier\",fontsize=10,shape=Mrecord];\n\"{}\"\n[label=\"{label}\"]",
            first.name
        );
        for (j, &m) in members.iter().enumerate() {
            let next = blocks.get(m + 1).filter(|n| cluster_of(n.start) == c);
            let merged = members.get(j + 1) == Some(&(m + 1));
            let entry = if j == 0 { "entry".to_string() } else { format!("exitpost{}", exits[j - 1].unwrap_or(0)) };
            let ctx = Edges { code, from: &first.name, c, cluster_of: &cluster_of, name_at: &name_at };
            ctx.emit(out, &blocks[m], exits[j], &entry, next.filter(|_| !merged).map(|n| n.name.as_str()));
        }
    }
    if current != usize::MAX {
        out.push_str("}\n");
    }
}

/// What a block's edges need to know.
struct Edges<'a> {
    code: &'a Code<'a>,
    /// The node the block belongs to.
    from: &'a str,
    /// The block's cluster.
    c: usize,
    cluster_of: &'a dyn Fn(usize) -> usize,
    name_at: &'a dyn Fn(i64) -> Option<String>,
}

impl Edges<'_> {
    /// The edges leaving block `b`: its exit `exitK`'s targets (east) and fall-through (south),
    /// or, without a control instruction, the fall-through from `entry` (its node's entry or the
    /// `exitpostK` it starts at). `next`: the following block when it is another node.
    fn emit(&self, out: &mut String, b: &Block, exit: Option<usize>, entry: &str, next: Option<&str>) {
        let code = self.code;
        let last = b.end - 1;
        let edge = |out: &mut String, port: &str, dir: &str, to: &str| {
            let _ = writeln!(out, "\"{}\":{port}:{dir} -> \"{to}\":entry:n [style=solid];", self.from);
        };
        let (Some(k), Some(d)) = (exit, code.decoded[last].as_ref()) else {
            if let Some(n) = next {
                edge(out, entry, "s", n);
            }
            return;
        };
        let port = format!("exit{k}");
        // A predicate, or a branch condition before the target (`BRA.DIV ~URZ, ...`,
        // `BRA.U !UP0, ...`), makes the exit conditional.
        let text = &code.lines[last].text;
        let guarded = text.starts_with('@')
            || (d.form.base == "BRA"
                && (text.contains(", ") || d.suffix.split('.').any(|m| m == "DIV" || m == "CONV")));
        let mut named: Vec<String> = Vec::new();
        match d.form.base {
            "BRA" | "JMP" => named.extend(targets(code, last).into_iter().filter_map(self.name_at)),
            "BRX" | "JMX" => {
                if let Some((_, tail)) = text.split_once("BRANCH_TARGETS ") {
                    named.extend(tail.trim_end_matches("\"*)").split(',').map(str::to_string));
                }
            }
            "CALL" => named.extend(
                targets(code, last)
                    .into_iter()
                    .filter(|&a| a >= 0 && (self.cluster_of)(a as usize / 16) == self.c)
                    .filter_map(self.name_at),
            ),
            _ => {}
        }
        for t in &named {
            edge(out, &port, "e", t);
        }
        if (guarded || d.form.base == "CALL")
            && let Some(n) = next
        {
            edge(out, &port, "s", n);
        }
    }
}

/// A function symbol's directives as nvdisasm puts them in its first block's label (the
/// `.size` expression escaped for DOT).
fn symbol_lines(label: &mut String, s: &Symbol, name_at: &dyn Fn(i64) -> Option<String>) {
    let n = &s.name;
    for (directive, operand) in super::text::symbol_directives(s, name_at) {
        // `.size`'s operand is `name,(end - name)`: only the expression is escaped.
        let operand = if directive == ".size" { format!("{n},{}", esc(&operand[n.len() + 1..])) } else { operand };
        let _ = write!(label, "\t{directive}\t\t{operand}\\l");
    }
    if s.other != 0 {
        let _ = write!(label, "\t.other\t\t{n},\\<no\\ object\\>\\l");
    }
    let _ = write!(label, "{n}:\\l");
}
