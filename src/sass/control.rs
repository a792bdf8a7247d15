//! The per-instruction scheduling control field, bits [105:126) of every Volta+ SASS word.
//!
//! Layout relative to bit 105 (digest-backend §1.2): stall [0:4), yield [4] (**0 = yield**),
//! write scoreboard [5:8) (7 = none), read scoreboard [8:11) (7 = none), wait mask [11:17),
//! reuse [17:21) (bit 0 = operand A, 1 = B, 2 = C, 3 = D). Bits 126–127 are always 0.
//! Invariant: `Control::unpack(w).pack() | (w & !CONTROL_MASK) == w` for every word whose bits
//! 126–127 are 0, and `pack` never sets bits outside [`CONTROL_MASK`].

/// First bit of the control field.
pub const CONTROL_LO: u32 = 105;
/// The control field's bits within the word.
pub const CONTROL_MASK: u128 = ((1u128 << 21) - 1) << CONTROL_LO;

/// Typed control bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Control {
    /// Cycles to wait before issuing the next instruction (0–15).
    pub stall: u8,
    /// The yield hint (`Y`); stored inverted in the word.
    pub yield_: bool,
    /// Scoreboard set when the result is written (0–5), or `None`.
    pub write_sb: Option<u8>,
    /// Scoreboard released when the sources have been read (0–5), or `None`.
    pub read_sb: Option<u8>,
    /// Scoreboards to wait on before issue (6 bits).
    pub wait: u8,
    /// Operand reuse flags (4 bits: A, B, C, D).
    pub reuse: u8,
}

impl Control {
    /// Decodes the control field of `word`. Never fails: every 21-bit value is representable
    /// (scoreboard index 6 is kept as `Some(6)`).
    pub fn unpack(word: u128) -> Control {
        let c = (word >> CONTROL_LO) as u32 & 0x1f_ffff;
        let sb = |v: u32| if v == 7 { None } else { Some(v as u8) };
        Control {
            stall: (c & 0xf) as u8,
            yield_: (c >> 4) & 1 == 0,
            write_sb: sb((c >> 5) & 7),
            read_sb: sb((c >> 8) & 7),
            wait: ((c >> 11) & 0x3f) as u8,
            reuse: ((c >> 17) & 0xf) as u8,
        }
    }

    /// Packs the fields into their bit positions (already shifted to bit 105). Out-of-range
    /// fields are an error.
    pub fn pack(&self) -> Result<u128, super::EncodeError> {
        let mut w = 0u128;
        let lo = CONTROL_LO;
        super::bits::put(&mut w, lo, 4, u64::from(self.stall), "stall")?;
        super::bits::put(&mut w, lo + 4, 1, u64::from(!self.yield_), "yield")?;
        super::bits::put(&mut w, lo + 5, 3, u64::from(self.write_sb.unwrap_or(7)), "write scoreboard")?;
        super::bits::put(&mut w, lo + 8, 3, u64::from(self.read_sb.unwrap_or(7)), "read scoreboard")?;
        super::bits::put(&mut w, lo + 11, 6, u64::from(self.wait), "wait mask")?;
        super::bits::put(&mut w, lo + 17, 4, u64::from(self.reuse), "reuse")?;
        Ok(w)
    }
}

impl std::fmt::Display for Control {
    /// CuAssembler-style `[B01----:R1:W0:Y:S15]`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[B")?;
        for k in 0..6 {
            if self.wait >> k & 1 == 1 { write!(f, "{k}")? } else { write!(f, "-")? }
        }
        let sb = |s: Option<u8>| s.map_or("-".to_string(), |v| v.to_string());
        write!(
            f,
            ":R{}:W{}:{}:S{:02}]",
            sb(self.read_sb),
            sb(self.write_sb),
            if self.yield_ { "Y" } else { "-" },
            self.stall
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_examples() {
        // EXIT: hi 0x000fea0003800000 -> stall 5, no yield, no SBs, wait 0.
        let exit = 0x000fea0003800000_000000000000794du128;
        let c = Control::unpack(exit);
        assert_eq!(c, Control { stall: 5, yield_: false, write_sb: None, read_sb: None, wait: 0, reuse: 0 });
        assert_eq!(c.pack().unwrap() | (exit & !CONTROL_MASK), exit);
        // BRA to self: hi 0x000fc0000383ffff -> stall 0, yield.
        let bra = 0x000fc0000383ffff_fffffffc00fc7947u128;
        let c = Control::unpack(bra);
        assert_eq!((c.stall, c.yield_, c.write_sb, c.read_sb, c.wait), (0, true, None, None, 0));
        assert_eq!(c.pack().unwrap() | (bra & !CONTROL_MASK), bra);
        assert!(Control { stall: 16, ..c }.pack().is_err());
        assert_eq!(
            Control { stall: 15, yield_: true, write_sb: Some(0), read_sb: Some(1), wait: 3, reuse: 0 }.to_string(),
            "[B01----:R1:W0:Y:S15]"
        );
    }

    #[test]
    fn every_control_value_roundtrips() {
        for c in (0u32..1 << 21).step_by(97) {
            let w = u128::from(c) << CONTROL_LO;
            assert_eq!(Control::unpack(w).pack().unwrap(), w);
        }
    }
}
