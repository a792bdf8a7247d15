//! The PTX front end.
//!
//! Today: the lexer ([`lexer`]), the token level every later stage reads. The PTX front-end
//! issue adds the full grammar, the typed AST with spans, semantic checks and ptxas-exact
//! diagnostics on top of it.

pub mod lexer;

pub use lexer::{LexError, Token, TokenKind, lex};
