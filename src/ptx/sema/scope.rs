//! Symbol tables: module-scope symbols (variables, functions) and a function's nested scopes
//! (parameters, registers including ranged `%r<N>` declarations, local variables, labels).
//!
//! Invariants: lookups never allocate per query beyond the name; a ranged declaration `%r<N>`
//! declares exactly `%r0 … %r{N-1}` (decimal, no leading zeros); labels are function-wide.

use std::collections::{HashMap, HashSet};

/// A module-scope symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Global {
    /// A variable: its state space and type text, whether `.extern`.
    Var {
        /// `.global`, `.shared`, …
        space: String,
        /// `.u32`, …
        ty: String,
        /// Declared `.extern`.
        is_extern: bool,
    },
    /// A function or kernel.
    Func(FuncSym),
}

/// What is known of a function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FuncSym {
    /// `.entry`.
    pub entry: bool,
    /// Declared `.extern`.
    pub is_extern: bool,
    /// Has a body.
    pub defined: bool,
    /// Parameter `(type, align)` list.
    pub params: Vec<(String, u64)>,
    /// Parameter names, in order (for call-argument messages).
    pub param_names: Vec<String>,
    /// Return parameter list.
    pub returns: Vec<(String, u64)>,
    /// Whether return parameters were written at all.
    pub has_returns: bool,
    /// Aliased to this function (for `.alias` targets).
    pub alias_of: Option<String>,
}

/// A function's scopes.
#[derive(Debug, Default)]
pub struct FuncScope {
    scopes: Vec<Scope>,
    /// Every label of the function, with the blocks that define it (a block is the address of
    /// its statement list; the body's is the root). ptxas scopes labels like declarations: one
    /// defined in a `{ }` block is visible inside that block only (`{ L: } bra L;` is
    /// `Unknown symbol 'L'`; probed), before or after its definition.
    labels: HashMap<String, Vec<usize>>,
    /// The blocks open at the statement being checked, the body first.
    open_blocks: Vec<usize>,
    /// Names declared anywhere in the function (to tell a forward reference from an unknown).
    pub declared_anywhere: HashSet<String>,
    /// Ranged declarations anywhere in the function.
    pub ranged_anywhere: Vec<(String, u64)>,
    /// Names (and range prefixes) declared anywhere in the function with a `.vN` type.
    pub vector_names: HashSet<String>,
    /// The function's input parameters (not its return parameters).
    pub input_params: HashSet<String>,
    /// The function's return parameters.
    pub return_params: HashSet<String>,
}

#[derive(Debug, Default)]
struct Scope {
    names: HashMap<String, String>,
    ranged: Vec<(String, u64, String)>,
}

/// Splits `%r12` into `("%r", 12)` (no leading zeros, at most 9 digits).
pub fn split_numbered(name: &str) -> Option<(&str, u64)> {
    let digits = name.len() - name.bytes().rev().take_while(u8::is_ascii_digit).count();
    let (p, d) = name.split_at(digits);
    if d.is_empty() || d.len() > 9 || (d.len() > 1 && d.starts_with('0')) || p.is_empty() {
        return None;
    }
    Some((p, d.parse().ok()?))
}

impl FuncScope {
    /// A scope stack with one (the function's) scope.
    pub fn new() -> Self {
        FuncScope { scopes: vec![Scope::default()], ..Default::default() }
    }

    /// Whether `name` is (possibly) a vector register (`.reg .v2 .f32 %v`).
    pub fn is_vector(&self, name: &str) -> bool {
        self.vector_names.contains(name) || split_numbered(name).is_some_and(|(p, _)| self.vector_names.contains(p))
    }

    /// Enters the `{ }` block `block` (its statement list's address), or with no block open
    /// yet, the body.
    pub fn push(&mut self, block: usize) {
        if !self.open_blocks.is_empty() {
            self.scopes.push(Scope::default());
        }
        self.open_blocks.push(block);
    }

    /// Leaves a block.
    pub fn pop(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
        if self.open_blocks.len() > 1 {
            self.open_blocks.pop();
        }
    }

    /// Records label `name`, defined in block `block`.
    pub fn define_label(&mut self, name: &str, block: usize) {
        self.labels.entry(name.to_string()).or_default().push(block);
    }

    /// Whether label `name` is visible from the blocks open now (with none open: anywhere).
    pub fn has_label(&self, name: &str) -> bool {
        self.labels
            .get(name)
            .is_some_and(|bs| self.open_blocks.is_empty() || bs.iter().any(|b| self.open_blocks.contains(b)))
    }

    /// Declares `name` in the innermost scope; `false` if it is already declared there.
    pub fn declare(&mut self, name: &str, ty: &str) -> bool {
        let in_range = self.lookup_current(name);
        let s = self.scopes.last_mut().expect("scope stack is never empty");
        if in_range || s.names.contains_key(name) {
            return false;
        }
        s.names.insert(name.to_string(), ty.to_string());
        true
    }

    fn lookup_current(&self, name: &str) -> bool {
        let Some(s) = self.scopes.last() else { return false };
        match split_numbered(name) {
            Some((p, n)) => s.ranged.iter().any(|(rp, c, _)| rp == p && n < *c),
            None => false,
        }
    }

    /// Declares `%prefix<count>` in the innermost scope; `false` if the prefix's range or one
    /// of its names already exists there.
    pub fn declare_range(&mut self, prefix: &str, count: u64, ty: &str) -> bool {
        let s = self.scopes.last_mut().expect("scope stack is never empty");
        let clash = s.ranged.iter().any(|(p, _, _)| p == prefix)
            || s.names.keys().any(|k| split_numbered(k).is_some_and(|(p, n)| p == prefix && n < count));
        s.ranged.push((prefix.to_string(), count, ty.to_string()));
        !clash
    }

    /// The type of a visible register or variable.
    pub fn lookup(&self, name: &str) -> Option<&str> {
        let num = split_numbered(name);
        for s in self.scopes.iter().rev() {
            if let Some(t) = s.names.get(name) {
                return Some(t);
            }
            if let Some((p, n)) = num
                && let Some((_, _, t)) = s.ranged.iter().find(|(rp, c, _)| rp == p && n < *c)
            {
                return Some(t);
            }
        }
        None
    }

    /// Whether `name` is declared somewhere in the function (possibly later or in another block).
    pub fn declared_somewhere(&self, name: &str) -> bool {
        self.declared_anywhere.contains(name)
            || split_numbered(name).is_some_and(|(p, n)| self.ranged_anywhere.iter().any(|(rp, c)| rp == p && n < *c))
    }
}
