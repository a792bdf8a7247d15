//! nvdisasm listings, parsed into per-function instruction lists.
//!
//! `nvdisasm -hex` prints each instruction as two lines:
//! ```text
//!         /*0040*/                   IMAD R7, R7, UR4, R0 ;   /* 0x0000000407077c24 */
//!                                                             /* 0x001fe2000f8e0200 */
//! ```
//! the first carrying the byte offset, the text and the low 64 bits, the second the high 64 bits.
//! Functions are the `.text.<name>` sections (`.section .text.<name>,"ax",@progbits`). A listing
//! of raw words (`-b SMxx`) has no sections; its instructions form one unnamed function.
//!
//! Invariant: every [`Instruction`] has both halves; a listing whose instruction lines do not pair
//! up is a parse error, never a silently truncated list.

/// One disassembled instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instruction {
    /// Byte offset within the function's section.
    pub offset: u64,
    /// The instruction text as nvdisasm prints it, without the trailing `;`, e.g.
    /// `@P0 EXIT` or `IMAD R7, R7, UR4, R0`.
    pub text: String,
    /// The 128-bit instruction word (high 64 bits from the second line).
    pub word: u128,
}

/// The instructions of one `.text.<name>` section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// The function name (the section name without `.text.`); empty for raw listings.
    pub name: String,
    /// Register count from `.sectioninfo @"SHI_REGISTERS=N"` (sm_75–sm_89 cubins).
    pub sectioninfo_registers: Option<u32>,
    /// Instructions in address order.
    pub instructions: Vec<Instruction>,
}

/// A parsed listing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    /// Functions in the order nvdisasm printed them.
    pub functions: Vec<Function>,
}

impl Listing {
    /// The function named `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }
}

/// A line of the listing nvdisasm's output could not be paired or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("nvdisasm listing line {line}: {what}")]
pub struct ParseError {
    /// 1-based line in the listing.
    pub line: usize,
    /// What was wrong.
    pub what: String,
}

fn hex_comment(s: &str) -> Option<u64> {
    let inner = s.trim().strip_prefix("/*")?.strip_suffix("*/")?.trim();
    u64::from_str_radix(inner.strip_prefix("0x")?, 16).ok()
}

/// Parses `nvdisasm -hex` output (with or without `-c`, of a cubin or of raw words).
pub fn parse(text: &str) -> Result<Listing, ParseError> {
    let mut listing = Listing::default();
    let mut in_text = false;
    let mut pending: Option<(usize, u64, String, u64)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let lineno = i + 1;
        if let Some((_, offset, text, lo)) = pending.take() {
            let hi = hex_comment(line).ok_or_else(|| ParseError {
                line: lineno,
                what: format!("expected the high half of the word at {offset:#x}"),
            })?;
            let f = listing.functions.last_mut().expect("an instruction opens a function");
            f.instructions.push(Instruction { offset, text, word: (u128::from(hi) << 64) | u128::from(lo) });
            continue;
        }
        if let Some(rest) = line.strip_prefix(".sectioninfo") {
            if let (true, Some(f)) = (in_text, listing.functions.last_mut()) {
                let v = rest.split("SHI_REGISTERS=").nth(1).map(|v| v.trim_end_matches('"'));
                f.sectioninfo_registers = v.and_then(|v| v.parse().ok());
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix(".section") {
            let name = rest.trim().split(',').next().unwrap_or("").trim();
            in_text = name.starts_with(".text.");
            if in_text {
                listing.functions.push(Function {
                    name: name[".text.".len()..].to_string(),
                    sectioninfo_registers: None,
                    instructions: Vec::new(),
                });
            }
            continue;
        }
        if !line.starts_with("/*") || line.starts_with("/* 0x") {
            continue;
        }
        // "/*0040*/  <text> ;  /* 0x.... */"
        let Some(close) = line.find("*/") else { continue };
        let Ok(offset) = u64::from_str_radix(&line[2..close], 16) else { continue };
        let body = &line[close + 2..];
        if body.trim_start().starts_with('.') {
            continue; // data directives (.byte/.word/.string) of non-text sections
        }
        let Some(lo_at) = body.rfind("/* 0x") else {
            return Err(ParseError {
                line: lineno,
                what: "instruction line without its hex word (was -hex given?)".into(),
            });
        };
        let lo = hex_comment(&body[lo_at..]).ok_or_else(|| ParseError { line: lineno, what: "bad hex word".into() })?;
        let text = body[..lo_at].trim().trim_end_matches(';').trim_end().to_string();
        if !in_text && listing.functions.last().is_none_or(|f| !f.name.is_empty()) {
            // A raw-word listing (`-b SMxx`) has no sections: one unnamed function.
            listing.functions.push(Function {
                name: String::new(),
                sectioninfo_registers: None,
                instructions: Vec::new(),
            });
        }
        pending = Some((lineno, offset, text, lo));
    }
    if let Some((line, offset, ..)) = pending {
        return Err(ParseError { line, what: format!("listing ends inside the word at {offset:#x}") });
    }
    Ok(listing)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CUBIN_LISTING: &str = "\t.section\t.text.kern,\"ax\",@progbits
\t.sectioninfo\t@\"SHI_REGISTERS=24\"
kern:
.text.kern:
        /*0000*/                   MOV R1, c[0x0][0x28] ;     /* 0x00000a0000017a02 */
                                                              /* 0x000fe40000000f00 */
        /*0010*/               @P0 EXIT ;                     /* 0x000000000000094d */
                                                              /* 0x000fea0003800000 */
.L_x_1:
        /*0020*/                   NOP;                       /* 0x0000000000007918 */
                                                              /* 0x000fc00000000000 */
\t.section\t.nv.info,\"\",@\"SHT_CUDA_INFO\"
        /*0000*/ \t.byte\t0x04, 0x2f
";

    #[test]
    fn cubin_listing() {
        let l = parse(CUBIN_LISTING).unwrap();
        assert_eq!(l.functions.len(), 1);
        let f = l.function("kern").unwrap();
        assert_eq!(f.sectioninfo_registers, Some(24));
        assert_eq!(f.instructions.len(), 3);
        assert_eq!(f.instructions[1].text, "@P0 EXIT");
        assert_eq!(f.instructions[1].offset, 0x10);
        assert_eq!(f.instructions[1].word, 0x000fea0003800000_000000000000094d);
        assert_eq!(f.instructions[2].text, "NOP");
    }

    #[test]
    fn raw_listing_and_errors() {
        let raw = "        /*0030*/                   BRA -0xffffffffc0;      /* 0x0000000000007947 */
                                                           /* 0x000fc0000383ffff */\n";
        let l = parse(raw).unwrap();
        assert_eq!(l.functions[0].name, "");
        assert_eq!(l.functions[0].instructions[0].text, "BRA -0xffffffffc0");
        assert!(parse(raw.lines().next().unwrap()).is_err(), "a lone first half is an error");
    }
}
