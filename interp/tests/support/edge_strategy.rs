//! The proptest operand strategy of the semantics tests (`emu_alu.rs`, `alu_vs_semantics.rs`,
//! `emu_sweep_forms.rs`): full-width random words three times in four, otherwise one of the
//! test's edge values (each test lists the edges its operations care about).

use proptest::prelude::*;

/// Full-width values, biased 1 in 4 towards `edges`.
pub fn edge_biased<T>(edges: &[T]) -> impl Strategy<Value = T> + use<T>
where
    T: Arbitrary + Clone + std::fmt::Debug + 'static,
{
    prop_oneof![3 => any::<T>(), 1 => prop::sample::select(edges.to_vec())]
}
