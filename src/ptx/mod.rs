//! The PTX front end: source text → typed syntax tree, and back.
//!
//! - [`parse`] / [`parse_bytes`]: the pest grammar (`grammar.pest`) for the whole PTX 9.0
//!   surface that ptxas 13.0.88 accepts, built into the typed [`ast`] with spans. Failures are
//!   single fatal diagnostics worded and located exactly as ptxas's ([`syntax`]). A
//!   hand-written parser (`fast.rs`) builds the same tree first; wherever it is unsure (any
//!   error included) the pest grammar, the reference, decides.
//! - [`print`]: canonical PTX; `parse(print(m)) == m` (spans aside) and printing is idempotent.
//! - [`lexer`]: a token-level view used by tools that need tokens rather than a tree.
//!
//! Instructions are generic at this level (opcode, modifiers, operands); the per-opcode table
//! and the semantic checks apply to the tree afterwards.

pub mod ast;
mod fast;
pub mod fp64_use;
pub mod isa;
pub mod lexer;
pub mod limits;
pub mod parser;
pub mod printer;
pub mod sema;
pub mod syntax;

pub use ast::Module;
pub use lexer::{LexError, Token, TokenKind, lex};
pub use parser::{parse, parse_bytes};
pub use printer::print;
