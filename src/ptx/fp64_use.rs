//! `--warn-on-double-precision-use`: where ptxas 13.0.88 says `Program is doing double
//! precision computations.`, read off the PTX module.
//!
//! Measured on the real binary (one instruction per file, at -O0 and -O3 alike; the figures
//! do not depend on the level): ptxas warns once per double-precision instruction it
//! generates, located at the PTX instruction's line, in source order over the whole module
//! (device functions no kernel calls included). An instruction counts when one of its type
//! modifiers is `.f64` (`mov.b64` of an f64 register does not; `ld.global.f64` does); how many
//! warnings it gives depends on the instruction:
//!
//! - one: `ld`, `ldu`, `st`, `mov`, `add`, `sub`, `mul`, `fma`, `mad`, `neg`, `abs`, `min`,
//!   `max`, `setp`, `selp`, `set`, `slct`, `atom`, `red`;
//! - two: `cvt` (any direction), `testp`, `rcp.approx.ftz`;
//! - three: `copysign`.
//!
//! Others (`div.rn`, `rcp.rn`, `sqrt.rn`, `rsqrt.approx` and the rest) expand into ptxas's
//! internal macros, which add warnings located in `<macro util>` at that library's own lines;
//! [`warnings`] does not guess those and names the first such instruction instead, for a
//! `not supported yet` refusal.
//!
//! Invariant: a pure function of the module.

use super::ast::{Item, Module, Statement};

/// An f64 instruction whose warnings are not known ([`warnings`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown {
    /// The instruction's mnemonic with its modifiers (`div.rn.f64`).
    pub instruction: String,
    /// Its line.
    pub line: u32,
}

/// The line of every warning, in ptxas's order; or the first instruction ptxas would warn
/// about in a way not known here.
pub fn warnings(module: &Module) -> Result<Vec<u32>, Unknown> {
    let mut out = Vec::new();
    for item in &module.items {
        if let Item::Function(f) = item
            && let Some(body) = &f.body
        {
            walk(body, &mut out)?;
        }
    }
    Ok(out)
}

fn walk(body: &[Statement], out: &mut Vec<u32>) -> Result<(), Unknown> {
    for s in body {
        match s {
            Statement::Block(inner, _) => walk(inner, out)?,
            Statement::Instruction(i) => {
                let mods: Vec<&str> = i.modifiers.iter().map(|m| m.text.as_str()).collect();
                if !mods.contains(&".f64") {
                    continue;
                }
                let n = match i.opcode.name.as_str() {
                    "ld" | "ldu" | "st" | "mov" | "add" | "sub" | "mul" | "fma" | "mad" | "neg" | "abs" | "min"
                    | "max" | "setp" | "selp" | "set" | "slct" | "atom" | "red" => 1,
                    "cvt" | "testp" => 2,
                    "rcp" if mods == [".approx", ".ftz", ".f64"] => 2,
                    "copysign" => 3,
                    _ => {
                        return Err(Unknown {
                            instruction: format!("{}{}", i.opcode.name, mods.concat()),
                            line: i.span.line,
                        });
                    }
                };
                out.extend(std::iter::repeat_n(i.span.line, n));
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(body: &str) -> Result<Vec<u32>, Unknown> {
        let src = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n\
             .reg .f64 %fd<4>;\n.reg .f32 %f<2>;\n.reg .b64 %rd<2>;\n.reg .pred %p<2>;\n{body}ret;\n}}\n"
        );
        warnings(&crate::ptx::parse(&src, "k.ptx").expect("parses"))
    }

    #[test]
    fn counts_as_ptxas() {
        // Lines 10.. are the body's.
        assert_eq!(
            lines("ld.global.f64 %fd1, [%rd1];\nmov.b64 %rd1, %fd1;\nadd.f64 %fd2, %fd1, %fd1;\n"),
            Ok(vec![10, 12])
        );
        assert_eq!(
            lines("cvt.rn.f32.f64 %f1, %fd1;\n{\ncopysign.f64 %fd2, %fd1, %fd1;\n}\n"),
            Ok(vec![10, 10, 12, 12, 12])
        );
        assert_eq!(lines("rcp.approx.ftz.f64 %fd2, %fd1;\n"), Ok(vec![10, 10]));
        assert_eq!(
            lines("add.f64 %fd2, %fd1, %fd1;\ndiv.rn.f64 %fd2, %fd1, %fd1;\n"),
            Err(Unknown { instruction: "div.rn.f64".into(), line: 11 })
        );
        assert_eq!(lines("add.f32 %f1, %f1, %f1;\n"), Ok(vec![]));
    }
}
