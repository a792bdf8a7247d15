//! The fixed pseudo-random generator of launch specs: SplitMix64.
//!
//! Every executor (this crate, the GPU runner, any future tool) must produce the same buffer
//! bytes for the same spec, so the generator is part of the contract and never changes. It is
//! Steele, Lea and Flood's SplitMix64 with Vigna's constants, all arithmetic modulo 2^64:
//!
//! ```text
//! state = seed
//! next():
//!     state = state + 0x9E3779B97F4A7C15
//!     z = state
//!     z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
//!     z = (z ^ (z >> 27)) * 0x94D049BB133111EB
//!     return z ^ (z >> 31)
//! ```
//!
//! [`SplitMix64::unit_f64`] turns one output into a uniform `f64` in `[0, 1)`:
//! `(next() >> 11) * 2^-53`, which is exact (53 significant bits).
//!
//! Known answer (the published reference sequence): seed 1234567 gives 6457827717110365317,
//! 3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821.

/// SplitMix64 state. `Clone` gives an independent copy at the same position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The golden-ratio increment.
    pub const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

    /// A generator whose state is `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64-bit output.
    #[expect(clippy::should_implement_trait, reason = "the generator is infinite; `next` is its name in the spec")]
    pub fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(Self::GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform `f64` in `[0, 1)` from one output: `(next() >> 11) * 2^-53`.
    pub fn unit_f64(&mut self) -> f64 {
        unit_f64(self.next())
    }
}

/// `(r >> 11) * 2^-53`: the top 53 bits of `r` as a fraction in `[0, 1)` (exact).
pub fn unit_f64(r: u64) -> f64 {
    (r >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference sequence published for SplitMix64 (Rosetta Code, "Pseudo-random
    /// numbers/Splitmix64", which reproduces Vigna's splitmix64.c).
    #[test]
    fn published_known_answers() {
        let mut g = SplitMix64::new(1234567);
        let got: Vec<u64> = (0..5).map(|_| g.next()).collect();
        assert_eq!(
            got,
            [6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821,]
        );
    }

    /// Same source, second part: seed 987654321, 100 000 draws of floor(next_float() * 5) give
    /// the counts 20027, 19892, 20073, 19978, 20030. (Its next_float is next() / 2^64; ours keeps
    /// the top 53 bits, which moves no draw across a multiple of 1/5 here.)
    #[test]
    fn published_distribution() {
        let mut g = SplitMix64::new(987654321);
        let mut counts = [0u32; 5];
        for _ in 0..100_000 {
            counts[(g.unit_f64() * 5.0) as usize] += 1;
        }
        assert_eq!(counts, [20027, 19892, 20073, 19978, 20030]);
    }

    #[test]
    fn unit_bounds() {
        assert_eq!(unit_f64(0), 0.0);
        assert_eq!(unit_f64(u64::MAX), 1.0 - 2f64.powi(-53));
        assert_eq!(unit_f64(1 << 63), 0.5);
    }

    #[test]
    fn clone_is_independent() {
        let mut a = SplitMix64::new(42);
        a.next();
        let mut b = a.clone();
        assert_eq!(a.next(), b.next());
    }
}
