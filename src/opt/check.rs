//! The validation phases: OriCheckInitialProgram (0) and OriSanitize (14).
//!
//! Both run the IR verifier ([`crate::ori::verify`]) on the whole module (functions and the
//! calls between them) and fail the phase with the verifier's located errors. They differ in
//! where they sit: 0 checks what lowering produced, 14 what the setup phases left. These are
//! checks: they never change the IR.

use super::{Pass, PassError, PassKind};
use crate::ori::{Function, Module, verify_function, verify_module};

fn check_module(m: &Module, what: &str) -> Result<usize, PassError> {
    verify_module(m).map(|()| 0).map_err(|e| PassError { func: None, message: format!("{what}:\n{e}") })
}

/// Phase 0: the freshly lowered program must verify.
pub struct OriCheckInitialProgram;

impl Pass for OriCheckInitialProgram {
    fn kind(&self) -> PassKind {
        PassKind::Check
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        verify_function(f).map(|()| 0).map_err(|e| PassError::in_func(f, format!("initial program is invalid:\n{e}")))
    }
    fn run_module(&self, m: &mut Module) -> Result<usize, PassError> {
        check_module(m, "initial program is invalid")
    }
}

/// Phase 14: the IR after setup must verify.
pub struct OriSanitize;

impl Pass for OriSanitize {
    fn kind(&self) -> PassKind {
        PassKind::Check
    }
    fn run_function(&self, f: &mut Function) -> Result<usize, PassError> {
        verify_function(f).map(|()| 0).map_err(|e| PassError::in_func(f, format!("IR after setup is invalid:\n{e}")))
    }
    fn run_module(&self, m: &mut Module) -> Result<usize, PassError> {
        check_module(m, "IR after setup is invalid")
    }
}
